"""Checkpoints: tiers, optimal intervals, strategies side by side, in-memory replicas."""

from __future__ import annotations

import streamlit as st
from goodput_lab.dashboard import cache, page_context
from goodput_lab.dashboard.charts.checkpoints import (
    replica_chart,
    strategy_chart,
    waste_curve_chart,
)
from goodput_lab.dashboard.services import checkpoints as svc
from goodput_lab.dashboard.text import plain
from goodput_lab.models import ValidationError
from goodput_lab.models import checkpoint as ck

scenario, ev = page_context.current()
m = ev.metrics
catalog = cache.catalog()

st.title("Checkpoints")
st.caption(
    f"{plain(scenario.name)} — strategy **{scenario['checkpoint.strategy']}**, durable tier "
    f"**{scenario['checkpoint.durable_tier']}**, {scenario['checkpoint.save_mode']} saves, "
    f"times **{scenario['checkpoint.timings']}**. Intervals: Young (CACM 1974), Daly "
    "(FGCS 2006) and the exact Lambert-W minimiser of Daly's expected wall time."
)

c1, c2, c3, c4 = st.columns(4)
c1.metric(
    "Blocking save",
    f"{m['save_seconds']:.2f} s",
    help=f"Level-1 save; checkpoint {m['checkpoint_size_TB']:.2f} TB = "
    f"{m['checkpoint_shard_GB_per_node']:.2f} GB per node",
)
c2.metric("Restore", f"{m['restore_seconds']:.2f} s", help="Level-1 restore per failure")
c3.metric(
    "Checkpoint interval",
    f"{m['checkpoint_interval_minutes']:.1f} min",
    help=f"Optimal (exact) {m['optimal_checkpoint_interval_minutes']:.2f} min; Young "
    f"{m['young_interval_minutes']:.2f}; Daly higher order "
    f"{m['daly_higher_order_interval_minutes']:.2f}; Daly first order "
    f"{m['daly_first_order_interval_minutes']:.2f}",
)
c4.metric(
    "Checkpoint overhead",
    f"{m['checkpoint_overhead_fraction'] * 100:.2f}%",
    help="Share of failure-free time spent in blocking saves",
)
c5, c6, c7, c8 = st.columns(4)
c5.metric("Goodput", f"{m['goodput'] * 100:.2f}%")
c6.metric("Rework per failure", f"{m['rework_minutes_per_failure']:.1f} min")
c7.metric(
    "Fallbacks to durable tier",
    f"{m['fallback_failures_per_day']:.3f}/day",
    help="Failures that find no level-1 copy of some shard (two-level strategies only)",
)
if scenario["checkpoint.strategy"] == "durable_only":
    c8.metric("Optimal durable interval", "single level", help="Same as the checkpoint interval")
else:
    c8.metric(
        "Optimal durable interval",
        f"{m['optimal_durable_interval_minutes']:.1f} min",
        help=f"Current durable interval {m['durable_interval_minutes']:.1f} min",
    )

st.subheader("Checkpoint tiers")
st.caption(
    "Edit any cell to see its effect on this page (values must be numbers ≥ 0; empty = no "
    "limit). The defaults and their sources are in data/checkpoint_tiers.csv; "
    "`GOODPUT_CHECKPOINT_TIERS=my.csv` uses your own file everywhere."
)
edited = st.data_editor(
    svc.tier_table(ck.load_tiers()),
    key="ckpt:tiers",
    hide_index=True,
    disabled=["tier"],
    width="stretch",
)
try:
    tiers = svc.tiers_from_table(edited)
except ValidationError as exc:
    st.error(f"Please fix the tier table — {plain(exc)}. Using the default tiers meanwhile.")
    tiers = ck.load_tiers()

cap = tiers["memory"].capacity_GB_per_node
need = m["checkpoint_shard_GB_per_node"] * scenario["checkpoint.memory_replicas"]
if cap is not None and need > cap:
    st.warning(
        f"In-memory checkpoints need {need:,.0f} GB per node ({scenario['checkpoint.memory_replicas']}"
        f" replicas of a {m['checkpoint_shard_GB_per_node']:,.1f} GB shard) but the memory tier "
        f"holds {cap:,.0f} GB per node: use more nodes, fewer replicas or a larger allocation."
    )
ev_tiers = svc.tier_seconds(scenario, catalog, tiers)
st.dataframe(
    ev_tiers,
    column_config={
        "tier": "Tier",
        "role": "Role in this scenario",
        "save_seconds_sync": st.column_config.NumberColumn("Save, sync (s)", format="%.2f"),
        "restore_seconds": st.column_config.NumberColumn("Restore (s)", format="%.2f"),
    },
    hide_index=True,
)

st.subheader("In-memory checkpoints vs the shared file system")
replicas = st.slider(
    "In-memory replicas per shard",
    1,
    4,
    value=int(scenario["checkpoint.memory_replicas"]),
    key="ckpt:replicas",
    help="Copies of each shard in CPU memory on different nodes (HyperPod-style).",
)
answer = svc.memory_vs_shared_fs(scenario, catalog, tiers, replicas)
a1, a2, a3 = st.columns(3)
a1.metric("Goodput, shared FS only", f"{answer.goodput_baseline * 100:.2f}%")
a2.metric(
    f"Goodput, memory ({replicas} replicas) + shared FS",
    f"{answer.goodput_candidate * 100:.2f}%",
    delta=f"{(answer.goodput_candidate - answer.goodput_baseline) * 100:+.2f} points",
)
a3.metric(
    "Savings per day",
    f"${answer.savings_usd_per_day:,.0f}",
    help="Goodput gain × cluster cost per day (models.compare)",
)
st.caption(
    "CLI: `goodput compare data/scenarios/aws-16k-h100-sharedfs.toml "
    "data/scenarios/aws-16k-h100-memory.toml` (aws-16k-h100 preset, 2 replicas). "
    "Assumptions below; the rest of the scenario is the sidebar's."
)
left, right = st.columns([3, 2])
with left:
    st.dataframe(answer.assumptions, hide_index=True, width="stretch")
with right:
    survival = svc.replica_survival(scenario, catalog, tiers)
    st.plotly_chart(replica_chart(survival, replicas), width="stretch")
now = survival.filter(survival["replicas"] == replicas)
st.caption(
    "Probability that a failure destroys every in-memory copy of some shard: "
    + "; ".join(
        f"{r['placement']} placement {r['fallback_probability'] * 100:.4g}%"
        for r in now.iter_rows(named=True)
    )
    + f" (node loss in {scenario['checkpoint.node_loss_fraction'] * 100:.0f}% of failures, "
    f"re-replication window {scenario['checkpoint.rereplication_minutes']:.0f} min, "
    f"{scenario['checkpoint.correlated_fraction'] * 100:.1f}% multi-node events of "
    f"{scenario['checkpoint.correlated_nodes']} nodes)."
)

st.subheader("Strategies side by side")
table = svc.strategy_table(scenario, catalog, tiers)
curves, optima = svc.waste_curves(scenario, catalog, tiers)
l2, r2 = st.columns(2)
with l2:
    st.plotly_chart(strategy_chart(table), width="stretch")
with r2:
    st.plotly_chart(waste_curve_chart(curves, optima), width="stretch")
st.dataframe(
    table,
    column_config={
        "strategy": "Strategy",
        "goodput_pct": st.column_config.NumberColumn("Goodput (%)", format="%.2f"),
        "lost_usd_per_day": st.column_config.NumberColumn("Lost USD/day", format="$%.0f"),
        "savings_usd_per_day": st.column_config.NumberColumn(
            "Savings vs durable-only sync (USD/day)", format="$%.0f"
        ),
        "save_seconds": st.column_config.NumberColumn("Blocking save (s)", format="%.2f"),
        "restore_seconds": st.column_config.NumberColumn("Restore (s)", format="%.2f"),
        "interval_minutes": st.column_config.NumberColumn("Interval (min)", format="%.2f"),
        "durable_interval_minutes": st.column_config.NumberColumn(
            "Durable interval (min)", format="%.1f"
        ),
        "fallback_failures_per_day": st.column_config.NumberColumn("Fallbacks/day", format="%.3f"),
        "rework_minutes_per_failure": st.column_config.NumberColumn(
            "Rework/failure (min)", format="%.2f"
        ),
    },
    hide_index=True,
)
st.caption(
    "Every strategy uses tier-model save/restore times, the optimal level-1 interval and "
    "the scenario's durable interval and tier. Asynchronous saves block only for the "
    "device-to-host snapshot and are assumed not to slow training while they drain; a "
    "checkpoint is usable once written, so its write time adds to the rework."
)

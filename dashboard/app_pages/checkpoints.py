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
from goodput_lab.dashboard.services import display
from goodput_lab.dashboard.text import plain
from goodput_lab.models import ValidationError, evaluate
from goodput_lab.models import checkpoint as ck

scenario, _ev = page_context.current("Checkpoints")
catalog = cache.catalog()

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
edited_tiers = tiers != ck.load_tiers()
# the page's one baseline: the sidebar's scenario with this page's tier table
ev = evaluate(scenario, catalog, tiers)
m = ev.metrics

st.subheader("This scenario")
st.caption(
    f"Strategy **{scenario['checkpoint.strategy']}**, durable tier "
    f"**{scenario['checkpoint.durable_tier']}**, {scenario['checkpoint.save_mode']} saves; "
    f"save/restore times **{svc.basis(scenario)}**, interval **{svc.interval_basis(scenario)}**. "
    "Every comparison below is against these figures"
    + (
        " (computed with the tier table as edited above; other pages use "
        "data/checkpoint_tiers.csv)."
        if edited_tiers
        else "; they equal the Overview's."
    )
)
c1, c2, c3, c4 = st.columns(4)
c1.metric(**display.tile("save_seconds", m["save_seconds"]))
c2.metric(**display.tile("restore_seconds", m["restore_seconds"]))
c3.metric(
    "Checkpoint interval",
    display.tile("checkpoint_interval_minutes", m["checkpoint_interval_minutes"])["value"],
    help=f"Optimal (exact) {m['optimal_checkpoint_interval_minutes']:.2f} min; Young "
    f"{m['young_interval_minutes']:.2f}; Daly higher order "
    f"{m['daly_higher_order_interval_minutes']:.2f}; Daly first order "
    f"{m['daly_first_order_interval_minutes']:.2f} (Young 1974; Daly 2006). All are computed "
    "for this scenario's save time and failure rate.",
)
c4.metric(**display.tile("checkpoint_overhead_fraction", m["checkpoint_overhead_fraction"]))
c5, c6, c7, c8 = st.columns(4)
c5.metric(**display.tile("goodput", m["goodput"]))
c6.metric(**display.tile("rework_minutes_per_failure", m["rework_minutes_per_failure"]))
c7.metric(**display.tile("fallback_failures_per_day", m["fallback_failures_per_day"]))
if scenario["checkpoint.strategy"] == "durable_only":
    c8.metric("Optimal durable interval", "single level", help="Same as the checkpoint interval")
else:
    c8.metric(
        **display.tile("optimal_durable_interval_minutes", m["optimal_durable_interval_minutes"])
    )

cap = tiers["memory"].capacity_GB_per_node
need = m["checkpoint_shard_GB_per_node"] * scenario["checkpoint.memory_replicas"]
if cap is not None and need > cap:
    st.warning(
        f"In-memory checkpoints need {need:,.0f} GB per node ({scenario['checkpoint.memory_replicas']}"
        f" replicas of a {m['checkpoint_shard_GB_per_node']:,.1f} GB shard) but the memory tier "
        f"holds {cap:,.0f} GB per node: use more nodes, fewer replicas or a larger allocation."
    )
st.dataframe(
    display.table(
        [{**r, "save_seconds": r["save_seconds_sync"]} for r in ev.checkpoint_tiers()],
        [
            ("tier", "Tier"),
            ("role", "Role in this scenario"),
            ("save_seconds", "Save, synchronous (s)"),
            ("restore_seconds", "Restore (s)"),
        ],
    ),
    hide_index=True,
)

st.subheader("In-memory checkpoints vs this scenario")
replicas = st.slider(
    "In-memory replicas per shard",
    1,
    4,
    value=int(scenario["checkpoint.memory_replicas"]),
    key="ckpt:replicas",
    help="Copies of each shard in CPU memory on different nodes (HyperPod-style).",
)
answer = svc.memory_vs_scenario(scenario, catalog, tiers, replicas)
a1, a2, a3 = st.columns(3)
a1.metric("Goodput, this scenario", f"{answer.goodput_baseline * 100:.2f}%")
a2.metric(
    f"Goodput, memory ({replicas} replicas) + shared FS",
    f"{answer.goodput_candidate * 100:.2f}%",
    delta=f"{(answer.goodput_candidate - answer.goodput_baseline) * 100:+.2f} points",
)
a3.metric(**display.tile("savings_usd_per_day", answer.savings_usd_per_day))
st.caption(
    "The candidate is this scenario with checkpoints in CPU memory (tier-model times, optimal "
    "interval) plus its durable tier. With the aws-16k-h100-sharedfs preset in the sidebar "
    "this is `goodput compare aws-16k-h100-sharedfs aws-16k-h100-memory`."
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
    display.table(
        table,
        [
            ("strategy", "Strategy"),
            ("times", "Save/restore times"),
            ("interval", "Interval"),
            "goodput",
            "lost_usd_per_day",
            ("savings_usd_per_day", "Savings vs this scenario ($/day)"),
            "save_seconds",
            "restore_seconds",
            "checkpoint_interval_minutes",
            "durable_interval_minutes",
            "fallback_failures_per_day",
            "rework_minutes_per_failure",
        ],
    ),
    hide_index=True,
)
st.caption(
    "The first row is this scenario as set; the alternatives use tier-model save/restore "
    "times and the optimal level-1 interval with the scenario's durable interval and tier. "
    "Asynchronous saves block only for the device-to-host snapshot and are assumed not to "
    "slow training while they drain; a checkpoint is usable once written, so its write time "
    "adds to the rework."
)

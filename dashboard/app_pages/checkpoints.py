"""Checkpoints: tiers, optimal intervals, strategies side by side, in-memory replicas."""

from __future__ import annotations

import streamlit as st
from goodput_lab.dashboard import cache, page_context
from goodput_lab.dashboard.components import persist, tables
from goodput_lab.dashboard.text import plain
from goodput_lab.models import ValidationError
from goodput_lab.models import checkpoint as ck

from goodput_lab.charts.checkpoints import (
    replica_chart,
    strategy_chart,
    waste_curve_chart,
)
from goodput_lab.views import checkpoints as svc
from goodput_lab.views import display

scenario, _ev = page_context.current("Checkpoints")

with st.expander("Checkpoint tiers (editable)", expanded=False):
    st.caption(
        "Edit any cell to see its effect on this page (numbers ≥ 0; empty = no limit). The "
        "defaults and their sources are in data/checkpoint_tiers.csv; "
        "`GOODPUT_CHECKPOINT_TIERS=my.csv` uses your own file everywhere."
    )
    edited = st.data_editor(
        svc.tier_table(ck.load_tiers()),
        key="ckpt:tiers",
        hide_index=True,
        disabled=["tier"],
        width="stretch",
        column_config=svc.TIER_EDITOR_COLUMNS,
    )
try:
    tiers = svc.tiers_from_table(edited)
except ValidationError as exc:
    st.error(f"Please fix the tier table — {plain(exc)}. Using the default tiers meanwhile.")
    tiers = ck.load_tiers()
edited_tiers = tiers != ck.load_tiers()
# the page's one baseline: the sidebar's scenario with this page's tier table
ev, table, curves, optima, survival = cache.checkpoint_analysis(scenario, tiers)
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
interval = display.tile("checkpoint_interval_minutes", m["checkpoint_interval_minutes"])
fv = display.format_value
interval["help"] = (
    f"Optimal (exact) {fv('optimal_checkpoint_interval_minutes', m['optimal_checkpoint_interval_minutes'])}, "
    f"Young {fv('young_interval_minutes', m['young_interval_minutes'])}, Daly higher order "
    f"{fv('daly_higher_order_interval_minutes', m['daly_higher_order_interval_minutes'])}, Daly "
    f"first order {fv('daly_first_order_interval_minutes', m['daly_first_order_interval_minutes'])}"
    " (Young 1974; Daly 2006), all for this scenario's save time and failure rate."
)
c3.metric(**interval)
c4.metric(**display.tile("checkpoint_overhead_fraction", m["checkpoint_overhead_fraction"]))
c5, c6, c7, c8 = st.columns(4)
c5.metric(**display.tile("goodput", m["goodput"]))
c6.metric(**display.tile("rework_minutes_per_failure", m["rework_minutes_per_failure"]))
c7.metric(**display.tile("fallback_failures_per_day", m["fallback_failures_per_day"]))
if scenario["checkpoint.strategy"] == "durable_only":
    c8.metric(
        display.OUTPUTS["optimal_durable_interval_minutes"].label,
        "single level",
        help="A durable-only strategy has one level: its optimum is the checkpoint interval's.",
    )
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
tables.show(
    display.table(
        [
            {**r, "save_seconds": r["save_seconds_sync"], "name": tiers[r["tier"]].label}
            for r in ev.checkpoint_tiers()
        ],
        [
            ("name", "Tier"),
            ("role", "Role in this scenario"),
            ("save_seconds", "Save, synchronous (s)"),
            ("restore_seconds", "Restore (s)"),
        ],
    )
)

st.subheader("In-memory checkpoints against this scenario")
replicas = persist.widget(
    st.columns([1, 2])[0].slider,
    "ckpt:replicas",
    min(int(scenario["checkpoint.memory_replicas"]), 4),  # the slider's range (the field's is 8)
    label="In-memory replicas per shard",
    min_value=1,
    max_value=4,
    help="Copies of each shard in CPU memory on different nodes (HyperPod-style).",
)
answer = cache.memory_answer(scenario, tiers, int(replicas))
a1, a2, a3 = st.columns(3)
a1.metric(**{**display.tile("goodput", answer.goodput_baseline), "label": "Goodput, this scenario"})
a2.metric(
    **{
        **display.tile("goodput", answer.goodput_candidate),
        "label": f"Goodput, memory ({replicas} replicas) + durable",
    },
    delta=display.change("goodput", answer.goodput_candidate - answer.goodput_baseline),
)
a3.metric(**display.tile("savings_usd_per_day", answer.savings_usd_per_day, savings=True))
st.caption(
    "The candidate is this scenario with checkpoints in CPU memory (tier-model times, optimal "
    "interval) plus its durable tier. With the aws-16k-h100-sharedfs preset in the sidebar "
    "this is `goodput compare aws-16k-h100-sharedfs aws-16k-h100-memory`."
)
tables.show(answer.assumptions)
st.plotly_chart(replica_chart(survival, int(replicas)), width="stretch")
now = survival.filter(survival["replicas"] == replicas)
st.caption(
    "Probability that a failure destroys every in-memory copy of some shard: "
    + "; ".join(
        f"{r['placement']} placement {display.format_value('fallback_fraction', r['fallback_probability'])}"
        for r in now.iter_rows(named=True)
    )
    + f" (node loss in {display.field_value('checkpoint.node_loss_fraction', scenario['checkpoint.node_loss_fraction'])}"
    " of failures, re-replication window "
    f"{display.field_value('checkpoint.rereplication_minutes', scenario['checkpoint.rereplication_minutes'])}, "
    f"{display.field_value('checkpoint.correlated_fraction', scenario['checkpoint.correlated_fraction'])}"
    f" multi-node events of {scenario['checkpoint.correlated_nodes']:,} nodes)."
)

st.subheader("Strategies side by side")
st.plotly_chart(strategy_chart(table), width="stretch")
st.plotly_chart(waste_curve_chart(curves, optima), width="stretch")
tables.show(
    display.table(
        table,
        [
            ("strategy", "Strategy"),
            ("times", "Save/restore times"),
            ("interval", "Interval"),
            "goodput",
            "lost_usd_per_day",
            ("savings_usd_per_day", "Saves or costs per day", "savings"),
            "save_seconds",
            "restore_seconds",
            "checkpoint_interval_minutes",
            "rework_minutes_per_failure",
        ],
    )
)
st.caption(
    "The first row is this scenario as set; the alternatives use tier-model save/restore "
    "times and the optimal level-1 interval with the scenario's durable interval and tier. "
    "Asynchronous saves block only for the device-to-host snapshot and are assumed not to "
    "slow training while they drain; a checkpoint is usable once written, so its write time "
    "adds to the rework."
)

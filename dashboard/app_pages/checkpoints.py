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
st.caption(svc.scenario_caption(scenario, edited_tiers))
for row in svc.headline_tiles(scenario, m):
    for col, tile in zip(st.columns(len(row)), row, strict=True):
        col.metric(**tile)
warning = svc.memory_capacity_warning(scenario, m, tiers)
if warning:
    st.warning(warning)
tables.show(svc.tier_seconds_display(ev, tiers))

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
for col, tile in zip(st.columns(3), svc.memory_tiles(answer, int(replicas)), strict=True):
    col.metric(**tile)
st.caption(
    "The candidate is this scenario with checkpoints in CPU memory (tier-model times, optimal "
    "interval) plus its durable tier. With the aws-16k-h100-sharedfs preset in the sidebar "
    "this is `goodput compare aws-16k-h100-sharedfs aws-16k-h100-memory`."
)
tables.show(answer.assumptions)
st.plotly_chart(replica_chart(survival, int(replicas)), width="stretch")
st.caption(svc.survival_caption(survival, int(replicas), scenario))

st.subheader("Strategies side by side")
st.plotly_chart(strategy_chart(table), width="stretch")
st.plotly_chart(waste_curve_chart(curves, optima), width="stretch")
tables.show(svc.strategy_display(table))
tables.show(svc.strategy_times_display(table))
st.caption(
    "The first row is this scenario as set; the alternatives use tier-model save/restore "
    "times and the optimal level-1 interval with the scenario's durable interval and tier. "
    "Asynchronous saves block only for the device-to-host snapshot and are assumed not to "
    "slow training while they drain; a checkpoint is usable once written, so its write time "
    "adds to the rework."
)

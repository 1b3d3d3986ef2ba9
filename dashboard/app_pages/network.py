"""Network: collective time and scaling efficiency vs nodes per fabric, reroute comparison."""

from __future__ import annotations

import streamlit as st
from goodput_lab.dashboard import cache, page_context
from goodput_lab.dashboard.components import persist, tables

from goodput_lab.charts.network import (
    allreduce_vs_nodes_chart,
    fabric_value_chart,
    reroute_chart,
    scaling_efficiency_chart,
)
from goodput_lab.views import network as svc

scenario, ev = page_context.current("Network")
m = ev.metrics
st.caption(svc.config_caption(scenario, ev))

if cannot_run := svc.cannot_run_warning(ev):  # memory, layout, or no step time
    st.warning(cannot_run)

for col, tile in zip(st.columns(4), svc.headline_tiles(scenario, m), strict=True):
    col.metric(**tile)
if recompute := svc.recompute_caption(ev):  # what workload.recompute = 'auto' chose
    st.caption(recompute)
if batch := svc.batch_caption(ev):  # a global batch Megatron-Core would not split
    st.caption(batch)
if scenario["workload.mfu_basis"] == "end_to_end":
    st.caption(svc.end_to_end_caption(m))
    if m["mfu_gap_exceeded"] > 0.5:
        st.warning(
            "The modelled exposed communication and bubble do not fit in the share of the "
            "step this end-to-end MFU leaves for them (implied compute-phase efficiency above "
            "the accelerator's max achievable matmul fraction): the MFU is optimistic for this "
            "parallelism and fabric."
        )
st.caption(svc.efficiency_caption(scenario))

df = cache.network_scaling(scenario)
if nothing := svc.nothing_to_value(ev, df):  # no step time: no bars reading "no change"
    st.info(nothing)
else:
    st.subheader("What the fabric is worth")
    fabric_df = cache.fabric_value(scenario)
    st.plotly_chart(fabric_value_chart(fabric_df), width="stretch")
    tables.show(svc.fabric_value_display(fabric_df))
    st.caption(
        "Savings per day as in `goodput compare`: the shorter (or longer) training time "
        "valued at this cluster's cost per day, (g·r − g)·cluster with r the ratio of "
        "failure-free training times. Set network.inter_node_gbps and "
        "network.alpha_network_us in the sidebar to price your own fabric; under an "
        "end-to-end MFU the network does not change the step."
    )
if df.height:  # other catalog types may run what this one cannot: their lines still tell
    st.plotly_chart(allreduce_vs_nodes_chart(df, scenario["cluster.nodes"]), width="stretch")
    st.plotly_chart(scaling_efficiency_chart(df, scenario["cluster.nodes"]), width="stretch")

st.subheader("Collective algorithms for this gradient all-reduce")
if none := svc.no_algorithms_text(ev):  # no step time: the tile's all-reduce reads "—"
    st.info(none)
else:
    algorithms = svc.algorithm_table(ev)  # once: the table and its caption read it
    tables.show(svc.algorithm_display(algorithms))
    st.caption(svc.algorithm_caption(algorithms, ev))

st.subheader("Fabric faults: what the reroute time costs")
events = persist.widget(
    st.columns([1, 2])[0].number_input,
    "net:events_per_day",
    float(scenario["network.fabric_events_per_day"] or 1.0),
    label="Fabric link/switch events per day (for this comparison)",
    min_value=0.0,
    max_value=10_000.0,
    step=0.5,
    format="%g",
    help="Llama 3 405B saw 35 switch/cable interruptions in 54 days (0.65/day).",
)
rr = svc.reroute_comparison(scenario, cache.catalog(), float(events))
st.plotly_chart(reroute_chart(rr), width="stretch")
with st.expander("Reroute comparison as a table"):
    tables.show(svc.reroute_display(rr))
st.caption(svc.timeout_caption(scenario))

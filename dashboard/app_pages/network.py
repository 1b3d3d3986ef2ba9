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
from goodput_lab.views import display
from goodput_lab.views import network as svc

scenario, ev = page_context.current("Network")
m = ev.metrics
fv = display.format_value

gbps = scenario["network.inter_node_gbps"]
fabric = (
    f"{gbps:,.0f} Gb/s per node (yours)"
    if gbps is not None
    else f"{ev.instance.efa_gbps:,.0f} Gb/s per node (catalog)"
)
st.caption(
    f"{scenario['cluster.nodes']:,} × {ev.instance.instance}, "
    f"{display.field_value('workload.params_billion', m['model_parameters_billion'])}, "
    f"tensor parallel {scenario['workload.tensor_parallel']}, pipeline parallel "
    f"{scenario['workload.pipeline_parallel']}, ZeRO stage {scenario['workload.zero_stage']}; "
    f"scale-out {fabric}."
)

if m["memory_fits"] < 1:
    st.warning(f"This configuration cannot run: {svc.step_reason(scenario, cache.catalog())}")

e2e = scenario["workload.mfu_basis"] == "end_to_end"
modelled = scenario["workload.mfu_basis"] == "modelled"
c1, c2, c3, c4 = st.columns(4)
t = display.tile("allreduce_ms", m["allreduce_ms"])
t["help"] += (
    f" Not hidden behind the backward pass: {fv('allreduce_exposed_ms', m['allreduce_exposed_ms'])}."
)
c1.metric(**t)
parts = (
    f"compute {fv('compute_seconds_per_step', m['compute_seconds_per_step'])} + recomputation "
    f"{fv('recompute_seconds_per_step', m['recompute_seconds_per_step'])} + bubble "
    f"{fv('bubble_seconds_per_step', m['bubble_seconds_per_step'])} + exposed data-parallel "
    f"{fv('allreduce_exposed_ms', m['allreduce_exposed_ms'])} + tensor-parallel "
    f"{fv('tp_comm_ms', m['tp_comm_ms'])} + pipeline {fv('pp_comm_ms', m['pp_comm_ms'])}"
)
t = display.tile("step_seconds", m["step_seconds"])
t["help"] = (
    "Model FLOPs per step / (accelerators × peak × MFU): the MFU is end to end, so "
    f"communication and bubble are inside it, not added. The network model's split: {parts}."
    if e2e
    else f"Modelled from the system (docs/step-time.md): {parts}."
    if modelled
    else f"The sum of {parts}."
)
c2.metric(**t)
t = display.tile("scaling_efficiency", m["scaling_efficiency"])
t["help"] += (
    " Informational under the end-to-end MFU basis (the step time does not use it)."
    if e2e
    else " The share of each step spent on model math."
)
c3.metric(**t)
t = display.tile("effective_mfu", m["effective_mfu"])
if modelled:
    t["help"] += (
        " Here model FLOPs (6N + 12·L·s·h per token) / (accelerators × peak × step time), an "
        "output of the modelled step."
    )
c4.metric(**t)
if e2e:
    share = m["exposed_comm_fraction_of_step"]
    st.caption(
        "MFU basis: end to end (as published, PaLM App. B; Llama 3): communication and bubble "
        "are inside the MFU, and more bandwidth does not change the time to train here "
        "(switch workload.mfu_basis to modelled to compute the step from the system). "
        + (
            f"The network model puts {fv('exposed_comm_fraction_of_step', share)} of the step "
            "in exposed communication, part of the gap between the MFU and the accelerator's peak."
            if share <= 1
            else "The network model's exposed communication alone "
            f"({fv('exposed_comm_fraction_of_step', share)} of the step) is longer than the "
            "step this MFU implies."
        )
    )
    if m["mfu_gap_exceeded"] > 0.5:
        st.warning(
            "The modelled exposed communication and bubble do not fit in the share of the "
            "step this end-to-end MFU leaves for them (implied compute-phase efficiency above "
            "the accelerator's max achievable matmul fraction): the MFU is optimistic for this "
            "parallelism and fabric."
        )
st.caption(
    "Inter-node efficiency η = "
    f"{display.field_value('network.inter_node_efficiency', scenario['network.inter_node_efficiency'])}"
    " of the scale-out line rate: no full-scale p5 bus bandwidth is published (4 p6-b200 "
    "nodes measured 73%), so this is your input: set it from NCCL-tests busbw measured on "
    "your cluster."
)

st.subheader("What the fabric is worth")
fabric_df = cache.fabric_value(scenario)
st.plotly_chart(fabric_value_chart(fabric_df), width="stretch")
tables.show(
    display.table(
        [{**r, "time_to_train_change_days": r["days_change"]} for r in fabric_df.to_dicts()],
        svc.FABRIC_VALUE_COLUMNS,
    )
)
st.caption(
    "Savings per day as in `goodput compare`: the shorter (or longer) training time valued at "
    "this cluster's cost per day, (g·r − g)·cluster with r the ratio of failure-free training "
    "times. Set network.inter_node_gbps and network.alpha_network_us in the sidebar to price "
    "your own fabric; under an end-to-end MFU the network does not change the step."
)

df = cache.network_scaling(scenario)
st.plotly_chart(allreduce_vs_nodes_chart(df, scenario["cluster.nodes"]), width="stretch")
st.plotly_chart(scaling_efficiency_chart(df, scenario["cluster.nodes"]), width="stretch")

st.subheader("Collective algorithms for this gradient all-reduce")
tables.show(display.table(svc.algorithm_table(scenario, ev), svc.ALGORITHM_COLUMNS))
st.caption(
    "α-β model (Thakur, Rabenseifner & Gropp 2005); algorithm and bus bandwidth as "
    "NCCL-tests report them (doc/PERFORMANCE.md)."
)

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
timeout = display.field_value(
    "network.collective_timeout_seconds", scenario["network.collective_timeout_seconds"]
)
with st.expander("Reroute comparison as a table"):
    rows = [
        {**r, "outcome": "job restarts" if r["becomes_job_failure"] else "stall"}
        for r in rr.iter_rows(named=True)
    ]
    tables.show(display.table(rows, svc.REROUTE_COLUMNS))
st.caption(
    f"A stall longer than the collective timeout ({timeout}) aborts the job and costs a full "
    "recovery. Vendor figures (SIDR 'sub-second') are claims, not measurements; BGP/BFD timers "
    "are protocol settings."
)

"""Network: collective time and scaling efficiency vs nodes per fabric, reroute comparison."""

from __future__ import annotations

import streamlit as st
from goodput_lab.dashboard import cache, page_context
from goodput_lab.dashboard.charts.network import (
    allreduce_vs_nodes_chart,
    fabric_value_chart,
    reroute_chart,
    scaling_efficiency_chart,
)
from goodput_lab.dashboard.services import network as svc
from goodput_lab.dashboard.text import plain

scenario, ev = page_context.current("Network")
m = ev.metrics

gbps = scenario["network.inter_node_gbps"]
fabric = (
    f"{gbps:,.0f} Gb/s per node (yours)"
    if gbps is not None
    else f"{ev.instance.efa_gbps:,.0f} Gb/s per node (catalog)"
)
st.caption(
    f"{plain(scenario.name)} — {scenario['cluster.nodes']:,} × {ev.instance.instance}, "
    f"{m['model_parameters_billion']:,.0f}B parameters, TP {scenario['workload.tensor_parallel']}"
    f", PP {scenario['workload.pipeline_parallel']}, ZeRO stage {scenario['workload.zero_stage']}"
    f"; scale-out {fabric}"
)

if m["memory_fits"] < 1:
    st.warning(f"This configuration cannot run: {svc.step_reason(scenario, cache.catalog())}")

c1, c2, c3, c4 = st.columns(4)
c1.metric(
    "Gradient all-reduce per step",
    f"{m['allreduce_ms']:,.0f} ms",
    help="Data-parallel gradient synchronisation (hierarchical all-reduce, ×1.5 for ZeRO-3); "
    f"{m['allreduce_exposed_ms']:,.0f} ms of it is not hidden behind the backward pass.",
)
e2e = scenario["workload.mfu_basis"] == "end_to_end"
modelled = scenario["workload.mfu_basis"] == "modelled"
parts = (
    f"compute {m['compute_seconds_per_step']:.2f} s + recomputation "
    f"{m['recompute_seconds_per_step']:.2f} s + bubble "
    f"{m['bubble_seconds_per_step']:.2f} s + exposed DP {m['allreduce_exposed_ms'] / 1e3:.2f} s "
    f"+ TP {m['tp_comm_ms'] / 1e3:.2f} s + PP {m['pp_comm_ms'] / 1e3:.2f} s"
)
c2.metric(
    "Step time",
    f"{m['step_seconds']:.2f} s",
    help=(
        "Model FLOPs per step / (accelerators × peak × MFU): the MFU is end to end, so "
        f"communication and bubble are inside it, not added. Network model's split: {parts}"
        if e2e
        else f"Modelled from the system (docs/step-time.md): {parts}"
        if modelled
        else parts
    ),
)
c3.metric(
    "Scaling efficiency",
    f"{m['scaling_efficiency'] * 100:.1f}%",
    help="Compute time / (compute + bubble + exposed communication) with compute at the "
    "scenario MFU"
    + (
        ": informational under the end-to-end MFU basis (the step time does not use it)."
        if e2e
        else ": the share of each step spent on model math."
    ),
)
c4.metric(
    "Effective MFU",
    f"{m['effective_mfu'] * 100:.1f}%",
    help="End-to-end MFU before failures and checkpoints: "
    + (
        "the scenario MFU (end-to-end basis)."
        if e2e
        else "model FLOPs (6N + 12·L·s·h per token) / (accelerators × peak × step time), "
        "an output of the modelled step."
        if modelled
        else "scenario MFU × scaling efficiency."
    ),
)
if e2e:
    share = m["exposed_comm_fraction_of_step"]
    st.caption(
        "MFU basis: end to end (as published, PaLM App. B; Llama 3): communication and bubble "
        "are inside the MFU, and more bandwidth does not change the time to train here "
        "(switch workload.mfu_basis to modelled to compute the step from the system). "
        + (
            f"The network model puts {share:.0%} of the step in exposed communication, part "
            "of the gap between the MFU and the accelerator's peak."
            if share <= 1
            else f"The network model's exposed communication alone ({share:.0%} of the step) "
            "is longer than the step this MFU implies."
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
    f"Inter-node efficiency η = {scenario['network.inter_node_efficiency']:.0%} of the "
    "scale-out line rate: no full-scale p5 bus bandwidth is published (4 p6-b200 nodes "
    "measured 73%), so this is your input: set it from NCCL-tests busbw measured on your "
    "cluster."
)

st.subheader("What the fabric is worth")
fv = cache.fabric_value(scenario)
st.plotly_chart(fabric_value_chart(fv), width="stretch")
st.dataframe(
    fv.select(
        ["change", "step_seconds", "time_to_train_days", "days_change", "savings_usd_per_day"]
    ),
    column_config={
        "change": "Change",
        "step_seconds": st.column_config.NumberColumn("Step (s)", format="%.2f"),
        "time_to_train_days": st.column_config.NumberColumn("Time to train (days)", format="%.1f"),
        "days_change": st.column_config.NumberColumn("Change (days)", format="%+.1f"),
        "savings_usd_per_day": st.column_config.NumberColumn("Savings (USD/day)", format="$%.0f"),
    },
    hide_index=True,
)
st.caption(
    "Savings per day as in `goodput compare`: the shorter (or longer) training time valued at "
    "this cluster's cost per day, (g·r − g)·cluster with r the ratio of failure-free training "
    "times. Set network.inter_node_gbps and network.alpha_network_us in the sidebar to price "
    "your own fabric; under an end-to-end MFU the network does not change the step."
)

df = cache.network_scaling(scenario)
left, right = st.columns(2)
with left:
    st.plotly_chart(allreduce_vs_nodes_chart(df, scenario["cluster.nodes"]), width="stretch")
with right:
    st.plotly_chart(scaling_efficiency_chart(df, scenario["cluster.nodes"]), width="stretch")

st.subheader("Collective algorithms for this gradient all-reduce")
st.dataframe(
    svc.algorithm_table(scenario, ev),
    column_config={
        "algorithm": "Algorithm",
        "ranks": st.column_config.NumberColumn("DP ranks", format="%.0f"),
        "message_GB": st.column_config.NumberColumn("Message (GB/rank)", format="%.3f"),
        "time_ms": st.column_config.NumberColumn("Time (ms)", format="%.1f"),
        "algbw_GBps": st.column_config.NumberColumn("algbw (GB/s)", format="%.2f"),
        "busbw_GBps": st.column_config.NumberColumn("busbw (GB/s)", format="%.2f"),
    },
    hide_index=True,
)
st.caption(
    "α-β model (Thakur, Rabenseifner & Gropp 2005); algbw = size/time and busbw = algbw × "
    "2(n−1)/n as NCCL-tests report them (doc/PERFORMANCE.md)."
)

st.subheader("Fabric faults: reroute time")
events = st.number_input(
    "Fabric link/switch events per day (for this comparison)",
    min_value=0.0,
    max_value=10_000.0,
    value=float(scenario["network.fabric_events_per_day"] or 1.0),
    step=0.5,
    key="net:events_per_day",
    help="Llama 3 405B saw 35 switch/cable interruptions in 54 days (0.65/day).",
)
rr = svc.reroute_comparison(scenario, cache.catalog(), events)
st.plotly_chart(reroute_chart(rr), width="stretch")
with st.expander("Reroute comparison as a table"):
    st.dataframe(
        rr.select(["reroute", "reroute_seconds", "goodput_pct", "fabric_cost_usd_per_day"]),
        column_config={
            "reroute": "Reroute (labelled input)",
            "reroute_seconds": st.column_config.NumberColumn("Stall (s)", format="%.1f"),
            "goodput_pct": st.column_config.NumberColumn("Goodput (%)", format="%.3f"),
            "fabric_cost_usd_per_day": st.column_config.NumberColumn(
                "Cost (USD/day)", format="$%.0f"
            ),
        },
        hide_index=True,
    )
st.caption(
    f"A stall longer than the collective timeout ({scenario['network.collective_timeout_seconds']:g}"
    " s) aborts the job and costs a full recovery. Vendor figures (SIDR 'sub-second') are claims, "
    "not measurements; BGP/BFD timers are protocol settings."
)

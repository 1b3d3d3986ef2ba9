"""Optimizer: recommended checkpoint interval, hot spares and instance type, and their value."""

from __future__ import annotations

import math

import streamlit as st
from goodput_lab.dashboard import cache, page_context, state
from goodput_lab.dashboard.charts.optimizer import instance_chart, interval_chart, spares_chart
from goodput_lab.dashboard.services import optimizer as svc
from goodput_lab.dashboard.text import plain

scenario, ev = page_context.current()

st.title("Optimizer")
st.caption(
    f"{plain(scenario.name)}. Objective: the money lost per day, (1 − goodput) × cluster cost + "
    "idle spares; savings are what `goodput compare` reports for the two scenarios."
)

rec = cache.recommendation(scenario)
iv, sp, cmp = rec["interval"], rec["spares"], rec["comparison"]

c1, c2, c3, c4 = st.columns(4)
c1.metric(
    "Best checkpoint interval",
    f"{iv.interval_minutes:.1f} min",
    delta=f"{iv.interval_minutes - iv.current_interval_minutes:+.1f} min vs current",
    delta_color="off",
    help="scipy.optimize bounded Brent on Daly's exact goodput; the Lambert-W closed form "
    f"gives {iv.closed_form_minutes:.2f} min.",
)
c2.metric(
    "Best hot spares",
    f"{sp.spares}",
    delta=f"{sp.spares - sp.current_spares:+d} vs current",
    delta_color="off",
    help="Exhaustive search over 0-200 spares (M/G/∞ repair pool).",
)
c3.metric(
    "Savings per day",
    f"${cmp.savings_usd_per_day:,.0f}",
    help="Recommended interval and spares versus the current scenario.",
)
c4.metric(
    "Goodput",
    f"{cmp.candidate['goodput'] * 100:.2f}%",
    delta=f"{cmp.goodput_delta * 100:+.2f} points",
)

be = rec["break_even_rate_per_day"]
be_text = (
    f"one spare pays for itself from a node failure rate of {be * 100:.4f}% per day"
    if math.isfinite(be)
    else "one spare never pays for itself below 100% per node-day"
)
st.info(
    f"At this failure rate, hot spares pay for themselves up to **{sp.break_even_spares}** "
    f"spares (net savings ≥ 0 versus none); the best count is **{sp.spares}**. With this "
    f"scenario's repair time, {be_text}."
)
st.button(
    "Apply the recommended interval and spares to the sidebar",
    on_click=state.load_scenario,
    args=(rec["scenario"],),
    key="opt:apply",
)

left, right = st.columns(2)
with left:
    curve = cache.interval_curve(scenario)
    st.plotly_chart(
        interval_chart(curve, iv.current_interval_minutes, iv.interval_minutes), width="stretch"
    )
with right:
    table = svc.spares_table(sp, rec["price_usd_per_h"], svc.spares_view_limit(sp))
    st.plotly_chart(spares_chart(table, sp.spares, sp.current_spares), width="stretch")

st.subheader("Instance type")
st.caption(
    "Time and cost to train the workload on each type (the model's time_to_train_days and "
    "cost_to_train_usd; 6·N·D FLOPs on the BF16 peak × MFU × goodput when those are not "
    "available), with the same per-node failure rate and recovery times. "
    "Other types use the catalog's on-demand price; types without a price are listed last."
)
d1, d2 = st.columns([1, 3])
with d1:
    use_deadline = st.checkbox("Must finish by a deadline", key="opt:use_deadline")
    deadline = None
    if use_deadline:
        st.session_state.setdefault("opt:deadline", 90.0)
        deadline = st.number_input(
            "Deadline (days)", min_value=1.0, max_value=3650.0, key="opt:deadline"
        )
instances = cache.instance_table(scenario, deadline)
best = instances.row(0, named=True)
with d2:
    if best["feasible"]:
        st.success(
            f"Cheapest: **{best['instance']}** × {best['nodes']:,} nodes, "
            f"{best['time_to_train_days']:,.1f} days, ${best['cost_to_train_usd'] / 1e6:,.1f}M."
        )
    else:
        st.warning("No instance type in the catalog meets this deadline at up to 20,000 nodes.")
st.plotly_chart(instance_chart(instances, scenario["cluster.instance"]), width="stretch")
st.dataframe(instances, hide_index=True)

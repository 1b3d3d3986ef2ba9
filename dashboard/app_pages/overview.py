"""Overview: headline metrics, loss waterfall, value of reliability, assumptions."""

from __future__ import annotations

import streamlit as st
from goodput_lab.dashboard import cache, page_context
from goodput_lab.dashboard.charts.overview import goodput_vs_rate_chart, loss_waterfall
from goodput_lab.dashboard.services import overview as svc
from goodput_lab.dashboard.text import plain

scenario, ev = page_context.current("Overview")
m = ev.metrics
v = ev.value_of_reliability


c1, c2, c3, c4 = st.columns(4)
c1.metric(
    "Goodput (Daly exact)",
    f"{m['goodput'] * 100:.2f}%",
    help="Expected share of wall-clock time that advances training (Daly 2006).",
)
c2.metric(
    "Failures per day", f"{m['failures_per_day']:.2f}", help=f"Job MTBF {m['mtbf_hours']:.2f} h"
)
c3.metric(
    "Cluster cost per day",
    f"${m['cluster_usd_per_day']:,.0f}",
    help=f"{scenario['cluster.nodes']:,} nodes × ${m['usd_per_instance_hour_effective']:,.2f}/h "
    f"× 24 h ({ev.texts['pricing_model']})",
)
c4.metric(
    "Lost per day",
    f"${m['lost_usd_per_day']:,.0f}",
    help="(1 − goodput) × cluster cost, plus idle hot spares and checkpoint storage",
)

c5, c6, c7, c8 = st.columns(4)
c5.metric(
    "Goodput (first order)",
    f"{m['goodput_first_order'] * 100:.2f}%",
    help="1 − [δ/τ + λ(τ/2 + R)]: the linear estimate most spreadsheets use.",
)
c6.metric(
    "Lost per failure",
    f"{m['minutes_lost_per_failure']:.1f} min",
    help="Detection + replacement + restart + restore + half a checkpoint interval",
)
c7.metric(
    "Checkpoint interval",
    f"{m['checkpoint_interval_minutes']:.1f} min",
    help=f"Optimal (exact) {m['optimal_checkpoint_interval_minutes']:.1f} min; "
    f"Young {m['young_interval_minutes']:.1f} min",
)
c8.metric("Accelerators", f"{m['accelerators']:,.0f}", help=f"{ev.instance.accelerator}")

with st.container(border=True):
    st.subheader("Value of 0.1% lower daily node failure rate")
    slope = (
        " (the rate is below 0.1%: this is the gain of eliminating failures)"
        if v["value_of_reliability_is_partial"]
        else ""
    )
    a, b = st.columns(2)
    a.metric("Goodput gain", f"+{v['goodput_gain_per_0p1pp'] * 100:.2f} points", help=slope or None)
    b.metric(
        "Savings per day",
        f"${v['usd_per_day_per_0p1pp']:,.0f}",
        help="Goodput gain × cluster cost per day",
    )
    st.caption(
        "A public cloud blog claims 4.2% and up to $200,000/day for 16,000 H100; the "
        "aws-16k-h100 presets reproduce it with the assumptions listed below." + slope
    )

losses = svc.loss_table(ev)
left, right = st.columns(2)
with left:
    st.plotly_chart(loss_waterfall(svc.wall_time_losses(losses), m["goodput"]), width="stretch")
with right:
    sweep = svc.goodput_vs_rate(scenario, cache.catalog())
    st.plotly_chart(
        goodput_vs_rate_chart(
            sweep, scenario["reliability.node_failure_rate_per_day"] * 100, m["goodput"]
        ),
        width="stretch",
    )

st.subheader("Losses by component")
st.dataframe(
    losses.select(["label", "minutes_per_day", "usd_per_day", "goodput_points"]),
    column_config={
        "label": "Component",
        "minutes_per_day": st.column_config.NumberColumn("Minutes/day", format="%.1f"),
        "usd_per_day": st.column_config.NumberColumn("USD/day", format="dollar"),
        "goodput_points": st.column_config.NumberColumn("Goodput points", format="%.2f"),
    },
    hide_index=True,
)

st.subheader("Assumptions")
if scenario.description:
    st.caption(plain(scenario.description))
st.dataframe(svc.assumptions_table(scenario, ev.instance, ev.price), hide_index=True)

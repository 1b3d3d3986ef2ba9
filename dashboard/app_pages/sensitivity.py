"""Sensitivity: tornado of goodput and lost $/day, and 2-D maps with the current point."""

from __future__ import annotations

import streamlit as st
from goodput_lab.dashboard import cache, page_context
from goodput_lab.dashboard.charts.sensitivity import heatmap, tornado
from goodput_lab.dashboard.services import sensitivity as svc
from goodput_lab.dashboard.text import plain

scenario, ev = page_context.current()

st.title("Sensitivity")
st.caption(plain(scenario.name))

c1, c2, c3 = st.columns([1, 1, 2])
c1.metric("Goodput (Daly exact)", f"{ev['goodput'] * 100:.2f}%")
c2.metric("Lost per day", f"${ev['lost_usd_per_day']:,.0f}")
with c3:
    st.session_state.setdefault("sens:pct", 20)
    pct = st.slider(
        "Move each input by ± (%)",
        min_value=5,
        max_value=50,
        step=5,
        key="sens:pct",
        help="One at a time, all other inputs held at the scenario (local OAT sensitivity). "
        "Moves that would leave a field's allowed range stop at the bound.",
    )

table = cache.tornado_table(scenario, pct / 100)
moving = table.filter(table["goodput_swing"] + table["lost_usd_per_day_swing"] > 0)
still = table.filter(table["goodput_swing"] + table["lost_usd_per_day_swing"] == 0)
left, right = st.columns(2)
with left:
    st.plotly_chart(
        tornado(moving, "goodput", "Goodput", "%", ev["goodput"] * 100), width="stretch"
    )
with right:
    st.plotly_chart(
        tornado(moving, "lost_usd_per_day", "Lost per day", "USD/day", ev["lost_usd_per_day"]),
        width="stretch",
    )
if still.height:
    st.caption(
        "No effect on these two metrics (at this scenario): " + ", ".join(still["label"].to_list())
    )
if table["clipped"].any():
    st.caption(
        "Stopped at the allowed range: "
        + ", ".join(table.filter(table["clipped"])["label"].to_list())
    )

st.subheader("Two inputs at a time")
by_label = {label: key for key, (label, _, _) in svc.METRICS.items()}
shown = st.radio("Colour by", list(by_label), horizontal=True, key="sens:heat_metric")
metric = by_label[shown]
a, b = st.columns(2)
with a:
    st.plotly_chart(heatmap(cache.heatmap(scenario, "rate_x_interval", metric)), width="stretch")
with b:
    st.plotly_chart(heatmap(cache.heatmap(scenario, "nodes_x_rate", metric)), width="stretch")

with st.expander("Tornado table"):
    st.dataframe(table.drop("field"), hide_index=True)

"""Overview: headline metrics, loss waterfall, value of reliability, assumptions."""

from __future__ import annotations

import streamlit as st
from goodput_lab.dashboard import cache, page_context
from goodput_lab.dashboard.components import sidebar, tables
from goodput_lab.dashboard.text import plain

from goodput_lab.charts.overview import goodput_vs_rate_chart, loss_waterfall
from goodput_lab.views import overview as svc

scenario, ev = page_context.current("Overview")
m = ev.metrics

tables.tiles(
    m,
    ("goodput", "failures_per_day", "cluster_usd_per_day", "lost_usd_per_day"),
    (
        "goodput_first_order",
        "minutes_lost_per_failure",
        "checkpoint_interval_minutes",
        "mtbf_hours",
    ),
    # what the run takes (QA pass 19: goodput evaluate printed them, the landing page not)
    ("time_to_train_days", "cost_to_train_usd", "step_seconds", "effective_mfu"),
)

if (domains := svc.failure_domain_display(ev)) is not None:  # a class beyond node failures
    st.subheader("Failure classes and scale-up domains")
    st.caption(svc.failure_domain_intro(m))
    tables.show(domains)

with st.container(border=True):
    st.subheader("Value of a 0.1 percentage point lower node failure rate")
    for col, tile in zip(st.columns(3), svc.reliability_tiles(ev), strict=True):
        col.metric(**tile)
    st.caption(svc.reliability_caption(ev))

losses = svc.loss_table(ev)
st.plotly_chart(loss_waterfall(svc.wall_time_losses(losses), m["goodput"]), width="stretch")
sweep = cache.goodput_vs_rate(scenario)
st.plotly_chart(
    goodput_vs_rate_chart(
        sweep, scenario["reliability.node_failure_rate_per_day"] * 100, m["goodput"]
    ),
    width="stretch",
)

st.subheader("Losses by component")
shown, nothing = svc.split_zero_losses(losses)
tables.show(svc.loss_display(shown, ev))
st.caption(
    "Idle spare nodes and checkpoint storage cost dollars but no wall-clock time; the waterfall "
    "shows only the time losses."
    + (f" Nothing is lost here to: {', '.join(n.lower() for n in nothing)}." if nothing else "")
)

st.subheader("Assumptions")
if scenario.description:
    st.caption(plain(scenario.description))
for tab, (_title, keys) in zip(
    st.tabs(list(sidebar.input_groups())), sidebar.input_groups().items(), strict=True
):
    tables.show(svc.inputs_display(scenario, ev, keys), container=tab)
st.caption(svc.specs_caption(ev, plain))

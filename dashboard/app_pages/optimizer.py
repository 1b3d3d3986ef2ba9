"""Optimizer: recommended checkpoint interval, hot spares and instance type, and their value."""

from __future__ import annotations

import streamlit as st
from goodput_lab.dashboard import cache, page_context, state
from goodput_lab.dashboard.components import deadline as deadline_control
from goodput_lab.dashboard.components import tables
from goodput_lab.dashboard.text import plain

from goodput_lab.charts.optimizer import instance_chart, interval_chart, spares_chart
from goodput_lab.views import instances as inst_svc
from goodput_lab.views import optimizer as svc

scenario, ev = page_context.current("Optimizer")

st.caption(
    "Objective: the money lost per day, (1 − goodput) × cluster cost + idle spares; savings "
    "are what `goodput compare` reports for the two scenarios, and `goodput optimize` prints "
    "the same recommendations."
)

d1, d2 = st.columns([2, 3])
deadline = deadline_control.show(d1)
st.caption(deadline_control.used(deadline))
o = cache.optimization(scenario, deadline)
iv, sp = o.interval, o.spares

for col, tile in zip(st.columns(4), svc.headline_tiles(o), strict=True):
    col.metric(**tile)
if note := svc.interval_note(o):  # the longest interval, not an optimum (a rate of 0)
    st.info(note)
st.info(svc.spare_payoff_text(o, scenario))
st.button(
    "Apply the recommended interval and spares to the sidebar",
    on_click=state.load_scenario,
    args=(o.recommended,),
    key="opt:apply",
)

curve = cache.interval_curve(scenario)
st.plotly_chart(
    interval_chart(curve, iv.current_interval_minutes, iv.interval_minutes), width="stretch"
)
table = svc.spares_table(sp, ev["usd_per_instance_hour"], svc.spares_view_limit(sp))
st.plotly_chart(
    spares_chart(table, sp.spares, sp.current_spares, o.recommended_domain_spares_text()),
    width="stretch",
)

ds = o.domain_spares
if ds is not None:
    st.subheader("Spares by scale-up domain")
    st.info(svc.domain_spares_text(ds, o.spares_text()))
    st.caption(
        "In-domain spares leave fewer accelerators of each NVLink domain to the job (its step "
        "time changes); a failed tray is swapped inside its rack. A whole spare domain takes "
        "a rack's group after a domain event or when a rack has no spare of its own. "
        "Savings against the scenario's own spares by domain, as `goodput compare` counts "
        "them; docs/references.md#failure-domains."
    )
    tables.show(svc.domain_spares_display(ds))

st.subheader("Instance type")
ranking = o.instances
df = inst_svc.table(ranking)
best = ranking.cheapest
with d2:
    if best is not None:
        st.success(svc.cheapest_text(best))
    else:
        st.warning("No priced instance type in the catalog can train this workload in time.")
st.caption(plain(" ".join(ranking.rules())))
st.plotly_chart(instance_chart(df, scenario["cluster.instance"]), width="stretch")
tables.show(inst_svc.optimizer_display(df))
if ranking.too_close_to_call:  # the table marks those rows ~
    st.caption(inst_svc.TOO_CLOSE_CAPTION_OPTIMIZER)
tables.missing_reasons(df)

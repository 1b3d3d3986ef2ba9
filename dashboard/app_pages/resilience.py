"""Resilience: what each feature is worth, rung by rung, from the scenario to every feature."""

from __future__ import annotations

import streamlit as st
from goodput_lab.dashboard import cache, page_context
from goodput_lab.dashboard.components import tables
from goodput_lab.dashboard.text import plain
from goodput_lab.models import ValidationError
from goodput_lab.models.resilience import FEATURES

from goodput_lab.charts.resilience import cause_bars, ladder_waterfall, montecarlo_spread
from goodput_lab.views import resilience as svc

scenario, ev = page_context.current("Resilience")

st.caption(
    "Each rung adopts one more feature; its lost $/day counts goodput "
    "losses plus the cost of every feature so far (spare nodes, detection compute, "
    "replicated state), so the rungs' savings add up to the whole ladder's. Every rung is a "
    "scenario: `goodput ladder` prints its settings. Mechanisms and sources: "
    "docs/resilience.md."
)

ss = st.session_state
ss.setdefault("res:order", svc.RECOMMENDED)
ss.setdefault("res:unit", svc.UNITS[0])
# the custom order outlives the runs its widget is not drawn in (Recommended shows the
# computed order instead, in a widget of its own)
ss.setdefault("res:features_kept", ["memory_checkpoints", "async_saves", "hot_spares"])
ss.setdefault("res:lemon", 0.0)
FEATURES_LABEL = "Features, in the order to adopt them"
c1, c2 = st.columns([1, 2])
with c1:
    order = st.radio("Order", [svc.RECOMMENDED, svc.CUSTOM], key="res:order")
    lemon = st.number_input(
        "Lemon nodes' share of failures (%)",
        min_value=0.0,
        max_value=99.0,
        step=0.5,
        key="res:lemon",
        help="From `goodput fit` on your failure log (the Failure log page lists the lemon "
        "nodes and their failures). 0 = no lemons known, so evicting them saves nothing.",
    )
with c2:
    if order == svc.CUSTOM:
        ss.setdefault("res:features", list(ss["res:features_kept"]))
        chosen = st.multiselect(
            FEATURES_LABEL,
            list(FEATURES),
            format_func=svc.feature_label,
            key="res:features",
            help="Your order: each rung adopts the next feature listed.",
        )
        ss["res:features_kept"] = list(chosen)
    else:
        shown_order = st.empty()  # filled with the recommended order once computed
features = tuple(chosen) if order == svc.CUSTOM else None
if features is not None and not features:
    st.info("Pick at least one feature for your own order.")
    st.stop()
try:
    lad = cache.resilience_ladder(scenario, features, float(lemon) / 100)
except ValidationError as exc:
    st.error(f"Please fix this input — {plain(exc)}")
    st.stop()
if order != svc.CUSTOM:
    computed = [r.feature for r in lad.rungs[1:]]
    ss["res:features_recommended"] = computed  # the widget shows this run's order
    shown_order.multiselect(
        FEATURES_LABEL,
        list(FEATURES),
        format_func=svc.feature_label,
        key="res:features_recommended",
        disabled=True,
        help="The recommended order: at every rung, the feature that saves the most next. "
        "Choose 'My order' to set your own.",
    )

for row in svc.headline_tiles(lad):
    for col, tile in zip(st.columns(len(row)), row, strict=True):
        col.metric(**tile)
if worth := svc.worth_caption(lad):
    st.caption(worth)

unit = st.radio("Waterfall in", list(svc.UNITS), key="res:unit", horizontal=True)
st.plotly_chart(ladder_waterfall(svc.rung_numbers(lad), unit), width="stretch")
table = svc.rung_display(lad)
# the sources under the table rather than in a column of it: at 1024 px seven columns
# overflow the page and the sources were cut off
tables.show(table.drop("Source"))
st.caption(svc.sources_caption(table))

st.subheader("Each rung's assumptions")
for i, r in enumerate(lad.rungs[1:], start=1):
    f = FEATURES[r.feature]
    # drawn only while open (three tables each; eleven rungs): the label stays the same
    # when the figures move, so an open rung stays open across slider changes
    rung = st.expander(
        f"{i}. {f.label}", key=f"res:rung:{r.feature}", on_change="rerun", expanded=False
    )
    if not rung.open:
        continue
    with rung:
        st.markdown(svc.rung_text(lad, table, i))
        a, b = st.columns(2)
        with a:
            st.caption("Settings changed by this rung")
            tables.show(svc.changes_table(r))
        with b:
            st.caption("Assumptions")
            tables.show(svc.assumptions_table(r))
        st.caption("Where the saving comes from")
        tables.show(svc.cause_table(r))

st.subheader("Savings by failure cause")
st.caption(svc.cause_caption(lad))
st.plotly_chart(cause_bars(svc.cause_long(lad)), width="stretch")

st.subheader("Monte Carlo spread per rung")
t1, t2 = st.columns([1, 2])
run_mc = t1.toggle("Simulate every rung", key="res:mc")
trials = t2.select_slider(
    "Runs per rung (30 days each)",
    list(svc.TRIAL_CHOICES),
    value=500,
    key="res:trials",
    format_func=svc.runs_text,
)
if run_mc:
    with st.spinner(svc.montecarlo_spinner_text(lad, trials)):
        sim = cache.resilience_montecarlo(scenario, features, float(lemon) / 100, int(trials), 0)
    st.plotly_chart(montecarlo_spread(svc.montecarlo_numbers(sim)), width="stretch")
    mc_table = svc.montecarlo_display(sim)
    tables.show(mc_table)
    st.caption(f"Tolerance: {svc.MC_TOLERANCE_TEXT}. Seed 0, the same for every rung.")
else:
    st.caption("Turn on to simulate each rung (P5–P95 of goodput and of lost $/day).")

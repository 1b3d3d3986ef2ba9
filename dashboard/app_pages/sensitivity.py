"""Sensitivity: tornado of goodput and lost $/day, and 2-D maps with the current point."""

from __future__ import annotations

import streamlit as st
from goodput_lab.dashboard import cache, page_context
from goodput_lab.dashboard.components import persist, risk_map, tables

from goodput_lab.charts.sensitivity import clipped_note, heatmap, tornado
from goodput_lab.views import sensitivity as svc

scenario, ev = page_context.current("Sensitivity")

c1, c2, c3 = st.columns([1, 1, 2])
for col, tile in zip((c1, c2), svc.headline_tiles(ev), strict=True):
    col.metric(**tile)
pct = persist.widget(
    c3.slider,
    "sens:pct",
    20,
    label="Move each input by ± (%)",
    min_value=5,
    max_value=50,
    step=5,
    help="One at a time, all other inputs held at the scenario (local OAT sensitivity). "
    "Moves that would leave a field's allowed range stop at the bound. The model's layout "
    "(parallel sizes, ZeRO stage, micro-batch, hidden size, attention heads) is left out: a "
    "fraction of it is not a layout anyone runs.",
)

table = cache.tornado_table(scenario, pct / 100)
moving = table.filter(svc.moves(table))
st.plotly_chart(tornado(moving, "goodput", "Goodput", "%", ev["goodput"] * 100), width="stretch")
st.plotly_chart(
    tornado(moving, "lost_usd_per_day", "Lost per day", "$/day", ev["lost_usd_per_day"]),
    width="stretch",
)
for note in svc.tornado_notes(table):
    st.caption(note)

st.subheader("Two inputs at a time")
by_label = {label: key for key, (label, _, _) in svc.METRICS.items()}
shown = persist.widget(
    st.radio,
    "sens:heat_metric",
    "Goodput",
    label="Colour by",
    options=list(by_label),
    horizontal=True,
)
metric = by_label[shown]
grids = [cache.heatmap(scenario, kind, metric) for kind in ("rate_x_interval", "nodes_x_rate")]
for grid in grids:
    st.plotly_chart(heatmap(grid), width="stretch")
notes = [n for n in (clipped_note(g) for g in grids) if n]
if notes:
    st.caption(" ".join(notes))

with st.expander("Tornado table"):
    tables.show(svc.tornado_display(table))
    tables.show(svc.tornado_results_display(table))

risk_map.show(scenario, ev)  # Monte Carlo on the sweep engine (Dask workers)

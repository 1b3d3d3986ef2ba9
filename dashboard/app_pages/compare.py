"""Compare: two scenarios side by side, where the difference comes from, savings."""

from __future__ import annotations

import streamlit as st
from goodput_lab.dashboard import cache, page_context, state
from goodput_lab.dashboard.charts.compare import loss_bars, savings_waterfall
from goodput_lab.dashboard.services import compare as svc
from goodput_lab.dashboard.text import plain
from goodput_lab.models import ValidationError

current, _ = page_context.current("Compare scenarios")

st.caption(
    "Pick a baseline and a candidate: the sidebar's scenario, a preset or an uploaded TOML "
    "file, each with optional edits (`section.key = value`, one per line, as in "
    "`goodput evaluate --set`). Savings = goodput gain × baseline cluster cost + the "
    "difference in running cost (docs/references.md#savings-and-the-value-of-reliability)."
)

choices = svc.sources(state.preset_names())
defaults = {"baseline": svc.CURRENT, "candidate": svc.PRESET_PREFIX + "aws-16k-h100-improved"}


def side(column, name: str):
    with column:
        st.subheader(name.title())
        default = defaults[name] if defaults[name] in choices else svc.CURRENT
        if st.session_state.get(f"cmp:{name}") not in choices:
            st.session_state[f"cmp:{name}"] = default  # links and earlier picks win
        source = st.selectbox("Source", choices, key=f"cmp:{name}")
        upload = None
        if source == svc.UPLOAD:
            f = st.file_uploader("Scenario TOML", type=["toml"], key=f"cmp:{name}:file")
            if f is None:
                st.info("Upload a scenario file for this side.")
                return None
            try:
                upload = state.load_upload(f.name, f.getvalue(), cache.catalog())
            except ValidationError as exc:
                st.error(f"Could not read the uploaded scenario — {plain(exc)}")
                return None
        edits = st.text_area(
            "Edits", key=f"cmp:{name}:edits", height=80, placeholder="e.g. cluster.spare_nodes = 8"
        )
        try:
            scenario = svc.build(source, current, upload, edits)
        except ValidationError as exc:
            st.error(f"Please fix this edit — {plain(exc)}")
            return None
        if scenario is not None:
            st.caption(plain(scenario.name))
        return scenario


left, right = st.columns(2)
baseline = side(left, "baseline")
candidate = side(right, "candidate")
if baseline is None or candidate is None:
    st.stop()
try:
    cmp = cache.comparison(baseline, candidate)
except ValidationError as exc:
    st.error(f"Please fix this input — {plain(exc)}")
    st.stop()

s = svc.savings(cmp)
c1, c2, c3, c4 = st.columns(4)
c1.metric(
    "Goodput change",
    f"{s['goodput_delta'] * 100:+.2f} points",
    help=f"{cmp.baseline['goodput'] * 100:.2f}% → {cmp.candidate['goodput'] * 100:.2f}%",
)
c2.metric("Savings per day", f"${s['per_day']:,.0f}")
c3.metric("Savings per month", f"${s['per_month']:,.0f}", help="365.25 / 12 days")
c4.metric("Savings per year", f"${s['per_year']:,.0f}", help="365.25 days")

rows = svc.delta_waterfall(cmp)
losses = rows.filter(~rows["component"].is_in(["running_cost", "step_time"]))
a, b = st.columns(2)
with a:
    st.plotly_chart(savings_waterfall(rows, s["per_day"]), width="stretch")
with b:
    bm = [cmp.baseline[f"loss_{c}_minutes_per_day"] for c in losses["component"]]
    cm = [cmp.candidate[f"loss_{c}_minutes_per_day"] for c in losses["component"]]
    st.plotly_chart(loss_bars(losses["label"].to_list(), bm, cm), width="stretch")

st.subheader("Every metric")
st.dataframe(
    svc.metrics_table(cmp),
    column_config={
        "metric": "Metric (unit in the name)",
        "baseline": st.column_config.NumberColumn("Baseline", format="%.6g"),
        "candidate": st.column_config.NumberColumn("Candidate", format="%.6g"),
        "delta": st.column_config.NumberColumn("Candidate − baseline", format="%+.6g"),
    },
    hide_index=True,
)

"""Compare: up to four scenarios side by side, what differs, where each saving comes from."""

from __future__ import annotations

import streamlit as st
from goodput_lab.dashboard import cache, page_context, state
from goodput_lab.dashboard.components import export_buttons, persist, tables
from goodput_lab.dashboard.text import plain
from goodput_lab.models import ValidationError

from goodput_lab.charts.compare import loss_bars, savings_waterfall
from goodput_lab.reports import build_report, render
from goodput_lab.views import compare as svc

current, _ = page_context.current("Compare scenarios")

st.caption(
    "The first scenario is the baseline; each candidate is compared with it. A scenario is "
    "the sidebar's, a preset or an uploaded TOML file, each with optional edits "
    "(`section.key = value`, one per line, as in `goodput evaluate --set`). Savings per "
    "day = (candidate goodput × r − baseline goodput) × baseline cluster cost + the "
    "difference in running cost, r the ratio of failure-free training times (1 when the "
    "step times are equal): a rate at the baseline's cluster cost; what one run costs on "
    "each side is the table's cost to train "
    "(docs/references.md#savings-and-the-value-of-reliability)."
)

choices = svc.sources(state.preset_names())
top = st.columns([1.8, 0.2, 2])  # the export label whole at 1,024 px
count = int(
    persist.widget(
        top[0].radio,
        "cmp:count",
        2,
        label="Scenarios side by side",
        options=[2, 3, 4],
        horizontal=True,
        help="The baseline and up to three candidates.",
    )
)
export_slot = top[2].empty()
sides = svc.SIDES[:count]


def side(column, i: int, name: str):
    key = f"cmp:{name}"
    with column:
        st.markdown(f"**{svc.side_title(i)}**")
        default = svc.DEFAULTS[name] if svc.DEFAULTS[name] in choices else svc.CURRENT
        if st.session_state.get(key) not in choices:
            st.session_state[key] = default  # links and earlier picks win
        source = persist.widget(st.selectbox, key, default, label="Source", options=choices)
        upload = None
        if source == svc.UPLOAD:
            f = st.file_uploader("Scenario TOML", type=["toml"], key=f"{key}:file")
            if f is None:
                st.info("Upload a scenario file for this side.")
                return None
            try:
                upload = state.load_upload(f.name, f.getvalue(), cache.catalog())
            except ValidationError as exc:
                st.error(f"Could not read the uploaded scenario — {plain(exc)}")
                return None
        edits = persist.widget(
            st.text_area,
            f"{key}:edits",
            "",
            label="Edits",
            height=80,
            placeholder="e.g. cluster.spare_nodes = 8",
        )
        try:
            scenario, note = svc.build_with_note(source, current, upload, edits)
        except ValidationError as exc:
            st.error(f"Please fix this edit — {plain(exc)}")
            return None
        if scenario is not None:
            st.caption(plain(scenario.name))
        if note:
            st.info(plain(note))
        return scenario


scenarios = [
    side(col, i, name) for i, (col, name) in enumerate(zip(st.columns(count), sides, strict=True))
]
if any(s is None for s in scenarios):
    st.stop()
baseline, candidates = scenarios[0], scenarios[1:]
try:
    cmps = [cache.comparison(baseline, c) for c in candidates]
except ValidationError as exc:
    st.error(f"Please fix this input — {plain(exc)}")
    st.stop()
heads = [svc.side_title(i) for i in range(count)]


def build(fmt: str) -> bytes:
    report = build_report(
        baseline, compare_to=candidates, catalog=cache.catalog(), detail=fmt in (".html", ".pdf")
    )
    return render(report, fmt)


export_buttons.page_export(
    "Export this comparison",
    build,
    export_buttons.file_stem(baseline.name) + f"-compare-{count}",
    key="cmp-export",
    note="The baseline against every candidate: savings, what differs, every input with its "
    "source.",
    container=export_slot,
)

st.subheader("Side by side")
tables.show(svc.side_by_side(cmps, heads))
labels, series = svc.loss_minutes_series(cmps, heads)
st.plotly_chart(loss_bars(labels, series), width="stretch")

for i, cmp in enumerate(cmps, 1):
    st.subheader(f"{heads[i]} against the baseline")
    st.caption(f"{plain(cmp.candidate.scenario.name)} against {plain(cmp.baseline.scenario.name)}.")
    kind, note = svc.differences_note(cmp)
    (st.warning if kind == "warning" else st.info)(note)
    if gaps := svc.step_gaps_note(cmp):  # a side without a step time
        st.warning(plain(gaps))
    s = svc.savings(cmp)
    for col, tile in zip(st.columns(4), svc.savings_tiles(cmp), strict=True):
        col.metric(**tile)
    if svc.differences(cmp):
        st.markdown("**What differs**")
        tables.show(svc.differences_display(cmp, heads[i]))
    rows = svc.delta_waterfall(cmp)
    st.plotly_chart(
        savings_waterfall(rows, s["per_day"], f"Where {heads[i].lower()}'s savings come from"),
        width="stretch",
        key=f"cmp-waterfall-{i}",
    )

with st.expander("Every metric, side by side"):
    tables.show(svc.every_metric(cmps, heads))

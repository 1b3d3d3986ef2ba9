"""Instances: time and cost to train the sidebar's workload on every catalog instance."""

from __future__ import annotations

import streamlit as st
from goodput_lab.dashboard import cache, page_context
from goodput_lab.dashboard.components import deadline as deadline_control
from goodput_lab.dashboard.components import persist, tables
from goodput_lab.dashboard.text import plain
from goodput_lab.models import ValidationError
from goodput_lab.models._text import as_sentence

from goodput_lab.charts.instances import (
    cost_to_train_chart,
    ratio_chart,
    ratio_note,
    time_to_train_chart,
)
from goodput_lab.views import instances as svc

scenario, _ev = page_context.current("Instances")
catalog = cache.catalog()

st.caption(svc.workload_caption(scenario))

top = st.columns(2)
deadline = deadline_control.show(top[0])
st.caption(deadline_control.used(deadline))

ss = st.session_state


def price_key(name: str) -> str:
    return f"inst:price:{name}"


def mfu_key(name: str) -> str:
    return f"inst:mfu:{name}"


def instance_inputs() -> None:
    """One row per instance: your price and MFU next to the catalog's (the values are kept
    under :func:`price_key` / :func:`mfu_key`)."""
    head = st.columns([2, 2, 2, 3])
    head[0].markdown("**Instance**")
    head[1].markdown("**Your price (USD/instance-h)**")
    head[2].markdown("**Your MFU (%)**")
    head[3].markdown("**Catalog price and MFU**")
    for name, inst in catalog.items():
        row = st.columns([2, 2, 2, 3])
        row[0].write(svc.instance_label(name, inst))
        persist.widget(
            row[1].number_input,
            price_key(name),
            None,
            label=f"Price {name}",
            min_value=0.01,
            max_value=10_000.0,
            step=1.0,
            label_visibility="collapsed",
            placeholder="catalog" if inst.usd_per_hour is not None else "needs a price",
        )
        hi = 100.0 * (inst.max_matmul_fraction or 1.0)
        persist.widget(
            row[2].number_input,
            mfu_key(name),
            None,
            label=f"MFU {name}",
            min_value=1.0,
            max_value=hi,
            step=1.0,
            label_visibility="collapsed",
            placeholder="scaled from the scenario",
        )
        row[3].caption(svc.catalog_caption(inst, plain))


#: The expander draws its ~50 widgets only while open (a closed one costs a rerun nothing);
#: the values live under their persistent keys either way.
OVERRIDES_OPEN = "inst:overrides_open"
overrides = st.expander(
    "Your prices and MFUs per instance (empty = catalog)",
    expanded=False,
    key=OVERRIDES_OPEN,
    on_change="rerun",
)
if overrides.open:
    with overrides:
        instance_inputs()
prices: dict[str, float] = {}
mfus: dict[str, float] = {}
for name in catalog:  # drawn or not, the values are read from the same keys
    if (price := ss.get(price_key(name))) is not None:
        prices[name] = float(price)
    if (mfu := ss.get(mfu_key(name))) is not None:
        mfus[name] = float(mfu) / 100.0

prices_key, mfus_key = tuple(sorted(prices.items())), tuple(sorted(mfus.items()))
try:
    ranking = cache.instance_ranking(scenario, deadline, prices_key, mfus_key)
except ValidationError as exc:
    st.error(f"Please fix this input — {plain(exc)}")
    st.stop()
df = svc.table(ranking)

best = svc.cheapest(df)
verdict = st.container()
if best is not None:
    verdict.success(svc.verdict_text(best, deadline, _ev.texts["mfu_basis"], plain))
    if ranking.too_close_to_call:
        verdict.warning(svc.too_close_text(ranking, plain))
    if risk := ranking.deadline_risk():
        verdict.warning(plain(as_sentence(risk)))
    # the name beside the node count, then time and cost: each figure stays whole at 1024 px
    for row in svc.verdict_tiles(best):
        for col, tile in zip(verdict.columns(len(row)), row, strict=True):
            col.metric(**tile)
    if gap := svc.mfu_gap_warning(best):
        verdict.warning(gap)
    robust_box = verdict.empty()  # filled at the end of the page: off the critical path
else:
    robust_box = None
    verdict.warning("No priced instance can train this workload within the deadline.")

with st.container(border=True):
    st.markdown("**How the ranking moves the job across node types**")
    for rule in ranking.rules():
        st.markdown(f"- {plain(rule)}")

for note in svc.break_even_notes(ranking):
    st.info(note)

st.plotly_chart(time_to_train_chart(df, deadline), width="stretch")
st.plotly_chart(cost_to_train_chart(df), width="stretch")
if missing := svc.not_charted_caption(df):
    st.caption(plain(missing))

st.subheader("Side by side")
tables.show(svc.ranking_display(df))
if ranking.too_close_to_call:
    st.caption(svc.TOO_CLOSE_CAPTION)
tables.missing_reasons(df)
st.markdown("**What drives each cost: goodput, failures and MFU**")
tables.show(svc.ranking_why_display(df, scenario["workload.mfu_basis"]))

ref = ranking.reference_instance
if ratio_missing := ratio_note(df, ref):
    st.caption(plain(ratio_missing))
else:
    st.plotly_chart(ratio_chart(df, ref), width="stretch")
    st.caption(
        "Peak ratios come from spec sheets; modelled ratios include MFU, communication, "
        "failures and checkpoints at each instance's chosen node count. MLPerf Training v4.1 "
        "measured B200 at 2.0× H100 per GPU on GPT-3 175B (peak ratio 2.28×)."
    )

if robust_box is not None:
    rob = cache.instance_robustness(scenario, deadline, prices_key, mfus_key)
    if rob is None:
        robust_box.info("No other type qualifies: the verdict does not depend on a runner-up.")
    else:
        with robust_box.container(border=True):
            st.markdown("**How robust is this verdict?**")
            st.markdown(plain(svc.robustness_text(rob)))
            for col, tile in zip(st.columns(4), svc.robustness_tiles(rob), strict=False):
                col.metric(**tile)

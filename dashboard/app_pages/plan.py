"""Plan: what the bill really is — Capacity Block length and risk, pricing models, storage."""

from __future__ import annotations

import streamlit as st
from goodput_lab.dashboard import cache, page_context
from goodput_lab.dashboard.components import tables
from goodput_lab.dashboard.text import plain
from goodput_lab.models import ValidationError

from goodput_lab.charts.plan import completion_chart, cost_chart
from goodput_lab.views import plan as svc

TRIAL_CHOICES = [200, 500, 1000, 2000, 5000]

scenario, ev = page_context.current("Plan")

st.caption(svc.intro_caption(scenario))

ss = st.session_state
if ss.get("plan:trials") not in TRIAL_CHOICES:
    ss["plan:trials"] = 1000
c1, c2, c3, c4 = st.columns([2, 1, 2, 2.4])  # "Choose the block length" whole at 1,024 px
trials = c1.select_slider(
    "Monte Carlo runs", TRIAL_CHOICES, key="plan:trials", format_func=svc.runs_text
)
seed = c2.number_input("Seed", min_value=0, max_value=2**31 - 1, value=0, step=1, key="plan:seed")
risk_pct = c3.slider(
    "Accepted risk of not finishing (%)",
    min_value=1,
    max_value=50,
    value=10,
    step=1,
    key="plan:risk",
    help="The cheapest block is the one with the least expected total cost among those that "
    "finish with probability at least 100% − this, over the failure-rate and step-time "
    "intervals (each simulated run draws its own, as Decide does).",
)
with c4:
    use_block = st.checkbox("Choose the block length", key="plan:use_block")
    block_days = None
    if use_block:
        ss.setdefault("plan:block_days", 84.0)
        block_days = st.number_input(
            "Block length (days)", min_value=1.0, max_value=3650.0, step=1.0, key="plan:block_days"
        )


PLAN_ARGS = (int(trials), int(seed), block_days, risk_pct / 100.0)


def block_section() -> bool:
    """The Monte Carlo part: block lengths, completion and cost curves (True when drawn)."""
    no_block = svc.no_block_reason(scenario, cache.catalog())
    if no_block:  # no block rate to plan with: said, and the bill below all the same
        st.info(plain(no_block))
        return False
    try:
        with st.spinner(svc.spinner_text(int(trials))):
            p = cache.block_plan(scenario, *PLAN_ARGS)
    except ValidationError as exc:
        st.error(f"Please fix this input — {plain(exc)}")
        return False

    for row in svc.block_tiles(p):
        for col, tile in zip(st.columns(len(row)), row, strict=True):
            col.metric(**tile)
    if cheapest := svc.cheapest_block_text(p, risk_pct):
        st.info(cheapest)
    for note in svc.block_notes(p):
        st.warning(plain(note))
    st.caption(svc.block_caption(p))

    curve = svc.curve_frame(p)
    window = svc.x_window(p)
    st.plotly_chart(
        completion_chart(
            curve, p.block_days, 100 * p.probability_finish_within_block, 100 - risk_pct, window
        ),
        width="stretch",
    )
    st.plotly_chart(
        cost_chart(
            curve, p.block_days, p.expected_total_cost_usd / 1e6, p.p90_total_cost_usd / 1e6, window
        ),
        width="stretch",
    )
    return True


# The simulation's results go at the top but are computed last: the analytic sections below
# are on screen first, so a slider change updates figures before the runs finish.
results = st.container()

st.subheader("The bill by pricing model")
st.caption(
    "The expected run under each pricing model, side by side (analytic, not a risk level). "
    "Failures and checkpoints cost the paid hours that do not advance training; under a "
    "Capacity Block those hours are paid already, so they cost the extra block days the run "
    "needs. Models without a public price are priced only when you enter one."
)
rows = cache.budget(scenario, ())
missing = svc.models_without_price(rows)
entered = {}
if missing:
    with st.expander("Your rates for models without a public price", expanded=False):
        cols = st.columns(len(missing))
        for col, (model, label) in zip(cols, missing, strict=True):
            v = col.number_input(
                f"{label} ($/instance-h)",
                min_value=0.0,
                max_value=10_000.0,
                value=0.0,
                step=0.01,
                key=f"plan:price:{model}",
                help="0 = not entered",
            )
            if v > 0:
                entered[model] = float(v)
if entered:
    rows = cache.budget(scenario, tuple(sorted(entered.items())))
# analytic first; once the runs above are in, the Capacity Block row is the plan's block
bill = st.empty()


def show_bill(rows, when: str) -> None:
    """The bill (its amounts unrounded in a CSV) and, under it, where each price comes from
    (two tables: one of both did not fit a 1,024-pixel window).  ``when`` keys the CSV
    button: the bill is drawn twice in a run once the plan's block is in."""
    with bill.container():
        tables.show(svc.budget_table(rows))
        note, csv = st.columns([3, 1], vertical_alignment="center")
        note.caption(plain(svc.BILL_COMPACT_NOTE))
        csv.download_button(
            "Bill (CSV)",
            svc.budget_csv(rows),
            file_name="bill-by-pricing-model.csv",
            mime="text/csv",
            icon=":material/download:",
            on_click="ignore",
            key=f"plan:bill-csv:{when}",
        )
        tables.show(svc.budget_terms_table(rows))


show_bill(rows, "analytic")
with st.expander("Terms of each pricing model", expanded=False):
    tables.show(svc.terms_table())

st.subheader("Checkpoint storage and spares in dollars")
tables.show(svc.storage_table(ev))
st.caption(svc.storage_caption(ev))
rec = cache.file_system(scenario)
if rec is None:
    st.caption("The durable tier is the object store: no shared file system to size.")
else:
    st.caption(svc.file_system_caption(scenario, rec))
    tables.show(svc.file_system_table(rec))
    if rec.warning:  # the scenario's stated saves need a faster file system than it has
        st.warning(plain(rec.warning))
    if rec.at_search_limit:
        st.caption("The best size is the largest searched: a larger file system may save more.")
st.caption(
    "Model: models/plan.py, models/pricing.py; prices and rules with their sources in "
    "docs/pricing.md and the dated tables data/prices_2024-12.csv and "
    "data/storage_prices_2022-09.csv."
)

with results:
    planned = block_section()
if planned:  # the plan's block and expected total: one figure with the tiles above
    rows = cache.budget(scenario, tuple(sorted(entered.items())), PLAN_ARGS)
    show_bill(rows, "planned")

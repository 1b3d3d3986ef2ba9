"""Plan: what the bill really is — Capacity Block length and risk, pricing models, storage."""

from __future__ import annotations

import math

import streamlit as st
from goodput_lab.dashboard import cache, page_context
from goodput_lab.dashboard.components import tables
from goodput_lab.dashboard.text import plain
from goodput_lab.models import ValidationError
from goodput_lab.models.outputs import format_value, help_text

from goodput_lab.charts.plan import completion_chart, cost_chart
from goodput_lab.views import plan as svc

TRIAL_CHOICES = [200, 500, 1000, 2000, 5000]

scenario, ev = page_context.current("Plan")

st.caption(
    f"{scenario['cluster.nodes']:,} nodes. A Capacity Block is paid up front for whole days "
    "whether the job is productive or not; a run that has not finished when it "
    "ends continues at a fallback price. From the Monte Carlo wall time to finish: the block "
    "each completion probability needs, and what a block really costs."
)

ss = st.session_state
if ss.get("plan:trials") not in TRIAL_CHOICES:
    ss["plan:trials"] = 1000
c1, c2, c3, c4 = st.columns([2, 1, 2, 2])
trials = c1.select_slider("Monte Carlo runs", TRIAL_CHOICES, key="plan:trials")
seed = c2.number_input("Seed", min_value=0, max_value=2**31 - 1, value=0, step=1, key="plan:seed")
risk_pct = c3.slider(
    "Accepted risk of not finishing (%)",
    min_value=1,
    max_value=50,
    value=10,
    step=1,
    key="plan:risk",
    help="The cheapest block is the one with the least expected total cost among those that "
    "finish with probability at least 100% − this.",
)
with c4:
    use_block = st.checkbox("Choose the block length", key="plan:use_block")
    block_days = None
    if use_block:
        ss.setdefault("plan:block_days", 84.0)
        block_days = st.number_input(
            "Block length (days)", min_value=1.0, max_value=3650.0, step=1.0, key="plan:block_days"
        )


def tile(col, label: str, key: str, value, **kw) -> None:
    col.metric(label, format_value(key, value), help=help_text(key), **kw)


PLAN_ARGS = (int(trials), int(seed), block_days, risk_pct / 100.0)


def block_section() -> bool:
    """The Monte Carlo part: block lengths, completion and cost curves (True when drawn)."""
    try:
        with st.spinner(f"Simulating {int(trials):,} runs…"):
            p = cache.block_plan(scenario, *PLAN_ARGS)
    except ValidationError as exc:
        st.error(f"Please fix this input — {plain(exc)}")
        return False

    a, b, c = st.columns(3)
    tile(a, "Block for 50% completion", "block_days_p50", p.block_days_p50)
    tile(b, "Block for 90% completion", "block_days_p90", p.block_days_p90)
    tile(c, "Block for 99% completion", "block_days_p99", p.block_days_p99)
    a, b, c = st.columns(3)
    tile(a, "Block length", "block_days", p.block_days)
    tile(
        b,
        "Finishes within the block",
        "probability_finish_within_block",
        p.probability_finish_within_block,
    )
    tile(c, "Failure-free compute", "compute_days", p.compute_days)
    a, b = st.columns(2)
    tile(a, "Expected total cost", "expected_total_cost_usd", p.expected_total_cost_usd)
    tile(b, "P90 total cost", "p90_total_cost_usd", p.p90_total_cost_usd)

    if math.isfinite(p.cheapest_block_days):
        st.info(
            f"Cheapest block that finishes with probability at least {100 - risk_pct}%: "
            f"**{p.cheapest_block_days:g} days**, expected total "
            f"{format_value('expected_total_cost_usd', p.cheapest_block_expected_total_cost_usd)} "
            "(finishes in "
            f"{format_value('cheapest_block_probability_finish', p.cheapest_block_probability_finish)}"
            " of runs)."
        )
    for note in p.notes:
        st.warning(plain(note))
    st.caption(
        f"Block rate {format_value('capacity_block_usd_per_instance_hour', p.block_price.usd_per_instance_hour)} "
        f"per instance (as of {p.block_price.as_of}); after the block "
        f"{format_value('overrun_usd_per_instance_hour', p.overrun_price.usd_per_instance_hour)} "
        f"(as of {p.overrun_price.as_of}); {p.capacity_block_instances:,} instances in "
        f"{p.capacity_blocks_needed} blocks; block price "
        f"{format_value('block_cost_usd', p.block_cost_usd)}, expected overrun "
        f"{format_value('expected_overrun_cost_usd', p.expected_overrun_cost_usd)}, expected storage "
        f"{format_value('expected_storage_cost_usd', p.expected_storage_cost_usd)}. "
        f"{p.trials:,} runs, seed {p.seed}; the same figures as `goodput plan` with these settings."
    )

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
tables.show(svc.budget_table(rows), container=bill)
with st.expander("Terms of each pricing model", expanded=False):
    tables.show(svc.terms_table())

st.subheader("Checkpoint storage and spares in dollars")
tables.show(svc.storage_table(ev))
rec = cache.file_system(scenario)
if rec is None:
    st.caption("The durable tier is the object store: no shared file system to size.")
else:
    st.caption(
        "A larger or faster shared file system saves and restores faster but costs more per "
        "GB-month: every purchasable size and priced throughput tier, compared on lost dollars "
        "per day (goodput loss + spares + storage), holding "
        f"{scenario['storage.retained_checkpoints']} retained checkpoints "
        f"({rec.min_TiB_for_retention:.1f} TiB)."
    )
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
    tables.show(svc.budget_table(rows), container=bill)

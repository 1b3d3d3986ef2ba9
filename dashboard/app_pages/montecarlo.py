"""Monte Carlo: how bad can a month get? Distributions next to the analytic expectation."""

from __future__ import annotations

import time

import streamlit as st
from goodput_lab.dashboard import cache, page_context
from goodput_lab.dashboard.charts.montecarlo import bands_chart, histogram_cdf, timeline_chart
from goodput_lab.dashboard.services import montecarlo as svc
from goodput_lab.dashboard.text import plain
from goodput_lab.models import ValidationError
from goodput_lab.models.budget import Budget, Cancelled
from goodput_lab.models.montecarlo import MAX_DAYS, SimulationParams, check_size, merge_results

TRIAL_CHOICES = [200, 500, 1000, 2000, 5000, 10000, 20000]
#: One page run: predicted before and enforced during (the CLI allows more).  Counted in CPU
#: seconds of the page's thread, so a busy server slows a run down instead of stopping it;
#: a visitor who leaves or changes an input cancels it.
PAGE_MAX_SECONDS = 10.0


@st.cache_data(max_entries=64, show_spinner=False, hash_funcs={SimulationParams: hash})
def _chunk(p: SimulationParams, trials: int, days: float, seed: int, chunk: int, _budget=None):
    """One chunk, cached on the simulator's inputs only (an unrelated slider reuses it)."""
    start = time.perf_counter()
    return svc.run_chunk(p, trials, days, seed, chunk, _budget), time.perf_counter() - start


scenario, ev = page_context.current("Monte Carlo")

st.caption(
    f"{plain(scenario.name)} — {scenario['cluster.nodes']:,} nodes: thousands of simulated runs "
    "(failures, recoveries, spares, checkpoint tiers, fabric stalls) next to the analytic "
    "expectation (Daly 2006)."
)

c1, c2, c3 = st.columns(3)
trials = c1.select_slider("Trials", TRIAL_CHOICES, value=2000, key="mc:trials")
days = c2.number_input(
    "Days per run (compute to finish and goodput window)",
    min_value=1.0,
    max_value=min(365.0, MAX_DAYS),
    value=30.0,
    step=1.0,
    key="mc:days",
)
seed = c3.number_input("Seed", min_value=0, max_value=2**31 - 1, value=0, step=1, key="mc:seed")

try:
    params = svc.params(scenario, cache.catalog())
    check_size(
        int(trials),
        float(days),
        params,
        max_seconds=PAGE_MAX_SECONDS,
        chunk_trials=svc.chunk_size(int(trials)),
    )
except ValidationError as exc:
    st.error(f"Please fix this input — {plain(exc)}")
    st.stop()

bar = st.progress(0.0, text="Simulating…")
parts, seconds = [], 0.0
budget = Budget(
    max_seconds=PAGE_MAX_SECONDS, cancel=page_context.run_cancelled(), clock=time.thread_time
)
for i in range(svc.n_chunks(int(trials))):
    try:
        part, sec = _chunk(params, int(trials), float(days), int(seed), i, budget)
    except Cancelled:
        st.stop()  # Streamlit asked this run to stop or rerun: nothing to show
    except ValidationError as exc:
        bar.empty()
        st.error(f"This simulation was stopped — {plain(exc)}")
        st.stop()
    parts.append(part)
    seconds += sec
    done = sum(r.trials for r in parts)
    bar.progress(done / int(trials), text=f"Simulated {done:,} of {int(trials):,} runs")
bar.empty()
res = merge_results(parts)
summary = res.summary()
st.caption(
    f"{res.trials:,} runs, {res.events_simulated:,} events simulated in {seconds:.2f} s "
    f"(seed {int(seed)}); checkpoint interval {res.interval_minutes:.1f} min."
)

a, b, c, d = st.columns(4)
a.metric(
    "Goodput, analytic",
    f"{100 * res.goodput_analytic:.2f}%",
    help="Daly's expected goodput from the Overview page (long-run mean).",
)
b.metric(
    "Goodput, simulated mean",
    f"{100 * res.goodput_mean:.2f}%",
    help=f"± {100 * res.goodput_stderr:.3f} points (1 standard error) over {res.trials:,} runs",
)
c.metric(
    "Bad month (p5)",
    f"{100 * summary['goodput_p5']:.2f}%",
    help="5% of simulated runs had a lower goodput over the window.",
)
d.metric(
    "Good month (p95)",
    f"{100 * summary['goodput_p95']:.2f}%",
    help="5% of simulated runs had a higher goodput over the window.",
)
if res.unfinished:
    st.warning(f"{res.unfinished:,} runs had not finished after 4× the compute time.")

st.subheader("Analytic vs simulated")
st.dataframe(svc.summary_display(res), hide_index=True, width="stretch")

dist = svc.distributions(res)
left, right = st.columns(2)
left.plotly_chart(
    histogram_cdf(
        dist["goodput_pct"].to_numpy(),
        100 * res.goodput_analytic,
        f"Goodput over {res.days:g} days: distribution over runs",
        "Goodput (%)",
    ),
    width="stretch",
)
right.plotly_chart(
    histogram_cdf(
        dist["time_to_finish_days"].to_numpy(),
        res.time_to_finish_analytic_days,
        f"Wall time to finish {res.work_days:.4g} days of compute",
        "Time to finish (days)",
    ),
    width="stretch",
)
st.plotly_chart(bands_chart(svc.bands(res), 100 * res.goodput_analytic), width="stretch")
st.plotly_chart(
    timeline_chart(svc.timeline_segments(res), svc.STATES, hours=min(48.0, res.days * 24)),
    width="stretch",
)
st.caption(
    "Model: models/montecarlo.py. Work is checkpointed every interval; a failure loses the "
    "work since the last surviving checkpoint, then pays detection, replacement (hot spare "
    "or provider), restart and restore; failures during a recovery restart it. Recovery "
    "times are lognormal with the Simulation spread in the sidebar (0 = fixed, as the "
    "analytic model). Goodput counts work in progress at the end of the window."
)

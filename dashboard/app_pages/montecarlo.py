"""Monte Carlo: how bad can a month get? Distributions next to the analytic expectation.

The closed-form figures come first (instant); the simulation runs in a fragment, chunk by
chunk with its tiles updated as runs come in, so it is off the critical path: changing the
number of runs, the horizon or the seed reruns only the simulation, and the rest of the page
is on screen before the first chunk finishes.
"""

from __future__ import annotations

import time

import streamlit as st
from goodput_lab.dashboard import cache, page_context
from goodput_lab.dashboard.components import export_buttons, persist, tables
from goodput_lab.dashboard.text import plain
from goodput_lab.models import Scenario, ValidationError
from goodput_lab.models.budget import Budget, Cancelled
from goodput_lab.models.montecarlo import MAX_DAYS, SimulationParams, check_size, merge_results

from goodput_lab.charts.montecarlo import bands_chart, histogram_cdf, timeline_chart
from goodput_lab.reports import build_report, render
from goodput_lab.views import montecarlo as svc

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


def _tiles(slots, summary: dict, done: int, trials: int) -> None:
    for slot, tile in zip(slots, svc.simulated_tiles(summary, done, trials), strict=True):
        slot.metric(**tile)


scenario, ev = page_context.current("Monte Carlo")

st.caption(svc.intro_caption(scenario))
for col, tile in zip(st.columns(4), svc.closed_form_tiles(ev), strict=True):
    col.metric(**tile)


@st.fragment
def simulation(scenario: Scenario) -> None:
    controls = st.columns([1.4, 1, 1])
    trials = persist.widget(
        controls[0].select_slider,
        "mc:trials",
        1000,  # enough for P5/P95 to two digits; more runs on request
        label="Simulated runs",
        options=TRIAL_CHOICES,
        format_func=svc.runs_text,
        help="More runs narrow the percentiles; each run is the whole horizon.",
    )
    days = persist.widget(
        controls[1].number_input,
        "mc:days",
        30.0,
        label="Days per run",
        min_value=1.0,
        max_value=min(365.0, MAX_DAYS),
        step=1.0,
        format="%g",
        help="Compute to finish in each run, and the window goodput is measured over.",
    )
    seed = persist.widget(
        controls[2].number_input,
        "mc:seed",
        0,
        label="Seed",
        min_value=0,
        max_value=2**31 - 1,
        step=1,
        help="Same seed, same runs.",
    )
    trials, days, seed = int(trials), float(days), int(seed)
    try:
        params = svc.params(scenario, cache.catalog())
        check_size(trials, days, params, max_seconds=PAGE_MAX_SECONDS)
    except ValidationError as exc:
        st.error(f"Please fix this input — {plain(exc)}")
        return
    st.subheader("Simulated")
    slots = [c.empty() for c in st.columns([1, 1, 1.4, 1.4])]
    bar = st.progress(0.0, text="Simulating…")
    parts, seconds = [], 0.0
    budget = Budget(
        max_seconds=PAGE_MAX_SECONDS, cancel=page_context.run_cancelled(), clock=time.thread_time
    )
    for i in range(svc.n_chunks(params, trials, days)):
        try:
            part, sec = _chunk(params, trials, days, seed, i, budget)
        except Cancelled:
            st.stop()  # Streamlit asked this run to stop or rerun: nothing to show
        except ValidationError as exc:
            bar.empty()
            st.error(f"This simulation was stopped — {plain(exc)}")
            return
        parts.append(part)
        seconds += sec
        done = sum(r.trials for r in parts)
        bar.progress(done / trials, text=svc.progress_text(done, trials))
        if done < trials and i % 2 == 0:  # progressive: tiles from the runs so far
            _tiles(slots, merge_results(parts).summary(), done, trials)
    bar.empty()
    res = merge_results(parts)
    summary = res.summary()
    _tiles(slots, summary, trials, trials)
    st.caption(svc.result_caption(res, seconds, seed))
    export_slot = st.empty()  # under the run it exports (its label whole at 1,024 px)
    if warning := svc.unfinished_warning(res):
        st.warning(warning)

    def build(fmt: str) -> bytes:
        report = build_report(
            scenario,
            trials=trials,
            seed=seed,
            days=days,
            simulation=res,
            catalog=cache.catalog(),
            detail=fmt in (".html", ".pdf"),
        )
        return render(report, fmt)

    export_buttons.page_export(
        "Export this Monte Carlo report",
        build,
        export_buttons.file_stem(scenario.name) + f"-montecarlo-{trials}",
        key="mc-export",
        note=svc.export_note(trials, seed),
        container=export_slot,
    )

    st.subheader("Closed form against simulated")
    tables.show(svc.summary_display(res))
    agreement = svc.agreement_caption(res)
    if agreement:
        st.caption(agreement)
    st.markdown("**Spread over the runs**")
    tables.show(svc.spread_display(res))

    dist = svc.distributions(res)
    st.plotly_chart(
        histogram_cdf(
            dist["goodput_pct"].to_numpy(),
            100 * res.goodput_analytic,
            svc.goodput_histogram_title(res),
            "Goodput (%)",
            subtitle="Distribution over the simulated runs",
        ),
        width="stretch",
    )
    st.plotly_chart(
        histogram_cdf(
            dist["time_to_finish_days"].to_numpy(),
            res.time_to_finish_analytic_days,
            svc.finish_histogram_title(res),
            "Time to finish (days)",
            subtitle="Distribution over the simulated runs",
        ),
        width="stretch",
    )
    st.plotly_chart(bands_chart(svc.bands(res), 100 * res.goodput_analytic), width="stretch")
    hours = svc.timeline_window_hours(res)
    st.plotly_chart(
        timeline_chart(svc.timeline_segments(res, hours), svc.STATES, hours=hours),
        width="stretch",
    )
    st.caption(
        "Model: models/montecarlo.py. Work is checkpointed every interval; a failure loses the "
        "work since the last surviving checkpoint (rework), then pays detection, replacement "
        "(hot spare or provider), restart and restore; a failure during a recovery restarts "
        "it and starts its own repair beside any still under way, and the job waits for the "
        "last. "
        "Recovery times are lognormal with the Monte Carlo spread set in the sidebar (0 = "
        "fixed, as the closed form assumes). Goodput counts work in progress at the end of "
        "the window."
    )


simulation(scenario)

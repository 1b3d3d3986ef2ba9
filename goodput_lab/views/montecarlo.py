"""Tables behind the Monte Carlo page: distributions, bands, one trial's timeline, summary.

Calls models.montecarlo and returns polars frames; no Streamlit here (caching lives in the
page, keyed on :class:`models.montecarlo.SimulationParams`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable

import numpy as np
import polars as pl

from goodput_lab.models import Evaluation, Scenario, resolve_inputs
from goodput_lab.models.budget import Budget
from goodput_lab.models.catalog import Instance
from goodput_lab.models.montecarlo import (
    SimulationParams,
    SimulationResult,
    merge_results,
    params_from_inputs,
    simulate_params,
    stream_block_trials,
)
from goodput_lab.models.outputs import NOT_IN_PRACTICE, finishes_in_practice
from goodput_lab.views import display

#: Gantt rows: what the cluster does, in display order.  Training, saves and rework
#: partition the time between recoveries; the recovery states follow the failure events.
STATES = {
    "training": "Training (kept)",
    "save": "Checkpoint saves",
    "rework": "Rework (lost work)",
    "detection": "Detection",
    "replacement": "Replacement",
    "restart": "Restart",
    "restore": "Restore",
    "warmup": "Warm-up",
    "stall": "Fabric stall",
    "spot": "Spot notice save and recovery",
}
RECOVERY_STATES = ("detection", "replacement", "restart", "restore")
_STARTS = {
    "start": "training",
    "restored": "training",
    "stall_end": "training",
    "failure": "detection",
    "correlated_failure": "detection",
    "detected": "replacement",
    "replaced": "restart",
    "restarted": "restore",
    "stall": "stall",
    "spot_notice": "spot",
    "silent_corruption": "detection",  # running on corrupt state until it is found
    "corrupt_checkpoint": "restore",  # the restart loop, then the fallback's restore
    "warmed_up": "training",
}


def params(scenario: Scenario, catalog: dict[str, Instance] | None = None) -> SimulationParams:
    """The simulator's inputs for a scenario (hashable: the page caches on it)."""
    return params_from_inputs(resolve_inputs(scenario, catalog))


def n_chunks(p: SimulationParams, trials: int, days: float) -> int:
    """Chunks of a page run: one per random stream block of the simulator, so the page
    draws exactly what ``goodput simulate`` draws for the same inputs and seed."""
    return -(-trials // stream_block_trials(p, days))


def run_chunk(
    p: SimulationParams,
    trials: int,
    days: float,
    seed: int,
    chunk: int,
    budget: Budget | None = None,
):
    """Stream block number ``chunk`` of a run of ``trials`` (same streams as the whole run).

    ``budget`` (shared by the chunks of one page run) bounds the work; past it the chunk
    stops with a ValidationError naming the nearest allowed size.
    """
    return simulate_params(
        p,
        trials,
        days,
        rng=seed,
        chunk_trials=1,  # one stream block per chunk
        chunks=[chunk],
        keep_work_grid=True,
        budget=budget,
    )


def run(
    p: SimulationParams,
    trials: int,
    days: float,
    seed: int,
    progress: Callable[[int, int], None] | None = None,
    budget: Budget | None = None,
) -> SimulationResult:
    """The whole run, chunk by chunk (the page caches each chunk and shows progress)."""
    parts = []
    for i in range(n_chunks(p, trials, days)):
        parts.append(run_chunk(p, trials, days, seed, i, budget))
        if progress is not None:
            progress(sum(r.trials for r in parts), trials)
    return merge_results(parts)


def distributions(res: SimulationResult) -> pl.DataFrame:
    """One row per trial: goodput, days to finish, lost USD, failures."""
    return pl.DataFrame(
        {
            "goodput_pct": res.goodput * 100.0,
            "time_to_finish_days": res.time_to_finish_days,
            "lost_usd": res.lost_usd,
            "failures": res.failures,
        }
    )


def bands(res: SimulationResult) -> pl.DataFrame:
    """Cumulative goodput percentiles over time: day, p5, p25, p50, p75, p95 (in %)."""
    data = {"day": res.grid_days[1:]}
    for q, v in res.goodput_bands.items():
        data[f"p{q}"] = np.asarray(v) * 100.0
    return pl.DataFrame(data)


def _subtract(spans: list[tuple[float, float]], cuts: list[tuple[float, float]]):
    """``spans`` minus the union of ``cuts`` (both lists of (start, end))."""
    out = []
    cuts = sorted(cuts)
    for a, b in spans:
        pos = a
        for c, d in cuts:
            if d <= pos or c >= b:
                continue
            if c > pos:
                out.append((pos, c))
            pos = max(pos, d)
            if pos >= b:
                break
        if pos < b:
            out.append((pos, b))
    return out


def _union(spans: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Overlapping spans merged (a failure can throw away work an earlier one already
    threw away, e.g. after a fallback to the durable tier)."""
    out: list[tuple[float, float]] = []
    for a, b in sorted(spans):
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


def _clip(spans: list[tuple[float, float]], within: list[tuple[float, float]]):
    """The parts of ``spans`` inside ``within`` (sorted, non-overlapping)."""
    out = []
    for a, b in spans:
        for c, d in within:
            lo, hi = max(a, c), min(b, d)
            if hi > lo:
                out.append((lo, hi))
    return out


def timeline_segments(res: SimulationResult, hours: float | None = None) -> pl.DataFrame:
    """The sample trial as state intervals (state, label, start_hours, end_hours), up to
    ``hours``: training split into kept work, checkpoint saves and rework (compute a failure
    threw away), then the recovery states and fabric stalls."""
    limit = math.inf if hours is None else hours * 60.0
    spans: dict[str, list[tuple[float, float]]] = {k: [] for k in STATES}
    for (ev, t), (ev_next, t_next) in itertools.pairwise(res.timeline):
        state = _STARTS.get(ev)
        if ev == "restored" and ev_next == "warmed_up":
            state = "warmup"
        if state is None or t_next <= t or t >= limit:
            continue
        spans[state].append((t, min(t_next, limit)))
    up = spans["training"]
    saves = _clip([(a, b) for a, b in res.timeline_saves if a < limit], up)
    rework = _clip(_union([(a, b) for a, b in res.timeline_rework if a < limit]), up)
    spans["save"] = saves
    spans["rework"] = _subtract(rework, saves)
    spans["training"] = _subtract(up, saves + rework)
    rows = [
        {"state": k, "label": STATES[k], "start_hours": a / 60.0, "end_hours": b / 60.0}
        for k, v in spans.items()
        for a, b in v
    ]
    schema = {
        "state": pl.Utf8,
        "label": pl.Utf8,
        "start_hours": pl.Float64,
        "end_hours": pl.Float64,
    }
    return pl.DataFrame(rows, schema=schema).sort("start_hours")


def state_hours(segments: pl.DataFrame) -> dict[str, float]:
    """Hours spent in each state in ``segments`` (every state, 0 when absent)."""
    dur = segments.group_by("state").agg((pl.col("end_hours") - pl.col("start_hours")).sum())
    got = dict(zip(dur["state"].to_list(), dur["end_hours"].to_list(), strict=True))
    return {k: float(got.get(k, 0.0)) for k in STATES}


def timeline_window_hours(res: SimulationResult, failures: int = 3, lo: float = 12.0) -> float:
    """A window that shows the first few failures: at least ``lo`` hours, at most 48 h and
    the run's horizon."""
    times = [t for ev, t in res.timeline if ev in ("failure", "correlated_failure")]
    want = (times[failures - 1] / 60.0 + 1.0) if len(times) >= failures else 48.0
    return float(min(max(lo, want), 48.0, res.days * 24.0))


#: The closed form against the simulated mean (seven columns in one table did not fit a
#: 1024 px window beside the sidebar: "$15,401,128/month" does not wrap) ...
SUMMARY_COLUMNS = (
    ("analytic", "Closed form"),
    ("mean", "Simulated mean"),
    ("stderr", "Std. error"),
)
#: ... and, in a second table, the spread over the runs
SPREAD_COLUMNS = (
    ("p5", "P5"),
    ("p50", "P50"),
    ("p95", "P95"),
)


def _sample_row(key: str, label: str, x: np.ndarray, analytic: float | None) -> dict:
    """A table row of one figure over the runs ``x`` (finite, non-empty): its closed form,
    mean, standard error of the mean (None from one run) and P5/P50/P95."""
    return {
        "key": key,
        "label": label,
        "analytic": analytic,
        "mean": float(x.mean()),
        "stderr": float(x.std(ddof=1) / np.sqrt(x.size)) if x.size > 1 else None,
        "p5": float(np.percentile(x, 5)),
        "p50": float(np.percentile(x, 50)),
        "p95": float(np.percentile(x, 95)),
    }


def summary_rows(res: SimulationResult) -> list[dict]:
    """Closed form (Daly) against simulated, one row per figure, keyed for the registry; the
    goodput's standard error in points (as goodput simulate writes it), and the closed form
    of a run that does not finish in practice (goodput under 1%) in words, not
    114,307,565,891.26 days (:func:`_closed_forms_in_words`)."""
    s = res.summary()
    rows = [
        {
            "key": "goodput",
            "keys": {"stderr": "goodput_stderr"},
            "label": f"Goodput over {res.days:g} days",
            "analytic": s["goodput_analytic"],
            "mean": s["goodput_mean"],
            "stderr": s["goodput_stderr"],
            "p5": s["goodput_p5"],
            "p50": s["goodput_p50"],
            "p95": s["goodput_p95"],
        },
        {
            "key": "time_to_finish_mean_days",
            "label": f"Days to finish {_work(res)}",
            "analytic": s["time_to_finish_analytic_days"],
            "mean": s["time_to_finish_mean_days"],
            "stderr": s["time_to_finish_stderr_days"],
            "p5": s["time_to_finish_p5_days"],
            "p50": s["time_to_finish_p50_days"],
            "p95": s["time_to_finish_p95_days"],
        },
    ]
    lost = res.lost_usd[np.isfinite(res.lost_usd)]
    if lost.size and res.params is not None:
        per_month = res._lost_per_month()

        def analytic(key: str):
            v = s[key]
            return v if np.isfinite(v) else None

        rows.append(
            _sample_row("lost_mean_usd", "Lost per run", lost, analytic("lost_analytic_usd"))
        )
        if per_month.size:
            rows.append(
                _sample_row(
                    "lost_mean_usd_per_month",
                    "Lost per month",
                    per_month,
                    analytic("lost_analytic_usd_per_month"),
                )
            )
    fails = np.asarray(getattr(res, "failures", ()), dtype=float)
    fails = fails[np.isfinite(fails)]
    if fails.size:
        closed = s.get("failures_analytic", math.nan)
        row = _sample_row(
            "failures_mean", "Failures per run", fails, closed if math.isfinite(closed) else None
        )
        # the percentiles of a count are whole failures (the nearest run's count)
        for q in (5, 50, 95):
            row[f"p{q}"] = float(np.percentile(fails, q, method="nearest"))
        rows.append({**row, "spread_key": "failures_per_run"})
    if s.get("unfinished_trials", 0) > 0:
        rows.append(
            {
                "key": "unfinished_trials",
                "label": "Runs that did not finish the work in the horizon",
                "mean": float(s["unfinished_trials"]),
            }
        )
    return _biased_low(_closed_forms_in_words(rows, s["goodput_analytic"]), res)


#: The rows of :func:`summary_rows` that count finished runs only, and the failures an
#: unfinished run counts only up to the cap: what each says when they are biased low
_FINISHED_ONLY_ROWS = {
    "time_to_finish_mean_days": " (finished runs only: biased low)",
    "lost_mean_usd": " (finished runs only: biased low)",
    "lost_mean_usd_per_month": " (finished runs only: biased low)",
    "failures_mean": " (unfinished runs counted to the cap: biased low)",
}


def _biased_low(rows: list[dict], res: SimulationResult) -> list[dict]:
    """``rows`` with the figures of finished runs labelled so when more than a small share
    of the runs did not finish (:func:`finished_only`): they are biased low."""
    if not finished_only(res):
        return rows
    return [{**r, "label": r["label"] + _FINISHED_ONLY_ROWS.get(r["key"], "")} for r in rows]


def _closed_forms_in_words(rows: list[dict], goodput: float) -> list[dict]:
    """``rows`` with the closed form of every figure of the whole run (days to finish,
    failures and dollars per run) as :data:`models.outputs.NOT_IN_PRACTICE` where the
    closed-form goodput is under 1% (:func:`models.outputs.finishes_in_practice`)."""
    if finishes_in_practice(goodput):
        return rows
    whole_run = {"time_to_finish_mean_days", "failures_mean", "lost_mean_usd"}
    return [{**r, "analytic": NOT_IN_PRACTICE} if r["key"] in whole_run else r for r in rows]


def summary_display(res: SimulationResult) -> pl.DataFrame:
    """:func:`summary_rows` as a display table: closed form, simulated mean and its standard
    error (every cell formatted from the registry)."""
    return display.metric_rows(summary_rows(res), SUMMARY_COLUMNS, label="Figure")


def spread_display(res: SimulationResult) -> pl.DataFrame:
    """:func:`summary_rows` as the second display table: P5, P50 and P95 over the runs (a
    figure with no spread, such as the count of unfinished runs, is left out)."""
    rows = [
        {**r, "key": r.get("spread_key", r["key"])}
        for r in summary_rows(res)
        if r.get("p50") is not None
    ]
    return display.metric_rows(rows, SPREAD_COLUMNS, label="Figure")


# --------------------------------------------------------------------------- page text
# What the Monte Carlo page shows, ready to place (the page formats no number itself).
#: The simulated tiles, in order.
SIMULATED_TILES = (
    "goodput_mean",
    "goodput_p5",
    "lost_mean_usd_per_month",
    "lost_p95_usd_per_month",
)


def intro_caption(scenario: Scenario) -> str:
    """What the page simulates."""
    return (
        f"{scenario['cluster.nodes']:,} nodes: thousands of simulated runs (failures, "
        "recoveries, spares, checkpoint tiers, fabric stalls) next to the closed-form "
        "expectation (Daly 2006)."
    )


def closed_form_tiles(ev: Evaluation) -> list[dict[str, str]]:
    """The closed-form figures the simulation is read against."""
    return [
        {**display.tile("goodput", ev["goodput"]), "label": "Goodput, closed form"},
        display.tile("lost_usd_per_day", ev["lost_usd_per_day"]),
        display.tile("failures_per_day", ev["failures_per_day"]),
        display.tile("checkpoint_interval_minutes", ev["checkpoint_interval_minutes"]),
    ]


def simulated_tiles(summary: dict, done: int, trials: int) -> list[dict[str, str]]:
    """The :data:`SIMULATED_TILES` from the runs so far (``done`` of ``trials``)."""
    out = []
    for key in SIMULATED_TILES:
        # the label says "per month": the dollar figure needs no unit (it then fits a tile)
        t = display.tile(key, summary.get(key), unit=not key.endswith("_per_month"))
        if done < trials:
            t["help"] = f"So far: {done:,} of {trials:,} runs. " + t["help"]
        out.append(t)
    return out


#: A choice of the runs slider: "1,000" (Streamlit shows "1000").
runs_text = display.runs_text


def progress_text(done: int, trials: int) -> str:
    return f"Simulated {done:,} of {trials:,} runs"


def result_caption(res: SimulationResult, seconds: float, seed: int) -> str:
    """Under the simulated tiles: runs, events, time taken, seed, interval, the bad month."""
    p95 = res.summary()["lost_p95_usd_per_month"]
    bad_month = (
        "A bad month: one run in twenty loses more than "
        f"{display.format_value('lost_p95_usd_per_month', p95)} "
        "(P95 of the lost dollars per month of wall time)."
        if math.isfinite(p95)
        else "No bad month to give: the lost dollars per month count runs that finish the "
        "work, and none did"
        + (
            f" (the closed form {NOT_IN_PRACTICE})."
            if not finishes_in_practice(res.goodput_analytic)
            else "."
        )
    )
    return (
        f"{res.trials:,} runs, {res.events_simulated:,} events simulated in {seconds:.2f} s "
        f"(seed {seed}); checkpoint interval "
        f"{display.format_value('checkpoint_interval_minutes', res.interval_minutes)}. " + bad_month
    )


#: How far the tests let the simulated mean goodput lie from the closed form: standard
#: errors, plus points of goodput for the closed form's approximations
#: (tests/models/test_failure_domains.py, docs/resilience.md)
AGREEMENT_STDERRS, AGREEMENT_POINTS = 4.0, 0.1


def agreement_caption(res: SimulationResult) -> str:
    """Under the closed-form table: how many standard errors the simulated mean goodput is
    from the closed form, and why a few can be expected (QA 17: 3.3 on the NVL72 preset)."""
    s = res.summary()
    se, gap = s["goodput_stderr"], s["goodput_mean"] - s["goodput_analytic"]
    if not (se and math.isfinite(se) and se > 0 and math.isfinite(gap)):
        return ""
    points = display.format_value("goodput_delta", gap)  # the tiles' two decimals
    distance = (
        f"Simulated mean goodput under 0.01 points from the closed form ({abs(gap) / se:.1f} "
        "standard errors)."
        if display.reads_zero(points)
        else f"Simulated mean goodput {points} from the closed form, {abs(gap) / se:.1f} "
        "standard errors."
    )
    return (
        f"{distance} The closed form is Daly's expected wall time, exact with "
        "exponential failures, fixed recovery times, no spares and one checkpoint tier; with "
        "spares, failure domains or two tiers it approximates, and the tests hold the two "
        f"within {AGREEMENT_STDERRS:g} standard errors plus {AGREEMENT_POINTS:g} points."
        + _failures_gap(res)
    )


def _failures_gap(res: SimulationResult) -> str:
    """Why the failures per run show no closed form ("—"), as a sentence, or ""."""
    why = res.failures_closed_form_gap() if res.params is not None else ""
    return f" Failures per run have no closed form here: {why}." if why else ""


#: Above this share of unfinished runs the figures of finished runs (days to finish, lost
#: dollars) and the failures counted to the cap are said to be biased low
SMALL_UNFINISHED_SHARE = 0.01


def finished_only(res: SimulationResult) -> bool:
    """True when more than :data:`SMALL_UNFINISHED_SHARE` of the runs did not finish: the
    days to finish and lost dollars are then of the finished runs only (the fast ones) and
    the failures per run stop at the cap, all biased low."""
    return res.trials > 0 and res.unfinished > SMALL_UNFINISHED_SHARE * res.trials


def unfinished_warning(res: SimulationResult) -> str:
    """Runs that had not finished, or ""; with more than a small share unfinished, which
    figures are then of the finished runs only and biased low."""
    if not res.unfinished:
        return ""
    head = (
        f"{res.unfinished:,} of {res.trials:,} runs "
        f"({display.format_value('goodput', res.unfinished / res.trials)}) had not finished "
        "after 4× the compute time."
    )
    if not finished_only(res):
        return head
    done = res.trials - res.unfinished
    return head + (
        f" The days to finish and the lost dollars are of the {done:,} finished runs only, "
        "and the failures per run of an unfinished run stop at that cap: all are biased low "
        "(the slow runs are left out)."
    )


def export_note(trials: int, seed: int) -> str:
    return (
        f"This scenario with these {trials:,} runs (seed {seed}): percentiles, the "
        "fan chart, every input with its source."
    )


def goodput_histogram_title(res: SimulationResult) -> str:
    return f"Goodput over {res.days:g} days"


def finish_histogram_title(res: SimulationResult) -> str:
    return f"Wall time to finish {_work(res)}"


def _work(res: SimulationResult) -> str:
    """The compute each run commits: whole checkpoint intervals, so a little over the
    horizon it was asked for ("30 days of compute (30.01 in whole checkpoint intervals)",
    not "30.01 days" alone, which read as a typo, nor the note inside "30 days ... of
    compute")."""
    if abs(res.work_days - res.days) <= 0.01 * res.days and res.work_days != res.days:
        return f"{res.days:g} days of compute ({res.work_days:.4g} in whole checkpoint intervals)"
    return f"{res.work_days:.4g} days of compute"

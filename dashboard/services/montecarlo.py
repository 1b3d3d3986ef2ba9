"""Tables behind the Monte Carlo page: distributions, bands, one trial's timeline, summary.

Calls models.montecarlo and returns polars frames; no Streamlit here (caching lives in the
page, keyed on :class:`models.montecarlo.SimulationParams`).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import numpy as np
import polars as pl
from goodput_lab.models import Scenario, resolve_inputs
from goodput_lab.models.budget import Budget
from goodput_lab.models.catalog import Instance
from goodput_lab.models.montecarlo import (
    SimulationParams,
    SimulationResult,
    merge_results,
    params_from_inputs,
    simulate_params,
)

#: Gantt rows: timeline event that starts each state, in display order.
STATES = {
    "training": "Training",
    "detection": "Detection",
    "replacement": "Replacement",
    "restart": "Restart",
    "restore": "Restore",
    "warmup": "Warm-up",
    "stall": "Fabric stall",
    "spot": "Spot notice save and recovery",
}
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


def chunk_size(trials: int) -> int:
    """Trials per chunk: about a tenth of the run (at least 500) so a progress bar moves."""
    return max(500, -(-trials // 10))


def n_chunks(trials: int) -> int:
    return -(-trials // chunk_size(trials))


def run_chunk(
    p: SimulationParams,
    trials: int,
    days: float,
    seed: int,
    chunk: int,
    budget: Budget | None = None,
):
    """Chunk number ``chunk`` of a run of ``trials`` (same streams as the whole run).

    ``budget`` (shared by the chunks of one page run) bounds the work; past it the chunk
    stops with a ValidationError naming the nearest allowed size.
    """
    return simulate_params(
        p,
        trials,
        days,
        rng=seed,
        chunk_trials=chunk_size(trials),
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
    for i in range(n_chunks(trials)):
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


def timeline_segments(res: SimulationResult) -> pl.DataFrame:
    """The sample trial as state intervals: state, label, start_hours, end_hours."""
    rows = []
    events = res.timeline
    for (ev, t), (ev_next, t_next) in itertools.pairwise(events):
        state = _STARTS.get(ev)
        if ev == "restored" and ev_next == "warmed_up":
            state = "warmup"
        if state is None or t_next <= t:
            continue
        rows.append(
            {
                "state": state,
                "label": STATES[state],
                "start_hours": t / 60.0,
                "end_hours": t_next / 60.0,
            }
        )
    schema = {
        "state": pl.Utf8,
        "label": pl.Utf8,
        "start_hours": pl.Float64,
        "end_hours": pl.Float64,
    }
    return pl.DataFrame(rows, schema=schema)


def summary_table(res: SimulationResult) -> pl.DataFrame:
    """Analytic (Daly) vs simulated, side by side."""
    s = res.summary()
    rows = [
        (
            "Goodput (%)",
            100 * s["goodput_analytic"],
            100 * s["goodput_mean"],
            100 * s["goodput_stderr"],
            100 * s["goodput_p5"],
            100 * s["goodput_p50"],
            100 * s["goodput_p95"],
        ),
        (
            f"Days to finish {res.work_days:.4g} days of compute",
            s["time_to_finish_analytic_days"],
            s["time_to_finish_mean_days"],
            s["time_to_finish_stderr_days"],
            s["time_to_finish_p5_days"],
            s["time_to_finish_p50_days"],
            s["time_to_finish_p95_days"],
        ),
    ]
    lost = res.lost_usd[np.isfinite(res.lost_usd)]
    if lost.size and res.params is not None:
        g = res.goodput_analytic
        p = res.params
        wall = res.time_to_finish_analytic_days * 1440.0
        lost_an = (wall - res.work_days * 1440.0) * p.cluster_usd_per_min + wall * (
            p.spare_usd_per_min
        )
        rows.append(
            (
                "Lost USD per run",
                lost_an if g > 0 else float("nan"),
                float(lost.mean()),
                float(lost.std(ddof=1) / np.sqrt(lost.size)) if lost.size > 1 else float("nan"),
                float(np.percentile(lost, 5)),
                float(np.percentile(lost, 50)),
                float(np.percentile(lost, 95)),
            )
        )
    cols = ["quantity", "analytic", "simulated_mean", "std_error", "p5", "p50", "p95"]
    return pl.DataFrame(rows, schema=cols, orient="row")


def summary_display(res: SimulationResult) -> pl.DataFrame:
    """:func:`summary_table` as text for people: % to 2 decimals, days to 3, USD whole."""
    t = summary_table(res)
    out = []
    for row in t.iter_rows(named=True):
        q = row["quantity"]
        if q.startswith("Goodput"):
            fmt = "{:.2f}%"
        elif q.startswith("Days"):
            fmt = "{:.3f}"
        else:
            fmt = "${:,.0f}"
        shown = {"Quantity": q}
        for col, label in (
            ("analytic", "Analytic"),
            ("simulated_mean", "Simulated mean"),
            ("std_error", "Std. error"),
            ("p5", "P5"),
            ("p50", "P50"),
            ("p95", "P95"),
        ):
            v = row[col]
            shown[label] = "n/a" if v is None or not np.isfinite(v) else fmt.format(v)
        out.append(shown)
    return pl.DataFrame(out)

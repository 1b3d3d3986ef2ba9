"""Tables behind the Run log page: a run's timeline measured, fitted and predicted.

No Streamlit and no model math here: parsing, measurement, fitting and prediction come from
models.timeline and models.reconcile; this module shapes the results into polars frames
(numbers for charts, words and formatted figures for tables, from the output registry).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

import polars as pl

from goodput_lab.models import FIELDS, Comparison, Scenario, ValidationError, compare
from goodput_lab.models._csv import CLI_MAP_HINT
from goodput_lab.models._resources import data_path
from goodput_lab.models._text import counted
from goodput_lab.models.catalog import Instance
from goodput_lab.models.outputs import format_range, format_value, help_text, output
from goodput_lab.models.reconcile import (
    BUCKET_LABELS,
    STATED_NODES_SOURCE,
    WhatIf,
    predicted_bucket_hours,
    reconcile,
    unmodelled_fraction,
)
from goodput_lab.models.timeline import (
    FORMAT_RECORDER,
    MAX_TIMELINE_BYTES,
    MAX_TIMELINE_ROWS,
    Timeline,
    parse_mapping,
    parse_timeline,
)
from goodput_lab.views import display
from goodput_lab.views.failure_log import input_value

EXAMPLE = data_path("timelines", "example-run.csv")
EXAMPLE_NODES = 2000
#: The page's widgets, named in its messages where the CLI names --nodes and --map.
NODES_LABEL = "Nodes the job ran on"
MAP_LABEL = "Column and event names"
#: The output registry's format for a failure rate (% per node-day), one on the whole page.
RATE_FORMAT = "fitted_node_failure_rate_per_day"
#: Read uploads in chunks of this many bytes (the page shows progress between them).
CHUNK_BYTES = 1024 * 1024


def example_bytes() -> bytes:
    """The shipped SYNTHETIC example timeline (scripts/make_example_timeline.py)."""
    return EXAMPLE.read_bytes()


def read_chunks(stream, size: int, progress: Callable[[int, int], None] | None = None) -> bytes:
    """Read a file-like upload in chunks, refusing more than MAX_TIMELINE_BYTES.

    ``progress(bytes_read, size)`` is called after each chunk.
    """
    if size > MAX_TIMELINE_BYTES:
        raise ValidationError(
            "upload", f"{size:,} bytes is too large (at most {MAX_TIMELINE_BYTES:,} bytes)"
        )
    parts: list[bytes] = []
    done = 0
    while True:
        chunk = stream.read(CHUNK_BYTES)
        if not chunk:
            break
        done += len(chunk)
        if done > MAX_TIMELINE_BYTES:
            raise ValidationError("upload", f"is larger than {MAX_TIMELINE_BYTES:,} bytes")
        parts.append(chunk)
        if progress is not None:
            progress(done, max(size, done))
    return b"".join(parts)


def mapping_from_text(text: str) -> dict[str, str]:
    """``key=name`` pairs separated by commas or new lines (as ``--map`` takes them)."""
    items = [p.strip() for p in text.replace("\n", ",").split(",") if p.strip()]
    return parse_mapping(items)


def parse(data: bytes, mapping: Mapping[str, str], progress=None) -> Timeline:
    """Parse a timeline (raises models.ValidationError naming row and column)."""
    return parse_timeline(data, mapping, progress=progress)


@dataclass(frozen=True)
class RunLogView:
    """What the page shows of one reconciled run (small: cached and pickled per rerun)."""

    summary: dict[str, Any]  # Reconciliation.to_json_dict()
    buckets: pl.DataFrame  # numeric, one row per bucket
    over_time: pl.DataFrame  # hours, measured, p5 ... p95
    fitted: Scenario
    notes: tuple[str, ...]
    #: the run's badput the model does not describe (models.reconcile.unmodelled_fraction)
    unmodelled_fraction: float = 0.0
    #: (row, earlier row) of the rows dropped as repeats (models.timeline.drop_repeated_rows)
    duplicates: tuple[tuple[int, int], ...] = ()


def run_log_view(
    timeline: Timeline,
    base: Scenario,
    nodes: int | None,
    catalog: dict[str, Instance],
    trials: int,
    seed: int,
    source: str,
    stated_nodes: int | None = None,
) -> RunLogView:
    """Measure, fit and predict (models.reconcile.reconcile), shaped for the page; without
    ``nodes`` the file's ``# nodes=N`` line (``stated_nodes``), else the scenario's."""
    r = reconcile(
        timeline,
        base,
        nodes=nodes,
        stated_nodes=stated_nodes,
        trials=trials,
        seed=seed,
        catalog=catalog,
        source=source,
        nodes_field=NODES_LABEL,
    )
    return RunLogView(
        summary=r.to_json_dict(),
        buckets=pl.DataFrame(r.bucket_rows()),
        over_time=pl.DataFrame({k: list(v) for k, v in r.goodput_over_time().items()}),
        fitted=r.fitted,
        notes=r.notes,
        unmodelled_fraction=unmodelled_fraction(r.measurement, r.evaluation),
        duplicates=r.timeline_duplicates,
    )


def duplicates_text(duplicates: tuple[tuple[int, int], ...], timeline_format: str) -> str:
    """What the reader dropped as repeated rows (models.timeline.drop_repeated_rows), in
    words, the first three named by row, as ``goodput fit`` says it of a failure log
    (views.failure_log.duplicates_text); "" when none was.

    >>> print(duplicates_text(((4, 3),), "timeline"))  # doctest: +NORMALIZE_WHITESPACE
    1 row of the timeline repeats an earlier row cell for cell (the same time, event, step
    and node: a log shipper's repeat) and is not counted: row 4 repeats row 3.
    """
    if not duplicates:
        return ""
    named = ", ".join(f"row {r} repeats row {first}" for r, first in duplicates[:3])
    more = len(duplicates) - 3
    tail = f" and {more:,} more" if more > 0 else ""
    verb, be = ("repeats", "is") if len(duplicates) == 1 else ("repeat", "are")
    cells = (
        "the same record"
        if timeline_format == FORMAT_RECORDER
        else "the same time, event, step and node"
    )
    return (
        f"{counted(len(duplicates), 'row')} of the timeline {verb} an earlier row cell for "
        f"cell ({cells}: a log shipper's repeat) and {be} not counted: {named}{tail}."
    )


def row_times(measured: float, *others: tuple[str, float]) -> list[str]:
    """A bucket row's times in one unit, the measured time's (``goodput reconcile`` read
    "56.9 min" beside a predicted "1.10 h", and "0.00 h" beside "5.1 min"): hours from one
    hour, else minutes, else seconds, in the registry's formats of ``measured_hours`` and of
    each ``(key, hours)`` of ``others``; a zero measured time takes the largest's unit."""
    pick = abs(measured) or max((abs(v) for _, v in others), default=0.0)
    factor, unit = (1.0, "h") if pick >= 1 or pick == 0 else (60.0, "min")
    if factor == 60.0 and pick * 60 < 1:
        factor, unit = 3600.0, "s"
    texts = []
    for key, hours in (("measured_hours", measured), *others):
        o = replace(output(key), unit=unit, decimals=2 if unit == "h" else 1)
        texts.append(f"{format_value(o, factor * hours, unit=False)} {unit}")
    return texts


def bucket_table(
    view: RunLogView, time_unit: tuple[float, str, str] = (1.0, "h", "hours")
) -> pl.DataFrame:
    """Measured and predicted badput per bucket, formatted (time, share, dollars); the times
    in ``time_unit`` (factor from hours, unit, word), the bucket chart's above it
    (:func:`goodput_lab.charts.run_log.bucket_unit`: minutes for a short run)."""
    factor, unit, _ = time_unit
    times = {k: replace(output(k), unit=unit) for k in ("measured_hours", "predicted_hours")}
    rows = []
    for r in view.buckets.iter_rows(named=True):
        rows.append(
            {
                "Bucket": r["bucket_label"],
                **{
                    display.header(o): format_value(o, factor * r[k], unit=False)
                    for k, o in times.items()
                },
                display.header("measured_fraction"): format_value(
                    "measured_fraction", r["measured_fraction"], unit=False
                ),
                display.header("predicted_fraction"): format_value(
                    "predicted_fraction", r["predicted_fraction"], unit=False
                ),
                display.header("measured_usd"): format_value(
                    "measured_usd", r["measured_usd"], unit=False
                ),
                display.header("predicted_usd"): format_value(
                    "predicted_usd", r["predicted_usd"], unit=False
                ),
            }
        )
    return pl.DataFrame(rows)


def bucket_components_caption(view: RunLogView) -> str:
    """Which of the model's loss components each bucket's prediction sums, in one sentence
    under :func:`bucket_table` (as a ninth column the table ran past the page at 1,024 px)."""
    parts = [
        f"{r['bucket_label']}: {r['model_components'].replace('_', ' ')}"
        for r in view.buckets.iter_rows(named=True)
        if r["model_components"]
    ]
    return "Predicted from the model's components — " + "; ".join(parts) + "."


FITTED_ROWS = (  # (output key, sample name, label, scenario field)
    (
        "failure_rate_per_node_day",
        None,
        "Node failure rate",
        "reliability.node_failure_rate_per_day",
    ),
    ("save_seconds", "save", "Blocking save", "checkpoint.save_seconds"),
    ("restore_seconds", "restore", "Restore", "recovery.restore_minutes"),
    ("recovery_minutes", "recovery", "Recovery (failure to restore)", "recovery.* (scaled)"),
    ("step_seconds", "step", "Step time", "none (the workload sets the model's step)"),
    ("checkpoint_interval_minutes", None, "Checkpoint interval", "checkpoint.interval_minutes"),
)


def rate_text(rate: float) -> str:
    """A failure rate as the page shows it everywhere: "0.55% per node-day"."""
    return f"{format_value(RATE_FORMAT, rate)} per node-day"


def rate_range(lo: float, hi: float) -> str:
    """A failure rate's interval in the same format: "0.35–0.83%"."""
    return format_range(RATE_FORMAT, lo, hi)


def fitted_table(view: RunLogView) -> pl.DataFrame:
    """Fitted quantities with their spread (or interval) and the scenario field they set."""
    f = view.summary["fitted"]
    unit = {"save": "seconds", "restore": "seconds", "recovery": "minutes", "step": "seconds"}
    pct = f"{100 * f['confidence_level']:.0f}%"
    rows = []
    for key, sample, label, field in FITTED_ROWS:
        value = f[key]
        fitted = format_value(key, value) if value is not None else "not measured"
        if key == "failure_rate_per_node_day":
            fitted = rate_text(value)
            spread = f"{pct} CI {rate_range(f[key + '_lo'], f[key + '_hi'])} (exact Poisson)"
            count = counted(view.summary["failure_incidents"], "incident")
        elif sample is not None and value is not None:
            u = unit[sample]
            spread = (
                "P10 / P50 / P90 "
                + " / ".join(
                    format_value(f"{sample}_p{q}_{u}", f[f"{sample}_p{q}_{u}"], unit=False)
                    for q in (10, 50, 90)
                )
                + f" {output(key).unit}"
            )
            plural = "recoveries" if sample == "recovery" else f"{sample}s"
            count = f"{f[f'{plural}_measured']:,} measured"
        else:
            spread, count = "", ""
        rows.append(
            {
                "Quantity": label,
                "Fitted": fitted,
                "Spread": spread,
                "Sample": count,
                "Scenario field": field,
            }
        )
    return pl.DataFrame(rows)


def what_if(view: RunLogView, scenario: Scenario, catalog: dict[str, Instance]) -> Comparison:
    """The sidebar scenario against the fitted one (raises ValidationError if invalid)."""
    return compare(view.fitted, scenario, catalog)


def what_if_figures(view: RunLogView, cmp: Comparison) -> dict[str, float]:
    """Predicted goodput of the sidebar scenario, its change, and what it means on this run."""
    w = WhatIf(
        sets=(),
        comparison=cmp,
        measured_goodput=view.summary["measured_goodput"],
        span_days=view.summary["run_days"],
        unmodelled_fraction=view.unmodelled_fraction,
    )
    return {
        "predicted_goodput": w.predicted_goodput,
        "goodput_delta": w.goodput_delta,
        "estimated_goodput": w.estimated_goodput,
        "savings_usd_per_day": w.savings_usd_per_day,
        "run_savings_usd": w.run_savings_usd,
    }


def what_if_buckets(view: RunLogView, cmp: Comparison) -> pl.DataFrame:
    """The sidebar scenario's predicted loss per bucket over the run's length [h]."""
    hours = predicted_bucket_hours(cmp.candidate, view.summary["run_days"])
    return pl.DataFrame(
        {
            "bucket_label": [BUCKET_LABELS[b] for b in hours],
            "what_if_hours": list(hours.values()),
        }
    )


# --------------------------------------------------------------------------- page text
# What the Run log page shows, ready to place (the page formats no number itself); ``esc``
# escapes user text (a file's name) for the page.
UPLOAD_HELP = (
    "Events job_start, step_end, checkpoint_start/end, failure, restore_start/end, "
    "job_end (docs/timeline.md), or the records of ml-goodput-measurement's "
    "GoodputRecorder. At most 10 MB uploaded (compress big files: up to "
    f"{MAX_TIMELINE_BYTES // 2**20} MB of text) and {MAX_TIMELINE_ROWS:,} rows."
)


def read_progress_text(done: int, size: int) -> str:
    return f"Read {done / 1e6:,.1f} of {size / 1e6:,.1f} MB"


def summary_caption(d: Mapping[str, Any], esc: Callable[[str], str] = str) -> str:
    """The timeline read, the run's length and nodes, the fitted failure rate with its
    interval, and the price (``d`` is ``RunLogView.summary``)."""
    f = d["fitted"]
    source = d["run_nodes_source"]
    if source == NODES_LABEL:
        nodes = f"entered under {NODES_LABEL}"
    elif source == STATED_NODES_SOURCE:
        nodes = "the file's '# nodes=' line"
    else:
        nodes = "the sidebar scenario's"
    return (
        f"{esc(d['timeline_source'])}: {d['timeline_format']}, {d['timeline_rows']:,} rows, "
        f"{d['run_days']:.2f} days on {counted(d['run_nodes'], 'node')} ({nodes}); "
        f"{counted(d['failure_incidents'], 'failure incident')}, fitted rate "
        f"{rate_text(f['failure_rate_per_node_day'])} "
        f"({100 * f['confidence_level']:.0f}% CI "
        f"{rate_range(f['failure_rate_per_node_day_lo'], f['failure_rate_per_node_day_hi'])}); "
        f"price {format_value('usd_per_instance_hour', d['usd_per_instance_hour'])} per node."
    )


def page_message(exc: ValidationError) -> str:
    """A reader's or the fit's message as the page says it: its own widgets (Nodes the job
    ran on, Column and event names), not the CLI's --nodes and --map."""
    field = {"--map": MAP_LABEL, "--nodes": NODES_LABEL}.get(exc.field, exc.field)
    message = exc.message.replace("--map EVENT=NAME", f"EVENT=NAME under {MAP_LABEL}")
    # the reader's "or map one, e.g. --map timestamp=<header>" (models._csv)
    message = CLI_MAP_HINT.sub(rf"or map one under {MAP_LABEL}: \1=<header>", message)
    return f"{field}: {message}"


def run_tiles(d: Mapping[str, Any]) -> list[dict[str, str]]:
    """Measured and predicted goodput (the Monte Carlo band in the help) and the run's
    badput cost: ``st.metric`` keyword arguments."""
    fv = format_value
    band = (
        f"goodput. Monte Carlo P5-P95 over {d['monte_carlo_trials']:,} runs of this length: "
        f"{format_range('predicted_goodput_p5', d['predicted_goodput_p5'], d['predicted_goodput_p95'])}."
        if d["monte_carlo_trials"]
        else "goodput. No Monte Carlo band: the run is shorter than an hour."
    )
    return [
        {
            "label": "Measured goodput",
            "value": fv("measured_goodput", d["measured_goodput"]),
            "help": help_text("measured_goodput"),
        },
        {
            "label": "Predicted goodput",
            "value": fv("predicted_goodput", d["predicted_goodput"]),
            **display.delta(fv("prediction_minus_measured", d["prediction_minus_measured"])),
            "delta_color": "off",
            "help": "The analytic model on the fitted scenario; the change is against the "
            "measured " + band,
        },
        {
            "label": "Badput cost of the run",
            "value": fv("run_badput_usd", d["run_badput_usd"]),
            "help": f"{fv('run_badput_hours', d['run_badput_hours'])} of "
            f"{fv('run_wall_hours', d['run_wall_hours'])} × {d['run_nodes']:,} nodes at the "
            "price.",
        },
    ]


def changed_caption(cmp: Comparison, shown: int = 6) -> str:
    """The sidebar's changes against the fitted scenario (the first ``shown``)."""
    diffs = cmp.differences()
    fv = input_value  # a failure rate in the rate's format, as everywhere on the page
    return (
        "Changed: "
        + "; ".join(f"{FIELDS[k].label} {fv(k, b)} → {fv(k, c)}" for k, b, c in diffs[:shown])
        + (" …" if len(diffs) > shown else "")
    )


def what_if_tiles(w: Mapping[str, float], d: Mapping[str, Any]) -> list[dict[str, str]]:
    """The sidebar scenario on this run: predicted goodput (change against the fitted
    prediction), this run's goodput changed, and the savings over the run."""
    fv = format_value
    return [
        {
            "label": "Predicted goodput (sidebar)",
            "value": fv("predicted_goodput", w["predicted_goodput"]),
            **display.delta(fv("goodput_delta", w["goodput_delta"])),
            "help": "The analytic model on the sidebar scenario; the change is against the "
            "fitted scenario's prediction. " + help_text("predicted_goodput"),
        },
        {
            "label": "This run, changed",
            "value": fv("estimated_goodput", w["estimated_goodput"]),
            "help": "About what this run would have measured: its measured badput scaled by "
            "the model's predicted badput, sidebar over fitted (badput the model does not "
            "describe, the Other bucket, kept as measured); docs/timeline.md.",
        },
        {
            "label": "Savings over the run",
            "value": fv("run_savings_usd", w["run_savings_usd"]),
            "help": f"{fv('savings_usd_per_day', w['savings_usd_per_day'])} × "
            f"{d['run_days']:.2f} days (including what the change adds: spares, price).",
        },
    ]

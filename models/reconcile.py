"""From a measured run to fitted parameters, a fitted scenario and predicted-vs-measured.

:func:`reconcile` takes a parsed timeline (:mod:`models.timeline`), measures it, fits the
scenario fields the run can tell, evaluates the fitted scenario with the analytic model
(:func:`models.evaluate.evaluate`) and the Monte Carlo simulator
(:func:`models.montecarlo.simulate`), and sets the measured badput buckets against the
model's loss components.  Definitions and the mapping: ``docs/timeline.md``.

Fitted from the run (all means; spread as 10th/50th/90th percentiles):

* **failure rate per node-day** = failure incidents (failures at distinct times) ÷
  (nodes × wall days), with an exact Poisson (Garwood 1936) interval
  (:func:`models.fitting.poisson_rate_ci`).  Wall days, not compute days: in Daly's model,
  which the analytic goodput implements, failures strike during saves and recoveries too.
* **save seconds**: complete blocking saves (``checkpoint_start`` → ``checkpoint_end``).
* **restore seconds**: complete restores (``restore_start`` → ``restore_end``).
* **recovery minutes**: from the last failure before each restore to ``restore_start``
  (detection + replacement + restart; a failure during a recovery starts the restart over,
  as in Daly's model, so only the last one's time is a complete recovery).
* **step seconds**: every step execution.
* **checkpoint interval**: the time from a ``checkpoint_end`` (or ``restore_end``) to the
  next ``checkpoint_start`` with no failure in between (compute time between saves, the
  model's τ); without such a pair, steps between saved step numbers × step time.

Into the scenario (``checkpoint.strategy = durable_only``, ``timings = measured``,
``save_mode = sync``, one kind of save and restore as in the timeline): the node count, the
failure rate (``reliability.weibull_shape = 1``: the timeline gives job-level failures, fitted
as exponential), save and restore times, the interval, ``network.fabric_events_per_day = 0``
(fabric aborts are among the timeline's failures; so are domain, switch and fail-slow events
and, unless the run marks its own, job-level interruptions, all set to 0), and the recovery
time: detection,
replacement, hot-spare swap and restart are scaled by one factor so that the model's
expected detection + replacement + restart equals the measured mean (their split is the base
scenario's; the timeline cannot tell them apart).  ``simulation.recovery_spread`` is the
measured coefficient of variation of recovery times.  Every value set is rounded to 6
significant digits (:func:`models._tools.six_digits`), the printed ``--set`` line's.
Everything else (instance, price,
workload, spares) comes from the base scenario.  The measured step time is reported, not
written: no scenario field holds it (the workload fields set the model's step time).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import numpy as np

from ._text import counted
from ._tools import like_input, six_digits
from .badput import (
    BADPUT_BUCKETS,
    BADPUT_LABELS,
    COMPONENT_BADPUT,
    TIMELINE_BADPUT,
    badput_minutes_per_day,
)
from .catalog import Instance
from .errors import ValidationError
from .evaluate import Comparison, Evaluation, compare, evaluate
from .failure_log import job_level_mask
from .failure_log import stated_nodes as stated_log_nodes
from .fields import FIELDS
from .fitting import poisson_rate_ci, split_job_level
from .montecarlo import MIN_DAYS, SimulationResult, check_size, simulate
from .outputs import LOSS_COMPONENTS
from .pricing import json_date
from .scenario import Scenario
from .timeline import BUCKETS, RunMeasurement, Timeline, gzip_head, measure
from .uncertainty import fitted_rate_interval

#: Measured badput bucket -> the analytic model's loss components it is compared with.
BUCKET_COMPONENTS: dict[str, tuple[str, ...]] = {
    "checkpoint_save": ("checkpoint_save",),
    "restore": ("restore",),
    "recovery": ("detection", "replacement", "restart", "spot_notice", "corrupt_checkpoint"),
    "rework": ("rework", "fallback_rework", "sdc_rollback"),
    # slower steps (warm-up, stragglers, feature overheads) and stalls: not failure time
    "other": ("fabric_stall", "fail_slow", "warmup", "straggler", "resilience_overhead"),
}
BUCKET_LABELS: dict[str, str] = {
    "checkpoint_save": "Checkpoint saves",
    "restore": "Restores",
    "recovery": "Recovery (failure to restore)",
    "rework": "Rework",
    "other": "Other",
}
assert set(BUCKET_COMPONENTS) == set(BUCKETS)
assert {c for cs in BUCKET_COMPONENTS.values() for c in cs} == set(LOSS_COMPONENTS)

RECOVERY_FIELDS = (
    "recovery.detection_minutes",
    "recovery.replacement_minutes",
    "recovery.hot_spare_swap_minutes",
    "recovery.restart_minutes",
)
MAX_NODES = int(FIELDS["cluster.nodes"].max or 200_000)
#: A base whose detection + replacement + restart is within this share of the measured
#: recovery keeps its recovery times [fraction]: they are then the fit to the 6 significant
#: digits the fitted values have (each rounded by at most 5e-6 of itself), so a scenario
#: fitted to a run, fitted again to the same run, is the same scenario (the Run log page's
#: "the sidebar holds the fitted scenario").
SAME_RECOVERY = 1e-5


@dataclass(frozen=True)
class Summary:
    """A measured sample: count, mean, 10th/50th/90th percentiles and coefficient of variation."""

    count: int
    mean: float
    p10: float
    p50: float
    p90: float
    cv: float


def summarise(x, scale: float = 1.0) -> Summary | None:
    """Summary of the sample ``x × scale`` (None when empty).

    >>> summarise([1.0, 2.0, 3.0]).mean
    2.0

    Parameters
    ----------
    x : array_like
        The sample (any unit).
    scale : float
        Factor applied to every value [-] (e.g. 1/60 from seconds to minutes).

    Returns
    -------
    Summary or None
        Count [count], mean, p10/p50/p90 (in the unit of ``x × scale``) and coefficient of
        variation [-]; None for an empty sample.
    """
    a = np.asarray(x, dtype=float) * scale
    if a.size == 0:
        return None
    mean = float(a.mean())
    sd = float(a.std(ddof=1)) if a.size > 1 else 0.0
    p10, p50, p90 = (float(v) for v in np.percentile(a, [10, 50, 90]))
    return Summary(int(a.size), mean, p10, p50, p90, sd / mean if mean > 0 else 0.0)


@dataclass(frozen=True)
class TimelineFit:
    """Parameters fitted from one run (module docstring).  None where the run cannot tell."""

    nodes: int
    nodes_source: str
    confidence: float
    failures: int
    incidents: int
    node_days: float
    failure_rate_per_node_day: float
    failure_rate_per_node_day_lo: float
    failure_rate_per_node_day_hi: float
    save: Summary | None  # seconds
    restore: Summary | None  # seconds
    recovery: Summary | None  # minutes
    step: Summary | None  # seconds
    checkpoint_interval_minutes: float | None
    #: job-level interruptions per day (failures the timeline marks as the job's own, node id
    #: "job", "*", "-" ...: models.fitting.JOB_NODE_IDS) and their interval; None when none is
    job_interruptions_per_day: float | None = None
    job_interruptions_per_day_lo: float | None = None
    job_interruptions_per_day_hi: float | None = None


def check_nodes(nodes: Any, flag: str = "--nodes") -> int:
    """``nodes`` as an int in [1, cluster.nodes max], else ValidationError naming ``flag``.

    Parameters
    ----------
    nodes : Any
        The value given for the node count.
    flag : str
        The flag or field to name in the error.

    Returns
    -------
    int
        The node count [count].
    """
    if isinstance(nodes, bool) or not isinstance(nodes, int | np.integer):
        raise ValidationError(flag, f"{nodes!r} is not a whole number of nodes")
    if not 1 <= int(nodes) <= MAX_NODES:
        raise ValidationError(flag, f"{nodes} is out of range (an integer in [1, {MAX_NODES:,}])")
    return int(nodes)


#: where the node count comes from when the timeline states it (``run_nodes_source``)
STATED_NODES_SOURCE = "the file's # nodes= line"


def stated_timeline_nodes(data: str | bytes) -> int | None:
    """The node count a timeline states in a comment before its header (``# nodes=2000``,
    as scripts/make_example_timeline.py writes), or None; a gzip file is read through its
    first 64 KiB of text, over every gzip member (:func:`models.timeline.gzip_head`), as
    ``goodput fit`` reads a log's (:func:`models.failure_log.stated_nodes`).

    Parameters
    ----------
    data : str or bytes
        The timeline's bytes (gzip allowed) or text.

    Returns
    -------
    int or None
        The stated node count [nodes], None when no comment states one.

    Examples
    --------
    >>> stated_timeline_nodes("# SYNTHETIC\\n# nodes=2000, days=2.0\\ntimestamp,event\\n")
    2000
    >>> stated_timeline_nodes('{"timestamp": "2025-03-01T00:00:00Z"}') is None
    True
    """
    head = gzip_head(data, 64 * 1024)  # across gzip members; a bad file: the parser says
    if isinstance(head, bytes):
        head = head.decode("utf-8", errors="replace")
    comments = []
    for line in head.lstrip("\ufeff").splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            break
        comments.append(line)
    return stated_log_nodes("\n".join(comments) + "\n") if comments else None


def named_nodes(timeline: Timeline) -> int:
    """Distinct nodes the timeline's events name [count] (ids such as ``job`` that mark the
    job itself, :data:`models.failure_log.JOB_NODE_IDS`, are not nodes).

    Parameters
    ----------
    timeline : Timeline
        Parsed timeline.

    Returns
    -------
    int
        The distinct node ids [count].
    """
    ids = np.asarray(timeline.node_id, dtype=object).astype(str)
    ids = np.char.strip(ids)
    real = ids[(ids != "") & ~job_level_mask(ids)]
    return int(np.unique(real).size)


def nodes_of_run(
    timeline: Timeline,
    base: Scenario,
    nodes: int | None,
    stated: int | None = None,
    field: str = "--nodes",
) -> tuple[int, str]:
    """The nodes the run was on and where that count comes from: ``nodes`` when given, else
    the count the file states, else the base scenario's; never fewer than the distinct
    nodes the timeline names (a smaller fleet would overstate the per-node failure rate).

    Parameters
    ----------
    timeline : Timeline
        Parsed timeline.
    base : Scenario
        The base scenario (its ``cluster.nodes``).
    nodes : int, optional
        The node count given [count].
    stated : int, optional
        The node count the file states (:func:`stated_timeline_nodes`) [count].
    field : str
        The input to name in messages (``--nodes``, a page's box).

    Returns
    -------
    tuple of (int, str)
        Nodes [count] and their source ("--nodes", "the file's # nodes= line", "base
        scenario").

    Raises
    ------
    ValidationError
        Naming ``field`` and the least count allowed.
    """
    least = named_nodes(timeline)
    if nodes is not None:
        n = check_nodes(nodes, field)
        if n < least:
            raise ValidationError(
                field,
                f"{n:,} is out of range (at least the {least:,} distinct nodes the timeline "
                f"names, at most {MAX_NODES:,})",
            )
        return n, field
    if stated is not None:
        n, where, said = stated, STATED_NODES_SOURCE, "the file's comment states"
    else:
        n = int(base["cluster.nodes"])
        where, said = "base scenario", "the base scenario has"
    if n < least:
        raise ValidationError(
            field,
            f"{said} {counted(n, 'node')}, fewer than the {least:,} distinct nodes the "
            f"timeline names: give {field} of at least {least:,}",
        )
    return n, where


def fit_timeline(
    m: RunMeasurement, nodes: int, *, nodes_source: str = "--nodes", confidence: float = 0.95
) -> TimelineFit:
    """Fit failure rate (with its CI), save, restore, recovery and step times and the
    checkpoint interval from a measured run (methods in the module docstring).

    Parameters
    ----------
    m : RunMeasurement
        The measured run (:func:`models.timeline.measure`).
    nodes : int
        Nodes the job ran on [count].
    nodes_source : str
        Where ``nodes`` came from (reported).
    confidence : float
        Two-sided level of the failure-rate interval [fraction].

    Returns
    -------
    TimelineFit
        Failure rate [per node-day] with its interval, save [s], restore [s], recovery [min]
        and step [s] summaries and the checkpoint interval [min].
    """
    n = check_nodes(nodes)
    if not 0.5 <= confidence < 1.0:
        raise ValidationError("confidence", f"{confidence!r} is out of range ([0.5, 1))")
    node_days = n * m.span_days
    k, k_job = split_job_level(m.failure_s, m.failure_node)
    lo, hi = poisson_rate_ci(k, node_days, confidence)
    job = job_lo = job_hi = None
    if k_job and m.span_days > 0:
        job = k_job / m.span_days
        jlo, jhi = poisson_rate_ci(k_job, m.span_days, confidence)
        job_lo, job_hi = float(jlo), float(jhi)
    step = summarise(m.step_seconds)
    interval = None
    if m.checkpoint_gap_seconds.size:
        interval = float(m.checkpoint_gap_seconds.mean()) / 60.0
    elif step is not None:
        saved = m.checkpoint_steps[m.checkpoint_steps >= 0]
        diffs = np.diff(saved)
        diffs = diffs[diffs > 0]
        if diffs.size:
            interval = float(np.median(diffs)) * step.mean / 60.0
    return TimelineFit(
        nodes=n,
        nodes_source=nodes_source,
        confidence=confidence,
        failures=m.failures,
        incidents=m.incidents,
        node_days=node_days,
        failure_rate_per_node_day=k / node_days,
        failure_rate_per_node_day_lo=float(lo),
        failure_rate_per_node_day_hi=float(hi),
        save=summarise(m.save_seconds),
        restore=summarise(m.restore_seconds),
        recovery=summarise(m.recovery_seconds, 1.0 / 60.0),
        step=step,
        checkpoint_interval_minutes=interval,
        job_interruptions_per_day=job,
        job_interruptions_per_day_lo=job_lo,
        job_interruptions_per_day_hi=job_hi,
    )


def _in_range(key: str, value: float) -> bool:
    f = FIELDS[key]
    return (f.min is None or value >= f.min) and (f.max is None or value <= f.max)


def fitted_scenario(
    fit: TimelineFit,
    base: Scenario,
    catalog: Mapping[str, Instance] | None = None,
    *,
    name: str | None = None,
) -> tuple[Scenario, dict[str, Any], list[str]]:
    """The base scenario with every field the run can tell replaced (module docstring).

    Parameters
    ----------
    fit : TimelineFit
        What :func:`fit_timeline` measured in the run.
    base : Scenario
        Scenario whose other fields are kept (and whose values stand in for what the run
        cannot tell).
    catalog : mapping of str to Instance, optional
        Instance catalog for the expected replacement time; default: the shipped one.
    name : str, optional
        Name of the fitted scenario (at most 200 characters kept).

    Returns
    -------
    tuple of (Scenario, dict, list of str)
        ``(scenario, {field: value} changed, notes)``; a note names each field that could
        not be fitted (it keeps the base scenario's value) and why.
    """
    notes: list[str] = []
    updates: dict[str, Any] = {
        "cluster.nodes": fit.nodes,
        "reliability.weibull_shape": 1.0,
        "network.fabric_events_per_day": 0.0,
        "checkpoint.strategy": "durable_only",
        "checkpoint.timings": "measured",
        "checkpoint.save_mode": "sync",
    }

    def put(key: str, value: float | None, what: str, why_missing: str) -> None:
        _put(updates, notes, key, value, what, why_missing)

    put(
        "reliability.node_failure_rate_per_day",
        fit.failure_rate_per_node_day,
        "failure rate",
        "",
    )
    iv = fitted_rate_interval(fit.failure_rate_per_node_day, fit.incidents)  # 80%, decide
    if iv is not None and "reliability.node_failure_rate_per_day" in updates:
        # 6 significant digits, as goodput fit prints them (and the sidebar round-trips)
        updates["reliability.node_failure_rate_low"] = six_digits(min(1.0, iv[0]))
        updates["reliability.node_failure_rate_high"] = six_digits(min(1.0, iv[1]))
    if fit.job_interruptions_per_day is not None:
        put(
            "reliability.job_interruptions_per_day",
            fit.job_interruptions_per_day,
            "job-level interruption rate",
            "",
        )
    _counted_in_the_fit(fit, base, updates, notes)
    put(
        "checkpoint.save_seconds",
        fit.save.mean if fit.save else None,
        "save time",
        "no complete checkpoint save in the run",
    )
    put(
        "recovery.restore_minutes",
        fit.restore.mean / 60.0 if fit.restore else None,
        "restore time",
        "no complete restore in the run",
    )
    put(
        "checkpoint.interval_minutes",
        fit.checkpoint_interval_minutes,
        "checkpoint interval",
        "no two checkpoints (or a restore and a checkpoint) without a failure between them",
    )
    interim = base.replace(updates)
    if fit.recovery is None:
        notes.append(
            "recovery.*_minutes: no failure followed by a restore in the run; "
            "the base scenario's values are used"
        )
    else:
        scaled = _scaled_recovery(fit.recovery.mean, interim, catalog, notes)
        if scaled is not None:
            updates.update(scaled)
        put(
            "simulation.recovery_spread",
            fit.recovery.cv,
            "recovery coefficient of variation",
            "",
        )
    meta = {"name": (name or "Fitted to a run")[:200]}
    meta["description"] = _description(fit)
    scenario = base.replace(updates, **meta)
    changed = {k: v for k, v in updates.items() if base[k] != scenario[k]}
    return scenario, changed, notes


#: Failure classes of the base that a run's failures already count: the fitted node rate
#: takes every failure the timeline does not mark as the job's own (label, what it counts)
_COUNTED_IN_THE_FIT = (
    ("reliability.domain_failure_rate_per_day", "domain events"),
    ("reliability.switch_failure_rate_per_day", "switch events"),
    ("reliability.fail_slow_rate_per_day", "fail-slow nodes"),
    ("reliability.job_interruptions_per_day", "job-level interruptions"),
)


def _counted_in_the_fit(
    fit: TimelineFit, base: Scenario, updates: dict[str, Any], notes: list[str]
) -> None:
    """Set to 0 the base's failure classes that the fitted rates already count, with a note
    for each that was not 0 (QA pass 24: the NVL72 preset's rack events were charged on top
    of a node rate fitted from every failure of the run, 65.8% predicted for 79.4% measured).
    Job-level interruptions stay when the run marks its own (they are fitted then)."""
    for key, what in _COUNTED_IN_THE_FIT:
        if key in updates:  # fitted from the run
            continue
        updates[key] = 0.0
        if base[key]:
            notes.append(
                f"{key}: the run's failures are all in the fitted node failure rate, so the "
                f"base scenario's {what} ({base[key]:g} {FIELDS[key].unit}) are set to 0"
            )


def _put(
    updates: dict[str, Any],
    notes: list[str],
    key: str,
    value: float | None,
    what: str,
    why_missing: str,
) -> None:
    """Set ``updates[key] = value`` at 6 significant digits (:func:`six_digits`, the one
    rule of the values fit, reconcile and decide set, so that the printed ``--set`` line,
    the written TOML and the Run log page's scenario are one scenario: QA pass 29) when the
    run gave a value within the field's range, else add a note saying why the base
    scenario's value is kept."""
    if value is None:
        notes.append(f"{key}: {why_missing}; the base scenario's value is used")
    elif not _in_range(key, value):
        notes.append(
            f"{key}: the fitted {what} {value:.6g} is out of range "
            f"({FIELDS[key].allowed()}); the base scenario's value is used"
        )
    else:
        updates[key] = six_digits(float(value))


def _scaled_recovery(
    target: float, interim: Scenario, catalog: Mapping[str, Instance] | None, notes: list[str]
) -> dict[str, float] | None:
    """The recovery times (detection, replacement, restart [min]) scaled by one factor so
    that detection + replacement per failure + restart equals the measured mean recovery
    ``target`` [min] (to 6 significant digits each, :func:`six_digits`); None (and a note)
    when scaling puts one out of its range.  The
    replacement per failure is over every class and spare pool (in-domain spares and spare
    domains swap, in-process restarts skip it): the node path alone overstated it on a base
    with spares by domain (QA pass 25: +1.82 points with 4 spare domains)."""
    ev = evaluate(interim, catalog)
    model = (
        interim["recovery.detection_minutes"]
        + ev["replacement_minutes_per_failure"]
        + interim["recovery.restart_minutes"]
    )
    if model > 0 and math.isclose(target, model, rel_tol=SAME_RECOVERY):
        return {k: interim[k] for k in RECOVERY_FIELDS}  # already fitted: keep exactly
    if model > 0:
        scaled = {k: interim[k] * target / model for k in RECOVERY_FIELDS}
    else:
        scaled = dict.fromkeys(RECOVERY_FIELDS, 0.0)
        scaled["recovery.restart_minutes"] = target
    bad = [k for k, v in scaled.items() if not _in_range(k, v)]
    if bad:
        notes.append(
            f"{bad[0]}: scaling the recovery times to the measured {target:.4g} min puts "
            f"it out of range ({FIELDS[bad[0]].allowed()}); the base scenario's values "
            "are used"
        )
        return None
    return {k: six_digits(v) for k, v in scaled.items()}


def _description(fit: TimelineFit) -> str:
    parts = [
        f"Fitted by goodput reconcile: {counted(fit.nodes, 'node')}, {fit.node_days / fit.nodes:.2f} "
        f"days, {fit.incidents} failure incidents "
        f"({100 * fit.failure_rate_per_node_day:.4f}% per node-day)"
    ]
    if fit.save:
        parts.append(f"save {fit.save.mean:.1f} s")
    if fit.restore:
        parts.append(f"restore {fit.restore.mean:.1f} s")
    if fit.recovery:
        parts.append(f"recovery {fit.recovery.mean:.2f} min")
    if fit.checkpoint_interval_minutes is not None:
        parts.append(f"interval {fit.checkpoint_interval_minutes:.1f} min")
    if fit.step:
        parts.append(f"measured step {fit.step.mean:.3f} s (not a scenario field)")
    return "; ".join(parts) + "."


# --------------------------------------------------------------------------- reconcile
def predicted_bucket_hours(ev: Evaluation, days: float) -> dict[str, float]:
    """An evaluation's loss per measured bucket over ``days`` of wall time [h].

    hours(bucket) = Σ loss_<component>_minutes_per_day × days / 60 over the bucket's
    components in :data:`BUCKET_COMPONENTS`.

    Parameters
    ----------
    ev : Evaluation
        A scenario's evaluation (:func:`models.evaluate.evaluate`).
    days : float
        Wall time of the run [days].

    Returns
    -------
    dict of str to float
        Predicted loss per measured bucket [h].
    """
    return {
        b: sum(ev.metrics[f"loss_{c}_minutes_per_day"] for c in comps) * days / 60.0
        for b, comps in BUCKET_COMPONENTS.items()
    }


def _fraction(name: str, x: Any) -> np.ndarray:
    """``x`` as a float array, refused (naming ``name``) unless every value is in [0, 1]."""
    a = np.asarray(x, dtype=float)
    ok = (a >= 0.0) & (a <= 1.0)  # NaN fails both
    if not np.all(ok):
        bad = float(a[~ok].flat[0])
        raise ValidationError(name, f"{bad!r} is out of range (a fraction in [0, 1])")
    return a


def estimated_goodput(measured, fitted, candidate, unmodelled=0.0):
    """What a measured run would have measured under a scenario change [fraction].

    The model's *relative* change in badput is applied to the run's own badput, except the
    part of it the model does not describe (the measured "other" bucket: start-up, pauses,
    idle gaps; ``docs/timeline.md`` §4), which is kept as measured:

        b = 1 − g_measured,  u = min(unmodelled, b)
        b_est = u + (b − u) × (1 − g_candidate) / (1 − g_fitted)
        g_est = 1 − min(1, b_est)

    Each first-order loss term of the model (δ/τ for saves, (τ/2 + R)/M for rework and
    recovery; Young 1974, ``young1974``; Daly 2006, ``daly2006``) is a share of the run's
    time, so the ratio of predicted badputs is what carries over to a run that lost more or
    less than predicted.  The result is always in [0, 1] (the measured goodput plus the
    change in points, used before, read 103.19% for an 18-minute run predicted 11.85 points
    below its measurement).  No change (g_candidate = g_fitted) gives g_measured
    exactly; a better candidate never lowers it.  When the fitted scenario predicts no
    badput at all (g_fitted = 1) the ratio is undefined and the candidate's predicted
    badput is added to the measured one instead: b_est = b + (1 − g_candidate).

    Parameters
    ----------
    measured : array_like
        The run's measured goodput [fraction, 0-1].
    fitted : array_like
        The fitted scenario's predicted goodput [fraction, 0-1].
    candidate : array_like
        The changed scenario's predicted goodput [fraction, 0-1].
    unmodelled : array_like, optional
        The run's badput the model does not describe, as a share of its wall time
        [fraction, 0-1]; default 0 (all of the measured badput scales).

    Returns
    -------
    float or ndarray
        The run's goodput had the change been in place [fraction, 0-1].

    Examples
    --------
    >>> round(estimated_goodput(0.8, 0.75, 0.875), 6)  # the model halves the badput
    0.9
    >>> round(estimated_goodput(0.8, 0.75, 0.875, unmodelled=0.1), 6)  # 0.1 + 0.1 × 0.5
    0.85
    """
    m = _fraction("measured_goodput", measured)
    f = _fraction("predicted_goodput", fitted)
    c = _fraction("what-if predicted_goodput", candidate)
    u = _fraction("unmodelled badput", unmodelled)
    b = 1.0 - m
    u = np.minimum(u, b)
    room = 1.0 - f  # the fitted scenario's predicted badput
    scaled = u + (b - u) * (1.0 - c) / np.where(room > 0.0, room, 1.0)
    b_est = np.where(room > 0.0, scaled, b + (1.0 - c))
    return like_input(1.0 - np.minimum(1.0, b_est), measured, fitted, candidate, unmodelled)


def unmodelled_fraction(m: RunMeasurement, ev: Evaluation) -> float:
    """The run's badput the model does not describe [fraction of wall time]: its measured
    "other" time (start-up, pauses, idle gaps) beyond what ``ev`` predicts for that bucket
    (:data:`BUCKET_COMPONENTS`; 0 in a fitted scenario).

    Parameters
    ----------
    m : RunMeasurement
        The measured run (:func:`models.timeline.measure`).
    ev : Evaluation
        The fitted scenario's evaluation.

    Returns
    -------
    float
        max(0, measured other − predicted other) ÷ wall time [fraction, 0-1].
    """
    wall_h = m.wall_seconds / 3600.0
    predicted = predicted_bucket_hours(ev, m.span_days)["other"]
    return max(0.0, (m.bucket_seconds["other"] / 3600.0 - predicted) / wall_h)


@dataclass(frozen=True)
class WhatIf:
    """The run under a scenario change: the fitted scenario with ``--set`` overrides."""

    sets: tuple[str, ...]
    comparison: Comparison
    measured_goodput: float
    span_days: float
    #: the run's measured "other" badput, which the model does not describe [fraction]
    unmodelled_fraction: float = 0.0

    @property
    def scenario(self) -> Scenario:
        return self.comparison.candidate.scenario

    @property
    def predicted_goodput(self) -> float:
        return self.comparison.candidate["goodput"]

    @property
    def goodput_delta(self) -> float:
        return self.comparison.goodput_delta

    @property
    def estimated_goodput(self) -> float:
        """What this run would have measured under the change [fraction]: its measured
        badput scaled by the model's predicted badput ratio (:func:`estimated_goodput`)."""
        return estimated_goodput(
            self.measured_goodput,
            self.comparison.baseline["goodput"],
            self.predicted_goodput,
            self.unmodelled_fraction,
        )

    @property
    def savings_usd_per_day(self) -> float:
        return self.comparison.savings_usd_per_day

    @property
    def run_savings_usd(self) -> float:
        """Savings per day × the run's length [USD]."""
        return self.savings_usd_per_day * self.span_days


@dataclass(frozen=True)
class Reconciliation:
    """A run measured, fitted and predicted (:func:`reconcile`)."""

    source: str
    timeline_format: str
    timeline_rows: int
    timeline_ignored_rows: int
    measurement: RunMeasurement
    fit: TimelineFit
    base: Scenario
    fitted: Scenario
    overrides: dict[str, Any]
    notes: tuple[str, ...]
    evaluation: Evaluation
    simulation: SimulationResult | None
    seed: int
    what_if: WhatIf | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    #: (row, earlier row) of each row dropped as a repeat (models.timeline.drop_repeated_rows)
    timeline_duplicates: tuple[tuple[int, int], ...] = ()

    # ---- figures
    @property
    def measured_goodput(self) -> float:
        return self.measurement.goodput

    @property
    def predicted_goodput(self) -> float:
        return self.evaluation["goodput"]

    @property
    def usd_per_run_hour(self) -> float:
        """What one hour of the job costs: nodes × price per instance-hour [USD/h]."""
        return self.fit.nodes * self.evaluation.price.usd_per_instance_hour

    def predicted_hours(self, ev: Evaluation | None = None) -> dict[str, float]:
        """The model's loss per bucket over this run's length [h]."""
        return predicted_bucket_hours(ev or self.evaluation, self.measurement.span_days)

    def bucket_rows(self) -> list[dict[str, Any]]:
        """One row per badput bucket: measured and predicted hours, shares and dollars."""
        wall_h = self.measurement.wall_seconds / 3600.0
        pred = self.predicted_hours()
        what = self.predicted_hours(self.what_if.comparison.candidate) if self.what_if else None
        usd = self.usd_per_run_hour
        rows = []
        for b in BUCKETS:
            mh = self.measurement.bucket_seconds[b] / 3600.0
            row = {
                "bucket": b,
                "bucket_label": BUCKET_LABELS[b],
                "model_components": ", ".join(BUCKET_COMPONENTS[b]),
                "measured_hours": mh,
                "predicted_hours": pred[b],
                "measured_fraction": mh / wall_h,
                "predicted_fraction": pred[b] / wall_h,
                "measured_usd": mh * usd,
                "predicted_usd": pred[b] * usd,
            }
            if what is not None:
                row["what_if_hours"] = what[b]
            rows.append(row)
        return rows

    def badput_rows(self) -> list[dict[str, Any]]:
        """One row per badput bucket (ml-goodput-measurement's names, and ours where none
        fits: :mod:`models.badput`): predicted and measured hours, shares and dollars.

        The model's loss components go to their bucket (:data:`models.badput.COMPONENT_BADPUT`);
        a run log's measured buckets hold one or several badput buckets together
        (:data:`models.badput.TIMELINE_BADPUT`): the first of a group carries the measured
        figure and ``measured_with`` names the rest (whose measured figures are None), and
        ``predicted_group_hours`` is the prediction for the whole group, the figure to set
        against the measured one.  ``idle_spares`` is paid spare node time beside the job: in
        dollars only (its hours are None)."""
        ev = self.evaluation
        days = self.measurement.span_days
        wall_h = self.measurement.wall_seconds / 3600.0
        usd = self.usd_per_run_hour
        per_day = badput_minutes_per_day(
            {c: ev.metrics[f"loss_{c}_minutes_per_day"] for c in LOSS_COMPONENTS}
        )
        pred = {b: m * days / 60.0 for b, m in per_day.items()}
        measured: dict[str, float | None] = {}
        group_of: dict[str, tuple[str, ...]] = {}
        for t, group in TIMELINE_BADPUT.items():
            for i, b in enumerate(group):
                measured[b] = self.measurement.bucket_seconds[t] / 3600.0 if i == 0 else None
                group_of[b] = group
        rows = []
        for b in BADPUT_BUCKETS:
            if b == "idle_spares":
                spare_usd = float(ev.metrics["spare_usd_per_day"]) * days
                rows.append(
                    {
                        "bucket": b,
                        "bucket_label": BADPUT_LABELS[b],
                        "model_components": "spare_usd_per_day",
                        "measured_with": "",
                        "measured_hours": None,
                        "predicted_hours": None,
                        "predicted_group_hours": None,
                        "measured_fraction": None,
                        "predicted_fraction": None,
                        "measured_usd": None,
                        "predicted_usd": spare_usd,
                    }
                )
                continue
            group = group_of[b]
            mh = measured[b]
            rows.append(
                {
                    "bucket": b,
                    "bucket_label": BADPUT_LABELS[b],
                    "model_components": ", ".join(
                        c for c in LOSS_COMPONENTS if COMPONENT_BADPUT[c] == b
                    ),
                    "measured_with": ", ".join(g for g in group if g != b),
                    "measured_hours": mh,
                    "predicted_hours": pred[b],
                    "predicted_group_hours": sum(pred[g] for g in group),
                    "measured_fraction": None if mh is None else mh / wall_h,
                    "predicted_fraction": pred[b] / wall_h,
                    "measured_usd": None if mh is None else mh * usd,
                    "predicted_usd": pred[b] * usd,
                }
            )
        return rows

    def to_json_dict(self) -> dict[str, Any]:
        """One JSON-able object (the ``goodput reconcile --json`` contract)."""
        m, f, sim = self.measurement, self.fit, self.simulation
        wall_h = m.wall_seconds / 3600.0
        prod_h = m.bucket_seconds["productive"] / 3600.0
        usd = self.usd_per_run_hour
        price = self.evaluation.price
        out: dict[str, Any] = {
            "timeline_source": self.source,
            "timeline_format": self.timeline_format,
            "timeline_rows": self.timeline_rows,
            "timeline_ignored_rows": self.timeline_ignored_rows,
            "duplicates": len(self.timeline_duplicates),
            "run_start": _iso(m.start_s),
            "run_end": _iso(m.end_s),
            "run_days": m.span_days,
            "run_nodes": f.nodes,
            "run_nodes_source": f.nodes_source,
            "measured_goodput": m.goodput,
            "predicted_goodput": self.predicted_goodput,
            "predicted_goodput_p5": sim.goodput_percentile(5) if sim else None,
            "predicted_goodput_p95": sim.goodput_percentile(95) if sim else None,
            "predicted_goodput_mc_mean": sim.goodput_mean if sim else None,
            "prediction_minus_measured": self.predicted_goodput - m.goodput,
            "monte_carlo_trials": sim.trials if sim else 0,
            "monte_carlo_seed": self.seed,
            "run_wall_hours": wall_h,
            "run_productive_hours": prod_h,
            "run_badput_hours": wall_h - prod_h,
            "run_cost_usd": wall_h * usd,
            "run_badput_usd": (wall_h - prod_h) * usd,
            "usd_per_instance_hour": price.usd_per_instance_hour,
            "price_source": price.source,
            "price_as_of": json_date(price.as_of),
            "failure_events": f.failures,
            "failure_incidents": f.incidents,
            "buckets": {
                r["bucket"]: {k: v for k, v in r.items() if k != "bucket"}
                for r in self.badput_rows()
            },
            "timeline_buckets": {
                r["bucket"]: {k: v for k, v in r.items() if k != "bucket"}
                for r in self.bucket_rows()
            },
            "fitted": _fitted_json(f),
            "not_fitted": list(self.notes),
            "scenario_overrides": scenario_overrides(self.overrides),
            "what_if": None,
        }
        if self.what_if is not None:
            w = self.what_if
            out["what_if"] = {
                "what_if_set": list(w.sets),
                "predicted_goodput": w.predicted_goodput,
                "goodput_delta": w.goodput_delta,
                "estimated_goodput": w.estimated_goodput,
                "savings_usd_per_day": w.savings_usd_per_day,
                "run_savings_usd": w.run_savings_usd,
            }
        return _clean(out)

    def goodput_over_time(self) -> dict[str, np.ndarray]:
        """Measured cumulative goodput and the Monte Carlo bands on the simulation's grid.

        Keys: ``hours`` (elapsed), ``measured``, ``p5``, ``p25``, ``p50``, ``p75``, ``p95``;
        only ``hours`` and ``measured`` when the run was too short to simulate.
        """
        sim = self.simulation
        if sim is None:
            hours, measured = self.measurement.goodput_over_time()
            return {"hours": hours, "measured": measured}
        hours = sim.grid_days[1:] * 24.0
        _, measured = self.measurement.goodput_over_time(sim.grid_days.size)
        out = {"hours": hours, "measured": measured}
        for q, band in sim.goodput_bands.items():
            out[f"p{q}"] = np.asarray(band, dtype=float)
        return out


def _summary_json(prefix: str, unit: str, s: Summary | None) -> dict[str, Any]:
    if s is None:
        return {
            f"{prefix}_p10_{unit}": None,
            f"{prefix}_p50_{unit}": None,
            f"{prefix}_p90_{unit}": None,
        }
    return {
        f"{prefix}_p10_{unit}": s.p10,
        f"{prefix}_p50_{unit}": s.p50,
        f"{prefix}_p90_{unit}": s.p90,
    }


def _fitted_json(f: TimelineFit) -> dict[str, Any]:
    return {
        "failure_rate_per_node_day": f.failure_rate_per_node_day,
        "failure_rate_per_node_day_lo": f.failure_rate_per_node_day_lo,
        "failure_rate_per_node_day_hi": f.failure_rate_per_node_day_hi,
        "job_interruptions_per_day": f.job_interruptions_per_day,
        "job_interruptions_per_day_lo": f.job_interruptions_per_day_lo,
        "job_interruptions_per_day_hi": f.job_interruptions_per_day_hi,
        "confidence_level": f.confidence,
        "save_seconds": f.save.mean if f.save else None,
        "restore_seconds": f.restore.mean if f.restore else None,
        "recovery_minutes": f.recovery.mean if f.recovery else None,
        "step_seconds": f.step.mean if f.step else None,
        "checkpoint_interval_minutes": f.checkpoint_interval_minutes,
        "recovery_spread": f.recovery.cv if f.recovery else None,
        "saves_measured": f.save.count if f.save else 0,
        "restores_measured": f.restore.count if f.restore else 0,
        "recoveries_measured": f.recovery.count if f.recovery else 0,
        "steps_measured": f.step.count if f.step else 0,
        **_summary_json("save", "seconds", f.save),
        **_summary_json("restore", "seconds", f.restore),
        **_summary_json("recovery", "minutes", f.recovery),
        **_summary_json("step", "seconds", f.step),
    }


def scenario_overrides(overrides: Mapping[str, Any]) -> list[str]:
    """``--set`` strings of the fitted fields (``goodput evaluate BASE --set ...``).

    Parameters
    ----------
    overrides : mapping of str to Any
        Fitted field -> value.

    Returns
    -------
    list of str
        ``section.key=value`` strings, one per field.
    """
    out = []
    for key, value in overrides.items():
        text = f"{value:.6g}" if isinstance(value, float) else str(value)
        out.append(f"{key}={text}")
    return out


def _iso(seconds: float) -> str:
    return (
        datetime.fromtimestamp(seconds, UTC)
        .isoformat(timespec="milliseconds")
        .replace("+00:00", "Z")
    )


def _clean(obj: Any) -> Any:
    """Plain JSON: numpy scalars to Python numbers, NaN/inf to None."""
    if isinstance(obj, dict):
        return {k: _clean(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [_clean(v) for v in obj]
    if isinstance(obj, bool | np.bool_):
        return bool(obj)
    if isinstance(obj, int | np.integer):
        return int(obj)
    if isinstance(obj, float | np.floating):
        x = float(obj)
        return x if math.isfinite(x) else None
    return obj


def _run_band(
    fitted: Scenario,
    trials: int,
    span_days: float,
    catalog: Mapping[str, Instance] | None,
    seed: int,
    grid_points: int,
    progress,
) -> tuple[SimulationResult | None, str]:
    """The Monte Carlo band of the fitted scenario over the run's length ``span_days``
    [days], or ``(None, note)`` when the run is under the simulator's one-hour floor."""
    if span_days < MIN_DAYS:
        return None, (
            f"No Monte Carlo band: the run lasted {span_days * 24 * 60:.1f} minutes, under "
            "the simulator's one-hour floor (too short to see failures or checkpoints)."
        )
    try:
        check_size(trials, span_days)
    except ValidationError as exc:
        raise ValidationError(f"--{exc.field}", exc.message) from None
    sim = simulate(
        fitted,
        trials,
        span_days,
        catalog=catalog,
        rng=seed,
        grid_points=grid_points,
        record_timeline=False,
        progress=progress,
    )
    return sim, ""


def reconcile(
    timeline: Timeline,
    base: Scenario | None = None,
    *,
    nodes: int | None = None,
    sets: list[str] | tuple[str, ...] | None = None,
    trials: int = 1000,
    seed: int = 0,
    catalog: Mapping[str, Instance] | None = None,
    source: str = "timeline",
    confidence: float = 0.95,
    grid_points: int = 61,
    progress=None,
    nodes_field: str = "--nodes",
    stated_nodes: int | None = None,
) -> Reconciliation:
    """Measure, fit and predict one run.

    Parameters
    ----------
    timeline : Timeline
        Parsed timeline (:func:`models.timeline.parse_timeline`).
    base : Scenario, optional
        Scenario for everything the run cannot tell (instance, price, workload, spares);
        default :meth:`Scenario.default`.
    nodes : int, optional
        Nodes the job ran on [count]; default ``stated_nodes``, else the base scenario's
        ``cluster.nodes`` (:func:`nodes_of_run`: never fewer than the nodes the timeline names).
    sets : list or tuple of str, optional
        ``section.key=value`` changes for the what-if (applied to the fitted scenario).
    trials : int
        Monte Carlo trials over the run's length [count].
    seed : int
        Random seed [-].
    catalog : mapping of str to Instance, optional
        Instance catalog; default: the shipped one.
    source : str
        Name of the timeline's source (reported).
    confidence : float
        Two-sided level of the failure-rate interval [fraction].
    grid_points : int
        Points of the goodput-over-time curves [count].
    progress : callable, optional
        Passed to the simulator (``progress(done, total)``).
    nodes_field : str
        Name of the ``nodes`` input in messages and in ``run_nodes_source`` (the CLI's
        ``--nodes``, a page's box).
    stated_nodes : int, optional
        The node count the file states in a comment (:func:`stated_timeline_nodes`)
        [count].

    Returns
    -------
    Reconciliation
        The measurement, the fit, the base and fitted scenarios with the fitted fields and
        notes, the fitted scenario's evaluation and simulation, and the what-if (if any).
    """
    base = base if base is not None else Scenario.default()
    n, where = nodes_of_run(timeline, base, nodes, stated_nodes, nodes_field)
    m = measure(timeline)
    fit = fit_timeline(m, n, nodes_source=where, confidence=confidence)
    label = f"Fitted to {source}"
    fitted, changed, notes = fitted_scenario(fit, base, catalog, name=label)
    ev = evaluate(fitted, catalog)
    sim, short = _run_band(fitted, trials, m.span_days, catalog, seed, grid_points, progress)
    if short:
        notes = (*notes, short)
    what_if = None
    if sets:
        candidate = fitted.with_overrides(list(sets)).replace(name=f"{label}, what-if")
        what_if = WhatIf(
            sets=tuple(sets),
            comparison=compare(fitted, candidate, catalog),
            measured_goodput=m.goodput,
            span_days=m.span_days,
            unmodelled_fraction=unmodelled_fraction(m, ev),
        )
    return Reconciliation(
        source=source,
        timeline_format=timeline.format,
        timeline_rows=timeline.rows,
        timeline_ignored_rows=timeline.ignored_rows,
        timeline_duplicates=timeline.duplicates,
        measurement=m,
        fit=fit,
        base=base,
        fitted=fitted,
        overrides=changed,
        notes=tuple(notes),
        evaluation=ev,
        simulation=sim,
        seed=seed,
        what_if=what_if,
    )


__all__ = [
    "BUCKET_COMPONENTS",
    "BUCKET_LABELS",
    "Reconciliation",
    "Summary",
    "TimelineFit",
    "WhatIf",
    "check_nodes",
    "estimated_goodput",
    "fit_timeline",
    "fitted_scenario",
    "predicted_bucket_hours",
    "reconcile",
    "scenario_overrides",
    "summarise",
    "unmodelled_fraction",
]

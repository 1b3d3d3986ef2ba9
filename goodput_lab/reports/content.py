"""What a report says: built once from models.evaluate / models.compare, rendered many ways.

:func:`build_report` gathers everything an exported report shows (headline metrics, the
assumptions with their sources, the loss breakdown and its charts, optional model sections,
Monte Carlo percentiles, the comparison and the methods) into one :class:`Report`.  The
renderers (:mod:`.html`, :mod:`.pdf`, :mod:`.tables`) only lay it out; no model math here.

Optional sections appear when the evaluation carries their metrics: any metric beyond the
core set is grouped by its name into the checkpoint, compute/time-to-train or instance
section (or "Other model results"), so results of models added later show up by themselves.
"""

from __future__ import annotations

import datetime as dt
import importlib
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import plotly.graph_objects as go
import polars as pl

from goodput_lab.charts import style  # noqa: F401  (sets the house template)
from goodput_lab.charts.overview import goodput_vs_rate_chart, loss_waterfall
from goodput_lab.models import Comparison, Evaluation, Scenario, ValidationError, compare, evaluate
from goodput_lab.models._text import as_sentence, counted, with_unit
from goodput_lab.models.catalog import Instance, load_catalog
from goodput_lab.models.evaluate import hot_spare_pool_text
from goodput_lab.models.fields import FIELDS
from goodput_lab.models.outputs import (
    NOT_IN_PRACTICE,
    SECTION_OF,
    failure_domain_keys,
    finishes_in_practice,
    format_range,
    format_usd,
    format_usd_compact,
    output,
)
from goodput_lab.models.outputs import format_run_figure as registry_run_figure
from goodput_lab.models.outputs import format_value as registry_format
from goodput_lab.models.pricing import price_vintage
from goodput_lab.models.uncertainty import HEADLINE_INTERVALS
from goodput_lab.views import display
from goodput_lab.views import overview as svc

# --------------------------------------------------------------------------- metric labels
#: Metrics shown in the headline block, in order.
HEADLINE_KEYS: tuple[str, ...] = (
    "goodput",
    "goodput_first_order",
    "failures_per_day",
    "mtbf_hours",
    "minutes_lost_per_failure",
    "checkpoint_interval_minutes",
    "cluster_usd_per_day",
    "lost_usd_per_day",
    "usd_per_day_per_0p1pp",
    "accelerators",
)

#: Registry sections whose figures the core of the report shows (headline, losses, costs);
#: figures of every other section go to an optional section of the same title.
CORE_SECTIONS = ("failures", "goodput", "losses", "cost", "reliability")
#: Order of the optional sections.
OPTIONAL_ORDER = ("checkpoint", "train", "compute")


def metric_unit(key: str) -> str:
    """Unit of a metric's JSON value, from the output registry."""
    return output(key).unit


def metric_label(key: str) -> str:
    """Label of a metric, from the output registry."""
    return output(key).label


def format_value(key: str, value: float | None) -> str:
    """A metric value as a person reads it ($1,234, 89.34%, 6.00 h), from the registry."""
    return registry_format(key, value)


#: The rate chart's subtitle in a report: a report has no sidebar (the dashboard's wording);
#: a comparison report draws its baseline.
RATE_CHART_SUBTITLE = "All other inputs as in this report's scenario"
RATE_CHART_SUBTITLE_BASELINE = "All other inputs as in this report's baseline scenario"


# --------------------------------------------------------------------------- data classes
@dataclass(frozen=True)
class Metric:
    key: str
    label: str
    value: float
    unit: str
    text: str


def make_metric(key: str, value: float, goodput: float | None = None) -> Metric:
    """A figure for a report's cards and tables; with the run's ``goodput``, a figure of the
    whole run reads "does not finish in practice" where the run does not
    (:func:`models.outputs.format_run_figure`)."""
    text = format_value(key, value) if goodput is None else registry_run_figure(key, value, goodput)
    return Metric(key, metric_label(key), float(value), metric_unit(key), text)


@dataclass(frozen=True)
class Section:
    """An optional block of the report: an intro, metric rows and/or a table and a figure."""

    id: str
    title: str
    intro: str = ""
    metrics: tuple[Metric, ...] = ()
    table: pl.DataFrame | None = None
    figure: go.Figure | None = None
    #: (column, header, kind) for the table; kind "num" right-aligns; default: all text.
    table_columns: tuple[tuple[str, str, str], ...] = ()
    #: lines printed under the table (e.g. why a row has no figures)
    notes: tuple[str, ...] = ()
    #: the table's column widths in percent (empty: as the browser sizes them)
    column_widths: tuple[float, ...] = ()


@dataclass(frozen=True)
class MonteCarloSummary:
    """Simulated figures: the Monte Carlo page's two tables (closed form against the
    simulated mean; P5/P50/P95 over the runs)."""

    trials: int
    seed: int | None
    table: pl.DataFrame
    note: str = ""
    #: the second table: P5, P50 and P95 over the runs
    spread: pl.DataFrame | None = None
    #: raw ``SimulationResult.summary()`` floats (for the CSV/Parquet tables)
    values: dict[str, float] = field(default_factory=dict)
    figure: go.Figure | None = None


@dataclass(frozen=True)
class ComparisonBlock:
    """One candidate against the baseline: the comparison, its table of key figures, every
    input that differs, and the cost of each loss component side by side."""

    comparison: Comparison
    table: pl.DataFrame
    changed: pl.DataFrame
    figure: go.Figure | None = None


@dataclass(frozen=True)
class Report:
    title: str
    generated: dt.date
    scenario: Scenario
    evaluation: Evaluation
    headline: tuple[Metric, ...]
    summary: tuple[str, ...]
    assumptions: pl.DataFrame
    losses: pl.DataFrame
    figures: dict[str, go.Figure]
    sections: tuple[Section, ...] = ()
    comparison: Comparison | None = None
    comparison_table: pl.DataFrame | None = None
    changed_assumptions: pl.DataFrame | None = None
    montecarlo: MonteCarloSummary | None = None
    methods: tuple[tuple[str, str], ...] = field(default_factory=tuple)
    #: every candidate against the baseline (the first is ``comparison``)
    comparisons: tuple[ComparisonBlock, ...] = ()
    #: the resilience ladder of the (baseline) scenario, recommended order (models.resilience)
    ladder: Any = None
    #: the instance choice as numbers, one mapping per catalog type (its first key the
    #: instance; :meth:`models.instances.InstanceOption.to_dict`): the CSV/Parquet rows
    instances: tuple[Mapping[str, Any], ...] = ()
    #: the checkpoint interval and hot-spare recommendation (:func:`_recommendation_metrics`),
    #: in the full report's "Checkpointing and hot spares" section and the CSV/Parquet rows
    recommendations: tuple[Metric, ...] = ()

    @property
    def all_metrics(self) -> dict[str, float]:
        """Every numeric result of the main scenario (metrics + value of reliability)."""
        return {**self.evaluation.metrics, **self.evaluation.value_of_reliability}


# --------------------------------------------------------------------------- methods
METHODS: tuple[tuple[str, str], ...] = (
    (
        "Failures per day and MTBF",
        "λ = N · r (superposition of independent per-node Poisson failure processes); "
        "job MTBF M = 24 h / λ.",
    ),
    (
        "Hot-spare availability (Poisson spare model)",
        "Nodes in repair form an M/G/∞ queue, taken as Poisson with mean ν·S (Palm's "
        "theorem; Kleinrock 1975), ν the nodes sent to repair per day: a multi-node failure "
        "sends its g nodes and needs g free spares. A single-node failure finds none with "
        "P(Poisson(ν·S) ≥ s), a multi-node one with P(Poisson(ν·S) ≥ s − g + 1); expected "
        "replacement = P·replacement + (1 − P)·hot-spare swap, P their mix.",
    ),
    (
        "Recovery time per failure",
        "R = detection + replacement + restart + checkpoint restore. The replacement is the "
        "failure-weighted mean of the failure classes' repair times, Σ w_c R_c: a node "
        "failure's hot-spare swap or replacement path (an in-domain spare or a whole spare "
        "domain first where there are some), a scale-up domain event's domain repair (a "
        "spare domain's swap when one is free), a switch event's switch repair, none for a "
        "fabric abort or a job-level interruption. Repairs run side by side: a failure "
        "during a recovery starts its own repair beside the one under way and the job waits "
        "for the last, so only each class's mean repair counts "
        "(docs/references.md#failure-domains). With node failures alone it is the expected "
        "replacement above.",
    ),
    (
        "First-order waste (Young 1974)",
        "W(τ) = δ/τ + λ·(τ/2 + R): checkpoint saves plus, per failure, the recovery R and on "
        "average half a checkpoint interval of rework. Goodput (first order) = 1 − W.",
    ),
    (
        "Expected wall time (Daly 2006)",
        "T_w = M · exp(R/M) · (exp((τ+δ)/M) − 1) · T_s/τ for exponential failures (J. T. Daly, FGCS "
        "22(3):303-312, 2006); goodput = T_s/T_w. This is the headline goodput.",
    ),
    (
        "Checkpoint interval",
        "Young's τ = √(2δM) (CACM 17(9), 1974) is shown for reference; 'optimal' uses the exact "
        "minimiser of Daly's T_w, τ = M · [1 + W₀(−exp(−(1 + δ/M)))] (Lambert W₀).",
    ),
    (
        "Loss breakdown",
        "Each component's first-order minutes per day (λ·detection, λ·replacement, λ·restart, "
        "λ·restore, λ·τ/2, 1440·δ/τ) scaled so that they add up to the exact loss "
        "(1 − goodput)·1440 min/day; USD = minutes/1440 × cluster cost per day.",
    ),
    (
        "Costs and value of reliability",
        "Cluster cost/day = nodes × price/h × 24; lost/day = (1 − goodput) × cluster cost + idle "
        "spare nodes + checkpoint storage. Value of 0.1 pp = g(r − 0.001) − g(r) times the "
        "cluster cost per day.",
    ),
)

COMPARE_METHOD = (
    "Savings",
    "savings/day = (g_candidate · r − g_baseline) × baseline cluster cost/day + (baseline "
    "total cost/day − candidate total cost/day), r the ratio of failure-free training times "
    "(1 when the step times are equal); per year × 365.25: rates at the baseline's cluster "
    "cost, beside what one run costs on each side (cost to train) "
    "(docs/references.md#savings-and-the-value-of-reliability).",
)


# --------------------------------------------------------------------------- builders
def _summary(ev: Evaluation) -> tuple[str, ...]:
    m = ev.metrics
    v = ev.value_of_reliability
    lines = [
        f"At the assumptions listed in this report, {format_value('goodput', m['goodput'])} of "
        f"the paid accelerator time advances training (Daly's expected wall time; the "
        f"first-order spreadsheet estimate is "
        f"{format_value('goodput_first_order', m['goodput_first_order'])}).",
        f"Failures, recovery and checkpoints cost {format_usd(m['lost_usd_per_day'], 'day')} "
        f"of a {format_usd(m['cluster_usd_per_day'], 'day')} cluster, or "
        f"{format_usd(m['lost_usd_per_year'])} per year.",
        (
            f"The job sees {registry_format('failures_per_day', m['failures_per_day'], unit=False)} "
            "failures per day (MTBF "
            f"{format_value('mtbf_hours', m['mtbf_hours'])}) and loses "
            f"{format_value('minutes_lost_per_failure', m['minutes_lost_per_failure'])} of "
            "whole-cluster time per failure (first order)."
            if m["failures_per_day"] > 0
            else "With a zero failure rate the job never stops; only checkpoint saves cost time."
        ),
    ]
    if note := as_sentence(ev.texts["progress_note"]):
        lines.insert(1, note)  # the job never or barely advances: say so before any figure
    # accelerators the layout cannot use; what the step model chose or averaged
    for key in ("layout_note", "recompute_note", "batch_note"):
        if note := as_sentence(ev.texts[key]):
            lines.append(note)
    ends = {k: (m.get(lo), m.get(hi)) for k, (lo, hi) in HEADLINE_INTERVALS.items()}
    if all(lo is not None for lo, _hi in ends.values()):
        # in models.uncertainty.HEADLINE_KEYS' order, each as the Overview's tiles write it:
        # an en dash and the unit once (models.outputs.format_range)
        g, lost, days, bill = (format_range(k, *v) for k, v in ends.items())
        run = (
            f"time to train {days}, whole bill {bill}"
            if finishes_in_practice(m["goodput"])
            else f"the run {NOT_IN_PRACTICE}"
        )
        lines.append(
            "Over the failure rate's and the step time's 80% intervals (docs/decide.md): "
            f"goodput {g}, lost {lost}, {run}."
        )
    slope = (
        " (rate below 0.1%: gain of eliminating failures)"
        if v["value_of_reliability_is_partial"]
        else ""
    )
    lines.append(
        f"Each 0.1 percentage point lower daily node failure rate is worth "
        f"{v['goodput_gain_per_0p1pp'] * 100:+.2f} goodput points, "
        f"{format_value('usd_per_day_per_0p1pp', v['usd_per_day_per_0p1pp'])}{slope}."
    )
    vintage = price_vintage(ev.scenario, ev.instance)
    if vintage is not None:  # said once, with how to use the public price (issue 26)
        lines.append(
            f"{vintage.sentence()} For the public price: goodput report ... --set "
            "pricing.usd_per_instance_hour= (empty), or tick 'Use the public price of the "
            "pricing model' in the dashboard."
        )
    return tuple(lines)


def optional_sections(ev: Evaluation) -> tuple[Section, ...]:
    """Sections for figures beyond the core ones, grouped by their registry section; the
    failure classes and scale-up domains (:func:`models.outputs.failure_domain_keys`, from
    the core "failures" section) join the recovery stages where the scenario has them, so
    the replacement per failure stands beside the replacement stage it differs from
    (:func:`_failure_domain_section`)."""
    groups: dict[str, list[Metric]] = {}
    titles: dict[str, str] = {}
    g = ev.metrics["goodput"]
    for key, value in ev.metrics.items():
        sid, title = SECTION_OF.get(key, ("other", "Other model results"))
        if sid in CORE_SECTIONS or not isinstance(value, int | float):
            continue
        groups.setdefault(sid, []).append(make_metric(key, value, g))
        titles[sid] = title

    order = [s for s in OPTIONAL_ORDER if s in groups] + sorted(
        s for s in groups if s not in OPTIONAL_ORDER
    )
    sections = [Section(id=sid, title=titles[sid], metrics=tuple(groups[sid])) for sid in order]
    if domains := _failure_domain_section(ev):  # before the recovery stages it explains
        at = next((i for i, sec in enumerate(sections) if sec.id == "recovery"), len(sections))
        sections.insert(at, domains)
    return tuple(sections)


def _failure_domain_section(ev: Evaluation) -> Section | None:
    """The failure classes and scale-up domains (:func:`models.outputs.failure_domain_keys`,
    as goodput evaluate and the Overview give them), or None where the failures are node
    failures alone: the class rates that make up the failures per day and the replacement
    per failure over every class, which the lost time per failure uses."""
    m = ev.metrics
    keys = failure_domain_keys(m)
    if not keys:
        return None
    return Section(
        id="failure_domains",
        title="Failure classes and scale-up domains",
        # as the Overview says it; the recovery stages below list the node path's (which
        # the intro names itself where domain spares stand before the hot-spare pool)
        intro=svc.failure_domain_intro(m)
        + (
            ""
            if hot_spare_pool_text(m)
            else " The recovery stages' expected replacement is the node path's."
        ),
        metrics=tuple(make_metric(k, m[k]) for k in keys),
    )


def _comparison_table(c: Comparison) -> pl.DataFrame:
    keys = [
        "goodput",
        "goodput_first_order",
        "failures_per_day",
        "minutes_lost_per_failure",
        "checkpoint_interval_minutes",
        "usd_per_instance_hour",
        "cluster_usd_per_day",
        "total_usd_per_day",
        "lost_usd_per_day",
    ]
    rows = []
    for k in keys:
        b, n = c.baseline.metrics[k], c.candidate.metrics[k]
        o = output(k)
        diff = n - b
        if diff == 0:
            dtext = "no change"
        elif o.kind == "percent":
            dtext = f"{diff * 100:+.2f} points".replace("-", "−")
        else:
            dtext = registry_format(o, diff, signed=True)
        rows.append(
            {
                "key": k,
                "metric": metric_label(k),
                "baseline": format_value(k, b),
                "candidate": format_value(k, n),
                "change": dtext,
            }
        )
    return pl.DataFrame(rows)


def _changed_assumptions(c: Comparison) -> pl.DataFrame:
    """The inputs that differ, worded as the Compare page's "What differs" table
    (:func:`goodput_lab.views.compare.differences`: one function for both)."""
    from goodput_lab.views import compare as cmp_svc

    rows = [
        {
            "field": d["key"],
            "label": d["label"],
            "baseline": d["baseline"],
            "candidate": d["candidate"],
            "unit": FIELDS[d["key"]].unit,
        }
        for d in cmp_svc.differences(c)
    ]
    schema = dict.fromkeys(("field", "label", "baseline", "candidate", "unit"), pl.String)
    return pl.DataFrame(rows, schema=schema)


def _comparison_figure(c: Comparison) -> go.Figure:
    lb = svc.loss_table(c.baseline)
    lc = svc.loss_table(c.candidate)
    keep = (lb["usd_per_day"].abs() > 0.5) | (lc["usd_per_day"].abs() > 0.5)
    lb, lc = lb.filter(keep), lc.filter(keep)
    fig = go.Figure()
    fig.add_bar(
        x=lb["label"].to_list(),
        y=lb["usd_per_day"].to_list(),
        name="Baseline",
        marker_color="#7f7f7f",
    )
    fig.add_bar(
        x=lc["label"].to_list(),
        y=lc["usd_per_day"].to_list(),
        name="Candidate",
        marker_color="#1f77b4",
    )
    fig.update_layout(
        title="Cost of each loss component: baseline vs candidate",
        xaxis_title="Loss component",
        yaxis_title=display.header("lost_usd_per_day"),  # "Lost per day ($)"
        yaxis_tickprefix="$",
        yaxis_tickformat=",.0f",
        barmode="group",
        legend={"orientation": "h", "y": 1.02, "yanchor": "bottom", "x": 1, "xanchor": "right"},
        margin={"t": 70, "b": 40},
    )
    return fig


def wrap_categories(fig: go.Figure, width: int = 14) -> go.Figure:
    """Copy of ``fig`` whose string x categories are wrapped with <br> (horizontal labels)."""
    import textwrap

    out = go.Figure(fig)
    for trace in out.data:
        x = getattr(trace, "x", None)
        if x is not None and len(x) and all(isinstance(v, str) for v in x):
            trace.x = ["<br>".join(textwrap.wrap(v, width)) or v for v in x]
    out.update_xaxes(tickangle=0, tickfont={"size": 10})
    return out


def montecarlo_available() -> bool:
    try:
        mod = importlib.import_module("goodput_lab.models.montecarlo")
    except ImportError:
        return False
    return hasattr(mod, "simulate")


MONTECARLO_DAYS = 30.0


def _montecarlo(
    scenario: Scenario,
    trials: int,
    seed: int | None,
    catalog,
    days: float = MONTECARLO_DAYS,
    result: Any = None,
) -> MonteCarloSummary:
    """Percentiles from models.montecarlo.simulate (issue #5), or from ``result`` when the
    caller already simulated (the dashboard's Monte Carlo page exports the run it shows)."""
    if result is None:
        if not montecarlo_available():
            raise ValidationError(
                "--trials",
                "the Monte Carlo simulator (models/montecarlo.py) is not available in this "
                "version; run the report without --trials",
            )
        mod = importlib.import_module("goodput_lab.models.montecarlo")
        try:  # refused when predicted too large, stopped past the default time budget
            if hasattr(mod, "check_size"):
                mod.check_size(trials, days)
            result = mod.simulate(
                scenario, trials, days, catalog=catalog, rng=seed, record_timeline=False
            )
        except ValidationError as exc:
            if exc.field in ("trials", "days"):  # the report's only size flag is --trials
                raise type(exc)("--trials", exc.message) from None
            raise
    return MonteCarloSummary(
        trials=trials,
        seed=seed,
        table=montecarlo_table(result),
        spread=montecarlo_spread(result),
        values={k: float(v) for k, v in result.summary().items()},
        figure=montecarlo_figure(result),
        note=(
            f"Each run simulates {with_unit(f'{days:g}', 'days')} of training with the failure, "
            "recovery and checkpoint process of this scenario; P5/P50/P95 are percentiles "
            "over the runs. 'Closed form' is Daly's expectation used in the rest of the report."
        ),
    )


def montecarlo_figure(result: Any) -> go.Figure | None:
    """Fan chart of cumulative goodput over time: the Monte Carlo page's own chart."""
    if not getattr(result, "goodput_bands", None) or getattr(result, "grid_days", None) is None:
        return None
    from goodput_lab.charts.montecarlo import bands_chart
    from goodput_lab.views import montecarlo as mc_svc

    return bands_chart(mc_svc.bands(result), 100.0 * result.goodput_analytic)


def montecarlo_table(result: Any) -> pl.DataFrame:
    """The Monte Carlo page's first table (:func:`goodput_lab.views.montecarlo.summary_display`):
    closed form against the simulated mean and its standard error, one row per figure, every
    cell formatted from the registry."""
    from goodput_lab.views import montecarlo as mc_svc

    return mc_svc.summary_display(result)


def montecarlo_spread(result: Any) -> pl.DataFrame:
    """The Monte Carlo page's second table (:func:`goodput_lab.views.montecarlo.spread_display`):
    P5, P50 and P95 over the runs."""
    from goodput_lab.views import montecarlo as mc_svc

    return mc_svc.spread_display(result)


def _recommendation_metrics(scenario: Scenario, catalog) -> tuple[tuple[Metric, ...], str]:
    """Recommended checkpoint interval and hot spares (models.optimize.optimize)."""
    from goodput_lab.models.optimize import optimize

    o = optimize(scenario, dict(catalog))
    iv, sp = o.interval, o.spares
    metrics = (
        make_metric("recommended_checkpoint_interval_minutes", iv.interval_minutes),
        make_metric("goodput_at_recommended_interval", iv.goodput),
        make_metric("interval_savings_usd_per_day", iv.savings_usd_per_day),
        make_metric("spare_nodes", float(sp.spares)),
        make_metric("spares_savings_usd_per_day", o.spares_savings_usd_per_day),
        make_metric("recommendation_savings_usd_per_day", o.comparison.savings_usd_per_day),
    )
    intro = (
        f"Checkpointing every {iv.current_interval_minutes:.1f} min; the goodput-optimal "
        f"interval is {iv.interval_minutes:.1f} min (worth "
        f"{format_value('interval_savings_usd_per_day', iv.savings_usd_per_day)}). With it, "
        + (
            f"{counted(sp.spares, 'hot spare node')} minimise{'s' if sp.spares == 1 else ''} "
            f"the lost dollars (currently {sp.current_spares})"
            if o.spare_policy == "hot_spares" or o.spares_alone is None
            # the mix the recommendation keeps, against the best hot-spare count beside the
            # scenario's own domain spares (the metric above is the mix's hot-spare count)
            else f"{o.spares_text()} save more than "
            f"{o.alternative_text() or 'any count of hot spares alone'}, and are recommended "
            "instead"
        )
        + "; the recommended changes together save "
        f"{format_value('recommendation_savings_usd_per_day', o.comparison.savings_usd_per_day)}."
    )
    return metrics, intro


def _instance_ranking(scenario: Scenario, ev: Evaluation, catalog):
    """The instance ranking a report shows, computed once for its instance sections and its
    data table (:attr:`Report.instances`); None without a time to train (a stated-MFU
    scenario that cannot train) or without the view-models in this build."""
    if "time_to_train_days" not in ev.metrics:
        return None
    try:
        from goodput_lab.views import instances as inst_svc
    except ImportError:
        return None
    return inst_svc.ranking(scenario, dict(catalog), None)


def _instance_records(ranking) -> tuple[dict, ...]:
    """The instance choice's rows as numbers (the HTML/PDF's table, for the CSV/Parquet
    one)."""
    return () if ranking is None else tuple(r.to_dict() for r in ranking.rows)


#: The report's two interval columns (QA 27 #9: it said "too close to call" without the
#: cost intervals the verdict rests on; the page draws them as whiskers, the CLI prints them).
TIME_RANGE_HEADER = "Time to train, 80% range (days)"
COST_RANGE_HEADER = "Cost to train, 80% range ($)"


def _range_cell(key: str, row: Mapping[str, Any], shown: str) -> str:
    """``17.0–30.0`` / ``$19.7M–$34.8M``: a row's 80% interval of ``key`` (the step
    model's, which the ranking and its "too close to call" use), "—" where the table shows
    no figure (``shown``) or there is no interval."""
    lo, hi = row.get(f"{key}_low"), row.get(f"{key}_high")
    if shown in (display.MISSING, NOT_IN_PRACTICE) or any(
        v is None or not math.isfinite(float(v)) for v in (lo, hi)
    ):
        return display.MISSING
    if key == "cost_to_train_usd":  # compact, as the page's tile writes a range of dollars
        return f"{format_usd_compact(lo)}–{format_usd_compact(hi)}"
    return format_range(key, lo, hi, unit=False)


def _with_ranges(cost: pl.DataFrame, df: pl.DataFrame) -> pl.DataFrame:
    """The page's cost table with each figure's 80% range beside it."""
    rows = df.to_dicts()
    out: dict[str, list[str]] = {}
    for col in cost.columns:
        out[col] = cost[col].to_list()
        for key, head in (
            ("time_to_train_days", TIME_RANGE_HEADER),
            ("cost_to_train_usd", COST_RANGE_HEADER),
        ):
            if col == display.header(output(key)):
                out[head] = [_range_cell(key, r, v) for r, v in zip(rows, out[col], strict=True)]
    return pl.DataFrame(out, schema=dict.fromkeys(out, pl.String))


def _instance_sections(scenario: Scenario, ranking) -> tuple[Section, Section]:
    """Every catalog instance at the same accelerator count, cheapest to train first
    (``ranking``, :func:`_instance_ranking`): the Instances page's two tables
    (:func:`goodput_lab.views.instances.ranking_display` and
    :func:`~goodput_lab.views.instances.ranking_why_display`), with its marks (★ cheapest,
    ~ too close to call, as goodput instances marks it) and its notes, with the 80% ranges
    of time and cost the verdict rests on."""
    from goodput_lab.views import instances as inst_svc

    df = inst_svc.table(ranking)
    notes: list[str] = []
    if ranking.too_close_to_call:  # the page's warning; the report has no cost chart
        notes.append(
            inst_svc.too_close_text(ranking)
            + f" {inst_svc.TOO_CLOSE_MARK} marks each type whose 80% cost interval (the "
            "table's 80% range) overlaps the cheapest type's."
        )
    if missing := display.missing_reasons_text(df):  # the page's note, names plain
        notes.append(missing)
    cost = _with_ranges(inst_svc.ranking_display(df), df)
    why = inst_svc.ranking_why_display(df, scenario["workload.mfu_basis"])

    def columns(t: pl.DataFrame) -> tuple[tuple[str, str, str], ...]:
        # the page's headers; the words left-aligned, the figures right-aligned
        return tuple((c, c, "text" if c in ("Instance", "Note") else "num") for c in t.columns)

    return (
        Section(
            id="instances",
            title="Instance choice",
            intro=(
                "The same job and accelerator count on every instance type in the catalog, "
                "cheapest to train first (★ marks the cheapest; the dashboard's Instances page "
                "shows the same table). " + " ".join(ranking.rules())
            ),
            notes=tuple(notes),
            table=cost,
            table_columns=columns(cost),
            column_widths=(16, 7, 9, 8, 11, 11, 15, 9, 14),
        ),
        Section(
            id="instances-why",
            title="What drives each cost: goodput, failures and MFU",
            intro="The same instance types, in the same order.",
            table=why,
            table_columns=columns(why),
        ),
    )


MODEL_METHODS: tuple[tuple[str, str, str], ...] = (
    (
        "checkpoint_size_TB",
        "Checkpoint tiers",
        "Checkpoint size = parameters × bytes per parameter; per-tier save/restore from the "
        "tier bandwidths (data/checkpoint_tiers.csv); two-level first-order waste "
        "C1/T + C2/(kT) + λ1(T/2 + R1) + λ2(kT/2 + R2), each level following Young with "
        "its own failure class; in-memory replicas lost with the Gemini-style group model.",
    ),
    (
        "time_to_train_days",
        "Compute and time to train",
        "Training FLOPs = (6N + 12·L·s·h)·D, attention included, as PaLM counts them "
        "(Chowdhery et al. 2022, App. B); time to train = steps × the modelled step time / "
        "goodput (docs/step-time.md), or with a stated MFU FLOPs / (accelerators × peak × "
        "MFU × goodput); pipeline bubble (p − 1)/v micro-batch times per step (Narayanan et "
        "al. 2021).",
    ),
    (
        "allreduce_ms",
        "Network",
        "Hierarchical ring all-reduce in the α-β model (Hockney 1994; Thakur, Rabenseifner "
        "& Gropp 2005): NVLink inside a node, EFA across nodes; exposed time after overlap.",
    ),
)


LADDER_METHOD = (
    "Resilience ladder",
    "Each resilience feature is a transformation of the scenario (models/resilience.py, "
    "docs/resilience.md); the rungs adopt them one at a time in the recommended order (at "
    "each rung the feature that saves the most next). A rung's lost $/day counts its goodput "
    "losses and the cost of every feature adopted so far; its saving is the previous rung's "
    "lost $/day minus its own, so the savings add up to the first rung's loss minus the "
    "last one's. Every rung is a scenario: `goodput ladder SCENARIO --json` lists its "
    "settings.",
)


def resilience_ladder(scenario: Scenario, catalog) -> Any:
    """The recommended resilience ladder of ``scenario`` (None if the model is absent)."""
    try:
        from goodput_lab.models.resilience import ladder
    except ImportError:  # resilience model not part of this build
        return None
    return ladder(scenario, catalog=catalog)


def _ladder_section(lad: Any) -> Section:
    """The ladder as a report section: the rungs' table (as `goodput ladder` prints them)
    and the waterfall in $/day."""
    from goodput_lab.charts.resilience import ladder_waterfall
    from goodput_lab.views import resilience as res_svc

    table = res_svc.rung_display(lad)
    worth = res_svc.worth_adopting(lad)  # the same words as the Resilience page
    return Section(
        id="resilience",
        title="Resilience ladder: what each feature is worth",
        intro=(
            f"From the scenario as given to every resilience feature, in the recommended "
            f"order; causes: {lad.modes.source}. Worth adopting here: {worth}; together "
            f"they save {res_svc.saved_per_day(lad, 'recommended_delta_usd_per_day')} "
            f"({lad.recommended_delta_goodput_points:+.2f} goodput points). The whole "
            f"ladder, rungs that cost more than they save included, saves "
            f"{res_svc.saved_per_day(lad, 'total_delta_usd_per_day')}."
        ),
        table=table,
        table_columns=(
            ("Rung", "Rung", "num"),
            ("Feature", "Feature", "text"),
            ("Goodput", "Goodput", "num"),
            ("Lost per day", "Lost per day", "num"),
            ("Goodput gained", "Goodput gained", "num"),
            ("Saves per day", "Saves per day", "num"),
            ("Source", "Source", "src"),
        ),
        column_widths=(6, 22, 9, 13, 12, 13, 25),
        figure=ladder_waterfall(res_svc.rung_numbers(lad), "$/day"),
    )


def _badput_section(ev: Evaluation) -> Section:
    """The predicted losses in the badput buckets of Google's ml-goodput-measurement (ours
    where none fits), as ``goodput evaluate --json`` gives them (``badput``); buckets with
    nothing in them are named under the table instead of printed as rows of zeros."""
    rows = ev.badput()
    # a row is kept when it prints something other than zeros (0.0 min, $0/day)
    kept = [r for r in rows if r["minutes_per_day"] >= 0.05 or r["usd_per_day"] >= 0.5]
    empty = [r["bucket_label"] for r in rows if r not in kept]
    table = pl.DataFrame(
        {
            "Bucket": [r["bucket_label"] for r in kept],
            "Name": [r["badput_bucket"] for r in kept],
            "Minutes per day": [f"{r['minutes_per_day']:,.1f}" for r in kept],
            # as the loss breakdown and the CSV write the same dollars (whole, per day); the
            # header says per day, so the cells do not repeat "/day"
            "Lost per day": [
                registry_format("lost_usd_per_day", r["usd_per_day"], unit=False) for r in kept
            ],
        },
        schema=dict.fromkeys(("Bucket", "Name", "Minutes per day", "Lost per day"), pl.String),
    )
    return Section(
        id="badput",
        title="Predicted badput in the buckets people measure",
        intro=(
            "The loss breakdown mapped onto the badput buckets of Google's "
            "ml-goodput-measurement (ours where none fits, such as idle spares), so that a "
            "measured run's buckets can be read beside it (goodput reconcile --json, buckets)."
        ),
        table=table,
        table_columns=(
            ("Bucket", "Bucket", "text"),
            ("Name", "Name", "id"),
            ("Minutes per day", "Minutes per day", "num"),
            ("Lost per day", "Lost per day", "num"),
        ),
        column_widths=(34, 34, 14, 18),
        notes=(
            (f"Nothing predicted, to the table's rounding, in: {', '.join(empty)}.",)
            if empty
            else ()
        ),
    )


#: Figures of the registry's "Capacity Block plan" section that are not about a block: shown
#: with the time and cost to train, after the figure named (the failure-free compute next
#: to the time to train).
TRAIN_FIGURES = {"compute_days": "time_to_train_days"}


def capacity_block_text(scenario: Scenario, catalog) -> str:
    """One sentence on the expected run under an EC2 Capacity Block
    (:func:`models.plan.budget_by_pricing_model`, its Capacity Block row: the shortest
    purchasable block for the expected time to train plus the 30-minute margin): what the
    scenario's block costs, or, for a scenario priced otherwise, what a block would cost next
    to its own bill.  Empty when there is no Capacity Block price for the instance (nothing
    to say) or no time to train."""
    from goodput_lab.models import pricing as pr
    from goodput_lab.models.plan import budget_by_pricing_model, plan_capacity_block

    try:
        rows = budget_by_pricing_model(scenario, catalog)
    except ValidationError:
        return ""
    fits = any(
        r["pricing_model"] == "capacity_block" and math.isfinite(r.get("block_days", math.nan))
        for r in rows
    )
    if fits:  # the block goodput plan gives (its defaults), so the two say one figure
        try:
            plan = plan_capacity_block(scenario, catalog=catalog)
            rows = budget_by_pricing_model(scenario, catalog, plan=plan)
        except (ValidationError, ValueError):
            plan = None  # too large to simulate here: the expected run, as computed
    else:
        plan = None
    cb = next((r for r in rows if r["pricing_model"] == "capacity_block"), None)
    own = next((r for r in rows if r["own"]), None)
    if cb is None or own is None or not cb["available"]:
        return ""

    def finite(key: str) -> bool:
        v = cb.get(key)
        return isinstance(v, int | float) and math.isfinite(v)

    if not finite("time_to_train_days"):
        return ""
    run = f"the expected run of {format_value('time_to_train_days', cb['time_to_train_days'])}"
    rate = (
        f"{format_usd(cb['usd_per_instance_hour'])} per instance-hour "
        f"({pr.as_of_phrase(cb['price_as_of'])})"
    )
    if not (finite("block_days") and finite("total_cost_to_train_usd")):
        longest = f"the longest Capacity Block ({pr.CAPACITY_BLOCK_MAX_DAYS} days)"
        if own["pricing_model"] == "capacity_block":
            return f"At {rate}, {run} is longer than {longest}: it does not fit in one block."
        return (
            f"This scenario's pricing model is {own['label']}, not a Capacity Block, and a "
            f"block would not do: {run} is longer than {longest}."
        )
    instances = int(scenario["cluster.nodes"]) + int(scenario["cluster.spare_nodes"])
    inst = catalog.get(str(scenario["cluster.instance"])) if catalog else None
    paid = pr.capacity_block_instances(instances, inst)
    what = f"a {cb['block_days']:g}-day block for {counted(paid, 'instance')}"
    if note := pr.capacity_block_note(instances, inst):  # UltraServers, or the 64 rule
        what += f" ({note})"
    total = f"{format_usd(cb['total_cost_to_train_usd'])} in total with storage"
    basis = plan is not None and bool(cb.get("basis"))  # goodput plan's block and total
    if basis:
        total += f", the mean of goodput plan's {counted(plan.trials, 'simulated run')}"
        sizes = (
            f"goodput plan's block: the cheapest with at most a {plan.risk:.0%} risk of the "
            "run outlasting it, each run drawing its failure rate and step time from their "
            "80% intervals"
        )
    else:
        sizes = "goodput plan sizes the block for a stated risk of the run outlasting it"
    if own["pricing_model"] == "capacity_block":
        added = cb["failures_and_checkpoints_usd"]
        failures = (
            f"of which {format_usd(added)} pays for the block days that failures and "
            "checkpoints add"
            if isinstance(added, int | float) and math.isfinite(added) and round(added) > 0
            else "and failures and checkpoints add no block day"
        )
        return f"At {rate}, {run} needs {what}: {total}, {failures}; {sizes}."
    own_total = own.get("total_cost_to_train_usd")
    against = (
        f" against {format_usd(own_total)} under {own['label']}"
        if isinstance(own_total, int | float) and math.isfinite(own_total)
        else ""
    )
    return (
        f"This scenario's pricing model is {own['label']}, not a Capacity Block; under an "
        f"EC2 Capacity Block at {rate}, {run} would need {what}: {total}"
        f"{',' if basis and against else ''}{against} ({sizes})."
    )


def _capacity_block_sections(
    sections: list[Section], scenario: Scenario, ev: Evaluation, catalog
) -> list[Section]:
    """The registry's "Capacity Block plan" section as a report shows it: its figures that
    are not about a block (:data:`TRAIN_FIGURES`) move to the time and cost to train, and the
    section says in one sentence what the expected run costs under a block
    (:func:`capacity_block_text`); with nothing left to say it is left out (no price for a
    block), instead of a near-empty section of one figure."""
    plan = next((s for s in sections if s.id == "plan"), None)
    train = next((s for s in sections if s.id == "train"), None)
    if plan is None and "time_to_train_days" not in ev.metrics:
        return sections
    kept = plan.metrics if plan is not None else ()
    if train is not None and kept:
        moved = [m for m in kept if m.key in TRAIN_FIGURES]
        kept = tuple(m for m in kept if m.key not in TRAIN_FIGURES)
        metrics = list(train.metrics)
        for m in moved:
            after = [i for i, t in enumerate(metrics) if t.key == TRAIN_FIGURES[m.key]]
            metrics.insert(after[0] + 1 if after else len(metrics), m)
        sections = [replace(s, metrics=tuple(metrics)) if s is train else s for s in sections]
    text = capacity_block_text(scenario, catalog) if "time_to_train_days" in ev.metrics else ""
    if not text and not kept:
        return [s for s in sections if s.id != "plan"]
    own_block = scenario["pricing.model"] == "capacity_block"
    block = Section(
        id="plan",
        title="Capacity Block plan" if own_block else "Under a Capacity Block",
        intro=text,
        metrics=kept,
    )
    if plan is not None:
        return [block if s.id == "plan" else s for s in sections]
    at = next((i + 1 for i, s in enumerate(sections) if s.id == "train"), len(sections))
    return [*sections[:at], block, *sections[at:]]


def _recommendation(scenario: Scenario, catalog) -> tuple[tuple[Metric, ...], str]:
    """:func:`_recommendation_metrics`, or nothing where the optimizer is not part of the
    build."""
    try:
        return _recommendation_metrics(scenario, catalog)
    except ImportError:  # optimizer not part of this build
        return (), ""


def model_sections(
    scenario: Scenario, ev: Evaluation, catalog, ranking=None, recommendation=None
) -> tuple[tuple[Section, ...], list[tuple[str, str]]]:
    """Optional sections (metrics grouped by name, the ``recommendation``
    (:func:`_recommendation`, computed here when not given), the instance ``ranking`` when
    there is one, :func:`_instance_ranking`) and the methods entries of the models whose
    results the evaluation carries."""
    sections = list(optional_sections(ev))
    methods = [(t, d) for key, t, d in MODEL_METHODS if key in ev.metrics]
    rec_metrics, intro = (
        recommendation if recommendation is not None else _recommendation(scenario, catalog)
    )
    if rec_metrics:
        ck = next((s for s in sections if s.id == "checkpoint"), None)
        merged = Section(
            id="checkpoint",
            title="Checkpointing and hot spares",
            intro=intro,
            metrics=rec_metrics + (ck.metrics if ck else ()),
        )
        sections = [merged] + [s for s in sections if s.id != "checkpoint"]
        methods.append(
            (
                "Recommendations",
                "Checkpoint interval: bounded Brent minimisation of lost USD/day over the "
                "interval (Daly's exact goodput); hot spares: exhaustive search of 0-200 spares "
                "with the Poisson spare model, net of the spares' price (models/optimize.py).",
            )
        )
    sections = _capacity_block_sections(sections, scenario, ev, catalog)
    sections.append(_badput_section(ev))
    if ranking is not None:
        order = {"checkpoint": 0, "compute": 1, "instances": 2, "instances-why": 3}
        sections.extend(_instance_sections(scenario, ranking))
        sections.sort(key=lambda s: order.get(s.id, 4))
    return tuple(sections), methods


def build_report(
    scenario: Scenario,
    *,
    compare_to: Scenario | Sequence[Scenario] | None = None,
    trials: int | None = None,
    seed: int | None = 0,
    catalog: Mapping[str, Instance] | None = None,
    generated: dt.date | None = None,
    detail: bool = True,
    days: float = MONTECARLO_DAYS,
    simulation: Any = None,
) -> Report:
    """Evaluate ``scenario`` (and ``compare_to``: one candidate or several, each compared
    with ``scenario`` as the baseline) and gather everything a report shows.

    ``detail=False`` skips what only the HTML/PDF show (figures, model sections), for the
    CSV/Parquet tables.  ``days`` is the Monte Carlo horizon; ``simulation`` (a
    ``SimulationResult`` of ``trials`` runs) reports a run already made instead of
    simulating again.
    """
    cat = catalog if catalog is not None else load_catalog()
    others = (
        []
        if compare_to is None
        else [compare_to]
        if isinstance(compare_to, Scenario)
        else list(compare_to)
    )
    comparisons = [compare(scenario, o, cat) for o in others]
    comparison: Comparison | None = comparisons[0] if comparisons else None
    ev = comparison.baseline if comparison is not None else evaluate(scenario, cat)
    m = ev.metrics
    values = {**m, **ev.value_of_reliability}
    headline = tuple(make_metric(k, values[k]) for k in HEADLINE_KEYS)
    losses = svc.loss_table(ev)
    if not detail:
        return _light_report(
            scenario, ev, comparisons, headline, trials, seed, cat, generated, days, simulation
        )
    sweep = svc.goodput_vs_rate(scenario, dict(cat))
    # components that are zero here (e.g. fabric stalls with no fabric faults) are left out
    # of the chart (loss_waterfall does), not of the table
    waterfall = loss_waterfall(losses, m["goodput"])
    figures = {
        "waterfall": waterfall,
        "goodput_vs_rate": goodput_vs_rate_chart(
            sweep,
            scenario["reliability.node_failure_rate_per_day"] * 100,
            m["goodput"],
            subtitle=RATE_CHART_SUBTITLE_BASELINE if comparisons else RATE_CHART_SUBTITLE,
        ),
    }
    methods = list(METHODS)
    ranking = _instance_ranking(scenario, ev, cat)
    recommendation = _recommendation(scenario, cat)
    sections, model_methods = model_sections(scenario, ev, cat, ranking, recommendation)
    methods.extend(model_methods)
    blocks = tuple(
        ComparisonBlock(
            comparison=c,
            table=_comparison_table(c),
            changed=_changed_assumptions(c),
            figure=wrap_categories(_comparison_figure(c)),
        )
        for c in comparisons
    )
    lad = resilience_ladder(scenario, cat)
    if lad is not None:
        sections = (*sections, _ladder_section(lad))
        methods.append(LADDER_METHOD)
    comparison_table = changed = None
    if blocks:
        comparison_table, changed = blocks[0].table, blocks[0].changed
        figures["comparison"] = blocks[0].figure
        methods.append(COMPARE_METHOD)
    mc = None
    if trials is not None:
        if not 1 <= trials <= 1_000_000:
            raise ValidationError("--trials", f"{trials} is out of range (an integer in [1, 1e6])")
        mc = _montecarlo(scenario, trials, seed, cat, days, simulation)
        methods.append(
            (
                "Monte Carlo",
                f"{counted(trials, 'simulated run')} of the failure process (models/montecarlo.py, seed "
                f"{seed}); percentiles P5/P50/P95 of each simulated metric.",
            )
        )
    title = "Goodput report" if comparison is None else "Goodput comparison report"
    if len(comparisons) > 1:
        title = f"Goodput comparison report ({len(comparisons) + 1} scenarios)"
    return Report(
        title=title,
        generated=generated or dt.date.today(),
        scenario=scenario,
        evaluation=ev,
        headline=headline,
        summary=_summary(ev),
        assumptions=svc.assumptions_table(scenario, ev.instance, ev.price),
        losses=losses,
        figures=figures,
        sections=sections,
        comparison=comparison,
        comparison_table=comparison_table,
        changed_assumptions=changed,
        montecarlo=mc,
        methods=tuple(methods),
        comparisons=blocks,
        ladder=lad,
        instances=_instance_records(ranking),
        recommendations=recommendation[0],
    )


def _light_report(
    scenario, ev, comparisons, headline, trials, seed, cat, generated, days, simulation
):
    comparison = comparisons[0] if comparisons else None
    mc = None
    if trials is not None:
        if not 1 <= trials <= 1_000_000:
            raise ValidationError("--trials", f"{trials} is out of range (an integer in [1, 1e6])")
        mc = _montecarlo(scenario, trials, seed, cat, days, simulation)
    try:
        ranking = _instance_ranking(scenario, ev, cat)
    except ValidationError:  # the data table goes without it, as it did before it had it
        ranking = None
    return Report(
        title="Goodput report" if comparison is None else "Goodput comparison report",
        generated=generated or dt.date.today(),
        scenario=scenario,
        evaluation=ev,
        headline=headline,
        summary=_summary(ev),
        assumptions=svc.assumptions_table(scenario, ev.instance, ev.price),
        losses=svc.loss_table(ev),
        figures={},
        comparison=comparison,
        montecarlo=mc,
        methods=METHODS,
        comparisons=tuple(
            ComparisonBlock(
                comparison=c,
                table=_comparison_table(c),
                changed=_changed_assumptions(c),
            )
            for c in comparisons
        ),
        ladder=resilience_ladder(scenario, cat),
        instances=_instance_records(ranking),
        recommendations=_recommendation(scenario, cat)[0],
    )

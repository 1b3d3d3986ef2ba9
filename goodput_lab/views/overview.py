"""Tables behind the Overview page: assumptions, loss breakdown, goodput-vs-rate sweep."""

from __future__ import annotations

import numpy as np
import polars as pl

from goodput_lab.models import FIELDS, Evaluation, Scenario, evaluate_arrays, resolve_inputs
from goodput_lab.models.catalog import Instance
from goodput_lab.models.evaluate import hot_spare_pool_text
from goodput_lab.models.outputs import failure_domain_keys
from goodput_lab.models.pricing import Price, as_of_phrase
from goodput_lab.views import display
from goodput_lab.views.display import field_value


def display_value(key: str, value) -> str:
    """A field value as shown to people, with its unit ("2,000 nodes", "0.2%", "catalog
    price"): :func:`goodput_lab.views.display.field_value`."""
    return field_value(key, value)


def assumptions_table(scenario: Scenario, instance: Instance, price: Price) -> pl.DataFrame:
    """Every input with its value, unit and provenance (for the page and the reports).

    The price row shows the price in force, wherever it comes from, with its source and date.
    """
    rows = []
    for key, f in FIELDS.items():
        value = scenario[key]
        # the field's help describes it and where its default comes from; a value the
        # scenario sets says so first, so the default's source is not read as the value's
        source = f.help
        if value != f.default:
            source = f"Set by the scenario (default {display_value(key, f.default)}). {f.help}"
        shown = display_value(key, value)
        if key == "pricing.usd_per_instance_hour":
            origin = "catalog" if value is None else "scenario"
            when = as_of_phrase(price.as_of)
            shown = f"${price.usd_per_instance_hour:,.2f}/instance-h ({origin}, {when})"
            source = price.source
        rows.append(
            {
                "field": key,
                "label": f.label,
                "value": shown,
                "unit": f.unit,
                "default": display_value(key, f.default),
                "source / meaning": source,
            }
        )
    rows.append(
        {
            "field": "catalog." + instance.instance,
            "label": "Instance specs",
            "value": f"{instance.accelerators_per_node} × {instance.accelerator}",
            "unit": "",
            "default": "",
            "source / meaning": instance.source_specs,
        }
    )
    return pl.DataFrame(rows)


def loss_table(ev: Evaluation) -> pl.DataFrame:
    """Loss components in minutes/day, USD/day and goodput points (sums to 1 − goodput),
    with the output-registry columns the display table uses (``component_*``).

    The ``kind = "cost"`` rows (idle spare nodes, checkpoint storage) cost dollars but no wall
    time; :func:`wall_time_losses` leaves them out (for the waterfall of wall time).
    """
    df = pl.DataFrame(ev.loss_breakdown())
    return df.with_columns(
        (pl.col("fraction_of_wall_time") * 100).alias("goodput_points"),
        pl.col("minutes_per_day").alias("component_minutes_per_day"),
        pl.col("usd_per_day").alias("component_usd_per_day"),
        pl.col("usd_per_year").alias("component_usd_per_year"),
        pl.col("fraction_of_wall_time").alias("component_share_of_wall_time"),
    )


LOSS_COLUMNS = (
    ("label", "Loss component"),
    "component_minutes_per_day",
    "component_usd_per_day",
    "component_usd_per_year",
    "component_share_of_wall_time",
)


def loss_total_row(ev: Evaluation) -> dict:
    """The total of :func:`loss_table` as a row (lost time, dollars, share of wall time)."""
    m = ev.metrics
    usd = m["lost_usd_per_day"]  # every row's dollars: time losses, spares and storage
    return {
        "label": "Total",
        "component_minutes_per_day": m["lost_minutes_per_day"],
        "component_usd_per_day": usd,
        "component_usd_per_year": m["lost_usd_per_year"],
        "component_share_of_wall_time": 1.0 - m["goodput"],
    }


def split_zero_losses(losses: pl.DataFrame) -> tuple[pl.DataFrame, list[str]]:
    """(the components that lose time or money at this scenario, the labels of the rest):
    a table lists what the scenario loses and names in words what it does not."""
    zero = (pl.col("minutes_per_day").abs() < 5e-3) & (pl.col("usd_per_day").abs() < 0.5)
    return losses.filter(~zero), losses.filter(zero)["label"].to_list()


def wall_time_losses(losses: pl.DataFrame) -> pl.DataFrame:
    """Only the components that take wall-clock time."""
    return losses.filter(pl.col("kind") == "time") if "kind" in losses.columns else losses


def goodput_vs_rate(
    scenario: Scenario, catalog: dict[str, Instance], max_rate: float | None = None, n: int = 121
) -> pl.DataFrame:
    """Goodput (exact and first order) and lost USD/day over a node-failure-rate sweep.

    One vectorised call of :func:`models.evaluate_arrays` over ``n`` rates.
    """
    inputs = resolve_inputs(scenario, catalog)
    r0 = float(scenario["reliability.node_failure_rate_per_day"])
    hi = max_rate if max_rate is not None else max(0.01, 2.5 * r0)
    rates = np.linspace(0.0, hi, n)
    out = evaluate_arrays(
        {**inputs, "reliability.node_failure_rate_per_day": rates}, broadcast=True
    )
    return pl.DataFrame(
        {
            "node_failure_rate_pct": rates * 100,
            "goodput_pct": np.asarray(out["goodput"]) * 100,
            "goodput_first_order_pct": np.asarray(out["goodput_first_order"]) * 100,
            "lost_usd_per_day": np.asarray(out["lost_usd_per_day"]),
        }
    )


# --------------------------------------------------------------------------- page text
#: The presets that reconstruct the public cloud blog's claim (docs/references.md)
CLAIM_PRESETS = ("aws-16k-h100", "aws-16k-h100-improved")


def reliability_caption(ev: Evaluation) -> str:
    """Under the value-of-reliability tiles: the public claim, and whether these figures are
    its reconstruction (only on the claim's own presets, unmodified; QA 18: every preset
    said "the assumptions listed below" reproduce it)."""
    from goodput_lab.models.scenario import load_preset

    sc = ev.scenario
    own = any(dict(load_preset(n).values) == dict(sc.values) for n in CLAIM_PRESETS)
    text = "A public cloud blog claims 4.2% and up to $200,000/day for 16,000 H100; " + (
        "this preset reproduces it with the assumptions listed below."
        if own
        else "the aws-16k-h100 preset reproduces it; the figures above are this scenario's."
    )
    if ev.value_of_reliability["value_of_reliability_is_partial"]:
        text += " The rate is below 0.1%: this is the gain of eliminating failures altogether."
    return text


def reliability_tiles(ev: Evaluation) -> list[dict[str, str]]:
    """The value of a 0.1 percentage point lower node failure rate: goodput gained, per
    day and per year (``st.metric`` keyword arguments)."""
    v = ev.value_of_reliability
    return [
        display.tile("goodput_gain_per_0p1pp", v["goodput_gain_per_0p1pp"]),
        display.tile("usd_per_day_per_0p1pp", v["usd_per_day_per_0p1pp"]),
        {
            **display.tile("usd_per_year_per_0p1pp", v["usd_per_year_per_0p1pp"]),
            "label": "Per year",
        },
    ]


def failure_domain_display(ev: Evaluation) -> pl.DataFrame | None:
    """The failure classes and scale-up domains (:func:`models.outputs.failure_domain_keys`,
    as goodput evaluate and the report give them) as a display table, or None where the
    failures are node failures alone."""
    keys = failure_domain_keys(ev.metrics)
    if not keys:
        return None
    rows = []
    for k in keys:
        o = display.OUTPUTS[k]
        # "Node failures per day 2.19", not "2.19 per day": the label says the unit
        says_unit = "per day" in o.label.lower()
        rows.append(
            {"label": o.label, "value": display.format_value(o, ev.metrics[k], unit=not says_unit)}
        )
    return display.table(rows, [("label", "Figure"), ("value", "Value")])


def failure_domain_intro(m) -> str:
    """What the failure-domain figures are, for the page and the report: the domains, the
    classes that make up the failures per day, how the replacement per failure over
    every class makes the recovery in the lost time per failure, and, with domain spares,
    the hot-spare pool a node failure falls back to
    (:func:`models.evaluate.hot_spare_pool_text`)."""
    fv = display.format_value
    text = (
        f"The job occupies {fv('scaleup_domains', m['scaleup_domains'])} of "
        f"{fv('nodes_per_domain', m['nodes_per_domain'])}. Its "
        f"{fv('failures_per_day', m['failures_per_day'], unit=False)} failures per day are "
        "the class rates below. Replacement per failure is the failure-weighted mean of the "
        "classes' repair times, since repairs run side by side "
        "(docs/references.md#failure-domains); with the detection, restart and restore it "
        f"makes the {fv('recovery_minutes_per_failure', m['recovery_minutes_per_failure'])} "
        f"of recovery in the {fv('minutes_lost_per_failure', m['minutes_lost_per_failure'])} "
        "lost per failure."
    )
    if pool := hot_spare_pool_text(m):
        text += (
            " A node failure that finds neither a free in-domain spare nor a free spare "
            f"domain falls back to the hot-spare pool: {pool}. These are the pool's own "
            "figures (probability_no_spare and replacement_minutes_expected in goodput "
            "evaluate --json); the replacement per failure weighs them by how rarely a "
            "failure gets that far."
        )
    return text


def loss_display(shown: pl.DataFrame, ev: Evaluation) -> pl.DataFrame:
    """The losses shown (:func:`split_zero_losses`) and their total, as a display table."""
    return display.table([*shown.to_dicts(), loss_total_row(ev)], LOSS_COLUMNS)


def inputs_display(scenario: Scenario, ev: Evaluation, keys) -> pl.DataFrame:
    """The inputs ``keys`` with value, default and source, the price in force included."""
    return display.inputs_table(scenario, ev.price, keys)


def specs_caption(ev: Evaluation, esc=str) -> str:
    """Under the inputs: the instance's accelerators and their source (``esc`` escapes the
    catalog's source note for the page)."""
    return (
        f"Instance specs: {ev.instance.accelerators_per_node} × {ev.instance.accelerator} per "
        f"node ({esc(ev.instance.source_specs)}). Each input's key for "
        "`--set section.key=value` is in the CSV export and `goodput evaluate --help`."
    )

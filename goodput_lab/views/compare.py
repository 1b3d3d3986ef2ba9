"""Tables behind the Compare page: every metric side by side, the delta waterfall, savings."""

from __future__ import annotations

import math
from collections.abc import Sequence

import polars as pl

from goodput_lab.models import (
    FIELDS,
    Comparison,
    Scenario,
    ValidationError,
    compare,
    load_preset,
)
from goodput_lab.models._text import as_sentence
from goodput_lab.models.catalog import Instance
from goodput_lab.models.evaluate import step_gaps
from goodput_lab.models.outputs import LOSS_COMPONENTS, OUTPUTS
from goodput_lab.models.pricing import price_follows_note
from goodput_lab.models.scenario import follow_edits
from goodput_lab.views import display


def run(baseline: Scenario, candidate: Scenario, catalog: dict[str, Instance]) -> Comparison:
    """``models.compare`` (raises models.ValidationError for a bad scenario)."""
    return compare(baseline, candidate, catalog)


def metrics_table(cmp: Comparison) -> pl.DataFrame:
    """Every metric of both evaluations with the difference (candidate − baseline)."""
    b, c = cmp.baseline.metrics, cmp.candidate.metrics
    keys = [k for k in b if k in c]
    extra = [
        (k, cmp.baseline.value_of_reliability[k], cmp.candidate.value_of_reliability[k])
        for k in cmp.baseline.value_of_reliability
        if k in cmp.candidate.value_of_reliability
    ]
    rows = [(k, b[k], c[k]) for k in keys] + extra
    return pl.DataFrame(
        {
            "metric": [r[0] for r in rows],
            "baseline": [_finite(r[1]) for r in rows],
            "candidate": [_finite(r[2]) for r in rows],
            "delta": [_finite(r[2] - r[1]) for r in rows],
        },
        schema={
            "metric": pl.String,
            "baseline": pl.Float64,
            "candidate": pl.Float64,
            "delta": pl.Float64,
        },
    )


def _finite(x: float) -> float | None:
    return float(x) if math.isfinite(x) else None


def delta_waterfall(cmp: Comparison) -> pl.DataFrame:
    """Where the savings per day come from (:meth:`models.evaluate.Comparison.savings_by_component`),
    with the output-registry columns a display table uses (``component_*``)."""
    rows = cmp.savings_by_component()
    return pl.DataFrame(rows).with_columns(
        pl.col("minutes_per_day_saved").alias("component_minutes_saved_per_day"),
        pl.col("usd_per_day").alias("component_savings_usd_per_day"),
    )


def loss_minutes_series(
    cmps: Sequence[Comparison], heads: Sequence[str]
) -> tuple[list[str], list[tuple[str, list[float]]]]:
    """(the loss components' labels, per side its minutes lost per day to each): the
    baseline's, then each candidate's, named by ``heads``."""
    keys = [f"loss_{c}_minutes_per_day" for c in LOSS_COMPONENTS]
    series = [(heads[0], [cmps[0].baseline[k] for k in keys])]
    series += [(heads[i + 1], [c.candidate[k] for k in keys]) for i, c in enumerate(cmps)]
    return list(LOSS_COMPONENTS.values()), series


def savings(cmp: Comparison) -> dict[str, float]:
    """Savings per day, month (365.25/12 days) and year (365.25 days) [USD]."""
    return {  # the model's figures (models.evaluate.Comparison), never re-derived here
        "per_day": cmp.savings_usd_per_day,
        "per_month": cmp.savings_usd_per_month,
        "per_year": cmp.savings_usd_per_year,
        "goodput_delta": cmp.goodput_delta,
    }


CURRENT = "Current scenario (sidebar)"
UPLOAD = "Uploaded TOML file"
PRESET_PREFIX = "Preset: "
#: The sides of the comparison (session-state and link names); the first is the baseline.
SIDES = ("baseline", "candidate", "candidate_3", "candidate_4")
DEFAULTS = {
    "baseline": CURRENT,
    "candidate": PRESET_PREFIX + "aws-16k-h100-improved",
    "candidate_3": PRESET_PREFIX + "aws-16k-h100-memory",
    "candidate_4": PRESET_PREFIX + "hyperpod-tiered-16k-h100",
}


def step_gaps_note(cmp: Comparison) -> str:
    """Above a candidate's savings: which side has no step time and why, and what the
    savings then leave out (models.evaluate.step_gaps, as goodput compare says it); ""
    when both have one."""
    gaps = step_gaps(cmp)
    if not gaps:
        return ""
    return as_sentence(
        f"{gaps}; the savings count goodput and running cost only (no step-time part)"
    )


def side_title(i: int) -> str:
    """ "Baseline", "Candidate 1", "Candidate 2", ..."""
    return "Baseline" if i == 0 else f"Candidate {i}"


def sources(presets: list[str]) -> list[str]:
    """Choices for where a side of the comparison comes from."""
    return [CURRENT, *(PRESET_PREFIX + p for p in presets), UPLOAD]


def build(source: str, current: Scenario, upload: Scenario | None, edits: str) -> Scenario | None:
    """The scenario for one side: its source plus ``section.key=value`` edits (one a line).

    ``None`` when the source is an upload that has not happened yet.  Edits go through the
    same validation as the command line's ``--set`` (models.ValidationError names the field).
    """
    return build_with_note(source, current, upload, edits)[0]


def build_with_note(
    source: str, current: Scenario, upload: Scenario | None, edits: str
) -> tuple[Scenario | None, str]:
    """:func:`build` and the sentence to say under the side: a price entered for another
    instance type dropped by the edits (:func:`models.pricing.price_follows_note`), or ""."""
    if source == CURRENT:
        base = current
    elif source == UPLOAD:
        if upload is None:
            return None, ""
        base = upload
    elif source.startswith(PRESET_PREFIX):
        base = load_preset(source.removeprefix(PRESET_PREFIX))
    else:
        raise ValidationError("comparison source", f"{source!r} is not one of the choices")
    lines = [ln.strip() for ln in edits.splitlines() if ln.strip() and not ln.startswith("#")]
    if not lines:
        return base, ""
    # provenance follows the edits, as the command line's --set (models.scenario.follow_edits):
    # a price entered for another instance type is not carried to a new one
    edited = base.with_overrides(lines)
    explicit = {ln.split("=", 1)[0].strip() for ln in lines}
    return follow_edits(base, edited, explicit), price_follows_note(base, edited, explicit)


#: Figures of the side-by-side table, in order.
KEY_FIGURES = (
    "goodput",
    "failures_per_day",
    "minutes_lost_per_failure",
    "checkpoint_interval_minutes",
    "step_seconds",
    "usd_per_instance_hour",
    "cluster_usd_per_day",
    "total_usd_per_day",
    "lost_usd_per_day",
    "time_to_train_days",
    "cost_to_train_usd",
)


def differences(cmp: Comparison) -> list[dict]:
    """Every input that differs, in words: label, key, baseline and candidate values."""
    price_b, price_c = cmp.baseline.price, cmp.candidate.price
    return [
        {
            "label": FIELDS[k].label,
            "key": k,
            "baseline": _input_value(k, b, price_b),
            "candidate": _input_value(k, c, price_c),
        }
        for k, b, c in cmp.differences()
    ]


def _input_value(key: str, value, price) -> str:
    """An input in words; an empty one by what empty means for that field, as ``--help``
    words it ("no limit", "same as the attention heads (MHA)": QA 27 #13, the table said
    "derived" for both), else :func:`display.field_value`'s words ("catalog price")."""
    if value is None and (empty := FIELDS[key].none_label):
        # the sidebar's tick-box words as a value: "derived from the parameter count", "the
        # fleet prior" (not "derive from ...", "use the fleet prior")
        for verb, value_words in (("Derive ", "derived "), ("Use ", "")):
            if empty.startswith(verb):
                return value_words + empty[len(verb) :]
        return in_sentence(empty)
    return display.field_value(key, value, price=price)


def differences_note(cmp: Comparison) -> tuple[str, str]:
    """(kind, text): what differs between the pair and what the savings therefore mean.
    kind is "info" (one input or none) or "warning" (several: a combined effect)."""
    diffs = differences(cmp)
    if not diffs:
        return "info", "Identical inputs: the two scenarios give the same figures."
    names = [in_sentence(d["label"]) for d in diffs]
    if len(diffs) == 1:
        return "info", f"Only one input differs: {names[0]}. The savings are its effect alone."
    # one sentence (QA 27 #14: three loose paragraphs, a colon with no list after it), its
    # colon followed by one bullet per input when they are few (labels hold commas and
    # "and": "Failure rate, 80% interval low"); a longer list is the "What differs" table
    # under the note, not a second copy of it
    combined = (
        "so the savings are their combined effect (to see one input's share, compare with "
        "only that one changed in the edits box)"
    )
    if len(names) > MAX_LISTED:
        return (
            "warning",
            f"{len(diffs)} inputs differ, not only one, {combined}: the table under "
            "“What differs” lists them.",
        )
    listed = "\n".join(f"- {name}" for name in names)
    return "warning", f"{len(diffs)} inputs differ, not only one, {combined}:\n\n{listed}"


#: At most this many differing inputs are listed in the note above the "What differs" table.
MAX_LISTED = 6


def in_sentence(label: str) -> str:
    """A label as it reads inside a sentence: its first letter in lower case unless its first
    word is an acronym or written in mixed case ("Measured MFU" -> "measured MFU", "MLP type"
    and "ZeRO / FSDP stage" unchanged)."""
    first = label.split(" ", 1)[0]
    return label[:1].lower() + label[1:] if first[1:] == first[1:].lower() else label


def side_by_side(cmps: Sequence[Comparison], names: Sequence[str]) -> pl.DataFrame:
    """Key figures of the baseline and every candidate, with each candidate's change."""
    base = cmps[0].baseline
    rows = []
    for key in KEY_FIGURES:
        if key not in base.metrics:
            continue
        row = {"key": key, "base": base[key]}
        for i, c in enumerate(cmps):
            row[f"c{i}"] = c.candidate[key]
            row[f"d{i}"] = c.candidate[key] - base[key]
        rows.append(row)
    values = [("base", names[0])] + [(f"c{i}", names[i + 1]) for i in range(len(cmps))]
    table = display.metric_rows(rows, values)
    out = {"Figure": table["Figure"], names[0]: table[names[0]]}
    for i in range(len(cmps)):
        changes = [display.change(OUTPUTS[r["key"]], r[f"d{i}"]) for r in rows]
        out[names[i + 1]] = [
            v if d == "no change" else f"{v} ({d})"
            for v, d in zip(table[names[i + 1]].to_list(), changes, strict=True)
        ]
    return pl.DataFrame(out)


def every_metric(cmps: Sequence[Comparison], names: Sequence[str]) -> pl.DataFrame:
    """Every registered metric of the baseline and each candidate (formatted)."""
    base = cmps[0].baseline
    rows = []
    values = {**base.metrics, **base.value_of_reliability}
    for key in values:
        if key not in OUTPUTS:
            continue
        row = {"key": key, "base": values[key]}
        for i, c in enumerate(cmps):
            other = {**c.candidate.metrics, **c.candidate.value_of_reliability}
            row[f"c{i}"] = other.get(key)
        rows.append(row)
    cols = [("base", names[0])] + [(f"c{i}", names[i + 1]) for i in range(len(cmps))]
    return display.metric_rows(rows, cols)


# --------------------------------------------------------------------------- page text
def savings_tiles(cmp: Comparison) -> list[dict[str, str]]:
    """Goodput change and the savings per day, month and year (``st.metric`` arguments)."""
    s = savings(cmp)
    # the unit in the label, as a table's header: "+12.45 points" was cut to "+12.45 poi…"
    # in a quarter of the page at 1,024 px
    goodput = {
        **display.tile("goodput_delta", s["goodput_delta"], signed=True, unit=False),
        "label": display.header("goodput_delta"),
    }
    return [
        goodput,
        display.tile("savings_usd_per_day", s["per_day"], savings=True),
        display.tile("savings_usd_per_month", s["per_month"], savings=True),
        display.tile("savings_usd_per_year", s["per_year"], savings=True),
    ]


def differences_display(cmp: Comparison, candidate_head: str) -> pl.DataFrame:
    """:func:`differences` as a display table (the candidate's column headed
    ``candidate_head``)."""
    return display.table(
        differences(cmp),
        [("label", "Input"), ("baseline", "Baseline"), ("candidate", candidate_head)],
    )

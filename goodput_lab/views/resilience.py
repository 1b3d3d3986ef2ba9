"""Tables behind the Resilience page and the report's ladder (no Streamlit here).

Calls :func:`models.resilience.ladder` and shapes its rungs into polars frames: numbers for
the charts, words for people (formatted from the output registry), each rung's changed
settings and assumptions, savings by cause, and the Monte Carlo spread per rung.
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from goodput_lab.models import FIELDS, Scenario
from goodput_lab.models.catalog import Instance
from goodput_lab.models.outputs import format_value, help_text
from goodput_lab.models.resilience import (
    BASELINE,
    FEATURES,
    MC_TOLERANCE_TEXT,
    Ladder,
    Rung,
    ladder,
)
from goodput_lab.views import display
from goodput_lab.views.overview import display_value

RECOMMENDED = "Recommended (best next first)"
CUSTOM = "My order"
UNITS = ("$/day", "Goodput points")
TRIAL_CHOICES = (200, 500, 1000)


def feature_label(key: str) -> str:
    return "Baseline" if key == BASELINE else FEATURES[key].label


def rung_label(r) -> str:
    """A rung's name in tables and charts: "Baseline", or its rung label, which says what
    it puts instead of spares the scenario already has (:func:`models.resilience._rung_label`)."""
    return "Baseline" if r.feature == BASELINE else r.label


def run(
    scenario: Scenario,
    catalog: dict[str, Instance],
    features: Sequence[str] | None = None,
    lemon_failure_share: float = 0.0,
    trials: int | None = None,
    seed: int = 0,
) -> Ladder:
    """The ladder (``features`` None = recommended order); models.ValidationError if bad."""
    return ladder(
        scenario,
        list(features) if features is not None else None,
        lemon_failure_share=lemon_failure_share,
        trials=trials,
        seed=seed,
        catalog=catalog,
    )


def rung_numbers(lad: Ladder) -> pl.DataFrame:
    """One row per rung: rung, feature, label, goodput (%), lost $/day and the deltas."""
    return pl.DataFrame(
        {
            "rung": list(range(len(lad.rungs))),
            "feature": [r.feature for r in lad.rungs],
            "label": [rung_label(r) for r in lad.rungs],
            "goodput_pct": [100 * r.goodput for r in lad.rungs],
            "lost_usd_per_day": [r.lost_usd_per_day for r in lad.rungs],
            "delta_goodput_points": [r.delta_goodput_points for r in lad.rungs],
            "delta_usd_per_day": [r.delta_usd_per_day for r in lad.rungs],
        }
    )


def cause_caption(lad: Ladder) -> str:
    """Under "Savings by failure cause": how each rung's saving is split (docs/resilience.md,
    section 2): node-failure causes by their counts, the other failure classes as lines of
    their own, the spares-by-domain rung by rate × repair wait."""
    return (
        f"Causes: {lad.modes.source}. A feature's failure-related saving is split over the "
        "node-failure causes it acts on, by their counts; fabric aborts, scale-up domain "
        "events, switch events and job-level interruptions are lines of their own, and the "
        "spares-by-domain rung splits its saving by rate × repair wait (docs/resilience.md, "
        "section 2). Other losses and costs are their own lines."
    )


def rung_display(lad: Ladder) -> pl.DataFrame:
    """The rungs as people read them (registry formats; no raw floats, no NaN; the money
    without "/day" under headers that say per day, here and in the report; "no change"
    where a rung moves nothing, a tiny move in two significant digits)."""
    rows = []
    for i, r in enumerate(lad.rungs):
        first = i == 0
        rows.append(
            {
                "Rung": str(i),
                "Feature": rung_label(r),
                "Goodput": format_value("goodput", r.goodput),
                "Lost per day": format_value("lost_usd_per_day", r.lost_usd_per_day, unit=False),
                # a rung that moves nothing reads "no change" in both, as on the waterfall
                "Goodput gained": "—"
                if first
                else display.change("delta_goodput_points", r.delta_goodput_points),
                "Saves per day": "—"
                if first
                else display.change("delta_usd_per_day", r.delta_usd_per_day, unit=False),
                "Source": "the scenario as given"
                if first
                else "; ".join(_short(k) for k in r.references),
            }
        )
    return pl.DataFrame(rows)


def _short(ref: str) -> str:
    from goodput_lab.models.references import REFERENCES

    r = REFERENCES[ref]
    text = r.citation
    for stop in (",", " (", ":", " '"):
        text = text.split(stop)[0]
    return text.strip() + (f" {r.year}" if r.year else "")


def changes_table(rung: Rung) -> pl.DataFrame:
    """The settings this rung changed: field, label, before, after (as people read them)."""
    rows = [
        {
            "Field": key,
            "Setting": FIELDS[key].label,
            "Before": display_value(key, before),
            "After": display_value(key, after),
            "Unit": FIELDS[key].unit if FIELDS[key].scale == 1.0 else "",
        }
        for key, before, after in rung.changes
    ]
    schema = dict.fromkeys(("Field", "Setting", "Before", "After", "Unit"), pl.String)
    return pl.DataFrame(rows, schema=schema)


def assumptions_table(rung: Rung) -> pl.DataFrame:
    rows = [{"Assumption": w, "Value": v, "Basis": b} for w, v, b in rung.assumptions]
    return pl.DataFrame(
        rows, schema={"Assumption": pl.String, "Value": pl.String, "Basis": pl.String}
    )


def cause_table(rung: Rung) -> pl.DataFrame:
    """Where the rung's saving comes from, largest first, as words."""
    rows = sorted(rung.savings_by_cause, key=lambda r: -abs(r["saving_usd_per_day"]))
    return pl.DataFrame(
        [
            {
                "From": r["label"],
                "Saves per day": format_value(
                    "saving_usd_per_day", r["saving_usd_per_day"], signed=True
                ),
            }
            for r in rows
        ],
        schema={"From": pl.String, "Saves per day": pl.String},
    )


def cause_long(lad: Ladder, top: int = 6) -> pl.DataFrame:
    """Savings by cause for every rung (long format, the ``top`` causes by total saving and
    the rest as 'Other'): rung label, cause label, USD/day.  A cause is keyed on its
    category and its label: the spares category reads "Spare nodes by domain" on the
    domain-spares rung and "Hot spare nodes" on the hot-spares rung, and each rung keeps its
    own (the later rung's label overwrote the earlier's)."""
    totals: dict[tuple[str, str], float] = {}
    for r in lad.rungs[1:]:
        for row in r.savings_by_cause:
            cause = (row["category"], row["label"])
            totals[cause] = totals.get(cause, 0.0) + abs(row["saving_usd_per_day"])
    keep = sorted(totals, key=lambda c: -totals[c])[:top]
    out = []
    for i, r in enumerate(lad.rungs[1:], start=1):
        rung, other = f"{i}. {rung_label(r)}", 0.0
        for row in r.savings_by_cause:
            if (row["category"], row["label"]) in keep:
                out.append(
                    {"rung": rung, "cause": row["label"], "usd_per_day": row["saving_usd_per_day"]}
                )
            else:
                other += row["saving_usd_per_day"]
        if abs(other) >= 0.005:
            out.append({"rung": rung, "cause": "Other", "usd_per_day": other})
    return pl.DataFrame(
        out, schema={"rung": pl.String, "cause": pl.String, "usd_per_day": pl.Float64}
    )


def montecarlo_numbers(lad: Ladder) -> pl.DataFrame:
    """Per rung: analytic goodput, simulated mean and P5/P95 (%), lost $/day P5/P95."""
    rows = []
    for i, r in enumerate(lad.rungs):
        mc = r.montecarlo or {}
        rows.append(
            {
                "rung": f"{i}. {rung_label(r)}",
                "analytic_pct": 100 * r.goodput,
                "mean_pct": 100 * mc.get("goodput_mc_mean", float("nan")),
                "p5_pct": 100 * mc.get("goodput_p5", float("nan")),
                "p95_pct": 100 * mc.get("goodput_p95", float("nan")),
                "lost_usd_per_day": r.lost_usd_per_day,
                "lost_p5": mc.get("lost_usd_per_day_p5", float("nan")),
                "lost_p95": mc.get("lost_usd_per_day_p95", float("nan")),
            }
        )
    return pl.DataFrame(rows)


def montecarlo_display(lad: Ladder) -> pl.DataFrame:
    """The Monte Carlo spread per rung as words, with the tolerance verdict."""
    rows = []
    for i, r in enumerate(lad.rungs):
        mc = r.montecarlo
        if mc is None:
            continue
        rows.append(
            {
                "Rung": f"{i}. {rung_label(r)}",
                "Goodput (analytic)": format_value("goodput", r.goodput),
                "Simulated mean": format_value("goodput_mc_mean", mc["goodput_mc_mean"]),
                "± s.e.": format_value("goodput_mc_stderr", mc["goodput_mc_stderr"]),
                "P5 – P95": f"{format_value('goodput_p5', mc['goodput_p5'])} – "
                f"{format_value('goodput_p95', mc['goodput_p95'])}",
                "Lost per day P5 – P95": (
                    f"{format_value('lost_usd_per_day_p5', mc['lost_usd_per_day_p5'])} – "
                    f"{format_value('lost_usd_per_day_p95', mc['lost_usd_per_day_p95'])}"
                ),
                "Agrees": format_value(
                    "montecarlo_within_tolerance", mc["montecarlo_within_tolerance"]
                ),
            }
        )
    return pl.DataFrame(rows)


__all__ = [
    "CUSTOM",
    "MC_TOLERANCE_TEXT",
    "RECOMMENDED",
    "TRIAL_CHOICES",
    "UNITS",
    "assumptions_table",
    "cause_long",
    "cause_table",
    "changes_table",
    "feature_label",
    "montecarlo_display",
    "montecarlo_numbers",
    "run",
    "rung_display",
    "rung_numbers",
]


# --------------------------------------------------------------------------- page text
# What the Resilience page (and the report's ladder section) shows, ready to place.
def worth_adopting(lad: Ladder) -> str:
    """The recommended features that save money at their rung, in words ("none" if none):
    the page's caption and the report's ladder section name the same ones."""
    worth = lad.recommended_features
    return ", ".join(r.label for r in lad.rungs[1:] if r.feature in worth) or "none"


def saved_per_day(lad: Ladder, key: str) -> str:
    """What the ladder saves per day ("$4,456/day"): ``key`` is
    ``recommended_delta_usd_per_day`` (the rungs worth adopting) or
    ``total_delta_usd_per_day`` (every rung); the page's tile and the report's ladder
    section word it with this one function."""
    return f"{format_value(key, getattr(lad, key), unit=False)}/day"


def headline_tiles(lad: Ladder) -> list[list[dict[str, str]]]:
    """Two rows of two tiles: lost per day before and after the ladder, what it saves
    (the recommended rungs only, in the recommended order) and goodput after it."""
    # in the recommended order only the rungs worth adopting count (issue 26: the whole
    # ladder added rungs this page says cost more than they save); all three "after" tiles
    # describe the same rungs
    recommended, last = _after(lad)
    first = lad.rungs[0]
    saved_key = "recommended_delta_usd_per_day" if recommended else "total_delta_usd_per_day"
    return [
        [
            {
                "label": "Lost per day, baseline",
                # as every tile writes dollars (millions from $10M on)
                "value": display.tile("lost_usd_per_day", first.lost_usd_per_day)["value"],
                "help": "The scenario as given, before any feature. "
                + help_text("lost_usd_per_day"),
            },
            {
                "label": "Lost per day, recommended rungs"
                if recommended
                else "Lost per day, last rung",
                "value": display.tile("lost_usd_per_day", last.lost_usd_per_day)["value"],
                "help": f"{_after_words(recommended)}, counting what the features cost. "
                + help_text("lost_usd_per_day"),
            },
        ],
        [
            # the registry's tile: "$4,456/day", millions from $10M on
            display.tile(saved_key, getattr(lad, saved_key)),
            _goodput_tile(lad),
        ],
    ]


def _after(lad: Ladder) -> tuple[bool, Rung]:
    """(whether the headline tiles describe the recommended rungs, the rung after the rungs
    they describe): in the recommended order the rungs worth adopting, else every rung."""
    recommended = lad.order == "recommended"
    return recommended, lad.last_recommended if recommended else lad.rungs[-1]


def _after_words(recommended: bool) -> str:
    """Which rungs a headline tile describes, in words (its help starts with them)."""
    return (
        "After the rungs worth adopting (the saved-per-day tile's)"
        if recommended
        else "After every rung"
    )


def _goodput_tile(lad: Ladder) -> dict[str, str]:
    """Goodput after the same rungs as the saved-per-day tile beside it (:func:`_after`)."""
    recommended, after = _after(lad)
    points = lad.recommended_delta_goodput_points if recommended else lad.total_delta_goodput_points
    return {
        "label": "Goodput, recommended rungs" if recommended else "Goodput, last rung",
        "value": format_value("goodput", after.goodput),
        **display.delta(display.change("goodput_delta", points / 100.0)),
        "help": f"{_after_words(recommended)}; the change is against the scenario as given. "
        + help_text("goodput"),
    }


def worth_caption(lad: Ladder) -> str:
    """In the recommended order: the features worth adopting here; else ""."""
    if lad.order != "recommended":
        return ""
    return f"Worth adopting here (each saves money at its rung): {worth_adopting(lad)}."


def sources_caption(table: pl.DataFrame) -> str:
    """Under the rung table (from :func:`rung_display`): each rung's sources."""
    return (
        "Sources by rung: "
        + "; ".join(
            f"{r} — {src}" for r, src in zip(table["Rung"][1:], table["Source"][1:], strict=True)
        )
        + "."
    )


def rung_text(lad: Ladder, table: pl.DataFrame, i: int) -> str:
    """Rung ``i`` in words (Markdown): what it saves or costs (the table's figure), its
    mechanism, cost, what it helps and its sources."""
    r = lad.rungs[i]
    f = FEATURES[r.feature]
    saves = table["Saves per day"][i]
    verb = "saves" if r.delta_usd_per_day >= 0 else "costs"
    return (
        f"**This rung {verb} {saves.lstrip('+−')}.**  \n"
        f"**Mechanism.** {f.mechanism}  \n**Cost.** {f.cost}  \n**Helps:** {f.acts_on_text}."
        f"  \n**Sources.** {f.source}"
    )


def montecarlo_spinner_text(lad: Ladder, trials: int) -> str:
    return f"Simulating {len(lad.rungs)} rungs × {int(trials):,} runs…"


#: A choice of runs or points as the page shows it ("1,000", not "1000").
runs_text = display.runs_text

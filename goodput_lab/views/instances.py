"""Tables behind the Instances and Optimizer pages: the one instance ranking as polars.

Both pages (and ``goodput instances`` / ``goodput optimize``) rank with
:func:`models.instances.rank_instances`, so they always name the same cheapest instance.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

import polars as pl

from goodput_lab.models import Scenario
from goodput_lab.models.catalog import Instance
from goodput_lab.models.instances import (
    InstanceRanking,
    VerdictRobustness,
    nodes_text,
    rank_instances,
    verdict_robustness,
)
from goodput_lab.models.outputs import NOT_IN_PRACTICE, finishes_in_practice, format_value
from goodput_lab.models.pricing import as_of_phrase
from goodput_lab.models.scenario import effective_params_billion
from goodput_lab.views import display


def ranking(
    scenario: Scenario,
    catalog: dict[str, Instance],
    deadline_days: float | None,
    prices: dict[str, float] | None = None,
    mfus: dict[str, float] | None = None,
) -> InstanceRanking:
    """The ranking of every catalog instance (see :mod:`models.instances`)."""
    return rank_instances(scenario, catalog, deadline_days=deadline_days, prices=prices, mfus=mfus)


def table(r: InstanceRanking) -> pl.DataFrame:
    """One row per instance, cheapest first (with the cost shares the charts need,
    :attr:`models.instances.InstanceOption.failure_share` and ``communication_share``)."""
    df = pl.DataFrame([row.to_dict() for row in r.rows], infer_schema_length=None)
    short = {
        "no public price: enter yours to compare cost": "no public price",
    }

    def note(row: dict) -> str:
        if row["reason"]:
            return short.get(row["reason"], "see below")
        if row["price_note"]:  # a price of another basis than the other rows' (issue 26)
            return f"scenario's price, {as_of_phrase(row['price_as_of'])}"
        return ""

    return df.with_columns(
        pl.struct("reason", "price_note", "price_as_of")
        .map_elements(note, return_dtype=pl.String)
        .alias("note"),
    )


#: Columns of the Instances page's side-by-side table: what each type costs (the table
#: the ranking is read from) ...
TABLE_COLUMNS = (
    "instance",
    "nodes",
    "usd_per_instance_hour",
    "time_to_train_days",
    "cost_to_train_usd",
    "usd_per_1e18_useful_flops",
    ("note", "Note"),
)
#: ... and, in a second table, why: its goodput, failure rate and MFU (ten columns in one
#: table did not fit a 1024 px window beside the sidebar)
WHY_COLUMNS = ("instance", "goodput", "node_failure_rate_per_day", "mfu")
#: The mark of a type too close to call against the cheapest: the one `goodput instances`
#: prints, on the pages and in the report alike (QA 27 #9: they wrote ≈ for the CLI's ~).
TOO_CLOSE_MARK = "~"


def display_rows(df: pl.DataFrame) -> list[dict]:
    """Rows for the side-by-side table: ★ on the cheapest, the paid spares beside the node
    count that the cost includes ("1,152 + 180 spare", :func:`models.instances.nodes_text`),
    and no node count or goodput for a type that cannot run the workload (its note says
    why)."""
    out = []
    for r in df.iter_rows(named=True):
        r = dict(r)
        if r.get("paid_spare_nodes"):  # the spares the cost counts (QA 26 #9)
            r["nodes"] = nodes_text(r["nodes"], r["paid_spare_nodes"])
        if r["cheapest"]:
            r["instance"] = f"{r['instance']} ★"
        if r.get("too_close_to_call"):  # explained by TOO_CLOSE_CAPTION under the table
            r["instance"] = f"{r['instance']} {TOO_CLOSE_MARK}"
        if not r["feasible"]:
            for k in ("nodes", "goodput", "time_to_train_days"):
                r[k] = None
        elif not finishes_in_practice(r["goodput"]):  # 64,820,175,270.2 days said nothing
            for k in ("time_to_train_days", "cost_to_train_usd", "usd_per_1e18_useful_flops"):
                r[k] = NOT_IN_PRACTICE
        out.append(r)
    return out


#: The caption under the side-by-side table when a row is marked too close to call.
TOO_CLOSE_CAPTION = (
    f"{TOO_CLOSE_MARK} too close to call: its 80% cost interval (the whiskers of the cost "
    "chart) overlaps the cheapest type's."
)
#: The same under the Optimizer's table, whose cost chart draws no interval.
TOO_CLOSE_CAPTION_OPTIMIZER = (
    f"{TOO_CLOSE_MARK} too close to call: its 80% cost interval overlaps the cheapest "
    "type's (the Instances page draws the intervals and says what would change the verdict)."
)


def too_close_text(ranking: InstanceRanking, esc: Callable[[str], str] = str) -> str:
    """The ranking's "too close to call" verdict as a sentence, with why the model names no
    winner (the Instances page's warning, the report's note); ``esc`` escapes the verdict,
    which names catalog instances."""
    text = esc(ranking.verdict())
    return (
        text[:1].upper()
        + text[1:]
        + ". The modelled step carries an 80% interval from the leave-one-source-out "
        "validation (docs/step-time.md), wider for a step of one or two micro-batches per "
        "data-parallel rank (held out, the model has been optimistic there); where two "
        "types' cost intervals overlap, the model cannot tell which is cheaper."
    )


def not_charted(df: pl.DataFrame) -> list[tuple[str, str]]:
    """(instance, why) for the types the cost chart leaves out (no cost to train)."""
    out = []
    for r in df.iter_rows(named=True):
        if not math.isfinite(r["cost_to_train_usd"]):
            out.append((r["instance"], r["reason"] or "cost cannot be computed"))
    return out


def not_charted_caption(df: pl.DataFrame) -> str:
    """Under the two charts: which types each leaves out, and why ("" when none): the time
    chart draws every type with a time to train, the cost chart only the priced ones (QA 18:
    "Not in the charts" named five types the time chart drew).  The types in neither chart
    are named only: their reasons (memory, catalog gaps) ran past the caption's length and
    were cut off mid-word, and the table's missing-figure note gives them in full."""
    missing = not_charted(df)
    if not missing:
        return ""
    no_time = {
        r["instance"]
        for r in df.iter_rows(named=True)
        if not math.isfinite(r["time_to_train_days"])
    }
    both = [(n, why) for n, why in missing if n in no_time]
    cost_only = [(n, why) for n, why in missing if n not in no_time]
    parts = []
    if cost_only:
        parts.append(
            "Not in the cost chart: " + "; ".join(f"{n} — {why}" for n, why in cost_only) + "."
        )
    if both:  # names only: their reasons are long, and under the side-by-side table
        parts.append(
            "In neither chart: "
            + ", ".join(n for n, _ in both)
            + " (why: under the side-by-side table)."
        )
    return " ".join(parts)


def cheapest(df: pl.DataFrame) -> dict | None:
    """The highlighted row as a dict, or None when no priced instance qualifies."""
    best = df.filter(pl.col("cheapest"))
    return best.row(0, named=True) if best.height else None


def robustness(
    scenario: Scenario,
    catalog: dict[str, Instance],
    ranking: InstanceRanking,
    prices: dict[str, float] | None = None,
) -> VerdictRobustness | None:
    """Break-even price and MFU of the verdict (:func:`models.instances.verdict_robustness`)."""
    return verdict_robustness(scenario, catalog, ranking, prices=prices)


def robustness_text(v: VerdictRobustness) -> str:
    """The verdict's robustness in one sentence, figures formatted from the registry."""
    fv = format_value
    if not v.mfu_applies:
        return (
            f"The verdict holds unless {v.cheapest}'s price rises above "
            f"{fv('verdict_break_even_usd_per_hour', v.break_even_usd_per_hour)} "
            f"(now {fv('usd_per_instance_hour', v.usd_per_instance_hour)}, "
            f"{fv('verdict_price_margin', v.price_margin, signed=True)}). The runner-up, "
            f"{v.runner_up}, would be the cheapest at a price below "
            f"{fv('break_even_usd_per_hour', v.runner_up_break_even_usd_per_hour)} (now "
            f"{fv('usd_per_instance_hour', v.runner_up_usd_per_instance_hour)}). No MFU "
            "break-even: the step is modelled from the system, so the MFU is an output here, "
            "not an input that can move (set workload.mfu_basis to end_to_end for one)."
        )
    holds = (
        f"The verdict holds unless {v.cheapest}'s price rises above "
        f"{fv('verdict_break_even_usd_per_hour', v.break_even_usd_per_hour)} "
        f"(now {fv('usd_per_instance_hour', v.usd_per_instance_hour)}, "
        f"{fv('verdict_price_margin', v.price_margin, signed=True)}) or its MFU falls below "
        f"{fv('verdict_break_even_mfu', v.break_even_mfu)} (now {fv('mfu', v.mfu)}, "
        f"{fv('verdict_mfu_margin', -v.mfu_margin, signed=True)})."
    )
    if math.isfinite(v.runner_up_break_even_mfu):
        mfu = (
            f"an MFU above {fv('runner_up_break_even_mfu', v.runner_up_break_even_mfu)} "
            f"(now {fv('mfu', v.runner_up_mfu)})"
        )
    else:
        mfu = (
            f"no MFU up to its measured maximum ({fv('mfu', v.runner_up_mfu_cap)}) would be enough"
        )
    runner = (
        f" The runner-up, {v.runner_up}, would be the cheapest at a price below "
        f"{fv('break_even_usd_per_hour', v.runner_up_break_even_usd_per_hour)} (now "
        f"{fv('usd_per_instance_hour', v.runner_up_usd_per_instance_hour)}) or with {mfu}."
    )
    return holds + runner


# --------------------------------------------------------------------------- page text
# What the Instances page shows, ready to place (the page formats no number itself); ``esc``
# escapes text from a catalog or a user (sources, notes) for the page.
def workload_caption(scenario: Scenario) -> str:
    """The workload every instance is ranked on, and what changes between them."""
    return (
        f"Train {effective_params_billion(scenario):,.4g}B parameters on "
        f"{scenario['workload.tokens_trillion']:g}T tokens (set the workload in the sidebar): "
        "each instance keeps the sidebar's recovery, checkpoint, network and parallelism "
        "settings; the node type and count change, and with them the failure rate, MFU and "
        "price by the rules listed under the ranking."
    )


def catalog_caption(inst: Instance, esc: Callable[[str], str] = str) -> str:
    """Beside an instance's price and MFU inputs: the catalog's price and published MFU."""
    price = (
        f"${inst.usd_per_hour:,.2f}/h ({as_of_phrase(inst.price_as_of)})"
        if inst.usd_per_hour is not None
        else "no public price"
    )
    return f"{price}; published MFU {inst.mfu_default:.0%} ({esc(inst.source_mfu)})"


def verdict_text(
    best: Mapping[str, Any],
    deadline: float | None,
    mfu_basis: str,
    esc: Callable[[str], str] = str,
) -> str:
    """The cheapest instance in one sentence (Markdown): nodes, time, cost, price and the
    shares of failures and of exposed communication."""
    when = f"within {deadline:g} days" if deadline else "at the scenario's accelerator count"
    if not math.isfinite(best["communication_share"]):
        comm = "exposed communication cannot be split out of the step"
    else:
        comm = (
            "exposed communication "
            + format_value("communication_share", best["communication_share"])
            + (
                " (inside the end-to-end MFU, not added)"
                if mfu_basis == "end_to_end"
                else " (added to compute)"
            )
        )
    return (
        f"Cheapest {when}: **{best['instance']} × {_nodes_words(best)}**, "
        f"{format_value('time_to_train_days', best['time_to_train_days'])}, "
        f"**{format_value('cost_to_train_usd', best['cost_to_train_usd'])}** at "
        f"{format_value('usd_per_instance_hour', best['usd_per_instance_hour'])} "
        f"per instance ({esc(best['price_source'])}, "
        f"{esc(as_of_phrase(best['price_as_of']))}). Failures and checkpoints cost "
        f"{format_value('failure_share', best['failure_share'])} of it; {comm}."
    )


def _nodes_words(row: Mapping[str, Any]) -> str:
    """ "1,152 nodes + 180 spare" (the paid spares the cost includes), "576 nodes" without."""
    spare = nodes_text(row["nodes"], row.get("paid_spare_nodes", 0.0))
    return f"{row['nodes']:,.0f} nodes" + spare.removeprefix(f"{row['nodes']:,.0f}")


def verdict_tiles(best: Mapping[str, Any]) -> list[list[dict[str, str]]]:
    """Two rows of two tiles: the cheapest instance beside its node count (with the paid
    spares the cost includes, "1,152 + 180 spare"), then its time and cost to train (each
    figure stays whole at 1024 px)."""
    nodes = display.tile("nodes", best["nodes"])
    if best.get("paid_spare_nodes"):
        nodes["value"] = nodes_text(best["nodes"], best["paid_spare_nodes"])
        nodes["help"] += " Beside them, the paid spare nodes the cost to train includes."
    return [
        [
            {
                "label": "Cheapest instance",
                "value": best["instance"],
                "help": "Lowest cost to train among priced types.",
            },
            nodes,
        ],
        [
            display.tile("time_to_train_days", best["time_to_train_days"]),
            display.tile("cost_to_train_usd", best["cost_to_train_usd"]),
        ],
    ]


def mfu_gap_warning(best: Mapping[str, Any]) -> str:
    """When the network model's exposed time exceeds what the end-to-end MFU leaves, else ""."""
    if not best["mfu_gap_exceeded"]:
        return ""
    share = format_value("exposed_comm_fraction_of_step", best["exposed_comm_fraction_of_step"])
    return (
        f"The network model's exposed communication and bubble ({share} of the step) exceed "
        "what this end-to-end MFU leaves for them: the MFU is optimistic for this "
        "parallelism and fabric (or switch the MFU basis to compute_only)."
    )


def break_even_notes(r: InstanceRanking) -> list[str]:
    """One sentence per unpriced instance: the price below which it would be cheapest."""
    return [
        f"{row.instance}: no public price — it would be the cheapest below "
        f"{format_value('break_even_usd_per_hour', row.break_even_usd_per_hour)} "
        "per instance (enter your price above)."
        for row in r.rows
        if not row.price_known and math.isfinite(row.break_even_usd_per_hour)
    ]


def robustness_tiles(v: VerdictRobustness) -> list[dict[str, str]]:
    """The verdict's break-even price and margin, and (for a measured MFU) break-even MFU
    and margin."""
    tiles = [
        display.tile("verdict_break_even_usd_per_hour", v.break_even_usd_per_hour),
        display.tile("verdict_price_margin", v.price_margin),
    ]
    if v.mfu_applies:  # a modelled step has no MFU to move (said in the text)
        tiles += [
            display.tile("verdict_break_even_mfu", v.break_even_mfu),
            display.tile("verdict_mfu_margin", v.mfu_margin),
        ]
    return tiles


def ranking_display(df: pl.DataFrame) -> pl.DataFrame:
    """The Instances page's side-by-side table of costs (:data:`TABLE_COLUMNS`)."""
    return display.table(display_rows(df), TABLE_COLUMNS)


def ranking_why_display(df: pl.DataFrame, mfu_basis: str = "end_to_end") -> pl.DataFrame:
    """The Instances page's second table: goodput, failure rate and MFU per type
    (:data:`WHY_COLUMNS`), rows in the ranking's order.  Under the modelled step
    (``workload.mfu_basis`` = modelled) the MFU shown is the modelled one behind the times
    (``effective_mfu``), not the stated one they do not read."""
    modelled = mfu_basis == "modelled"
    cols = (*WHY_COLUMNS[:-1], "effective_mfu") if modelled else WHY_COLUMNS
    return display.table(display_rows(df), cols)


#: The Optimizer's instance table.
OPTIMIZER_COLUMNS = (
    "instance",
    "nodes",
    "usd_per_instance_hour",
    "goodput",
    "time_to_train_days",
    "cost_to_train_usd",
    ("note", "Note"),
)


def optimizer_display(df: pl.DataFrame) -> pl.DataFrame:
    """The Optimizer page's instance table (:data:`OPTIMIZER_COLUMNS`)."""
    return display.table(display_rows(df), OPTIMIZER_COLUMNS)


def instance_label(name: str, inst: Instance) -> str:
    """An instance and its accelerators, on two lines (Markdown)."""
    return f"{name}  \n{inst.accelerators_per_node} × {inst.accelerator}"

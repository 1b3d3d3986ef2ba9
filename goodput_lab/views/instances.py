"""Tables behind the Instances and Optimizer pages: the one instance ranking as polars.

Both pages (and ``goodput instances`` / ``goodput optimize``) rank with
:func:`models.instances.rank_instances`, so they always name the same cheapest instance.
"""

from __future__ import annotations

import math

import polars as pl

from goodput_lab.models import Scenario
from goodput_lab.models.catalog import Instance
from goodput_lab.models.instances import (
    InstanceRanking,
    VerdictRobustness,
    rank_instances,
    verdict_robustness,
)
from goodput_lab.models.outputs import format_value


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
    """One row per instance, cheapest first, with the shares charts and tables need."""
    df = pl.DataFrame([row.to_dict() for row in r.rows], infer_schema_length=None)
    short = {
        "no public price: enter yours to compare cost": "no public price",
    }

    def note(row: dict) -> str:
        if row["reason"]:
            return short.get(row["reason"], "see below")
        if row["price_note"]:  # a price of another basis than the other rows' (issue 26)
            return f"scenario's price, as of {row['price_as_of']}"
        return ""

    return df.with_columns(
        pl.struct("reason", "price_note", "price_as_of")
        .map_elements(note, return_dtype=pl.String)
        .alias("note"),
        (pl.col("cost_failure_and_checkpoint_usd") / pl.col("cost_to_train_usd")).alias(
            "failure_share"
        ),
        # added (compute_only) or inside the MFU (end_to_end): one of the two is 0
        (
            (pl.col("cost_communication_usd") + pl.col("cost_communication_within_mfu_usd"))
            / pl.col("cost_to_train_usd")
        ).alias("communication_share"),
    )


#: Columns of the Instances page's side-by-side table.
TABLE_COLUMNS = (
    "instance",
    "nodes",
    "usd_per_instance_hour",
    "time_to_train_days",
    "cost_to_train_usd",
    "usd_per_1e18_useful_flops",
    "goodput",
    "node_failure_rate_per_day",
    "mfu",
    ("note", "Note"),
)


def display_rows(df: pl.DataFrame) -> list[dict]:
    """Rows for the side-by-side table: ★ on the cheapest, and no node count or goodput for
    a type that cannot run the workload (its note says why)."""
    out = []
    for r in df.iter_rows(named=True):
        r = dict(r)
        if r["cheapest"]:
            r["instance"] = f"{r['instance']} ★"
        if r.get("too_close_to_call"):  # explained by TOO_CLOSE_CAPTION under the table
            r["instance"] = f"{r['instance']} ≈"
        if not r["feasible"]:
            for k in ("nodes", "goodput", "time_to_train_days"):
                r[k] = None
        out.append(r)
    return out


#: The caption under the side-by-side table when a row is marked ≈.
TOO_CLOSE_CAPTION = (
    "≈ too close to call: its 80% cost interval (the whiskers of the cost chart) overlaps "
    "the cheapest type's."
)


def not_charted(df: pl.DataFrame) -> list[tuple[str, str]]:
    """(instance, why) for the types the time and cost charts leave out."""
    out = []
    for r in df.iter_rows(named=True):
        if not math.isfinite(r["cost_to_train_usd"]):
            out.append((r["instance"], r["reason"] or "cost cannot be computed"))
    return out


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

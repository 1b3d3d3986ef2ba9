"""Tables behind the Plan page: Capacity Block curve, the bill by pricing model, storage.

Calls models.plan and models.optimize and returns polars frames of formatted text (labels and
formats from the output registry); no Streamlit here (caching lives in dashboard/cache.py).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import polars as pl

from goodput_lab.models import Evaluation, Scenario, resolve_inputs
from goodput_lab.models import optimize as opt
from goodput_lab.models._text import as_sentence
from goodput_lab.models.catalog import Instance
from goodput_lab.models.choices import PricingModel
from goodput_lab.models.outputs import COMPACT_USD_FROM, format_usd_compact, format_value
from goodput_lab.models.plan import BlockPlan, budget_by_pricing_model, plan_capacity_block
from goodput_lab.models.pricing import TERMS, price_date_phrase
from goodput_lab.views import display


def plan(
    scenario: Scenario,
    catalog: Mapping[str, Instance],
    trials: int,
    seed: int,
    block_days: float | None,
    risk: float,
    prices: Mapping[str, float] | None = None,
) -> BlockPlan:
    """The Capacity Block plan (:func:`models.plan.plan_capacity_block`); ``prices``, the
    rates entered on the page by pricing model, give the block's rate (``capacity_block``)
    and the rate after it (``on_demand``), as ``goodput plan --price`` does."""
    return plan_capacity_block(
        scenario,
        trials=trials,
        seed=seed,
        block_days=block_days,
        risk=risk,
        catalog=catalog,
        prices=dict(prices) if prices else None,
    )


def curve_frame(p: BlockPlan) -> pl.DataFrame:
    """Per purchasable block length: completion probability [%] and costs [million USD]."""
    rows = p.curve
    return pl.DataFrame(
        {
            "block_days": [r["block_days"] for r in rows],
            "probability_pct": [100.0 * r["probability_finish"] for r in rows],
            "expected_cost_musd": [r["expected_total_cost_usd"] / 1e6 for r in rows],
            "p90_cost_musd": [r["p90_total_cost_usd"] / 1e6 for r in rows],
        }
    )


def x_window(p: BlockPlan) -> tuple[float, float]:
    """The block lengths worth drawing: four weeks either side of the run and the choice."""
    finite = [v for v in (p.block_days_p50, p.block_days_p99, p.block_days) if math.isfinite(v)]
    lo = max(0.0, min(finite, default=1.0) - 28.0)
    hi = min(186.0, max(finite, default=182.0) + 28.0)
    return lo, max(hi, lo + 14.0)


def no_block_reason(
    scenario: Scenario,
    catalog: Mapping[str, Instance],
    prices: Mapping[str, float] | None = None,
) -> str:
    """Why the page plans no block (:func:`models.plan.no_block_price`; "" when it can,
    also when ``prices`` holds an entered Capacity Block rate)."""
    from goodput_lab.models.plan import no_block_price

    # the sidebar holds both fields
    return no_block_price(scenario, catalog, how="", prices=dict(prices) if prices else None)


def budget(
    scenario: Scenario,
    catalog: Mapping[str, Instance],
    prices: Mapping[str, float],
    plan: BlockPlan | None = None,
) -> list[dict[str, Any]]:
    """The bill by pricing model (:func:`models.plan.budget_by_pricing_model`); with
    ``plan``, its Capacity Block row is that plan's block."""
    return budget_by_pricing_model(scenario, catalog, prices, plan)


def _usd(key: str, row: Mapping[str, Any], col: str, *, compact: bool = False) -> str:
    """A dollar cell; ``compact``: from :data:`COMPACT_USD_FROM` on in millions or billions,
    as the tiles write them ($436.6M), so the bill fits a 1,024-pixel window."""
    v = row.get(col)
    if not row["available"]:
        return "—"
    if compact and v is not None and math.isfinite(v) and abs(v) >= COMPACT_USD_FROM:
        return format_usd_compact(v)
    return format_value(key, v, unit=False)


def _budget_note(r: Mapping[str, Any]) -> str:
    note = r["reason"] if r["reason"] else ("your scenario's model" if r["own"] else "")
    if r.get("basis"):  # the Plan's block above, from its simulated runs
        note = "; ".join(n for n in (note, r["basis"]) if n)
    if not r["available"]:
        note = "no public price: enter yours in the rates box above"
    return note


#: The bill's dollar columns: (header, output key = the row's column).
BILL_USD = (
    ("Per day", "total_usd_per_day"),
    ("Per month", "total_usd_per_month"),
    ("Whole run", "total_cost_to_train_usd"),
    ("Failures and checkpoints", "failures_and_checkpoints_usd"),
)
#: What the bill's CSV holds per pricing model, exact (the rows' keys, as goodput plan
#: --json writes them under "budget").
BILL_CSV_KEYS = (
    "pricing_model",
    "label",
    "usd_per_instance_hour",
    "usd_per_instance_hour_effective",
    *(k for _, k in BILL_USD),
    "time_to_train_days",
    "block_days",
)
BILL_COMPACT_NOTE = (
    "From $10M on, amounts are rounded to millions ($M) or billions ($B), as on the tiles; "
    "the CSV holds them unrounded."
)


def budget_table(rows: list[dict[str, Any]]) -> pl.DataFrame:
    """The bill by pricing model, side by side, as text (dollars from the output registry,
    from $10M on compact as on the tiles: :data:`BILL_COMPACT_NOTE`; exact in
    :func:`budget_csv`): what each costs.  Where each price comes from is
    :func:`budget_terms_table` (one table of both did not fit a 1,024-pixel window)."""
    out = []
    for r in rows:
        ok = r["available"]
        out.append(
            {
                "Pricing model": r["label"],
                "Rate ($/h)": _usd("usd_per_instance_hour", r, "usd_per_instance_hour"),
                **{head: _usd(key, r, key, compact=True) for head, key in BILL_USD},
                "Time to train (days)": format_value(
                    "time_to_train_days", r.get("time_to_train_days"), unit=False
                )
                if ok
                else "—",
                "Block (days)": format_value(
                    "block_days_purchasable", r.get("block_days"), unit=False
                )
                if ok and r["pricing_model"] == "capacity_block"
                else "—",
            }
        )
    return pl.DataFrame(out)


def budget_csv(rows: list[dict[str, Any]]) -> bytes:
    """The bill by pricing model as CSV, every amount exact (plain numbers in the units
    their keys name; empty where a model has no price)."""
    out = [
        {
            k: (
                None
                if not r["available"] and k not in ("pricing_model", "label")
                else None
                if isinstance(r.get(k), float) and not math.isfinite(r[k])
                else r.get(k)
            )
            for k in BILL_CSV_KEYS
        }
        for r in rows
    ]
    schema = {
        k: pl.String if k in ("pricing_model", "label") else pl.Float64 for k in BILL_CSV_KEYS
    }
    return pl.DataFrame(out, schema=schema).write_csv().encode()


def budget_terms_table(rows: list[dict[str, Any]]) -> pl.DataFrame:
    """The same pricing models' terms as priced here: the effective rate, commitment, whether
    idle hours are paid, the price's date and a note (the plan's block, a missing price)."""
    return pl.DataFrame(
        [
            {
                "Pricing model": r["label"],
                "Effective ($/h)": _usd(
                    "usd_per_instance_hour_effective", r, "usd_per_instance_hour_effective"
                ),
                "Commitment": r["commitment"],
                "Idle hours paid": "yes" if r["idle_paid"] else "no",
                "Price as of": r.get("price_as_of", "—") if r["available"] else "—",
                "Note": _budget_note(r),
            }
            for r in rows
        ]
    )


def models_without_price(rows: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """(model value, label) of the models the user has to price."""
    return [(r["pricing_model"], r["label"]) for r in rows if not r["available"]]


#: The storage table's whole-run column: the analytic expected run, as the bill's rows
#: other than the Capacity Block (QA 28 #15: unlabelled beside the plan's simulated runs).
WHOLE_RUN = "Whole run (expected run)"


def storage_table(ev: Evaluation) -> pl.DataFrame:
    """The checkpoint storage lines per day and over the expected run of the analytic model
    (:data:`WHOLE_RUN`; :func:`storage_caption` says which run that is), as text."""
    m = ev.metrics
    rows = []
    # only the durable tier in use is charged (models.chain.storage_cost): its line's whole
    # run is the chain's cost_to_train_storage_usd; the spares' is cost_to_train_spares_usd
    for key, whole_key, label in (
        (
            "storage_file_system_usd_per_day",
            "cost_to_train_storage_usd",
            "Shared file system (provisioned capacity)",
        ),
        (
            "storage_object_usd_per_day",
            "cost_to_train_storage_usd",
            "Object storage (retained checkpoints and requests)",
        ),
        ("spare_usd_per_day", "cost_to_train_spares_usd", "Idle spare nodes"),
    ):
        per_day = m[key]
        whole = m[whole_key] if per_day else 0.0
        rows.append(
            {
                "Line": label,
                "Per day": format_value("storage_usd_per_day", per_day, unit=False),
                WHOLE_RUN: format_value("cost_to_train_storage_usd", whole, unit=False)
                if math.isfinite(whole)
                else "n/a",
            }
        )
    return pl.DataFrame(rows)


def storage_caption(ev: Evaluation) -> str:
    """Under the storage table: which run its whole-run column is, and why the Capacity
    Block's expected storage above differs from it."""
    days = format_value("time_to_train_days", ev["time_to_train_days"])
    return (
        f"Whole run: the expected run of the analytic model ({days}), as the bill's rows "
        "other than the Capacity Block. The Capacity Block's expected storage above is the "
        "mean over its simulated runs, each with its own wall time."
    )


def file_system(scenario: Scenario, catalog: Mapping[str, Instance]):
    """The file-system recommendation, or None when the shared file system is not used."""
    if scenario["checkpoint.durable_tier"] != "shared_fs":
        return None
    return opt.recommend_file_system(resolve_inputs(scenario, catalog))


def file_system_table(rec: opt.FileSystemRecommendation) -> pl.DataFrame:
    """Current and recommended file system side by side, as text."""
    rows = []
    for name, tib, tp, save, storage, lost in (
        (
            "Current",
            rec.current_provisioned_TiB,
            rec.current_throughput_MBps_per_TiB,
            rec.current_save_seconds,
            rec.current_storage_usd_per_day,
            rec.current_lost_usd_per_day,
        ),
        (
            # among the file systems that deliver the scenario's stated save: it can lose
            # more than the current one, whose figures take that save as given
            f"Least lost per day of those that save within {rec.assumed_save_seconds:g} s"
            if math.isfinite(rec.assumed_save_seconds)
            else "Least lost per day",
            rec.provisioned_TiB,
            rec.throughput_MBps_per_TiB,
            rec.save_seconds,
            rec.storage_usd_per_day,
            rec.lost_usd_per_day,
        ),
    ):
        save_text = format_value("save_seconds", save, unit=False)
        slower = rec.current_deliverable_save_seconds
        if name == "Current" and math.isfinite(slower) and slower > save * (1.0 + 1e-9):
            # the stated save, which this file system does not deliver (the tier model's)
            save_text += (
                f" stated; {format_value('save_seconds', slower, unit=False)} by the tier model"
            )
        rows.append(
            {
                "File system": name,
                "Size (TiB)": format_value("file_system_TiB", tib, unit=False),
                "Throughput (MB/s/TiB)": format_value(
                    "file_system_throughput_MBps_per_TiB", tp, unit=False
                ),
                "Blocking save (s)": save_text,
                "Storage ($/day)": format_value("storage_usd_per_day", storage, unit=False),
                "Lost ($/day)": format_value("lost_usd_per_day", lost, unit=False),
            }
        )
    return pl.DataFrame(rows)


def terms_table() -> pl.DataFrame:
    """Each pricing model's terms, as words."""
    return pl.DataFrame(
        [
            {
                "Pricing model": t.label,
                "Commitment": t.commitment,
                "Payment": t.upfront,
                "Idle hours paid": "yes" if t.idle_paid else "no",
                "Interruptible": "yes" if t.interruptible else "no",
                "Rules": t.notes,
            }
            for m, t in TERMS.items()
            if m is not PricingModel.CUSTOM
        ]
    )


# --------------------------------------------------------------------------- page text
# What the Plan page shows, ready to place (the page formats no number itself).
def intro_caption(scenario: Scenario) -> str:
    return (
        f"{scenario['cluster.nodes']:,} nodes. A Capacity Block is paid up front for whole "
        "days whether the job is productive or not; a run that has not finished when it "
        "ends continues at a fallback price. From the Monte Carlo wall time to finish, each "
        "run drawing its own node failure rate and step time from their 80% intervals as "
        "Decide does: the block each completion probability needs, and what a block really "
        "costs."
    )


#: What every completion probability and risk on the page integrates (QA 28 #9: the risk
#: held at the point estimates only, beside Decide's probability over the intervals).
OVER_INTERVALS = (
    " Over the failure-rate and step-time intervals: each simulated run draws its own "
    "(the runs of Decide and `goodput plan --deadline-days`), not at the point estimates."
)


def spinner_text(trials: int) -> str:
    return f"Simulating {int(trials):,} runs…"


def _tile(label: str, key: str, value: Any, *, over_intervals: bool = False) -> dict[str, str]:
    """The registry's tile of ``key`` (millions from $10M on) under the page's label;
    ``over_intervals``: its help says the figure integrates both intervals."""
    t = {**display.tile(key, value), "label": label}
    if over_intervals:
        t["help"] += OVER_INTERVALS
    return t


def block_tiles(p: BlockPlan) -> list[list[dict[str, str]]]:
    """Three rows of tiles: the block each completion probability needs; the block, its
    completion probability and the failure-free compute; expected and P90 total cost."""
    return [
        [
            _tile(
                "Block for 50% completion", "block_days_p50", p.block_days_p50, over_intervals=True
            ),
            _tile(
                "Block for 90% completion", "block_days_p90", p.block_days_p90, over_intervals=True
            ),
            _tile(
                "Block for 99% completion", "block_days_p99", p.block_days_p99, over_intervals=True
            ),
        ],
        [
            _tile("Block length", "block_days", p.block_days),
            _tile(
                "Finishes within the block",
                "probability_finish_within_block",
                p.probability_finish_within_block,
                over_intervals=True,
            ),
            _tile("Failure-free compute", "compute_days", p.compute_days),
        ],
        [
            _tile("Expected total cost", "expected_total_cost_usd", p.expected_total_cost_usd),
            _tile("P90 total cost", "p90_total_cost_usd", p.p90_total_cost_usd),
        ],
    ]


def _money(key: str, v: float) -> str:
    """An amount in a sentence beside the tiles, as they write it: from
    :data:`COMPACT_USD_FROM` on in millions or billions ("expected total $185.3M" under the
    tile's $185.3M, not "$185,272,571")."""
    if v is not None and math.isfinite(v) and abs(v) >= COMPACT_USD_FROM:
        return format_usd_compact(v)
    return format_value(key, v)


def cheapest_block_text(p: BlockPlan, risk_pct: int) -> str:
    """The cheapest block that finishes with probability at least 100% − ``risk_pct``
    (Markdown), or "" when none does."""
    if not math.isfinite(p.cheapest_block_days):
        return ""
    text = (
        f"Cheapest block that the run ends inside with probability at least {100 - risk_pct}% "
        "over the failure-rate and step-time intervals: "
        f"**{p.cheapest_block_days:g} days**, expected total "
        f"{_money('expected_total_cost_usd', p.cheapest_block_expected_total_cost_usd)} "
        "(ends inside it in "
        f"{format_value('cheapest_block_probability_finish', p.cheapest_block_probability_finish)}"
        " of runs)."
    )
    return text + least_cost_text(p)


def least_cost_text(p: BlockPlan) -> str:
    """The sentence on the least expected total over every block length, when a shorter
    block with the hours after it at the overrun price costs less than the block within the
    risk ("" otherwise; QA 18: 98 days was called the cheapest where 91 days and an overrun
    cost $6M less)."""
    best = p.least_cost_block()
    if best is None or best["block_days"] == p.cheapest_block_days:
        return ""
    return (
        f" The least expected total over every block length is a {best['block_days']:g}-day "
        f"block: {_money('expected_total_cost_usd', best['expected_total_cost_usd'])} "
        f"(P90 {_money('p90_total_cost_usd', best['p90_total_cost_usd'])}), the run "
        f"outlasting it in {format_value('probability_finish_within_block', 1.0 - best['probability_finish'])} "
        "of runs and going on at the overrun price, if that capacity is there."
    )


def block_notes(p: BlockPlan) -> list[str]:
    """The plan's notes (``BlockPlan.notes``, as `goodput plan` prints them) as sentences for
    the page: a capital first letter and a full stop ("No Capacity Block of at most 182
    days ...", not "no Capacity Block ... or an extension")."""
    return [as_sentence(n) for n in p.notes if n]


def block_caption(p: BlockPlan) -> str:
    """The block's prices, instances and cost parts, and the runs behind them: what each
    run draws (:meth:`models.plan.BlockPlan.basis_text`), and the storage over the runs'
    own wall times, said as such (QA 28 #15: "expected storage $547,452" here beside the
    storage table's $547,352 of the analytic run, unlabelled)."""
    return (
        "Block rate "
        f"{format_value('capacity_block_usd_per_instance_hour', p.block_price.usd_per_instance_hour)} "
        f"per instance ({price_date_phrase(p.block_price)}); after the block "
        f"{format_value('overrun_usd_per_instance_hour', p.overrun_price.usd_per_instance_hour)} "
        f"({price_date_phrase(p.overrun_price)}); {p.blocks_text()}; block price "
        f"{format_value('block_cost_usd', p.block_cost_usd)}, expected overrun "
        f"{format_value('expected_overrun_cost_usd', p.expected_overrun_cost_usd)}, expected "
        f"storage {format_value('expected_storage_cost_usd', p.expected_storage_cost_usd)} "
        "over the simulated runs (mean wall time "
        f"{format_value('time_to_finish_mean_days', p.time_to_finish_mean_days)}). "
        f"{p.trials:,} runs, seed {p.seed}: {as_sentence(p.basis_text())} The same figures "
        "as `goodput plan` with these settings."
    )


def file_system_caption(scenario: Scenario, rec: Any) -> str:
    """Above the file-system table: what is compared and the retention it must hold."""
    return (
        "A larger or faster shared file system saves and restores faster but costs more per "
        "GB-month: every purchasable size and priced throughput tier, compared on lost "
        "dollars per day (goodput loss + spares + storage), holding "
        f"{scenario['storage.retained_checkpoints']} retained checkpoints "
        f"({format_value('file_system_TiB', rec.min_TiB_for_retention)})."
    )


#: A choice of runs or points as the page shows it ("1,000", not "1000").
runs_text = display.runs_text

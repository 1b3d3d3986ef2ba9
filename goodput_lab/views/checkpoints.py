"""Tables behind the Checkpoints page: tier table, strategy comparison, waste U-curves,
replica survival and the "in-memory checkpoints vs this scenario" answer.

The page has one baseline: the sidebar's scenario, evaluated with the page's tier table.
Every alternative (a strategy, in-memory replicas) is compared with it through
:func:`models.compare`, and each row says where its save/restore times come from (the
measured, entered times or the tier model) and whether its interval is the one set or the
optimum, since two rows on different bases can differ for that reason alone.

Calls :mod:`models` only (no model math here) and returns polars DataFrames.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl

from goodput_lab.models import Scenario, compare, evaluate, evaluate_arrays, resolve_inputs
from goodput_lab.models import checkpoint as ck
from goodput_lab.models.catalog import Instance
from goodput_lab.models.evaluate import savings_usd_per_day
from goodput_lab.models.outputs import fallback_share_of_failures
from goodput_lab.views import display

#: Strategy variants compared side by side: (label, scenario overrides).  Every variant uses
#: the tier model for save/restore times and the optimal level-1 interval.
VARIANTS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("Durable only, sync", {"checkpoint.strategy": "durable_only", "checkpoint.save_mode": "sync"}),
    (
        "Durable only, async",
        {"checkpoint.strategy": "durable_only", "checkpoint.save_mode": "async"},
    ),
    (
        "NVMe + durable, async",
        {"checkpoint.strategy": "nvme+durable", "checkpoint.save_mode": "async"},
    ),
    (
        "Memory + durable, sync",
        {"checkpoint.strategy": "memory+durable", "checkpoint.save_mode": "sync"},
    ),
    (
        "Memory + durable, async",
        {"checkpoint.strategy": "memory+durable", "checkpoint.save_mode": "async"},
    ),
)
BASELINE_LABEL = "This scenario (sidebar)"


def basis(scenario: Scenario) -> str:
    """Where the level-1 save/restore times of ``scenario`` come from, in words."""
    if scenario["checkpoint.timings"] == "measured":
        return "measured (entered)"
    return "tier model"


def interval_basis(scenario: Scenario) -> str:
    return "optimal" if scenario["checkpoint.interval_minutes"] == "optimal" else "as set"


def _words(scenario: Scenario, key: str) -> str:
    """A choice of ``scenario`` in the sidebar's words ("Durable tier only", not
    "durable_only")."""
    return display.choice_words(key, scenario[key])


def scenario_caption(scenario: Scenario, edited_tiers: bool) -> str:
    """Under "This scenario": its strategy, durable tier, save mode and the basis of its
    times and interval, in the sidebar's words (Markdown), and what the comparisons below
    are against."""
    return (
        f"Strategy **{_words(scenario, 'checkpoint.strategy')}**, durable tier "
        f"**{_words(scenario, 'checkpoint.durable_tier')}**, save mode "
        f"**{_words(scenario, 'checkpoint.save_mode')}**; save/restore times "
        f"**{basis(scenario)}**, interval **{interval_basis(scenario)}**. Every comparison "
        "below is against these figures"
        + (
            " (computed with the tier table as edited above; other pages use "
            "data/checkpoint_tiers.csv)."
            if edited_tiers
            else "; they equal the Overview's."
        )
    )


TIER_COLUMNS = (
    "tier",
    "label",
    "write_GBps_per_node",
    "read_GBps_per_node",
    "aggregate_write_GBps",
    "aggregate_read_GBps",
    "throughput_MBps_per_TiB",
    "provisioned_TiB",
    "fixed_seconds",
    "capacity_GB_per_node",
    "source",
)


#: Worded headers, units and number formats of the editable tier table.
TIER_EDITOR_COLUMNS: dict[str, Any] = {
    "tier": "Tier",
    "label": "Description",
    "write_GBps_per_node": "Write per node (GB/s)",
    "read_GBps_per_node": "Read per node (GB/s)",
    "aggregate_write_GBps": "Aggregate write cap (GB/s)",
    "aggregate_read_GBps": "Aggregate read cap (GB/s)",
    "throughput_MBps_per_TiB": "Throughput per TiB (MB/s)",
    "provisioned_TiB": "Provisioned (TiB)",
    "fixed_seconds": "Fixed overhead (s)",
    "capacity_GB_per_node": "Capacity per node (GB)",
    "source": "Source",
}


def tier_table(tiers: dict[str, ck.Tier]) -> pl.DataFrame:
    """The tier parameters as an editable table (one row per tier, empty = no limit)."""
    rows = [{c: getattr(t, c) for c in TIER_COLUMNS} for t in tiers.values()]
    schema = {
        c: (pl.String if c in ("tier", "label", "source") else pl.Float64) for c in TIER_COLUMNS
    }
    return pl.DataFrame(rows, schema=schema)


def tiers_from_table(df: pl.DataFrame) -> dict[str, ck.Tier]:
    """Validate an edited tier table through the strict CSV loader (ValidationError names the
    row and column, as for ``data/checkpoint_tiers.csv``)."""
    return ck.parse_tiers(df.select(TIER_COLUMNS).write_csv(), origin="tier table")


def variant(scenario: Scenario, overrides: dict[str, Any]) -> Scenario:
    """``scenario`` with tier-model timings, the optimal level-1 interval and ``overrides``."""
    return scenario.replace(
        {"checkpoint.timings": "tier_model", "checkpoint.interval_minutes": "optimal", **overrides}
    )


def strategy_table(
    scenario: Scenario, catalog: dict[str, Instance], tiers: dict[str, ck.Tier]
) -> pl.DataFrame:
    """This scenario, then each strategy variant: goodput, lost USD/day, savings versus this
    scenario (as :func:`models.compare` computes them) and the basis of each row's times."""
    rows = []
    base = evaluate(scenario, catalog, tiers)
    for label, s in [(BASELINE_LABEL, scenario)] + [
        (label, variant(scenario, over)) for label, over in VARIANTS
    ]:
        ev = base if s is scenario else evaluate(s, catalog, tiers)
        m = ev.metrics
        savings = savings_usd_per_day(base.metrics, m)[0]  # as models.compare reports it
        rows.append(
            {
                "strategy": label,
                "times": basis(s),
                "interval": interval_basis(s),
                "goodput": m["goodput"],
                "lost_usd_per_day": m["lost_usd_per_day"],
                "savings_usd_per_day": savings,
                "save_seconds": m["save_seconds"],
                "restore_seconds": m["restore_seconds"],
                "checkpoint_interval_minutes": m["checkpoint_interval_minutes"],
                "durable_interval_minutes": m["durable_interval_minutes"],
                "fallback_failures_per_day": m["fallback_failures_per_day"],
                "rework_minutes_per_failure": m["rework_minutes_per_failure"],
            }
        )
    return pl.DataFrame(rows)


def waste_curves(
    scenario: Scenario,
    catalog: dict[str, Instance],
    tiers: dict[str, ck.Tier],
    n: int = 160,
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Waste (1 − goodput, %) against the level-1 interval for every variant, and the optima.

    Returns (curves: strategy, interval_minutes, waste_pct; optima: strategy,
    interval_minutes, waste_pct).  The interval grid spans 0.1× to 10× each optimum.
    """
    curves, optima = [], []
    for label, sc in [(BASELINE_LABEL, scenario)] + [
        (label, variant(scenario, over)) for label, over in VARIANTS
    ]:
        inputs = resolve_inputs(sc, catalog, tiers)
        t_opt = float(np.asarray(evaluate_arrays(inputs)["optimal_checkpoint_interval_minutes"]))
        best = evaluate_arrays(
            {**inputs, "checkpoint.interval_optimal": False, "checkpoint.interval_minutes": t_opt}
        )
        grid = np.geomspace(max(t_opt / 10, 0.1), max(t_opt * 10, 1.0), n)
        out = evaluate_arrays(
            {**inputs, "checkpoint.interval_optimal": False, "checkpoint.interval_minutes": grid},
            broadcast=True,
        )
        curves.append(
            pl.DataFrame(
                {
                    "strategy": [label] * n,
                    "interval_minutes": grid,
                    "waste_pct": (1 - np.asarray(out["goodput"])) * 100,
                }
            )
        )
        optima.append(
            {
                "strategy": label,
                "interval_minutes": t_opt,
                "waste_pct": (1 - float(np.asarray(best["goodput"]))) * 100,
            }
        )
    return pl.concat(curves), pl.DataFrame(optima)


def replica_survival(
    scenario: Scenario,
    catalog: dict[str, Instance],
    tiers: dict[str, ck.Tier],
    replicas: tuple[int, ...] = (1, 2, 3, 4),
) -> pl.DataFrame:
    """Per replica count and placement: probability a failure leaves some shard without an
    in-memory copy (falls back to the durable tier), fallbacks per day, goodput, USD/day."""
    rows = []
    reps = np.asarray(replicas, dtype=float)
    for placement in ("adjacent", "spread"):
        s = variant(
            scenario,
            {"checkpoint.strategy": "memory+durable", "checkpoint.replica_placement": placement},
        )
        inputs = resolve_inputs(s, catalog, tiers)
        out = evaluate_arrays({**inputs, "checkpoint.memory_replicas": reps}, broadcast=True)
        for i, m in enumerate(replicas):
            rows.append(
                {
                    "placement": placement,
                    "replicas": m,
                    "fallback_probability": float(np.asarray(out["fallback_fraction"])[i]),
                    "fallback_failures_per_day": float(
                        np.asarray(out["fallback_failures_per_day"])[i]
                    ),
                    "goodput_pct": float(np.asarray(out["goodput"])[i]) * 100,
                    "lost_usd_per_day": float(np.asarray(out["lost_usd_per_day"])[i]),
                    "memory_required_GB_per_node": float(
                        np.asarray(out["memory_required_GB_per_node"])[i]
                    ),
                }
            )
    return pl.DataFrame(rows)


@dataclass(frozen=True)
class MemoryVsScenario:
    """Answer to "what would in-memory checkpoints with m replicas save here?"."""

    baseline: Scenario
    candidate: Scenario
    goodput_baseline: float
    goodput_candidate: float
    savings_usd_per_day: float
    assumptions: pl.DataFrame


def memory_vs_scenario(
    scenario: Scenario,
    catalog: dict[str, Instance],
    tiers: dict[str, ck.Tier],
    replicas: int = 2,
) -> MemoryVsScenario:
    """This scenario as set vs the same with checkpoints in CPU memory (``replicas`` copies,
    tier-model times, the optimal level-1 interval) plus its durable tier every
    ``checkpoint.durable_interval_minutes``, via :func:`models.compare`.  With the
    aws-16k-h100-sharedfs preset in the sidebar this is exactly ``goodput compare
    aws-16k-h100-sharedfs aws-16k-h100-memory``."""
    cand = scenario.replace(
        {
            "checkpoint.timings": "tier_model",
            "checkpoint.strategy": "memory+durable",
            "checkpoint.memory_replicas": replicas,
            "checkpoint.interval_minutes": "optimal",
        },
        name=f"CPU memory ({replicas} replicas) + {scenario['checkpoint.durable_tier']}",
    )
    c = compare(scenario, cand, catalog, tiers)
    b, k = c.baseline, c.candidate
    cand_head = f"Memory ({replicas} replicas) + durable"
    words = pl.DataFrame(
        {
            "Figure": ["Save/restore times", "Save mode"],
            "This scenario": [basis(scenario), _words(scenario, "checkpoint.save_mode")],
            cand_head: ["tier model", _words(scenario, "checkpoint.save_mode")],
        }
    )
    keys = (
        "checkpoint_size_TB",
        "save_seconds",
        "restore_seconds",
        "checkpoint_interval_minutes",
        "durable_interval_minutes",
        "fallback_fraction",
        "rework_minutes_per_failure",
        "goodput",
        "lost_usd_per_day",
    )
    rows = [{"key": key, "b": b[key], "c": k[key]} for key in keys]
    if b["domain_failures_per_day"] > 0:  # domain events fall back too: of all failures
        rows.insert(
            keys.index("fallback_fraction") + 1,
            {  # as goodput evaluate writes it
                "key": "fallback_share_of_failures",
                "b": fallback_share_of_failures(b.metrics),
                "c": fallback_share_of_failures(k.metrics),
            },
        )
    figures = display.metric_rows(rows, [("b", "This scenario"), ("c", cand_head)])
    if scenario["checkpoint.strategy"] == "durable_only":  # one level: every restore is durable
        shares = [
            display.OUTPUTS[key].label
            for key in ("fallback_fraction", "fallback_share_of_failures")
        ]
        figures = figures.with_columns(
            pl.when(pl.col("Figure").is_in(shares))
            .then(pl.lit("all (single level)"))
            .otherwise(pl.col("This scenario"))
            .alias("This scenario")
        )
    table = pl.concat([words, figures])
    return MemoryVsScenario(
        baseline=scenario,
        candidate=cand,
        goodput_baseline=b["goodput"],
        goodput_candidate=k["goodput"],
        savings_usd_per_day=c.savings_usd_per_day,
        assumptions=table,
    )


def tier_seconds(
    scenario: Scenario, catalog: dict[str, Instance], tiers: dict[str, ck.Tier]
) -> pl.DataFrame:
    """Per tier: its role in ``scenario`` and the synchronous save and restore seconds."""
    ev = evaluate(scenario, catalog, tiers)
    rows = [
        {k: r[k] for k in ("tier", "role", "save_seconds_sync", "restore_seconds")}
        for r in ev.checkpoint_tiers()
    ]
    return pl.DataFrame(rows)


# --------------------------------------------------------------------------- page text
# What the Checkpoints page shows, ready to place (the page formats no number itself).
def headline_tiles(scenario: Scenario, m: Any) -> list[list[dict[str, str]]]:
    """The two rows of four tiles under "This scenario" (``st.metric`` keyword arguments);
    the interval tile's help names the four interval formulas for this scenario."""
    fv = display.format_value
    interval = display.tile("checkpoint_interval_minutes", m["checkpoint_interval_minutes"])
    interval["help"] = (
        f"Optimal (exact) {fv('optimal_checkpoint_interval_minutes', m['optimal_checkpoint_interval_minutes'])}, "
        f"Young {fv('young_interval_minutes', m['young_interval_minutes'])}, Daly higher order "
        f"{fv('daly_higher_order_interval_minutes', m['daly_higher_order_interval_minutes'])}, Daly "
        f"first order {fv('daly_first_order_interval_minutes', m['daly_first_order_interval_minutes'])}"
        " (Young 1974; Daly 2006), all for this scenario's save time and failure rate."
    )
    if scenario["checkpoint.strategy"] == "durable_only":
        durable = {
            "label": display.OUTPUTS["optimal_durable_interval_minutes"].label,
            "value": "single level",
            "help": "A durable-only strategy has one level: its optimum is the checkpoint "
            "interval's.",
        }
    else:
        durable = display.tile(
            "optimal_durable_interval_minutes", m["optimal_durable_interval_minutes"]
        )
    return [
        [
            display.tile("save_seconds", m["save_seconds"]),
            display.tile("restore_seconds", m["restore_seconds"]),
            interval,
            display.tile("checkpoint_overhead_fraction", m["checkpoint_overhead_fraction"]),
        ],
        [
            display.tile("goodput", m["goodput"]),
            display.tile("rework_minutes_per_failure", m["rework_minutes_per_failure"]),
            display.tile("fallback_failures_per_day", m["fallback_failures_per_day"]),
            durable,
        ],
    ]


def memory_capacity_warning(scenario: Scenario, m: Any, tiers: dict[str, ck.Tier]) -> str:
    """Why in-memory checkpoints do not fit the memory tier, or "" when they do."""
    cap = tiers["memory"].capacity_GB_per_node
    need = m["checkpoint_shard_GB_per_node"] * scenario["checkpoint.memory_replicas"]
    if cap is None or need <= cap:
        return ""
    return (
        f"In-memory checkpoints need {need:,.0f} GB per node ({scenario['checkpoint.memory_replicas']}"
        f" replicas of a {m['checkpoint_shard_GB_per_node']:,.1f} GB shard) but the memory tier "
        f"holds {cap:,.0f} GB per node: use more nodes, fewer replicas or a larger allocation."
    )


def memory_tiles(answer: MemoryVsScenario, replicas: int) -> list[dict[str, str]]:
    """Three tiles: goodput as set, goodput with ``replicas`` in-memory copies (with its
    change as ``delta``), and what that saves per day."""
    return [
        {**display.tile("goodput", answer.goodput_baseline), "label": "Goodput, this scenario"},
        {
            **display.tile("goodput", answer.goodput_candidate),
            "label": f"Goodput, memory ({replicas} replicas) + durable",
            **display.delta(
                display.change("goodput", answer.goodput_candidate - answer.goodput_baseline)
            ),
        },
        display.tile("savings_usd_per_day", answer.savings_usd_per_day, savings=True),
    ]


def survival_caption(survival: pl.DataFrame, replicas: int, scenario: Scenario) -> str:
    """Under the replica chart: the chance a failure destroys every in-memory copy of a
    shard, per placement, for ``replicas`` copies, and the inputs it rests on."""
    now = survival.filter(survival["replicas"] == replicas)
    fv = display.field_value
    return (
        "Probability that a failure destroys every in-memory copy of some shard: "
        + "; ".join(
            f"{r['placement']} placement {display.format_value('fallback_fraction', r['fallback_probability'])}"
            for r in now.iter_rows(named=True)
        )
        + f" (node loss in {fv('checkpoint.node_loss_fraction', scenario['checkpoint.node_loss_fraction'])}"
        " of failures, re-replication window "
        f"{fv('checkpoint.rereplication_minutes', scenario['checkpoint.rereplication_minutes'])}, "
        f"{fv('checkpoint.correlated_fraction', scenario['checkpoint.correlated_fraction'])}"
        f" multi-node events of {scenario['checkpoint.correlated_nodes']:,} nodes)."
        + _domain_note(scenario)
    )


def _domain_note(scenario: Scenario) -> str:
    """With domain events: they are not among those failures, and each one falls back when
    the replicas sit on adjacent nodes (QA pass 20: the caption said 8.40% on NVL72 where
    rack events made most of the fallbacks)."""
    rate = scenario["reliability.domain_failure_rate_per_day"]
    if not rate > 0:
        return ""
    return (
        " Domain events (a rack or UltraServer out, "
        f"{display.field_value('reliability.domain_failure_rate_per_day', rate)} per "
        "domain-day) are not among these failures: each one takes every copy on its nodes "
        "with adjacent placement, and none with spread placement (the fallbacks per day "
        "count them)."
    )


def tier_seconds_display(ev: Any, tiers: dict[str, ck.Tier]) -> pl.DataFrame:
    """Each tier's role in this scenario and its synchronous save and restore seconds, as
    a display table."""
    return display.table(
        [
            {**r, "save_seconds": r["save_seconds_sync"], "name": tiers[r["tier"]].label}
            for r in ev.checkpoint_tiers()
        ],
        [
            ("name", "Tier"),
            ("role", "Role in this scenario"),
            ("save_seconds", "Save, synchronous (s)"),
            ("restore_seconds", "Restore (s)"),
        ],
    )


#: The strategy table's columns (:func:`strategy_table` rows): what each strategy is worth,
#: then (:data:`STRATEGY_TIME_COLUMNS`) its times; one table of both did not fit a
#: 1,024-pixel window.
STRATEGY_COLUMNS = (
    ("strategy", "Strategy"),
    ("times", "Save/restore times"),
    ("interval", "Interval"),
    "goodput",
    "lost_usd_per_day",
    ("savings_usd_per_day", "Saves or costs per day", "savings"),
)
STRATEGY_TIME_COLUMNS = (
    ("strategy", "Strategy"),
    "save_seconds",
    "restore_seconds",
    "checkpoint_interval_minutes",
    "rework_minutes_per_failure",
)


def strategy_display(table: pl.DataFrame) -> pl.DataFrame:
    """:func:`strategy_table` as a display table: what each strategy is worth."""
    return display.table(table, STRATEGY_COLUMNS)


def strategy_times_display(table: pl.DataFrame) -> pl.DataFrame:
    """:func:`strategy_table`'s times per strategy: save, restore, interval, rework."""
    return display.table(table, STRATEGY_TIME_COLUMNS)

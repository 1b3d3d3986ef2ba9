"""Table behind the Instances page: time and cost to train on every catalog instance."""

from __future__ import annotations

import polars as pl
from goodput_lab.models import Scenario
from goodput_lab.models.catalog import Instance
from goodput_lab.models.instances_compare import compare_instances

COLUMNS = [
    "cheapest",
    "instance",
    "accelerator",
    "nodes",
    "usd_per_instance_hour",
    "price_source",
    "mfu",
    "time_to_train_days",
    "meets_deadline",
    "cost_to_train_usd",
    "cost_compute_usd",
    "cost_communication_usd",
    "cost_bubble_usd",
    "cost_communication_within_mfu_usd",
    "cost_bubble_within_mfu_usd",
    "cost_failure_and_checkpoint_usd",
    "cost_spares_usd",
    "usd_per_1e18_useful_flops",
    "node_hours",
    "break_even_usd_per_hour",
    "goodput",
    "scaling_efficiency",
    "effective_mfu",
    "mfu_basis",
    "mfu_gap_exceeded",
    "exposed_comm_fraction_of_step",
    "peak_ratio_vs_reference",
    "modeled_ratio_vs_reference",
    "min_nodes_to_fit",
    "reason",
]


def comparison(
    scenario: Scenario,
    catalog: dict[str, Instance],
    deadline_days: float | None,
    prices: dict[str, float] | None = None,
    mfus: dict[str, float] | None = None,
) -> pl.DataFrame:
    """One row per instance (see :func:`models.instances_compare.compare_instances`)."""
    rows = compare_instances(
        scenario, catalog, deadline_days=deadline_days, prices=prices, mfus=mfus
    )
    df = pl.DataFrame(rows, infer_schema_length=None)
    return df.select(COLUMNS).with_columns(
        (pl.col("cost_failure_and_checkpoint_usd") / pl.col("cost_to_train_usd")).alias(
            "failure_share"
        ),
        # added (compute_only) or inside the MFU (end_to_end): one of the two is 0
        (
            (pl.col("cost_communication_usd") + pl.col("cost_communication_within_mfu_usd"))
            / pl.col("cost_to_train_usd")
        ).alias("communication_share"),
    )


def cheapest(df: pl.DataFrame) -> dict | None:
    """The highlighted row as a dict, or None when no priced instance qualifies."""
    best = df.filter(pl.col("cheapest"))
    return best.row(0, named=True) if best.height else None

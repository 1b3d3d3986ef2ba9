"""Tables behind the Instances and Optimizer pages: the one instance ranking as polars.

Both pages (and ``goodput instances`` / ``goodput optimize``) rank with
:func:`models.instances.rank_instances`, so they always name the same cheapest instance.
"""

from __future__ import annotations

import polars as pl
from goodput_lab.models import Scenario
from goodput_lab.models.catalog import Instance
from goodput_lab.models.instances import InstanceRanking, rank_instances


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
    return df.with_columns(
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

"""The shipped price tables against the published tables they cite.

* Storage: data/storage_prices_2022-09.csv holds FSx for Lustre PERSISTENT_2 prices per
  GB-month derived from one row (9.6 TiB) of Classmethod's 2022-09-03 table of hourly prices
  (ap-northeast-1); the other sizes of that table must come back to the cent.
* Capacity Blocks: data/prices_2024-12.csv holds the effective instance hourly rates of the
  AWS Capacity Blocks pricing page; the page's effective accelerator hourly rates must equal
  them divided by the accelerators per instance (to the mill, as printed).
"""

from __future__ import annotations

import pytest
from goodput_lab.models import pricing as pr

# Classmethod, "FSx for Lustre Persistent 2 のスペック別利用料金", 2022-09-03, ap-northeast-1:
# (storage TiB as GiB / 1,000, MB/s/TiB) -> USD per hour
CLASSMETHOD_2022_09_03 = {
    (1.2, 125): 0.31,
    (1.2, 250): 0.46,
    (2.4, 125): 0.62,
    (1.2, 500): 0.77,
    (2.4, 250): 0.93,
    (4.8, 125): 1.24,
    (7.2, 125): 1.86,
    (1.2, 1000): 1.39,
    (2.4, 500): 1.55,
    (4.8, 250): 1.85,
    (9.6, 125): 2.48,
    (7.2, 250): 2.78,
    (2.4, 1000): 2.79,
    (4.8, 500): 3.10,
    (9.6, 250): 3.71,
    (7.2, 500): 4.64,
    (4.8, 1000): 5.58,
    (9.6, 500): 6.19,
    (7.2, 1000): 8.37,
    (9.6, 1000): 11.16,
}

# AWS, Amazon EC2 Capacity Blocks for ML pricing (prices in force until 2025-01-01):
# instance -> (effective instance hourly rate, effective accelerator hourly rate)
AWS_CAPACITY_BLOCKS_2024_12 = {
    "p5.48xlarge": (39.33, 4.916),
    "p4d.24xlarge": (14.75, 1.844),
    "trn1.32xlarge": (15.49, 0.968),
}


@pytest.mark.parametrize(("size", "tier"), sorted(CLASSMETHOD_2022_09_03))
def test_fsx_prices_reproduce_classmethod_table(size, tier):
    prices = pr.load_storage_prices()
    usd_month = pr.fsx_usd_per_GB_month(prices, tier)
    hourly = usd_month * size * 1000 / pr.HOURS_PER_MONTH  # GiB billed as GB
    assert hourly == pytest.approx(CLASSMETHOD_2022_09_03[(size, tier)], abs=0.0051)


def test_fsx_rows_cite_their_source():
    for row in pr.fsx_tiers(pr.load_storage_prices()).values():
        assert row.region == "ap-northeast-1" and row.as_of == "2022-09-03"
        assert "Classmethod" in row.source


@pytest.mark.parametrize("instance", sorted(AWS_CAPACITY_BLOCKS_2024_12))
def test_capacity_block_rates_match_the_aws_page(instance, catalog):
    table = pr.load_price_table()
    row = table[(instance, "capacity_block")]
    per_instance, per_accelerator = AWS_CAPACITY_BLOCKS_2024_12[instance]
    assert row.usd_per_instance_hour == per_instance
    accels = catalog[instance].accelerators_per_node
    assert row.usd_per_instance_hour / accels == pytest.approx(per_accelerator, abs=5e-4)
    assert row.as_of == "2024-12" and "capacityblocks/pricing" in row.source


def test_s3_prices_as_cited():
    p = pr.load_storage_prices()
    assert p[(pr.S3_SERVICE, "storage", None)].usd == 0.023
    assert p[(pr.S3_SERVICE, "put_requests", None)].usd == 0.005
    assert p[(pr.S3_SERVICE, "get_requests", None)].usd == 0.0004

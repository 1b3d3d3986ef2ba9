"""QA 29 #8: catalog numbers have upper bounds as well as lower ones.

A price of 1e300 printed a 300-digit cost per day, 1e308 TFLOP/s gave overflow warnings and
a time to train, and a scale-up domain of 10^12 accelerators was accepted.  Each is now
refused in one line naming the row, the column and the allowed range; a catalog at every
column's maximum still evaluates to finite figures without a warning."""

from __future__ import annotations

import math
import warnings

import pytest
from goodput_lab.models import ValidationError, evaluate, load_preset
from goodput_lab.models.catalog import DEFAULT_CATALOG, parse_catalog
from goodput_lab.models.pricing import DEFAULT_PRICES, parse_price_table

from goodput_lab.cli.main import main

#: the p5.48xlarge row of the shipped catalog, up to its price's date
P5 = "p5.48xlarge,H100,8,80,3.35,989,1979,0.80,0.43,900,0.82,8,3200,2048,30400,55.04,"
COLUMNS = (
    "accelerators_per_node",
    "accel_memory_GiB",
    "hbm_TBps",
    "bf16_dense_tflops",
    "fp8_dense_tflops",
    "max_matmul_fraction",
    "mfu_default",
    "scaleup_GBps",
    "scaleup_efficiency",
    "scaleup_domain_accels",
    "efa_gbps",
    "host_memory_GiB",
    "local_nvme_GB",
    "usd_per_hour",
)


def _p5_with(**cells: str) -> str:
    values = dict(zip(COLUMNS, P5.split(",")[2:-1], strict=True))
    values.update(cells)
    row = ",".join(["p5.48xlarge", "H100", *(values[c] for c in COLUMNS)]) + ","
    text = DEFAULT_CATALOG.read_text(encoding="utf-8")
    assert text.count(P5) == 1
    return text.replace(P5, row)


@pytest.mark.parametrize(
    ("column", "value", "message"),
    [
        ("usd_per_hour", "1e300", "1e+300 is out of range (0, 10,000] USD/instance-h"),
        ("bf16_dense_tflops", "1e308", "1e+308 is out of range (0, 1,000,000] TFLOP/s"),
        ("fp8_dense_tflops", "2e6", "2e+06 is out of range (0, 1,000,000] TFLOP/s"),
        ("accel_memory_GiB", "1e7", "1e+07 is out of range (0, 10,000] GiB"),
        ("hbm_TBps", "5000", "5000 is out of range (0, 1,000] TB/s"),
        ("scaleup_GBps", "1e9", "1e+09 is out of range (0, 100,000] GB/s"),
        ("efa_gbps", "1e12", "1e+12 is out of range (0, 1,000,000] Gb/s"),
        ("host_memory_GiB", "1e9", "1e+09 is out of range [0, 1,000,000] GiB"),
        ("local_nvme_GB", "1e12", "1e+12 is out of range [0, 10,000,000] GB"),
        ("accelerators_per_node", "4096", "4096 is out of range [1, 1,024] accelerators"),
        (
            "scaleup_domain_accels",
            "1000000000000",
            "1e+12 is out of range [1, 8,192] accelerators (at most 1,024 nodes of 8, as "
            "cluster.nodes_per_domain)",
        ),
    ],
)
def test_a_number_above_its_columns_range_is_refused_naming_row_column_and_range(
    column, value, message
):
    with pytest.raises(ValidationError) as exc:
        parse_catalog(_p5_with(**{column: value}), origin="mine.csv")
    assert str(exc.value) == f"mine.csv row 3, column {column}: {message}"


def test_the_command_line_says_it_in_one_line_with_no_overflow_warning(tmp_path, capsys):
    path = tmp_path / "price.csv"
    path.write_text(_p5_with(usd_per_hour="1e300"), encoding="utf-8")
    rc = main(["evaluate", "llama3-70b", "--catalog", str(path)])
    err = capsys.readouterr().err
    assert rc != 0
    assert err.strip() == (
        "goodput: price.csv row 3, column usd_per_hour: 1e+300 is out of range "
        "(0, 10,000] USD/instance-h"
    )


def test_a_catalog_at_every_columns_maximum_evaluates_to_finite_figures():
    text = _p5_with(
        accelerators_per_node="8",
        accel_memory_GiB="10000",
        hbm_TBps="1000",
        bf16_dense_tflops="1000000",
        fp8_dense_tflops="1000000",
        scaleup_GBps="100000",
        scaleup_domain_accels="8192",
        efa_gbps="1000000",
        host_memory_GiB="1000000",
        local_nvme_GB="10000000",
        usd_per_hour="10000",
    )
    cat = parse_catalog(text)
    s = load_preset("llama3-70b")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no RuntimeWarning: overflow
        ev = evaluate(s, cat)
    d = ev.to_json_dict()
    assert d["cluster_usd_per_day"] == pytest.approx(128 * 10_000 * 24)  # 30,720,000
    for key in ("time_to_train_days", "total_cost_to_train_usd", "goodput"):
        assert math.isfinite(d[key]) and d[key] > 0, key


def test_the_shipped_catalog_is_inside_every_range():
    assert len(parse_catalog(DEFAULT_CATALOG.read_text(encoding="utf-8"))) >= 10


def test_the_dated_price_table_caps_a_price_as_the_scenario_does():
    text = DEFAULT_PRICES.read_text(encoding="utf-8")
    assert ",39.33," in text
    with pytest.raises(ValidationError) as exc:
        parse_price_table(text.replace(",39.33,", ",1e300,", 1), origin="prices.csv")
    assert str(exc.value).startswith("prices.csv row ")
    assert str(exc.value).endswith(
        "column usd_per_instance_hour: 1e+300 is out of range (a number in [0, 10,000] "
        "USD/instance-h)"
    )

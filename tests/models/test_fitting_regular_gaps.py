"""Nearly evenly spaced incidents (QA 29 #4): gaps a few seconds apart were refused ("the
Weibull fit did not converge"), losing the rate too.  Like exactly equal gaps, they give the
exponential alone: the Weibull likelihood still rises at the top of the shape range.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from goodput_lab.models.failure_log import parse_failure_log
from goodput_lab.models.fitting import WEIBULL_TBF_KEYS, fit_failure_log, fit_tbf

from goodput_lab.cli.main import main

#: one failure a night at 02:00:00-02:00:07 (a nightly job killing a node), 10 nights
SECONDS = (2, 1, 7, 7, 3, 0, 6, 0, 4, 3)
NIGHTLY = "timestamp,node_id,cause,downtime_minutes\n" + "".join(
    f"2025-03-{d:02d}T02:00:{s:02d}Z,node-{d},NCCL watchdog timeout,{20 + d}\n"
    for d, s in zip(range(1, 11), SECONDS, strict=True)
)


def weibull_quantiles(shape: float, n: int = 12) -> np.ndarray:
    """Gaps at the Weibull(shape, 1) quantiles (i − 0.5)/n: their MLE is close to ``shape``."""
    p = (np.arange(1, n + 1) - 0.5) / n
    return (-np.log1p(-p)) ** (1 / shape)


def test_gaps_seconds_apart_fit_the_exponential_alone():
    """9 gaps of 24 h ± 7 s: rate 9 / (9 days + 1 s) per h, every Weibull figure NaN."""
    t = fit_tbf(np.diff([24 * d + s / 3600 for d, s in enumerate(SECONDS)]))
    assert t["exp_rate_per_h"] == pytest.approx(9 / (9 * 24 + 1 / 3600), rel=1e-12)
    assert t["exp_mean_h"] == pytest.approx(24 + 1 / 3600 / 9, rel=1e-12)
    assert all(math.isnan(t[k]) for k in WEIBULL_TBF_KEYS)


def test_the_cut_is_the_likelihood_maximum_past_shape_100_not_a_gap_tolerance():
    """Gaps whose likelihood peaks at shape ~50 (spread ±4%) are fitted; those peaking at
    ~200 (±1%) are not: the profile likelihood still rises at 100, its top."""
    t = fit_tbf(weibull_quantiles(50.0))
    assert 45 < t["weibull_shape"] < 55 and t["weibull_shape_lo"] < t["weibull_shape"]
    assert all(math.isnan(fit_tbf(weibull_quantiles(200.0))[k]) for k in WEIBULL_TBF_KEYS)


def test_nightly_log_gives_rate_mtbf_and_repair_with_weibull_not_estimable(capsys, tmp_path):
    """Before: "goodput: failure log: the Weibull fit did not converge (shape outside
    0.02-100)", exit 2.  10 incidents over 9 days + 1 s on 512 nodes: 10 / (512 · 10 days)
    = 0.195% per node-day."""
    fit = fit_failure_log(parse_failure_log(NIGHTLY), 512)
    days = (9 + 1 / 86400) * 10 / 9
    assert fit.node_failure_rate_per_day == pytest.approx(10 / (512 * days), rel=1e-12)
    assert fit.repair["repair_hours_mean"] == pytest.approx(25.5 / 60)
    d = fit.to_json_dict()
    assert d["job_weibull_shape"] is None and d["job_weibull_scale_h"] is None
    path = tmp_path / "nightly.csv"
    path.write_text(NIGHTLY)
    assert main(["fit", str(path), "--nodes", "512"]) == 0
    out = capsys.readouterr().out
    assert "node failure rate          0.20% per node-day" in out
    assert "job MTBF (exponential)     24.00 h" in out
    assert (
        "job TBF Weibull            not estimable: the times between incidents differ by at "
        "most 12 s around 24.00 h"
    ) in out
    assert "--set reliability.node_failure_rate_per_day=0.00195312" in out


def test_three_dates_with_nanoseconds_fit():
    """QA 29's second repro: 2025-01-01T00:00:00.123456789Z, 01-05, 01-09."""
    log = parse_failure_log(
        "timestamp,node_id\n2025-01-01T00:00:00.123456789Z,a\n2025-01-05T00:00:00Z,b\n"
        "2025-01-09T00:00:00Z,c\n"
    )
    fit = fit_failure_log(log, 3)
    assert fit.tbf["exp_mean_h"] == pytest.approx(96 - 0.123456 / 3600 / 2, rel=1e-9)
    assert math.isnan(fit.tbf["weibull_shape"])

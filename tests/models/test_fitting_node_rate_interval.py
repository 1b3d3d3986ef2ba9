"""The node failure rate's interval is the exact Poisson (Garwood) interval of the node
incidents over the node exposure the rate uses (QA 29 #1), in the fit, its JSON, the
printed line and the 80% low/high of the ``--set`` line.

Hand figures: k node incidents over E = N · span · n/(n − 1) node-days (n incidents in
all); lower χ²(α/2; 2k)/(2E), upper χ²(1 − α/2; 2k + 2)/(2E) (Garwood 1936), lower 0 when
k = 0.
"""

from __future__ import annotations

import json

import pytest
from goodput_lab.models.failure_log import parse_failure_log
from goodput_lab.models.fitting import fit_failure_log, scenario_values
from scipy.stats import chi2

from goodput_lab.cli.main import main

#: ten incidents over 15 days (Jan 1 to Jan 16): eight marked as the job's own, two on nodes
DAYS = (1, 2, 4, 5, 7, 8, 11, 12, 14, 16)
ON_NODE = {5: "n1", 12: "n2"}
LOG = "timestamp,node_id,cause\n" + "".join(
    f"2026-01-{d:02d}T00:00:00Z,{ON_NODE.get(d, 'job')},x\n" for d in DAYS
)
#: every incident the job's own: no node id at all
ALL_JOB = "timestamp,node_id\n" + "".join(f"2026-01-{d:02d}T00:00:00Z,job\n" for d in DAYS)
#: the node exposure of 100 nodes: 15 days · 10/9 = 16.67 days, 1,666.7 node-days
EXPOSURE = 100 * 15 * 10 / 9


def garwood(k: int, exposure: float, level: float) -> tuple[float, float]:
    a = 1 - level
    lo = chi2.ppf(a / 2, 2 * k) / (2 * exposure) if k else 0.0
    return lo, chi2.ppf(1 - a / 2, 2 * k + 2) / (2 * exposure)


def test_node_rate_interval_is_the_garwood_interval_of_the_two_node_incidents():
    """Before: the total rate's interval (10 incidents) times the node share 2/10; two
    events give 0.015–0.43% per node-day (the exact interval)."""
    fit = fit_failure_log(parse_failure_log(LOG), 100)
    assert fit.node_failure_rate_per_day == pytest.approx(2 / EXPOSURE, rel=1e-12)
    lo, hi = garwood(2, EXPOSURE, 0.95)
    assert (lo, hi) == pytest.approx((1.4533e-4, 4.3348e-3), rel=1e-4)  # 0.015–0.43%
    assert fit.node_failure_rate_per_day_lo == pytest.approx(lo, rel=1e-12)
    assert fit.node_failure_rate_per_day_hi == pytest.approx(hi, rel=1e-12)
    d = fit.to_json_dict()
    assert (d["node_failure_rate_per_day_lo"], d["node_failure_rate_per_day_hi"]) == (
        pytest.approx(lo, rel=1e-12),
        pytest.approx(hi, rel=1e-12),
    )


def test_set_line_low_and_high_are_the_80_percent_garwood_interval_of_the_node_incidents():
    """Before: the 80% interval of 10 incidents around the node rate; now that of the 2
    node incidents, 0.000319–0.00319 per node-day."""
    fit = fit_failure_log(parse_failure_log(LOG), 100)
    values, _ = scenario_values(fit)
    lo, hi = garwood(2, EXPOSURE, 0.80)
    assert values["reliability.node_failure_rate_low"] == float(f"{lo:.6g}")  # 0.000319
    assert values["reliability.node_failure_rate_high"] == float(f"{hi:.6g}")  # 0.00319
    assert values["reliability.node_failure_rate_high"] == pytest.approx(0.00319, rel=2e-3)


def test_zero_node_failures_give_zero_to_the_exact_upper_bound(capsys, tmp_path):
    """Before: 0.00% (95% CI 0.00%) and no low/high on the --set line; reconcile's rule for
    zero events is lower 0, upper χ²(1 − α/2; 2)/(2E) = −ln(α/2)/E."""
    fit = fit_failure_log(parse_failure_log(ALL_JOB), 100)
    assert fit.node_failure_rate_per_day == 0.0
    assert fit.node_failure_rate_per_day_lo == 0.0
    assert fit.node_failure_rate_per_day_hi == pytest.approx(garwood(0, EXPOSURE, 0.95)[1])
    assert fit.node_failure_rate_per_day_hi == pytest.approx(3.68888 / EXPOSURE, rel=1e-5)
    values, _ = scenario_values(fit)
    assert values["reliability.node_failure_rate_per_day"] == 0.0
    assert values["reliability.node_failure_rate_low"] == 0.0
    high = garwood(0, EXPOSURE, 0.80)[1]  # ln(10)/E = 0.00138
    assert values["reliability.node_failure_rate_high"] == float(f"{high:.6g}")
    path = tmp_path / "alljob.csv"
    path.write_text(ALL_JOB)
    assert main(["fit", str(path), "--nodes", "100"]) == 0
    out = capsys.readouterr().out
    assert "node failure rate          0.00% per node-day (95% CI 0.00–0.22%, exact Poisson)" in out
    assert f"--set reliability.node_failure_rate_high={high:.6g}" in out


def test_a_log_without_node_ids_says_it_names_no_node_not_one_node(capsys, tmp_path):
    """Before: "nodes 1 (distinct node ids in the log ...)" and "only if the fleet is this
    1 node", though every id is the job's own mark.  Now: none named, no upper bound
    without a fleet size (null in the JSON), no low/high on the --set line."""
    fit = fit_failure_log(parse_failure_log(ALL_JOB))
    assert fit.nodes == 0 and fit.nodes_from_log
    assert fit.node_failure_rate_per_day == 0.0 and fit.node_failure_rate_per_day_lo == 0.0
    d = fit.to_json_dict()
    assert d["nodes"] == 0 and d["node_failure_rate_per_day_hi"] is None
    assert all(c["rate_per_node_day_hi"] is None for c in d["causes"])
    values, _ = scenario_values(fit)
    assert "reliability.node_failure_rate_high" not in values
    path = tmp_path / "alljob.csv"
    path.write_text(ALL_JOB)
    assert main(["fit", str(path)]) == 0
    out = capsys.readouterr().out
    assert "nodes                      none: every failure is marked as the job's own" in out
    assert "1 node" not in out and "nodes 1" not in out
    assert "no node failures; its upper bound needs the fleet size: pass --nodes" in out
    assert main(["fit", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["nodes"] == 0


def test_printed_line_reads_the_garwood_interval(capsys, tmp_path):
    path = tmp_path / "mostlyjob.csv"
    path.write_text(LOG)
    assert main(["fit", str(path), "--nodes", "100"]) == 0
    out = capsys.readouterr().out
    # 2/1,666.7 = 0.12% per node-day; 95% 0.015–0.43%
    assert "node failure rate          0.12% per node-day (95% CI 0.01–0.43%, exact Poisson)" in out
    lo, hi = garwood(2, EXPOSURE, 0.80)
    assert (
        f"--set reliability.node_failure_rate_low={lo:.6g} "
        f"--set reliability.node_failure_rate_high={hi:.6g}"
    ) in out

"""`goodput instances`: every candidate's 80% time and cost interval, and "too close to
call" where a candidate's cost interval overlaps the cheapest type's (issue 27)."""

from __future__ import annotations

import json
import math

from goodput_lab.cli.main import main
from tests.conftest import ROOT

LLAMA70 = str(ROOT / "data" / "scenarios" / "llama3-70b.toml")


def _json(capsys, *args: str) -> dict:
    assert main(list(args)) == 0
    return json.loads(capsys.readouterr().out)


def test_instances_json_gives_intervals_and_marks_overlaps_with_the_winner(capsys):
    d = _json(capsys, "instances", "--scenario", LLAMA70, "--deadline-days", "45", "--json")
    rows = d["instances"]
    best = next(r for r in rows if r["cheapest"])
    assert best["too_close_to_call"] is False
    for r in rows:
        for k in (
            "time_to_train_days_low",
            "time_to_train_days_high",
            "cost_to_train_usd_low",
            "cost_to_train_usd_high",
        ):
            assert k in r
        if r["feasible"]:
            assert r["time_to_train_days_low"] < r["time_to_train_days"]
            assert r["time_to_train_days"] < r["time_to_train_days_high"]
        if r["cost_to_train_usd"] is not None and r["cost_to_train_usd_low"] is not None:
            assert r["cost_to_train_usd_low"] < r["cost_to_train_usd"] < r["cost_to_train_usd_high"]
        overlaps = (
            r is not best
            and r["cheapest"] is False
            and r["cost_to_train_usd_low"] is not None
            and math.isfinite(r["cost_to_train_usd_low"])
            and r["meets_deadline"]
            and r["cost_to_train_usd_low"] <= best["cost_to_train_usd_high"]
        )
        assert r["too_close_to_call"] is overlaps, r["instance"]
    # the B200 and H200 nodes cost within the H100's interval on this workload
    assert set(d["too_close_to_call"]) == {r["instance"] for r in rows if r["too_close_to_call"]}
    assert d["too_close_to_call"]
    assert d["verdict"].startswith("too close to call")


def test_instances_text_says_too_close_to_call(capsys):
    assert main(["instances", "--scenario", LLAMA70, "--deadline-days", "45"]) == 0
    out = capsys.readouterr().out
    assert "80% interval:" in out
    assert "~ too close to call" in out


def test_verdict_says_which_overlapping_types_are_dearer_at_both_ends(capsys):
    """QA pass 19 #5: p5en has p5's step on llama3-70b and is dearer at every point of the
    shared interval, yet read as a tie.  The flag stays the issue's overlap rule; the verdict
    adds which overlapping types are dearer at both ends (a shared step error leaves the
    winner cheapest), and B200, cheaper at one end, is not among them."""
    from goodput_lab.models import load_catalog, load_preset
    from goodput_lab.models.instances import dearer_at_both_ends, rank_instances

    r = rank_instances(load_preset("llama3-70b"), load_catalog(), deadline_days=45.0)
    best = r.cheapest
    assert best.instance == "p5.48xlarge"
    close = {x.instance: x for x in r.too_close_to_call}
    assert set(close) == {"p6-b200.48xlarge", "p5en.48xlarge"}
    assert dearer_at_both_ends(close["p5en.48xlarge"], best)
    assert not dearer_at_both_ends(close["p6-b200.48xlarge"], best)
    assert r.verdict().endswith(
        "; p5en.48xlarge is dearer at both ends of the intervals too, so if the step model "
        "errs alike on every type p5.48xlarge stays cheapest"
    )


def test_deadline_met_only_at_the_point_estimate_is_said(capsys):
    """QA pass 19 #4: 44.8 days against a 45-day deadline, 62.3 at the step time's 80%
    high end, and neither the CLI nor the page said so; the page's time chart had no
    whiskers."""
    from goodput_lab.models import load_catalog, load_preset
    from goodput_lab.models.instances import rank_instances

    from goodput_lab.charts.instances import time_to_train_chart
    from goodput_lab.views import instances as svc

    # 60 days: 512 nodes (the counts whose replicas split the 2,048-sequence batch into
    # whole micro-batches go 512, 1,024; QA 28 #4), 51.1 days, 71.1 at the high end
    r = rank_instances(load_preset("llama3-70b"), load_catalog(), deadline_days=60.0)
    best = r.cheapest
    assert best.time_to_train_days <= 60.0 < best.time_to_train_days_high
    risk = r.deadline_risk()
    assert risk.startswith(
        "the 60-day deadline is met at the point estimate only: p5.48xlarge × 512 nodes takes"
    )
    assert f"days, {best.time_to_train_days_high:,.1f} at the high end" in risk
    d = _json(capsys, "instances", "--scenario", LLAMA70, "--deadline-days", "60", "--json")
    assert d["deadline_risk"] == risk
    assert rank_instances(load_preset("llama3-70b"), load_catalog()).deadline_risk() == ""
    fig = time_to_train_chart(svc.table(r), 60.0)
    whisk = [t for t in fig.data if t.error_x and t.error_x.array is not None]
    assert len(whisk) == 1 and "whiskers" in fig.layout.title.subtitle.text


def test_instances_takes_the_scenario_as_the_other_commands_do(capsys):
    """QA pass 19 #16: `goodput optimize SCENARIO` but `goodput instances --scenario FILE`;
    instances now takes either (the same ranking), and refuses two different ones."""
    pos = _json(capsys, "instances", "llama3-70b", "--deadline-days", "45", "--json")
    opt = _json(capsys, "instances", "--scenario", LLAMA70, "--deadline-days", "45", "--json")
    assert pos["cheapest"] == opt["cheapest"] and pos["cheapest_nodes"] == opt["cheapest_nodes"]
    assert main(["instances", "llama3-70b", "--scenario", "llama3-8b"]) == 2
    assert "two scenarios given" in capsys.readouterr().err


def test_json_says_the_mfu_is_not_read_under_the_modelled_step(capsys):
    """QA pass 19 #12: p5's row said mfu 0.4, "the scenario's MFU", for a modelled step."""
    d = _json(capsys, "instances", "llama3-70b", "--json")
    p5 = next(r for r in d["instances"] if r["instance"] == "p5.48xlarge")
    assert p5["mfu_source"].startswith("not read: the step time is modelled")
    assert 0 < p5["effective_mfu"] < 1

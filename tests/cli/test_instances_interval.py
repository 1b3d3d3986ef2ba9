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

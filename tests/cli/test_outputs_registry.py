"""Every figure the CLI prints as JSON is in the output registry (models/outputs.py), and
`goodput outputs` lists the registry."""

from __future__ import annotations

import json

import pytest
from goodput_lab.models.outputs import OUTPUTS, format_value

from goodput_lab.cli.main import main

#: Keys that structure the JSON rather than report a figure (names, nested tables whose rows
#: repeat registered figures, the scenario's own inputs).
STRUCTURE = {
    "scenario",
    "scenario_name",
    "baseline",
    "candidate",
    "baseline_name",
    "candidate_name",
    "differences",
    "loss_breakdown",
    "savings_by_component",
    "badput",
    "domain_spares",
    "checkpoint_tiers",
    "instances",
    "rules",
    "instance_rules",
    "params_billion",
    "tokens_trillion",
    "outputs",
}


def _json(capsys, *args: str) -> dict:
    code = main([*args, "--json"])
    assert code == 0
    return json.loads(capsys.readouterr().out)


def _unregistered(obj, path="") -> list[str]:
    out = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            if k in STRUCTURE:
                continue
            if k not in OUTPUTS:
                out.append(f"{path}{k}")
            if isinstance(v, dict):
                out += _unregistered(v, f"{path}{k}.")
    return out


@pytest.mark.parametrize(
    "args",
    [
        ("evaluate", "aws-16k-h100"),
        ("evaluate", "hyperpod-tiered-16k-h100"),
        ("compare", "aws-16k-h100", "aws-16k-h100-improved"),
        ("optimize", "aws-16k-h100", "--deadline-days", "45"),
        ("simulate", "aws-16k-h100", "--trials", "20", "--days", "2"),
    ],
)
def test_every_json_figure_is_registered(capsys, args):
    d = _json(capsys, *args)
    assert _unregistered(d) == []
    for side in ("baseline", "candidate"):
        if side in d:
            assert _unregistered(d[side]) == []


def test_instance_rows_are_registered(capsys):
    d = _json(capsys, "instances", "--scenario", "aws-16k-h100", "--deadline-days", "45")
    assert _unregistered(d) == []
    for row in d["instances"]:
        assert [k for k in row if k not in OUTPUTS] == []


def test_outputs_command_lists_the_registry(capsys):
    d = _json(capsys, "outputs")
    keys = [o["key"] for o in d["outputs"]]
    assert len(keys) == len(OUTPUTS) == len(set(keys))
    goodput = next(o for o in d["outputs"] if o["key"] == "goodput")
    assert goodput["unit"] == "fraction" and "doi:10.1016/j.future.2004.11.016" in goodput["source"]
    # every figure names the function computing it, in the JSON and the text
    assert goodput["computed_by"] == "goodput_lab.models.chain.goodput_step"
    assert all(
        o["computed_by"].startswith("goodput_lab.models.")
        or o["computed_by"].startswith(
            ("goodput_lab.views.", "goodput_lab.engine.", "goodput_lab.cli.")
        )
        for o in d["outputs"]
    )
    assert main(["outputs"]) == 0
    text = capsys.readouterr().out
    assert "lost_usd_per_day [USD/day]" in text
    assert text.count("      computed by goodput_lab.") == len(OUTPUTS)


@pytest.mark.parametrize(
    ("key", "value", "text"),
    [
        ("goodput", 0.758, "75.80%"),
        ("cost_to_train_usd", 401_509_362.0, "$401,509,362"),
        ("lost_usd_per_day", -8360.4, "−$8,360/day"),
        # a flow in whole dollars at any size: a column read −$180.22 beside +$234,664
        ("delta_usd_per_day", -180.22, "−$180/day"),
        ("savings_usd_per_year", 512.6, "$513/year"),
        ("usd_per_instance_hour", 98.32, "$98.32/h"),
        ("goodput_delta", 0.0403317, "+4.03 points"),
        ("goodput_delta", -0.00001, "0.00 points"),
        # a size in points (a loss, a swing) carries no sign: the reroute table read
        # "Goodput lost +0.10"
        ("fabric_goodput_loss", 0.001, "0.10 points"),
        ("goodput_swing", 0.0312, "3.12 points"),
        ("nodes", 2000.0, "2,000 nodes"),
        ("memory_fits", 1.0, "yes"),
        ("training_flops", 3.7908e25, "3.79 × 10²⁵ FLOP"),
        ("mtbf_hours", float("nan"), "n/a"),
        # failures per day in two decimals, as node failures and fabric aborts per day
        # (the Overview tile and goodput evaluate read "4.000"); a rate too small for them
        # in two significant digits, as a tiny percentage (one node at 0.2% a day)
        ("failures_per_day", 4.0, "4.00 per day"),
        ("node_failures_per_day", 4.0, "4.00 per day"),
        ("failures_per_day", 0.002, "0.002 per day"),
        ("failures_per_day", 0.0, "0.00 per day"),
    ],
)
def test_format_value_reads_like_a_person_wrote_it(key, value, text):
    assert format_value(key, value) == text

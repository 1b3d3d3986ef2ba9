"""Defects of a QA pass over the command line: overrides that round-trip, counts and words,
figures that cannot be computed, formats and help text."""

from __future__ import annotations

import json

from goodput_lab.models import load_catalog, load_preset
from goodput_lab.models.decide import Config, PriceOption, config_scenario, set_arguments


def _round_trip(base, sets):
    return base.with_overrides(sets)


def test_the_choices_overrides_keep_the_scenarios_own_price_date_and_round_trip():
    base = load_preset("p6e-gb200-nvl72")
    cat = load_catalog()
    own = cat[base["cluster.instance"]]
    cfg = Config(own.instance, int(base["cluster.nodes"]) + 8, 2, "durable_only", (), 4.3)
    price = base["pricing.usd_per_instance_hour"]
    opt = PriceOption(base["pricing.model"], price, base["pricing.price_source"], "2026-09", True)
    final = config_scenario(base, cfg, cat, {}, opt)
    assert final["pricing.price_as_of"] == base["pricing.price_as_of"] == "2026-09"
    sets = set_arguments(base, final)
    assert not any(s.startswith("pricing.price_") for s in sets)
    assert _round_trip(base, sets) == final


def test_a_price_entered_for_the_decision_states_no_date_and_the_override_round_trips():
    base = load_preset("p6e-gb200-nvl72")
    cat = load_catalog()
    cfg = Config(base["cluster.instance"], int(base["cluster.nodes"]), 0, "durable_only", (), 5.0)
    opt = PriceOption("spot", 12.5, "entered for this decision", "now", True)
    final = config_scenario(base, cfg, cat, {}, opt)
    assert final["pricing.price_as_of"] is None
    sets = set_arguments(base, final)
    assert "pricing.price_as_of=" in sets  # empty: not stated (not the text 'none')
    assert not any(s.endswith("=none") and s.startswith("pricing.price_") for s in sets)
    again = _round_trip(base, sets)
    assert again["pricing.price_as_of"] is None
    assert again == final


def _run(capsys, *argv):
    from goodput_lab.cli.main import main

    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_compare_says_which_sides_step_is_not_computed_and_writes_null_for_what_rests_on_it(
    capsys,
):
    args = ("compare", "llama3-8b", "llama3-8b", "--set-candidate", "cluster.nodes=512")
    code, out, _ = _run(capsys, *args)
    assert code == 0
    assert "note: the candidate's step time is not computed: " in out
    assert "0.50 sequences per step" in out
    assert "baseline's step time" not in out
    code, out, _ = _run(capsys, *args, "--json")
    d = json.loads(out)
    assert d["productive_time_ratio"] is None
    assert d["step_time_savings_usd_per_day"] is None
    step = next(r for r in d["savings_by_component"] if r["component"] == "step_time")
    assert step["usd_per_day"] is None
    assert d["reason"].startswith("the candidate's step time is not computed: ")
    # both computed: the figures stay numbers and no reason is written
    code, out, _ = _run(capsys, "compare", "llama3-8b", "llama3-8b", "--json")
    d = json.loads(out)
    assert d["productive_time_ratio"] == 1.0 and "reason" not in d

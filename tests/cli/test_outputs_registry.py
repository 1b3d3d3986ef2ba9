"""Every figure the CLI prints as JSON is in the output registry (models/outputs.py), and
`goodput outputs` lists the registry.

Every command's ``--json`` is walked through nested objects and lists of objects: each key
is a registered output, a table's column that the registry holds under another name
(:data:`COLUMNS`), or a key that only structures the JSON (:data:`STRUCTURE`).  The
scenario a command echoes holds inputs, not figures: its keys are checked against the
scenario fields (models.fields) instead."""

from __future__ import annotations

import contextlib
import io
import json
import tempfile
from functools import cache
from pathlib import Path

import pytest
from goodput_lab.models.fields import FIELDS
from goodput_lab.models.outputs import JSON_COLUMNS, JSON_TOP_LEVEL, OUTPUTS, format_value

from goodput_lab.cli.main import main
from tests.conftest import DATA_DIR

#: Keys that structure the JSON rather than report a figure.  Their values are walked too:
#: a container's rows and objects are checked key by key.
STRUCTURE = {
    # containers (objects and lists of rows)
    "baseline",  # goodput compare's evaluations; in differences[], the baseline's input value
    "candidate",  # likewise for the candidate
    "differences",
    "loss_breakdown",
    "savings_by_component",
    "badput",
    "domain_spares",
    "best_without_hot_spares",  # domain_spares' options: the best alone, the best of each policy
    "best_in_domain",
    "best_spare_domains",
    "options",
    "checkpoint_tiers",
    "instances",
    "causes",
    "curve",
    "budget",
    "file_system",
    "current",  # goodput plan's file_system: the scenario's own file system
    "rungs",
    "changes",
    "assumptions",
    "savings_by_cause",
    "feature_catalog",
    "parameters",
    "buckets",  # goodput reconcile: rows keyed by badput bucket (KEYED_BY_NAME)
    "timeline_buckets",
    "fitted",
    "what_if",
    "outputs",
    # names and ids of scenarios and rows
    "scenario_name",
    "baseline_name",
    "candidate_name",
    "label",
    "name",  # a feature parameter's name (hot_spares.spares)
    "field",  # a scenario field's name (differences[], a rung's changes[])
    "component",  # a loss component's id
    "kind",  # a loss row's "time" or "cost"; the registry's format kind
    "tier",  # a checkpoint tier's name
    "role",  # the tier's role in the strategy, in words
    "policy",  # a spares-by-domain option's name (none, in_domain, spare_domains)
    "category",  # a failure cause's id in the Llama 3 taxonomy
    "group",  # the taxonomy's group of the cause
    "node_id",  # a lemon node's id in the log
    "feature",  # a resilience feature's id
    # words, not figures: rules, the log's own cause names, fixed terms and documentation
    "rules",
    "instance_rules",
    "causes_in_log",
    "commitment",  # a pricing model's term (plan budget rows), fixed words of models.pricing
    "upfront",
    "basis",  # what a value rests on: a budget row's block, an assumption's or default's source
    "what",  # a rung's assumption: what is assumed, its value as written, its basis
    "value",
    "mechanism",  # the ladder's feature catalogue: how a feature works, what it costs ...
    "cost",
    "acts_on",
    "source",
    "references",  # bibliography keys
    "unit",  # a feature parameter's unit; a registry entry's unit
    "montecarlo_tolerance",  # the fixed rule behind montecarlo_within_tolerance
    "order",  # goodput ladder: "recommended" or "given" (--features)
    # the scenario's own inputs, echoed
    "params_billion",
    "tokens_trillion",
    "before",  # a rung's change of a field: the value before and after
    "after",
    "default",  # a feature parameter's default
    # goodput outputs: the fields of a registry entry
    "key",
    "section",
    "meaning",
    "formula",
    "computed_by",
    "json_names",  # where a figure appears in --json under a name of its own
}

#: Objects keyed by a name (a badput bucket) rather than by a figure: their rows are walked.
KEYED_BY_NAME = {"buckets", "timeline_buckets"}

#: The registry's JSON names (models.outputs): table columns and one command's top-level keys
#: that the registry holds under another key.  TOP_LEVEL is keyed by run (RUNS).
COLUMNS = JSON_COLUMNS
#: Keys that structure the JSON inside one container only (elsewhere they are figures):
#: a registry entry's bibliography key in goodput outputs.
STRUCTURE_IN: dict[str, set[str]] = {"outputs": {"reference"}}

#: The scenario's descriptive keys beside its sections of fields.
SCENARIO_TEXT = ("name", "description")

TIMELINE = str(DATA_DIR / "timelines" / "example-run.csv")
STEPFUN = str(DATA_DIR / "failure_logs" / "stepfun-infinitehbd-2024.csv")
SYNTHETIC = str(DATA_DIR / "failure_logs" / "synthetic-sample.csv")
DECIDE = ("--confidence", "0.8", "--trials", "100", "--workers", "0")
DECIDE += ("--instances", "p5.48xlarge", "--quiet")

#: One run of every command that prints JSON (small Monte Carlo sizes), and the variants
#: whose JSON holds more: tiers in use, domain spares, no Capacity Block price, a what-if,
#: simulated rungs, a decision that misses its target.  name -> (exit status, arguments).
RUNS: dict[str, tuple[int, tuple[str, ...]]] = {
    "evaluate": (0, ("evaluate", "aws-16k-h100")),
    "evaluate-tiered": (0, ("evaluate", "hyperpod-tiered-16k-h100")),
    "compare": (0, ("compare", "aws-16k-h100", "aws-16k-h100-improved")),
    "compare-instances": (0, ("compare", "aws-16k-h100", "p6e-gb200-nvl72")),
    "optimize": (0, ("optimize", "aws-16k-h100", "--deadline-days", "45")),
    "optimize-domains": (0, ("optimize", "p6e-gb200-nvl72")),
    "simulate": (0, ("simulate", "aws-16k-h100", "--trials", "20", "--days", "2")),
    "instances": (0, ("instances", "--scenario", "aws-16k-h100", "--deadline-days", "45")),
    "fit": (0, ("fit", STEPFUN)),
    "fit-synthetic": (0, ("fit", SYNTHETIC)),
    "reconcile": (
        0,
        ("reconcile", TIMELINE, "--trials", "20", "--set", "checkpoint.interval_minutes=30"),
    ),
    "plan": (0, ("plan", "aws-16k-h100", "--trials", "50", "--deadline-days", "45")),
    "plan-no-block": (0, ("plan", "p6e-gb200-nvl72", "--trials", "50", "--price", "spot=20")),
    "ladder": (0, ("ladder", "aws-16k-h100", "--trials", "20", "--days", "1", "--fit", SYNTHETIC)),
    "sweep": (
        0,
        ("sweep", "aws-16k-h100", "--vary", "cluster.nodes=1000:2000:3", "--trials", "10"),
    ),
    "decide": (0, ("decide", "llama3-8b", "--deadline-days", "16", *DECIDE)),
    "decide-misses": (1, ("decide", "llama3-8b", "--deadline-days", "2", *DECIDE)),
    "outputs": (0, ("outputs",)),
}


#: each run's top-level keys that the registry holds under another key (JSON_TOP_LEVEL, by
#: the run's command)
TOP_LEVEL: dict[str, dict[str, str]] = {
    run: JSON_TOP_LEVEL[args[0]] for run, (_, args) in RUNS.items() if args[0] in JSON_TOP_LEVEL
}


#: where the sweep writes its Parquet file (removed when the test process ends)
_SWEEP_DIR = tempfile.TemporaryDirectory(prefix="goodput-json-")


@cache
def printed(name: str) -> dict:
    """The JSON ``goodput <RUNS[name]> --json`` prints (run once per test process)."""
    code, args = RUNS[name]
    if args[0] == "sweep":  # run once per process (cached): no earlier sweep's file there
        out = Path(_SWEEP_DIR.name) / "sweep.parquet"
        args = (*args, "--days", "1", "--workers", "1", "-o", str(out))
    stdout = io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(io.StringIO()):
        assert main([*args, "--json"]) == code, name
    return json.loads(stdout.getvalue())


def _not_fields(scenario: dict) -> list[str]:
    """The keys of an echoed scenario that are not scenario fields (``section.key``)."""
    out = [k for k, v in scenario.items() if not isinstance(v, dict) and k not in SCENARIO_TEXT]
    for section, values in scenario.items():
        if isinstance(values, dict):
            out += [f"{section}.{k}" for k in values if f"{section}.{k}" not in FIELDS]
    return out


def _registry_key(key: str, container: str, run: str | None) -> str:
    """The registry key of JSON key ``key`` inside ``container`` ("" at the top level) of
    run ``run``: :data:`COLUMNS`, :data:`TOP_LEVEL`, else the key itself."""
    if not container and run is not None:
        return TOP_LEVEL.get(run, {}).get(key, key)
    return COLUMNS.get(container, {}).get(key, key)


def _unregistered(obj, path: str = "", container: str = "", run: str | None = None) -> list[str]:
    """Paths of the keys in ``obj`` (a command's JSON, of run ``run`` of :data:`RUNS`) that
    are neither registered, nor a column of :data:`COLUMNS` or :data:`TOP_LEVEL`, nor in
    :data:`STRUCTURE` or :data:`STRUCTURE_IN`: ``causes[].share``; nested objects and lists
    of objects are walked, an echoed ``scenario`` checked against the fields."""
    out: list[str] = []
    if isinstance(obj, list):
        for row in obj:
            out += _unregistered(row, path, container, run)
    elif isinstance(obj, dict):
        for key, value in obj.items():
            where = f"{path}.{key}" if path else key
            if key == "scenario" and isinstance(value, dict):
                out += [f"{where}.{k}" for k in _not_fields(value)]
                continue
            structure = key in STRUCTURE or key in STRUCTURE_IN.get(container, ())
            if _registry_key(key, container, run) not in OUTPUTS and not structure:
                out.append(where)
            if key in KEYED_BY_NAME and isinstance(value, dict):
                for name, row in value.items():
                    out += _unregistered(row, f"{where}.{name}", key)
            else:
                sub = f"{where}[]" if isinstance(value, list) else where
                out += _unregistered(value, sub, key)
    return list(dict.fromkeys(out))


def _keys(obj, container: str = "") -> set[tuple[str, str]]:
    """Every (container, key) of ``obj``, as :func:`_unregistered` walks it."""
    out: set[tuple[str, str]] = set()
    if isinstance(obj, list):
        for row in obj:
            out |= _keys(row, container)
    elif isinstance(obj, dict):
        for key, value in obj.items():
            out.add((container, key))
            if key == "scenario":
                continue
            rows = value.values() if key in KEYED_BY_NAME and isinstance(value, dict) else value
            out |= _keys(list(rows) if key in KEYED_BY_NAME else rows, key)
    return out


@pytest.mark.parametrize("name", RUNS)
def test_every_json_figure_is_registered(name):
    assert _unregistered(printed(name), run=name) == []


#: modules whose figures goodput fit's top-level JSON may report: a top-level key registered
#: as another module's figure is a name clash (fit's ``nodes`` read as an instance type's)
FIT_MODULES = ("models.fitting", "models.failure_log")
#: keys fit shares with another module's entry because they are the same figure: an
#: interval's level, and the log's estimate of the job-level rate the chain reads
FIT_SHARED = {"confidence_level", "job_interruptions_per_day"}


@pytest.mark.parametrize("name", ["fit", "fit-synthetic"])
def test_fit_top_level_keys_are_the_logs_figures_not_namesakes(name):
    """Session 22's closing note: fit's ``nodes`` and ``node_failure_rate_per_day`` passed
    the registry check only because the same keys are registered as goodput instances'
    figures; they are now read as ``log_nodes`` and ``fitted_node_failure_rate_per_day``."""
    clashes = {}
    for key, value in printed(name).items():
        reg = _registry_key(key, "", name)
        if reg in STRUCTURE or reg in FIT_SHARED or isinstance(value, (dict, list)):
            continue
        if reg not in OUTPUTS:
            continue
        if not OUTPUTS[reg].computed_by.startswith(FIT_MODULES):
            clashes[key] = OUTPUTS[reg].computed_by
    assert clashes == {}
    assert _registry_key("nodes", "", name) == "log_nodes"


def test_the_walk_finds_keys_in_lists_nested_objects_and_the_scenario():
    assert _unregistered({"causes": [{"share": 0.5, "bogus_share": 0.5}]}) == [
        "causes[].bogus_share"
    ]
    assert _unregistered({"budget": [{"available": True}], "options": [{"available": 1}]}) == [
        "options[].available"
    ]
    assert _unregistered({"buckets": {"OTHER": {"bogus": 1.0}}}) == ["buckets.OTHER.bogus"]
    scenario = {"name": "x", "cluster": {"nodes": 2, "bogus": 1}, "stray": 1}
    assert _unregistered({"file_system": {"scenario": scenario}}) == [
        "file_system.scenario.stray",
        "file_system.scenario.cluster.bogus",
    ]


def test_the_columns_name_registered_figures_and_every_exception_is_printed():
    """No stale entry: every column and every STRUCTURE key occurs in some command's JSON,
    and every column's figure is registered."""
    assert {k for cols in COLUMNS.values() for k in cols.values()} <= set(OUTPUTS)
    assert {k for cols in TOP_LEVEL.values() for k in cols.values()} <= set(OUTPUTS)
    seen = set().union(*(_keys(printed(name)) for name in RUNS))
    assert STRUCTURE - {key for _, key in seen} == set()
    assert {(c, k) for c, cols in COLUMNS.items() for k in cols} - seen == set()
    assert {(c, k) for c, keys in STRUCTURE_IN.items() for k in keys} - seen == set()
    for run, cols in TOP_LEVEL.items():
        assert set(cols) <= set(printed(run)), run
        # each renamed key is a namesake: registered as another figure under its JSON name
        assert set(cols) <= set(OUTPUTS), run


def test_outputs_command_lists_the_registry(capsys):
    d = printed("outputs")
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
    # where a figure is printed under a name of its own, the registry says so (QA 29 #16:
    # fit's causes[].share was described nowhere under that name)
    share = next(o for o in d["outputs"] if o["key"] == "cause_share")
    assert share["json_names"] == ["share (in causes)"]
    assert goodput["json_names"] == []
    assert main(["outputs"]) == 0
    text = capsys.readouterr().out
    assert "      in --json as nodes (goodput fit)" in text
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


def test_an_undated_price_is_null_in_every_json(capsys):
    """QA pass 26 #14: one meaning, three spellings ("not stated", "n/a", an empty --set);
    every JSON now writes null (models.pricing.json_date)."""

    def run(*args: str) -> dict:
        assert main([*args, "--json"]) == 0
        return json.loads(capsys.readouterr().out)

    assert run("evaluate", "aws-16k-h100", "--set", "pricing.price_as_of=")["price_as_of"] is None
    assert run("evaluate", "aws-16k-h100")["price_as_of"] == "2023-07"

"""`goodput instances`: per-instance time and cost to train a scenario's workload."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from goodput_lab.models import Scenario, evaluate

from goodput_lab.cli.main import main
from tests.conftest import ROOT

BASE = str(ROOT / "data" / "scenarios" / "aws-16k-h100.toml")
W70 = [
    "--set",
    "workload.params_billion=70",
    "--set",
    "workload.tokens_trillion=15",
    "--set",
    "workload.hidden_size=8192",
]


def goodput(*args: str) -> subprocess.CompletedProcess:
    """The real command line in a subprocess (used once: process startup is slow)."""
    return subprocess.run(
        [sys.executable, "-m", "goodput_lab.cli.main", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )


def run(capsys, *args: str) -> tuple[int, str, str]:
    """Same entry point in-process: exit status, stdout, stderr."""
    code = main(list(args))
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def test_instances_json_has_time_and_cost_for_the_scenario():
    out = goodput("instances", "--scenario", BASE, "--json")
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    rows = {r["instance"]: r for r in d["instances"]}
    # without a deadline the scenario's own instance keeps its nodes, MFU and price: the
    # same cost to train as `goodput evaluate` (issue 26 acceptance: $437,884,283 there vs
    # $245,129,688 here before), the row saying its price is older than the others'
    p5 = rows["p5.48xlarge"]
    assert p5["nodes"] == 2000 and p5["usd_per_instance_hour"] == 98.32 and p5["mfu"] == 0.40
    assert "as of 2023-07" in p5["price_note"]
    assert d["scenario_usd_per_instance_hour"] == 98.32 and d["scenario_price_as_of"] == "2023-07"
    ev = json.loads(goodput("evaluate", BASE, "--json").stdout)
    assert p5["time_to_train_days"] == pytest.approx(ev["time_to_train_days"], rel=1e-9)
    assert p5["cost_to_train_usd"] == pytest.approx(ev["cost_to_train_usd"], rel=1e-12)
    assert f"{p5['cost_to_train_usd']:,.0f}" == f"{ev['cost_to_train_usd']:,.0f}" == "436,357,575"
    # unpriced instances: time yes, cost never invented
    gb = rows["p6e-gb200.36xlarge"]
    assert gb["price_known"] is False and gb["cost_to_train_usd"] is None
    assert gb["time_to_train_days"] > 0 and "no public On-Demand price" in gb["reason"]


E2E = ["--set", "workload.mfu_basis=end_to_end"]


def test_acceptance_70b_15t_30_days(capsys):
    # the catalog MFUs read end to end (the default basis models the step instead; below)
    code, stdout, _ = run(capsys, "instances", *W70, *E2E, "--deadline-days", "30", "--json")
    assert code == 0
    d = json.loads(stdout)
    rows = {r["instance"]: r for r in d["instances"]}
    best = rows[d["cheapest"]]
    assert best["meets_deadline"] and best["time_to_train_days"] <= 30
    priced = [r for r in rows.values() if r["price_known"] and r["meets_deadline"]]
    assert best["cost_to_train_usd"] == min(r["cost_to_train_usd"] for r in priced)
    # the cost splits into compute, bubble, communication, failure+checkpoint and spares
    parts = sum(
        best[k]
        for k in (
            "cost_compute_usd",
            "cost_bubble_usd",
            "cost_communication_usd",
            "cost_failure_and_checkpoint_usd",
            "cost_spares_usd",
        )
    )
    assert parts == pytest.approx(best["cost_to_train_usd"])
    assert best["cost_failure_and_checkpoint_usd"] > 0
    # end-to-end MFU: communication is inside the compute cost, reported apart
    assert best["cost_communication_usd"] == 0.0 and best["cost_bubble_usd"] == 0.0
    assert 0 < best["cost_communication_within_mfu_usd"] < best["cost_compute_usd"]
    # time = model FLOPs / (accelerators · peak · MFU · goodput), no communication added;
    # model FLOPs per token 6N + 12·L·s·h with the depth the 70B count implies
    sc = Scenario.default().with_overrides(W70[1::2])  # `instances` without --scenario
    per_token = evaluate(sc)["model_flops_per_token"]
    productive_days = (
        per_token
        * 15e12
        / (best["accelerators"] * best["bf16_dense_tflops"] * 1e12 * best["mfu"] * 86_400)
    )
    assert best["time_to_train_days"] == pytest.approx(productive_days / best["goodput"])
    # a user price for GB200 makes it comparable
    _, out2, _ = run(
        capsys,
        "instances",
        *W70,
        *E2E,
        "--deadline-days",
        "30",
        "--price",
        "p6e-gb200.36xlarge=1",
        "--json",
    )
    gb = {r["instance"]: r for r in json.loads(out2)["instances"]}["p6e-gb200.36xlarge"]
    assert gb["price_known"] is True and gb["cost_to_train_usd"] == pytest.approx(gb["node_hours"])


def test_modelled_basis_prices_communication_and_bubble(capsys):
    # default basis: the step is modelled, so exposed communication and the bubble are
    # costs of their own and the per-instance MFU is an output, not the catalog's
    code, stdout, _ = run(capsys, "instances", *W70, "--json")
    assert code == 0
    rows = {r["instance"]: r for r in json.loads(stdout)["instances"]}
    p5 = rows["p5.48xlarge"]
    assert p5["feasible"] and p5["cost_communication_within_mfu_usd"] == 0.0
    assert p5["cost_communication_usd"] > 0 and p5["cost_bubble_usd"] > 0
    assert 0.2 < p5["effective_mfu"] < 0.6
    trn = rows["trn2.48xlarge"]  # no measured matmul efficiency: not modelled, said why
    assert not trn["feasible"] and "matmul efficiency" in trn["reason"]


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (
            ["--price", "p6e-gb200.36xlarge=-5"],
            "--price p6e-gb200.36xlarge: '-5' is out of range",
        ),
        (  # a free instance would rank first on a cost of 0: the message says what to enter
            ["--price", "p5.48xlarge=0"],
            "'0' is out of range (in (0, 10,000] USD/h: a ranking by cost needs a price above 0;",
        ),
        (
            ["--mfu", "p5.48xlarge=0.9"],
            "--mfu p5.48xlarge: '0.9' is out of range (a number in (0, 0.8]",
        ),
        (["--price", "x9=3"], "--price x9: is not in the catalog"),
        (["--mfu", "x9=0.3"], "--mfu x9: is not in the catalog"),
        (["--deadline-days", "-3"], "--deadline-days: -3 is out of range"),  # as typed
        (["--deadline-days", "0"], "--deadline-days"),  # the flag as typed (issue 30)
        (["--set", "workload.zero_stage=4"], "workload.zero_stage: 4 is out of range"),
    ],
)
def test_instances_bad_input_one_line(capsys, args, fragment):
    code, _, err = run(capsys, "instances", *args)
    assert code == 2
    assert fragment in err
    assert len(err.strip().splitlines()) == 1


def test_instances_text_table_marks_cheapest_and_break_even(capsys):
    code, out, _ = run(capsys, "instances", *W70, "--deadline-days", "30")
    assert code == 0
    assert "* cheapest: " in out
    assert "cheapest if your price is below $" in out  # GB200 / trn2 without a price


DOMAIN_SPARES = (
    "p6e-gb200-nvl72",
    "--set",
    "cluster.spare_domains=2",
    "--set",
    "cluster.spare_nodes_per_domain=2",
)


def test_nodes_show_the_spares_the_cost_includes(capsys):
    """QA 26 #9: p6e-gb200 with 2 spare domains and 2 spares per domain printed "1,152"
    nodes beside $24,360,746, a cost that pays 1,332 nodes (1,152 + 72 domains × 2 + 2 × 18
    spare); p6-b200 and p5en (a domain of one node) kept the 2 spare domains (2 nodes) and
    dropped the in-domain spares, unsaid."""
    code, out, err = run(capsys, "instances", *DOMAIN_SPARES, "--json")
    assert code == 0, err
    d = json.loads(out)
    rows = {r["instance"]: r for r in d["instances"]}
    gb = rows["p6e-gb200.36xlarge"]
    assert (gb["nodes"], gb["paid_spare_nodes"]) == (1152, 180)
    assert (gb["spare_domains"], gb["spare_nodes_per_domain"]) == (2, 2)
    # the cost pays the job's and the spare nodes: node-hours = (N + spares) × 24 × days
    assert gb["node_hours"] == pytest.approx((1152 + 180) * 24 * gb["time_to_train_days"])
    assert gb["cost_spares_usd"] == pytest.approx(180 * 42.0 * 24 * gb["time_to_train_days"])
    for name in ("p6-b200.48xlarge", "p5en.48xlarge"):
        row = rows[name]
        assert (row["nodes"], row["paid_spare_nodes"]) == (576, 2), name
        assert (row["spare_domains"], row["spare_nodes_per_domain"]) == (2, 0), name
    rule = next(r for r in d["rules"] if r.startswith("Spares:"))
    assert "every type keeps 2 whole spare domains" in rule
    assert "the 2 spare nodes per domain stay only on p6e-gb200.36xlarge" in rule
    assert "the other types keep none" in rule
    code, out, err = run(capsys, "instances", *DOMAIN_SPARES)
    assert code == 0, err
    lines = out.splitlines()
    gb_line = next(x for x in lines if x.startswith("p6e-gb200.36xlarge"))
    assert "1,152 + 180 spare" in gb_line and "$24,360,746" in gb_line
    assert "576 + 2 spare" in next(x for x in lines if x.startswith("p6-b200.48xlarge"))
    assert "* cheapest: p6e-gb200.36xlarge x 1,152 nodes + 180 spare" in out
    assert f"  {rule}" in lines
    # without spares: the node count alone, and no spares rule
    code, out, err = run(capsys, "instances", "p6e-gb200-nvl72")
    assert "1,152     42.00" in out and "spare" not in out.lower()


def test_instances_json_writes_null_for_a_price_without_a_date(capsys):
    """QA 26 #14: types without a price date read "price_as_of": "n/a" in the JSON; null
    now, as a missing figure is; the page's words stay ("undated")."""
    from goodput_lab.models import load_catalog, load_preset
    from goodput_lab.models.instances import rank_instances
    from goodput_lab.models.pricing import as_of_phrase

    code, out, err = run(capsys, "instances", "p6e-gb200-nvl72", "--json")
    assert code == 0, err
    rows = {r["instance"]: r for r in json.loads(out)["instances"]}
    for name in ("grand-teton-h100", "trn2.48xlarge", "dgx-a100-80gb", "dgx-h100", "dgx-h800"):
        assert rows[name]["price_as_of"] is None, name
        assert rows[name]["price_known"] is False
    assert rows["p6-b200.48xlarge"]["price_as_of"] == "2025-06"
    assert rows["p6e-gb200.36xlarge"]["price_as_of"] == "2026-09"
    assert '"n/a"' not in out
    # an undated scenario price: null at the top and in its row, "undated" in words
    code, out, err = run(
        capsys, "instances", "p6e-gb200-nvl72", "--set", "pricing.price_as_of=", "--json"
    )
    assert code == 0, err
    d = json.loads(out)
    assert d["scenario_price_as_of"] is None
    assert d["instances"][0]["instance"] == "p6e-gb200.36xlarge"
    assert d["instances"][0]["price_as_of"] is None
    sc = load_preset("p6e-gb200-nvl72").with_overrides(["pricing.price_as_of="])
    row = rank_instances(sc, load_catalog()).row("p6e-gb200.36xlarge")
    assert as_of_phrase(row.price_as_of) == "undated"

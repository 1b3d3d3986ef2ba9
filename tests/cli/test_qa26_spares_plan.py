"""QA 26 on the command line: goodput optimize's spares (text and JSON say one
recommendation, savings against the scenario), goodput plan's file system under
asynchronous saves, and its JSON's price dates."""

from __future__ import annotations

import json

from goodput_lab.cli.main import main

NVL72 = "p6e-gb200-nvl72"
SPARES = ("--set", "cluster.spare_domains=2", "--set", "cluster.spare_nodes_per_domain=2")


def _run(capsys, *argv: str) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def test_optimize_text_and_json_name_one_recommendation_of_spares(capsys):
    """QA 26 #6 and #7: the text said "hot spares 0 (now 0)", "one spare does not pay off",
    "4 whole spare domains ... saves $57,738/day" (against no spares) and then recommended
    3 whole spare domains and 6 hot spares for $91,088/day; the JSON said spare_nodes 0."""
    out = _run(capsys, "optimize", NVL72, *SPARES)
    assert (
        "  spares                3 whole spare domains and 6 hot spares (now 2 whole spare "
        "domains and 2 spare nodes in every domain) saves $91,088/day"
    ) in out
    assert (
        "  6 hot spares beside 3 whole spare domains pay off at node failure rates of "
        "0.15–0.50% per day"
    ) in out
    assert (
        "4 whole spare domains (64 domains of 18 nodes) saves $89,981/day against the "
        "scenario's 2 whole spare domains and 2 spare nodes in every domain, net of the "
        "$72,576/day its spares cost"
    ) in out
    assert "hot spares            0 (now 0)" not in out and "one spare does not" not in out
    assert (
        "with 3 whole spare domains and 6 hot spares (saves more than the scenario's 2 whole "
        "spare domains and 2 spare nodes in every domain with no hot spares): goodput 93.76% "
        "-> 91.19%, saves $91,088/day"
    ) in out
    d = json.loads(_run(capsys, "optimize", NVL72, *SPARES, "--json"))
    assert (d["spare_domains"], d["spare_nodes_per_domain"], d["spare_nodes"]) == (3, 0, 6)
    assert round(d["savings_usd_per_day"]) == round(d["spares_savings_usd_per_day"]) == 91_088
    assert round(d["goodput"], 4) == 0.9119


def test_plan_with_asynchronous_saves_recommends_the_least_lost_file_system(capsys):
    """QA 26 #4: "file system: 2.4 TiB at 125 MB/s/TiB costs $137,152/day against the
    current 100 TiB" with a note that no file system writes within 1 s: "the fastest is
    shown (1.0 s)". Asynchronous saves block for the snapshot on any file system."""
    out = _run(
        capsys,
        "plan",
        NVL72,
        "--set",
        "checkpoint.save_mode=async",
        "--set",
        "checkpoint.save_seconds=1",
        "--trials",
        "50",
    )
    assert (
        "  file system: 33.6 TiB at 1,000 MB/s/TiB saves $1,272/day against the current "
        "100 TiB at 1,000 MB/s/TiB"
    ) in out
    assert "the fastest is shown" not in out and "note: The scenario assumes" not in out


def test_plan_json_writes_an_undated_price_as_null(capsys):
    """QA 26 #14: "capacity_block_price_as_of": "not stated" (and "overrun_price_as_of",
    and the bill's rows) where the text says "(undated)": null, and a stated date as is."""
    args = ["plan", NVL72, "--set", "pricing.model=capacity_block"]
    args += ["--set", "pricing.usd_per_instance_hour=30", "--trials", "50"]
    args += ["--set", "pricing.overrun_usd_per_instance_hour=42", "--price", "spot=20"]
    d = json.loads(_run(capsys, *args, "--json"))
    assert d["capacity_block_price_as_of"] is None
    assert d["overrun_price_as_of"] is None
    rows = {r["pricing_model"]: r for r in d["budget"]}
    assert rows["capacity_block"]["price_as_of"] is None
    assert rows["spot"]["price_as_of"] is None
    assert "not stated" not in json.dumps(d)
    d = json.loads(_run(capsys, *args, "--set", "pricing.price_as_of=2026-05", "--json"))
    assert d["capacity_block_price_as_of"] == "2026-05"

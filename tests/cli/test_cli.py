"""The `goodput` command line, run as a subprocess (README.md 'Command line' contract)."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from tests.conftest import ROOT, SCENARIOS

BASE = str(SCENARIOS / "aws-16k-h100.toml")
IMPROVED = str(SCENARIOS / "aws-16k-h100-improved.toml")


def goodput(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "goodput_lab.cli.main", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_compare_reproduces_headline_claim():
    out = goodput("compare", BASE, IMPROVED, "--json")
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    assert 0.040 <= d["goodput_delta"] <= 0.044
    assert 185_000 <= d["savings_usd_per_day"] <= 210_000
    # the text as the README shows it: Daly's exact delta beside the spreadsheet estimate
    out = goodput("compare", BASE, IMPROVED)
    assert "goodput delta      +4.03 points        (first order: +4.31)" in out.stdout
    assert "savings per day    $190,340" in out.stdout


def test_compare_prices_a_fabric_change_per_day():
    # halving the candidate's scale-out bandwidth: same goodput, slower steps, priced
    out = goodput(
        "compare", "llama3-16k", "llama3-16k", "--set-candidate", "network.inter_node_gbps=1600"
    )
    assert out.returncode == 0, out.stderr
    assert "goodput delta      0.00 points        (first order: 0.00)" in out.stdout
    assert "savings per day    −$" in out.stdout and "$-" not in out.stdout
    # +5.9 days: half the bandwidth lengthens the exposed data-parallel and pipeline traffic
    # (+9.0 days while the interleaved schedule's pipeline sends were all charged as exposed)
    assert "of which step time −$" in out.stdout and "time to train +5.9 days" in out.stdout
    assert "per run ($16,047,131 more)" in out.stdout  # one run's cost, beside the rates
    js = json.loads(
        goodput(
            "compare",
            "llama3-16k",
            "llama3-16k",
            "--set",
            "network.alpha_network_us=20",
            "--set-candidate",
            "network.alpha_network_us=100",
            "--json",
        ).stdout
    )
    assert js["savings_usd_per_day"] == js["step_time_savings_usd_per_day"] < 0
    assert js["productive_time_ratio"] < 1 and js["time_to_train_delta_days"] > 0
    assert js["baseline"]["scenario"]["network"]["alpha_network_us"] == 20.0


def test_evaluate_json_has_contract_keys():
    out = goodput("evaluate", BASE, "--json")
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    for key in [
        "failures_per_day",
        "mtbf_hours",
        "minutes_lost_per_failure",
        "goodput",
        "goodput_first_order",
        "cluster_usd_per_day",
        "lost_usd_per_day",
    ]:
        assert isinstance(d[key], float), key
    assert d["failures_per_day"] == pytest.approx(4.0)
    assert d["mtbf_hours"] == pytest.approx(6.0)
    assert d["minutes_lost_per_failure"] == pytest.approx(31.0)
    assert d["cluster_usd_per_day"] == pytest.approx(2000 * 24 * 98.32)


def test_evaluate_text_prints_failures_per_day_as_the_registry_formats_it():
    """goodput evaluate printed "4.000" by hand beside the registry's other rates (4.00)."""
    out = goodput("evaluate", BASE)
    assert out.returncode == 0, out.stderr
    assert "  failures per day          4.00  (MTBF 6.00 h)\n" in out.stdout
    one = goodput("evaluate", BASE, "--set", "cluster.nodes=1").stdout
    assert "  failures per day          0.002  (MTBF " in one


def test_evaluate_set_override_changes_result():
    out = goodput(
        "evaluate", BASE, "--set", "reliability.node_failure_rate_per_day=0.001", "--json"
    )
    d = json.loads(out.stdout)
    assert d["failures_per_day"] == pytest.approx(2.0)


def test_instances_json_lists_catalog_and_unknown_prices():
    out = goodput("instances", "--json")
    assert out.returncode == 0
    rows = {r["instance"]: r for r in json.loads(out.stdout)["instances"]}
    assert rows["p5.48xlarge"]["usd_per_instance_hour"] == 55.04
    assert rows["p5.48xlarge"]["price_as_of"] == "2025-06"
    assert rows["trn2.48xlarge"]["usd_per_instance_hour"] is None
    assert rows["trn2.48xlarge"]["price_known"] is False
    assert rows["trn2.48xlarge"]["price_source"] == "no public price"


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["evaluate", BASE, "--set", "cluster.nodes=0"], "cluster.nodes: 0 is out of range"),
        (["evaluate", BASE, "--set", "cluster.nodes=-3"], "cluster.nodes"),
        (["evaluate", BASE, "--set", "reliability.node_failure_rate_per_day=nan"], "finite"),
        (["evaluate", BASE, "--set", "nodes=3"], "nodes: unknown field"),
        (["evaluate", "missing.toml"], "missing.toml: cannot be read"),
        (
            [
                "evaluate",
                BASE,
                "--set",
                "cluster.instance=p6e-gb200.36xlarge",
                "--set",
                "pricing.usd_per_instance_hour=none",
            ],
            "pricing.usd_per_instance_hour",
        ),
        (["evaluate", BASE, "--catalog", BASE], "missing column"),
        (["evaluate"], "goodput:"),
        (["frobnicate"], "goodput:"),
    ],
)
def test_bad_input_exits_2_with_one_line(args, fragment):
    out = goodput(*args)
    assert out.returncode == 2
    assert "Traceback" not in out.stderr
    assert fragment in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1, out.stderr


def test_malformed_toml_file(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[cluster]\nnodes = = 3\n")
    out = goodput("evaluate", str(bad))
    assert out.returncode == 2
    assert "bad.toml': is not valid TOML" in out.stderr  # the file named


def test_help_lists_fields():
    out = goodput("evaluate", "--help")
    assert out.returncode == 0
    assert "reliability.node_failure_rate_per_day" in out.stdout


def test_evaluate_text_shows_checkpoint_and_training_lines():
    out = goodput("evaluate", str(SCENARIOS / "aws-16k-h100-memory.toml"))
    assert out.returncode == 0, out.stderr
    assert "CPU memory + durable" in out.stdout  # the pages' words (QA 17)
    assert "fall back to the durable tier" in out.stdout
    assert "time / cost to train" in out.stdout
    big = goodput("evaluate", BASE, "--set", "workload.params_billion=5000")
    assert "not computed: needs" in big.stdout and "model states are the larger part" in big.stdout


def test_evaluate_says_how_much_of_the_lost_dollars_is_storage_and_spares():
    """On a small job the default file system's rent can be most of the lost dollars:
    the line says so (it read as if failures and checkpoints lost $3,118 a day)."""
    out = goodput("evaluate", "gpt-oss-120b")
    assert out.returncode == 0, out.stderr
    js = json.loads(goodput("evaluate", "gpt-oss-120b", "--json").stdout)
    m = js.get("metrics", js)
    line = next(s for s in out.stdout.splitlines() if "lost per day" in s)
    assert f"of which checkpoint storage ${m['storage_usd_per_day']:,.0f}" in line
    assert f"idle spare nodes ${m['spare_usd_per_day']:,.0f}" in line
    assert m["storage_usd_per_day"] > 0.5 * m["lost_usd_per_day"]


def test_bad_input_is_echoed_as_typed_and_the_file_is_named(tmp_path):
    """One subprocess per message would be slow; the library calls the CLI makes are
    enough: the file a comparison could not read is named, true and -3 are echoed as typed
    (not True and -3.0), and an assignment without a field name says so."""
    from goodput_lab.models import ValidationError, load_preset
    from goodput_lab.models.catalog import load_catalog
    from goodput_lab.models.instances import rank_instances
    from goodput_lab.models.scenario import resolve_scenario

    bad = tmp_path / "malformed.toml"
    bad.write_text("x = [\n")
    with pytest.raises(ValidationError) as e:
        resolve_scenario(str(bad))
    assert str(e.value).startswith("scenario file 'malformed.toml': is not valid TOML")
    s = load_preset("llama3-70b")
    with pytest.raises(ValidationError, match=r"^cluster.nodes: true is not a number \("):
        s.with_overrides(["cluster.nodes=true"])
    with pytest.raises(ValidationError, match=r"^--set: '=1' names no field"):
        s.with_overrides(["=1"])
    with pytest.raises(ValidationError, match=r"^deadline_days: -3 is out of range"):
        rank_instances(s, load_catalog(), deadline_days=-3.0)


def test_simulate_states_a_small_standard_error_instead_of_zero():
    """In points, as the Monte Carlo page's table (QA: "± 0.1%" and "± 0.087%" beside the
    page's "0.10%"); two decimals, two significant digits when smaller."""
    from goodput_lab.models.outputs import format_value

    assert format_value("goodput_stderr", 0.0000474) == "0.0047 points"  # was "± 0.00%"
    assert format_value("goodput_stderr", 0.00024) == "0.02 points"  # two decimals, as the page
    assert format_value("goodput_stderr", 0.001) == "0.10 points"  # not "0.1"
    assert format_value("goodput_stderr", 0.00087) == "0.09 points"
    assert format_value("goodput_stderr", 0.0) == "0.00 points"
    assert format_value("goodput_stderr", float("nan")) == "n/a"


def test_fit_without_nodes_says_the_rate_is_too_high_unless_the_fleet_is_the_log(capsys, tmp_path):
    """QA pass: without --nodes the fleet is the 474 nodes that failed, not the sample's
    1,024, and the ready-to-paste --set line carried a rate 2.2 times too high unqualified.
    QA pass 17: the sample states its fleet (# nodes=1024), which the page used and the CLI
    did not (0.89% against 0.41% per node-day); the CLI reads it now."""
    from goodput_lab.cli.main import main

    sample = ROOT / "data" / "failure_logs" / "synthetic-sample.csv"
    assert main(["fit", str(sample)]) == 0
    out = capsys.readouterr().out
    assert "nodes                      1,024 (stated in the log's comment" in out
    # the registry's format, as the pages write the rate (0.4132% / 0.3843-0.4436, the exact
    # Poisson interval of the 762 incidents since QA pass 29)
    assert "0.41% per node-day (95% CI 0.38–0.44%, exact Poisson)" in out
    assert "too high" not in out
    # the causes (797 failures) and the rate (762 incidents) say why they differ
    assert "the causes count failures, 797; the node failure rate counts incidents, 762" in out
    bare = tmp_path / "bare.csv"  # the same rows without the comment
    bare.write_text(
        "".join(ln for ln in sample.read_text().splitlines(True) if not ln.startswith("#"))
    )
    assert main(["fit", str(bare)]) == 0
    out = capsys.readouterr().out
    assert "the rate below is too high by the fleet size over this; pass --nodes" in out
    assert (
        "use in a scenario (only if the fleet is these 474 nodes; else rerun with --nodes):" in out
    )
    assert main(["fit", str(bare), "--nodes", "1024"]) == 0
    out = capsys.readouterr().out
    assert "too high" not in out and "use in a scenario:         --set" in out


def test_compare_on_another_instance_drops_the_price_entered_for_the_old_one():
    """QA pass 17: a B200 candidate of the aws-16k-h100 preset was priced at the preset's
    $98.32 (p5.48xlarge's 2023 price) and its "of which step time" exceeded the total."""
    args = (
        "compare",
        "aws-16k-h100",
        "aws-16k-h100",
        "--set",
        "reliability.node_failure_rate_per_day=0.001",
        "--set-candidate",
        "cluster.instance=p6-b200.48xlarge",
    )
    out = goodput(*args, "--json")
    assert out.returncode == 0, out.stderr
    assert "was entered for p5.48xlarge; p6-b200.48xlarge is priced at its public" in out.stderr
    js = json.loads(out.stdout)
    b, c = js["baseline"], js["candidate"]
    assert c["usd_per_instance_hour"] == pytest.approx(113.9328)  # the catalog's
    assert b["usd_per_instance_hour"] == pytest.approx(98.32)
    text = goodput(*args).stdout
    parts = re.findall(r"^of which .* (−?)\$([\d,]+)/day", text, re.M)
    total = re.search(r"savings per day +\$([\d,]+)", text).group(1)
    signed = [(-1 if m else 1) * int(v.replace(",", "")) for m, v in parts]
    assert len(signed) == 2 and abs(sum(signed) - int(total.replace(",", ""))) <= 1


def test_evaluate_with_no_failures_says_unbounded_not_inf():
    out = goodput("evaluate", "aws-16k-h100", "--set", "reliability.node_failure_rate_per_day=0")
    assert out.returncode == 0, out.stderr
    assert "(MTBF unbounded)" in out.stdout and "(optimal unbounded, Young unbounded)" in out.stdout
    assert "inf" not in out.stdout.replace("infrastructure", "")


def test_compare_names_its_sides():
    """QA pass 17: both lines read "Modified from AWS 16k H100 ...", and a bad candidate
    edit was reported as if it were the baseline's."""
    out = goodput(
        "compare", "aws-16k-h100", "aws-16k-h100",
        "--set", "reliability.node_failure_rate_per_day=0.001",
        "--set-candidate", "network.inter_node_gbps=6400",
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[1].startswith("candidate: Modified from AWS 16k H100")
    assert "(+ network.inter_node_gbps=6400)" in lines[1] and "(+" not in lines[0]
    bad = goodput("compare", "aws-16k-h100", "aws-16k-h100", "--set-candidate", "cluster.nodes=0")
    assert bad.returncode == 2
    assert bad.stderr.startswith(
        "goodput: candidate aws-16k-h100: cluster.nodes: 0 is out of range"
    )


def test_compare_json_carries_where_the_savings_come_from():
    """QA pass 18: the text's "of which" lines could not be recovered from --json."""
    out = goodput(
        "compare", "aws-16k-h100", "aws-16k-h100",
        "--set-candidate", "cluster.instance=p6-b200.48xlarge", "--json",
    )  # fmt: skip
    d = json.loads(out.stdout)
    parts = {r["component"]: r["usd_per_day"] for r in d["savings_by_component"]}
    assert sum(parts.values()) == pytest.approx(d["savings_usd_per_day"], rel=1e-12)
    assert parts["step_time"] == pytest.approx(d["step_time_savings_usd_per_day"])
    assert parts["running_cost"] < 0  # the B200's higher price


def test_optimize_carries_the_too_close_to_call_caveat(capsys):
    """QA pass 18: goodput optimize named p6-b200 as the instance type without the caveat
    that goodput instances and the Instances page give for the same ranking."""
    from goodput_lab.models import load_catalog, load_preset
    from goodput_lab.models.instances import rank_instances

    from goodput_lab.cli.main import main

    ranking = rank_instances(load_preset("aws-16k-h100"), load_catalog())
    assert main(["optimize", "aws-16k-h100"]) == 0
    out = capsys.readouterr().out
    if ranking.too_close_to_call:
        assert ranking.verdict() in out
    else:
        assert "too close to call" not in out


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        # QA pass 19 #10: "True is not text", "inf is not a finite number", and the
        # experts count blamed on workload.params_billion, named twice
        ("workload.recompute=true", "workload.recompute: true is not allowed (one of"),
        ("workload.tokens_trillion=1e400", "workload.tokens_trillion: 1e400 is far out of range"),
        ("workload.experts=16", "workload.experts: 16 contradicts: workload.params_billion = 671"),
        # QA 27 #2: fewer experts than the 8 each token is routed to is refused first
        (
            "workload.experts=4",
            "workload.experts: 4 is fewer than the workload.experts_per_token = 8 each token",
        ),
        ("workload.params_billion=100", "workload.params_billion: 100.0 contradicts: the model"),
    ],
)
def test_set_errors_echo_what_was_typed_and_blame_the_field_set(setting, message, capsys):
    from goodput_lab.cli.main import main

    assert main(["evaluate", "deepseek-v3", "--set", setting]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_on_off_choices_take_true_and_false(capsys):
    """TOML's and --set's true/false read as 'on'/'off' for an on/off choice."""
    from goodput_lab.cli.main import main

    assert main(["evaluate", "llama3-70b", "--set", "workload.tied_embeddings=true", "--json"]) == 0
    on = json.loads(capsys.readouterr().out)
    assert main(["evaluate", "llama3-70b", "--set", "workload.tied_embeddings=on", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["step_seconds"] == on["step_seconds"]


def test_evaluate_counts_domain_events_among_the_fallbacks(capsys):
    """QA pass 20 #2: "8.40% of failures fall back" on NVL72 with memory checkpoints, where
    0.504 of 2.509 failures a day (20.1%) did, most of them rack events."""
    from goodput_lab.cli.main import main

    args = ["evaluate", "p6e-gb200-nvl72", "--set", "checkpoint.strategy=memory+durable"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "8.40% of node failures fall back to the durable tier; with domain events " in out
    # the registry's formats, as the Checkpoints page's rows (QA: 0.504 and 20.1% there)
    assert "0.50 fallbacks/day, 20.08% of all failures" in out


def test_evaluate_text_gives_the_80_percent_intervals(capsys):
    """goodput evaluate's text gives the headline intervals the Overview's tiles and the
    report give (they were in --json only), and says when the step's settings are assumed."""
    from goodput_lab.models import evaluate, load_preset
    from goodput_lab.models.outputs import format_value

    from goodput_lab.cli.main import main

    ev = evaluate(load_preset("llama3-70b"))
    assert main(["evaluate", "llama3-70b"]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if "80% intervals" in x)
    days = (
        f"{format_value('time_to_train_days', ev['time_to_train_days_p10'], unit=False)}–"
        f"{format_value('time_to_train_days', ev['time_to_train_days_p90'])}"
    )
    assert f"time to train P10–P90 (all inputs) {days}" in line
    assert f"goodput {format_value('goodput', ev['goodput_low'], unit=False)}–" in line
    assert line.endswith("(recomputation, overlap and interleaving assumed, not stated)")
    assert main(["evaluate", "llama3-70b", "--set", "workload.step_settings_stated=on"]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if "80% intervals" in x)
    assert "assumed" not in line and "step " in line


def test_spare_domains_cost_is_worded_spare_nodes_in_the_cli_and_report(tmp_path):
    """NVL72 with 2 spare domains and no hot spares: the $36,288/day and $702,395 are of
    the spare domains' nodes; they read 'idle hot spares' and 'Cost: hot spares'."""
    sets = ("--set", "cluster.spare_domains=2")
    out = goodput("evaluate", "p6e-gb200-nvl72", *sets)
    assert out.returncode == 0, out.stderr
    assert "idle spare nodes $36,288)" in out.stdout and "hot spares" not in out.stdout
    report = tmp_path / "r.html"
    assert goodput("report", "p6e-gb200-nvl72", *sets, "-o", str(report)).returncode == 0
    text = re.sub(r"<[^>]+>", " ", report.read_text())
    assert re.search(r"Cost: spare nodes\s+\$702,395", text)
    assert re.search(r"Idle spare nodes\s+0\.0\s+\$36,288", text)
    assert "Cost: hot spares" not in text and "Idle hot spares" not in text


def test_spares_by_domain_saving_reads_net_of_the_spares_cost():
    """NVL72: "saves $57,739/day for $72,576/day of spares" read as a net loss; the saving
    is already net of the spares."""
    out = goodput("optimize", "p6e-gb200-nvl72")
    assert out.returncode == 0, out.stderr
    assert (
        "4 whole spare domains (64 domains of 18 nodes) saves $57,739/day net of the "
        "$72,576/day its spares cost"
    ) in out.stdout
    assert "of spares" not in out.stdout

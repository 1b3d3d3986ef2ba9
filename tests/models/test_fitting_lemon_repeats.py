"""Why the per-node Weibull shape is not estimable (QA 29 #14): when nodes did fail again and
again but all on lemon nodes, which the per-node fit leaves out, the message says so
instead of "fewer than 2 repeat failures of a node"."""

from __future__ import annotations

from goodput_lab.models.failure_log import parse_failure_log
from goodput_lab.models.fitting import fit_failure_log, scenario_values

from goodput_lab.cli.main import main

#: node-0 and node-1 fail 10 times each, alternating daily, in 20 days
TWO_NODES = "timestamp,node_id,cause\n" + "".join(
    f"2025-03-{d:02d}T{d % 7:02d}:{(7 * d) % 60:02d}:00Z,node-{d % 2},NCCL watchdog timeout\n"
    for d in range(1, 21)
)
LEMONS_ONLY = (
    "not estimable: the repeat failures are all on the 2 lemon nodes, which the per-node fit "
    "leaves out"
)


def test_repeats_all_on_lemons_say_the_lemons_are_left_out(capsys, tmp_path):
    fit = fit_failure_log(parse_failure_log(TWO_NODES), 512)
    assert sorted(lemon["node_id"] for lemon in fit.lemons) == ["node-0", "node-1"]
    assert fit.node_tbf is None
    assert fit.node_tbf_why == (
        "the repeat failures are all on the 2 lemon nodes, which the per-node fit leaves out"
    )
    _, problems = scenario_values(fit)
    assert problems[0] == (
        "reliability.weibull_shape: not estimable from this log (the repeat failures are all "
        "on the 2 lemon nodes, which the per-node fit leaves out); left unchanged"
    )
    path = tmp_path / "twonodes.csv"
    path.write_text(TWO_NODES)
    assert main(["fit", str(path), "--nodes", "512"]) == 0
    out = capsys.readouterr().out
    assert f"  Weibull shape per node     {LEMONS_ONLY}\n" in out
    assert "fewer than 2 repeat failures" not in out


def test_on_two_nodes_they_are_no_lemons_and_the_shape_is_fitted():
    """With --nodes 2 the two nodes are the fleet, no lemon: 18 repeat gaps give a shape."""
    fit = fit_failure_log(parse_failure_log(TWO_NODES), 2)
    assert fit.lemons == [] and fit.node_tbf["n_gaps"] == 18
    assert fit.node_tbf_why == ""


def test_no_repeat_at_all_says_no_node_failed_twice():
    log = parse_failure_log(
        "timestamp,node_id\n2025-03-01,a\n2025-03-02T05:00Z,b\n2025-03-04,c\n2025-03-05,d\n"
    )
    assert fit_failure_log(log, 100).node_tbf_why == "no node failed twice"


def test_one_repeat_outside_the_lemons_says_how_many_and_that_lemons_are_left_out():
    """One ordinary node fails twice; a lemon fails 10 times: 1 repeat gap left to fit."""
    rows = [f"2025-03-{d:02d}T{d:02d}:00:00Z,lemon" for d in range(1, 11)]
    rows += ["2025-03-02T12:00:00Z,a", "2025-03-07T12:00:00Z,a", "2025-03-04T12:00:00Z,b"]
    fit = fit_failure_log(parse_failure_log("timestamp,node_id\n" + "\n".join(rows)), 512)
    assert [lemon["node_id"] for lemon in fit.lemons] == ["lemon"]
    assert fit.node_tbf_why == (
        "1 repeat failure outside the 1 lemon node, which the per-node fit leaves out; the "
        "shape needs at least 2"
    )

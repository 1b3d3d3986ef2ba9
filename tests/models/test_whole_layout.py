"""The parallel layout runs whole data-parallel replicas (QA pass 19 #1: 127 nodes, context
parallelism 3 or expert parallelism that does not divide the replicas gave fractional
data-parallel sizes, a time and a cost, and the Instances ranking chose such layouts)."""

from __future__ import annotations

import numpy as np
import pytest
from goodput_lab.models import evaluate, load_catalog, load_preset
from goodput_lab.models.compute import replica_multiple, whole_data_parallel
from goodput_lab.models.instances import rank_instances


@pytest.fixture(scope="module")
def catalog():
    return load_catalog()


def _ev(preset, catalog, **updates):
    return evaluate(load_preset(preset).replace(updates), catalog)


def test_leftover_accelerators_are_idle_and_paid(catalog):
    """127 nodes of 8 with TP 8 × PP 4: 31 replicas (992 accelerators) and 24 idle; the step
    is that of 124 nodes and every one of the 127 is paid for the time to train (which
    differs only by the three more nodes' failures)."""
    odd = _ev("llama3-70b", catalog, **{"cluster.nodes": 127})
    whole = _ev("llama3-70b", catalog, **{"cluster.nodes": 124})
    assert odd["data_parallel_size"] == 31 and odd["idle_accelerators"] == 24
    assert whole["idle_accelerators"] == 0
    assert odd["step_seconds"] == pytest.approx(whole["step_seconds"], rel=1e-12)
    assert odd["compute_days"] == pytest.approx(whole["compute_days"], rel=1e-12)
    per_node_day = [
        e["cost_to_train_usd"] / e["time_to_train_days"] / n for e, n in ((odd, 127), (whole, 124))
    ]
    assert per_node_day[0] == pytest.approx(per_node_day[1], rel=1e-12)
    assert odd.texts["layout_note"] == (
        "24 of the 1,016 accelerators are idle but paid: the layout runs 31 whole "
        "data-parallel replicas of TP 8 × PP 4 (change the node count, cluster.nodes, or the "
        "parallel sizes to use them)"
    )
    assert whole.texts["layout_note"] == ""


def test_expert_parallelism_divides_the_replicas(catalog):
    """DeepSeek-V3 on 228 H800 nodes, PP 16: 114 replicas would fit, EP 64 divides 64 of
    them; 800 of the 1,824 accelerators are idle."""
    ev = _ev("deepseek-v3", catalog, **{"cluster.nodes": 228})
    assert ev["data_parallel_size"] == 64 and ev["idle_accelerators"] == 800
    assert "as many of the 114 that fit as expert parallelism 64 divides" in ev.texts["layout_note"]


def test_context_parallelism_counts_in_the_replica(catalog):
    """1,024 accelerators with TP 8 × PP 4 × CP 2: 16 replicas, none idle."""
    ev = _ev("llama3-70b", catalog, **{"workload.context_parallel": 2})
    assert ev["data_parallel_size"] == 16 and ev["idle_accelerators"] == 0


def test_context_parallelism_needs_2cp_equal_chunks(catalog):
    from goodput_lab.models.compute import infeasibility_reason
    from goodput_lab.models.evaluate import resolve_inputs

    s = load_preset("llama3-70b").replace({"workload.context_parallel": 3})
    ev = evaluate(s, catalog)
    assert np.isnan(ev["step_seconds"])
    assert "2 × 3 = 6 equal chunks" in infeasibility_reason(resolve_inputs(s, catalog))


@pytest.mark.parametrize(
    ("t", "cp", "ep", "etp", "folded", "multiple"),
    [
        (8, 1, 1, 8, 0, 1),  # dense
        (1, 1, 64, 1, 0, 64),  # EP inside the replicas
        (1, 2, 64, 1, 0, 32),  # CP ranks hold experts too
        (8, 1, 8, 1, 1, 1),  # folded: the 8 TP ranks hold the EP 8 grid
        (2, 1, 64, 1, 1, 32),  # folded: 64 / gcd(64, 2)
    ],
)
def test_replica_multiple_by_hand(t, cp, ep, etp, folded, multiple):
    assert float(replica_multiple(t, cp, ep, etp, folded)) == multiple


def test_whole_data_parallel_is_vectorised_and_never_exceeds_the_fraction():
    n = np.arange(1, 4097, dtype=float)
    d = whole_data_parallel(n, 8, 4, 1, 1, 1, 0)
    assert np.all(d == np.floor(n / 32))
    d = whole_data_parallel(n, 1, 16, 1, 64, 1, 0)
    assert np.all(d % 64 == 0) and np.all(d <= n / 16)


def test_instances_search_steps_in_whole_layouts(catalog):
    """With a deadline, DeepSeek-V3's node counts step by whole EP-divisible layouts: 1,024
    accelerators (PP 16 × EP 64) on every type; the ranking had chosen 228 H800 nodes."""
    r = rank_instances(load_preset("deepseek-v3"), catalog, deadline_days=60.0)
    for row in r.rows:
        if row.nodes and np.isfinite(row.nodes):
            accels = row.nodes * catalog[row.instance].accelerators_per_node
            assert accels % 1024 == 0, (row.instance, row.nodes)
    assert r.cheapest.instance == "dgx-h800" and r.cheapest.nodes == 256


def test_a_batch_that_does_not_split_into_whole_micro_batches_is_said(catalog):
    """QA 23: decide bought 85 × p5 for llama3-8b, 340 data-parallel replicas of a
    1,024-sequence batch (3.01 micro-batches each), which Megatron-Core refuses to run;
    evaluate now says so (the step is modelled on the average)."""
    odd = _ev("llama3-8b", catalog, **{"cluster.nodes": 85})
    assert odd["data_parallel_size"] == 340
    assert odd.texts["batch_note"].startswith(
        "the global batch of 1,024 sequences does not split into whole micro-batches on 340 "
        "data-parallel replicas (3.0 micro-batches of 1 sequence each)"
    )
    # and which whole batches would (QA 24 #5: a layout that runs as entered)
    assert (
        "the nearest batches that split are 1,020 and 1,360 sequences, 3 and 4 micro-batches "
        "of 1 on each replica" in odd.texts["batch_note"]
    )
    assert _ev("llama3-8b", catalog).texts["batch_note"] == ""  # 128 replicas of 8
    # the blog's scenario: 16M tokens of 8,192 is not a whole number of sequences
    blog = _ev("aws-16k-h100", catalog).texts["batch_note"]
    assert "1,953.12 sequences" in blog
    assert "1,875 and 2,000 sequences, 15 and 16 micro-batches of 1 on each replica" in blog


def test_cli_and_report_say_when_the_batch_does_not_split(catalog, capsys):
    from goodput_lab.cli.main import main
    from goodput_lab.reports.content import _summary

    note = _ev("llama3-8b", catalog, **{"cluster.nodes": 85}).texts["batch_note"]
    assert main(["evaluate", "llama3-8b", "--set", "cluster.nodes=85"]) == 0
    assert f"  note: {note}" in capsys.readouterr().out.splitlines()
    ev = _ev("llama3-8b", catalog, **{"cluster.nodes": 85})
    assert note[0].upper() + note[1:] + "." in _summary(ev)

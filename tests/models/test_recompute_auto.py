"""``workload.recompute = 'auto'``: the least activation recomputation that fits in memory
(:func:`models.compute.least_recompute`), the default for a scenario that does not enter its
own.  Hand cases on the llama3-70b preset (80 layers, TP 8, PP 4, 5 chunks per stage: 4
layers per chunk, 8,192-token sequences, flash attention on)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from goodput_lab.models import evaluate, load_preset, resolve_inputs
from goodput_lab.models.compute import infeasibility_reason, step_model
from goodput_lab.models.fields import FIELDS
from hypothesis import given, settings
from hypothesis import strategies as st


@pytest.fixture(scope="module")
def x70():
    return resolve_inputs(load_preset("llama3-70b"))


def _run(x, **kw):
    y = dict(x)
    y.update({f"workload.{k}": v for k, v in kw.items()})
    return step_model(y)


def test_auto_is_the_default():
    assert FIELDS["workload.recompute"].default == "auto"


def test_auto_recomputes_nothing_where_the_activations_fit(x70):
    # one 8,192-token sequence per micro-batch: 39.8 GB of 77.3 GB usable without recomputing
    auto, none = _run(x70, recompute="auto"), _run(x70, recompute="none")
    assert float(auto["recompute_level"]) == 0.0
    assert float(auto["recomputed_layer_share"]) == 0.0
    assert float(auto["step_seconds"]) == float(none["step_seconds"])
    assert float(auto["recompute_seconds_per_step"]) == 0.0


def test_auto_recomputes_the_fewest_layers_that_fit(x70):
    # three sequences per micro-batch: 91.5 GB without recomputation, 19.4 GB recomputing
    # all 4 layers of each chunk; auto recomputes N of 4 and N - 1 would not fit
    auto = _run(x70, recompute="auto", micro_batch_sequences=3)
    share = float(auto["recomputed_layer_share"])
    n = round(share * 4)
    assert float(auto["recompute_level"]) == 2.0 and 0 < n < 4 and share == n / 4
    usable = float(auto["memory_usable_per_accel_GB"])
    assert float(auto["memory_per_accel_GB"]) <= usable
    fewer = _run(x70, recompute="full", micro_batch_sequences=3, recompute_layers=n - 1)
    same = _run(x70, recompute="full", micro_batch_sequences=3, recompute_layers=n)
    assert float(fewer["memory_per_accel_GB"]) > usable
    assert float(same["step_seconds"]) == pytest.approx(float(auto["step_seconds"]), rel=1e-12)
    every = _run(x70, recompute="full", micro_batch_sequences=3)
    assert float(auto["step_seconds"]) < float(every["step_seconds"])


def test_auto_takes_selective_before_full_without_flash_attention(x70):
    # materialised scores: none needs 138.6 GB, selective 39.8 GB (recomputing attention)
    auto = _run(x70, recompute="auto", flash_attention="off")
    sel = _run(x70, recompute="selective", flash_attention="off")
    assert float(auto["recompute_level"]) == 1.0
    assert float(auto["step_seconds"]) == float(sel["step_seconds"])


def test_auto_falls_back_to_every_layer_when_nothing_less_fits():
    # Llama 3 405B on 16 stages of one layer-and-a-bit per chunk: only full fits
    x = resolve_inputs(load_preset("llama3-16k"))
    auto, full = _run(x, recompute="auto"), _run(x, recompute="full")
    assert float(auto["recomputed_layer_share"]) == 1.0
    assert float(auto["step_seconds"]) == float(full["step_seconds"])


def test_auto_over_arrays_is_each_scenarios_own(x70):
    mbs = np.array([1.0, 2.0, 3.0, 4.0])
    together = _run(x70, recompute="auto", micro_batch_sequences=mbs)
    for i, mb in enumerate(mbs):
        alone = _run(x70, recompute="auto", micro_batch_sequences=float(mb))
        for key in ("step_seconds", "recompute_level", "recomputed_layer_share"):
            assert float(together[key][i]) == pytest.approx(float(alone[key]), rel=1e-12)


@settings(max_examples=25, deadline=None)
@given(
    mb=st.integers(1, 6),
    seq=st.sampled_from([2048, 4096, 8192, 16384]),
    flash=st.sampled_from(["on", "off"]),
)
def test_auto_never_slower_than_full_and_fits_where_full_fits(x70, mb, seq, flash):
    kw = {"micro_batch_sequences": mb, "sequence_length": seq, "flash_attention": flash}
    auto, full = _run(x70, recompute="auto", **kw), _run(x70, recompute="full", **kw)
    if float(full["memory_fits"]) > 0.5:
        assert float(auto["memory_fits"]) > 0.5
        assert float(auto["step_seconds"]) <= float(full["step_seconds"]) * (1 + 1e-12)
        assert float(auto["memory_per_accel_GB"]) <= float(auto["memory_usable_per_accel_GB"])


def test_layers_to_recompute_need_full_not_auto(x70):
    y = dict(x70, **{"workload.recompute": "auto", "workload.recompute_layers": 2.0})
    assert math.isnan(float(step_model(y)["step_seconds"]))
    assert "needs workload.recompute = 'full'" in infeasibility_reason(y)


def test_evaluate_says_what_auto_chose():
    s = load_preset("llama3-70b").replace({"workload.recompute": "auto"})
    ev = evaluate(s)
    assert ev.texts["recompute_note"] == (
        "recomputation (auto): none, the least that fits in 77.3 GB per accelerator"
    )
    s3 = s.replace({"workload.micro_batch_sequences": 3})
    note = evaluate(s3).texts["recompute_note"]
    assert note.startswith("recomputation (auto): full on ") and "% of the layers" in note
    assert evaluate(load_preset("llama3-70b")).texts["recompute_note"] == ""  # entered


def test_cli_and_report_say_what_auto_chose(capsys):
    from goodput_lab.cli.main import main
    from goodput_lab.reports.content import _summary

    sets = ["workload.recompute=auto", "workload.micro_batch_sequences=3"]
    s = load_preset("llama3-70b").replace(
        {"workload.recompute": "auto", "workload.micro_batch_sequences": 3}
    )
    note = evaluate(s).texts["recompute_note"]
    assert note == (
        "recomputation (auto): full on 25% of the layers of each model chunk, the least "
        "that fits in 77.3 GB per accelerator"
    )
    assert main(["evaluate", "llama3-70b", *(a for x in sets for a in ("--set", x))]) == 0
    assert f"  note: {note}" in capsys.readouterr().out.splitlines()
    assert note[0].upper() + note[1:] + "." in _summary(evaluate(s))
    assert main(["evaluate", "llama3-70b"]) == 0  # entered: no note
    assert "recomputation (auto)" not in capsys.readouterr().out


def test_no_note_where_no_step_and_the_level_reads_in_words():
    from goodput_lab.models.outputs import format_value

    s = load_preset("llama3-70b").replace(
        {"workload.recompute": "auto", "workload.recompute_layers": 10}
    )
    ev = evaluate(s)
    assert math.isnan(ev["step_seconds"]) and ev.texts["recompute_note"] == ""
    words = [format_value("recompute_level", v) for v in (0.0, 1.0, 2.0)]
    assert words == ["none", "selective", "full"]


def test_instances_say_the_recomputation_each_type_was_modelled_with():
    """QA 23: with 'auto', p4d (40 GB) recomputes and p5 does not, and the ranking did not
    say so."""
    from goodput_lab.models import load_catalog
    from goodput_lab.models.instances import rank_instances

    s = load_preset("llama3-8b").replace({"workload.recompute": "auto"})
    rows = {r.instance: r for r in rank_instances(s, load_catalog()).rows}
    assert rows["p5.48xlarge"].recompute_level == 0.0
    p4d = rows["p4d.24xlarge"]
    assert p4d.recompute_level == 2.0 and 0.0 < p4d.recomputed_layer_share < 1.0
    assert math.isnan(rows["trn2.48xlarge"].recompute_level)  # no step modelled

"""The out-of-sample runs (:mod:`tests.validation.out_of_sample`): docs/step-time.md's table
and figures are the model's now, and the runs the docs discuss say what the docs say."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.validation import out_of_sample as oos
from tests.validation.step_cases import model_outputs

DOC = (Path(__file__).resolve().parents[2] / "docs" / "step-time.md").read_text()


def _section() -> str:
    start = DOC.index("## Out of sample: runs the validation never used")
    return DOC[start : DOC.index("\n## ", start + 1)]


def test_out_of_sample_table_in_docs_is_the_models():
    assert oos.markdown_table() in _section()


def test_out_of_sample_summary_in_docs_is_the_models():
    line = oos.summary_line()
    assert line[0].upper() + line[1:] in _section()


def test_every_published_step_is_typed_from_its_source():
    published = {(r.source, r.label): r.published_s for r in oos.RUNS}
    assert published[("DGXC", "Grok-1 314B MoE BF16, 2,048 H100, batch 4,096")] == 21.09
    assert published[("Nemotron-4 15B", "768 H100, batch 384")] == 0.57
    assert published[("BloombergGPT", "50.6B, 512 A100 40GB (64 p4d), batch 2,048")] == 32.5
    # FlashAttention README: 169k tokens/s at 512 x 2,048 tokens per step
    fa = published[("FlashAttention", "GPT3-1.3B, 8 A100 80GB, batch 1M tokens")]
    assert fa == pytest.approx(512 * 2048 / 169e3)


def _step(label: str, **over) -> float:
    r = next(r for r in oos.RUNS if r.label == label)
    return model_outputs(r.instance, r.nodes, {**r.workload, **over})["step_seconds"]


def test_fp8_speedups_the_docs_quote():
    text = _section()
    nem = "Nemotron-4 340B {} H100, batch 512".format
    ratio = _step(nem("BF16, 2,048")) / _step(nem("FP8, 2,048"))
    assert f"modelled {ratio:.2f})" in text
    grok = "Grok-1 314B MoE {}, 2,048 H100, batch 4,096".format
    ratio = _step(grok("BF16")) / _step(grok("FP8"))
    assert f"modelled {ratio:.2f}):" in text


def test_bf16_moments_make_the_128_gpu_nemotron_fit_as_the_docs_say():
    label = "Nemotron-4 340B BF16, 128 H100, batch 32"
    assert _step(label) != _step(label)  # NaN: does not fit as entered
    step = _step(label, optimizer_moment_bytes=4)
    m = re.search(r"gives ([\d.]+) s\s+\(([−+][\d.]+)%\)", _section())
    assert m and float(m[1]) == round(step, 2)
    assert float(m[2].replace("−", "-")) == round((step / 4.61 - 1) * 100, 1)


def test_readme_quotes_the_out_of_sample_summary():
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    s = oos.summary()
    assert s["covered"] == s["runs"] == 16
    assert f"16 of which fit, {s['mean_abs'] * 100:.1f}% and every one inside" in readme

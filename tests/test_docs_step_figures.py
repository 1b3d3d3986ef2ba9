"""The worked figures docs/step-time.md quotes for the llama3-70b preset are the ones the
model computes now: a change to the step model that moves them fails here until the page
says so (they had drifted by up to 4% unnoticed)."""

from __future__ import annotations

from goodput_lab.models import evaluate, load_preset

from tests.conftest import ROOT

PAGE = (ROOT / "docs" / "step-time.md").read_text()


def _figures(*sets: str) -> dict:
    return evaluate(load_preset("llama3-70b").with_overrides(list(sets)))


def _span(m, key: str, digits: int) -> str:
    return f"{m[key + '_low']:.{digits}f}-{m[key + '_high']:.{digits}f}"


def test_open_settings_paragraph_quotes_the_computed_intervals():
    open_ = _figures()
    stated = _figures("workload.step_settings_stated=on")
    quoted = (
        f"{open_['step_seconds']:.2f} s has an interval of {_span(open_, 'step_seconds', 1)} s",
        f"its\n{open_['tp_comm_ms'] / 1000:.1f} s of exposed tensor-parallel collectives",
        f"{_span(stated, 'step_seconds', 1)} s with `step_settings_stated",
        f"the time to train, {open_['time_to_train_days']:.0f} days, spans\n"
        f"{_span(open_, 'time_to_train_days', 0)} days and "
        f"{_span(stated, 'time_to_train_days', 0)} days.",
    )
    for text in quoted:
        assert text in PAGE, text


def test_stack_comparison_quotes_the_computed_steps_and_intervals():
    fsdp = _figures("workload.software_stack=pytorch-fsdp")
    mcore = _figures("workload.software_stack=megatron-core")
    assert (
        f"a step of {fsdp['step_seconds']:.1f} s against {mcore['step_seconds']:.1f} s "
        f"({fsdp['effective_mfu']:.1%} and {mcore['effective_mfu']:.1%} MFU)"
    ) in " ".join(PAGE.split())
    assert (
        f"intervals ({_span(fsdp, 'time_to_train_days', 0)} and "
        f"{_span(mcore, 'time_to_train_days', 0)} days) overlap"
    ) in " ".join(PAGE.split())

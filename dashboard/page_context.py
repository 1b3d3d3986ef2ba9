"""What every page needs: the current scenario and its evaluation, or a clear error."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st
from goodput_lab.dashboard import cache, state
from goodput_lab.dashboard.text import plain
from goodput_lab.models import Evaluation, Scenario, ValidationError


def current() -> tuple[Scenario, Evaluation]:
    """Scenario from the sidebar and its evaluation; stops the page with a message if invalid."""
    try:
        scenario = state.scenario_from_state()
        return scenario, cache.evaluation(scenario)
    except ValidationError as exc:
        st.error(f"Please fix this input — {plain(exc)}")
        st.stop()
        raise  # unreachable: st.stop() raises


def run_cancelled() -> Callable[[], bool]:
    """A check that turns True once Streamlit asked this script run to stop or rerun.

    Streamlit stops a script only at its next Streamlit call, so long model work (a
    Monte Carlo chunk) polls this through a :class:`models.budget.Budget` and stops when
    the visitor has left or changed an input.  Outside a Streamlit run it is always False.
    """
    try:
        from streamlit.runtime.scriptrunner import get_script_run_ctx

        requests = getattr(get_script_run_ctx(), "script_requests", None)
    except Exception:  # pragma: no cover - a Streamlit without these internals
        requests = None

    def cancelled() -> bool:
        state = getattr(requests, "_state", None)
        return getattr(state, "value", "CONTINUE") in ("STOP", "RERUN")

    return cancelled

"""What every page needs: the current scenario and its evaluation, or a clear error."""

from __future__ import annotations

import streamlit as st
from goodput_lab.dashboard import cache, state
from goodput_lab.models import Evaluation, Scenario, ValidationError


def current() -> tuple[Scenario, Evaluation]:
    """Scenario from the sidebar and its evaluation; stops the page with a message if invalid."""
    try:
        scenario = state.scenario_from_state()
        return scenario, cache.evaluation(scenario)
    except ValidationError as exc:
        st.error(f"Please fix this input — {exc}")
        st.stop()
        raise  # unreachable: st.stop() raises

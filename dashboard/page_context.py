"""What every page needs: the current scenario and its evaluation, or a clear error, and the
page header that states which scenario and which price every figure on the page uses."""

from __future__ import annotations

import re

import streamlit as st
from goodput_lab.dashboard import cache, state
from goodput_lab.models import Evaluation, Scenario, ValidationError

_MARKDOWN = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$])")


def plain(text: str) -> str:
    """User text made inert for Streamlit's Markdown (no links, images, HTML or formatting)."""
    return _MARKDOWN.sub(r"\\\1", str(text))


def current(title: str | None = None) -> tuple[Scenario, Evaluation]:
    """Scenario from the sidebar and its evaluation; stops the page with a message if invalid.

    With ``title``, draws the page header: the title, then the scenario's name and the price
    in force (with its source and date), which every dollar figure on the page uses.
    """
    if title:
        st.title(title)
    try:
        scenario = state.scenario_from_state()
        ev = cache.evaluation(scenario)
    except ValidationError as exc:
        st.error(f"Please fix this input — {plain(str(exc))}")
        st.stop()
        raise  # unreachable: st.stop() raises
    if title:
        p = ev.price
        st.caption(
            f"Scenario: **{plain(scenario.name)}** · price in force "
            f"**${p.usd_per_instance_hour:,.2f}/instance-h** ({plain(p.source)}; as of "
            f"{plain(p.as_of)})"
        )
    return scenario, ev

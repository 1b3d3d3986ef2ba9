"""What every page needs: the current scenario and its evaluation, or a clear error, the page
header that states which scenario and which price every figure on the page uses, and a way
for long work to notice that the visitor has moved on."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st
from goodput_lab.dashboard import cache, state
from goodput_lab.dashboard.text import plain
from goodput_lab.models import Evaluation, Scenario, ValidationError


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
        st.error(f"Please fix this input — {plain(exc)}")
        st.stop()
        raise  # unreachable: st.stop() raises
    if title:
        p = ev.price
        st.caption(
            f"Scenario: **{plain(scenario.name)}** · price in force "
            f"**${p.usd_per_instance_hour:,.2f}/instance-h** ({plain(p.source)}; as of "
            f"{plain(p.as_of)})"
        )
        note = ev.texts["progress_note"]
        if note:  # the job never or barely advances: every figure below reads through it
            st.warning(plain(note[0].upper() + note[1:] + "."))
    return scenario, ev


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
        run_state = getattr(requests, "_state", None)
        return getattr(run_state, "value", "CONTINUE") in ("STOP", "RERUN")

    return cancelled

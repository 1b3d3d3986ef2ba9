"""What every page needs: the current scenario and its evaluation, or a clear error, the page
header that states which scenario and which price every figure on the page uses, and a way
for long work to notice that the visitor has moved on."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st
from goodput_lab.dashboard import cache, state
from goodput_lab.dashboard.text import plain
from goodput_lab.models import Evaluation, Scenario, ValidationError
from goodput_lab.models._text import as_sentence
from goodput_lab.models.pricing import is_dated, price_vintage


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
        when = f"; as of {plain(p.as_of)}" if is_dated(p.as_of) else ""
        st.caption(
            f"Scenario: **{plain(scenario.name)}** · price in force "
            f"**${p.usd_per_instance_hour:,.2f}/instance-h** ({plain(p.source)}{when})"
        )
        _price_vintage(scenario)
        # the job never or barely advances: every figure below reads through it
        note = ev.texts["progress_note"]
        if note:
            st.warning(plain(as_sentence(note)))
        layout = ev.texts["layout_note"]
        if layout:  # accelerators the layout cannot use: paid, no work
            st.info(plain(as_sentence(layout)))
    return scenario, ev


def _use_public_price() -> None:
    """Button callback: the sidebar's "Use the public price of the pricing model" box
    ticked (the scenario's own price, source and date are then ignored)."""
    key = "pricing.usd_per_instance_hour"
    state.set_value(key, True, state.CATALOG_PRICE_SUFFIX)  # the box follows when drawn


def _price_vintage(scenario: Scenario) -> None:
    """Said once per page: the scenario's own price is older than the public one, with a
    button that switches to the public price (models.pricing.price_vintage)."""
    inst = cache.catalog().get(scenario["cluster.instance"])
    vintage = price_vintage(scenario, inst) if inst is not None else None
    if vintage is None:
        return
    st.caption(plain(vintage.sentence()))
    st.button(  # under the note: whole at 1024 px
        f"Use ${vintage.public.usd_per_instance_hour:,.2f}/h ({vintage.public.as_of})",
        key="use_public_price",
        on_click=_use_public_price,
        help="Ticks 'Use the public price of the pricing model' in the sidebar (Pricing); "
        "untick it to go back to the scenario's price.",
    )


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

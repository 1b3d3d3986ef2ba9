"""The training deadline, one control shared by the Instances and Optimizer pages.

Both pages rank instance types with the same function; sharing the deadline means they
always show the same cheapest instance and node count.  The value lives in session state
under ``deadline:on`` / ``deadline:days`` (and so in the shareable link, see
:mod:`dashboard.url_state`), whichever page drew it last.

One default everywhere: a deadline is given or absent, as with ``goodput instances`` and
``goodput optimize`` (no ``--deadline-days`` = no deadline); the box starts unticked, and the
page says which deadline its ranking used (:func:`used`).
"""

from __future__ import annotations

import streamlit as st
from goodput_lab.dashboard.components import persist

from goodput_lab.views import display

ON_KEY = "deadline:on"
DAYS_KEY = "deadline:days"
DEFAULT_DAYS = 45.0


def show(container=None) -> float | None:
    """Draw the deadline checkbox and number; return the deadline in days, or None."""
    c = container or st
    on = persist.widget(
        c.checkbox,
        ON_KEY,
        False,
        label="Must finish by a deadline",
        help="Per instance type, the cheapest node count that trains within the deadline. "
        "Shared by the Instances and Optimizer pages.",
    )
    days = persist.widget(
        c.number_input,
        DAYS_KEY,
        DEFAULT_DAYS,
        label="Deadline (days)",
        min_value=1.0,
        max_value=3650.0,
        step=1.0,
        format="%g",
        disabled=not on,
    )
    return float(days) if on else None


def used(deadline_days: float | None) -> str:
    """The sentence every ranking page shows: which deadline the ranking used."""
    return display.deadline_used(deadline_days)

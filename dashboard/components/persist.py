"""Page controls whose value survives page switches and travels in the link.

Streamlit forgets a widget's value when the user leaves the page that drew it (and treats a
widget with the same key on another page as a different widget).  A control that must
outlive its page, or be shared by two pages, keeps its value under a plain session-state key
(the one :mod:`dashboard.url_state` writes into the link) and draws its widget under a
derived key seeded from that value on every run.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st

WIDGET_PREFIX = "widget::"


def widget(draw: Callable[..., Any], key: str, default: Any, **kwargs: Any) -> Any:
    """Draw ``draw(label, ..., key=<derived>)`` bound to the persistent value ``key``.

    ``draw`` is a Streamlit widget function (``st.checkbox``, a column's ``number_input``
    ...); ``default`` seeds the value the first time.  Returns the widget's value.
    """
    ss = st.session_state
    ss.setdefault(key, default)
    wkey = WIDGET_PREFIX + key
    ss[wkey] = ss[key]

    def keep() -> None:
        ss[key] = ss[wkey]

    return draw(key=wkey, on_change=keep, **kwargs)

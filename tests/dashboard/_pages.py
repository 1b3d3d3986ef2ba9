"""Helpers shared by the AppTests of the decision pages (Compare, Sensitivity, Optimizer)."""

from __future__ import annotations

import base64
import json

import numpy as np
from goodput_lab.dashboard.components import sidebar
from streamlit.testing.v1 import AppTest

from tests.conftest import APP

RATE_KEY = "w:reliability.node_failure_rate_per_day"


def open_page(page: str, query: dict[str, str] | None = None) -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=30)
    for k, v in (query or {}).items():
        at.query_params[k] = v
    at.run()
    if page != "overview":  # the default page: the first run already shows it
        at.switch_page(f"app_pages/{page}.py").run()
    assert not at.exception, at.exception
    return at


def open_sidebar(at: AppTest, *titles: str) -> AppTest:
    """Open sidebar advanced groups (or the "Export"/"Share" popovers) and rerun, as a user
    would before changing a field in them (a closed group's widgets are not drawn)."""
    popovers = {"Export": sidebar.EXPORT_KEY, "Share": sidebar.SHARE_KEY}
    for title in titles:
        at.session_state[popovers.get(title) or sidebar.group_key(title)] = True
    return at.run()


def metric(at: AppTest, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


def chart(at: AppTest, i: int) -> dict:
    return json.loads(at.get("plotly_chart")[i].proto.spec)


def array(v) -> list:
    """Plotly JSON arrays may be base64 typed arrays ({"dtype", "bdata"})."""
    if isinstance(v, dict) and "bdata" in v:
        out = np.frombuffer(base64.b64decode(v["bdata"]), dtype=v["dtype"])
        if "shape" in v:
            out = out.reshape([int(s) for s in str(v["shape"]).split(",")])
        return out.tolist()
    return v

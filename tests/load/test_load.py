"""Load: 20 concurrent sessions against the real app served on 127.0.0.1 (a free port).

Each session is a websocket client speaking Streamlit's protocol (tests/load/driver.py): it
loads the Overview, changes the node-failure-rate slider three times (each rerun must
change the "Failures per day" metric) and switches to the Failure log page.  Passes when no
session saw an exception, an error box, a failed rerun or a timeout, and the server logged
no traceback.  Latencies are reported by bench/bench_load.py, never asserted here.
"""

from __future__ import annotations

from tests.load.driver import run_ws_load, serve_app, server_errors

SESSIONS = 20
MOVES = 3


def test_twenty_concurrent_sessions_without_errors():
    with serve_app() as (url, log):
        res = run_ws_load(url, sessions=SESSIONS, moves=MOVES, extra_page="failure_log")
        logged = server_errors(log)
    assert res.errors == []
    assert logged == []
    assert len(res.rerun_s) == SESSIONS * MOVES  # every slider change produced a full rerun
    assert len(res.page_load_s) == SESSIONS * 2  # Overview and Failure log, per session

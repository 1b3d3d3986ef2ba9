"""Serve the app on 127.0.0.1 and drive N concurrent sessions through it.

Two kinds of client, both concurrent on asyncio:

* **websocket sessions** (:func:`run_ws_load`, used by the load test): each speaks
  Streamlit's own protocol (protobuf ``BackMsg``/``ForwardMsg`` on ``/_stcore/stream``), as the
  browser does, without rendering.  Cheap enough for 20 sessions on 2 cores.
* **browser sessions** (:func:`run_load`): Debian chromium via Playwright, one browser
  context per session (no browser download); includes rendering.

A *rerun latency* is the time from a slider change (the node-failure-rate slider) to the
end of the rerun it triggers: for websocket sessions until ``script_finished``; for browser
sessions until the Overview's "Failures per day" metric shows the new value.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "dashboard" / "app.py"
#: The run has finished (Streamlit marks the app element with ``data-test-script-state``;
#: the status widget is hidden with client.toolbarMode = minimal), no skeletons are left and
#: every plotly chart is drawn, or an exception is on the page (which fails at once).
IDLE_JS = """() => document.querySelector('[data-testid="stException"]')
  || (document.querySelector('[data-testid="stApp"][data-test-script-state="notRunning"]')
      && document.querySelector('[data-testid="stMain"] h1')
      && !document.querySelector('[data-testid="stSkeleton"]')
      && [...document.querySelectorAll('[data-testid="stPlotlyChart"]')]
           .every(c => c.querySelector('.main-svg')))"""
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-dev-shm-usage",
    # 20 tabs at once: keep background tabs rendering (no rAF/timer throttling)
    "--disable-background-timer-throttling",
    "--disable-renderer-backgrounding",
    "--disable-backgrounding-occluded-windows",
]
#: The node-failure-rate slider (Streamlit adds ``st-key-<key>`` to a keyed widget's
#: container; the slider's focusable element is an input in 1.5x, role=slider before).
SLIDER = (
    ".st-key-w-reliability-node_failure_rate_per_day input, "
    '.st-key-w-reliability-node_failure_rate_per_day [role="slider"]'
)
METRIC = "Failures per day"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def serve_app(port: int | None = None, log_path: Path | None = None) -> Iterator[tuple[str, Path]]:
    """Start ``streamlit run dashboard/app.py`` on 127.0.0.1; yield (url, server log path)."""
    port = port or free_port()
    log_path = log_path or Path(f"/tmp/goodput-load-{port}.log")
    cmd = [
        sys.executable, "-m", "streamlit", "run", str(APP),
        "--server.address", "127.0.0.1", "--server.port", str(port),
        "--server.headless", "true", "--browser.gatherUsageStats", "false",
        "--server.fileWatcherType", "none",
    ]  # fmt: skip
    with log_path.open("w") as log:
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, env=os.environ)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"streamlit did not start: {log_path.read_text()[-2000:]}")
            time.sleep(0.3)
        yield url, log_path
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


@dataclass
class LoadResult:
    sessions: int
    wall_s: float
    page_load_s: list[float] = field(default_factory=list)
    rerun_s: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    page_hashes: dict[str, str] = field(default_factory=dict)

    def p(self, q: float, what: str = "rerun_s") -> float:
        xs = sorted(getattr(self, what))
        if not xs:
            return float("nan")
        i = min(len(xs) - 1, max(0, round(q / 100 * (len(xs) - 1))))
        return xs[i]


async def _metric_text(page) -> str:
    return (
        await page.locator('[data-testid="stMetric"]', has_text=METRIC)
        .locator('[data-testid="stMetricValue"]')
        .inner_text()
    )


async def _session(browser, url: str, moves: int, extra_page: str | None, res: LoadResult, i: int):
    context = await browser.new_context(viewport={"width": 1280, "height": 900})
    page = await context.new_page()
    page.on("pageerror", lambda exc: res.errors.append(f"session {i}: page error {exc}"))
    try:
        t0 = time.perf_counter()
        await page.goto(url, timeout=90_000)
        await page.wait_for_selector('[data-testid="stPlotlyChart"]', timeout=90_000)
        res.page_load_s.append(time.perf_counter() - t0)
        thumb = page.locator(SLIDER).first
        for _ in range(moves):
            before = await _metric_text(page)
            await thumb.focus()
            t1 = time.perf_counter()
            await thumb.press("ArrowRight")
            await page.wait_for_function(
                """([label, before]) => {
                    const m = [...document.querySelectorAll('[data-testid="stMetric"]')]
                        .find(e => e.innerText.includes(label));
                    const v = m && m.querySelector('[data-testid="stMetricValue"]');
                    return v && v.innerText !== before;
                }""",
                arg=[METRIC, before],
                timeout=60_000,
            )
            res.rerun_s.append(time.perf_counter() - t1)
        if extra_page:
            t2 = time.perf_counter()
            await page.goto(f"{url}/{extra_page}", timeout=90_000)
            await page.wait_for_selector('[data-testid="stPlotlyChart"]', timeout=90_000)
            res.page_load_s.append(time.perf_counter() - t2)
        n_exc = await page.locator('[data-testid="stException"]').count()
        n_err = await page.locator('[data-testid="stAlertContentError"]').count()
        if n_exc or n_err:
            res.errors.append(f"session {i}: {n_exc} exceptions, {n_err} error boxes shown")
    except Exception as exc:  # a timeout or crash in one session is a load-test failure
        res.errors.append(f"session {i}: {type(exc).__name__}: {str(exc)[:300]}")
    finally:
        await context.close()


async def _run(url: str, sessions: int, moves: int, extra_page: str | None) -> LoadResult:
    from playwright.async_api import async_playwright

    res = LoadResult(sessions=sessions, wall_s=0.0)
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            t0 = time.perf_counter()
            await asyncio.gather(
                *(_session(browser, url, moves, extra_page, res, i) for i in range(sessions))
            )
            res.wall_s = time.perf_counter() - t0
        finally:
            await browser.close()
    return res


def _in_own_thread(coro):
    """``asyncio.run(coro)`` in a thread of its own: the calling thread may hold a running
    event loop left by an earlier test of the same worker (Dask's, Streamlit's)."""
    import concurrent.futures

    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coro).result()


def run_load(
    url: str, sessions: int = 20, moves: int = 3, extra_page: str | None = "failure_log"
) -> LoadResult:
    """Drive ``sessions`` concurrent sessions: load Overview, ``moves`` slider steps, load
    ``extra_page``; collect page-load and rerun latencies and every error seen."""
    return _in_own_thread(_run(url, sessions, moves, extra_page))


def server_errors(log_path: Path) -> list[str]:
    text = log_path.read_text(errors="replace")
    return [line for line in text.splitlines() if "Traceback" in line or "Error" in line]


# --------------------------------------------------------------------------- websocket sessions
RATE_WIDGET_LABEL = "Node failure rate (%)"


def _ws_url(url: str) -> str:
    return url.replace("http://", "ws://", 1) + "/_stcore/stream"


async def _ws_rerun(ws, client_state) -> tuple[float, dict]:
    """Send one rerun request; read ForwardMsgs until the script finishes.

    Returns (seconds, facts) where facts has the slider id, metric values, app pages and
    any exception or error-alert text seen in this run.
    """
    from streamlit.proto.Alert_pb2 import Alert
    from streamlit.proto.BackMsg_pb2 import BackMsg
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    msg = BackMsg()
    msg.rerun_script.CopyFrom(client_state)
    facts: dict = {"metrics": {}, "errors": [], "pages": {}, "slider_id": None}
    t0 = time.perf_counter()
    await ws.send(msg.SerializeToString())
    while True:
        raw = await asyncio.wait_for(ws.recv(), timeout=90)
        fm = ForwardMsg()
        fm.ParseFromString(raw)
        kind = fm.WhichOneof("type")
        if kind == "navigation":
            for page in fm.navigation.app_pages:
                facts["pages"][page.url_pathname] = page.page_script_hash
        elif kind == "delta" and fm.delta.WhichOneof("type") == "new_element":
            el = fm.delta.new_element
            which = el.WhichOneof("type")
            if which == "slider" and el.slider.label == RATE_WIDGET_LABEL:
                facts["slider_id"] = el.slider.id
                facts["slider_value"] = list(el.slider.default)
            elif which == "metric":
                facts["metrics"][el.metric.label] = el.metric.body
            elif which == "exception":
                facts["errors"].append(f"exception: {el.exception.type}: {el.exception.message}")
            elif which == "alert" and el.alert.format == Alert.ERROR:
                facts["errors"].append(f"error box: {el.alert.body[:200]}")
        elif kind == "script_finished":
            if fm.script_finished in (ForwardMsg.FINISHED_SUCCESSFULLY,):
                return time.perf_counter() - t0, facts
            if fm.script_finished == ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                continue
            facts["errors"].append(f"script finished with status {fm.script_finished}")
            return time.perf_counter() - t0, facts
        elif kind == "page_not_found":
            facts["errors"].append("page not found")


Think = float | tuple[float, float] | None


def think_range(think: Think) -> tuple[float, float] | None:
    """``think`` as a (lo, hi) range of seconds: a number t means 0.55t to 1.45t."""
    if think is None:
        return None
    if isinstance(think, tuple):
        return think
    return None if think <= 0 else (0.55 * think, 1.45 * think)


async def _think(think: tuple[float, float] | None, rng) -> None:
    """A person reading the page before the next click (uniform in ``think`` seconds)."""
    if think is not None:
        await asyncio.sleep(rng.uniform(*think))


async def _ws_session(
    url: str,
    moves: int,
    extra_page: str | None,
    res: LoadResult,
    i: int,
    think: tuple[float, float] | None = None,
):
    import random

    from streamlit.proto.ClientState_pb2 import ClientState
    from websockets.asyncio.client import connect

    rng = random.Random(i)  # the same think times on every run

    try:
        async with connect(
            _ws_url(url), subprotocols=["streamlit"], max_size=2**26, open_timeout=60
        ) as ws:
            dt, facts = await _ws_rerun(ws, ClientState())
            res.page_load_s.append(dt)
            res.errors += [f"session {i}: {e}" for e in facts["errors"]]
            slider_id, rate = facts["slider_id"], facts.get("slider_value", [0.2])[0]
            if slider_id is None:
                res.errors.append(f"session {i}: no {RATE_WIDGET_LABEL!r} slider")
                return
            before = facts["metrics"].get(METRIC)
            for step in range(1, moves + 1):
                await _think(think, rng)
                cs = ClientState()
                w = cs.widget_states.widgets.add()
                w.id = slider_id
                w.double_array_value.data.append(round(rate + 0.01 * (step + i % 5), 4))
                dt, facts = await _ws_rerun(ws, cs)
                res.rerun_s.append(dt)
                res.errors += [f"session {i}: {e}" for e in facts["errors"]]
                after = facts["metrics"].get(METRIC)
                if after is None or after == before:
                    res.errors.append(
                        f"session {i}: {METRIC!r} did not change ({before} -> {after})"
                    )
                before = after
            if extra_page:
                page_hash = facts["pages"].get(extra_page) or res.page_hashes.get(extra_page)
                if page_hash is None:
                    res.errors.append(f"session {i}: no page {extra_page!r}")
                    return
                await _think(think, rng)
                dt, facts = await _ws_rerun(ws, ClientState(page_script_hash=page_hash))
                res.page_load_s.append(dt)
                res.errors += [f"session {i}: {extra_page}: {e}" for e in facts["errors"]]
    except Exception as exc:  # timeouts, closed sockets: a load-test failure, not a crash
        res.errors.append(f"session {i}: {type(exc).__name__}: {str(exc)[:300]}")


async def _ws_run(
    url: str | list[str],
    sessions: int,
    moves: int,
    extra_page: str | None,
    think: Think = None,
) -> LoadResult:
    from streamlit.proto.ClientState_pb2 import ClientState
    from websockets.asyncio.client import connect

    urls = [url] if isinstance(url, str) else list(url)
    think = think_range(think)
    res = LoadResult(sessions=sessions, wall_s=0.0)
    # learn the page hashes once (navigation is only sent when the page list changes)
    async with connect(_ws_url(urls[0]), subprotocols=["streamlit"], max_size=2**26) as ws:
        _, facts = await _ws_rerun(ws, ClientState())
        res.page_hashes = facts["pages"]
    t0 = time.perf_counter()
    # session i always talks to replica i mod len(urls): sticky, as a load balancer must be
    await asyncio.gather(
        *(
            _ws_session(urls[i % len(urls)], moves, extra_page, res, i, think)
            for i in range(sessions)
        )
    )
    res.wall_s = time.perf_counter() - t0
    return res


def run_ws_load(
    url: str | list[str],
    sessions: int = 20,
    moves: int = 3,
    extra_page: str | None = "failure_log",
    think: Think = None,
) -> LoadResult:
    """``sessions`` concurrent websocket sessions: load Overview, ``moves`` slider changes
    (each must change the "Failures per day" metric), then switch to ``extra_page``.

    ``think`` = (lo, hi) seconds of reading time before each action (uniform, seeded), or a
    number t for 0.55t-1.45t.  With several ``url`` (app replicas) session i stays on replica
    i mod n, as behind a sticky load balancer."""
    return _in_own_thread(_ws_run(url, sessions, moves, extra_page, think))

"""Where a slider rerun's time goes in Chromium, for one page (a diagnosis, not a benchmark).

Starts the app, opens ``--page`` at the preset, moves the node-failure-rate slider
``--repeats`` times and reports, per rerun: when the browser sent the rerun request and
received the server's messages (websocket frames), when the first updated figure was drawn
(the measure of ``bench_responsiveness.py``), and the main thread's long tasks
with their scripting, style, layout and paint time (a Chrome trace of the last rerun).
Then the JavaScript self time per bundle over all reruns (CDP sampling profiler), which
separates Streamlit's React rendering from plotly.js.

    .venv/bin/python bench/profile_browser_rerun.py --page checkpoints [--repeats 4]

Times are milliseconds from the key press (the page's keydown event).
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "bench"))

from bench_responsiveness import RATE_SLIDER, RUN_DONE_JS, WATCH_JS, link  # noqa: E402
from screenshots import CHROMIUM, CHROMIUM_ARGS, IDLE_JS, serve  # noqa: E402

TRACE_CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "v8.execute"]
PARTS = ("FunctionCall", "UpdateLayoutTree", "Layout", "PrePaint", "Paint", "MinorGC", "MajorGC")


def main_thread_tasks(trace: dict) -> list[str]:
    """The renderer main thread's tasks over 8 ms, with what they spent their time on."""
    events = trace["traceEvents"]
    names = {
        (e["pid"], e["tid"]): e["args"]["name"]
        for e in events
        if e.get("ph") == "M" and e.get("name") == "thread_name"
    }
    main = {k for k, v in names.items() if v == "CrRendererMain"}
    ev = [e for e in events if (e.get("pid"), e.get("tid")) in main and e.get("ph") == "X"]
    keys = [
        e
        for e in ev
        if e["name"] == "EventDispatch"
        and e.get("args", {}).get("data", {}).get("type") == "keydown"
    ]
    t0 = keys[0]["ts"] if keys else min(e["ts"] for e in ev)
    lines = []
    for task in sorted((e for e in ev if e["name"] == "RunTask" and e.get("dur", 0) > 8000),
                       key=lambda e: e["ts"]):  # fmt: skip
        inner: collections.Counter = collections.Counter()
        for e in ev:
            if e["name"] in PARTS and task["ts"] <= e["ts"] < task["ts"] + task["dur"]:
                inner[e["name"]] += e.get("dur", 0) / 1000
        start = (task["ts"] - t0) / 1000
        parts = ", ".join(f"{k} {v:.0f}" for k, v in inner.most_common() if v >= 1)
        lines.append(f"  task {start:6.0f} to {start + task['dur'] / 1000:6.0f} ms: {parts}")
    return lines


def main(argv: list[str] | None = None) -> int:
    from playwright.sync_api import sync_playwright

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--page", default="checkpoints")
    ap.add_argument("--repeats", type=int, default=4)
    args = ap.parse_args(argv)
    path = "" if args.page == "overview" else args.page
    log = Path(tempfile.gettempdir()) / "goodput-profile-rerun.log"
    trace_path = Path(tempfile.gettempdir()) / "goodput-rerun-trace.json"
    with serve(log) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        ctx = browser.new_context(viewport={"width": 1440, "height": 900})
        pg = ctx.new_page()
        pg.set_default_timeout(120_000)
        frames: list[tuple[str, float, int]] = []

        def on_ws(ws) -> None:
            ws.on("framesent", lambda f: frames.append(("sent", time.time() * 1000, len(f))))
            ws.on("framereceived", lambda f: frames.append(("recv", time.time() * 1000, len(f))))

        pg.on("websocket", on_ws)
        pg.goto(f"{url}/{path}?{urlencode(link(0.20))}")
        pg.wait_for_function(IDLE_JS, polling=50)
        cdp = ctx.new_cdp_session(pg)
        cdp.send("Profiler.enable")
        cdp.send("Profiler.setSamplingInterval", {"interval": 200})
        by_bundle: collections.Counter = collections.Counter()
        for i in range(args.repeats):
            last = i == args.repeats - 1
            pg.wait_for_timeout(500)
            pg.locator(RATE_SLIDER).focus()
            pg.evaluate(WATCH_JS)
            pg.evaluate("() => document.addEventListener('keydown', "
                        "() => { window.__keyEpoch = Date.now(); }, {capture: true, once: true})")  # fmt: skip
            frames.clear()
            if last:
                browser.start_tracing(page=pg, path=str(trace_path), categories=TRACE_CATEGORIES)
            cdp.send("Profiler.start")
            pg.keyboard.press("ArrowRight")
            pg.wait_for_function(RUN_DONE_JS, polling=50)
            pg.wait_for_function(IDLE_JS, polling=50)
            profile = cdp.send("Profiler.stop")["profile"]
            if last:
                browser.stop_tracing()
            nodes = {n["id"]: n for n in profile["nodes"]}
            for sample, dt in zip(profile["samples"], profile["timeDeltas"], strict=True):
                frame = nodes[sample]["callFrame"]
                bundle = frame["url"].rsplit("/", 1)[-1].split(".")[0] or frame["functionName"]
                by_bundle[bundle] += dt / 1000
            k = pg.evaluate("() => window.__keyEpoch")
            updated = pg.evaluate("() => window.__goodput.updated")
            sent = [round(t - k) for kind, t, _ in frames if kind == "sent"]
            recv = [(round(t - k), n) for kind, t, n in frames if kind == "recv"]
            got = (
                f"{len(recv)} messages received from {recv[0][0]} to {recv[-1][0]} ms "
                f"({sum(n for _, n in recv):,} bytes)"
                if recv
                else "no messages received"
            )
            print(
                f"rerun {i + 1}: request sent at {sent[:1]} ms; {got}; first updated figure "
                f"drawn at {updated:.0f} ms (websocket times are when Playwright saw the "
                "frames: a few ms late)"
            )
        print(f"\nlast rerun, main-thread tasks over 8 ms (ms; trace in {trace_path}):")
        print("\n".join(main_thread_tasks(json.loads(trace_path.read_text()))))
        print("\nJavaScript self time per rerun by bundle (ms; '(program)' is the browser's "
              "own work outside JavaScript: style, layout, paint, message handling):")  # fmt: skip
        for bundle, ms in by_bundle.most_common(10):
            print(f"  {ms / args.repeats:7.1f}  {bundle}")
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Rerun latency under load: 20 concurrent sessions against the real app (issue #8).

Starts ``streamlit run dashboard/app.py`` on 127.0.0.1 (free port) and runs ``--sessions``
concurrent websocket sessions (Streamlit's own protocol, tests/load/driver.py): each loads
the Overview, changes the node-failure-rate slider ``--moves`` times and switches to the
Failure log page.  Rerun latency = slider change sent -> ``script_finished`` received (the
server's share of what a person waits for; queueing behind the other sessions included).
``--browser N`` adds a run of N Debian-chromium sessions (Playwright) that also waits for the
browser to render the new metric.

    .venv/bin/python bench/bench_load.py [--sessions 20] [--moves 10] [--think 2]
        [--replicas 2] [--browser 4] [--write]
    .venv/bin/python bench/bench_load.py --sessions 40 --moves 3 --think 1,3 --page montecarlo

``--think S`` waits about S seconds before each slider change (a person reading the page;
0 = closed loop, the worst case).  ``--replicas N`` serves the app from N Streamlit
processes and keeps session i on replica i mod N, as a sticky load balancer would
(docs/scaling.md).

``--write`` replaces this script's section of bench/README.md.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import platform
import sys
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.load.driver import run_load, run_ws_load, serve_app, server_errors  # noqa: E402

START, END = "<!-- bench_load:start -->", "<!-- bench_load:end -->"


def _ms(x: float) -> str:
    return f"{1000 * x:,.0f} ms"


def _servers_cpu() -> float:
    """CPU seconds used so far by this process's children (the app servers)."""
    import psutil

    total = 0.0
    for child in psutil.Process().children(recursive=True):
        try:
            t = child.cpu_times()
        except psutil.Error:
            continue
        total += t.user + t.system
    return total


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--sessions", type=int, default=20)
    ap.add_argument("--moves", type=int, default=10)
    ap.add_argument(
        "--think",
        default="0",
        metavar="S or LO,HI",
        help="think time before each action: S seconds on average, or uniform in LO-HI",
    )
    ap.add_argument("--page", default="failure_log", help="the page each session opens last")
    ap.add_argument("--replicas", type=int, default=1, help="app processes (sticky sessions)")
    ap.add_argument("--browser", type=int, default=0, metavar="N", help="also N chromium sessions")
    ap.add_argument("--write", action="store_true", help="update bench/README.md")
    args = ap.parse_args()
    parts = [float(x) for x in args.think.split(",")]
    think = tuple(parts) if len(parts) == 2 else parts[0]
    mean_think = sum(parts) / len(parts)

    load0 = os.getloadavg()[0]
    rows: list[tuple[str, str]] = [
        ("machine", f"{platform.machine()}, {os.cpu_count()} cores"),
        ("load average at start (1 min)", f"{load0:.1f}"),
    ]
    with contextlib.ExitStack() as stack:
        served = [stack.enter_context(serve_app()) for _ in range(max(1, args.replicas))]
        urls = [u for u, _ in served]
        for u in urls:  # warm-up: first import of models, plotly, polars in each server
            run_ws_load(u, sessions=1, moves=1, extra_page=args.page)
        cpu0 = _servers_cpu()
        t0 = time.perf_counter()
        ws = run_ws_load(
            urls,
            sessions=args.sessions,
            moves=args.moves,
            extra_page=args.page,
            think=think,
        )
        wall = time.perf_counter() - t0
        server_cpu = _servers_cpu() - cpu0
        url = urls[0]
        br = run_load(url, sessions=args.browser, moves=3) if args.browser else None
        logged = [e for _, log in served for e in server_errors(log)]
    rows += [
        (
            "websocket sessions x slider changes",
            f"{args.sessions} x {args.moves} (+ 2 page loads each)",
        ),
        ("think time before each change", f"{args.think} s (0 = closed loop)"),
        ("app replicas (sticky sessions)", str(max(1, args.replicas))),
        ("wall time of the run", f"{wall:.1f} s"),
        (
            "rerun latency p50 / p95 / max",
            f"{_ms(ws.p(50))} / **{_ms(ws.p(95))}** / {_ms(ws.p(100))}",
        ),
        (
            f"page load (Overview, {args.page}) p50 / p95",
            f"{_ms(ws.p(50, 'page_load_s'))} / {_ms(ws.p(95, 'page_load_s'))}",
        ),
        ("reruns per second served", f"{len(ws.rerun_s) / wall:.1f}"),
        (
            "server CPU per script run (reruns and page loads; contention-free cost)",
            f"{1000 * server_cpu / max(1, len(ws.rerun_s) + len(ws.page_load_s)):,.0f} ms",
        ),
        ("session errors / server tracebacks", f"{len(ws.errors)} / {len(logged)}"),
    ]
    if br is not None:
        rows += [
            ("chromium sessions x slider changes", f"{args.browser} x 3 (separate run)"),
            ("browser rerun-to-render p50 / p95", f"{_ms(br.p(50))} / {_ms(br.p(95))}"),
            (
                "browser page load p50 / p95",
                f"{_ms(br.p(50, 'page_load_s'))} / {_ms(br.p(95, 'page_load_s'))}",
            ),
            ("browser errors", str(len(br.errors))),
        ]
    table = "\n".join(["| quantity | value |", "|---|---|", *(f"| {k} | {v} |" for k, v in rows)])
    print(table)
    for e in [*ws.errors, *(br.errors if br else []), *logged][:10]:
        print("error:", e)
    if args.write:
        # the closed-loop single-server run keeps its section; other settings get their own
        tag = (
            ""
            if not mean_think and args.replicas <= 1
            else f"-think{args.think.replace(',', '-')}-x{args.replicas}"
        )
        start, end = START.replace(":start", f"{tag}:start"), END.replace(":end", f"{tag}:end")
        flags = f", --think {args.think} --replicas {args.replicas}" if tag else ""
        section = (
            f"{start}\n## Rerun latency under load (`bench/bench_load.py`{flags})\n\n"
            f"Run on {date.today().isoformat()} with `.venv/bin/python bench/bench_load.py "
            f"--sessions {args.sessions} --moves {args.moves} --think {args.think} "
            f"--replicas {max(1, args.replicas)}"
            + (f" --browser {args.browser}" if args.browser else "")
            + " --write`. Each app replica is one Streamlit server on 127.0.0.1; concurrent "
            "websocket clients speak Streamlit's protocol (tests/load/driver.py), so the "
            "latency is the server's: slider change sent -> rerun finished, including queueing "
            "behind the other sessions (browser rendering excluded; the chromium rows include "
            "it). "
            + (
                "Closed loop with zero think time: each session sends its next change as soon "
                "as the last rerun ends, a worst case for 20 people. "
                if not mean_think
                else f"Each session waits about {mean_think:g} s (a person reading) before "
                "each action. Overload must degrade (slower reruns) and never error: the error "
                "row must read 0 / 0. "
            )
            + "Streamlit runs every session's script in threads of one Python process, so a "
            "replica serves at most one core's reruns per second and the p95 is mostly "
            "queueing; several replicas behind a sticky balancer use more cores "
            "(docs/scaling.md). The host is shared with other jobs (see the load average): "
            "treat absolute times as upper bounds.\n\n" + table + f"\n{end}"
        )
        readme = ROOT / "bench" / "README.md"
        text = readme.read_text(encoding="utf-8")
        if start in text and end in text:
            text = text[: text.index(start)] + section + text[text.index(end) + len(end) :]
        else:
            text = text.rstrip("\n") + "\n\n" + section + "\n"
        readme.write_text(text, encoding="utf-8")
        print(f"wrote {readme}")
    return 0 if not ws.errors and not logged else 1


if __name__ == "__main__":
    raise SystemExit(main())

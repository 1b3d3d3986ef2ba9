"""Rerun latency under load: 20 concurrent sessions against the real app (issue #8).

Starts ``streamlit run dashboard/app.py`` on 127.0.0.1 (free port) and runs ``--sessions``
concurrent websocket sessions (Streamlit's own protocol, tests/load/driver.py): each loads
the Overview, changes the node-failure-rate slider ``--moves`` times and switches to the
Failure log page.  Rerun latency = slider change sent -> ``script_finished`` received (the
server's share of what a person waits for; queueing behind the other sessions included).
``--browser N`` adds a run of N Debian-chromium sessions (Playwright) that also waits for the
browser to render the new metric.

    .venv/bin/python bench/bench_load.py [--sessions 20] [--moves 10] [--browser 4] [--write]
    .venv/bin/python bench/bench_load.py --sessions 40 --moves 3 --think 1,3 --page montecarlo

``--write`` replaces this script's section of bench/README.md (with ``--think``, the
"overload with think time" section: people reading between clicks, issue #18).
"""

from __future__ import annotations

import argparse
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
THINK_START, THINK_END = "<!-- bench_load_think:start -->", "<!-- bench_load_think:end -->"


def _ms(x: float) -> str:
    return f"{1000 * x:,.0f} ms"


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--sessions", type=int, default=20)
    ap.add_argument("--moves", type=int, default=10)
    ap.add_argument("--browser", type=int, default=0, metavar="N", help="also N chromium sessions")
    ap.add_argument("--write", action="store_true", help="update bench/README.md")
    ap.add_argument("--think", metavar="LO,HI", help="seconds of think time before each action")
    ap.add_argument("--page", default="failure_log", help="the page each session opens last")
    args = ap.parse_args()
    think = tuple(float(x) for x in args.think.split(",")) if args.think else None

    load0 = os.getloadavg()[0]
    rows: list[tuple[str, str]] = [
        ("machine", f"{platform.machine()}, {os.cpu_count()} cores"),
        ("load average at start (1 min)", f"{load0:.1f}"),
    ]
    with serve_app() as (url, log):
        # warm-up: first import of models, plotly, polars in the server
        run_ws_load(url, sessions=1, moves=1, extra_page=args.page)
        t0 = time.perf_counter()
        ws = run_ws_load(
            url, sessions=args.sessions, moves=args.moves, extra_page=args.page, think=think
        )
        wall = time.perf_counter() - t0
        br = run_load(url, sessions=args.browser, moves=3) if args.browser else None
        logged = server_errors(log)
    rows += [
        (
            "websocket sessions x slider changes",
            f"{args.sessions} x {args.moves} (+ 2 page loads each)",
        ),
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
    if args.write and think:
        _write_think_section(args, think, table)
    elif args.write:
        section = (
            f"{START}\n## Rerun latency under load (`bench/bench_load.py`)\n\n"
            f"Run on {date.today().isoformat()} with `.venv/bin/python bench/bench_load.py "
            f"--sessions {args.sessions} --moves {args.moves}"
            + (f" --browser {args.browser}" if args.browser else "")
            + " --write`. One Streamlit server on 127.0.0.1; concurrent websocket clients speak "
            "Streamlit's protocol (tests/load/driver.py), so the latency is the server's: slider "
            "change sent -> rerun finished, including queueing behind the other sessions "
            "(browser rendering excluded; the chromium rows include it). Closed loop with zero "
            "think time: each session sends its next change as soon as the last rerun ends, a "
            "worst case for 20 people. Streamlit runs every session's script in threads of one "
            "Python process, so throughput is bounded by one core's reruns per second and the "
            "p95 is mostly queueing: latency ~ sessions / throughput. The host is "
            "shared with other jobs (see the load average): treat absolute times as upper "
            "bounds.\n\n" + table + f"\n{END}"
        )
        readme = ROOT / "bench" / "README.md"
        text = readme.read_text(encoding="utf-8")
        if START in text and END in text:
            text = text[: text.index(START)] + section + text[text.index(END) + len(END) :]
        else:
            text = text.rstrip("\n") + "\n\n" + section + "\n"
        readme.write_text(text, encoding="utf-8")
        print(f"wrote {readme}")
    return 0 if not ws.errors and not logged else 1


def _write_think_section(args, think, table: str) -> None:
    """Append or replace one row-table per session count in the think-time section."""
    readme = ROOT / "bench" / "README.md"
    text = readme.read_text(encoding="utf-8")
    head = (
        f"{THINK_START}\n## Overload with think time (`bench/bench_load.py --think`)\n\n"
        "Each session waits a uniform 1-3 s (seeded) before every action, as a person "
        "reading the page would, then moves the slider or opens the page named. What this "
        "section shows is that overload degrades (slower reruns) and never errors: the "
        "error row must read 0 / 0. Speed targets are in the section above.\n"
    )
    old = ""
    if THINK_START in text and THINK_END in text:
        old = text[text.index(THINK_START) : text.index(THINK_END)]
        text = text[: text.index(THINK_START)] + text[text.index(THINK_END) + len(THINK_END) :]
    block = (
        f"\n### {args.sessions} sessions, think {think[0]:g}-{think[1]:g} s, "
        f"{args.moves} moves, then {args.page} ({date.today().isoformat()})\n\n{table}\n"
    )
    blocks = old.split("\n### ")[1:]  # the first part is the heading and the paragraph
    kept = [b for b in blocks if not b.startswith(f"{args.sessions} ")]
    body = "".join("\n### " + b.strip("\n") + "\n" for b in kept) + block
    text = text.rstrip("\n") + "\n\n" + head + body + f"{THINK_END}\n"
    readme.write_text(text, encoding="utf-8")
    print(f"wrote {readme}")


if __name__ == "__main__":
    raise SystemExit(main())

"""Convert StepFun's published GPU-server fault trace to a Goodput Lab failure log.

    python scripts/convert_stepfun_trace.py fault_trace.json > data/failure_logs/stepfun-infinitehbd-2024.csv

Source: the InfiniteHBD fault trace (SIGCOMM 2025, arXiv:2502.03885), published at
https://github.com/stepfun-ai/InfiniteHBD-Trace (commit 7aacdc8, Apache License 2.0): 400
GPU servers over 348 days from 30 March 2024, one ``fault_start`` and one ``fault_end``
event per fault, times in days from the trace's start.  Each fault becomes one row: its
start as a UTC timestamp (30 March 2024 plus the event time), the server, the trace's
Level / Class / Desc as the cause, and the time to its ``fault_end`` as the downtime.
"""

from __future__ import annotations

import csv
import datetime as dt
import json
import sys

START = dt.datetime(2024, 3, 30, tzinfo=dt.UTC)
HEADER = (
    "# StepFun InfiniteHBD GPU-server fault trace (Shou et al., SIGCOMM 2025, arXiv:2502.03885),\n"
    "# github.com/stepfun-ai/InfiniteHBD-Trace commit 7aacdc8, Apache License 2.0; converted by\n"
    "# scripts/convert_stepfun_trace.py: one row per fault_start, downtime = fault_end - fault_start\n"
    "# nodes=400, days=348, start=2024-03-30 (the trace's README); GPUs per server not stated\n"
)


def rows(events: list[dict]) -> list[tuple[str, str, str, str]]:
    """(timestamp, node id, cause, downtime [min]) of each fault, in start order."""
    open_at: dict[tuple[str, str], float] = {}
    out = []
    for e in events:
        kind = e["fault_type"]
        cause = f"{kind['Level']}: {kind['Class']}: {kind['Desc']}"
        key = (e["node_id"], cause)
        if e["event_type"] == "fault_start":
            open_at[key] = e["event_time"]
        elif key in open_at:
            t0 = open_at.pop(key)
            stamp = (START + dt.timedelta(days=t0)).strftime("%Y-%m-%dT%H:%M:%SZ")
            out.append((t0, stamp, e["node_id"], cause, f"{(e['event_time'] - t0) * 1440:.1f}"))
    out.sort(key=lambda r: r[0])
    if open_at:
        raise SystemExit(f"{len(open_at)} faults have no fault_end")
    return [r[1:] for r in out]


def main(path: str) -> None:
    with open(path, encoding="utf-8") as fh:
        events = json.load(fh)
    sys.stdout.write(HEADER)
    w = csv.writer(sys.stdout, lineterminator="\n")
    w.writerow(("timestamp", "node_id", "cause", "downtime_minutes"))
    w.writerows(rows(events))


if __name__ == "__main__":
    main(sys.argv[1])

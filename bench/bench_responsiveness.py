"""Server-side rerun time of a slider change on each analytic page (issue #6, target < 200 ms).

For every page in ``dashboard/app.py``'s PAGES that this script knows how to drive, an
AppTest session opens the page, warms up, then moves the sidebar's node-failure-rate slider
back and forth ``--repeats`` times; each ``run()`` is one full server-side rerun (sidebar,
page script, models, charts serialised to protobuf), without the browser's rendering or the
websocket.  A second table times the page's service calls directly, uncached.

    .venv/bin/python bench/bench_responsiveness.py [--repeats 10]

Prints a markdown table (paste it into bench/README.md).
"""

from __future__ import annotations

import argparse
import logging
import platform
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from goodput_lab.dashboard.services import compare as cmp_svc  # noqa: E402
from goodput_lab.dashboard.services import optimizer as opt_svc  # noqa: E402
from goodput_lab.dashboard.services import sensitivity as sens_svc  # noqa: E402
from goodput_lab.models import load_catalog, load_preset  # noqa: E402
from streamlit.testing.v1 import AppTest  # noqa: E402

APP = ROOT / "dashboard" / "app.py"
RATE_KEY = "w:reliability.node_failure_rate_per_day"
PAGES = ["overview", "compare", "sensitivity", "optimizer"]
TARGET_MS = 200.0


def time_slider(page: str, repeats: int) -> list[float]:
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run()
    if page != "overview":
        at.switch_page(f"app_pages/{page}.py").run()
    at.slider(key=RATE_KEY).set_value(0.21).run()  # warm-up
    times = []
    for i in range(repeats):
        value = round(0.22 + 0.01 * i, 2)  # a new value each time: no cache hit for it
        slider = at.slider(key=RATE_KEY).set_value(value)
        t0 = time.perf_counter()
        slider.run()
        times.append(time.perf_counter() - t0)
        assert not at.exception, at.exception
    return times


def time_call(fn, repeats: int) -> list[float]:
    fn()
    out = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=10)
    args = ap.parse_args()
    logging.getLogger("streamlit").setLevel(logging.ERROR)

    print(
        f"machine: {platform.machine()}, {platform.python_version()}, "
        f"{time.strftime('%Y-%m-%d')}, repeats={args.repeats}\n"
    )
    print("| page | median rerun (ms) | max rerun (ms) | < 200 ms |")
    print("|---|---:|---:|:-:|")
    for page in PAGES:
        t = [x * 1000 for x in time_slider(page, args.repeats)]
        med = statistics.median(t)
        print(f"| {page} | {med:.0f} | {max(t):.0f} | {'yes' if med < TARGET_MS else 'NO'} |")

    cat = load_catalog()
    s = load_preset("aws-16k-h100")
    s2 = load_preset("aws-16k-h100-improved")
    calls = {
        "compare: models.compare + tables": lambda: (
            cmp_svc.metrics_table(cmp_svc.run(s, s2, cat)),
            cmp_svc.delta_waterfall(cmp_svc.run(s, s2, cat)),
        ),
        "sensitivity: tornado table": lambda: sens_svc.tornado_table(s, cat, 0.2),
        "sensitivity: one 61x61 heatmap": lambda: sens_svc.heatmap(
            s, cat, "rate_x_interval", "goodput"
        ),
        "optimizer: interval + spares + break-even": lambda: opt_svc.recommend(s, cat),
        "optimizer: instances, no deadline": lambda: opt_svc.instance_table(s, cat, None),
        "optimizer: instances, 150-day deadline (two-pass search, 1-20,000 nodes)": lambda: (
            opt_svc.instance_table(s, cat, 150.0)
        ),
    }
    print("\n| service call (uncached) | median (ms) |")
    print("|---|---:|")
    for name, fn in calls.items():
        t = [x * 1000 for x in time_call(fn, max(3, args.repeats // 2))]
        print(f"| {name} | {statistics.median(t):.1f} |")


if __name__ == "__main__":
    main()

"""Write data/timelines/example-run.csv: a SYNTHETIC job timeline from a fixed seed.

    .venv/bin/python scripts/make_example_timeline.py              # rewrite the shipped file
    .venv/bin/python scripts/make_example_timeline.py -o run.csv --days 30 --step-seconds 8.64

The job is played by tests/timeline_generator.py (the generator the tests use; it does not
import the models): Poisson job failures over the wall time, a blocking checkpoint every N
steps, lognormal recovery and restore times, rollback to the last checkpoint.  The
parameters are written into the file's header comment.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import asdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from goodput_lab.models._files import check_output, write_atomic  # noqa: E402

from tests.timeline_generator import GeneratorParams, generate  # noqa: E402

OUT = ROOT / "data" / "timelines" / "example-run.csv"
EXAMPLE = GeneratorParams(
    nodes=2000,
    days=2.0,
    node_failure_rate_per_day=0.004,
    step_seconds=20.0,
    checkpoint_every_steps=90,  # 30 min
    save_seconds=45.0,
    recovery_minutes=9.0,
    restore_seconds=90.0,
    startup_seconds=300.0,
    seed=2026,
)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-o", "--out", default=str(OUT))
    ap.add_argument("--days", type=float, default=EXAMPLE.days)
    ap.add_argument("--nodes", type=int, default=EXAMPLE.nodes)
    ap.add_argument("--step-seconds", type=float, default=EXAMPLE.step_seconds)
    ap.add_argument("--seed", type=int, default=EXAMPLE.seed)
    args = ap.parse_args(argv)
    try:
        check_output(args.out, "--out")  # a folder, a missing folder ...: before the work
    except ValueError as exc:  # models.ValidationError: one line, exit 2
        sys.stderr.write(f"make_example_timeline: {exc}\n")
        return 2
    p = GeneratorParams(
        **{
            **asdict(EXAMPLE),
            "days": args.days,
            "nodes": args.nodes,
            "step_seconds": args.step_seconds,
            "seed": args.seed,
        }
    )
    g = generate(p)
    params = ", ".join(f"{k}={v}" for k, v in asdict(p).items())
    truth = ", ".join(f"{k}={v:.6g}" for k, v in g.truth.items())
    header = (
        "# SYNTHETIC job timeline written by scripts/make_example_timeline.py (not real data)\n"
        f"# {params}\n# generator's truth: {truth}\n"
    )
    write_atomic(args.out, (header + g.csv()).encode("utf-8"), "--out")
    print(f"wrote {args.out}: {len(g.rows):,} rows, goodput {g.truth['goodput']:.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Benchmark: the modelled step time on 10,000 scenarios, against the code it replaces.

Run: .venv/bin/python bench/bench_step_model.py [--baseline REV] [--write]

Times ``evaluate_arrays`` (the whole chain: failures, checkpoints, step time, goodput,
cost) on 10,000 scenarios of the ``llama3-16k`` preset (node counts and inter-node
efficiencies varied, one vectorised call), for the current code under each step-time basis
and, in a subprocess on the same machine right after, for git revision ``REV`` (default
``main``).  Each basis is compared with the same basis before (issue 27's target: the
modelled basis within 1.3x of ``main``'s).  CPU time via
time.process_time, best of 7, because the host is shared.  ``--write`` puts the table in
bench/README.md between the bench_step_model markers.
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import platform
import re
import subprocess
import sys
import tarfile
import tempfile
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
N = 10_000
REPEAT = 7


def best_cpu(fn, repeat: int = REPEAT) -> float:
    times = []
    for _ in range(repeat):
        t = time.process_time()
        fn()
        times.append(time.process_time() - t)
    return min(times)


def measure(bases: list[str]) -> dict[str, float]:
    """CPU seconds of one evaluate_arrays call on N scenarios, per basis (this process's
    goodput_lab); bases the code does not know are skipped."""
    import numpy as np
    from goodput_lab.models import evaluate_arrays, load_catalog, load_preset, resolve_inputs
    from goodput_lab.models.fields import FIELDS

    x = resolve_inputs(load_preset("llama3-16k"), load_catalog())
    rng = np.random.default_rng(13)
    batch = {
        **x,
        "cluster.nodes": rng.integers(1024, 4097, N).astype(float),
        "network.inter_node_efficiency": rng.uniform(0.5, 0.95, N),
    }
    out: dict[str, float] = {}
    for basis in bases:
        if basis not in FIELDS["workload.mfu_basis"].choices:
            continue
        from goodput_lab.models.choices import MfuBasis

        inputs = {**batch, "workload.mfu_basis": MfuBasis(basis)}
        evaluate_arrays(inputs)  # warm up
        out[basis] = best_cpu(lambda i=inputs: evaluate_arrays(i))
        # the step-time step alone (models.compute.step_model), whichever signature it has
        from goodput_lab.models import compute

        if "basis" in inspect.signature(compute.step_model).parameters:
            kw = {"basis": basis}
        else:
            kw = {"end_to_end": basis == "end_to_end"}
        out[basis + " (step model alone)"] = best_cpu(
            lambda i=inputs, kw=kw: compute.step_model(i, **kw)
        )
        if basis == "modelled" and "auto" in (FIELDS["workload.recompute"].choices or ()):
            # the default for a scenario that does not state its recomputation: the least
            # that fits (models.compute.least_recompute), against the preset's full
            auto = {**inputs, "workload.recompute": "auto"}
            evaluate_arrays(auto)
            out["modelled, recompute auto"] = best_cpu(lambda i=auto: evaluate_arrays(i))
            out["modelled, recompute auto (step model alone)"] = best_cpu(
                lambda i=auto, kw=kw: compute.step_model(i, **kw)
            )
    return out


def baseline_times(rev: str) -> dict[str, float]:
    """The same measurement on git revision ``rev``, in a subprocess importing that tree."""
    with tempfile.TemporaryDirectory(prefix="bench-step-") as tmp:
        tree = Path(tmp) / "tree"
        tree.mkdir()
        archive = Path(tmp) / "rev.tar"
        with archive.open("wb") as f:
            subprocess.run(["git", "archive", rev], cwd=ROOT, stdout=f, check=True)
        with tarfile.open(archive) as t:
            t.extractall(tree, filter="data")
        pkg = Path(tmp) / "pkg" / "goodput_lab"
        pkg.mkdir(parents=True)
        (pkg / "__init__.py").write_text("")
        for name in ("models", "data", "dashboard"):
            (pkg / name).symlink_to(tree / name)
        env = {**os.environ, "PYTHONPATH": str(pkg.parent)}
        here = str(Path(__file__).parent)
        code = (
            f"import json, sys; sys.path.insert(0, {here!r}); import bench_step_model as b; "
            "print(json.dumps(b.measure(['end_to_end', 'compute_only', 'modelled'])))"
        )
        res = subprocess.run(
            [sys.executable, "-c", code], env=env, cwd=tmp, capture_output=True, text=True
        )
        if res.returncode:
            raise SystemExit(res.stderr)
        return json.loads(res.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", default="main", help="git revision to compare with")
    ap.add_argument("--write", action="store_true", help="update bench/README.md")
    args = ap.parse_args()
    load = os.getloadavg()[0]
    now = measure(["modelled", "end_to_end", "compute_only"])
    then = baseline_times(args.baseline)
    ref_m = then.get("modelled")
    lines = [
        f"Run on {date.today().isoformat()} with `.venv/bin/python bench/bench_step_model.py"
        f"{' --write' if args.write else ''}`: `evaluate_arrays` (the whole chain) on {N:,} "
        "scenarios of `llama3-16k` in one vectorised call (node counts 1,024-4,096 and "
        "inter-node efficiencies 0.5-0.95 varied), CPU time (process_time), best of "
        f"{REPEAT}, this tree and `{args.baseline}` (in a subprocess) side by side.",
        "",
        "| code | step-time basis | CPU time | vs the same basis before |",
        "|---|---|---:|---:|",
    ]
    for basis, t in then.items():
        lines.append(f"| `{args.baseline}` (before) | {basis} | {t * 1e3:.1f} ms | |")
    for basis, t in now.items():
        ref = then.get(basis) or then.get(basis.replace(", recompute auto", ""))
        ratio = f"{t / ref:.2f}x" if ref else ""
        lines.append(f"| this branch | {basis} | {t * 1e3:.1f} ms | {ratio} |")
    lines += [
        "",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}; load average at start (1 min) {load:.1f}. Target "
        "(issue 27): the modelled basis on 10,000 scenarios within 1.3x of "
        f"`{args.baseline}`'s: "
        + ("met" if ref_m and now["modelled"] <= 1.3 * ref_m else "NOT met")
        + "."
        + (
            f' Under `workload.recompute = "auto"` (the default where a scenario does not '
            f"state its recomputation; the preset states full): "
            f"{now['modelled, recompute auto'] / ref_m:.2f}x."
            if ref_m and "modelled, recompute auto" in now
            else ""
        ),
    ]
    table = "\n".join(lines)
    print(table)
    if args.write:
        readme = ROOT / "bench" / "README.md"
        text = readme.read_text()
        block = (
            "<!-- bench_step_model:start -->\n## Modelled step time on 10,000 scenarios "
            "(`bench/bench_step_model.py`)\n\n" + table + "\n<!-- bench_step_model:end -->"
        )
        pat = re.compile(r"<!-- bench_step_model:start -->.*<!-- bench_step_model:end -->", re.S)
        text = pat.sub(block, text) if pat.search(text) else text.rstrip() + "\n\n" + block + "\n"
        readme.write_text(text)


if __name__ == "__main__":
    main()

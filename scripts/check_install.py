"""Build the wheel, install it into a fresh virtual environment, measure the environment and
run the commands a user of that install would run.

    python3 scripts/check_install.py              # the core wheel alone
    python3 scripts/check_install.py --extras all # the wheel with [all]: every command
    python3 scripts/check_install.py --keep DIR   # leave the environment in DIR

The core must stay at most 500 MB (issue 31) and run ``goodput evaluate``, ``goodput sweep``
and ``goodput simulate``; ``goodput dashboard`` must say which extra to install and exit 2.
With ``--extras all`` every command runs, the PDF report included (Debian's chromium), and
the dashboard answers its health check.  Installs with uv where it is installed (its cache
makes a rerun fast), else with pip; the latest versions pyproject.toml allows, as
``pip install goodput-lab`` would get.  Prints one Markdown table (the README's figures).
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIMIT_MB = 500


def _run(cmd: list, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([str(c) for c in cmd], capture_output=True, text=True, **kw)


def _du_mb(path: Path) -> float:
    out = _run(["du", "-sk", path]).stdout.split()[0]
    return int(out) / 1024


def _largest(site: Path, n: int = 6) -> str:
    sizes = []
    for p in site.iterdir():
        if p.is_dir() and not p.name.endswith((".dist-info", "__pycache__")):
            sizes.append((_du_mb(p), p.name))
    return ", ".join(f"{name} {mb:.0f}" for mb, name in sorted(sizes, reverse=True)[:n])


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--extras", default="", help="e.g. all, dashboard, pdf (default: none)")
    ap.add_argument("--keep", help="create the environment here and keep it")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="goodput-install-"))
    venv = Path(args.keep) if args.keep else work / "venv"
    uv = shutil.which("uv")
    rows: list[tuple[str, str]] = []
    failed = False
    try:
        t0 = time.perf_counter()
        built = _run([sys.executable, "-m", "build", "--wheel", "--outdir", work, ROOT], cwd=ROOT)
        if built.returncode:
            print(built.stdout[-2000:], built.stderr[-2000:])
            return 1
        wheel = next(work.glob("*.whl"))
        rows.append(("wheel", f"{wheel.name}, {wheel.stat().st_size / 1e6:.2f} MB"))
        spec = f"{wheel}[{args.extras}]" if args.extras else str(wheel)
        t1 = time.perf_counter()
        if uv:
            _run([uv, "venv", "-q", "--python", sys.executable, venv], check=True)
            inst = _run([uv, "pip", "install", "-q", "-p", venv / "bin" / "python", spec])
        else:
            _run([sys.executable, "-m", "venv", venv], check=True)
            inst = _run([venv / "bin" / "python", "-m", "pip", "install", "-q", spec])
        if inst.returncode:
            print(inst.stderr[-3000:])
            return 1
        rows.append(("install (venv + wheel + dependencies)", f"{time.perf_counter() - t1:.1f} s"
                     f" with {'uv' if uv else 'pip'} (build {t1 - t0:.1f} s)"))  # fmt: skip
        size = _du_mb(venv)
        ok = size <= LIMIT_MB or bool(args.extras)
        failed |= not ok
        rows.append(("environment size (du -sk)", f"{size:,.0f} MB" + ("" if ok else " OVER")))
        site = next((venv / "lib").glob("python3.*/site-packages"))
        rows.append(("largest packages (MB)", _largest(site)))
        goodput = venv / "bin" / "goodput"
        out = work / "out"
        out.mkdir()
        commands = [
            ["evaluate", "aws-16k-h100"],
            ["simulate", "aws-16k-h100", "--trials", "1000", "--days", "30"],
            ["sweep", "aws-16k-h100", "--vary", "checkpoint.interval_minutes=10:120:8",
             "--workers", "1", "-o", out / "sweep.parquet"],
        ]  # fmt: skip
        if args.extras in ("all", "pdf"):
            commands.append(["report", "aws-16k-h100", "-o", out / "report.pdf"])
        if args.extras in ("all", "dashboard"):
            commands.append(["report", "aws-16k-h100", "-o", out / "report.html"])
        for cmd in commands:
            t = time.perf_counter()
            r = _run([goodput, *cmd], cwd=work, timeout=600)
            failed |= r.returncode != 0
            tail = "" if r.returncode == 0 else f" FAILED: {r.stderr.strip()[-300:]}"
            rows.append(
                (
                    f"goodput {cmd[0]}"
                    + (f" -o {Path(cmd[-1]).name}" if cmd[0] == "report" else ""),
                    f"exit {r.returncode}, {time.perf_counter() - t:.1f} s{tail}",
                )
            )
        if args.extras in ("all", "dashboard"):
            port = _free_port()
            proc = subprocess.Popen(
                [goodput, "dashboard", "--port", str(port)], cwd=work,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            )  # fmt: skip
            t = time.perf_counter()
            healthy = False
            try:
                while time.perf_counter() - t < 120 and proc.poll() is None:
                    try:
                        with urllib.request.urlopen(
                            f"http://127.0.0.1:{port}/_stcore/health", timeout=2
                        ) as resp:
                            healthy = resp.status == 200
                            break
                    except OSError:
                        time.sleep(0.2)
            finally:
                proc.terminate()
                proc.wait(timeout=30)
            failed |= not healthy
            rows.append(("goodput dashboard", f"healthy after {time.perf_counter() - t:.1f} s"
                         if healthy else "DID NOT START"))  # fmt: skip
        else:
            r = _run([goodput, "dashboard"], cwd=work, timeout=120)
            message = r.stderr.strip()
            good = r.returncode == 2 and "pip install 'goodput-lab[dashboard]'" in message
            failed |= not good
            rows.append(("goodput dashboard", f"exit {r.returncode}: {message}"))
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    print(f"| {'core wheel' if not args.extras else f'wheel [{args.extras}]'} | |")
    print("|---|---|")
    for k, v in rows:
        print(f"| {k} | {v} |")
    print(
        f"| machine | {os.uname().machine}, Python {sys.version.split()[0]}, {os.cpu_count()} cores |"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())

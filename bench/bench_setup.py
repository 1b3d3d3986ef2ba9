"""Set-up and first page load on a fresh clone: ``python3 tasks.py dashboard`` from nothing.

Clones the repository (its committed state) into a temporary folder, runs ``python3 tasks.py
dashboard --port P`` there (which creates .venv, installs the locked versions with every
extra and starts ``goodput dashboard``) and times

* set-up: from the command to the server answering its health check (venv, install,
  Streamlit start-up);
* first page: from opening http://127.0.0.1:P in Debian's chromium to the Overview drawn
  (no skeleton, every chart drawn; tests/load/driver.IDLE_JS).

    .venv/bin/python bench/bench_setup.py            # with uv where installed (uv sync --frozen)
    .venv/bin/python bench/bench_setup.py --pip      # hide uv: pip from requirements-lock.txt
    .venv/bin/python bench/bench_setup.py --write    # replace this script's bench/README.md section

Package caches (uv's, pip's) are left as they are: say in the table whether they were warm.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.load.driver import CHROMIUM, CHROMIUM_ARGS, IDLE_JS, free_port  # noqa: E402

START, END = "<!-- bench_setup:start -->", "<!-- bench_setup:end -->"


def _path_without_uv() -> str:
    keep = [d for d in os.environ["PATH"].split(os.pathsep) if not (Path(d) / "uv").exists()]
    return os.pathsep.join(keep)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--pip", action="store_true", help="hide uv (pip installs requirements-lock.txt)"
    )
    ap.add_argument("--cache", default="warm", help="what to write about the package cache")
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="goodput-setup-"))
    clone = tmp / "goodput-lab"
    branch = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--abbrev-ref", "HEAD"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    subprocess.run(["git", "clone", "-q", "-b", branch, str(ROOT), str(clone)], check=True)
    env = {**os.environ}
    env.pop("VIRTUAL_ENV", None)
    if args.pip:
        env["PATH"] = _path_without_uv()
    port = free_port()
    log = tmp / "setup.log"
    python = shutil.which("python3", path=env["PATH"]) or sys.executable
    t0 = time.perf_counter()
    with log.open("w") as out:
        proc = subprocess.Popen(
            [python, "tasks.py", "dashboard", "--port", str(port)],
            cwd=clone, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.perf_counter() - t0 > 3600:
                print(log.read_text()[-3000:])
                return 1
            time.sleep(0.5)
        setup_s = time.perf_counter() - t0
        from playwright.sync_api import sync_playwright

        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1440, "height": 900})
            t1 = time.perf_counter()
            page.goto(url)
            page.wait_for_function(IDLE_JS, timeout=300_000, polling=100)
            first_s = time.perf_counter() - t1
            t2 = time.perf_counter()
            page.reload()
            page.wait_for_function(IDLE_JS, timeout=300_000, polling=100)
            again_s = time.perf_counter() - t2
            browser.close()
    finally:
        os.killpg(proc.pid, 15)
        proc.wait(timeout=30)
        size = subprocess.run(["du", "-sk", clone / ".venv"], capture_output=True, text=True)
        venv_mb = int(size.stdout.split()[0]) / 1024 if size.returncode == 0 else float("nan")
        shutil.rmtree(tmp, ignore_errors=True)
    how = "pip from requirements-lock.txt (uv hidden)" if args.pip else "uv sync --frozen"
    rows = [
        ("installer", f"{how}; package cache {args.cache}"),
        ("set-up: `python3 tasks.py dashboard` to the health check", f"{setup_s:.1f} s"),
        ("first page: Overview drawn in a new browser", f"{first_s:.1f} s"),
        ("reload: Overview drawn again", f"{again_s:.1f} s"),
        (".venv size", f"{venv_mb:,.0f} MB"),
        ("machine", f"{platform.machine()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}"),
    ]
    table = "\n".join(["| quantity | value |", "|---|---|", *[f"| {k} | {v} |" for k, v in rows]])
    print(table)
    if args.write:
        section = (
            f"{START}\n## Set-up and first page (`bench/bench_setup.py`)\n\n"
            f"Run on {date.today()} with `.venv/bin/python bench/bench_setup.py"
            f"{' --pip' if args.pip else ''} --write` on a fresh clone.\n\n{table}\n{END}"
        )
        readme = ROOT / "bench" / "README.md"
        text = readme.read_text()
        if START in text:
            text = text[: text.index(START)] + section + text[text.index(END) + len(END) :]
        else:
            text = text.rstrip("\n") + "\n\n" + section + "\n"
        readme.write_text(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""The project's two set-up-and-go commands (needs only Python 3.11+).

    python3 tasks.py dashboard   # create/reuse .venv, install, start the app on :8501
    python3 tasks.py test        # create/reuse .venv, install, run ruff + the whole test suite

Both create a virtual environment in ``.venv`` on first use and reinstall the
project when ``pyproject.toml`` changes, so they work on a fresh machine.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / "python"
STAMP = VENV / ".goodput-installed"


def _run(cmd: list[str], **kw) -> int:
    print("+", " ".join(str(c) for c in cmd), flush=True)
    return subprocess.call([str(c) for c in cmd], cwd=ROOT, **kw)


def ensure_env() -> None:
    """Create .venv and install the project with its test extras, once per pyproject change."""
    if sys.version_info < (3, 11):  # noqa: UP036 - this file runs on the system Python
        sys.exit(f"Python 3.11+ is required, this is {sys.version.split()[0]}")
    if not PY.exists():
        print(f"creating virtual environment in {VENV}", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if STAMP.exists() and STAMP.read_text() == digest:
        return
    pip = [PY, "-m", "pip", "--disable-pip-version-check", "install", "-q"]
    if _run([*pip, "-e", ".[test]"]) != 0:
        sys.exit("installing the project failed (see pip's message above)")
    STAMP.write_text(digest)


def dashboard(args: list[str]) -> int:
    ensure_env()
    cmd = [PY, "-m", "streamlit", "run", ROOT / "dashboard" / "app.py"]
    cmd += ["--server.port", "8501", "--server.headless", "true", *args]
    return _run(cmd)


def test(args: list[str]) -> int:
    ensure_env()
    rc = _run([PY, "-m", "ruff", "check", "."])
    rc |= _run([PY, "-m", "ruff", "format", "--check", "."])
    rc_tests = _run([PY, "-m", "pytest", "-n", "2", *args])
    return rc_tests or rc


def main() -> int:
    if len(sys.argv) < 2 or sys.argv[1] not in {"dashboard", "test"}:
        print(__doc__)
        return 2
    return {"dashboard": dashboard, "test": test}[sys.argv[1]](sys.argv[2:])


if __name__ == "__main__":
    raise SystemExit(main())

"""The project's set-up-and-go commands (needs only Python 3.11+).

    python3 tasks.py dashboard     # create/reuse .venv, install, start the app on :8501
    python3 tasks.py test          # create/reuse .venv, install, run ruff + the whole test suite
    python3 tasks.py min-versions  # lowest allowed versions in .venv-min, then the core tests

``dashboard`` and ``test`` create a virtual environment in ``.venv`` on first use and
reinstall the project when ``pyproject.toml`` or ``uv.lock`` changes, so they work on a
fresh machine.  Where ``uv`` is installed they install the exact versions of ``uv.lock``
(``uv sync --frozen``); without it, pip installs the project with the lock's versions as
constraints.  ``min-versions`` (needs uv) installs the lowest versions that pyproject.toml
allows for each direct dependency (``uv pip install --resolution lowest-direct``) into
``.venv-min`` and runs the models, validation, command-line and an app smoke test there, which checks
that the dependency floors are honest.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tomllib
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / "python"
STAMP = VENV / ".goodput-installed"
LOCK = ROOT / "uv.lock"
MIN_VENV = ROOT / ".venv-min"
MIN_TESTS = [
    "tests/models",
    "tests/validation",
    "tests/cli",
    "tests/dashboard/test_overview.py",  # the app starts and draws with the lowest Streamlit
    "tests/reports/test_export_buttons.py",
]


def _run(cmd: list[str], **kw) -> int:
    print("+", " ".join(str(c) for c in cmd), flush=True)
    return subprocess.call([str(c) for c in cmd], cwd=ROOT, **kw)


def _lock_constraints() -> list[str]:
    """``name==version`` for every package pinned once in uv.lock (pip's fallback)."""
    if not LOCK.exists():
        return []
    packages = tomllib.loads(LOCK.read_text(encoding="utf-8")).get("package", [])
    seen: dict[str, list[str]] = {}
    for p in packages:
        if "registry" in p.get("source", {}):
            seen.setdefault(p["name"], []).append(p["version"])
    return [f"{name}=={v[0]}" for name, v in sorted(seen.items()) if len(v) == 1]


def ensure_env() -> None:
    """Create .venv and install the project with its test extras, once per pyproject or
    lock change: the locked versions with uv where it is installed, else pip constrained
    to the lock's versions."""
    if sys.version_info < (3, 11):  # noqa: UP036 - this file runs on the system Python
        sys.exit(f"Python 3.11+ is required, this is {sys.version.split()[0]}")
    uv = shutil.which("uv")
    if not PY.exists():
        print(f"creating virtual environment in {VENV}", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    lock = LOCK.read_bytes() if LOCK.exists() else b""
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes() + lock).hexdigest()
    if STAMP.exists() and STAMP.read_text() == digest:
        return
    if uv and lock:
        env = {**os.environ, "UV_PROJECT_ENVIRONMENT": str(VENV)}
        cmd = [uv, "sync", "--frozen", "--inexact", "--extra", "test", "--python", PY]
        if _run(cmd, env=env) != 0:
            sys.exit("installing the locked versions failed (see uv's message above)")
    else:
        constraints = VENV / "constraints.txt"
        constraints.write_text("\n".join(_lock_constraints()) + "\n")
        pip = [PY, "-m", "pip", "--disable-pip-version-check", "install", "-q"]
        if _run([*pip, "-c", constraints, "-e", ".[test]"]) != 0:
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


def min_versions(args: list[str]) -> int:
    """Install the lowest allowed direct versions into .venv-min and run the core tests."""
    uv = shutil.which("uv")
    if uv is None:
        sys.exit("min-versions needs uv (pip install uv): pip cannot resolve lowest versions")
    py = MIN_VENV / ("Scripts" if os.name == "nt" else "bin") / "python"
    if not py.exists() and _run([uv, "venv", "--python", sys.executable, MIN_VENV]) != 0:
        return 1
    install = [uv, "pip", "install", "-p", py, "--resolution", "lowest-direct", "-e", ".[test]"]
    if _run(install) != 0:
        return 1
    _run([uv, "pip", "list", "-p", py])  # the versions tested, for the log
    return _run([py, "-m", "pytest", "-n", "2", "-q", "-p", "no:cacheprovider", *MIN_TESTS, *args])


def main() -> int:
    commands = {"dashboard": dashboard, "test": test, "min-versions": min_versions}
    if len(sys.argv) < 2 or sys.argv[1] not in commands:
        print(__doc__)
        return 2
    return commands[sys.argv[1]](sys.argv[2:])


if __name__ == "__main__":
    raise SystemExit(main())

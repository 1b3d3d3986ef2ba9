"""The project's set-up-and-go commands (needs only Python 3.11+).

    python3 tasks.py dashboard     # create/reuse .venv, install, serve the app on 127.0.0.1:8501
    python3 tasks.py test          # create/reuse .venv, install, ruff, build check, all tests
    python3 tasks.py min-versions  # lowest allowed versions in .venv-min, then the core tests

``dashboard`` and ``test`` create a virtual environment in ``.venv`` on first use and
reinstall the project with every extra (``[all]`` and ``[test]``) when ``pyproject.toml``,
``uv.lock`` or ``requirements-lock.txt`` changes, so they work on a fresh machine.  Where
``uv`` is installed they install the exact versions of ``uv.lock`` (``uv sync --frozen``);
without it, pip installs the same versions from ``requirements-lock.txt`` (exported from
``uv.lock`` with every file's hash, ``pip install --require-hashes``; a test keeps the two in
step) and then the project itself.  ``dashboard`` runs ``goodput dashboard`` (extra arguments
pass through, e.g. ``--port 8502``).  ``test`` also builds the sdist and the wheel and fails
on any warning the build prints.  ``min-versions`` (needs uv) installs the lowest versions
that pyproject.toml allows for each direct dependency (``uv pip install --resolution
lowest-direct``) into ``.venv-min`` and runs the models, validation, command-line and an app
smoke test there, which checks that the dependency floors are honest.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import venv
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / "python"
STAMP = VENV / ".goodput-installed"
LOCK = ROOT / "uv.lock"
#: uv.lock exported for pip, with hashes (kept in step by tests/test_lock_export.py):
EXPORT = "uv export --frozen --extra all --extra test --no-emit-project -o requirements-lock.txt"
REQUIREMENTS = ROOT / "requirements-lock.txt"
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


def ensure_env() -> None:
    """Create .venv and install the project with every extra, once per pyproject or lock
    change: the locked versions with uv where it is installed, else pip installs the same
    versions, hash-checked, from requirements-lock.txt."""
    if sys.version_info < (3, 11):  # noqa: UP036 - this file runs on the system Python
        sys.exit(f"Python 3.11+ is required, this is {sys.version.split()[0]}")
    uv = shutil.which("uv")
    if not PY.exists():
        print(f"creating virtual environment in {VENV}", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    lock = LOCK.read_bytes() if LOCK.exists() else b""
    pinned = REQUIREMENTS.read_bytes() if REQUIREMENTS.exists() else b""
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes() + lock + pinned).hexdigest()
    if STAMP.exists() and STAMP.read_text() == digest:
        return
    if uv and lock:
        env = {**os.environ, "UV_PROJECT_ENVIRONMENT": str(VENV)}
        cmd = [uv, "sync", "--frozen", "--inexact", "--extra", "all", "--extra", "test"]
        if _run([*cmd, "--python", PY], env=env) != 0:
            sys.exit("installing the locked versions failed (see uv's message above)")
    else:
        pip = [PY, "-m", "pip", "--disable-pip-version-check", "install", "-q"]
        if pinned:  # every dependency at its locked version, each file checked by its hash
            if _run([*pip, "--require-hashes", "--no-deps", "-r", REQUIREMENTS]) != 0:
                sys.exit("installing the locked versions failed (see pip's message above)")
            install = [*pip, "--no-deps", "-e", "."]
        else:  # no lock: whatever pyproject.toml allows
            install = [*pip, "-e", ".[all,test]"]
        if _run(install) != 0:
            sys.exit("installing the project failed (see pip's message above)")
    STAMP.write_text(digest)


def dashboard(args: list[str]) -> int:
    """``goodput dashboard`` from .venv: 127.0.0.1:8501 unless ``--host``/``--port`` say
    otherwise, no outbound request."""
    ensure_env()
    return _run([PY, "-m", "goodput_lab._console", "dashboard", *args])


#: What a clean build prints none of (setuptools' deprecations, its "Package would be
#: ignored" notices and distutils' "warning:" lines all match).
BUILD_WARNING = re.compile(r"warning|deprecat", re.IGNORECASE)


def build_check() -> int:
    """Build the sdist and the wheel; fail on any warning in the output (the build's
    "warnings as errors") and unless the wheel carries the LICENSE."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    with tempfile.TemporaryDirectory(prefix="goodput-build-") as out:
        cmd = [PY, "-m", "build", "--outdir", out, "."]
        print("+", " ".join(str(c) for c in cmd), flush=True)
        res = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
        output = res.stdout + res.stderr
        warnings = [line for line in output.splitlines() if BUILD_WARNING.search(line)]
        if res.returncode != 0 or warnings:
            print(output[-4000:] if res.returncode else "\n".join(warnings), file=sys.stderr)
            print("build check failed: the build must succeed and print no warning", flush=True)
            return 1
        wheels = list(Path(out).glob("*.whl"))
        names = zipfile.ZipFile(wheels[0]).namelist() if len(wheels) == 1 else []
        if not any(n.endswith(".dist-info/licenses/LICENSE") for n in names):
            print("build check failed: the wheel carries no LICENSE", flush=True)
            return 1
        print(f"build check: {', '.join(sorted(p.name for p in Path(out).iterdir()))}, no warning")
    return 0


def test(args: list[str]) -> int:
    ensure_env()
    rc = _run([PY, "-m", "ruff", "check", "."])
    rc |= _run([PY, "-m", "ruff", "format", "--check", "."])
    rc |= build_check()
    # tests marked slow (minutes of CPU each) run with: python3 tasks.py test -m slow;
    # loadgroup keeps each module marked xdist_group (a minute-long shared fixture) on one
    # worker, so the fixture is not built once per worker
    rc_tests = _run([PY, "-m", "pytest", "-n", "2", "--dist", "loadgroup", "-m", "not slow", *args])
    return rc_tests or rc


def min_versions(args: list[str]) -> int:
    """Install the lowest allowed direct versions into .venv-min and run the core tests."""
    uv = shutil.which("uv")
    if uv is None:
        sys.exit("min-versions needs uv (pip install uv): pip cannot resolve lowest versions")
    py = MIN_VENV / ("Scripts" if os.name == "nt" else "bin") / "python"
    if not py.exists() and _run([uv, "venv", "--python", sys.executable, MIN_VENV]) != 0:
        return 1
    install = [uv, "pip", "install", "-p", py, "--resolution", "lowest-direct", "-e", ".[all,test]"]
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

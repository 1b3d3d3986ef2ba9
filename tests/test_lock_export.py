"""requirements-lock.txt (what ``python3 tasks.py`` installs with pip when uv is absent) pins
exactly the packages and versions of uv.lock that the [all] and [test] extras need, each
with its files' hashes.  After ``uv lock``, re-export it with the command in tasks.EXPORT."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PROJECT = "goodput-lab"
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)")


def _locked_closure(extras: tuple[str, ...]) -> set[tuple[str, str]]:
    """(name, version) of every registry package uv.lock resolves for the project with
    ``extras``, on any platform (markers kept, as uv export keeps them)."""
    packages: dict[str, list[dict]] = {}
    for p in tomllib.loads((ROOT / "uv.lock").read_text(encoding="utf-8"))["package"]:
        packages.setdefault(p["name"], []).append(p)

    def entry(dep: dict) -> dict:
        found = packages[dep["name"]]
        if "version" in dep:
            found = [p for p in found if p["version"] == dep["version"]]
        assert len(found) == 1, dep
        return found[0]

    out: set[tuple[str, str]] = set()
    seen: set[tuple[str, str, str]] = set()
    todo = [{"name": PROJECT, "extra": list(extras)}]
    while todo:
        dep = todo.pop()
        pkg = entry(dep)
        for extra in ["", *dep.get("extra", [])]:
            key = (pkg["name"], pkg["version"], extra)
            if key in seen:
                continue
            seen.add(key)
            todo += pkg.get("optional-dependencies", {}).get(extra, []) if extra else []
            todo += [] if extra else pkg.get("dependencies", [])
        if pkg["name"] != PROJECT:
            out.add((pkg["name"], pkg["version"]))
    return out


def _pins(text: str) -> dict[tuple[str, str], int]:
    """(name, version) -> number of hashes, from a requirements file."""
    pins: dict[tuple[str, str], int] = {}
    current = None
    for line in text.splitlines():
        m = PIN.match(line)
        if m:
            current = (m.group(1), m.group(2))
            pins[current] = 0
        elif current and line.strip().startswith("--hash=sha256:"):
            pins[current] += 1
    return pins


def _export_command() -> list[str]:
    import tasks

    return shlex.split(tasks.EXPORT)


def test_requirements_lock_pins_exactly_the_locked_closure_with_hashes():
    pins = _pins((ROOT / "requirements-lock.txt").read_text(encoding="utf-8"))
    assert set(pins) == _locked_closure(("all", "test"))
    assert all(n >= 1 for n in pins.values()), [p for p, n in pins.items() if n == 0]
    assert any(name == "streamlit" for name, _ in pins)  # the [dashboard] extra is in


def test_the_closure_check_can_fail():
    """The core alone leaves out the dashboard's packages: the comparison would catch a
    stale export that lacks them."""
    core = {n for n, _ in _locked_closure(())}
    assert {"numpy", "scipy", "polars", "dask", "distributed", "tomli-w"} <= core
    assert not {"streamlit", "plotly", "playwright", "pytest"} & core


@pytest.mark.skipif(shutil.which("uv") is None, reason="uv is not installed (checked above)")
def test_requirements_lock_is_what_uv_exports_now(tmp_path):
    cmd = _export_command()
    assert cmd[:2] == ["uv", "export"] and cmd[-2:] == ["-o", "requirements-lock.txt"]
    out = tmp_path / "requirements-lock.txt"
    subprocess.run([*cmd[:-1], str(out), "--quiet"], cwd=ROOT, check=True, timeout=60)

    def body(text: str) -> list[str]:
        return [line for line in text.splitlines() if not line.startswith("#")]

    assert body(out.read_text()) == body((ROOT / "requirements-lock.txt").read_text())

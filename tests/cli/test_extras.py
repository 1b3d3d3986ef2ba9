"""A core install (no extras) runs every model command; the dashboard and the PDF/HTML
reports, which need an extra, say which one in one line (exit status 2).

The core install is simulated in a fresh interpreter by an import hook that refuses
streamlit, plotly and playwright, as a virtual environment without them would
(scripts/core_install.py measures the real thing: a fresh venv with the wheel alone).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
OPTIONAL = ("streamlit", "plotly", "playwright")

#: Runs the command lines given as JSON in argv[1] through the console script's entry point
#: with the optional libraries refused; prints {status, stderr} per command and the optional
#: modules that ended up loaded.
_CORE = """
import contextlib, importlib.abc, io, json, sys
BLOCKED = OPTIONAL
class _Refuse(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
sys.meta_path.insert(0, _Refuse())
from goodput_lab._console import main
runs = []
for argv in json.loads(sys.argv[1]):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(argv)
        except SystemExit as exc:
            status = exc.code
    runs.append({"argv": argv, "status": status, "stderr": err.getvalue(), "out": out.getvalue()[:300]})
loaded = sorted(m for m in sys.modules if m.split(".")[0] in BLOCKED)
print(json.dumps({"runs": runs, "loaded": loaded}))
""".replace("OPTIONAL", repr(OPTIONAL))


def _core(*argvs: list[str]) -> dict:
    res = subprocess.run(
        [sys.executable, "-c", _CORE, json.dumps(argvs)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    assert res.returncode == 0, res.stderr[-3000:]
    return json.loads(res.stdout.splitlines()[-1])


@pytest.fixture(scope="module")
def core_runs(tmp_path_factory) -> dict:
    tmp = tmp_path_factory.mktemp("core")
    got = _core(
        ["evaluate", "aws-16k-h100", "--json"],
        ["compare", "aws-16k-h100", "aws-16k-h100-improved"],
        ["instances", "--scenario", "llama3-8b"],
        ["optimize", "aws-16k-h100"],
        ["outputs"],
        ["simulate", "aws-16k-h100", "--trials", "200", "--days", "5"],
        ["plan", "aws-16k-h100", "--trials", "200"],
        ["ladder", "aws-16k-h100", "--trials", "200"],
        ["fit", "data/failure_logs/synthetic-sample.csv"],
        ["reconcile", "data/timelines/example-run.csv"],
        [
            "sweep",
            "aws-16k-h100",
            "--vary",
            "checkpoint.interval_minutes=10:60:3",
            "--workers",
            "1",
            "-o",
            str(tmp / "sweep.parquet"),
        ],
        ["report", "aws-16k-h100", "-o", str(tmp / "scenario.toml")],
        ["dashboard", "--port", "8765"],
        ["report", "aws-16k-h100", "-o", str(tmp / "report.pdf")],
        ["report", "aws-16k-h100", "-o", str(tmp / "report.html")],
        ["report", "aws-16k-h100", "-o", str(tmp / "data.csv")],
    )
    got["tmp"] = tmp
    return got


MODEL_COMMANDS = (
    "evaluate",
    "compare",
    "instances",
    "optimize",
    "outputs",
    "simulate",
    "plan",
    "ladder",
    "fit",
    "reconcile",
    "sweep",
)


def test_every_model_command_runs_without_the_extras(core_runs):
    ran = {r["argv"][0]: r for r in core_runs["runs"] if r["argv"][0] in MODEL_COMMANDS}
    assert set(ran) == set(MODEL_COMMANDS)
    for name, r in ran.items():
        assert r["status"] == 0, (name, r["stderr"][-1500:])
    assert '"node_failures_per_day": 4' in ran["evaluate"]["out"]
    assert (core_runs["tmp"] / "sweep.parquet").stat().st_size > 0
    assert "[cluster]" in (core_runs["tmp"] / "scenario.toml").read_text()


def test_no_command_loaded_an_optional_library(core_runs):
    """The hook refuses them; an import that a command caught and survived would still be
    recorded here only if it succeeded, so also check nothing slipped through."""
    assert core_runs["loaded"] == []


@pytest.mark.parametrize(
    ("command", "extra", "missing"),
    [
        ("dashboard 8765", "dashboard", "streamlit, plotly are"),
        ("report report.pdf", "pdf", "playwright, plotly are"),
        ("report report.html", "dashboard", "plotly is"),  # the report needs no streamlit
        ("report data.csv", "dashboard", "plotly is"),
    ],
)
def test_a_command_that_needs_an_extra_names_it_in_one_line(core_runs, command, extra, missing):
    runs = {" ".join([*r["argv"][:1], Path(r["argv"][-1]).name]): r for r in core_runs["runs"]}
    r = runs[command]
    assert r["status"] == 2
    lines = r["stderr"].splitlines()
    assert len(lines) == 1, r["stderr"]
    assert f"needs the [{extra}] extra ({missing} not installed)" in lines[0]
    assert lines[0].endswith(f"pip install 'goodput-lab[{extra}]'")
    assert "Traceback" not in r["stderr"]


def test_importing_the_models_loads_no_optional_library():
    """Every module of goodput_lab.models, imported in a fresh interpreter (with the extras
    installed, so an import would succeed and show up in sys.modules)."""
    code = (
        "import importlib, pkgutil, sys, json\n"
        "import goodput_lab.models as m\n"
        "for info in pkgutil.iter_modules(m.__path__):\n"
        "    importlib.import_module(f'goodput_lab.models.{info.name}')\n"
        f"print(json.dumps(sorted(x for x in sys.modules if x.split('.')[0] in {OPTIONAL!r})))\n"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr[-2000:]
    assert json.loads(res.stdout.splitlines()[-1]) == []
    # the check can fail: the dashboard's chart styles do import plotly
    res = subprocess.run(
        [sys.executable, "-c", "import sys, goodput_lab.charts.style; "
         "print('plotly' in sys.modules)"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert res.stdout.strip() == "True", res.stderr[-2000:]


def test_the_extras_table_matches_pyproject():
    from goodput_lab._extras import EXTRAS

    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    optional = declared["optional-dependencies"]

    def names(reqs: list[str]) -> set[str]:
        import re

        return {re.split(r"[<>=!~\[; ]", r, maxsplit=1)[0].lower() for r in reqs}

    for extra, modules in EXTRAS.items():
        assert names(optional[extra]) == set(modules), extra
    assert optional["all"] == ["goodput-lab[dashboard,pdf]"]
    assert "goodput-lab[all]" in optional["test"]
    core = names(declared["dependencies"])
    assert core == {"numpy", "scipy", "polars", "dask", "tomli-w"}
    assert not core & set(OPTIONAL)


def test_the_console_turns_a_missing_optional_module_into_one_line(monkeypatch, capsys):
    """The net under every command: a ModuleNotFoundError for an extra's module."""
    from goodput_lab import _console
    from goodput_lab.cli import main as cli

    def boom(argv):
        raise ModuleNotFoundError("No module named 'plotly'", name="plotly.graph_objects")

    monkeypatch.setattr(cli, "main", boom)
    assert _console.main(["outputs"]) == 2
    err = capsys.readouterr().err
    assert err == (
        "goodput: needs the [dashboard] extra (plotly is not installed): "
        "pip install 'goodput-lab[dashboard]'\n"
    )

    def other(argv):
        raise ModuleNotFoundError("No module named 'numpy'", name="numpy")

    monkeypatch.setattr(cli, "main", other)
    with pytest.raises(ModuleNotFoundError):  # not an extra's: a broken install, shown as is
        _console.main(["outputs"])


def test_the_dashboard_binds_loopback_unless_told(monkeypatch):
    """``goodput dashboard`` starts Streamlit through goodput_lab._streamlit with
    server.address 127.0.0.1; ``--host`` replaces it (once: no second address flag)."""
    from goodput_lab.cli import main as cli

    calls = []
    monkeypatch.setattr(cli.subprocess, "call", lambda cmd: calls.append(cmd) or 0)
    assert cli.main(["dashboard"]) == 0
    assert cli.main(["dashboard", "--host", "0.0.0.0", "--port", "9000"]) == 0
    default, wide = calls
    assert default[1:4] == ["-m", "goodput_lab._streamlit", "run"]
    assert [a for a in default if "server.address" in a] == ["--server.address=127.0.0.1"]
    assert [a for a in wide if "server.address" in a] == ["--server.address=0.0.0.0"]
    assert wide[wide.index("--server.port") + 1] == "9000"


@pytest.mark.parametrize("host", ["", "   ", "127.0.0.1 --server.port=1"])
def test_the_dashboard_host_must_be_one_address(host, capsys):
    from goodput_lab.cli import main as cli

    assert cli.main(["dashboard", "--host", host]) == 2
    err = capsys.readouterr().err
    assert err.startswith("goodput: --host: ") and err.count("\n") == 1


def test_json_writes_whole_counts_as_integers(capsys):
    """Counts the vectorised model holds as floats are written as JSON integers
    ("nodes": 128, not 128.0) by every command; a fractional count stays a float."""
    import json

    from goodput_lab.cli import main as cli

    def run(*args):
        assert cli.main([*args, "--json"]) == 0
        return json.loads(capsys.readouterr().out)

    ev = run("evaluate", "llama3-70b")
    for key in ("accelerators", "scaleup_domains", "min_nodes_to_fit", "idle_accelerators"):
        assert type(ev[key]) is int, (key, ev[key])
    assert type(ev["failures_per_day"]) is float
    inst = run("instances", "llama3-70b")
    assert type(inst["cheapest_nodes"]) is int
    assert all(type(r["nodes"]) is int for r in inst["instances"])

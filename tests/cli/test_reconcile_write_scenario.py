"""`goodput reconcile --write-scenario F`: F is never one of the command's inputs (QA pass
29, defect 11: it replaced the ``--scenario`` file it read, comments and all)."""

from __future__ import annotations

import os

import pytest
from goodput_lab.models import Scenario

from goodput_lab.cli.main import main
from tests.conftest import DATA_DIR

EXAMPLE = DATA_DIR / "timelines" / "example-run.csv"
BASE_TEXT = '# my own base, with a comment\nname = "mine"\n\n[cluster]\nnodes = 2000\n'


@pytest.mark.parametrize("spelling", ["in.toml", "./in.toml", "../{dir}/in.toml", "{abs}"])
def test_the_scenario_read_is_not_overwritten(tmp_path, capsys, monkeypatch, spelling):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "in.toml").write_text(BASE_TEXT)
    out = spelling.format(dir=tmp_path.name, abs=tmp_path / "in.toml")
    args = ["reconcile", str(EXAMPLE), "--scenario", "in.toml", "--write-scenario", out]
    assert main([*args, "--trials", "5"]) == 2
    err = capsys.readouterr().err
    assert err == (
        f"goodput: --write-scenario: {out!r} is the --scenario base; writing the fitted "
        "scenario there would overwrite it: choose another --write-scenario\n"
    )
    assert (tmp_path / "in.toml").read_text() == BASE_TEXT


def test_a_hard_link_to_the_scenario_is_refused_too(tmp_path, capsys):
    base = tmp_path / "in.toml"
    base.write_text(BASE_TEXT)
    os.link(base, tmp_path / "same.toml")
    args = ["reconcile", str(EXAMPLE), "--scenario", str(base)]
    assert main([*args, "--write-scenario", str(tmp_path / "same.toml")]) == 2
    assert "is the --scenario base" in capsys.readouterr().err
    assert base.read_text() == BASE_TEXT


def test_the_timeline_and_the_catalog_are_not_overwritten(tmp_path, capsys):
    run = tmp_path / "run.toml"  # a timeline under a .toml name
    run.write_bytes(EXAMPLE.read_bytes())
    assert main(["reconcile", str(run), "--write-scenario", str(run)]) == 2
    assert "is the timeline; writing the fitted scenario there" in capsys.readouterr().err
    assert run.read_bytes() == EXAMPLE.read_bytes()
    cat = tmp_path / "cat.toml"
    cat.write_bytes((DATA_DIR / "instances.csv").read_bytes())
    args = ["reconcile", str(EXAMPLE), "--catalog", str(cat), "--write-scenario", str(cat)]
    assert main(args) == 2
    assert "is the --catalog file; writing the fitted scenario" in capsys.readouterr().err


def test_another_file_is_written_from_the_scenario_read(tmp_path, capsys):
    base = tmp_path / "in.toml"
    base.write_text(BASE_TEXT)
    out = tmp_path / "fitted.toml"
    args = ["reconcile", str(EXAMPLE), "--scenario", str(base), "--write-scenario", str(out)]
    assert main([*args, "--trials", "5"]) == 0
    assert base.read_text() == BASE_TEXT
    assert Scenario.load(out).name == "Fitted to example-run.csv"

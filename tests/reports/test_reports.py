"""Exported reports (issue #7): open the produced files and check what they say.

Each file is generated once per module (PDF takes ~3 s in Chromium) and every test reads
it back: HTML with ``html.parser``, PDF with ``pdftotext``, CSV/Parquet with polars, TOML
with :meth:`Scenario.from_toml`.  Expected numbers come from ``models.evaluate`` /
``models.compare`` and, for the headline claim, from README.md (+4.03 points, $190,340/day).
"""

from __future__ import annotations

import dataclasses
import math
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import polars as pl
import pytest
from goodput_lab.models import FIELDS, Scenario, ValidationError, compare, evaluate, load_preset
from goodput_lab.models.scenario import origin_name

from goodput_lab.reports import (
    build_report,
    content,
    montecarlo_available,
    render,
    write_report,
)
from goodput_lab.reports.content import format_value, optional_sections
from goodput_lab.reports.html import render_html
from goodput_lab.reports.tables import read_table
from tests.conftest import DATA_DIR, ROOT, SCENARIOS

XSS = "<script>alert(1)</script>"
DATE = __import__("datetime").date(2026, 12, 2)
needs_pdftotext = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="no pdftotext")
needs_chromium = pytest.mark.skipif(
    not Path("/usr/bin/chromium").exists() and shutil.which("chromium") is None,
    reason="no chromium",
)


class _Doc(HTMLParser):
    """Collects visible text, script bodies and tag names of an HTML document."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.text: list[str] = []
        self.scripts: list[str] = []
        self.script_srcs: list[str] = []
        self.tags: list[str] = []
        self.ids: set[str] = set()
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        if tag == "script":
            self._in_script = True
            self.scripts.append("")
            if attrs.get("src"):
                self.script_srcs.append(attrs["src"])

    def handle_endtag(self, tag):
        if tag == "script":
            self._in_script = False

    def handle_data(self, data):
        if self._in_script:
            self.scripts[-1] += data
        else:
            self.text.append(data)

    @property
    def visible(self) -> str:
        return " ".join(" ".join(self.text).split())


def parse(html_text: str) -> _Doc:
    doc = _Doc()
    doc.feed(html_text)
    doc.close()
    return doc


@pytest.fixture(scope="module")
def baseline() -> Scenario:
    return load_preset("aws-16k-h100")


@pytest.fixture(scope="module")
def report(baseline):
    return build_report(baseline, generated=DATE)


@pytest.fixture(scope="module")
def html_doc(report, tmp_path_factory):
    path = write_report(report, tmp_path_factory.mktemp("rep") / "report.html")
    return path.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def comparison_report(baseline):
    return build_report(baseline, compare_to=load_preset("aws-16k-h100-improved"), generated=DATE)


# ----------------------------------------------------------------------------- HTML
def test_html_parses_and_shows_headline_numbers(html_doc, baseline, catalog):
    ev = evaluate(baseline, catalog)
    doc = parse(html_doc)
    text = doc.visible
    assert f"{ev['goodput'] * 100:.2f}%" == "89.34%"  # README: Daly exact for the baseline
    for expected in (
        "89.34%",  # goodput, Daly exact
        "88.89%",  # first order: 1 - 4 x 40 min/1440 min... = 1 - 160/1440
        f"${ev['lost_usd_per_day']:,.0f}/day",
        "$4,719,360/day",  # 2,000 x $98.32 x 24 h
        "$190,340/day",  # value of 0.1 pp (README headline)
        "+4.03 goodput points",
        "Generated 2026-12-02",
        "Goodput report",
        baseline.name,
    ):
        assert expected in text, expected
    assert {"losses", "assumptions", "methods", "fig-waterfall", "fig-goodput-vs-rate"} <= doc.ids


def test_html_is_self_contained(html_doc):
    doc = parse(html_doc)
    assert doc.script_srcs == []  # nothing loaded from the network
    assert sum("plotly.js v" in s for s in doc.scripts) == 1  # plotly.js embedded exactly once
    calls = "".join(s for s in doc.scripts if "Plotly.newPlot" in s)
    assert '"fig-waterfall"' in calls and '"fig-goodput-vs-rate"' in calls
    assert "link" not in doc.tags and "iframe" not in doc.tags and "img" not in doc.tags


def test_html_lists_every_assumption_with_its_source(html_doc, report):
    text = parse(html_doc).visible
    for key, f in FIELDS.items():
        assert key in text, key
        assert f.label in text, f.label
    assert "arXiv:2407.21783" in text  # the failure-rate default's source (Llama 3)
    assert report.evaluation.instance.source_specs in text  # catalog provenance
    for method in ("Daly 2006", "Young 1974", "First-order waste", "Poisson spare model"):
        assert method in text, method


def test_loss_table_total_matches_goodput(html_doc, report):
    ev = report.evaluation
    assert f"{(1 - ev['goodput']) * 100:.2f}" == "10.66"
    # $503,135/day of paid time that does not advance training + $2,857/day for the shared
    # file system (the loss table's checkpoint-storage line) = lost_usd_per_day
    assert f"${ev['lost_usd_per_day']:,.0f}" == "$505,992"
    assert "Total lost 153.5 $505,992" in parse(html_doc).visible


def test_user_text_is_escaped_in_html(baseline):
    evil = baseline.replace(name=XSS, description='<img src=x onerror="alert(2)"> & notes')
    out = render_html(build_report(evil, generated=DATE))
    doc = parse(out)
    assert XSS in doc.visible  # shown as text...
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in out  # ...because it is escaped
    assert not any("alert(1)" in s for s in doc.scripts)  # never as a script
    assert "img" not in doc.tags
    assert doc.tags.count("script") == len(doc.scripts) == sum("Plotly" in s for s in doc.scripts)


# ----------------------------------------------------------------------------- comparison
def test_comparison_report_shows_savings(comparison_report, catalog):
    c = compare(load_preset("aws-16k-h100"), load_preset("aws-16k-h100-improved"), catalog)
    text = parse(render_html(comparison_report)).visible
    assert f"{c.goodput_delta * 100:+.2f} points" == "+4.03 points"
    assert "+4.03 points" in text
    assert f"${c.savings_usd_per_day:,.0f}" == "$190,340"
    assert "Savings per day $190,340" in text
    assert f"Savings per year ${c.savings_usd_per_day * 365.25:,.0f}" in text
    # the only changed assumption is the failure rate, 0.2 % -> 0.1 %
    assert "Node failure rate reliability.node_failure_rate_per_day 0.20% 0.10%" in text
    assert "Savings" in [t for t, _ in comparison_report.methods]


# ----------------------------------------------------------------------------- PDF
def _pdf_pages(path: Path) -> list[str]:
    text = subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout
    return text.split("\f")[:-1]  # pdftotext ends every page with a form feed


@needs_pdftotext
@needs_chromium
def test_pdf_pages_and_text(report, tmp_path):
    path = write_report(report, tmp_path / "report.pdf")
    assert path.read_bytes()[:5] == b"%PDF-"
    pages = _pdf_pages(path)
    n = len(pages)
    # the assumptions table grows with the scenario fields; printed at its own size (until
    # issue 31 a table wider than the page made Chromium shrink every page to about half);
    # 25 since workload.recompute_layers joined (24 before)
    assert 3 <= n <= 25, n
    first = pages[0]
    for expected in ("Goodput report", "Summary", "Headline metrics", "89.34%", "$190,340/day"):
        assert expected in first, expected
    assert "Where the time and money go" in pages[1]  # the waterfall starts on page 2
    for i, page in enumerate(pages, start=1):
        assert f"Page {i} of {n}" in page  # footer with page numbers
    joined = "\n".join(pages)
    assert "Assumptions and their sources" in joined
    assert "Total lost" in joined and "$505,992" in joined
    # order: summary (p. 1), ..., assumptions on a new page, methods, reproduce, footer last
    first_line = [p.strip().splitlines()[0] if p.strip() else "" for p in pages]
    a = first_line.index("Assumptions and their sources")
    # the methods (Young 1974, then Daly 2006; they may straddle a page break) follow
    young = next(i for i, p in enumerate(pages) if "First-order waste (Young 1974)" in p)
    daly = next(i for i, p in enumerate(pages) if "Expected wall time (Daly 2006)" in p)
    assert 0 < a < young <= daly
    assert "every figure is derivable from the assumptions" in pages[-1]


@needs_pdftotext
@needs_chromium
def test_pdf_comparison_has_escaped_name_and_savings(baseline, tmp_path):
    evil = baseline.replace(name=XSS)
    rep = build_report(evil, compare_to=load_preset("aws-16k-h100-improved"), generated=DATE)
    path = write_report(rep, tmp_path / "cmp.pdf")
    joined = "\n".join(_pdf_pages(path))
    assert "Goodput comparison report" in joined
    assert f"Baseline: {XSS}" in joined  # the name as literal text
    assert "Savings per year" in joined and "$69,521,658" in joined


# ----------------------------------------------------------------------------- tables
@pytest.mark.parametrize("ext", [".csv", ".parquet"])
def test_tables_round_trip(report, tmp_path, ext):
    path = write_report(report, tmp_path / f"data{ext}")
    df = read_table(path)
    ev = report.evaluation
    metrics = df.filter(pl.col("table") == "metrics")
    texts = metrics.filter(pl.col("value").is_null())
    assert dict(zip(texts["key"], texts["text"], strict=True)) == ev.texts
    metrics = metrics.filter(pl.col("value").is_not_null())
    got = dict(zip(metrics["key"], metrics["value"], strict=True))
    want = {**ev.metrics, **ev.value_of_reliability}
    # exact float round trip; NaN (e.g. a communication split the MFU cannot hold) stays NaN
    assert got.keys() == want.keys()
    assert all(got[k] == want[k] or (math.isnan(got[k]) and math.isnan(want[k])) for k in want)
    assert got["goodput"] == ev["goodput"]
    bd = df.filter(pl.col("table") == "loss_breakdown")
    for row in ev.loss_breakdown():
        value = bd.filter(pl.col("key") == f"{row['component']}.usd_per_day")["value"].item()
        assert value == row["usd_per_day"]
    # the breakdown adds up to the exact loss (1 - goodput) x 1440 min/day
    minutes = bd.filter(pl.col("key").str.ends_with(".minutes_per_day"))["value"].sum()
    assert minutes == pytest.approx((1 - ev["goodput"]) * 1440, rel=1e-12)
    assert set(df["scenario"]) == {report.scenario.name}
    # the inputs travel with the outputs, each with its source
    inputs = df.filter(pl.col("table") == "inputs")
    rate = inputs.filter(pl.col("key") == "reliability.node_failure_rate_per_day").row(
        0, named=True
    )
    assert rate["value"] == report.scenario["reliability.node_failure_rate_per_day"]
    assert "arXiv:2407.21783" in rate["source"]
    price = inputs.filter(pl.col("key") == "pricing.usd_per_instance_hour").row(0, named=True)
    assert price["value"] == 98.32 and "Historical price of the claim" in price["source"]
    assert metrics.filter(pl.col("key") == "goodput")["text"].item() == "89.34%"


def test_comparison_table_has_savings(comparison_report):
    df = pl.read_csv(render(comparison_report, ".csv"))
    c = comparison_report.comparison
    savings = df.filter(pl.col("key") == "savings_usd_per_day")["value"].item()
    assert savings == c.savings_usd_per_day
    assert set(df["role"]) == {"baseline", "candidate", "comparison"}


# ----------------------------------------------------------------------------- TOML
@pytest.mark.parametrize("stem", sorted(p.stem for p in SCENARIOS.glob("*.toml")))
def test_toml_reloads_to_identical_scenario(stem, tmp_path, catalog):
    scenario = load_preset(stem)
    if catalog[scenario["cluster.instance"]].usd_per_hour is None:  # a reference system:
        scenario = scenario.replace({"pricing.usd_per_instance_hour": 1.0})  # user's price
    path = write_report(build_report(scenario, catalog=catalog), tmp_path / "s.toml")
    assert Scenario.load(path) == scenario


def test_toml_keeps_edits_optimal_and_catalog_price(tmp_path, catalog):
    s = Scenario.default().replace(
        {"checkpoint.interval_minutes": "optimal", "pricing.usd_per_instance_hour": None},
        name=XSS + ' "quoted" \\ name',
    )
    path = write_report(build_report(s, catalog=catalog), tmp_path / "s.toml")
    back = Scenario.load(path)
    assert back == s
    assert back.name == s.name


# ----------------------------------------------------------------------------- sections
def test_optional_sections_group_figures_by_registry_section(report):
    ev = report.evaluation
    ids = {s.id: [m.key for m in s.metrics] for s in optional_sections(ev)}
    assert "time_to_train_days" in ids["train"]
    assert "step_seconds" in ids["compute"]
    assert "save_seconds" in ids["checkpoint"]
    assert all("goodput" not in keys for keys in ids.values())  # core figures stay core
    text = parse(render_html(report)).visible
    assert "Compute and network" in text and "Time and cost to train" in text
    assert f"Time to train {ev['time_to_train_days']:.1f} days" in text  # 92.5 (modelled step)
    assert "Time to train 92.5 days" in text
    # a figure that is not in the output registry cannot be reported
    ev2 = dataclasses.replace(ev, metrics={**ev.metrics, "zz_weird": 2.0})
    with pytest.raises(KeyError, match="not in the output registry"):
        optional_sections(ev2)


def test_format_value_hand_cases():
    assert format_value("goodput", 0.89338) == "89.34%"
    assert format_value("lost_usd_per_day", 503134.9) == "$503,135/day"
    assert format_value("savings_usd_per_day", -1234.4) == "−$1,234/day"
    assert format_value("usd_per_instance_hour", 98.32) == "$98.32/h"
    assert format_value("mtbf_hours", 6.0) == "6.00 h"
    assert format_value("minutes_lost_per_failure", 31.0) == "31.0 min"
    assert format_value("goodput", float("nan")) == "n/a"


# ----------------------------------------------------------------------------- Monte Carlo
def test_trials_without_simulator_is_a_clear_error(baseline, monkeypatch):
    monkeypatch.setattr(content, "montecarlo_available", lambda: False)
    with pytest.raises(ValidationError, match="Monte Carlo simulator"):
        build_report(baseline, trials=100)


@pytest.mark.skipif(not montecarlo_available(), reason="models/montecarlo.py not present")
def test_trials_add_percentiles(baseline, catalog):
    rep = build_report(baseline, trials=200, seed=7, catalog=catalog, generated=DATE)
    table = rep.montecarlo.table
    # the Monte Carlo page's own two tables (views.montecarlo), row for row
    assert table.columns == ["Figure", "Closed form", "Simulated mean", "Std. error"]
    assert rep.montecarlo.spread.columns == ["Figure", "P5", "P50", "P95"]
    row = table.filter(pl.col("Figure") == "Goodput over 30 days").row(0, named=True)
    assert row["Closed form"] == "89.34%"  # Daly's expectation, as in the headline
    assert "Failures per run" in table["Figure"].to_list()
    row = rep.montecarlo.spread.filter(pl.col("Figure") == "Goodput over 30 days").row(
        0, named=True
    )

    def pct(text: str) -> float:
        return float(text.rstrip("%"))

    p5, p50, p95 = pct(row["P5"]), pct(row["P50"]), pct(row["P95"])
    assert p5 <= p50 <= p95
    # 200 runs of 30 days: the median is within 1 goodput point of the closed form
    # (the per-run spread is ~0.8 points, so the median's standard error is ~0.07)
    assert abs(p50 - 89.34) < 1.0
    doc = parse(render_html(rep))
    assert "Monte Carlo percentiles" in doc.visible and "200 simulated runs, seed 7" in doc.visible
    assert "fig-montecarlo" in doc.ids  # fan chart of cumulative goodput


# ----------------------------------------------------------------------------- CLI
def _goodput(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "goodput_lab.cli.main", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )


def test_cli_writes_csv_and_toml(tmp_path):
    base = str(SCENARIOS / "aws-16k-h100.toml")
    r = _goodput("report", base, "-o", str(tmp_path / "d.csv"))
    assert r.returncode == 0, r.stderr
    df = read_table(tmp_path / "d.csv")
    g = df.filter((pl.col("table") == "metrics") & (pl.col("key") == "goodput"))["value"].item()
    assert round(g, 4) == 0.8934
    r = _goodput("report", base, "--set", "cluster.nodes=1000", "-o", str(tmp_path / "s.toml"))
    assert r.returncode == 0, r.stderr
    # the edited preset is written under a name that says so (it may state numbers the
    # edit changed: models.scenario.follow_edits)
    preset = load_preset("aws-16k-h100")
    assert Scenario.load(tmp_path / "s.toml") == preset.replace(
        {"cluster.nodes": 1000}, name=f"Modified from {origin_name(preset.name)}"
    )
    assert origin_name(preset.name) == "AWS 16k H100: headline-claim baseline"
    # the file holds the scenario, not a --catalog the report's figures would read (QA 29
    # #6: re-evaluated without it, cost to train read $32.4M for the report's $23.5M)
    catalog = str(DATA_DIR / "instances.csv")
    r = _goodput("report", base, "--catalog", catalog, "-o", str(tmp_path / "c.toml"))
    assert r.returncode == 2 and "--catalog: a .toml output holds the scenario" in r.stderr
    assert not (tmp_path / "c.toml").exists()


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["-o", "report.docx"], "supported extension"),
        (["--compare", "missing.toml", "-o", "r.html"], "missing.toml"),
        (["--set", "cluster.nodes=-5", "-o", "r.html"], "cluster.nodes"),
        (["--trials", "0", "-o", "r.html"], "--trials"),
    ],
)
def test_cli_bad_input_exits_2_with_one_line(args, needle, tmp_path):
    args = [a if not a.startswith("r.") else str(tmp_path / a) for a in args]
    r = _goodput("report", str(SCENARIOS / "aws-16k-h100.toml"), *args)
    assert r.returncode == 2
    assert needle in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    assert "Traceback" not in r.stderr
    assert list(tmp_path.iterdir()) == []  # nothing written


@pytest.mark.skipif(not montecarlo_available(), reason="models/montecarlo.py not present")
def test_cli_trials_writes_percentiles(tmp_path):
    r = _goodput(
        "report",
        str(SCENARIOS / "aws-16k-h100.toml"),
        "--trials",
        "50",
        "-o",
        str(tmp_path / "r.html"),
    )
    assert r.returncode == 0, r.stderr
    assert "Monte Carlo percentiles" in parse((tmp_path / "r.html").read_text()).visible


def test_checkpoint_and_instance_sections_from_the_models(report, catalog):
    """Sections built from models.optimize (issue #4) when the evaluation has their inputs."""
    opt = pytest.importorskip("goodput_lab.models.optimize")
    from goodput_lab.models import resolve_inputs

    sections = {s.id: s for s in report.sections}
    if "time_to_train_days" not in report.evaluation.metrics:
        pytest.skip("compute model not in this build")
    ck = {m.key: m for m in sections["checkpoint"].metrics}
    rec = opt.recommend_checkpoint_interval(resolve_inputs(report.scenario, catalog))
    assert round(rec.interval_minutes, 1) == 26.2  # Daly's exact optimum for δ=1 min, M=6 h
    assert ck["recommended_checkpoint_interval_minutes"].text == "26.2 min"
    ev = report.evaluation  # the same figure as goodput evaluate's exact optimum
    assert rec.interval_minutes == ev["optimal_checkpoint_interval_minutes"]
    # the Instances page's own two tables (views.instances), marks and all
    from goodput_lab.views import instances as inst_svc

    df = inst_svc.table(inst_svc.ranking(report.scenario, dict(catalog), None))
    from goodput_lab.reports.content import COST_RANGE_HEADER, TIME_RANGE_HEADER

    page_cols = sections["instances"].table.drop(TIME_RANGE_HEADER, COST_RANGE_HEADER)
    assert page_cols.equals(inst_svc.ranking_display(df))  # and the 80% ranges beside them
    assert sections["instances-why"].table.equals(
        inst_svc.ranking_why_display(df, report.scenario["workload.mfu_basis"])
    )
    why = sections["instances-why"].table
    mine = why.filter(pl.col("Instance").str.starts_with("p5.48xlarge")).row(0, named=True)
    assert mine["Goodput (%)"] == "89.34"
    cost = sections["instances"].table
    mine = cost.filter(pl.col("Instance").str.starts_with("p5.48xlarge")).row(0, named=True)
    assert mine["Nodes"] == "2,000"  # the header leaves out the unit its label says
    text = parse(render_html(report)).visible
    assert "Checkpointing and hot spares" in text and "Instance choice" in text
    assert "What drives each cost" in text
    assert (
        "as PaLM counts them (Chowdhery et al. 2022" in text
    )  # methods entry of the compute model


def test_why_table_shows_the_modelled_mfu_under_the_modelled_step(catalog):
    """With the modelled step the stated MFU feeds nothing: the second instance table shows
    the modelled end-to-end MFU behind the times (instances --json's effective_mfu)."""
    from goodput_lab.models import load_preset

    from goodput_lab.views import instances as inst_svc

    sc = load_preset("llama3-70b")
    ranking = inst_svc.ranking(sc, dict(catalog), None)
    df = inst_svc.table(ranking)
    why = inst_svc.ranking_why_display(df, sc["workload.mfu_basis"])
    assert "End-to-end MFU (%)" in why.columns and "MFU (%)" not in why.columns
    p5 = df.filter(pl.col("instance") == "p5.48xlarge").row(0, named=True)
    mine = why.filter(pl.col("Instance").str.starts_with("p5.48xlarge")).row(0, named=True)
    assert mine["End-to-end MFU (%)"] == f"{100 * p5['effective_mfu']:.2f}"
    assert p5["effective_mfu"] != pytest.approx(p5["mfu"], abs=1e-3)


def test_light_report_tables_equal_full_report_tables(baseline, report, catalog):
    light = build_report(baseline, catalog=catalog, generated=DATE, detail=False)
    assert light.figures == {} and light.sections == ()
    assert render(light, ".csv") == render(report, ".csv")


def test_an_input_the_scenario_sets_says_so_before_its_defaults_source(tmp_path):
    """The data file's source of cluster.nodes = 128 read "(2,000 p5.48xlarge = 16,000
    H100)": the default's description, as if it were where 128 came from."""
    rep = build_report(load_preset("llama3-70b"), generated=DATE, detail=False)
    path = tmp_path / "d.csv"
    path.write_bytes(render(rep, ".csv"))
    inputs = read_table(path).filter(pl.col("table") == "inputs")
    src = dict(zip(inputs["key"], inputs["source"], strict=True))
    assert src["cluster.nodes"].startswith("Set by the scenario (default 2,000 nodes). ")
    # a field left at its default keeps its description alone
    assert load_preset("llama3-70b")["cluster.spare_nodes"] == FIELDS["cluster.spare_nodes"].default
    assert src["cluster.spare_nodes"] == FIELDS["cluster.spare_nodes"].help

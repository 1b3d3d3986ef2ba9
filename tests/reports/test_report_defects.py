"""Defects of `goodput report` found by a user QA pass, one group of tests per defect.

1. ``-o`` naming one of the command's inputs (the scenario, the ``--compare`` scenario, the
   catalog) overwrote it with exit status 0, losing the user's comments: refused (status 2,
   one line naming the path), nothing written.
2. The scenario TOML cut each derived field's comment at its first '.', inside numbers and
   abbreviations ("the rate times 1" for 1.93, "valid, e" for "e.g.").
3. Parquet text cells carried the CSV formula guard's quote ("'+0.27 points").
4. The HTML instance-choice table's headers ran into each other (nowrap headers wider than
   their fixed-width columns, 203 px of text in a 135 px cell at 1440 px).
5. A report said "All other inputs as in the sidebar" (a report has no sidebar), and an
   on-demand scenario got a "Capacity Block plan" section of one unrelated figure.
"""

from __future__ import annotations

import io
import math
import os
import re
import shutil
from pathlib import Path

import polars as pl
import pytest
from goodput_lab.models import FIELDS, Scenario, load_catalog, load_preset
from goodput_lab.models._text import derived_note, sentences
from goodput_lab.models.scenario import SECTIONS

from goodput_lab.cli.main import main
from goodput_lab.reports import build_report, render
from tests.conftest import DATA_DIR, SCENARIOS

PRESETS = sorted(p.stem for p in SCENARIOS.glob("*.toml"))
HAND_WRITTEN = "# my notes: rate from our 2025 incident log, do not lose this line\n"


# ============================================================== 1. -o is one of the inputs
@pytest.fixture
def scenario_file(tmp_path) -> Path:
    """A user's scenario file with a hand-written comment."""
    path = tmp_path / "work" / "my-scenario.toml"
    path.parent.mkdir()
    path.write_text(HAND_WRITTEN + (SCENARIOS / "llama3-70b.toml").read_text())
    return path


def _refused(capsys, argv: list[str], *keep: Path) -> str:
    """Run ``argv``; it must exit 2 with one line on stderr and leave ``keep`` as they were."""
    before = {p: p.read_bytes() for p in keep}
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("goodput: -o: "), err
    assert "choose another -o" in err
    for p, data in before.items():
        assert p.read_bytes() == data, f"{p} was rewritten"
    assert not [p for p in keep[0].parent.iterdir() if p.name.endswith(".tmp")]
    return err


@pytest.mark.parametrize(
    "spelling", ["as-typed", "dot-dot", "absolute", "symlink", "hardlink", "preset-name"]
)
def test_output_that_is_the_input_scenario_is_refused(scenario_file, capsys, monkeypatch, spelling):
    """`goodput report X.toml --set ... -o X.toml`: the paths are compared resolved (and by
    inode), however the output is spelled."""
    import goodput_lab.models.scenario as scenario_module

    monkeypatch.chdir(scenario_file.parent.parent)
    src = "work/my-scenario.toml"
    out = {
        "as-typed": src,
        "dot-dot": "work/../work/./my-scenario.toml",
        "absolute": str(scenario_file),
        "symlink": "link.toml",
        "hardlink": "hard.toml",
        "preset-name": src,
    }[spelling]
    if spelling == "symlink":
        os.symlink(scenario_file, "link.toml")
    if spelling == "hardlink":
        os.link(scenario_file, "hard.toml")
    if spelling == "preset-name":  # `goodput report my-scenario -o <the preset's file>`
        monkeypatch.setattr(scenario_module, "preset_paths", lambda: {"my-scenario": scenario_file})
        src = "my-scenario"
    err = _refused(capsys, ["report", src, "--set", "cluster.nodes=64", "-o", out], scenario_file)
    shown = out if len(out) <= 76 else "..." + out[-73:]  # the name kept, the head cut
    assert f"{shown!r} is the input scenario" in err
    assert scenario_file.read_text().startswith(HAND_WRITTEN)


@pytest.mark.parametrize("ext", [".html", ".csv"])
def test_output_that_is_the_input_is_refused_in_every_format(tmp_path, capsys, ext):
    """A scenario file is read whatever its name ends with: a report of any format over it
    is refused too (before any extra is asked for or any work is done)."""
    src = tmp_path / f"scenario{ext}"
    src.write_text(HAND_WRITTEN + (SCENARIOS / "llama3-8b.toml").read_text())
    _refused(capsys, ["report", str(src), "-o", str(src)], src)


def test_output_that_is_the_compare_scenario_is_refused(scenario_file, capsys):
    other = scenario_file.parent / "candidate.toml"
    other.write_text(HAND_WRITTEN + (SCENARIOS / "llama3-8b.toml").read_text())
    err = _refused(
        capsys,
        ["report", str(scenario_file), "--compare", str(other), "-o", str(other)],
        other,
        scenario_file,
    )
    assert "is the --compare scenario" in err


def test_output_that_is_the_catalog_is_refused(scenario_file, capsys):
    catalog = scenario_file.parent / "instances.csv"
    shutil.copyfile(DATA_DIR / "instances.csv", catalog)
    err = _refused(
        capsys,
        ["report", str(scenario_file), "--catalog", str(catalog), "-o", str(catalog)],
        catalog,
    )
    assert "is the --catalog file" in err


def test_another_output_beside_the_input_is_written(scenario_file, capsys):
    out = scenario_file.parent / "my-scenario-64.toml"
    argv = ["report", str(scenario_file), "--set", "cluster.nodes=64", "-o", str(out)]
    assert main(argv) == 0
    assert Scenario.from_toml(out.read_text())["cluster.nodes"] == 64
    assert scenario_file.read_text().startswith(HAND_WRITTEN)


# ============================================================== 2. derived-field comments
def _derived_comments(text: str) -> dict[str, str]:
    """``section.key`` -> the comment of each derived (empty) field in a scenario TOML."""
    out, section = {}, ""
    for line in text.splitlines():
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1]
        elif line.startswith("# ") and " = (derived: " in line:
            name, _, note = line[2:].partition(" = (derived: ")
            out[f"{section}.{name}"] = note.removesuffix(")")
        elif '= ""  # derived: ' in line:
            name, _, note = line.partition(' = ""  # derived: ')
            out[f"{section}.{name}"] = note
    return out


@pytest.fixture(scope="module")
def exported_toml(tmp_path_factory) -> dict[str, str]:
    """`goodput report PRESET -o x.toml` of the presets the QA pass read."""
    out = {}
    for name in ("llama3-70b", "deepseek-v3"):
        path = tmp_path_factory.mktemp("toml") / f"{name}.toml"
        assert main(["report", str(SCENARIOS / f"{name}.toml"), "-o", str(path)]) == 0
        out[name] = path.read_text()
    return out


@pytest.mark.parametrize(
    ("preset", "key", "expected"),
    [
        ("llama3-70b", "reliability.node_failure_rate_high", "the rate times 2.16 (fleet prior"),
        ("llama3-70b", "pricing.price_as_of", "When the scenario's own price was valid, e.g. 2023-07"),
        ("llama3-70b", "workload.attention_params_million", "(DeepSeek-V2: 149.2M; DeepSeek-V3: 187.1M)"),
        ("llama3-70b", "workload.micro_batches", "per step, m. Empty = B/(d·b)"),
        ("deepseek-v3", "workload.micro_batches", "per step, m. Empty = B/(d·b)"),
        ("deepseek-v3", "reliability.node_failure_rate_high", "the rate times 2.16 (fleet prior"),
    ],
)  # fmt: skip
def test_derived_comments_are_not_cut_inside_a_sentence(exported_toml, preset, key, expected):
    comments = _derived_comments(exported_toml[preset])
    assert expected in comments[key], comments[key]


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        ("workload.layers", "(Llama 3 405B: 126, arXiv:2407.21783 Table 3). Leave empty to"),
        ("workload.global_batch_sequences", "1,536 in Narayanan et al. 2021). Empty = global"),
        ("workload.params_billion", "DeepSeek-V3: 671). Leave empty to derive it from the shape"),
    ],
)
def test_notes_keep_references_and_abbreviations_whole(key, expected):
    assert expected in derived_note(FIELDS[key].help)


def test_every_derived_comment_ends_at_a_sentence_boundary_of_its_help():
    """Each sentence of each comment is a whole sentence of the field's help (followed there
    by a space or the end), for every preset and the empty parameter count too."""
    scenarios = [load_preset(n) for n in PRESETS]
    scenarios.append(load_preset("deepseek-v3").with_overrides(["workload.params_billion="]))
    seen = 0
    for scenario in scenarios:
        text = scenario.to_toml()
        assert Scenario.from_toml(text) == scenario  # comments only: the values read back
        for key, note in _derived_comments(text).items():
            help_text = FIELDS[key].help
            for sentence in sentences(note + "."):
                assert sentence + " " in help_text + " ", (key, sentence)
            seen += 1
    assert seen > 100


def test_the_report_html_reproduces_the_scenario_with_whole_comments(catalog):
    scenario = load_preset("llama3-70b")
    html = render(build_report(scenario, catalog=catalog), ".html").decode("utf-8")
    assert "the rate times 2.16 (fleet prior, docs/decide.md)" in html
    assert "the rate times 1)" not in html
    assert render(build_report(scenario, catalog=catalog, detail=False), ".toml") == (
        scenario.to_toml().encode("utf-8")
    )


def test_sentences_end_only_at_sentence_boundaries():
    assert sentences("A rate times 1.93 (docs/decide.md). Next one.") == [
        "A rate times 1.93 (docs/decide.md).",
        "Next one.",
    ]
    assert sentences("Valid, e.g. 2023-07; i.e. a month. Then.") == [
        "Valid, e.g. 2023-07; i.e. a month.",
        "Then.",
    ]
    assert sentences("As in Narayanan et al. 2021 (arXiv:2104.04473). Default 0.") == [
        "As in Narayanan et al. 2021 (arXiv:2104.04473).",
        "Default 0.",
    ]
    assert sentences("Inside (one. two) brackets. Out.") == ["Inside (one. two) brackets.", "Out."]
    assert sentences("Buckets (<5% ... >20%) of it... and more. End") == [
        "Buckets (<5% ... >20%) of it... and more.",
        "End",
    ]
    assert sentences("Per step, m. Empty = B/(d·b).") == ["Per step, m.", "Empty = B/(d·b)."]


def test_derived_note_adds_how_an_empty_field_is_derived():
    assert derived_note(FIELDS["network.inter_node_gbps"].help) == (
        "Network bandwidth per node between nodes (EFA, InfiniBand, RoCE). Empty = the "
        "catalog figure (p5.48xlarge: 3,200 Gb/s EFA)"
    )
    # the first sentence already says it: nothing added
    assert derived_note(FIELDS["reliability.node_failure_rate_high"].help) == (
        "Upper end of the 80% interval of the node failure rate (see node_failure_rate_low); "
        "left empty, the rate times 2.16 (fleet prior, docs/decide.md)"
    )


def test_every_section_field_gets_a_whole_note():
    for fields in SECTIONS.values():
        for f in fields:
            note = derived_note(f.help)
            assert note and f.help.startswith(note.split(". ")[0]), f.key


# ============================================================== 3. Parquet text unquoted
@pytest.fixture(scope="module")
def comparison_light():
    return build_report(
        load_preset("aws-16k-h100"),
        compare_to=load_preset("aws-16k-h100-improved"),
        catalog=load_catalog(),
        detail=False,
    )


def test_parquet_text_cells_have_no_formula_quote(comparison_light):
    table = pl.read_parquet(io.BytesIO(render(comparison_light, ".parquet")))
    delta = table.filter((pl.col("table") == "comparison") & (pl.col("key") == "goodput_delta"))
    assert delta["text"][0] == "+4.03 points"
    for column in ("table", "role", "scenario", "key", "label", "text", "unit", "source"):
        assert not table[column].str.contains(r"^'[=+\-@\t\r]").any(), column


def test_csv_keeps_the_formula_guard(comparison_light):
    table = pl.read_csv(io.BytesIO(render(comparison_light, ".csv")), infer_schema=False)
    delta = table.filter((pl.col("table") == "comparison") & (pl.col("key") == "goodput_delta"))
    assert delta["text"][0] == "'+4.03 points"  # a spreadsheet would run "+4.03 points"


# ============================================================== 4. HTML headers wrap
def test_table_headers_are_allowed_to_wrap():
    from goodput_lab.reports.html import CSS

    css = re.sub(r"/\*.*?\*/", "", CSS, flags=re.DOTALL)
    rules = {r.split("{")[0].strip(): r.split("{")[1] for r in css.split("}") if "{" in r}
    th = [sel for sel, body in rules.items() if "th" in sel and "nowrap" in body]
    assert th == [], th  # a nowrap header cannot be narrower than its words
    assert "white-space: normal" in rules["th"]


# ============================================================== 5. report wording and plan
def test_report_says_nothing_of_a_sidebar(catalog):
    base, cand = load_preset("aws-16k-h100"), load_preset("aws-16k-h100-improved")
    single = build_report(base, catalog=catalog)
    pair = build_report(base, compare_to=cand, catalog=catalog)
    for report, who in ((single, "this report's scenario"), (pair, "this report's baseline")):
        subtitle = report.figures["goodput_vs_rate"].layout.title.subtitle.text
        assert who in subtitle and "sidebar" not in subtitle
        figures = [*report.figures.values(), *(s.figure for s in report.sections)]
        for fig in filter(None, figures):
            assert "sidebar" not in fig.to_json().lower()
        html = render(report, ".html").decode("utf-8")
        page = re.sub(r"<script.*?</script>", "", html, flags=re.DOTALL)  # plotly.js aside
        assert "sidebar" not in page.lower()


def test_the_dashboard_chart_keeps_its_sidebar_wording():
    from goodput_lab.charts.overview import goodput_vs_rate_chart
    from goodput_lab.views import overview as svc

    scenario = load_preset("aws-16k-h100")
    sweep = svc.goodput_vs_rate(scenario, dict(load_catalog()))
    fig = goodput_vs_rate_chart(sweep, 0.2, 0.89)
    assert fig.layout.title.subtitle.text == "All other inputs as in the sidebar"


def _sections(name: str, *overrides: str) -> dict:
    scenario = load_preset(name)
    if overrides:
        scenario = scenario.with_overrides(list(overrides))
    report = build_report(scenario, catalog=load_catalog())
    return {s.id: s for s in report.sections}


def test_an_on_demand_report_says_what_a_capacity_block_would_cost():
    """No near-empty "Capacity Block plan" of one figure: one sentence on the same run under
    a block, and the failure-free compute with the time to train."""
    sections = _sections("llama3-8b")
    plan = sections["plan"]
    assert plan.title == "Under a Capacity Block" and plan.metrics == ()
    assert plan.intro.startswith("This scenario's pricing model is On-Demand, not a Capacity")
    # goodput plan's block for a 10% risk over the failure-rate and step-time intervals
    # (QA 28 #9: 77 days at the point estimates)
    assert "112-day block for 32 instances" in plan.intro and "$39.33" in plan.intro
    assert plan.intro.count(". ") == 0  # one sentence
    train = [m.key for m in sections["train"].metrics]
    assert train[:2] == ["time_to_train_days", "compute_days"]


def test_a_run_longer_than_any_block_says_so():
    plan = _sections("llama3-70b")["plan"]
    assert "longer than the longest Capacity Block (182 days)" in plan.intro


def test_no_block_section_without_a_block_price():
    sections = _sections("p6e-gb200-nvl72")  # no public Capacity Block price
    assert "plan" not in sections
    assert "compute_days" in [m.key for m in sections["train"].metrics]


def test_a_capacity_block_scenario_gets_its_block():
    plan = _sections("llama3-8b", "pricing.model=capacity_block", "pricing.usd_per_instance_hour=")[
        "plan"
    ]
    assert plan.title == "Capacity Block plan"
    assert plan.intro.startswith("At $39.33 per instance-hour")
    assert "needs a 112-day block for 32 instances" in plan.intro  # QA 28 #9: was 77


def test_the_csv_carries_the_instance_choice_table(catalog):
    """QA pass: `report --help` promised every number in the CSV/Parquet table, but the
    instance-choice table was only in the HTML/PDF; it is now there, a row per figure and
    type (``<instance>.<key>``), each the ranking's own value."""
    from goodput_lab.models.instances import rank_instances

    scenario = load_preset("llama3-70b")
    report = build_report(scenario, catalog=catalog)
    table = pl.read_csv(io.BytesIO(render(report, ".csv")), infer_schema=False)
    rows = table.filter(pl.col("table") == "instances")
    ranking = rank_instances(scenario, catalog)
    for r in ranking.rows:
        got = rows.filter(pl.col("key") == f"{r.instance}.cost_to_train_usd")
        assert got.height == 1, r.instance
        if math.isfinite(r.cost_to_train_usd):
            assert float(got["value"][0]) == pytest.approx(r.cost_to_train_usd, rel=1e-12)
            assert got["text"][0].startswith("$")
        else:
            assert got["value"][0] is None and got["text"][0] == "n/a"
    feasible = rows.filter(pl.col("key") == f"{ranking.rows[0].instance}.feasible")
    assert feasible["text"][0] in ("yes", "no") and feasible["value"][0] is None


def test_the_block_total_is_goodput_plans():
    """QA pass 17: the report said $172,046,189 (the analytic expected run) where goodput
    plan and the Plan page said $172,046,194 (the mean of its simulated runs)."""
    from goodput_lab.models.outputs import format_value
    from goodput_lab.models.plan import plan_capacity_block

    over = "reliability.node_failure_rate_per_day=0.001"
    intro = _sections("aws-16k-h100", over)["plan"].intro
    p = plan_capacity_block(load_preset("aws-16k-h100").with_overrides([over]))
    total = format_value("cost_to_train_usd", p.expected_total_cost_usd)
    assert (
        f"{total} in total with storage, the mean of goodput plan's 1,000 simulated runs" in intro
    )


def test_the_recommendation_sentence_says_the_tables_dollars():
    """QA pass 17: "worth $565.21/day" in the text beside "$565/day" in the table."""
    from goodput_lab.reports.content import _recommendation_metrics

    s = load_preset("aws-16k-h100").with_overrides(["reliability.node_failure_rate_per_day=0.001"])
    metrics, intro = _recommendation_metrics(s, load_catalog())
    worth = next(m for m in metrics if m.key == "interval_savings_usd_per_day")
    assert f"(worth {worth.text})" in intro and ".21" not in intro


def test_the_csv_carries_the_recommendation_and_the_badput_buckets(catalog):
    """The checkpoint and hot-spare recommendation and the badput buckets were in the HTML
    and PDF only; a row each now, the values the sections and --json give."""
    scenario = load_preset("aws-16k-h100")
    report = build_report(scenario, catalog=catalog)
    table = pl.read_csv(io.BytesIO(render(report, ".csv")), infer_schema=False)
    rec = table.filter(pl.col("table") == "recommendations")
    section = next(s for s in report.sections if s.id == "checkpoint")
    shown = {m.key: m for m in section.metrics if m.key not in report.all_metrics}
    assert (
        set(rec["key"])
        == set(shown)
        >= {
            "recommended_checkpoint_interval_minutes",
            "recommendation_savings_usd_per_day",
        }
    )
    for row in rec.iter_rows(named=True):
        assert row["text"] == shown[row["key"]].text
        assert float(row["value"]) == pytest.approx(shown[row["key"]].value, rel=1e-12)
    bad = table.filter(pl.col("table") == "badput")
    for r in report.evaluation.badput():
        got = bad.filter(pl.col("key") == f"{r['badput_bucket']}.usd_per_day")
        assert got.height == 1 and float(got["value"][0]) == pytest.approx(r["usd_per_day"])
    total = sum(
        float(v) for k, v in zip(bad["key"], bad["value"], strict=True) if k.endswith("usd_per_day")
    )
    ev = report.evaluation
    # the buckets and the storage bill (a cost, no wall time) add up to the lost dollars
    assert total + float(ev["storage_usd_per_day"]) == pytest.approx(
        float(ev["lost_usd_per_day"]), rel=1e-9
    )

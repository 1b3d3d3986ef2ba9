"""Issue 30, item 4: every in-range value of every numeric field is answered.

Each numeric field of the registry (models/fields.py) is driven to its minimum, its maximum
and values between, on the aws-16k-h100 preset, through every consumer: ``evaluate``
(vectorised over all values of a field at once, and one scenario at a time through the
command line), ``optimize``, ``ladder``, ``plan``, the HTML report and every dashboard page.
No consumer may raise; a command may refuse a size it cannot run (exit 2, one line), and
where a value makes the job impossible or nearly so it says so in words.

Cost (the CI budget): the command-line consumers run each field's minimum and maximum.  An
extreme that leaves the job normal ("benign") shares a scenario with up to
:data:`GROUP` others; one that stops the job, or makes it barely advance or unfit to run,
gets a scenario of its own so that it cannot hide another.  ``optimize`` and ``ladder``
results are computed once per scenario and shared by the report and the command's text and
JSON output.  The pages run at the scenario of every field at its minimum, of every field
at its maximum, and of the one value found to stop the job outright, each through all
pages in one shared AppTest session.
"""

from __future__ import annotations

import functools
import json
import math
import warnings
from html import unescape

import numpy as np
import pytest
from goodput_lab.models import ValidationError, evaluate, load_catalog, resolve_inputs
from goodput_lab.models.evaluate import IMPRACTICAL_GOODPUT, evaluate_arrays, progress_note
from goodput_lab.models.fields import FIELDS
from goodput_lab.models.scenario import Scenario, load_preset, shape_params_billion

from goodput_lab.cli.main import main

BASE = "aws-16k-h100"
NUMERIC = [k for k, f in FIELDS.items() if f.kind in ("int", "float")]
#: Companion changes that keep the model's shape consistent at a shape field's extreme
#: (the preset states 405B parameters; 1 layer with them is a contradiction, not a value).
#: The layer count's companion is the parameter count its shape gives (see _at).
COMPANIONS: dict[str, dict] = {
    "workload.layers": {
        "workload.hidden_size": 1024,  # 100,000 layers of 16,384 would be 318,775B
        "workload.attention_heads": 8,
        "workload.kv_heads": 8,
    },
    "workload.attention_heads": {"workload.kv_heads": None},
    "workload.kv_heads": {"workload.attention_heads": 100_000},
}
#: Benign extremes sharing one scenario in the command-line test.
GROUP = 10


def _value(key: str, x: float):
    return round(x) if FIELDS[key].kind == "int" else float(x)


def _between(key: str) -> list:
    """Three values strictly inside the range: geometric for a wide positive range."""
    f = FIELDS[key]
    lo, hi = float(f.min), float(f.max)
    if lo > 0 and hi / lo > 100:
        pts = np.geomspace(lo, hi, 5)[1:4]
    else:
        pts = lo + (hi - lo) * np.array([0.01, 0.37, 0.83])
    return [_value(key, p) for p in pts]


def _extremes() -> list[tuple[str, float]]:
    return [(k, _value(k, getattr(FIELDS[k], e))) for k in NUMERIC for e in ("min", "max")]


@functools.cache
def _base() -> Scenario:
    return load_preset(BASE)


def _at(changes: dict, name: str) -> Scenario:
    updates: dict = {}
    for key, value in changes.items():
        updates.update(COMPANIONS.get(key, {}))
        updates[key] = value
    if "workload.layers" in changes:  # the count the shape gives, stated (not left empty:
        # an empty count does not survive a TOML file whose default is 405)
        values = {**_base().values, **updates}
        updates["workload.params_billion"] = shape_params_billion(values)
    return _base().replace(updates, name=name)


def test_every_numeric_field_is_covered_and_every_extreme_is_a_valid_scenario():
    assert len(NUMERIC) >= 70
    for key, value in _extremes():
        _at({key: value}, "x")  # a ValidationError here would be a registry range error


@pytest.mark.parametrize("key", NUMERIC)
def test_evaluate_answers_every_value_vectorised(key):
    """Minimum, three values between and maximum in one call of the chain; goodput a
    fraction, lost dollars finite, and one value per scenario (no collapsed figure)."""
    f = FIELDS[key]
    values = [_value(key, f.min), *_between(key), _value(key, f.max)]
    cat = load_catalog()
    inputs = resolve_inputs(_at({key: values[0]}, "x"), cat)
    inputs[key] = np.asarray(values, dtype=float)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # inf/nan of an unfit configuration
        out = evaluate_arrays(inputs, broadcast=True)
    # a value the scenario refuses for its other fields (in-domain spares beyond a p5's one
    # node per domain) is answered in words by resolve_inputs, and the chain gives no figure
    refused = np.zeros(len(values), dtype=bool)
    for i, v in enumerate(values):
        try:
            resolve_inputs(_at({key: v}, "x"), cat)
        except ValidationError as exc:
            assert key in str(exc), (key, v, str(exc))
            refused[i] = True
    g = np.asarray(out["goodput"], dtype=float)
    assert g.shape == (len(values),)
    ok = ~refused
    assert np.all((g[ok] >= 0.0) & (g[ok] <= 1.0)), (key, values, g)
    lost = np.asarray(out["lost_usd_per_day"], dtype=float)
    assert np.all(np.isfinite(lost[ok]) & (lost[ok] >= -1e-6)), (key, values, lost)
    assert not np.isfinite(lost[refused]).any(), (key, values, lost)


@pytest.fixture(scope="module")
def scenario_files(tmp_path_factory):
    """The command-line scenarios: each extreme that stops or strains the job alone, the
    benign ones :data:`GROUP` at a time; written as TOML files."""
    cat = load_catalog()
    alone, benign = [], []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for key, value in _extremes():
            try:
                m = evaluate(_at({key: value}, "x"), cat).metrics
            except ValidationError:  # refused for the scenario's other fields: see below
                REFUSED.append((key, value))
                continue
            t = m.get("time_to_train_days", math.nan)
            normal = m["goodput"] > 0.05 and math.isfinite(t) and t < 3650
            (benign if normal else alone).append({key: value})
    groups = [
        {k: v for one in benign[i : i + GROUP] for k, v in one.items()}
        for i in range(0, len(benign), GROUP)
    ]
    folder = tmp_path_factory.mktemp("extremes")
    out = []
    for i, changes in enumerate([*alone, *groups]):
        try:
            s = _at(changes, f"extremes {i}")
        except ValidationError:  # two benign extremes that contradict: split them
            for key, value in changes.items():
                s = _at({key: value}, f"extremes {i} {key}")
                out.append(_write(folder, s, {key: value}))
            continue
        out.append(_write(folder, s, changes))
    return out


#: extremes the base scenario refuses because of its other fields (in-domain spares beyond a
#: p5's one node per domain), filled by :func:`scenario_files`
REFUSED: list[tuple[str, float]] = []


def test_extremes_the_scenario_refuses_are_answered_in_one_line(scenario_files, tmp_path, capsys):
    """An in-range value that another field makes impossible is an answer in words: exit 2,
    one line naming the field and the range allowed for this scenario."""
    assert ("cluster.spare_nodes_per_domain", FIELDS["cluster.spare_nodes_per_domain"].max) in (
        REFUSED
    )
    for key, value in REFUSED:
        path = tmp_path / "refused.toml"
        path.write_text(_at({key: value}, "refused").to_toml(), encoding="utf-8")
        rc = main(["evaluate", str(path)])
        err = capsys.readouterr().err.strip()
        _one_line(rc, err, key)
        assert key in err and ("allowed" in err or "range" in err), (key, err)


def _write(folder, s: Scenario, changes: dict):
    path = folder / f"s{abs(hash(tuple(changes.items()))) % 10**12}.toml"
    path.write_text(s.to_toml(), encoding="utf-8")
    return str(path), changes, s


@pytest.fixture(scope="module")
def shared_results():
    """optimize, ladder and plan once per scenario, for the report and both outputs of a
    command (text and JSON)."""
    import goodput_lab.models.optimize as opt
    import goodput_lab.models.plan as pl
    import goodput_lab.models.resilience as res

    mp = pytest.MonkeyPatch()
    optimize, ladder = opt.optimize, res.ladder
    done: dict = {}

    def shared_optimize(scenario, catalog, deadline_days=None, **kw):
        key = (scenario, deadline_days, tuple(sorted(kw.items())))
        if key not in done:
            done.clear()
            done[key] = optimize(scenario, catalog, deadline_days, **kw)
        return done[key]

    mp.setattr(opt, "optimize", shared_optimize)

    @functools.lru_cache(maxsize=8)
    def _ladder(scenario, features, trials, days, seed):
        return ladder(scenario, features, trials=trials, days=days, seed=seed)

    def shared_ladder(scenario, features=None, *, trials=None, days=30.0, seed=0, **kw):
        if kw.get("modes") or kw.get("params") or kw.get("lemon_failure_share"):
            return ladder(scenario, features, trials=trials, days=days, seed=seed, **kw)
        key = tuple(features) if isinstance(features, list) else features
        return _ladder(scenario, key, trials, days, seed)

    mp.setattr(res, "ladder", shared_ladder)
    plans: dict = {}
    plan_capacity_block = pl.plan_capacity_block

    def shared_plan(scenario, **kw):
        key = (scenario, tuple(sorted((k, v) for k, v in kw.items() if k != "catalog")))
        if key not in plans:
            plans.clear()
            plans[key] = plan_capacity_block(scenario, **kw)
        return plans[key]

    mp.setattr(pl, "plan_capacity_block", shared_plan)
    # a plan predicted to take over 2 s is refused in one line (the command allows 300 s:
    # 3 runs at a node failure rate of 100%/day take ~40 s, beyond this test's budget)
    mp.setattr(pl, "check_size", functools.partial(pl.check_size, max_seconds=2.0))
    yield
    mp.undo()


def _run(capsys, *args: str) -> tuple[int, str, str]:
    rc = main(list(args))
    cap = capsys.readouterr()
    return rc, cap.out, cap.err


def _one_line(rc: int, err: str, what: str) -> None:
    assert rc == 2, (what, rc, err)
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, (what, err)


@pytest.mark.slow  # ~4 min of CPU: python3 tasks.py test -m slow
def test_every_extreme_through_the_commands_and_the_html_report(
    scenario_files, shared_results, capsys, tmp_path
):
    """Minimum and maximum of every numeric field: evaluate, optimize and ladder answer
    (text and JSON), plan answers or refuses a size in one line, the HTML report is
    written; an impossible or impractical job is said to be so in each text output."""
    cat = load_catalog()
    for path, changes, s in scenario_files:
        what = f"{changes}"
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            note = progress_note(s, evaluate(s, cat).metrics)
            for cmd in ("evaluate", "optimize", "ladder"):
                rc, out, err = _run(capsys, cmd, path)
                assert rc == 0, (cmd, what, err)
                if note:
                    assert f"note: {note}" in out, (cmd, what)
                rc, out, err = _run(capsys, cmd, path, "--json")
                assert rc == 0, (cmd, what, err)
                json.loads(out)
            rc, out, err = _run(capsys, "plan", path, "--trials", "3", "--json")
            if rc == 2:
                _one_line(rc, err, f"plan {what}")
                if note and "never advances" in note:
                    assert note in err, what
            else:
                assert rc == 0, (what, err)
                json.loads(out)
                rc, out, err = _run(capsys, "plan", path, "--trials", "3")
                assert rc == 0, (what, err)
            report = tmp_path / "r.html"
            rc, out, err = _run(capsys, "report", path, "-o", str(report))
            assert rc == 0, (what, err)
            html = report.read_text(encoding="utf-8")
            assert "<html" in html.lower()
            if note:  # the page's text, its "<" escaped
                assert note[1:40] in unescape(html), what


def test_fabric_events_at_a_thousand_per_day_say_the_job_never_advances(capsys):
    """The issue's example: 1,000 fabric events a day (documented range 0-10,000) gave an
    IndexError in optimize, a TypeError in the report and 0.00% from evaluate without a word.
    1,000 × 90 s = 1,500 min of stalls in a 1,440-minute day: goodput is 0 and each
    consumer says why."""
    s = _base().replace({"network.fabric_events_per_day": 1000.0})
    ev = evaluate(s, load_catalog())
    assert ev["goodput"] == 0.0
    assert ev.texts["progress_note"].startswith(
        "the job never advances: fabric reroute stalls take 1,500 min of every 1,440-minute day"
    )
    rc, out, err = _run(capsys, "optimize", BASE, "--set", "network.fabric_events_per_day=1000")
    assert rc == 0, err
    assert "note: the job never advances" in out
    rc, out, err = _run(capsys, "plan", BASE, "--set", "network.fabric_events_per_day=1000")
    assert rc == 2
    assert err.startswith("goodput: scenario: the job never advances: fabric reroute stalls")


def test_progress_note_names_the_largest_loss_when_the_job_barely_advances():
    """A node failure rate of 100% a day on 2,000 nodes: goodput ~1e-30, under 1%."""
    s = _base().replace({"reliability.node_failure_rate_per_day": 1.0})
    m = evaluate(s, load_catalog()).metrics
    assert m["goodput"] < IMPRACTICAL_GOODPUT
    note = progress_note(s, m)
    assert note.startswith("the job barely advances: ")
    assert "rework since last checkpoint alone takes" in note
    assert progress_note(_base(), evaluate(_base(), load_catalog()).metrics) == ""


# ----------------------------------------------------------------------------- pages
PAGES = (
    "overview",
    "checkpoints",
    "network",
    "instances",
    "montecarlo",
    "compare",
    "sensitivity",
    "optimizer",
    "plan",
    "resilience",
    "failure_log",
    "run_log",
)


def _all_at(end: str) -> dict:
    """Every numeric field at its ``end`` ("min"/"max") as far as the fields allow together
    (a field that contradicts the ones set before it stays at the preset's value)."""
    changes: dict = {}
    for key in NUMERIC:
        trial = {**changes, key: _value(key, getattr(FIELDS[key], end))}
        try:  # the scenario's checks, and those across fields at resolve (domain layout)
            resolve_inputs(_at(trial, "x"), load_catalog())
        except ValidationError:
            continue
        changes = trial
    return changes


def _query(changes: dict) -> dict[str, str]:
    from goodput_lab.dashboard.url_state import encode

    return encode(_at(changes, "extremes"), preset=BASE)


@pytest.mark.parametrize(
    "changes",
    [
        pytest.param("min", id="every-field-at-min"),
        pytest.param("max", id="every-field-at-max"),
        pytest.param({"network.fabric_events_per_day": 1000.0}, id="fabric-1000"),
    ],
)
def test_every_page_answers_at_the_extremes(changes):
    from streamlit.testing.v1 import AppTest

    from tests.conftest import APP

    if isinstance(changes, str):
        changes = _all_at(changes)
    note = progress_note(_at(changes, "x"), evaluate(_at(changes, "x"), load_catalog()).metrics)
    at = AppTest.from_file(str(APP), default_timeout=60)
    for k, v in _query(changes).items():
        at.query_params[k] = v
    at.run()
    for page in PAGES:
        if page != "overview":
            at.switch_page(f"app_pages/{page}.py").run()
        assert not at.exception, (page, [e.message for e in at.exception])
        if note and page not in ("failure_log", "run_log"):  # pages of a scenario say so
            assert any(note[1:60] in w.value for w in at.warning), (page, note)

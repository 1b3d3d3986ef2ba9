"""Page settings in a link: a bad one is named and the rest applied (QA 28 #10), and each
is checked as its page's widget takes it, so a value the page would replace is named
rather than silently swapped (QA 29 #9)."""

from __future__ import annotations

import ast

import pytest
from goodput_lab.dashboard import url_state
from goodput_lab.models import ValidationError
from streamlit.testing.v1 import AppTest

from goodput_lab.views import decide as decide_view
from goodput_lab.views import resilience as resilience_view
from goodput_lab.views import sensitivity as sensitivity_view
from tests.conftest import APP, ROOT

PAGES = ROOT / "dashboard" / "app_pages"


def open_link(page: str, query: dict[str, str]) -> AppTest:
    """The page as a link opens it: its first run reads the link (a notice is shown once)."""
    at = AppTest.from_file(str(APP), default_timeout=60)
    for k, v in query.items():
        at.query_params[k] = v
    at.switch_page(f"app_pages/{page}.py")
    at.run()
    assert not at.exception, at.exception
    return at


def page_constant(page: str, name: str):
    """A module-level constant of a page script (the scripts run on import, so parsed)."""
    tree = ast.parse((PAGES / f"{page}.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == name for t in node.targets
        ):
            return ast.literal_eval(node.value)
    raise AssertionError(f"{page}.py has no {name}")


# ------------------------------------------------------------ QA 28 #10: bad and good
def test_one_bad_page_parameter_keeps_the_valid_ones_and_names_every_bad_one():
    params = {
        "dec.deadline": "0",
        "dec.confidence_pct": "100",
        "dec.trials": "300",
        "dec.seed": "7",
        "dec.budget_musd": "12",
        "sens.pct": ["10", "20"],  # given twice
    }
    problems: list[ValidationError] = []
    out = url_state.decode_page(params, None, problems)
    assert out == {"dec:seed": 7, "dec:budget": 12.0}
    named = sorted(p.field for p in problems)
    assert named == sorted(
        f"link parameter {k!r}"
        for k in ("dec.deadline", "dec.confidence_pct", "dec.trials", "sens.pct")
    )
    with pytest.raises(ValidationError, match="dec.trials"):  # strict without a list
        url_state.decode_page(params)


def test_a_link_with_bad_page_settings_applies_the_rest_and_names_each_bad_one():
    """QA 28 #10: dec.trials=300 made the page drop the link's valid deadline of 60 days
    (a Decide run with dec.go would have decided for 45), and only the first bad value of
    three was named."""
    at = open_link(
        "decide",
        {
            "preset": "llama3-70b",
            "dec.deadline": "60",
            "dec.confidence_pct": "100",
            "dec.trials": "300",
            "dec.seed": "7",
        },
    )
    assert at.number_input(key="widget::dec:deadline").value == 60.0
    assert at.number_input(key="widget::dec:seed").value == 7
    (notice,) = [e.value for e in at.main.error]
    assert notice.startswith("Part of the link was ignored — 2 link parameters were not used")
    assert "'dec.confidence_pct': '100' is not allowed" in notice
    assert "'dec.trials': '300' is not allowed (one of 200, 500, 1000, 2000)" in notice
    assert "dec.deadline" not in notice and "dec.seed" not in notice
    assert notice.endswith("The rest of the link was applied.")


# ----------------------------------------------- QA 29 #9: checked as the page takes it
def test_choice_parameters_offer_exactly_their_page_widgets_choices():
    """Every page control that is a choice among fixed values is checked as that choice,
    with the page's own options (a value the page would replace is named, not swapped)."""
    choices = {
        param: check.choices
        for param, (_key, check) in url_state.PAGE_PARAMS.items()
        if hasattr(check, "choices")
    }
    assert choices == {
        "cmp.count": (2, 3, 4),
        "sens.colour": tuple(label for label, _, _ in sensitivity_view.METRICS.values()),
        "mc.trials": tuple(page_constant("montecarlo", "TRIAL_CHOICES")),
        "plan.trials": tuple(page_constant("plan", "TRIAL_CHOICES")),
        "res.order": (resilience_view.RECOMMENDED, resilience_view.CUSTOM),
        "res.unit": resilience_view.UNITS,
        "dec.trials": decide_view.PAGE_TRIALS,
    }
    assert "options=[2, 3, 4]" in (PAGES / "compare.py").read_text(encoding="utf-8")


def test_plan_trials_the_page_would_replace_is_named_in_the_notice():
    """QA 29 #9: plan.trials=300 passed the link's check, then the page silently ran and
    shared 1,000 runs."""
    problems: list[ValidationError] = []
    assert url_state.decode_page({"plan.trials": "300"}, None, problems) == {}
    (p,) = problems
    assert p.field == "link parameter 'plan.trials'"
    assert p.message == "'300' is not allowed (one of 200, 500, 1000, 2000, 5000)"
    for ok in ("200", "500", "1000", "2000", "5000"):
        assert url_state.decode_page({"plan.trials": ok}) == {"plan:trials": int(ok)}


def test_an_mfu_above_the_instances_measured_maximum_is_named(catalog):
    """The Instances page's box stops at the measured max matmul fraction (80% on H100); a
    link above it stopped the whole page with "Please fix this input"."""
    problems: list[ValidationError] = []
    out = url_state.decode_page(
        {"inst.mfu.p5.48xlarge": "95", "inst.mfu.p4d.24xlarge": "60"}, catalog, problems
    )
    assert out == {"inst:mfu:p4d.24xlarge": 60.0}
    (p,) = problems
    assert p.field == "link parameter 'inst.mfu.p5.48xlarge'"
    assert "a number in [1, 80]" in p.message and "H100" in p.message
    assert url_state.decode_page({"inst.mfu.p5.48xlarge": "80"}, catalog)


def test_an_instance_type_listed_twice_for_decide_is_named():
    problems: list[ValidationError] = []
    link = {"dec.instances": "p5.48xlarge,p5.48xlarge"}
    assert url_state.decode_page(link, None, problems) == {}
    assert "p5.48xlarge is listed twice" in problems[0].message

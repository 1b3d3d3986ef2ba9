"""QA 28 #15: the Plan page says which run each storage total is.

``/plan?preset=llama3-70b`` showed "expected storage $547,452" under the tiles (the
simulated runs' mean wall time) and "Shared file system ... Whole run $547,352" in the
storage table (the analytic run, 191.58 days) with nothing saying they are two runs."""

from __future__ import annotations

from goodput_lab.models import evaluate, load_preset
from goodput_lab.models.outputs import format_value
from goodput_lab.models.plan import plan_capacity_block

from goodput_lab.views import plan as svc


def test_the_plan_page_says_which_run_each_storage_total_is():
    s = load_preset("llama3-70b")
    ev = evaluate(s)
    p = plan_capacity_block(s, trials=200, seed=0)
    table = svc.storage_table(ev)
    assert svc.WHOLE_RUN == "Whole run (expected run)" and svc.WHOLE_RUN in table.columns
    fs = table.row(0, named=True)
    assert fs[svc.WHOLE_RUN] == "$547,352"  # the analytic run's, as before
    days = format_value("time_to_train_days", ev["time_to_train_days"])  # 191.6 days
    assert svc.storage_caption(ev).startswith(
        f"Whole run: the expected run of the analytic model ({days}), as the bill's rows"
    )
    caption = svc.block_caption(p)
    expected = format_value("expected_storage_cost_usd", p.expected_storage_cost_usd)
    mean = format_value("time_to_finish_mean_days", p.time_to_finish_mean_days)
    assert f"expected storage {expected} over the simulated runs (mean wall time {mean})" in (
        caption
    )
    assert expected != fs[svc.WHOLE_RUN]  # two runs, each said


def test_the_page_shows_the_caption_under_the_storage_table():
    from tests.dashboard._pages import open_page

    at = open_page("plan", {"preset": "llama3-70b", "plan.trials": "200"})
    assert not at.exception
    captions = [c.value for c in at.caption]
    assert any(c.startswith("Whole run: the expected run of the analytic model") for c in captions)
    table = next(t.value for t in at.table if "Line" in t.value.columns)
    assert "Whole run (expected run)" in table.columns

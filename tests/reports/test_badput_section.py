"""Issue 28 item 6: the report gives the predicted losses under the badput buckets people
measure, the same figures as `goodput evaluate --json` (``badput``), and names the empty
buckets instead of printing rows of zeros."""

from __future__ import annotations

from goodput_lab.models import evaluate, load_preset
from goodput_lab.models.outputs import format_value

from goodput_lab.reports.content import _badput_section


def test_badput_section_is_evaluates_badput_without_rows_of_zeros():
    ev = evaluate(load_preset("aws-16k-h100"))
    rows = ev.badput()
    sec = _badput_section(ev)
    table = sec.table.to_dicts()
    # kept: the rows that print something other than zeros (0.0 min/day, $0/day)
    busy = [r for r in rows if r["minutes_per_day"] >= 0.05 or r["usd_per_day"] >= 0.5]
    assert [t["Name"] for t in table] == [r["badput_bucket"] for r in busy]
    assert "WASTED_PROGRESS_FROM_DISRUPTION" in [t["Name"] for t in table]
    for t, r in zip(table, busy, strict=True):
        # whole dollars as the loss breakdown writes them (QA 21: $58.80/day beside $59),
        # without the "/day" the header "Lost per day" says ("$88,049/day" in every cell)
        assert t["Lost per day"] == format_value("lost_usd_per_day", r["usd_per_day"], unit=False)
        assert t["Lost per day"].startswith("$") and "/day" not in t["Lost per day"]
        assert float(t["Minutes per day"].replace(",", "")) == round(r["minutes_per_day"], 1)
    empty = [r["bucket_label"] for r in rows if r not in busy]
    assert empty and all(label in sec.notes[0] for label in empty)
    assert not any(t["Minutes per day"] == "0.0" for t in table)


def test_bucket_names_wrap_at_their_underscores_in_print():
    """QA pass 21: the printed column cut UNPRODUCTIVE_CHECKPOINT_SAVE_TIME inside a word
    ("..._TIM / E"); the names now offer a line break after each underscore."""
    from goodput_lab.reports import build_report
    from goodput_lab.reports.html import render_html

    doc = render_html(build_report(load_preset("llama3-70b")), for_print=True)
    assert "UNPRODUCTIVE_<wbr>CHECKPOINT_<wbr>SAVE_<wbr>TIME" in doc
    ev = evaluate(load_preset("llama3-70b"))
    restore = next(r for r in ev.badput() if r["badput_bucket"].endswith("RESTORE_TIME"))
    assert 0 < restore["usd_per_day"] < 1000  # where cents used to show
    cell = format_value("lost_usd_per_day", restore["usd_per_day"], unit=False)
    assert f">{cell}<" in doc and "." not in cell

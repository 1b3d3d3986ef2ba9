"""QA pass on the p6e-gb200-nvl72 preset, on the pages: the Overview's failure domains, a
run that does not finish in practice, and the formats the CLI and the report share."""

from __future__ import annotations

import pytest

from tests.dashboard._pages import metric, open_page

NVL72 = {"preset": "p6e-gb200-nvl72"}
STUCK = {**NVL72, "reliability.domain_failure_rate_per_day": "1"}


def _table(at, first_header: str):
    return next(t.value for t in at.table if t.value.columns[0] == first_header)


def test_overview_shows_the_failure_classes_and_domains():
    """QA 1: domain events/day, node failures/day, replacement per failure, nodes idled and
    the spare pools were only in --json and the CSV."""
    at = open_page("overview", NVL72)
    t = _table(at, "Figure")
    assert dict(zip(t["Figure"], t["Value"], strict=True)) == {
        "Node failures per day": "2.19",
        "Domain events per day": "0.32",
        "Replacement per failure (all classes)": "87.4 min",
        "Nodes idled per failure": "18.0 nodes",
        "Node failure finds no in-domain spare": "100.00%",
        "No spare domain free": "100.00%",
    }
    captions = " ".join(c.value for c in at.caption)
    assert "The job occupies 64 domains of 18 nodes. Its 2.51 failures per day" in captions
    assert "97.4 min of recovery in the 109.2 min lost per failure" in captions
    assert "docs/references.md#failure-domains" in captions


def test_overview_without_domains_has_no_domain_table():
    at = open_page("overview")
    assert not any(t.value.columns[0] == "Figure" for t in at.table)


def test_a_run_that_does_not_finish_in_practice_says_so_on_the_overview():
    """QA 2: "Time to train 64,820,175,270.2 days", "Cost $75,270.2T" and a banner "2.6e-08%"
    beside the goodput tile's "< 0.0001%" (cut off at 1,024 px): both "< 0.0001%"."""
    at = open_page("overview", STUCK)
    assert metric(at, "Goodput") == "< 0.0001%"
    assert metric(at, "Time to train") == metric(at, "Cost to train, instances") == "—"
    captions = [c.value for c in at.caption]
    assert (
        captions.count("The run does not finish in practice: goodput under 1% of the paid time.")
        == 2
    )
    banner = at.warning[0].value.replace("\\<", "<")  # Markdown source: "\<" shows "<"
    assert banner == (
        "The job barely advances: < 0.0001% of the paid time trains; replacement alone "
        "takes 1,396 of every 1,440 minutes, so the run does not finish in practice."
    )
    text = " ".join([banner, *captions, *(m.value for m in at.metric)])
    assert "e-0" not in text and "T" not in metric(at, "Cost to train, instances")
    # no interval of the time or cost to train under the tiles either
    assert not any(c.startswith("80% range") and ("days" in c or "T" in c) for c in captions)


@pytest.mark.parametrize("page", ["overview", "montecarlo"])
def test_the_banner_writes_the_goodput_as_the_tile(page):
    at = open_page(page, STUCK)
    assert "< 0.0001%" in at.warning[0].value


def test_monte_carlo_page_of_a_run_that_does_not_finish_in_practice():
    """QA 2: "one run in twenty loses more than n/a" and a closed form of
    114,307,565,891.26 days; QA 7: the standard error in points, as goodput simulate."""
    at = open_page("montecarlo", STUCK)
    t = _table(at, "Figure")
    rows = {r["Figure"]: r for r in t.to_dict("records")}
    days = next(r for f, r in rows.items() if f.startswith("Days to finish"))
    assert days["Closed form"] == "does not finish in practice"
    # every run unfinished: the failures per run stop at the cap (views.montecarlo)
    fails = rows["Failures per run (unfinished runs counted to the cap: biased low)"]
    assert fails["Closed form"] == "does not finish in practice"
    goodput = next(r for f, r in rows.items() if f.startswith("Goodput over"))
    assert goodput["Closed form"] == "< 0.0001%"
    assert goodput["Std. error"].endswith(" points")
    captions = " ".join(c.value for c in at.caption)
    assert "n/a" not in captions and "114,307" not in captions
    assert (
        "No bad month to give: the lost dollars per month count runs that finish the work, "
        "and none did (the closed form does not finish in practice)."
    ) in captions


def test_monte_carlo_caption_says_repairs_run_side_by_side():
    """QA 15: the caption said "failures during a recovery restart it"."""
    at = open_page("montecarlo", NVL72)
    captions = " ".join(c.value for c in at.caption)
    assert (
        "a failure during a recovery restarts it and starts its own repair beside any still "
        "under way, and the job waits for the last"
    ) in captions
    t = _table(at, "Figure")
    assert t["Std. error"][0].endswith(" points")  # goodput's, in points
    assert "A bad month: one run in twenty loses more than $" in captions


def test_checkpoints_memory_table_gives_the_fallbacks_of_node_failures_and_of_all(capsys):
    """QA 3: the row read "Failures falling back | all (single level) | 8.40%" where goodput
    evaluate says 8.40% of node failures and, with domain events, 20.08% of all failures."""
    from goodput_lab.cli.main import main

    at = open_page("checkpoints", NVL72)
    t = next(t.value for t in at.table if "This scenario" in t.value.columns)
    rows = {r["Figure"]: r for r in t.to_dict("records")}
    cand = next(c for c in t.columns if c.startswith("Memory ("))
    assert rows["Node failures falling back"]["This scenario"] == "all (single level)"
    assert rows["Node failures falling back"][cand] == "8.40%"
    assert rows["All failures falling back"]["This scenario"] == "all (single level)"
    assert rows["All failures falling back"][cand] == "20.08%"
    args = ["evaluate", "p6e-gb200-nvl72", "--set", "checkpoint.strategy=memory+durable"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "8.40% of node failures fall back" in out and "20.08% of all failures" in out


def test_checkpoints_memory_table_without_domain_events_has_one_fallback_row():
    at = open_page("checkpoints")
    t = next(t.value for t in at.table if "This scenario" in t.value.columns)
    assert "Node failures falling back" in list(t["Figure"])
    assert "All failures falling back" not in list(t["Figure"])


def test_run_log_what_if_writes_changed_durations_in_the_registry_format(catalog):
    """QA 11: "Detection 0.7095 min → 3 min; Replacement (no spare) 7.095 min → 30 min"."""
    from goodput_lab.models import compare, load_preset

    from goodput_lab.views import run_log as svc

    base = load_preset("aws-16k-h100")
    fitted = base.replace(
        {
            "recovery.detection_minutes": 0.7095,
            "recovery.replacement_minutes": 7.095,
            "checkpoint.save_seconds": 44.9436,
            "reliability.node_failure_rate_per_day": 0.0055,
        }
    )
    sidebar = fitted.replace(
        {
            "recovery.detection_minutes": 3.0,
            "recovery.replacement_minutes": 30.0,
            "checkpoint.save_seconds": 30.0,
            "reliability.node_failure_rate_per_day": 0.002,
        }
    )
    caption = svc.changed_caption(compare(fitted, sidebar, catalog))
    assert "Detection 0.7 min → 3.0 min" in caption
    assert "Replacement (no spare) 7.1 min → 30.0 min" in caption
    assert "44.9 s → 30.0 s" in caption
    assert "0.55% → 0.20%" in caption  # the rate in its own registry format, as before
    assert "0.7095" not in caption and "7.095" not in caption


def test_optimizer_says_how_many_domains_in_domain_spares_need():
    """QA 12: "The job spans 64 domains of 18 nodes" above a table where one spare node in
    every domain is 68 spare nodes: the job then needs 68, 72, 77 or 83 domains."""
    at = open_page("optimizer", NVL72)
    info = next(i.value for i in at.info if i.value.startswith("The job spans"))
    assert info.startswith(
        "The job spans 64 domains of 18 nodes. With 1, 2, 3 or 4 spare nodes in every "
        "domain, 17, 16, 15 or 14 of its nodes train and the job needs 68, 72, 77 or 83 "
        "domains: more domains see more domain events, which is also why goodput falls"
    )
    t = next(t.value for t in at.table if t.value.columns[0] == "Policy")
    spare = dict(zip(t["Policy"], t["Spare nodes"], strict=True))
    # the table's spare nodes are those domains times the spares in each
    assert [
        spare[f"{n} spare node{'s' if n > 1 else ''} in every domain"] for n in (1, 2, 3, 4)
    ] == [
        "68",
        "144",
        "231",
        "332",
    ]


def test_resilience_cause_caption_says_how_the_other_classes_are_split():
    """QA 14: the caption said the saving is split "by their counts" only."""
    at = open_page("resilience", NVL72)
    caption = next(c.value for c in at.caption if c.value.startswith("Causes: "))
    assert "split over the node-failure causes it acts on, by their counts" in caption
    assert (
        "fabric aborts, scale-up domain events, switch events and job-level interruptions "
        "are lines of their own, and the spares-by-domain rung splits its saving by rate × "
        "repair wait (docs/resilience.md, section 2)"
    ) in caption


def test_network_page_without_a_step_time_compares_no_all_reduce(catalog):
    """QA 16: the algorithm table gave all-reduce times and said "The NCCL row is the step's
    all-reduce" beside an all-reduce tile of "—"; models.fabric.fabric_changes gave savings of
    0.0 ("no change") where there is no step to change."""
    import math

    from goodput_lab.models import fabric, load_preset, resolve_inputs

    query = {**NVL72, "cluster.instance": "p4d.24xlarge"}  # activations do not fit
    at = open_page("network", query)
    assert metric(at, "Gradient all-reduce") == "—"
    infos = [i.value for i in at.info]
    assert (
        "No all-reduce to compare: this configuration cannot run (the warning above says "
        "why), so its step has no gradient all-reduce."
    ) in infos
    assert not any("Algorithm" in t.value.columns for t in at.table)
    assert not any("The NCCL row is the step's all-reduce" in c.value for c in at.caption)
    sc = load_preset("p6e-gb200-nvl72").replace({"cluster.instance": "p4d.24xlarge"})
    rows = fabric.fabric_changes(resolve_inputs(sc, catalog), 400.0)
    assert all(math.isnan(x) for x in rows["savings_usd_per_day"])
    ok = fabric.fabric_changes(resolve_inputs(load_preset("llama3-70b"), catalog), 3200.0)
    assert all(math.isfinite(x) for x in ok["savings_usd_per_day"])
    at = open_page("network", NVL72)  # with a step: the table and its caption
    assert any("Algorithm" in t.value.columns for t in at.table)
    assert any("The NCCL row is the step's all-reduce" in c.value for c in at.caption)


def test_run_log_example_toggle_label_fits_at_1024_px():
    """Seen in this pass's 1,024 px screenshots: "Use the synthetic exam…"."""
    at = open_page("run_log")
    labels = [t.label for t in at.toggle]
    assert "Synthetic example run" in labels
    assert len("Synthetic example run") <= 22  # the right-hand column's width at 1,024 px


def test_overview_names_the_hot_spare_pool_behind_the_domain_spares():
    """QA 26 #11: the hot-spare pool's own figures (--json's probability_no_spare and
    replacement_minutes_expected) read as goodput evaluate writes them, as the pool's."""
    at = open_page(
        "overview",
        {**NVL72, "cluster.spare_domains": "2", "cluster.spare_nodes_per_domain": "2"},
    )
    t = _table(at, "Figure")
    assert (
        dict(zip(t["Figure"], t["Value"], strict=True))["Replacement per failure (all classes)"]
        == "2.4 min"
    )
    captions = " ".join(c.value for c in at.caption)
    assert (
        "falls back to the hot-spare pool: no hot spare free 100.00%, replacement from the "
        "pool 30.0 min. These are the pool's own figures" in captions
    )

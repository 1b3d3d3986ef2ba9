"""Runs the Monte Carlo short list of a decision on the Dask engine, with parts and resume.

:func:`models.decide.decide` takes a *runner* that simulates its configurations.  This module
provides the Dask one, built on the sweep engine's public functions
(:func:`goodput_lab.engine.sweep.start_client` and ``worker_count``): every
configuration is one task (:func:`models.decide.simulate_config`, its own random stream), so
the result does not depend on the number of workers.  With a parts folder (``goodput decide
-o FILE.json`` keeps ``FILE.json.parts/``), each finished configuration is written there as
one ``.npz`` file (a temporary file renamed, so a kill never leaves half a file); running the
same decision again simulates only the missing ones.  A manifest holds the decision's
fingerprint so that parts of another decision are never mixed in.

A generic hook the sweep engine does not have yet (tasks other than ``evaluate_batch``): if it
grows one, :func:`dask_runner` can move onto it.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import shutil
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from goodput_lab.models.errors import ValidationError
from goodput_lab.views import display

MANIFEST = "manifest.json"


def fingerprint(doc: Mapping[str, Any]) -> str:
    """sha256 of a JSON-able description of the decision (scenario values and arguments)."""
    return hashlib.sha256(json.dumps(doc, sort_keys=True, default=str).encode()).hexdigest()


def _part_name(key: str) -> str:
    return "cfg-" + hashlib.sha256(key.encode()).hexdigest()[:20] + ".npz"


def open_parts(folder: Path, fp: str) -> dict[str, Path]:
    """The parts folder (created with its manifest when new); a folder of another decision
    is refused.  Returns ``{part file name: path}`` of the finished configurations."""
    if folder.exists():
        try:
            doc = json.loads((folder / MANIFEST).read_text())
        except (OSError, ValueError):
            doc = {}
        if doc.get("fingerprint") != fp:
            raise ValidationError(
                "-o",
                f"{str(folder)[:80]!r} holds partial results of a different decision; delete it "
                "or choose another output",
            )
    else:
        folder.mkdir()
        tmp = folder / (MANIFEST + ".tmp")
        tmp.write_text(json.dumps({"fingerprint": fp}))
        os.replace(tmp, folder / MANIFEST)
    return {p.name: p for p in folder.glob("cfg-*.npz")}


def _save(folder: Path, key: str, result: Mapping[str, np.ndarray]) -> None:
    path = folder / _part_name(key)
    tmp = path.with_name(path.name + ".tmp.npz")
    np.savez(tmp, **{k: np.asarray(v) for k, v in result.items()})
    os.replace(tmp, path)


def _load(path: Path) -> dict[str, np.ndarray]:
    with np.load(path) as z:
        return {k: z[k] for k in z.files}


class DaskRunner:
    """A runner for :func:`models.decide.decide` on Dask (a LocalCluster of ``workers``
    processes, default one per core, or the scheduler at ``scheduler``; ``workers = 0`` runs
    in this process).  The cluster starts on the first batch and serves every refinement
    round; :meth:`close` (or ``with``) stops it.  ``parts`` keeps finished configurations
    (resume); ``stats`` accumulates workers, resumed, seconds and cluster start time."""

    def __init__(self, workers=None, scheduler=None, parts=None, fp="", stats=None) -> None:
        self.workers, self.scheduler, self.parts, self.fp = workers, scheduler, parts, fp
        self.stats = stats if stats is not None else {}
        self.stats.update(resumed=0, workers=0, seconds=0.0, cluster_start_seconds=0.0)
        self.client = self.cluster = None

    def __enter__(self) -> DaskRunner:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        if self.client is not None:
            self.client.close()
        if self.cluster is not None:
            self.cluster.close()
        self.client = self.cluster = None

    def _client(self):
        if self.client is None:
            from goodput_lab.engine.sweep import start_client, worker_count

            t0 = time.perf_counter()
            self.client, self.cluster = start_client(self.workers, self.scheduler)
            self.stats["cluster_start_seconds"] += time.perf_counter() - t0
            self.stats["workers"] = worker_count(self.client)
        return self.client

    def __call__(
        self, tasks: Sequence, progress: Callable[[int, int], None] | None
    ) -> dict[str, dict]:
        from goodput_lab.models.decide import simulate_config

        parts, stats = self.parts, self.stats
        out: dict[str, dict] = {}
        have = open_parts(parts, self.fp) if parts is not None else {}
        todo = []
        for task in tasks:
            name = _part_name(task[0])
            if name in have:
                try:
                    out[task[0]] = _load(have[name])
                    continue
                except (OSError, ValueError):
                    pass  # an unreadable part is simulated again
            todo.append(task)
        total, done = len(tasks), len(out)
        stats["resumed"] += done
        if progress is not None:
            progress(done, total)
        if not todo:
            return out
        t1 = time.perf_counter()
        if self.workers == 0:  # in this process, no Dask
            for key, x, trials, seed, seed_key in todo:
                res = simulate_config(x, trials, seed, seed_key)
                if parts is not None:
                    _save(parts, key, res)
                out[key] = res
                done += 1
                if progress is not None:
                    progress(done, total)
            stats["seconds"] += time.perf_counter() - t1
            return out
        from distributed import as_completed

        client = self._client()
        t1 = time.perf_counter()
        futures = {
            client.submit(simulate_config, x, trials, seed, seed_key, pure=False): key
            for key, x, trials, seed, seed_key in todo
        }
        try:
            for fut in as_completed(futures):
                key = futures[fut]
                res = fut.result()
                if parts is not None:
                    _save(parts, key, res)
                out[key] = res
                done += 1
                if progress is not None:
                    progress(done, total)
        except BaseException:
            client.cancel(list(futures))
            raise
        stats["seconds"] += time.perf_counter() - t1
        return out


def dask_runner(
    workers: int | None = None,
    scheduler: str | None = None,
    parts: Path | None = None,
    fp: str = "",
    stats: dict[str, Any] | None = None,
) -> DaskRunner:
    """A :class:`DaskRunner` (close it when the decision is made)."""
    return DaskRunner(workers, scheduler, parts, fp, stats)


def finish_parts(parts: Path) -> None:
    """Remove the parts folder once the decision is written."""
    shutil.rmtree(parts, ignore_errors=True)


def feature_label(key: str) -> str:
    """A resilience feature as the Resilience page names it (its ladder rung's label)."""
    from goodput_lab.models.resilience import FEATURES

    f = FEATURES.get(key)
    return f.label if f is not None else key


def frontier_table(decision) -> list[dict[str, Any]]:
    """Rows of the frontier for tables and the chart (plain numbers and words)."""
    return [dict(r) for r in decision.to_json_dict()["frontier"]]


# --------------------------------------------------------------------------- the Decide page
#: Monte Carlo runs per configuration the page offers (the CLI's --trials).
PAGE_TRIALS = (200, 500, 1000, 2000)
DEFAULT_PAGE_TRIALS = 500


def run_decision(
    scenario,
    catalog,
    deadline_days: float,
    confidence: float,
    budget_usd: float | None,
    instances: Sequence[str] | None,
    trials: int,
    seed: int,
):
    """The page's decision: :func:`models.decide.decide` in this process (the same answer
    as ``goodput decide --json`` with the same arguments: one random stream per
    configuration, whatever runs it)."""
    from goodput_lab.models.decide import decide

    return decide(
        scenario,
        deadline_days,
        confidence,
        budget_usd=budget_usd,
        trials=trials,
        seed=seed,
        instances=list(instances) if instances else None,
        catalog=catalog,
    )


def cli_command(
    scenario_path: str,
    deadline_days: float,
    confidence: float,
    budget_usd: float | None,
    instances: Sequence[str] | None,
    trials: int,
    seed: int,
    scenario: Any = None,
) -> str:
    """The ``goodput decide`` command that prints the page's answer: ``scenario_path`` (a
    preset's name) with ``--set`` for every field in which ``scenario`` (the sidebar's)
    differs from it (:func:`models.decide.set_arguments`)."""
    import shlex

    from goodput_lab.models.decide import set_arguments
    from goodput_lab.models.scenario import load_preset, preset_paths

    sets: list[str] = []
    if scenario is not None and scenario_path in preset_paths():
        sets = [
            f"--set {shlex.quote(a)}" for a in set_arguments(load_preset(scenario_path), scenario)
        ]
    parts = [
        f"goodput decide {scenario_path}",
        *sets,
        f"--deadline-days {deadline_days:g}",
        f"--confidence {confidence:g}",
        f"--trials {trials}",
        f"--seed {seed}",
    ]
    if budget_usd is not None:
        parts.append(f"--budget-usd {budget_usd:g}")
    if instances:
        parts.append("--instances " + ",".join(instances))
    return " ".join(parts) + " --json"


def _block_text(r: Mapping[str, Any]) -> str:
    label = r["pricing_label"]
    return f"{label}, {r['block_days']:g} days" if r.get("block_days") else label


def runners_rows(decision) -> list[dict[str, Any]]:
    """Runners-up as table rows (registered keys, plus the pricing in words)."""
    out = []
    for r in decision.to_json_dict()["runners_up"]:
        out.append(
            {**r, "pricing": _block_text(r), "features_text": ", ".join(r["features"]) or "none"}
        )
    return out


def _option(r: dict[str, Any]) -> tuple:
    """What tells one simulated option from another: the configuration and its pricing."""
    keys = ("instance", "nodes", "spare_nodes", "pricing_model", "block_days")
    return (*(r[k] for k in keys), r["checkpoint_strategy"], tuple(r["features"]))


def frontier_rows(decision) -> list[dict[str, Any]]:
    """The frontier (Pareto set) and every other simulated option, for the chart: one row per
    simulated (configuration, pricing) with ``on_frontier`` and ``chosen``."""
    front = {_option(r) for r in decision.frontier}
    ch = decision.choice if decision.meets else None
    rows = []
    for r in decision.rows:
        if not math.isfinite(r["expected_total_cost_usd"]):
            continue
        k = _option(r)
        rows.append(
            {
                "instance": r["instance"],
                "nodes": r["nodes"],
                "pricing": _block_text(r),
                "expected_total_cost_usd": r["expected_total_cost_usd"],
                "probability_finish_by_deadline": r["probability_finish_by_deadline"],
                "on_frontier": k in front,
                "chosen": ch is not None and r is ch,
            }
        )
    return rows


# --------------------------------------------------------------------------- page text
# What the Decide page shows, ready to place (the page formats no number itself).
#: The command-line flags the decision's errors name, as the Decide page's widgets are
#: labelled (a dashboard user never typed "--confidence").
PAGE_FIELDS = {
    "--confidence": "Confidence (%)",
    "--deadline-days": "Deadline (days)",
    "--budget": "Budget (million USD)",
    "--trials": "Runs per configuration",
    "--seed": "Seed",
    "--instances": "Instance types to consider",
}


def confidence_fraction(percent: float) -> float:
    """The Decide page's confidence [%] as the decision's probability [fraction], without
    the float noise of the division (99.9 / 100 is 0.9990000000000001, which the decision
    refused as above its 0.999 maximum)."""
    return round(float(percent) / 100.0, 9)


def page_error(exc: ValidationError) -> str:
    """A decision's input error as the Decide page words it: the widget's label for the
    command-line flag."""
    field = PAGE_FIELDS.get(exc.field, exc.field)
    return f"{field}: {exc.message}"


def spinner_text(trials: int) -> str:
    """While the decision runs."""
    return f"Searching and simulating ({int(trials):,} runs per configuration)…"


def targets_line(d) -> str:
    """The deadline, confidence and budget the answer was computed for (Markdown)."""
    from goodput_lab.models.decide import percent_target

    return (
        f"**Deadline used: {d.deadline_days:g} days**, confidence {percent_target(d.confidence)}"
        + (f", P90 cost within ${d.budget_usd:,.0f}" if d.budget_usd else "")
        + "."
    )


def choice_tiles(shown: Mapping[str, Any]) -> list[tuple[dict[str, str], str]]:
    """The chosen (or closest) configuration as four (tile, caption) pairs: chance to finish,
    expected cost with its 80% range, nodes with spares, checkpoint interval with strategy.

    The nodes tile counts every paid node and its caption names the spares as the answer
    does ("948 + 72 spare (4 spare domains) × ...", :func:`models.decide._spares_words`;
    QA 28 #7: "948 + 0 spare" under an answer buying 72 spare nodes).  Where some runs never
    finish the cost tile says so instead of "—" (QA 28 #13)."""
    from goodput_lab.models.decide import _spare_pool, _spares_words, unfinished_words

    def usd(key: str) -> str:  # as the tile writes dollars (millions from $10M on)
        return display.tile(key, shown[key])["value"]

    finite = [
        shown[k] is not None and math.isfinite(shown[k])
        for k in ("expected_total_cost_usd", "total_cost_usd_p10", "total_cost_usd_p90")
    ]
    if finite[0]:
        cost = display.tile("expected_total_cost_usd", shown["expected_total_cost_usd"])
        cost_caption = f"80% range {usd('total_cost_usd_p10')}–{usd('total_cost_usd_p90')}"
    else:
        cost = display.tile("expected_total_cost_usd", None)
        share = shown.get("_unfinished", math.nan)
        cost["value"] = (
            f"{share:.0%} unfinished" if math.isfinite(share) and share >= 0.01 else "Unbounded"
        )
        cost_caption = unfinished_words(shown)[0].upper() + unfinished_words(shown)[1:]
        cost_caption += ", so there is no expected cost"
        if finite[2]:
            cost_caption += f"; 80% range {usd('total_cost_usd_p10')}–{usd('total_cost_usd_p90')}"
        elif finite[1]:
            cost_caption += f"; 10% of the runs cost at most {usd('total_cost_usd_p10')}"
    paid = _spare_pool(shown)["paid_spare_nodes"]
    return [
        (
            display.tile("probability_finish_by_deadline", shown["probability_finish_by_deadline"]),
            "",
        ),
        (cost, cost_caption),
        (
            display.tile("nodes", shown["nodes"] + paid),
            f"{shown['nodes']:,}{_spares_words(shown)} × {shown['instance']}",
        ),
        (
            display.tile("checkpoint_interval_minutes", shown["checkpoint_interval_minutes"]),
            # the sidebar's words ("Local NVMe + durable", not "nvme+durable")
            "strategy " + display.choice_words("checkpoint.strategy", shown["checkpoint_strategy"]),
        ),
    ]


def intervals_text(d, esc: Callable[[str], str] = str) -> str:
    """The failure-rate and step-time 80% intervals in the registry's range format (en
    dash, the unit once, × once), each with its source after a comma: a source note in
    brackets inside brackets read "(fleet prior (docs/decide.md))".  ``esc`` escapes the
    source notes for the page; ``goodput decide`` prints the same text."""
    iv, st_iv = d.failure_rate_interval, d.step_time_interval
    fr = display.format_range  # the registry's formats, as `goodput decide --json` keys them
    return (
        f"80% interval {fr('node_failure_rate_low', iv[0], iv[1])} per node-day, source: "
        f"{esc(iv[2])}; step time ×{fr('step_time_multiplier_low', st_iv[0], st_iv[1])}, "
        f"source: {esc(st_iv[2])}"
    )


def uncertainty_caption(d, esc: Callable[[str], str] = str) -> str:
    """The failure-rate and step-time intervals the simulation drew from and how many
    candidates were searched; ``esc`` escapes the intervals' source notes for the page."""
    return (
        f"Failure rate's {intervals_text(d, esc)}. "
        f"{count_text(d.analytic_candidates, 'candidate')} evaluated "
        f"analytically, {count_text(d.simulated_configurations, 'configuration')} simulated."
    )


def count_text(n: int, noun: str) -> str:
    """``n`` and its noun, singular for one: "1 configuration", "2,000 runs"."""
    return f"{n:,} {noun}" + ("" if n == 1 else "s")


RUNNER_COLUMNS = (
    "instance",
    "nodes",
    ("pricing", "Pricing"),
    "probability_finish_by_deadline",
    "expected_total_cost_usd",
    "total_cost_usd_p90",
    "why_not",
)


def runners_caption(n: int) -> str:
    """Over the runners-up table of ``n`` rows, or in its place when there is none (not
    "None: ...", which reads as a missing value)."""
    if n:
        return "The best of every other instance type and pricing model."
    return (
        "No runner-up: no other instance type or pricing model was simulated (the types "
        "left out and why are in the notes below)."
    )


def runners_display(d) -> Any:
    """:func:`runners_rows` as a display table."""
    return display.table(runners_rows(d), RUNNER_COLUMNS)


#: A choice of runs or points as the page shows it ("1,000", not "1000").
runs_text = display.runs_text

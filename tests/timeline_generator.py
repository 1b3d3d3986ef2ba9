"""A job-timeline generator with known parameters, written for the tests (no ``models`` import).

It plays one training job event by event, the way a real run behaves, and writes the
timeline format of ``docs/timeline.md``:

* steps of ``step_seconds`` (lognormal jitter ``step_cv``) numbered 1, 2, 3 ...; after
  ``startup_seconds`` of start-up the first step is announced with ``step_start``;
* a blocking checkpoint every ``checkpoint_every_steps`` steps, lasting ``save_seconds``
  (lognormal jitter ``save_cv``);
* job-stopping failures as a Poisson process over the whole wall time at
  ``nodes × node_failure_rate_per_day`` per day (a failure may also strike during a save, a
  recovery or a restore), each on a random node;
* after a failure: ``recovery_minutes`` (lognormal, ``recovery_cv``) of detection,
  replacement and restart, then a restore of ``restore_seconds`` (``restore_cv``) back to
  the last checkpoint; a failure during either starts the recovery over;
* the job ends after ``days`` of wall time, whatever it is doing then.

All times are whole milliseconds, so the ISO 8601 timestamps written are exact.  The
generator keeps its own books (which step executions survive, how long each activity took),
so :attr:`Generated.truth` is the run's true goodput and time per bucket.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

import numpy as np

START = datetime(2025, 3, 1, tzinfo=UTC)


@dataclass(frozen=True)
class GeneratorParams:
    nodes: int = 2000
    days: float = 30.0
    node_failure_rate_per_day: float = 0.004  # Llama 3 405B: 0.0039 (arXiv:2407.21783)
    step_seconds: float = 30.0
    step_cv: float = 0.03
    checkpoint_every_steps: int = 80  # 40 min of 30 s steps
    save_seconds: float = 60.0
    save_cv: float = 0.05
    recovery_minutes: float = 9.0
    recovery_cv: float = 0.3
    restore_seconds: float = 120.0
    restore_cv: float = 0.1
    startup_seconds: float = 300.0
    seed: int = 7


@dataclass
class Generated:
    """The timeline rows ``(ms since START, event, step or None, node or None)`` and the truth."""

    params: GeneratorParams
    rows: list[tuple[int, str, int | None, str | None]] = field(default_factory=list)
    truth: dict[str, float] = field(default_factory=dict)

    def csv(self) -> str:
        out = ["timestamp,event,step,node_id"]
        for ms, event, step, node in self.rows:
            out.append(f"{_iso(ms)},{event},{'' if step is None else step},{node or ''}")
        return "\n".join(out) + "\n"

    def jsonl(self) -> str:
        out = []
        for ms, event, step, node in self.rows:
            rec: dict = {"timestamp": _iso(ms), "event": event}
            if step is not None:
                rec["step"] = step
            if node:
                rec["node_id"] = node
            out.append(json.dumps(rec))
        return "\n".join(out) + "\n"


def _iso(ms: int) -> str:
    return (
        (START + timedelta(milliseconds=ms))
        .isoformat(timespec="milliseconds")
        .replace("+00:00", "Z")
    )


def _lognormal_ms(rng: np.random.Generator, mean_s: float, cv: float) -> int:
    if cv <= 0:
        return round(mean_s * 1000)
    s2 = np.log1p(cv * cv)
    return max(1, round(1000 * mean_s * rng.lognormal(-s2 / 2, np.sqrt(s2))))


def _drop_unsaved(done: list[tuple[int, int]], saved: int) -> float:
    """Remove the executions of steps after the last checkpoint; their seconds."""
    lost = 0
    while done and done[-1][0] > saved:
        lost += done.pop()[1]
    return lost / 1000


def generate(p: GeneratorParams = GeneratorParams()) -> Generated:
    """Simulate one job (see the module docstring)."""
    rng = np.random.default_rng(p.seed)
    end = round(p.days * 86_400_000)
    rate_per_ms = p.nodes * p.node_failure_rate_per_day / 86_400_000
    g = Generated(p)
    emit = g.rows.append
    books = dict.fromkeys(
        ("checkpoint_save", "restore", "recovery", "rework", "other"), 0.0
    )  # seconds

    def next_failure(after: int) -> int:
        if rate_per_ms <= 1e-15:
            return 2 * end + 1
        gap = min(rng.exponential(1.0 / rate_per_ms), 2.0 * end + 1)
        return after + max(1, round(gap))

    done: list[tuple[int, int]] = []  # surviving (step, duration ms) so far, in order
    t = 0
    emit((0, "job_start", None, None))
    nf = next_failure(0)
    step = 0  # last completed step
    saved = 0  # last checkpointed step
    first = True
    state = "up"

    def fail_and_recover(tf: int) -> int:
        """Failure at tf (and any during recovery/restore); returns the time training resumes,
        or ``end`` if the job ended first."""
        nonlocal nf
        while True:
            emit((tf, "failure", None, f"node-{int(rng.integers(p.nodes)):04d}"))
            nf = next_failure(tf)
            rec = _lognormal_ms(rng, p.recovery_minutes * 60, p.recovery_cv)
            if min(nf, end) < tf + rec:
                cut = min(nf, end)
                books["recovery"] += (cut - tf) / 1000
                if nf >= end:
                    return end
                tf = nf
                continue
            books["recovery"] += rec / 1000
            rs = tf + rec
            emit((rs, "restore_start", saved, None))
            dur = _lognormal_ms(rng, p.restore_seconds, p.restore_cv)
            if min(nf, end) < rs + dur:
                cut = min(nf, end)
                books["restore"] += (cut - rs) / 1000
                if nf >= end:
                    return end
                tf = nf
                continue
            books["restore"] += dur / 1000
            emit((rs + dur, "restore_end", saved, None))
            return rs + dur

    while t < end:
        if first:  # start-up, then the first step is announced
            up = round(p.startup_seconds * 1000)
            if min(nf, end) < t + up:
                # the timeline cannot tell start-up cut by a failure from a cut step
                books["other" if nf >= end else "rework"] += (min(nf, end) - t) / 1000
                if nf >= end:
                    t = end
                    break
                t = fail_and_recover(nf)
                state = "down" if t >= end else "up"
                first = False
                continue
            books["other"] += up / 1000
            t += up
            emit((t, "step_start", step + 1, None))
            first = False
        d = _lognormal_ms(rng, p.step_seconds, p.step_cv)
        if min(nf, end) < t + d:  # the step is cut
            cut = min(nf, end)
            if nf >= end:
                books["other"] += (end - t) / 1000  # a step the job did not finish
                t = end
                break
            books["rework"] += (cut - t) / 1000
            books["rework"] += _drop_unsaved(done, saved)
            t = fail_and_recover(nf)
            step = saved
            state = "down" if t >= end else "up"
            continue
        t += d
        step += 1
        emit((t, "step_end", step, None))
        done.append((step, d))
        if step % p.checkpoint_every_steps == 0:
            s = _lognormal_ms(rng, p.save_seconds, p.save_cv)
            emit((t, "checkpoint_start", step, None))
            if min(nf, end) < t + s:  # the save is cut
                cut = min(nf, end)
                books["checkpoint_save"] += (cut - t) / 1000
                if nf >= end:
                    t = end
                    break
                books["rework"] += _drop_unsaved(done, saved)
                t = fail_and_recover(nf)
                step = saved
                state = "down" if t >= end else "up"
                continue
            t += s
            books["checkpoint_save"] += s / 1000
            emit((t, "checkpoint_end", step, None))
            saved = step
    if state == "down":  # ended while recovering: the unsaved steps are lost
        books["rework"] += _drop_unsaved(done, saved)
    emit((end, "job_end", None, None))
    productive = sum(x[1] for x in done) / 1000
    wall = end / 1000
    g.truth = {
        "goodput": productive / wall,
        "productive_seconds": productive,
        "wall_seconds": wall,
        "failures": float(sum(1 for r in g.rows if r[1] == "failure")),
        **{f"{k}_seconds": v for k, v in books.items()},
    }
    return g

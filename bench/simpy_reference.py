"""The Monte Carlo training-run process written plainly with SimPy (the reference).

One SimPy environment per trial: a training process that computes τ, saves δ and commits a
checkpoint, again and again; a failure process that interrupts it at exponential gaps (rate
N·r, superposed node failures); on an interruption the training process loses the work since
the last checkpoint and recovers for detection + replacement + restart + restore (lognormal
spread on the last three), and a failure during the recovery restarts it.  A probe records the
work done at the horizon.  This is the same model as models/montecarlo.py for scenarios with
exponential failures, no hot spares, no extra tiers, no correlated events and no stalls, which
is what the benchmark runs; it exists to be timed against and to agree with it statistically.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import simpy
from goodput_lab.models.montecarlo import SimulationParams


@dataclass
class TrialResult:
    goodput: float
    finish_minutes: float
    failures: int
    events: int


def run_trial(p: SimulationParams, horizon_min: float, need: int, seed) -> TrialResult:
    rng = np.random.default_rng(seed)
    env = simpy.Environment()
    tau, delta = p.seg_compute, p.seg_save
    lam = p.nodes * p.node_rate_per_min
    s2 = math.log1p(p.spread**2)
    st = {"committed": 0, "phase": "compute", "since": 0.0, "failures": 0, "events": 0}
    at_horizon = {}

    def spread(mean):
        if p.spread <= 0 or mean <= 0:
            return mean
        return mean * rng.lognormal(-s2 / 2, math.sqrt(s2))

    def training():
        while st["committed"] < need:
            try:
                st["phase"], st["since"] = "compute", env.now
                yield env.timeout(tau)
                st["phase"] = "save"
                yield env.timeout(delta)
                st["committed"] += 1
                st["events"] += 2
            except simpy.Interrupt:
                st["phase"] = "down"
                while True:
                    try:
                        yield env.timeout(
                            p.detection
                            + spread(p.replacement)
                            + spread(p.restart)
                            + spread(p.restore)
                        )
                        st["events"] += 1
                        break
                    except simpy.Interrupt:
                        continue

    def failures(job):
        while True:
            yield env.timeout(rng.exponential(1.0 / lam))
            if not job.is_alive:
                return
            st["failures"] += 1
            st["events"] += 1
            job.interrupt()

    def probe():
        yield env.timeout(horizon_min)
        work = st["committed"] * tau
        if st["phase"] == "compute":
            work += min(env.now - st["since"], tau)
        elif st["phase"] == "save":
            work += tau
        at_horizon["work"] = work

    job = env.process(training())
    env.process(failures(job))
    env.process(probe())
    env.run(until=job)
    finish = env.now
    if "work" not in at_horizon:  # finished before the horizon
        at_horizon["work"] = need * tau
    return TrialResult(at_horizon["work"] / horizon_min, finish, st["failures"], st["events"])


def run(p: SimulationParams, trials: int, days: float, seed: int = 0) -> list[TrialResult]:
    """``trials`` independent SimPy runs of ``days`` of work, measured over ``days``."""
    horizon = days * 1440.0
    need = math.ceil(horizon / p.seg_compute - 1e-9)
    seeds = np.random.SeedSequence(seed).spawn(trials)
    return [run_trial(p, horizon, need, s) for s in seeds]

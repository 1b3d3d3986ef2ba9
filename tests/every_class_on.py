"""Scenario overrides that switch every optional failure class, recovery path and cost on.

With these, no term of the chain is absent (the default preset leaves Spot, silent data
corruption, peer recovery, spares ... out, and the engine spends no pass on them): the
engine benchmark's "every class on" row (bench/bench_engine.py) and the in-place tests of
tests/models/test_evaluate_chunked.py use the same set.
"""

from __future__ import annotations

ALL_ON = {
    "pricing.model": "spot",
    "reliability.sdc_fraction": 0.02,
    "resilience.peer_recovery_fraction": 0.3,
    "resilience.in_process_fraction": 0.2,
    "resilience.elastic_fraction": 0.3,
    "cluster.spare_nodes": 8.0,
    "checkpoint.strategy": "memory+durable",
    "recovery.warmup_minutes": 2.0,
    "checkpoint.corrupt_fraction": 0.01,
    "network.fabric_events_per_day": 3.0,
    "resilience.straggler_slowdown": 0.02,
    "resilience.overhead_fraction": 0.01,
}

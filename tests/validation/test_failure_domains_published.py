"""Failure domains and job-level interruptions against published figures
(docs/failure-domains.md).

* Kokolis et al. 2024 (arXiv:2410.21680): RSC-1's 6.5 failures per 1,000 node-days project
  1.8 h between failures for a 16,384-GPU job and 28.8 h for a 1,024-GPU job, which was
  quoted at 7.9 h (read as measured, as summaries of the paper do; not confirmed in its
  text).  A job-level rate fed their figures reproduces the 7.9 h while the
  16,384-GPU node-rate projection stays 1.8 h.
* Llama 3 405B (arXiv:2407.21783 Table 5): 419 unexpected interruptions in 54 days on
  16,384 GPUs.
* FT-HSDP at O(100K) GPUs (arXiv:2602.00277): 80% effective training time with 3-minute
  stalls, 44% with 10-minute stalls (consistency check: the rate is implied, not published).
* GB200 NVL72 / P6e-GB200 UltraServer: 72 GPUs in 18 nodes of 4 (AWS instance specs).
"""

from __future__ import annotations

import math

import pytest
from goodput_lab.models import Scenario, evaluate_arrays, resolve_inputs
from goodput_lab.models.scenario import load_preset

KOKOLIS_RATE = 0.0065  # RSC-1 failures per node-day (6.5 per 1,000 node-days)
KOKOLIS_SMALL_MTTF_H = 7.9  # measured, 1,024-GPU jobs
KOKOLIS_SMALL_PROJECTED_H = 28.8  # from the node rate, 1,024 GPUs
KOKOLIS_LARGE_PROJECTED_H = 1.8  # from the node rate, 16,384 GPUs


def _eval(**updates):
    return evaluate_arrays(resolve_inputs(Scenario.default().replace(updates)))


def test_kokolis2024_node_rate_projections():
    small = _eval(**{"cluster.nodes": 128, "reliability.node_failure_rate_per_day": KOKOLIS_RATE})
    large = _eval(**{"cluster.nodes": 2048, "reliability.node_failure_rate_per_day": KOKOLIS_RATE})
    assert float(small["mtbf_hours"]) == pytest.approx(KOKOLIS_SMALL_PROJECTED_H, abs=0.1)
    assert float(large["mtbf_hours"]) == pytest.approx(KOKOLIS_LARGE_PROJECTED_H, abs=0.05)


def test_kokolis2024_small_job_with_a_job_level_rate():
    """The job-level rate that their two small-job figures imply (24/7.9 − 128·r) gives the
    measured 7.9 h; the 16,384-GPU node-rate projection is reported unchanged beside it."""
    job_rate = 24.0 / KOKOLIS_SMALL_MTTF_H - 128 * KOKOLIS_RATE
    assert job_rate == pytest.approx(2.21, abs=0.01)
    common = {
        "reliability.node_failure_rate_per_day": KOKOLIS_RATE,
        "reliability.job_interruptions_per_day": job_rate,
    }
    small = _eval(**{"cluster.nodes": 128, **common})
    assert float(small["mtbf_hours"]) == pytest.approx(KOKOLIS_SMALL_MTTF_H, abs=0.01)
    assert float(small["job_interruptions_per_day"]) == pytest.approx(job_rate)
    large = _eval(**{"cluster.nodes": 2048, **common})
    node_mttf = 24.0 / float(large["node_failures_per_day"])
    assert node_mttf == pytest.approx(KOKOLIS_LARGE_PROJECTED_H, abs=0.05)
    # the job-level part is a smaller share of a large job's interruptions
    share_small = job_rate / float(small["failures_per_day"])
    share_large = job_rate / float(large["failures_per_day"])
    assert share_large < share_small / 4


def test_llama3_419_interruptions_in_54_days():
    e = evaluate_arrays(resolve_inputs(load_preset("llama3-16k")))
    assert float(e["failures_per_day"]) * 54 == pytest.approx(419, abs=1)
    assert float(e["mtbf_hours"]) == pytest.approx(24 * 54 / 419, abs=0.02)  # 3.09 h
    assert float(e["job_interruptions_per_day"]) == 0.0


def test_fthsdp2026_stall_consistency():
    """Consistency check, not a validation: the rate is implied by the 80% figure.

    Failures recovered from peers' state lose no work (our class P, Daly's τ → 0 limit:
    g = e^{−λR}); a 3-minute stall at 80% implies λ = −ln 0.8 / 3 per minute.  The same λ
    with 10-minute stalls gives 47.5%: within 4 points of the 44% reported, the rest being
    the rework that fully synchronous training also pays."""
    lam_per_min = -math.log(0.80) / 3.0
    updates = {
        "cluster.nodes": 12_500,  # 100,000 GPUs
        "reliability.node_failure_rate_per_day": lam_per_min * 1440 / 12_500,
        "resilience.peer_recovery_fraction": 1.0,
        "resilience.peer_restore_minutes": 0.0,
        "recovery.detection_minutes": 0.0,
        "recovery.replacement_minutes": 0.0,
        "recovery.hot_spare_swap_minutes": 0.0,
        "checkpoint.save_seconds": 0.0,
    }
    ft = _eval(**updates, **{"recovery.restart_minutes": 3.0})
    sync = _eval(**updates, **{"recovery.restart_minutes": 10.0})
    assert float(ft["goodput"]) == pytest.approx(0.80, abs=0.005)
    assert float(sync["goodput"]) == pytest.approx(0.44, abs=0.04)
    assert float(sync["goodput"]) > 0.44  # what the stall alone explains
    # 44% needs 11.0 minutes lost per failure at that rate: about a minute of rework
    lost = _eval(**updates, **{"recovery.restart_minutes": -math.log(0.44) / lam_per_min})
    assert -math.log(0.44) / lam_per_min == pytest.approx(11.04, abs=0.01)
    assert float(lost["goodput"]) == pytest.approx(0.44, abs=0.005)


def test_p6e_gb200_ultraserver_is_72_gpus_in_18_nodes():
    e = evaluate_arrays(resolve_inputs(load_preset("p6e-gb200-nvl72")))
    assert float(e["nodes_per_domain"]) == 18.0
    assert float(e["nodes_per_domain"]) * 4 == 72.0
    assert float(e["scaleup_domains"]) == 64.0  # 4,608 GPUs

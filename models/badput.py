"""Predicted losses in the badput buckets people measure.

Google's ml-goodput-measurement (``ml_goodput_measurement``, its ``BadputType`` enum) reports
a training job's lost time in named badput buckets.  Every loss component of our goodput
step (:data:`models.outputs.LOSS_COMPONENTS`) maps onto one of those names, or onto a bucket
of our own where none fits (fabric stalls, fail-slow nodes, stragglers, resilience overheads, idle spares),
so a prediction and a measurement can be read side by side.  The names are plain strings
here: the models do not import the library at run time; a test checks every name against
the installed library's enum (tests/models/test_badput.py).  Definitions and the reasoning
behind each mapping: docs/references.md#badput-buckets.
"""

from __future__ import annotations

from collections.abc import Mapping

from .outputs import LOSS_COMPONENTS

#: The names of ml-goodput-measurement's BadputType members this project maps onto.
GOOGLE_BADPUT: tuple[str, ...] = (
    "INFRASTRUCTURE_RECOVERY_FROM_DISRUPTION",
    "PROGRAM_STARTUP",
    "DATA_LOADING_SYNC",
    "UNPRODUCTIVE_CHECKPOINT_SAVE_TIME",
    "UNPRODUCTIVE_CHECKPOINT_RESTORE_TIME",
    "WASTED_PROGRESS_FROM_DISRUPTION",
    "OTHER",
)
#: Our own buckets, for losses that none of the library's names describes.
OUR_BADPUT: tuple[str, ...] = (
    "fabric_stall",
    "fail_slow",
    "straggler",
    "resilience_overhead",
    "idle_spares",
)
BADPUT_BUCKETS: tuple[str, ...] = GOOGLE_BADPUT + OUR_BADPUT

#: Loss component of the goodput step -> badput bucket.
COMPONENT_BADPUT: dict[str, str] = {
    "detection": "INFRASTRUCTURE_RECOVERY_FROM_DISRUPTION",
    "replacement": "INFRASTRUCTURE_RECOVERY_FROM_DISRUPTION",
    "spot_notice": "INFRASTRUCTURE_RECOVERY_FROM_DISRUPTION",
    "restart": "PROGRAM_STARTUP",
    "warmup": "DATA_LOADING_SYNC",
    "checkpoint_save": "UNPRODUCTIVE_CHECKPOINT_SAVE_TIME",
    "restore": "UNPRODUCTIVE_CHECKPOINT_RESTORE_TIME",
    "rework": "WASTED_PROGRESS_FROM_DISRUPTION",
    "fallback_rework": "WASTED_PROGRESS_FROM_DISRUPTION",
    "corrupt_checkpoint": "WASTED_PROGRESS_FROM_DISRUPTION",
    "sdc_rollback": "WASTED_PROGRESS_FROM_DISRUPTION",
    "fabric_stall": "fabric_stall",
    "fail_slow": "fail_slow",
    "straggler": "straggler",
    "resilience_overhead": "resilience_overhead",
}
assert set(COMPONENT_BADPUT) == set(LOSS_COMPONENTS)
assert set(COMPONENT_BADPUT.values()) <= set(BADPUT_BUCKETS)

#: A run log's measured bucket (models.timeline.BUCKETS) -> the badput buckets it holds
#: together (a timeline has no event between a failure's detection, replacement and
#: restart, so its 'recovery' is three of the library's buckets at once).
TIMELINE_BADPUT: dict[str, tuple[str, ...]] = {
    "checkpoint_save": ("UNPRODUCTIVE_CHECKPOINT_SAVE_TIME",),
    "restore": ("UNPRODUCTIVE_CHECKPOINT_RESTORE_TIME",),
    "recovery": ("INFRASTRUCTURE_RECOVERY_FROM_DISRUPTION", "PROGRAM_STARTUP"),
    "rework": ("WASTED_PROGRESS_FROM_DISRUPTION",),
    "other": (
        "OTHER",
        "DATA_LOADING_SYNC",
        "fabric_stall",
        "fail_slow",
        "straggler",
        "resilience_overhead",
    ),
}

BADPUT_LABELS: dict[str, str] = {
    "INFRASTRUCTURE_RECOVERY_FROM_DISRUPTION": "Infrastructure recovery from disruption",
    "PROGRAM_STARTUP": "Program startup",
    "DATA_LOADING_SYNC": "Data loading (synchronous)",
    "UNPRODUCTIVE_CHECKPOINT_SAVE_TIME": "Unproductive checkpoint save time",
    "UNPRODUCTIVE_CHECKPOINT_RESTORE_TIME": "Unproductive checkpoint restore time",
    "WASTED_PROGRESS_FROM_DISRUPTION": "Wasted progress from disruption",
    "OTHER": "Other",
    "fabric_stall": "Fabric stalls (ours)",
    "fail_slow": "Fail-slow nodes (ours)",
    "straggler": "Stragglers (ours)",
    "resilience_overhead": "Resilience overheads (ours)",
    "idle_spares": "Idle spares (ours)",
}


def badput_minutes_per_day(loss_minutes_per_day: Mapping[str, float]) -> dict[str, float]:
    """The goodput step's loss components summed per badput bucket [min/day of the job].

    Parameters
    ----------
    loss_minutes_per_day : ``{component: minutes per day}`` for every loss component
        (an Evaluation's ``loss_<component>_minutes_per_day`` figures).

    Returns
    -------
    ``{bucket: minutes per day}`` for every bucket of :data:`BADPUT_BUCKETS` but
    ``idle_spares`` (spares are paid node time beside the job, not the job's time: see
    :func:`badput_usd_per_day`).
    """
    out = {b: 0.0 for b in BADPUT_BUCKETS if b != "idle_spares"}
    for comp, minutes in loss_minutes_per_day.items():
        out[COMPONENT_BADPUT[comp]] += float(minutes)
    return out


def badput_usd_per_day(
    loss_usd_per_day: Mapping[str, float], spare_usd_per_day: float
) -> dict[str, float]:
    """Lost dollars per day per badput bucket, idle spares included [USD/day].

    Parameters
    ----------
    loss_usd_per_day : Mapping[str, float]
        Lost dollars per day per loss component of the chain [USD/day].
    spare_usd_per_day : float
        Cost of the idle hot spares [USD/day].

    Returns
    -------
    dict of str to float
        Lost dollars per day per badput bucket (:data:`BADPUT_BUCKETS`) [USD/day].
    """
    out = dict.fromkeys(BADPUT_BUCKETS, 0.0)
    for comp, usd in loss_usd_per_day.items():
        out[COMPONENT_BADPUT[comp]] += float(usd)
    out["idle_spares"] = float(spare_usd_per_day)
    return out


__all__ = [
    "BADPUT_BUCKETS",
    "BADPUT_LABELS",
    "COMPONENT_BADPUT",
    "GOOGLE_BADPUT",
    "OUR_BADPUT",
    "TIMELINE_BADPUT",
    "badput_minutes_per_day",
    "badput_usd_per_day",
]

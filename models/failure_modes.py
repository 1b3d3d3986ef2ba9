"""Failure modes and their blast radius: which causes a resilience feature can help.

The Llama 3 405B root-cause table (arXiv:2407.21783, Table 5; ``data/failure_logs/
llama3-root-causes.csv``, the taxonomy ``goodput fit`` maps failure logs onto) says how often
each cause stopped the job.  ``data/failure_modes.csv`` adds, per cause, what a recovery has
to deal with — our classification, with the reason in its ``basis`` column:

* **mode**: ``crash`` (a process exits: noticed at once), ``hang`` (nothing exits: noticed
  when a timeout fires) or ``silent`` (silent data corruption: noticed late, if at all);
* **node_lost**: the node (or its GPU) must be replaced, or stays healthy;
* **multi_node**: one event stops several nodes (a switch or cable: the blast radius that
  can take every in-memory replica, ``checkpoint.correlated_fraction``);
* **lemon_prone**: a fault of the node's own hardware, the kind that recurs on a lemon node;
* **in_process**: the processes can recover without a relaunch (the node is healthy).

:class:`FailureModes` turns counts per cause into the shares the resilience features act on
(:mod:`models.resilience`), so a feature's saving is computed from the causes it helps rather
than from one blended failure rate.  Its counts come from Llama 3 by default or from a
fitted failure log (:meth:`FailureModes.from_fit`).
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ._resources import data_path
from .errors import ValidationError
from .fitting import llama3_taxonomy

MODES_CSV = data_path("failure_modes.csv")
MODES = ("crash", "hang", "silent")
_BOOL = {"yes": True, "no": False}


@dataclass(frozen=True)
class FailureMode:
    """One root cause: how often it stopped the job and what its recovery has to deal with."""

    category: str
    label: str
    group: str
    count: float
    mode: str
    node_lost: bool
    multi_node: bool
    lemon_prone: bool
    in_process: bool
    basis: str

    @property
    def silent(self) -> bool:
        return self.mode == "silent"

    @property
    def hang(self) -> bool:
        return self.mode == "hang"


@lru_cache(maxsize=1)
def _mode_rows() -> dict[str, dict[str, Any]]:
    """``data/failure_modes.csv`` as {category: row}; strict (a bad cell names its row)."""
    taxonomy = {r["category"] for r in llama3_taxonomy()}
    with MODES_CSV.open(newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    out: dict[str, dict[str, Any]] = {}
    for i, r in enumerate(rows, start=2):
        cat = r.get("category", "")
        if cat not in taxonomy:
            raise ValidationError("failure_modes.csv", f"row {i}: unknown category {cat!r}")
        if r.get("mode") not in MODES:
            raise ValidationError("failure_modes.csv", f"row {i}: mode must be one of {MODES}")
        flags = {}
        for col in ("node_lost", "multi_node", "lemon_prone", "in_process"):
            if r.get(col) not in _BOOL:
                raise ValidationError("failure_modes.csv", f"row {i}: {col} must be yes or no")
            flags[col] = _BOOL[r[col]]
        out[cat] = {"mode": r["mode"], "basis": r.get("basis", ""), **flags}
    missing = taxonomy - set(out)
    if missing:
        raise ValidationError("failure_modes.csv", "no row for " + ", ".join(sorted(missing)))
    return out


@dataclass(frozen=True)
class FailureModes:
    """Counts per root cause with their failure modes; shares of what features act on.

    Shares are of all failures unless the name says "of non-silent" (the chain's
    ``recovery.hang_fraction`` and the resilience shares exclude silent data corruption,
    which ``reliability.sdc_fraction`` covers).
    """

    causes: tuple[FailureMode, ...]
    source: str

    @classmethod
    def from_counts(cls, counts: Mapping[str, float], source: str) -> FailureModes:
        """Failure modes with ``counts`` per taxonomy category (others 0)."""
        rows = _mode_rows()
        causes = []
        for t in llama3_taxonomy():
            cat = t["category"]
            n = float(counts.get(cat, 0.0))
            if not n >= 0:
                raise ValidationError(f"count of {cat}", f"{n!r} is not a count (>= 0)")
            causes.append(
                FailureMode(
                    category=cat,
                    label=t["label"],
                    group=t["group"],
                    count=n,
                    **rows[cat],
                )
            )
        if sum(c.count for c in causes) <= 0:
            raise ValidationError("failure causes", "no failure maps onto the taxonomy")
        return cls(tuple(causes), source)

    @classmethod
    def llama3(cls) -> FailureModes:
        """The 419 unexpected interruptions of Llama 3 405B (arXiv:2407.21783, Table 5)."""
        return cls.from_counts(
            {t["category"]: t["count"] for t in llama3_taxonomy()},
            "Llama 3 405B root causes (arXiv:2407.21783, Table 5)",
        )

    @classmethod
    def from_fit(cls, fit: Any, source: str = "fitted failure log") -> FailureModes:
        """Counts per cause from a :class:`models.fitting.LogFit` (unmapped causes left out)."""
        counts = {r["category"]: r["failures"] for r in fit.causes if r["category"] != "unmapped"}
        return cls.from_counts(counts, source)

    # ---------------------------------------------------------------- shares
    @property
    def total(self) -> float:
        return sum(c.count for c in self.causes)

    def share(self, pred: Callable[[FailureMode], bool], *, of_non_silent: bool = False) -> float:
        """Share of failures whose cause satisfies ``pred`` [fraction]."""
        pool = [c for c in self.causes if not (of_non_silent and c.silent)]
        total = sum(c.count for c in pool)
        return sum(c.count for c in pool if pred(c)) / total if total > 0 else 0.0

    @property
    def sdc_fraction(self) -> float:
        """Silent data corruption, of all failures (``reliability.sdc_fraction``)."""
        return self.share(lambda c: c.silent)

    @property
    def hang_fraction(self) -> float:
        """Hangs, of non-silent failures (``recovery.hang_fraction``)."""
        return self.share(lambda c: c.hang, of_non_silent=True)

    @property
    def in_process_fraction(self) -> float:
        """Recoverable in process (node healthy), of non-silent failures."""
        return self.share(lambda c: c.in_process, of_non_silent=True)

    @property
    def peer_fraction(self) -> float:
        """Single-node failures, of non-silent ones: a healthy replica of their state
        survives, so peers can restore it (checkpointless recovery)."""
        return self.share(lambda c: not c.multi_node, of_non_silent=True)

    @property
    def elastic_fraction(self) -> float:
        """Single-node failures, of non-silent ones: the job can drop one data-parallel
        replica and run on."""
        return self.share(lambda c: not c.multi_node, of_non_silent=True)

    @property
    def node_loss_fraction(self) -> float:
        """Failures after which the node is replaced (``checkpoint.node_loss_fraction``)."""
        return self.share(lambda c: c.node_lost)

    @property
    def correlated_fraction(self) -> float:
        """Failures that stop several nodes at once (``checkpoint.correlated_fraction``)."""
        return self.share(lambda c: c.multi_node)

    @property
    def lemon_prone_fraction(self) -> float:
        """Failures of the node's own hardware, the kind lemon nodes repeat."""
        return self.share(lambda c: c.lemon_prone)

    def weights(self, pred: Callable[[FailureMode], bool]) -> dict[str, float]:
        """{category: share among the causes satisfying ``pred``} (sums to 1, or empty)."""
        chosen = [c for c in self.causes if pred(c) and c.count > 0]
        total = sum(c.count for c in chosen)
        return {c.category: c.count / total for c in chosen} if total > 0 else {}

    def table(self) -> list[dict[str, Any]]:
        """One row per cause: counts, share and modes (for tables and JSON)."""
        total = self.total
        return [
            {
                "category": c.category,
                "label": c.label,
                "group": c.group,
                "failures": c.count,
                "share": c.count / total if total > 0 else 0.0,
                "mode": c.mode,
                "node_lost": c.node_lost,
                "multi_node": c.multi_node,
                "lemon_prone": c.lemon_prone,
                "in_process": c.in_process,
                "basis": c.basis,
            }
            for c in self.causes
        ]


def lemon_share_from_fit(fit: Any) -> tuple[float, float]:
    """(share of failures on lemon nodes, share of nodes that are lemons) from a
    :class:`models.fitting.LogFit` (``goodput fit`` finds the lemons).

    Evicting the lemons and replacing them with ordinary nodes scales the node failure rate
    by (1 − L) / (1 − ℓ) with L the failure share and ℓ the node share
    (:func:`lemon_rate_factor`).

    Parameters
    ----------
    fit : models.fitting.LogFit
        A fit of a failure log (``goodput fit``) with its lemon nodes.

    Returns
    -------
    tuple of float
        (L, ℓ): share of failures on lemon nodes and share of nodes that are lemons [fraction].
    """
    lemons = list(getattr(fit, "lemons", []) or [])
    failures = float(getattr(fit, "n_failures", 0) or 0)
    nodes = float(getattr(fit, "nodes", 0) or 0)
    if failures <= 0 or nodes <= 0:
        return 0.0, 0.0
    return sum(lm["failures"] for lm in lemons) / failures, len(lemons) / nodes


def lemon_rate_factor(failure_share: float, node_share: float) -> float:
    """Node failure rate after evicting lemon nodes, as a factor of the current rate.

    The other nodes fail at r·(1 − L)/(1 − ℓ) per node-day; replacing the lemons with such
    nodes gives the whole cluster that rate.

    Parameters
    ----------
    failure_share : float
        L, share of failures on lemon nodes [fraction], in [0, 1).
    node_share : float
        ℓ, share of nodes that are lemons [fraction], in [0, 1).

    Returns
    -------
    float
        (1 − L)/(1 − ℓ) [-], the factor on the node failure rate.

    Raises
    ------
    ValidationError
        When a share is outside [0, 1).

    Examples
    --------
    >>> round(lemon_rate_factor(0.059, 2 / 474), 4)
    0.945
    """
    L, ell = float(failure_share), float(node_share)
    if not (0.0 <= L < 1.0 and 0.0 <= ell < 1.0):
        raise ValidationError("lemon share", f"({L!r}, {ell!r}) must be in [0, 1)")
    return (1.0 - L) / (1.0 - ell)


def shares_summary(modes: FailureModes) -> dict[str, float]:
    """The shares the chain and the features use, by name (for tables and JSON).

    Parameters
    ----------
    modes : FailureModes
        The scenario's failure modes.

    Returns
    -------
    dict of str to float
        Each share by its field name [fraction].
    """
    return {
        "sdc_fraction": modes.sdc_fraction,
        "hang_fraction": modes.hang_fraction,
        "in_process_fraction": modes.in_process_fraction,
        "peer_fraction": modes.peer_fraction,
        "elastic_fraction": modes.elastic_fraction,
        "node_loss_fraction": modes.node_loss_fraction,
        "correlated_fraction": modes.correlated_fraction,
        "lemon_prone_fraction": modes.lemon_prone_fraction,
    }


__all__ = [
    "FailureMode",
    "FailureModes",
    "lemon_rate_factor",
    "lemon_share_from_fit",
    "shares_summary",
]

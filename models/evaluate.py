"""Scenario → inputs → the evaluation chain → an :class:`Evaluation` (the ModelChain analogue).

``resolve_inputs`` turns a validated :class:`~models.scenario.Scenario` into the flat inputs
of the chain (:mod:`models.chain`): every numeric field, the node type's specs from the
catalog, the checkpoint tier table, the choices as enums and the price in force.
``evaluate_arrays`` runs the chain on such inputs, which may hold numpy arrays (a whole grid
in one call), and returns every reported figure keyed as in the output registry
(:mod:`models.outputs`).  ``evaluate`` does it for one scenario and keeps the typed step
results, the price with its source and date, and the value of 0.1 pp better reliability.
"""

from __future__ import annotations

import math
import sys
import threading
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np

from . import checkpoint as ck
from . import pricing as pr
from ._text import counted
from .catalog import Instance, instance_inputs, load_catalog
from .chain import ChainResult, StepTime, run_chain, step_time_rows, step_time_table
from .choices import CHOICE_ENUMS, DurableTier, Strategy
from .errors import ValidationError
from .fields import FIELDS
from .inputs import Inputs
from .outputs import COST_LINES, LOSS_COMPONENTS, NOT_IN_PRACTICE, OUTPUTS, format_value
from .pricing import Price, price_in_force
from .scenario import Scenario, effective_params_billion
from .uncertainty import headline_intervals

RATE_STEP = 0.001  # "0.1% of the daily node failure rate" = 0.1 percentage point
MINUTES_PER_DAY = 1440.0

__all__ = [
    "LOSS_COMPONENTS",
    "RATE_STEP",
    "Comparison",
    "Evaluation",
    "compare",
    "evaluate",
    "evaluate_arrays",
    "hot_spare_pool_text",
    "resolve_inputs",
    "value_of_reliability",
]


def _instance(scenario: Scenario, catalog: Mapping[str, Instance]) -> Instance:
    name = scenario["cluster.instance"]
    if name not in catalog:
        raise ValidationError(
            "cluster.instance",
            f"{name[:80]!r} is not in the catalog; allowed: " + ", ".join(catalog),
        )
    return catalog[name]


def resolve_inputs(
    scenario: Scenario,
    catalog: Mapping[str, Instance] | None = None,
    tiers: Mapping[str, ck.Tier] | None = None,
    price: Price | None = None,
    refuse_unrunnable: bool = True,
) -> Inputs:
    """The inputs of the chain for one scenario, resolved once and typed.

    The result is an :class:`~models.inputs.Inputs`: a ``section.key`` mapping whose
    sections are also frozen objects (``inputs.cluster.nodes``), generated from the field
    registry.  Numeric fields keep their ``section.key`` names (an empty optional number,
    which the model derives, is NaN); ``checkpoint.interval_minutes =
    'optimal'`` becomes NaN with ``checkpoint.interval_optimal = True``; choices become enums
    (:mod:`models.choices`); the node type's specs are added as ``instance.*`` (NaN where the
    catalog does not know them) and the tier table as ``tier.<name>.<param>``
    (``data/checkpoint_tiers.csv`` unless ``tiers`` is given).  ``pricing.usd_per_instance_hour``
    holds the price in force under the scenario's pricing model
    (:func:`models.pricing.price_in_force`, or ``price``), ``pricing.price`` the
    :class:`~models.pricing.Price` itself and ``pricing.overrun_usd_per_instance_hour`` the
    price after a Capacity Block (:func:`models.pricing.overrun_price`; NaN when unknown).
    The ``storage.*`` prices come from the dated storage price table
    (:func:`models.pricing.load_storage_prices`); a shared file system that is the durable
    tier but cannot be priced (no size, or a throughput tier the table lacks) is an error.

    Parameters
    ----------
    scenario : Scenario
        The scenario (fields in the units of :mod:`models.fields`).
    catalog : Mapping[str, Instance], optional
        Instance catalog keyed by node type; default the shipped one.
    tiers : Mapping[str, Tier], optional
        Checkpoint tier table keyed by tier name; default ``data/checkpoint_tiers.csv``.
    price : Price, optional
        Price in force [USD/h per instance]; default :func:`models.pricing.price_in_force`.
    refuse_unrunnable : bool
        Refuse a precision the node type cannot run (:func:`models.compute.precision_reason`,
        FP8 without a catalog FP8 rate); the instance ranking passes False and marks the
        type instead.

    Returns
    -------
    Inputs
        Inputs keyed ``section.key``, each in its field's unit, plus ``instance.*``,
        ``tier.<name>.<param>``, ``storage.*`` and ``pricing.price``; the same values as
        frozen section objects (``inputs.checkpoint.interval_optimal``).
    """
    cat = catalog if catalog is not None else load_catalog()
    inst = _instance(scenario, cat)
    if refuse_unrunnable:
        _check_precision(scenario, inst)
    price = price if price is not None else price_in_force(scenario, inst)
    inputs: dict[str, Any] = {}
    for key, f in FIELDS.items():
        if f.kind in ("int", "float"):
            value = scenario[key]
            # an empty optional number (the model derives it) is NaN for every reader
            inputs[key] = np.nan if value is None else value
        elif key in CHOICE_ENUMS:
            inputs[key] = CHOICE_ENUMS[key](scenario[key])
    # a count left to the shape is derived here, so every step sees the same figure
    inputs["workload.params_billion"] = effective_params_billion(scenario)
    inputs["pricing.usd_per_instance_hour"] = float(price.usd_per_instance_hour)
    inputs["pricing.price"] = price
    interval = scenario["checkpoint.interval_minutes"]
    inputs["checkpoint.interval_optimal"] = interval == "optimal"
    if interval == "optimal":
        inputs["checkpoint.interval_minutes"] = np.nan
    try:
        overrun = pr.overrun_price(scenario, inst).usd_per_instance_hour
    except ValidationError:
        overrun = float("nan")  # only the Capacity Block plan needs it, and says so
    inputs["pricing.overrun_usd_per_instance_hour"] = overrun
    inputs.update(instance_inputs(inst))
    _check_domain_spares(inputs)
    tier_table = dict(tiers) if tiers is not None else ck.load_tiers()
    inputs.update(ck.tier_inputs(tier_table))
    inputs.update(_storage_prices(scenario, tier_table["shared_fs"]))
    return Inputs(inputs)


def _check_precision(scenario: Scenario, inst: Instance) -> None:
    """Refuse ``workload.precision`` on a node type that cannot run it (one message,
    :func:`models.compute.precision_reason`), never run at another rate in silence."""
    from .compute import precision_reason

    x = {
        "workload.precision": CHOICE_ENUMS["workload.precision"](scenario["workload.precision"]),
        **instance_inputs(inst),
    }
    reason = precision_reason(x, f"{inst.instance} ({inst.accelerator})")
    if reason:
        raise ValidationError("workload.precision", reason)


def _check_domain_spares(inputs: Mapping[str, Any]) -> None:
    """In-domain spares must leave the job at least one node of every scale-up domain, and a
    parallel group must fit in the job's nodes of one domain (never clamped in silence)."""
    s_d = float(inputs["cluster.spare_nodes_per_domain"])
    group = float(inputs["cluster.placement_group_nodes"])
    if s_d == 0 and group != group:  # no in-domain spares, the group left to derive (NaN)
        return
    from .chain import domain_layout  # local: chain is imported above already

    npd = float(np.asarray(domain_layout(inputs).nodes_per_domain).flat[0])
    if s_d >= npd:
        raise ValidationError(
            "cluster.spare_nodes_per_domain",
            f"{s_d:g} leaves the job no node of a scale-up domain of {npd:g} nodes; allowed: "
            f"an integer in [0, {npd - 1:g}] (cluster.nodes_per_domain = {npd:g})",
        )
    if group == group and group > npd - s_d:
        raise ValidationError(
            "cluster.placement_group_nodes",
            f"{group:g} nodes do not fit in one scale-up domain, where the job has "
            f"{counted(int(npd - s_d), 'node')}; allowed: "
            + (f"an integer in [1, {npd - s_d:g}]" if npd - s_d > 1 else "only 1")
            + f" (cluster.nodes_per_domain = {npd:g}, cluster.spare_nodes_per_domain = "
            f"{s_d:g}), or omit it",
        )


def _storage_prices(scenario: Scenario, fs: ck.Tier) -> dict[str, float]:
    """The storage price inputs; refuses a durable shared file system it cannot price."""
    prices = pr.load_storage_prices()
    tp = fs.throughput_MBps_per_TiB
    out = pr.storage_price_inputs(prices, float("nan") if tp is None else tp)
    if DurableTier(scenario["checkpoint.durable_tier"]) is DurableTier.SHARED_FS:
        tiers = sorted(pr.fsx_tiers(prices))
        if fs.provisioned_TiB is None:
            raise ValidationError(
                "checkpoint tiers, shared_fs provisioned_TiB",
                "is empty, so the shared file system cannot be priced; enter its size in TiB",
            )
        if tp is None or not np.isfinite(out["storage.fsx_usd_per_GB_month"]):
            raise ValidationError(
                "checkpoint tiers, shared_fs throughput_MBps_per_TiB",
                f"{tp!r} has no price in {pr.DEFAULT_STORAGE_PRICES.name}; allowed: "
                + ", ".join(f"{t:g}" for t in tiers)
                + " MB/s/TiB (FSx for Lustre PERSISTENT_2)",
            )
    return out


#: Scenarios evaluated at once when many 1-D scenarios are given: blocks this size keep the
#: chain's intermediate arrays in cache and reuse their memory (3-4x faster on 10^6).
CHUNK_SCENARIOS = 32_768
#: Fewest 1-D scenarios for which the step time is tabulated on distinct inputs first.
MIN_STEP_TABLE_SCENARIOS = 256


def evaluate_arrays(
    inputs: Mapping[str, Any],
    keys: Iterable[str] | None = None,
    *,
    broadcast: bool = False,
    reuse_memory: bool = False,
) -> dict[str, np.ndarray]:
    """Every reported figure of the chain for (arrays of) inputs, keyed as in the registry.

    ``inputs`` as built by :func:`resolve_inputs`; numbers may be arrays that broadcast
    together.  Model: failures → checkpoint plan → step time → goodput → cost
    (:func:`models.chain.run_chain`; formulas in ``docs/references.md``).  When every array
    input is 1-D of one length n > :data:`CHUNK_SCENARIOS` (a list of scenarios, as in a
    sweep) the chain runs block by block into preallocated outputs
    (:func:`_evaluate_blocks`); the figures are the same as in one call.  ``keys`` limits
    the result to those figures (the chain still computes them all; only the requested ones
    are gathered, which for 10^6 scenarios saves most of the memory traffic).

    A figure that holds one value for every scenario may come back as one number (a term
    that is absent, or a goodput of 0 where a value makes the job impossible); with
    ``broadcast=True`` every such numeric figure takes the shape of the array inputs
    broadcast together (a read-only view), for callers that index the figures point by point.
    A chunked evaluation returns a figure with the values of an array input (the checkpoint
    interval passed through; the scale-up domains when each node is a domain of its own) as
    a read-only view of that input.

    With ``reuse_memory=True`` a chunked evaluation writes its figures into the memory of
    the previous such evaluation's figures when the caller has let go of every one of them
    (:func:`_rows`), instead of fresh memory the system must clear first (about a quarter
    of the time of 10^6 scenarios); the price is that this memory stays with the process
    between calls (two evaluations' figures at most).  For a caller that evaluates batch
    after batch and lets go of each one's figures (a sweep worker,
    :func:`models.sweep.evaluate_batch`).

    Parameters
    ----------
    inputs : Mapping[str, Any]
        Flat inputs (:func:`resolve_inputs`); numbers may be arrays that broadcast.
    keys : iterable of str, optional
        Registry keys of the figures to return; default all.
    broadcast : bool
        Give every numeric figure the broadcast shape of the array inputs.
    reuse_memory : bool
        Write a chunked evaluation's figures into the memory of the last such evaluation's
        figures once the caller holds none of them (kept by the process meanwhile).

    Returns
    -------
    dict[str, numpy.ndarray]
        Figures keyed as in :mod:`models.outputs`, each in the unit the registry gives it
        (e.g. ``goodput`` [fraction], ``failures_per_day`` [per day],
        ``lost_usd_per_month`` [USD/month]).
    """
    if broadcast:
        shape = np.broadcast_shapes(
            *(np.shape(v) for v in inputs.values() if isinstance(v, np.ndarray))
        )
        return {
            k: np.broadcast_to(v, shape) if shape and np.ndim(v) == 0 and _numeric(v) else v
            for k, v in evaluate_arrays(inputs, keys, reuse_memory=reuse_memory).items()
        }
    wanted = None if keys is None else set(keys)
    n = _scenario_count(inputs)
    # the step time once per distinct step input (a sweep's node counts ...)
    table = step_time_table(inputs, n) if n >= MIN_STEP_TABLE_SCENARIOS else None
    if n <= CHUNK_SCENARIOS:
        step = None if table is None else step_time_rows(*table)
        return _select(run_chain(inputs, step).metrics(), wanted)
    if not reuse_memory:
        return _evaluate_blocks(inputs, n, table, wanted, None)
    with _KEPT_LOCK:  # the blocks nobody holds any more, taken out of the pool
        free = [b for b, count in _counted(_KEPT) if count == _ALONE]
        for kept in _KEPT:
            kept[:] = [b for b in kept if all(b is not f for f in free)]
    used: list[np.ndarray] = []
    out = _evaluate_blocks(inputs, n, table, wanted, (free, used))
    with _KEPT_LOCK:
        _KEPT.append(used)  # the free blocks not used here are let go
    return out


#: The 2-D blocks of rows of the last two chunked evaluations with ``reuse_memory``: their
#: memory is written again once the caller holds none of their rows.  Two, because a caller
#: that evaluates in a loop (``result = evaluate_batch(...)``) still holds the last batch's
#: figures while the next one is evaluated.
_KEPT: deque[list[np.ndarray]] = deque(maxlen=2)
_KEPT_LOCK = threading.Lock()


def _counted(groups: Iterable[list[np.ndarray]]) -> list[tuple[np.ndarray, int]]:
    """Each block of ``groups`` with its ``sys.getrefcount`` as seen from here."""
    return [(b, sys.getrefcount(b)) for group in groups for b in group]


#: The count :func:`_counted` gives a block that only its list holds, measured rather than
#: assumed (what the interpreter counts on its stack differs between versions): a block
#: any figure still refers to (a row is a view of it) counts more, and is never reused.
_ALONE = _counted([[np.empty(1)]])[0][1]


def _numeric(value: Any) -> bool:
    return (
        isinstance(value, int | float | np.ndarray | np.generic)
        and np.asarray(value).dtype.kind in "biuf"
    )


def _select(metrics: dict[str, Any], wanted: set[str] | None) -> dict[str, Any]:
    """The figures ``wanted`` (all when None), in the chain's order; an unknown name is an
    error rather than a figure silently missing."""
    if wanted is None:
        return metrics
    unknown = wanted.difference(metrics)
    if unknown:
        raise KeyError("unknown figure(s): " + ", ".join(sorted(unknown)))
    return {k: v for k, v in metrics.items() if k in wanted}


def _evaluate_blocks(
    inputs: Mapping[str, Any],
    n: int,
    table: tuple[StepTime, np.ndarray] | None,
    wanted: set[str] | None,
    pool: tuple[list[np.ndarray], list[np.ndarray]] | None,
) -> dict[str, Any]:
    """:func:`evaluate_arrays` of n > :data:`CHUNK_SCENARIOS` 1-D scenarios, block by block.

    Each figure ends up as one of: a scalar, or a read-only broadcast of one value, when it
    holds one value for every scenario (it depends on no array input, or the varied inputs
    do not move it, e.g. every scenario fits in memory); else a 1-D array of n.  Most of the
    time of 10^6 scenarios is writing figures, so the arrays are allocated together: the
    figures that vary in the first block are the rows of one 2-D array (one allocation,
    which numpy backs with huge pages, instead of ~80 of 8 MB whose first touch is slow and
    erratic); a figure that first varies in a later block gets the rows of that block's
    allocation.  The arrays returned are therefore views of shared blocks: keeping one
    figure keeps its block alive (pass ``keys`` to keep only some).  With a step-time
    table (:func:`models.chain.step_time_table`) the step figures are gathered from it
    straight into their rows (:class:`_StepRows`).  A figure that is an input passed
    through (the checkpoint interval), or holds the bits of an array input in the first
    block (the scale-up domains are the node counts when each node is a domain of its own),
    is a read-only view of that input; two figures that
    are the same array (the durable interval of a single-level strategy is the interval),
    or that hold the same bits in the first block (all failures are node failures when no
    fabric event aborts the job; the goodput of the domain is the goodput without spares),
    share one row, which is written once; should a later block give them apart, the figure
    gets a row of its own from there, holding what they shared so far.  The figures come
    in the chain's order, as from one call (:func:`_select`).  ``pool``: (blocks free to
    write into, list the blocks used are added to) with ``reuse_memory``, else None.
    """
    out: dict[str, Any] = {}
    settled: set[str] = set()  # figures written once and for all
    uniform: dict[str, Any] = {}
    # figure -> (how, what): ("input", the input it is), ("input bits", the input whose bits
    # it holds), ("figure", the figure whose row it shares: the same array) or ("bits", the
    # figure whose row it shares: the same bits)
    same_as: dict[str, tuple[str, str]] = {}
    steps = None if table is None else _StepRows(table[0], table[1], n, wanted, pool)
    arrays = [k for k, v in inputs.items() if isinstance(v, np.ndarray) and v.ndim == 1]
    order: list[str] = []
    rowed: set[str] = set()  # figures with a row of their own, written block by block
    for start in range(0, n, CHUNK_SCENARIOS):
        stop = min(start + CHUNK_SCENARIOS, n)
        block = dict(inputs)
        for k in arrays:
            block[k] = inputs[k][start:stop]
        step = None if steps is None else steps.block(start, stop)
        # the chain may compute a figure straight into its row (no copy from a temporary)
        rows = _RowSlices(out, rowed, start, stop) if rowed else None
        metrics = _select(run_chain(block, step, rows).metrics(), wanted)
        if not order:
            order = list(metrics)
            if steps is not None:  # written by steps.block: settled here
                out.update(steps.figures)
                settled.update(steps.figures)
            fresh = _first_block(metrics, block, inputs, n, (out, settled, same_as, uniform))
        else:
            fresh = _later_block(metrics, block, start, stop, (out, settled, same_as, uniform))
        dtypes = [metrics[k].dtype for k in fresh]
        for key, row in zip(fresh, _rows(n, dtypes, pool), strict=True):
            out[key] = row
            if key in uniform:
                row[:start] = uniform.pop(key)
            row[start:stop] = metrics[key]
        for key, (kind, name) in same_as.items():
            if kind in ("figure", "bits") and key not in out:
                out[key] = out[name]
        rowed = {k for k in out if k not in settled and k not in same_as}
    for key, value in uniform.items():
        out[key] = np.broadcast_to(value, (n,))
    return {k: out[k] for k in order}


_State = tuple[dict[str, Any], set[str], dict[str, tuple[str, str]], dict[str, Any]]


class _RowSlices(Mapping):
    """Figure -> its output row's scenarios start..stop, for the figures with a row of their
    own (:func:`_evaluate_blocks`), sliced when asked: memory the chain may write a figure
    into (:func:`models.chain.cost_step`'s ``out``), after which copying it there is a
    no-op."""

    def __init__(self, out: dict[str, Any], rowed: set[str], start: int, stop: int) -> None:
        self._out, self._rowed, self._start, self._stop = out, rowed, start, stop

    def __getitem__(self, key: str) -> np.ndarray:
        if key not in self._rowed:
            raise KeyError(key)
        return self._out[key][self._start : self._stop]

    def __iter__(self):
        return iter(self._rowed)

    def __len__(self) -> int:
        return len(self._rowed)


def _first_block(
    metrics: Mapping[str, Any],
    block: Mapping[str, Any],
    inputs: Mapping[str, Any],
    n: int,
    state: _State,
) -> list[str]:
    """The first block of :func:`_evaluate_blocks`: settles what it can (an input passed
    through, a second name for an array or for the bits of a figure given a row, one number
    over the whole block) and returns the figures that need rows of their own."""
    out, settled, same_as, uniform = state
    passed: dict[tuple, str] = {}  # where an array input's elements are -> the input
    inputs_by_bits: dict[tuple, list[str]] = {}  # (dtype, first and last bits) -> inputs
    for k, v in block.items():
        if isinstance(v, np.ndarray) and v.ndim == 1:
            passed.setdefault(_where(v), k)
            if v.size and v.strides != (0,):
                inputs_by_bits.setdefault(_signature(v), []).append(k)
    first_rows: dict[tuple, str] = {}  # where a figure given a row is -> the figure
    by_bits: dict[tuple, list[str]] = {}  # (dtype, first and last bits) -> figures with rows
    fresh = []
    for key, value in metrics.items():
        if key in settled:
            continue
        if isinstance(value, np.ndarray) and value.ndim == 1:
            # the chain passes some inputs through (the interval) and reports some arrays
            # twice (the durable interval of a single level is the interval): they are
            # written once, as long as each block still gives the same array
            where = _where(value)
            name = passed.get(where)
            if name is not None:
                out[key] = inputs[name].view()
                out[key].flags.writeable = False
                same_as[key] = ("input", name)
                continue
            twin = first_rows.get(where)
            if twin is not None:
                same_as[key] = ("figure", twin)
                continue
        if np.ndim(value) == 0 or value.strides == (0,):
            # one number over the whole first block (which is full) without being checked:
            # it depends on no array input, so it is the same in every block; kept as a
            # scalar or a broadcast view, no copy.  (Not in later blocks: the last one may
            # hold a single scenario, whose figures can be broadcasts of its own values.)
            out[key] = value if np.ndim(value) == 0 else np.broadcast_to(value[0], (n,))
            settled.add(key)
            continue
        # an array that holds one value over the block is written out only once a block
        # differs
        first = value[0]
        if _all_equal(value, first):
            uniform[key] = first
            continue
        sig = _signature(value)
        # a figure with an input's bits (the scale-up domains are the nodes when each node is
        # a domain of its own): a read-only view of that input, like one passed through
        name = next((k for k in inputs_by_bits.get(sig, ()) if _same_bits(value, block[k])), None)
        if name is not None:
            out[key] = inputs[name].view()
            out[key].flags.writeable = False
            same_as[key] = ("input bits", name)
            continue
        twin = next((k for k in by_bits.get(sig, ()) if _same_bits(value, metrics[k])), None)
        if twin is not None:
            same_as[key] = ("bits", twin)
            continue
        by_bits.setdefault(sig, []).append(key)
        fresh.append(key)
        first_rows[where] = key
    return fresh


def _later_block(
    metrics: Mapping[str, Any], block: Mapping[str, Any], start: int, stop: int, state: _State
) -> list[str]:
    """A later block of :func:`_evaluate_blocks`: writes each figure's rows, checks that the
    figures written once are still so, and returns the figures that first vary here."""
    out, settled, same_as, uniform = state
    fresh = []
    for key, value in metrics.items():
        if key in settled:
            continue
        row = out.get(key)
        if key in same_as:
            kind, name = same_as[key]
            if kind == "input":
                if _same_array(value, block[name]):
                    continue
            elif kind == "input bits":
                if _same_bits(value, block[name]):
                    continue
            elif (_same_bits if kind == "bits" else _same_array)(value, metrics[name]):
                continue
            # no longer the same: a row of its own, with what it shared so far
            mine = np.empty(len(row), dtype=np.result_type(value))
            mine[:start] = row[:start]
            mine[start:stop] = value
            out[key] = mine
            del same_as[key]
            continue
        if row is not None:
            row[start:stop] = value
            continue
        # an array that has held one value in every block so far is written out only
        # once a block differs
        first = value if np.ndim(value) == 0 else value[0]
        if _all_equal(value, first) and _all_equal(uniform.get(key, first), first):
            uniform[key] = first
            continue
        fresh.append(key)
    return fresh


def _rows(
    n: int,
    dtypes: list[np.dtype],
    pool: tuple[list[np.ndarray], list[np.ndarray]] | None = None,
) -> list[np.ndarray]:
    """Uninitialised arrays of n, one per dtype given, as the rows of one 2-D array per
    dtype (one allocation each).  With ``pool`` (free blocks, used blocks): a free block of
    the same shape and dtype is written again rather than fresh memory allocated, and every
    block given out is added to the used ones."""
    rows: list[np.ndarray] = [np.empty(0)] * len(dtypes)
    for dtype in dict.fromkeys(dtypes):
        where = [i for i, d in enumerate(dtypes) if d == dtype]
        shape = (len(where), n)
        block = None
        if pool is not None:
            free = pool[0]
            i = next((i for i, b in enumerate(free) if b.shape == shape and b.dtype == dtype), -1)
            if i >= 0:
                block = free.pop(i)
        if block is None:
            block = np.empty(shape, dtype=dtype)
        if pool is not None:
            pool[1].append(block)
        for i, row in zip(where, block, strict=True):
            rows[i] = row
    return rows


class _StepRows:
    """The step time of a chunked evaluation, from its table, block by block.

    ``table`` holds the step figures of the distinct step inputs and scenario i's are at row
    ``inverse[i]`` (:func:`models.chain.step_time_table`).  Each figure is classified once,
    on the table rather than block by block: a scalar stays a scalar; a 1-D figure that holds
    one value on every row (NaN equal to NaN) is that value for all n scenarios (a
    read-only broadcast, as :func:`_evaluate_blocks` keeps any figure that never varies);
    a figure with the same bits as an earlier one on every row of the table (the compute
    share of the step is the scaling efficiency when nothing else takes time) is that
    figure again, its row shared; the others are gathered block by block with ``np.take``
    straight into their output rows (:attr:`figures`), and those rows are the block's
    :class:`StepTime` fields (the cost step reads them).
    """

    def __init__(
        self,
        table: StepTime,
        inverse: np.ndarray,
        n: int,
        wanted: set[str] | None,
        pool: tuple[list[np.ndarray], list[np.ndarray]] | None = None,
    ) -> None:
        self.table, self.inverse = table, inverse
        #: figure -> its value for every scenario (scalar) or its row of the output
        self.figures: dict[str, Any] = {}
        self.fixed: dict[str, Any] = {}  # field -> the one value of a uniform 1-D figure
        self.gathered: list[str] = []  # fields gathered block by block
        self.alias: dict[str, str] = {}  # field -> the gathered field with the same bits
        self._fixed_views: dict[tuple[str, int], np.ndarray] = {}
        reported = table.metrics()
        wants = reported.keys() if wanted is None else reported.keys() & wanted
        for f in fields(table):
            value = getattr(table, f.name)
            if not (isinstance(value, np.ndarray) and value.ndim == 1):
                if f.name in wants:
                    self.figures[f.name] = value
                continue
            first = value[inverse[0]]
            if _all_equal(value, first):
                self.fixed[f.name] = first
                if f.name in wants:
                    self.figures[f.name] = np.broadcast_to(first, (n,))
                continue
            twin = next(
                (
                    k
                    for k in self.gathered
                    if k not in self.alias
                    and (k in wants) == (f.name in wants)
                    and _same_bits(value, getattr(table, k))
                ),
                None,
            )
            if twin is not None:
                self.alias[f.name] = twin
            self.gathered.append(f.name)
        into = [k for k in self.gathered if k in wants and k not in self.alias]
        dtypes = [getattr(table, k).dtype for k in into]
        self.figures.update(zip(into, _rows(n, dtypes, pool), strict=True))
        for k, twin in self.alias.items():
            if k in wants:
                self.figures[k] = self.figures[twin]
        self.figures = {k: self.figures[k] for k in reported if k in self.figures}
        # the block's fields, in the table's order: (name, how) with how one of "fixed",
        # "alias", "row", "gather" or "as is"
        self._plan = [
            (
                f.name,
                "fixed"
                if f.name in self.fixed
                else "alias"
                if f.name in self.alias
                else "row"
                if f.name in self.gathered and f.name in self.figures
                else "gather"
                if f.name in self.gathered
                else "as is",
            )
            for f in fields(table)
        ]

    def block(self, start: int, stop: int) -> StepTime:
        """The step time of scenarios start..stop; writes the gathered figures into their
        rows of :attr:`figures`."""
        rows = self.inverse[start:stop]
        values: dict[str, Any] = {}
        for name, how in self._plan:
            value = getattr(self.table, name)
            if how == "fixed":
                view = self._fixed_views.get((name, stop - start))
                if view is None:
                    view = np.broadcast_to(self.fixed[name], rows.shape)
                    self._fixed_views[(name, stop - start)] = view
                value = view
            elif how == "alias":
                value = values[self.alias[name]]
            elif how == "row":
                # the rows are valid indices, so "wrap" never wraps; numpy's fastest gather
                value = np.take(value, rows, out=self.figures[name][start:stop], mode="wrap")
            elif how == "gather":
                value = np.take(value, rows, mode="wrap")
            values[name] = value
        return StepTime(**values)


def _where(value: np.ndarray) -> tuple:
    """Where an array's elements are: two arrays with the same answer hold the same values."""
    return (value.__array_interface__["data"][0], value.shape, value.strides, value.dtype.str)


def _signature(value: np.ndarray) -> tuple:
    """(dtype, bits of the first and of the last element): arrays with the same bits have
    the same signature."""
    return (value.dtype.str, value[:1].tobytes(), value[-1:].tobytes())


def _same_array(a: Any, b: Any) -> bool:
    """Whether a and b are arrays over the same elements (one is the other, or a view of
    it with the same layout)."""
    return (
        isinstance(a, np.ndarray)
        and isinstance(b, np.ndarray)
        and a.ndim == 1
        and b.ndim == 1
        and (a is b or _where(a) == _where(b))
    )


def _same_bits(a: Any, b: Any) -> bool:
    """Whether a and b hold the same bits element by element (the sign of zero and NaN
    payloads included): one figure's values are then another's, to the last bit."""
    a, b = np.asarray(a), np.asarray(b)
    size = a.dtype.itemsize
    if a.dtype != b.dtype or a.shape != b.shape or size not in (1, 2, 4, 8):
        return False
    bits = np.dtype(f"u{size}")
    return bool((a.view(bits) == b.view(bits)).all())


def _all_equal(values: np.ndarray, value: Any) -> bool:
    """Whether every element equals ``value`` (NaN equal to NaN)."""
    if value != value:
        return bool(np.isnan(values).all())
    return bool((values == value).all())


def _scenario_count(inputs: Mapping[str, Any]) -> int:
    """n when every array input is 1-D of length n (else 0: evaluate in one call)."""
    lengths = set()
    for v in inputs.values():
        if isinstance(v, np.ndarray) and v.ndim > 0:
            if v.ndim > 1:
                return 0
            lengths.add(v.shape[0])
    return lengths.pop() if len(lengths) == 1 else 0


#: Goodput below which a scenario is called impractical in words (1% of the paid time).
IMPRACTICAL_GOODPUT = 0.01


def progress_note(scenario: Scenario, metrics: Mapping[str, float]) -> str:
    """Why the job cannot advance (goodput 0) or barely advances (under 1%), in words;
    ``""`` otherwise.

    Goodput is exactly 0 when fabric stalls fill the whole day: events/day × min(reroute,
    timeout) ≥ 1,440 min (:func:`models.network.fabric_stall_minutes_per_day`); it comes
    close to 0 when one loss (failures' recovery and rework at a high rate or a long
    replacement, or rare checkpoints) takes almost all of it.  The note names the inputs
    as ``--set`` keys so the user can see which value to change.

    Parameters
    ----------
    scenario : the scenario evaluated.
    metrics : its figures (:attr:`Evaluation.metrics`).

    Returns
    -------
    str : one sentence, or ``""`` when the job advances at 1% of the paid time or more.
    """
    g = float(metrics.get("goodput", math.nan))
    if math.isfinite(g) and g >= IMPRACTICAL_GOODPUT:
        return ""
    events = float(scenario["network.fabric_events_per_day"])
    stall_s = min(
        float(scenario["network.reroute_seconds"]),
        float(scenario["network.collective_timeout_seconds"]),
    )
    stall_min = events * stall_s / 60.0
    if not (math.isfinite(g) and g > 0.0):
        if stall_min >= MINUTES_PER_DAY:
            return (
                f"the job never advances: fabric reroute stalls take {stall_min:,.0f} min "
                f"of every 1,440-minute day ({events:,.4g} events/day x {stall_s:,.4g} s; "
                "network.fabric_events_per_day, network.reroute_seconds), so it never "
                "finishes and every dollar is lost"
            )
        return "the job never advances: no paid time goes to training, so it never finishes"
    losses = {
        label: float(metrics.get(f"loss_{name}_minutes_per_day", 0.0))
        for name, label in LOSS_COMPONENTS.items()
    }
    label, minutes = max(losses.items(), key=lambda kv: kv[1])
    # its goodput as the goodput tile writes it ("< 0.0001%", not 2.6e-08%): every view
    # shows this sentence as it is
    return (
        f"the job barely advances: {format_value('goodput', g)} of the paid time trains; "
        f"{label.lower()} alone takes {minutes:,.0f} of every 1,440 minutes, so the run "
        f"{NOT_IN_PRACTICE}"
    )


def recompute_note(scenario: Scenario, metrics: Mapping[str, float]) -> str:
    """The recomputation ``workload.recompute = 'auto'`` chose, in words; ``""`` when the
    recomputation is entered or the job does not fit.

    Parameters
    ----------
    scenario : the scenario evaluated.
    metrics : its figures, with ``recompute_level`` [0 none, 1 selective, 2 full],
        ``recomputed_layer_share`` [fraction], ``memory_usable_per_accel_GB`` [GB] and
        ``memory_fits`` [1/0: the step is computed].

    Returns
    -------
    str : one sentence, or ``""``.

    Examples
    --------
    >>> s = Scenario.default().replace({"workload.recompute": "auto"})
    >>> recompute_note(s, {"recompute_level": 2.0, "recomputed_layer_share": 0.5,
    ...     "memory_usable_per_accel_GB": 77.31, "memory_fits": 1.0})
    'recomputation (auto): full on 50% of the layers of each model chunk, the least that fits in 77.3 GB per accelerator'
    """
    if scenario["workload.recompute"] != "auto":
        return ""
    if float(metrics.get("memory_fits", 0.0)) < 0.5:  # no step: nothing was chosen
        return ""
    level = float(metrics.get("recompute_level", math.nan))
    share = float(metrics.get("recomputed_layer_share", math.nan))
    if not math.isfinite(level):
        return ""
    used = format_value("recompute_level", level)  # the registry's word: none ... full
    if share >= 1.0 - 1e-9:
        used += " on every layer"
    elif share > 0.0:
        used += (
            f" on {format_value('recomputed_layer_share', share)} of the layers of each model chunk"
        )
    usable = float(metrics.get("memory_usable_per_accel_GB", math.nan))
    return f"recomputation (auto): {used}, the least that fits in {usable:,.1f} GB per accelerator"


def whole_micro_batches(micro_batches, micro_batch_sequences) -> np.ndarray:
    """Whether each replica's share of the global batch is whole micro-batches of a whole
    number of sequences, as Megatron-Core requires (:func:`batch_note`) [bool].

    Parameters
    ----------
    micro_batches : array_like
        Micro-batches per step on each data-parallel replica [count].
    micro_batch_sequences : array_like
        Sequences per micro-batch [count].

    Returns
    -------
    ndarray of bool
        True where both are whole numbers (to 1e-9); False where either is not or is NaN.

    Examples
    --------
    >>> whole_micro_batches([3.0, 1024 / 340], [1.0, 1.0]).tolist()
    [True, False]
    """
    m, b = np.asarray(micro_batches, float), np.asarray(micro_batch_sequences, float)
    with np.errstate(invalid="ignore"):
        return (np.abs(m - np.round(m)) < 1e-9) & (np.abs(b - np.round(b)) < 1e-9)


def batch_note(scenario: Scenario, metrics: Mapping[str, float]) -> str:
    """Whether the global batch splits into whole micro-batches on every data-parallel
    replica, in words; ``""`` when it does (or no step is computed).

    Megatron-Core needs the global batch to be a multiple of the data-parallel size times
    the micro-batch size (``megatron/core/num_microbatches_calculator.py`` asserts it:
    "global batch size ... is not divisible by micro batch size ... times data parallel
    size"); the step model takes the average sequences per replica, so a split that is not
    whole is modelled but cannot be run as entered.

    Parameters
    ----------
    scenario : the scenario evaluated.
    metrics : its figures, with ``data_parallel_size`` [count],
        ``micro_batches_per_step`` and ``micro_batch_sequences_effective`` [count] and
        ``memory_fits`` [1/0].

    Returns
    -------
    str : one sentence, or ``""``.

    Examples
    --------
    >>> s = Scenario.default()
    >>> batch_note(s, {"data_parallel_size": 340.0, "micro_batches_per_step": 1024 / 340,
    ...     "micro_batch_sequences_effective": 1.0, "memory_fits": 1.0})[:67]
    'the global batch of 1,024 sequences does not split into whole micro'
    """
    m = float(metrics.get("micro_batches_per_step", math.nan))
    b = float(metrics.get("micro_batch_sequences_effective", math.nan))
    d = float(metrics.get("data_parallel_size", math.nan))
    if float(metrics.get("memory_fits", 0.0)) < 0.5 or not all(map(math.isfinite, (m, b, d))):
        return ""
    if bool(whole_micro_batches(m, b)):
        return ""
    seqs = m * b * d
    whole = abs(seqs - round(seqs)) < 1e-6
    batch = f"{seqs:,.0f}" if whole else f"{seqs:,.2f}"
    each = (
        f"{format_value('micro_batches_per_step', m)} micro-batches of "
        f"{format_value('micro_batch_sequences_effective', b)} each"
    )
    return (
        f"the global batch of {batch} sequences does not split into whole micro-batches on "
        f"{d:,.0f} data-parallel replicas ({each}): Megatron-Core needs it to be a "
        "multiple of data-parallel size × micro-batch size, so the step is modelled on the "
        f"average ({_nearest_batches(seqs, d, b)}, or change the micro-batch or the node "
        "count for a layout that runs as entered)"
    )


def _nearest_batches(seqs: float, replicas: float, micro: float) -> str:
    """The whole global batches nearest ``seqs`` that ``replicas`` data-parallel replicas
    split into whole micro-batches of ``micro`` (rounded, at least 1) sequences, in words.

    >>> _nearest_batches(2048.0, 148.0, 1.0)
    'the nearest batches that split are 1,924 and 2,072 sequences, 13 and 14 micro-batches of 1 on each replica'
    >>> _nearest_batches(100.0, 148.0, 1.0)
    'the smallest batch that splits is 148 sequences, 1 micro-batch of 1 on each replica'
    """
    b = max(1.0, float(round(micro)))
    unit = replicas * b  # sequences per step that one micro-batch on every replica takes
    lo, hi = math.floor(seqs / unit), math.ceil(seqs / unit)
    if lo < 1:
        return (
            f"the smallest batch that splits is {unit:,.0f} sequences, 1 micro-batch of "
            f"{b:,.0f} on each replica"
        )
    return (
        f"the nearest batches that split are {lo * unit:,.0f} and {hi * unit:,.0f} sequences, "
        f"{lo:,d} and {hi:,d} micro-batches of {b:,.0f} on each replica"
    )


def layout_note(scenario: Scenario, metrics: Mapping[str, float]) -> str:
    """Which accelerators the parallel layout leaves idle, in words; ``""`` when none.

    The step model runs whole data-parallel replicas of TP × PP × CP, as many as the
    expert-parallel grid divides (:func:`models.compute.whole_data_parallel`); the rest
    are paid and do no work.

    Parameters
    ----------
    scenario : the scenario evaluated.
    metrics : its figures (:attr:`Evaluation.metrics`), with ``idle_accelerators`` and
        ``data_parallel_size`` [count].

    Returns
    -------
    str : one sentence naming the layout and the idle count, or ``""``.

    Examples
    --------
    >>> s = Scenario.default()
    >>> layout_note(s, {"idle_accelerators": 0.0, "data_parallel_size": 250.0})
    ''
    """
    idle = float(metrics.get("idle_accelerators", 0.0))
    if not (math.isfinite(idle) and idle >= 0.5):
        return ""
    t = int(scenario["workload.tensor_parallel"])
    p = int(scenario["workload.pipeline_parallel"])
    cp = int(scenario["workload.context_parallel"])
    ep = int(scenario["workload.expert_parallel"])
    d = float(metrics.get("data_parallel_size", 0.0))
    layout = f"TP {t} × PP {p}" + (f" × CP {cp}" if cp > 1 else "")
    total = d * t * p * cp + idle
    fit = math.floor(total / (t * p * cp) + 1e-9)  # replicas before the expert grid's rule
    why = (
        f", as many of the {fit:,} that fit as expert parallelism {ep} divides"
        if ep > 1 and fit > d
        else ""
    )
    return (
        f"{idle:,.0f} of the {total:,.0f} accelerators are idle but paid: the layout runs "
        f"{d:,.0f} whole data-parallel replicas of {layout}{why} (change the node count, "
        "cluster.nodes, or the parallel sizes to use them)"
    )


@dataclass(frozen=True)
class Evaluation:
    """One scenario evaluated: figures as floats, the typed chain, the price and context.

    Attributes
    ----------
    scenario : the scenario evaluated.
    metrics : every numeric figure as a float, keyed as in :data:`models.outputs.OUTPUTS`.
    instance : the catalog row of the node type.
    price : the price in force, with its source and date.
    chain : the five typed step results (scalars).
    value_of_reliability : goodput and USD/day gained by a 0.1 pp lower node failure rate.
    """

    scenario: Scenario
    metrics: dict[str, float]
    instance: Instance
    price: Price
    chain: ChainResult
    value_of_reliability: dict[str, float] = field(default_factory=dict)

    def __getitem__(self, key: str) -> float:
        return self.metrics[key]

    @property
    def texts(self) -> dict[str, str]:
        """The text figures: pricing model, price source and date, the MFU basis, and why
        the job cannot or barely advances (:func:`progress_note`, ``""`` when it does)."""
        return {
            "pricing_model": self.price.model,
            "price_source": self.price.source,
            "price_as_of": self.price.as_of,
            "mfu_basis": self.chain.step.mfu_basis,
            "progress_note": progress_note(self.scenario, self.metrics),
            "layout_note": layout_note(self.scenario, self.metrics),
            "recompute_note": recompute_note(self.scenario, self.metrics),
            "batch_note": batch_note(self.scenario, self.metrics),
        }

    def badput(self) -> list[dict[str, Any]]:
        """The loss breakdown in the badput buckets people measure (ml-goodput-measurement's
        names, ours where none fits; :mod:`models.badput`): minutes and USD per day."""
        from .badput import (
            BADPUT_BUCKETS,
            BADPUT_LABELS,
            badput_minutes_per_day,
            badput_usd_per_day,
        )

        m = self.metrics
        minutes = badput_minutes_per_day(
            {c: m[f"loss_{c}_minutes_per_day"] for c in LOSS_COMPONENTS}
        )
        usd = badput_usd_per_day(
            {c: m[f"loss_{c}_usd_per_day"] for c in LOSS_COMPONENTS}, m["spare_usd_per_day"]
        )
        return [
            {
                "badput_bucket": b,
                "bucket_label": BADPUT_LABELS[b],
                "minutes_per_day": minutes.get(b, 0.0),
                "usd_per_day": usd[b],
            }
            for b in BADPUT_BUCKETS
        ]

    def loss_breakdown(self) -> list[dict[str, Any]]:
        """Rows of (component, label, kind, minutes/day, USD/day, USD/year of 365.25 days,
        share of wall time).

        ``kind = "time"`` rows are wall-clock losses; they add up to (1 − g)·1440 min/day.
        The ``kind = "cost"`` rows (idle hot spares, checkpoint storage) cost money but no
        wall time (0 minutes).  All USD rows add up to ``lost_usd_per_day``.
        """
        rows = []
        for name, label in LOSS_COMPONENTS.items():
            m = self.metrics[f"loss_{name}_minutes_per_day"]
            rows.append(
                {
                    "component": name,
                    "label": label,
                    "kind": "time",
                    "minutes_per_day": m,
                    "usd_per_day": self.metrics[f"loss_{name}_usd_per_day"],
                    "usd_per_year": self.metrics[f"loss_{name}_usd_per_day"] * pr.DAYS_PER_YEAR,
                    "fraction_of_wall_time": m / MINUTES_PER_DAY,
                }
            )
        usd = {"spares": "spare_usd_per_day", "storage": "storage_usd_per_day"}
        for name, label in COST_LINES.items():
            rows.append(
                {
                    "component": name,
                    "label": label,
                    "kind": "cost",
                    "minutes_per_day": 0.0,
                    "usd_per_day": self.metrics[usd[name]],
                    "usd_per_year": self.metrics[usd[name]] * pr.DAYS_PER_YEAR,
                    "fraction_of_wall_time": 0.0,
                }
            )
        return rows

    def to_json_dict(self) -> dict[str, Any]:
        """One flat JSON-able object (the CLI contract), plus breakdown and scenario."""
        out: dict[str, Any] = {"scenario_name": self.scenario.name}
        out.update({k: _jsonable(v) for k, v in self.metrics.items()})
        out.update({k: _jsonable(v) for k, v in self.value_of_reliability.items()})
        out.update(self.texts)
        out["price_as_of"] = pr.json_date(self.price.as_of)  # null when undated, as elsewhere
        out["loss_breakdown"] = [
            {k: _jsonable(v) for k, v in row.items()} for row in self.loss_breakdown()
        ]
        out["badput"] = [{k: _jsonable(v) for k, v in row.items()} for row in self.badput()]
        out["checkpoint_tiers"] = [
            {k: _jsonable(v) for k, v in row.items()} for row in self.checkpoint_tiers()
        ]
        out["scenario"] = self.scenario.to_dict()
        return out

    def checkpoint_tiers(self) -> list[dict[str, Any]]:
        """Per tier: role in this strategy, synchronous save and restore seconds, and for the
        levels in use the interval, blocking save and waste (fraction of wall time)."""
        m, s = self.metrics, self.scenario
        strategy, durable = Strategy(s["checkpoint.strategy"]), s["checkpoint.durable_tier"]
        fast = {Strategy.MEMORY_DURABLE: "memory", Strategy.NVME_DURABLE: "nvme"}.get(strategy)
        rows = []
        for name in ck.TIER_NAMES:
            role = "unused"
            if name == fast:
                role = "level 1"
            elif name == durable:
                role = "level 2 (durable)" if fast else "level 1 (durable)"
            row: dict[str, Any] = {
                "tier": name,
                "role": role,
                "save_seconds_sync": m[f"tier_{name}_save_seconds"],
                "restore_seconds": m[f"tier_{name}_restore_seconds"],
                "interval_minutes": None,
                "blocking_save_seconds": None,
                "waste_fraction": None,
            }
            if role.startswith("level 1"):
                row["interval_minutes"] = m["checkpoint_interval_minutes"]
                row["blocking_save_seconds"] = m["save_seconds"]
                row["waste_fraction"] = m["level1_waste_fraction"]
            elif role.startswith("level 2"):
                row["interval_minutes"] = m["durable_interval_minutes"]
                row["blocking_save_seconds"] = m["durable_save_seconds"]
                row["waste_fraction"] = m["level2_waste_fraction"]
            rows.append(row)
        return rows


def _jsonable(v: Any) -> Any:
    if isinstance(v, float | np.floating):
        f = float(v)
        return f if math.isfinite(f) else None
    return v


def _scalars(metrics: Mapping[str, Any]) -> dict[str, float]:
    out = {}
    for k, v in metrics.items():
        if isinstance(v, str):
            continue
        out[k] = float(np.asarray(v))
    return out


def evaluate(
    scenario: Scenario,
    catalog: Mapping[str, Instance] | None = None,
    tiers: Mapping[str, ck.Tier] | None = None,
) -> Evaluation:
    """Evaluate one scenario: every figure, the loss breakdown and the value of 0.1 pp
    better reliability.  ``tiers`` replaces the checkpoint tier table.

    Parameters
    ----------
    scenario : Scenario
        The scenario.
    catalog : Mapping[str, Instance], optional
        Instance catalog keyed by node type; default the shipped one.
    tiers : Mapping[str, Tier], optional
        Checkpoint tier table keyed by tier name.

    Returns
    -------
    Evaluation
        The scenario's figures (:func:`evaluate_arrays`), its loss breakdown
        [USD/day] and the value of 0.1 pp better reliability (:func:`value_of_reliability`).
    """
    cat = catalog if catalog is not None else load_catalog()
    inputs = resolve_inputs(scenario, cat, tiers)
    chain = run_chain(inputs)
    arrays = chain.metrics()
    metrics = _scalars(arrays)
    inst = cat[scenario["cluster.instance"]]
    metrics["accelerators"] = float(scenario["cluster.nodes"] * inst.accelerators_per_node)
    # 80% intervals over the failure-rate and step-time uncertainty (models/uncertainty.py)
    metrics.update(headline_intervals(inputs))
    unknown = set(metrics) - set(OUTPUTS)
    if unknown:  # every figure a person or script sees is registered
        raise RuntimeError("unregistered outputs: " + ", ".join(sorted(unknown)))
    return Evaluation(
        scenario=scenario,
        metrics=metrics,
        instance=inst,
        price=inputs["pricing.price"],
        chain=chain,
        value_of_reliability=value_of_reliability(inputs, base=arrays),
    )


def value_of_reliability(
    inputs: Mapping[str, Any],
    step: float = RATE_STEP,
    base: Mapping[str, Any] | None = None,
) -> dict[str, float]:
    """Goodput points and USD/day gained by a 0.1 pp lower node failure rate, here.

    This is the discrete change g(max(r − step, 0)) − g(r), with every other input
    (including an 'optimal' checkpoint interval, re-optimised at each rate) as in the
    scenario.  When the rate is below ``step`` the full decrease is impossible: the figure
    is then the gain of eliminating failures altogether, and
    ``value_of_reliability_is_partial`` is 1.  ``base`` is ``evaluate_arrays(inputs)`` when
    the caller has it already.

    Parameters
    ----------
    inputs : Mapping[str, Any]
        Flat inputs (:func:`resolve_inputs`).
    step : float
        Decrease of the node failure rate [per node-day].
    base : Mapping[str, Any], optional
        ``evaluate_arrays(inputs)``, when already computed.

    Returns
    -------
    dict[str, float]
        ``goodput_gain_per_0p1pp`` [fraction], ``usd_per_day_per_0p1pp`` [USD/day],
        ``usd_per_year_per_0p1pp`` [USD/year, 365.25 days] and
        ``value_of_reliability_is_partial`` [-] (1 when the rate is below ``step``).
    """
    if base is None:
        base = evaluate_arrays(inputs)
    r = float(np.asarray(inputs["reliability.node_failure_rate_per_day"]))
    lower = evaluate_arrays({**inputs, "reliability.node_failure_rate_per_day": max(r - step, 0.0)})
    gain = float(np.asarray(lower["goodput"]) - np.asarray(base["goodput"]))
    usd = gain * float(np.asarray(base["cluster_usd_per_day"]))
    return {
        "goodput_gain_per_0p1pp": gain,
        "usd_per_day_per_0p1pp": usd,
        "usd_per_year_per_0p1pp": usd * pr.DAYS_PER_YEAR,
        "value_of_reliability_is_partial": 1.0 if r < step else 0.0,
    }


@dataclass(frozen=True)
class Comparison:
    baseline: Evaluation
    candidate: Evaluation
    goodput_delta: float
    goodput_delta_first_order: float
    savings_usd_per_day: float
    productive_time_ratio: float = 1.0
    step_time_savings_usd_per_day: float = 0.0
    time_to_train_delta_days: float = math.nan

    @property
    def savings_usd_per_month(self) -> float:
        """Savings per month of 365.25/12 days [USD/month]."""
        return self.savings_usd_per_day * pr.DAYS_PER_MONTH

    @property
    def savings_usd_per_year(self) -> float:
        """Savings per year of 365.25 days [USD/year]."""
        return self.savings_usd_per_day * pr.DAYS_PER_YEAR

    def savings_by_component(self) -> list[dict[str, Any]]:
        """Where the savings per day come from: one row per loss component, then the step
        time and the running cost.

        A component's row is its lower loss, minutes_b − minutes_c [min/day], valued at the
        baseline's cluster cost per minute, cluster_b/1440 [USD/day]; the step-time row is
        :attr:`step_time_savings_usd_per_day` (g_c·(r − 1)·cluster_b, r the ratio of
        productive training times, :func:`productive_time_savings`); the running-cost row
        is total_b − total_c [USD/day] (price, nodes, hot spares, storage).  The rows add
        up to :attr:`savings_usd_per_day` because the loss components add up to 1 − g.

        Returns
        -------
        list of dict
            ``component``, ``label``, ``minutes_per_day_saved`` [min/day],
            ``goodput_points`` [percentage points] and ``usd_per_day`` [USD/day].
        """
        b, c = self.baseline.metrics, self.candidate.metrics
        usd_per_min = b["cluster_usd_per_day"] / MINUTES_PER_DAY
        rows = []
        for name, label in LOSS_COMPONENTS.items():
            key = f"loss_{name}_minutes_per_day"
            saved = b.get(key, 0.0) - c.get(key, 0.0)
            rows.append((name, label, saved, saved * usd_per_min))
        rows.append(
            (
                "step_time",
                "Step time (network, accelerator, parallelism)",
                0.0,
                self.step_time_savings_usd_per_day,
            )
        )
        running = b["total_usd_per_day"] - c["total_usd_per_day"]
        rows.append(("running_cost", "Running cost (price, nodes, spares)", 0.0, running))
        return [
            {
                "component": name,
                "label": label,
                "minutes_per_day_saved": saved,
                "goodput_points": saved / MINUTES_PER_DAY * 100.0,
                "usd_per_day": usd,
            }
            for name, label, saved, usd in rows
        ]

    def differences(self) -> list[tuple[str, Any, Any]]:
        """Every input field whose value differs: (field key, baseline, candidate)."""
        b, c = self.baseline.scenario, self.candidate.scenario
        return [(k, b[k], c[k]) for k in FIELDS if b[k] != c[k]]

    def to_json_dict(self) -> dict[str, Any]:
        return {
            "baseline_name": self.baseline.scenario.name,
            "candidate_name": self.candidate.scenario.name,
            "goodput_baseline": self.baseline["goodput"],
            "goodput_candidate": self.candidate["goodput"],
            "goodput_delta": self.goodput_delta,
            "goodput_delta_first_order": self.goodput_delta_first_order,
            "savings_usd_per_day": self.savings_usd_per_day,
            "savings_usd_per_month": self.savings_usd_per_month,
            "savings_usd_per_year": self.savings_usd_per_year,
            "productive_time_ratio": self.productive_time_ratio,
            "step_time_savings_usd_per_day": self.step_time_savings_usd_per_day,
            "time_to_train_delta_days": _jsonable(self.time_to_train_delta_days),
            # where the savings per day come from: the parts add up to the total (the
            # Compare page's waterfall, goodput compare's "of which" lines)
            "savings_by_component": [
                {k: _jsonable(v) for k, v in row.items()} for row in self.savings_by_component()
            ],
            "differences": [
                {"field": k, "baseline": b, "candidate": c} for k, b, c in self.differences()
            ],
            "baseline": self.baseline.to_json_dict(),
            "candidate": self.candidate.to_json_dict(),
        }


def productive_time_savings(g_base, g_cand, productive_base, productive_cand, cluster_usd):
    """Value per day of the candidate's extra useful work at the baseline's cluster cost.

    (g_c·r − g_b)·cluster with r = productive_base / productive_cand (failure-free training
    times, steps × step seconds; r = 1 where either is not finite).  Returns that and its
    step-time part g_c·(r − 1)·cluster [USD/day].  Arrays broadcast.

    Parameters
    ----------
    g_base, g_cand : array_like
        Goodput of the baseline and the candidate [fraction].
    productive_base, productive_cand : array_like
        Failure-free training times, steps x step time [s].
    cluster_usd : array_like
        Baseline cluster cost [USD/day].

    Returns
    -------
    tuple of numpy.ndarray
        Savings (g_c·r − g_b)·cluster and its step-time part g_c·(r − 1)·cluster [USD/day].

    Examples
    --------
    >>> savings, step_part = productive_time_savings(0.9, 0.9, 100.0, 90.0, 1000.0)
    >>> round(float(savings), 9), round(float(step_part), 9)  # 10% less time to train
    (100.0, 100.0)
    """
    tb = np.asarray(productive_base, float)
    tc = np.asarray(productive_cand, float)
    ok = np.isfinite(tb) & np.isfinite(tc) & (tc > 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.where(ok, tb / np.where(ok, tc, 1.0), 1.0)
    gc = np.asarray(g_cand, float)
    step = gc * (r - 1.0) * cluster_usd
    return (gc - np.asarray(g_base, float)) * cluster_usd + step, step


def savings_usd_per_day(b: Mapping[str, Any], c: Mapping[str, Any]) -> tuple[float, float, float]:
    """Savings per day of the candidate's figures ``c`` over the baseline's ``b``.

    savings = (g_c·r − g_b)·cluster_b + (total_b − total_c) with r the ratio of productive
    training times (:func:`productive_time_savings`): what :func:`compare` reports, for
    callers that hold both evaluations already (a page's table of variants).

    Parameters
    ----------
    b, c : evaluated figures (an :class:`Evaluation` or its metrics) with ``goodput``,
        ``steps_to_train``, ``step_seconds``, ``cluster_usd_per_day`` and
        ``total_usd_per_day``.

    Returns
    -------
    tuple of float
        (savings [USD/day], its step-time part [USD/day], r [1]).
    """
    tb = b["steps_to_train"] * b["step_seconds"]
    tc = c["steps_to_train"] * c["step_seconds"]
    r = tb / tc if math.isfinite(tb) and math.isfinite(tc) and tc > 0 else 1.0
    useful, step_value = productive_time_savings(
        b["goodput"], c["goodput"], tb, tc, b["cluster_usd_per_day"]
    )
    savings = float(useful) + (b["total_usd_per_day"] - c["total_usd_per_day"])
    return savings, float(step_value), r


def compare(
    baseline: Scenario,
    candidate: Scenario,
    catalog: Mapping[str, Instance] | None = None,
    tiers: Mapping[str, ck.Tier] | None = None,
) -> Comparison:
    """Goodput delta and savings per day of ``candidate`` over ``baseline``.

    savings/day = (g_cand · r − g_base) · (baseline cluster cost/day)
                  + (baseline total cost/day − candidate total cost/day)
    with r = (steps · step time)_base / (steps · step time)_cand, the ratio of productive
    training times: the value of the extra useful work per day (more goodput, or faster
    steps from a better network or accelerator) at the baseline's price, plus any
    difference in what the two cost to run (price per hour, node count, hot spares).  With
    equal step times r = 1 and this is the goodput delta alone; when either step time
    cannot be computed r = 1 too (``productive_time_ratio`` says which).

    Parameters
    ----------
    baseline, candidate : Scenario
        The two scenarios.
    catalog : Mapping[str, Instance], optional
        Instance catalog keyed by node type; default the shipped one.
    tiers : Mapping[str, Tier], optional
        Checkpoint tier table keyed by tier name.

    Returns
    -------
    Comparison
        Both evaluations, goodput delta [fraction], savings [USD/day] and
        ``productive_time_ratio`` r [-].
    """
    cat = catalog if catalog is not None else load_catalog()
    return compare_evaluations(evaluate(baseline, cat, tiers), evaluate(candidate, cat, tiers))


def step_reason(ev: Evaluation) -> str:
    """Why an evaluation's step time is not computed, in words; ``""`` when it is
    (:func:`models.compute.infeasibility_reason` on the same flat inputs).

    Parameters
    ----------
    ev : Evaluation
        The evaluated scenario.

    Returns
    -------
    str
        The first blocking cause, or ``""``.
    """
    from .compute import infeasibility_reason

    if math.isfinite(ev.metrics.get("step_seconds", math.nan)):
        return ""
    x = resolve_inputs(ev.scenario, {ev.instance.instance: ev.instance}, price=ev.price)
    return infeasibility_reason(x, ev.texts["mfu_basis"]) or "the step time is unknown"


def step_gaps(c: Comparison) -> str:
    """Which side of a comparison has no step time and why (``""`` when both have one):
    its savings then count goodput and running cost only, with no step-time part
    (``productive_time_ratio`` taken as 1).

    Parameters
    ----------
    c : Comparison
        The comparison.

    Returns
    -------
    str
        "the candidate's step time is not computed: <reason>", one clause per side, or "".
    """
    gaps = [
        f"the {side}'s step time is not computed: {step_reason(ev)}"
        for side, ev in (("baseline", c.baseline), ("candidate", c.candidate))
        if not math.isfinite(ev.metrics.get("step_seconds", math.nan))
    ]
    return "; ".join(gaps)


def compare_evaluations(b: Evaluation, c: Evaluation) -> Comparison:
    """:func:`compare` of two scenarios already evaluated (a search that holds one baseline
    against many candidates evaluates it once).

    Parameters
    ----------
    b, c : Evaluation
        The baseline and the candidate.

    Returns
    -------
    Comparison
        As :func:`compare`.
    """
    dg = c["goodput"] - b["goodput"]
    savings, step_value, r = savings_usd_per_day(b, c)
    return Comparison(
        baseline=b,
        candidate=c,
        goodput_delta=dg,
        goodput_delta_first_order=c["goodput_first_order"] - b["goodput_first_order"],
        savings_usd_per_day=savings,
        productive_time_ratio=r,
        step_time_savings_usd_per_day=step_value,
        time_to_train_delta_days=c["time_to_train_days"] - b["time_to_train_days"],
    )


def hot_spare_pool_text(m) -> str:
    """The hot-spare pool's own figures where domain spares stand before it, as goodput
    evaluate and the Overview write them: "no hot spare free 100.00%, replacement from
    the pool 30.0 min"; "" without in-domain spares or spare domains, where a node failure
    goes to the pool directly (QA 26 #11: the --json's probability_no_spare 1.0 and
    replacement_minutes_expected 30.0 read as every failure's beside the 2.4 min of
    replacement per failure, the domain spares counted).

    Parameters
    ----------
    m : Mapping
        An evaluation's figures (probabilities [fraction], minutes [min]).

    Returns
    -------
    str
        The figures in words, or "".
    """
    blocking = ("probability_no_domain_spare", "probability_no_spare_domain")
    values = [float(m.get(k, 1.0)) for k in blocking]
    if not any(math.isfinite(v) and v < 1.0 for v in values):
        return ""
    fv = format_value
    return (
        f"no hot spare free {fv('probability_no_spare', m['probability_no_spare'])}, "
        "replacement from the pool "
        f"{fv('replacement_minutes_expected', m['replacement_minutes_expected'])}"
    )

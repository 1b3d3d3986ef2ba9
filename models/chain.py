"""The evaluation chain: failures → checkpoint plan → step time → goodput → cost.

Like pvlib's ModelChain, the chain is a fixed sequence of small steps, each a pure function
that returns a frozen result object and reads only the inputs and the results of the steps
before it.  Nothing downstream overwrites a figure an upstream step produced:
:meth:`ChainResult.metrics` refuses a key that two steps both report.

Every step is vectorised: the numeric inputs may be scalars or numpy arrays that broadcast
together (sweeps, heatmaps and the optimizer evaluate thousands of scenarios in one call).
Choices (checkpoint strategy, MFU basis ...) are enums of :mod:`models.choices` and are scalars.

Inputs are the :class:`models.inputs.Inputs` built by :func:`models.evaluate.resolve_inputs`
(or any mapping with its keys): ``section.key`` numbers for every numeric field, the
``instance.*`` specs of the node type, the ``tier.<name>.<param>`` checkpoint tier
parameters, the choices as enums, and ``checkpoint.interval_optimal`` (bool).  A step reads a
section at a time (:func:`section`: ``section(x, "recovery").restart_minutes``).  A mapping
built by hand may leave fields out: they take their registry default (and the default tier
table).

The maths of each step lives in the domain modules (:mod:`models.reliability`,
:mod:`models.checkpoint`, :mod:`models.goodput`, :mod:`models.compute`,
:mod:`models.network`); the steps only compose them.  Formulas and sources:
``docs/references.md``.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, fields
from functools import cache, cached_property, lru_cache, partial
from typing import Any, ClassVar

import numpy as np

from . import checkpoint as ck
from . import compute as cm
from . import goodput as gp
from . import network as net
from . import pricing as pr
from . import recovery as recov
from . import reliability as rel
from ._tools import (
    HOURS_PER_DAY,
    MINUTES_PER_DAY,
    ZERO,
    _single,
    as_float_array,
    fits_into,
    is_zero,
    minus,
    product_into,
    quotient_into,
    sum_into,
    term,
    total,
)
from .choices import (
    CHOICE_ENUMS,
    DurableTier,
    MfuBasis,
    Placement,
    PricingModel,
    SaveMode,
    Strategy,
    Timings,
    Validation,
)
from .fields import FIELDS
from .inputs import section_fields
from .outputs import LOSS_COMPONENTS

SECONDS_PER_DAY = 86_400.0
MAX_INTERVAL_MINUTES = 10_080.0  # an 'optimal' interval with no finite optimum: one week
MIN_INTERVAL_MINUTES = 0.1


# --------------------------------------------------------------------------- inputs
def number(x: Mapping[str, Any], key: str) -> np.ndarray:
    """Numeric input ``key`` as a float array; the field default when absent, NaN for an
    unknown ``instance.*`` spec.

    Parameters
    ----------
    x : Mapping[str, Any]
        The scenario's inputs by field key (:mod:`models.fields`), each in its field's unit;
        numbers may be arrays (one value per scenario).
    key : str
        A numeric field key.

    Returns
    -------
    ndarray
        The value as float, in the field's unit.
    """
    if key in x:
        return as_float_array(x[key])
    if key.startswith("instance."):
        return as_float_array(np.nan)
    return as_float_array(FIELDS[key].default)


def choice(x: Mapping[str, Any], key: str):
    """Choice input ``key`` as its enum (the field default when absent).

    Parameters
    ----------
    x : Mapping[str, Any]
        The scenario's inputs by field key (:mod:`models.fields`), each in its field's unit;
        numbers may be arrays (one value per scenario).
    key : str
        A choice field key.

    Returns
    -------
    enum
        The choice's enum member (:mod:`models.choices`).
    """
    enum = CHOICE_ENUMS[key]
    return enum(x.get(key, FIELDS[key].default))


@cache
def _section_keys(name: str) -> dict[str, tuple[str, bool]]:
    """Field name -> (``section.key``, whether a choice) of registry section ``name``."""
    return {f: (f"{name}.{f}", f"{name}.{f}" in CHOICE_ENUMS) for f in section_fields(name)}


class _Section:
    """One section of the inputs as the steps read it (:func:`section`): ``sec.nodes`` is
    :func:`number` (or :func:`choice`) of ``cluster.nodes``, read when asked (a step pays
    for the fields it reads, not the whole section); read-only, and a name the registry does
    not have in the section is an error naming the key."""

    __slots__ = ("_keys", "_name", "_x")

    def __init__(self, x: Mapping[str, Any], name: str) -> None:
        object.__setattr__(self, "_x", x)
        object.__setattr__(self, "_name", name)
        object.__setattr__(self, "_keys", _section_keys(name))

    def __getattr__(self, field: str) -> Any:
        try:
            key, is_choice = self._keys[field]
        except KeyError:
            raise AttributeError(f"{self._name}.{field} is not an input of the registry") from None
        x = self._x
        if is_choice:
            return choice(x, key)
        return as_float_array(x[key]) if key in x else number(x, key)

    def __setattr__(self, field: str, value: Any) -> None:
        raise AttributeError(f"the inputs are read-only ({self._name}.{field})")


def section(x: Mapping[str, Any], name: str) -> _Section:
    """The inputs of registry section ``name`` as one read-only object, as the steps read
    them: ``section(x, "recovery").restart_minutes`` is ``number(x,
    "recovery.restart_minutes")`` (a float array; the field default where a hand-built
    mapping leaves it out), a choice its enum.

    Parameters
    ----------
    x : Mapping[str, Any]
        The scenario's inputs by field key (:mod:`models.fields`), each in its field's unit;
        numbers may be arrays (one value per scenario); typically the
        :class:`models.inputs.Inputs` of :func:`models.evaluate.resolve_inputs`.
    name : str
        A section of the registry (``cluster``, ``recovery`` ...).

    Returns
    -------
    _Section
        Attribute per field of the section, in the field's unit.
    """
    if not _section_keys(name):
        raise KeyError(f"{name!r} is not a section of the input registry")
    return _Section(x, name)


class _Result:
    """Common behaviour of the step results: their outputs as a flat ``{key: array}``."""

    @classmethod
    def _reported(cls) -> tuple[str, ...]:
        """The names of the fields reported as figures, in order (found once per class)."""
        names = cls.__dict__.get("_reported_names")
        if names is None:
            names = tuple(f.name for f in fields(cls) if f.name not in cls.internal)  # type: ignore[arg-type]
            cls._reported_names = names
        return names

    #: fields that are intermediate quantities for later steps, not reported outputs
    internal: ClassVar[tuple[str, ...]] = ()
    #: fields that may hold one number for every scenario (an absent term: the later steps
    #: then spend no pass on it), reported like the others at the scenarios' shape
    shaped: ClassVar[tuple[str, ...]] = ()

    def _more_figures(self) -> dict[str, Any]:
        """Figures reported besides the fields (a breakdown held in a dict field), which may
        hold one number for every scenario like :attr:`shaped`."""
        return {}

    def metrics(self) -> dict[str, Any]:
        out = {name: getattr(self, name) for name in self._reported()}
        more = self._more_figures()
        if self.shaped or more:
            # each shape once (most figures have the scenarios' shape)
            shape = np.broadcast_shapes(*{_shape(v) for v in out.values()})
            for name in self.shaped:
                out[name] = _shaped(out[name], shape)
            for name, value in more.items():
                out[name] = _shaped(value, shape)
        return out


def _shape(value) -> tuple[int, ...]:
    """np.shape(value), without its call for a numpy value."""
    return value.shape if isinstance(value, np.ndarray | np.generic) else np.shape(value)


# --------------------------------------------------------------------------- 1. failures
@dataclass(frozen=True)
class FailureProcess(_Result):
    """Step 1: how often the job stops and how long a node takes to come back."""

    node_failures_per_day: np.ndarray
    fabric_failures_per_day: np.ndarray
    failures_per_day: np.ndarray
    mtbf_hours: np.ndarray
    probability_no_spare: np.ndarray
    replacement_minutes_expected: np.ndarray
    fabric_events_per_day: np.ndarray
    fabric_stall_minutes_per_day: np.ndarray
    detection_minutes_expected: np.ndarray
    replacement_path_minutes_expected: np.ndarray
    restart_minutes_expected: np.ndarray
    sdc_failures_per_day: np.ndarray
    detection_minutes: np.ndarray
    restart_minutes: np.ndarray
    warmup_minutes: np.ndarray
    in_process_fraction: np.ndarray
    peer_fraction: np.ndarray
    peer_restore_minutes: np.ndarray
    sdc_fraction: np.ndarray
    sdc_detection_minutes: np.ndarray
    straggler_slowdown: np.ndarray
    overhead_fraction: np.ndarray
    spot_interruptions_per_day: np.ndarray
    spot_notice_seconds: np.ndarray
    domain_failures_per_day: np.ndarray
    switch_failures_per_day: np.ndarray
    job_interruptions_per_day: np.ndarray
    nodes_per_domain: np.ndarray
    scaleup_domains: np.ndarray
    probability_no_domain_spare: np.ndarray
    probability_no_spare_domain: np.ndarray
    nodes_idled_per_failure: np.ndarray
    replacement_minutes_per_failure: np.ndarray
    comm_init_minutes: np.ndarray
    restart_attempts_expected: np.ndarray
    fail_slow_events_per_day: np.ndarray
    fail_slow_minutes_per_day: np.ndarray
    #: paid nodes that are not the job's: hot spares, in-domain spares, spare domains' nodes
    spare_nodes_total: np.ndarray
    #: replacement of a node no restart in place mends and no elastic path degrades (silent
    #: data corruption, a Spot reclaim saved in its notice) [min]: a free in-domain spare,
    #: else a spare domain, else the hot-spare pool or ``recovery.replacement_minutes``
    node_replacement_minutes: np.ndarray

    internal = (
        "spot_notice_seconds",
        "spare_nodes_total",
        "node_replacement_minutes",
        "detection_minutes",
        "restart_minutes",
        "warmup_minutes",
        "in_process_fraction",
        "peer_fraction",
        "peer_restore_minutes",
        "sdc_fraction",
        "sdc_detection_minutes",
        "straggler_slowdown",
        "overhead_fraction",
    )
    shaped = (
        "fabric_failures_per_day",
        "probability_no_spare",
        "replacement_minutes_expected",
        "fabric_events_per_day",
        "fabric_stall_minutes_per_day",
        "detection_minutes_expected",
        "replacement_path_minutes_expected",
        "restart_minutes_expected",
        "sdc_failures_per_day",
        "spot_interruptions_per_day",
        "domain_failures_per_day",
        "switch_failures_per_day",
        "job_interruptions_per_day",
        "nodes_per_domain",
        "scaleup_domains",
        "probability_no_domain_spare",
        "probability_no_spare_domain",
        "nodes_idled_per_failure",
        "replacement_minutes_per_failure",
        "comm_init_minutes",
        "restart_attempts_expected",
        "fail_slow_events_per_day",
        "fail_slow_minutes_per_day",
    )

    @cached_property  # read by the checkpoint plan and the goodput step: computed once
    def recovery_before_restore_minutes(self) -> np.ndarray:
        """Detection + replacement + restart + warm-up [min]: what a failure (silent data
        corruption aside) pays besides its restore; in-process restarts skip replacement."""
        return (
            self.detection_minutes_expected
            + self.replacement_minutes_per_failure
            + self.restart_minutes_expected
            + self.warmup_minutes
        )

    @property
    def sdc_recovery_minutes(self) -> np.ndarray:
        """What a silent data corruption pays once found, its restore aside: replacement of
        the faulty node (no elastic, no in-process restart; an in-domain spare or a spare
        domain where one is free), restart and warm-up [min]."""
        return self.node_replacement_minutes + self.restart_minutes + self.warmup_minutes


def _replacement_stage(x: Mapping[str, Any], rc, rs, p_none):
    """(t, t_path, t_swap) [min]: the expected replacement, the hot-spare swap when one is
    free, else the replacement, t = p·t_replace + (1 − p)·t_swap
    (:func:`models.reliability.expected_replacement_minutes`); the replacement path with a
    share of spare-less failures run through degraded
    (:func:`models.recovery.replacement_path_minutes`); and the swap time itself.
    ``rc``, ``rs``: the recovery and resilience sections (:func:`section`)."""
    t_replace = rc.replacement_minutes
    t_swap = rc.hot_spare_swap_minutes
    repl = as_float_array(rel.expected_replacement_minutes(p_none, t_replace, t_swap))
    elastic = rs.elastic_fraction
    t_elastic = ZERO
    if not is_zero(elastic):
        t_elastic = as_float_array(
            recov.elastic_replacement_minutes(
                t_replace, rs.elastic_reconfigure_minutes, _replica_share(x)
            )
        )
    repl_path = as_float_array(
        recov.replacement_path_minutes(p_none, t_replace, t_swap, elastic, t_elastic)
    )
    return repl, repl_path, t_swap


def _detection_minutes(rc):
    """E[D] = (1 − h)·d_crash + h·d_hang [min] (:func:`models.recovery.expected_detection_minutes`)
    of the recovery section ``rc``."""
    return as_float_array(
        recov.expected_detection_minutes(
            rc.detection_minutes, rc.hang_detection_minutes, rc.hang_fraction
        )
    )


def failure_process(
    x: Mapping[str, Any], out: Mapping[str, np.ndarray] | None = None
) -> FailureProcess:
    """Failures per day λ = N·r + fabric aborts, MTBF, the hot-spare pool and fabric stalls.

    λ_node = N·r (superposed independent Poisson processes); fabric events whose reroute
    outlasts the collective timeout abort the job (:func:`models.network.fabric_failures_per_day`),
    shorter ones stall it (:func:`models.network.fabric_stall_minutes_per_day`); the expected
    replacement time mixes the hot-spare swap and the replacement path with the probability
    that no spare is free (M/G/∞ repair pool, :func:`models.reliability.probability_no_spare`).

    Under ``pricing.model = 'spot'`` reclaimed instances are a second failure process,
    λ_spot = N·r_spot (``pricing.spot_interruptions_per_node_day``), each announced
    ``pricing.spot_notice_seconds`` ahead; whether a checkpoint fits in the notice is decided
    by the checkpoint plan (step 2).  Reclaimed nodes draw on the hot-spare pool like failed
    ones.  Other models have no Spot process (λ_spot = 0).

    Parameters
    ----------
    x : Mapping[str, Any]
        The scenario's inputs by field key (:mod:`models.fields`), each in its field's unit;
        numbers may be arrays (one value per scenario).
    out : Mapping[str, ndarray] or None
        Memory to write figures into, by output key (as :func:`cost_step`'s).

    Returns
    -------
    FailureProcess
        Step 1: failure rates [per day], MTBF [h], spare-pool probabilities [probability] and
        recovery stages [min].
    """
    cl, rl, nw, rc, rs, pc = (
        section(x, name)
        for name in ("cluster", "reliability", "network", "recovery", "resilience", "pricing")
    )
    nodes = cl.nodes
    rate, into = rl.node_failure_rate_per_day, _dest(out, "node_failures_per_day")
    node = as_float_array(rel.cluster_failures_per_day(nodes, rate, out=into))
    events, reroute, timeout = (
        nw.fabric_events_per_day,
        nw.reroute_seconds,
        nw.collective_timeout_seconds,
    )
    fabric = as_float_array(net.fabric_failures_per_day(events, reroute, timeout))
    lam = total(node, fabric)
    spot = nodes * pc.spot_interruptions_per_node_day if pc.model is PricingModel.SPOT else ZERO
    z = rl.sdc_fraction
    p_ip = rs.in_process_fraction
    spares = cl.spare_nodes
    if is_zero(spares):  # no spare to find: P = 1 whatever λ, one number
        p_none = as_float_array(1.0)
    else:
        p_none = _probability_no_spare(x, rl, (node, lam, spot, z, p_ip), spares)
    repl, repl_path, t_swap = _replacement_stage(x, rc, rs, p_none)
    restart, comm, attempts = _restart_minutes(x, rc)
    detect = _detection_minutes(rc)
    dom = _domain_classes(x, node, fabric, lam, p_ip, (t_swap, repl_path, repl), spot)
    lam_all = dom["failures_per_day"]
    p_ip_all = _in_process_share(p_ip, dom)
    restart_path = (1.0 - p_ip_all) * restart + p_ip_all * rs.in_process_restart_minutes
    return FailureProcess(
        node_failures_per_day=node,
        fabric_failures_per_day=fabric,
        mtbf_hours=as_float_array(rel.mtbf_hours(lam_all, out=_dest(out, "mtbf_hours"))),
        probability_no_spare=p_none,
        replacement_minutes_expected=repl,
        fabric_events_per_day=events,
        fabric_stall_minutes_per_day=as_float_array(
            net.fabric_stall_minutes_per_day(events, reroute, timeout)
        ),
        detection_minutes_expected=detect,
        replacement_path_minutes_expected=repl_path,
        restart_minutes_expected=restart_path,
        sdc_failures_per_day=term(lam_all, z),
        detection_minutes=detect,
        restart_minutes=restart,
        warmup_minutes=rc.warmup_minutes,
        in_process_fraction=p_ip,
        peer_fraction=rs.peer_recovery_fraction,
        peer_restore_minutes=rs.peer_restore_minutes,
        sdc_fraction=z,
        sdc_detection_minutes=rs.sdc_detection_minutes,
        straggler_slowdown=rs.straggler_slowdown,
        overhead_fraction=rs.overhead_fraction,
        spot_interruptions_per_day=spot,
        spot_notice_seconds=pc.spot_notice_seconds,
        comm_init_minutes=comm,
        restart_attempts_expected=attempts,
        **dom,
    )


def _in_process_share(p_ip, dom: Mapping[str, Any]):
    """Share of all failures recovered in process [fraction]: p_ip of those that a restart
    in place can mend, every class but domain and switch events, which wait for hardware
    to be repaired or swapped (p_ip·(1 − (λ_D + λ_W)/λ)); p_ip where those are absent."""
    lam_hw = total(dom["domain_failures_per_day"], dom["switch_failures_per_day"])
    if is_zero(p_ip) or is_zero(lam_hw):
        return p_ip
    return term(p_ip, 1.0 - _Shares(dom["failures_per_day"]).of(lam_hw, 0.0))


def _restart_minutes(x: Mapping[str, Any], rc) -> tuple[Any, Any, Any]:
    """(restart [min], communicator set-up [min], expected attempts) of a relaunch:
    ``recovery.restart_minutes`` plus communicator set-up that grows with the job's
    accelerators, with failed attempts retried (:func:`models.recovery.restart_with_retries_minutes`).
    With no set-up per GPU and every attempt succeeding it is ``recovery.restart_minutes``.
    ``rc``: the recovery section (:func:`section`)."""
    restart = rc.restart_minutes
    c = rc.comm_init_seconds_per_gpu
    q = rc.retry_success_fraction
    if is_zero(c) and is_zero(minus(q, 1.0)):
        return restart, ZERO, as_float_array(1.0)
    gpus = number(x, "cluster.nodes") * number(x, "instance.accelerators_per_node")
    out = recov.restart_with_retries_minutes(restart, c, gpus, q, rc.failed_attempt_minutes)
    return as_float_array(out), term(c, gpus, 1.0 / 60.0), 1.0 / q


@dataclass(frozen=True)
class DomainLayout:
    """How the job sits on scale-up domains (racks, UltraServers) and switches."""

    nodes_per_domain: np.ndarray  # npd, nodes in a domain (job's and in-domain spares)
    job_nodes_per_domain: np.ndarray  # n_d = npd − in-domain spares (NaN if none is left)
    spare_nodes_per_domain: np.ndarray
    domains: np.ndarray  # D = ⌈N / n_d⌉
    nodes_per_switch: np.ndarray
    group_nodes: np.ndarray  # nodes of one parallel group, at most n_d
    spare_domains: np.ndarray
    spare_nodes_total: np.ndarray  # hot spares + D·s_d + S_D·npd

    @cached_property  # only switch failures need it: computed when they are present
    def switches(self) -> np.ndarray:
        """W = ⌈D·npd / nodes per switch⌉ [count]."""
        return np.ceil(self.domains * self.nodes_per_domain / self.nodes_per_switch - 1e-9)


def domain_layout(x: Mapping[str, Any]) -> DomainLayout:
    """The job laid onto scale-up domains (docs/failure-domains.md#placement).

    npd = ``cluster.nodes_per_domain``, derived from the catalog as ⌊scale-up domain
    accelerators / accelerators per node⌋ (at least 1) when omitted; the job runs on
    n_d = npd − ``cluster.spare_nodes_per_domain`` nodes of each domain, so it occupies
    D = ⌈N / n_d⌉ domains and W = ⌈D·npd / ``cluster.nodes_per_switch``⌉ switches (one per
    domain when omitted).  A tensor/expert-parallel group (``cluster.placement_group_nodes``,
    the job's n_d nodes of a domain when omitted) stays inside one domain.  The paid nodes
    beside the job are the hot spares, the D·s_d in-domain spares and the S_D·npd nodes of
    the spare domains.

    Parameters
    ----------
    x : Mapping[str, Any]
        The scenario's inputs by field key (:mod:`models.fields`), each in its field's unit;
        numbers may be arrays (one value per scenario).

    Returns
    -------
    DomainLayout
        Nodes per domain, domains and switches [count] of the job.
    """
    values = tuple(number(x, key) for key in _LAYOUT_KEYS)
    if all(v.ndim == 0 for v in values):  # one layout for every scenario: computed once
        # NaN (a field left to derive) as None: NaN keys never equal each other
        return _scalar_layout(tuple(None if v != v else float(v) for v in values))
    return _layout(*values)


_LAYOUT_KEYS = (
    "cluster.nodes",
    "instance.accelerators_per_node",
    "instance.scaleup_domain_accels",
    "cluster.nodes_per_domain",
    "cluster.spare_nodes_per_domain",
    "cluster.nodes_per_switch",
    "cluster.placement_group_nodes",
    "cluster.spare_domains",
    "cluster.spare_nodes",
)


@lru_cache(maxsize=256)
def _scalar_layout(values: tuple[float | None, ...]) -> DomainLayout:
    """:func:`_layout` of one set of scalar inputs, kept (its arrays read-only)."""
    layout = _layout(*(as_float_array(np.nan if v is None else v) for v in values))
    for f in fields(layout):
        value = getattr(layout, f.name)
        if isinstance(value, np.ndarray):
            value.flags.writeable = False
    return layout


def catalog_nodes_per_domain(scaleup_domain_accels, accelerators_per_node) -> np.ndarray:
    """Nodes in one scale-up domain as the catalog gives it: ⌊scale-up domain accelerators /
    accelerators per node⌋, at least 1 (``cluster.nodes_per_domain`` when omitted).

    Parameters
    ----------
    scaleup_domain_accels : array_like
        Accelerators in one NVLink/NeuronLink domain [count].
    accelerators_per_node : array_like
        Accelerators per node [count].

    Returns
    -------
    ndarray
        Nodes per domain [count]; 1 where either is unknown or not positive.

    Examples
    --------
    >>> float(catalog_nodes_per_domain(72, 4)), float(catalog_nodes_per_domain(8, 8))
    (18.0, 1.0)
    """
    accels, k = as_float_array(scaleup_domain_accels), as_float_array(accelerators_per_node)
    with np.errstate(invalid="ignore", divide="ignore"):
        derived = np.where(k > 0, np.floor(accels / np.where(k > 0, k, 1.0) + 1e-9), 1.0)
    return np.where(np.isfinite(derived), np.maximum(derived, 1.0), 1.0)


def _layout(nodes, k, accels, npd, s_d, nps, group, spare_domains, spares) -> DomainLayout:
    """:func:`domain_layout` from its inputs (arrays that broadcast)."""
    npd = np.where(np.isnan(npd), catalog_nodes_per_domain(accels, k), npd)
    n_d = np.where(npd - s_d >= 1.0, npd - s_d, np.nan)
    # a group larger than the job's nodes of a domain cannot be placed: no layout, so no
    # figure, as for spares that leave no node (a lone scenario is refused with its range,
    # models.evaluate._check_domain_spares)
    n_d = np.where(np.isnan(group) | (group <= n_d), n_d, np.nan)
    domains = as_float_array(rel.scaleup_domains(nodes, n_d))
    nps = np.where(np.isnan(nps), npd, nps)
    group = np.where(np.isnan(group), n_d, group)
    spare_total = total(spares, term(domains, s_d), term(spare_domains, npd))
    spare_total = np.where(np.isnan(n_d), np.nan, spare_total)  # no layout, no figure
    return DomainLayout(
        npd, n_d, s_d, domains, nps, group, spare_domains, as_float_array(spare_total)
    )


#: the inputs that switch the failure-domain classes on (all 0: the chain as before them)
DOMAIN_KEYS = (
    "reliability.domain_failure_rate_per_day",
    "reliability.switch_failure_rate_per_day",
    "reliability.job_interruptions_per_day",
    "cluster.spare_nodes_per_domain",
    "cluster.spare_domains",
    "reliability.fail_slow_rate_per_day",
)


def _replacement_equivalent(weights, minutes, p_ip, repl_path):
    """Replacement per failure [min]: the failure-weighted mean Σ w_c·R_c of the classes'
    times, which repairs running side by side cost in Daly's model
    (:func:`models.reliability.overlapping_repairs_minutes`), over the classes present;
    (1 − p_ip)·replacement path [min] when none is."""
    keep = [i for i, wi in enumerate(weights) if not is_zero(wi)]
    if not keep:
        return term(1.0 - p_ip, repl_path)
    return as_float_array(
        rel.overlapping_repairs_minutes([weights[i] for i in keep], [minutes[i] for i in keep])
    )


def _domain_events_per_day(lay: DomainLayout, rate):
    """λ_D = D·r_D [per day] over the domains of more than one node; 0 where a domain is
    one node (an 8-GPU HGX server): what takes its NVLink domain out is a node failure,
    already in the node rate, so a rack rate entered for NVL72 does not follow the job onto
    such a type (``goodput instances`` ranks every type with the scenario's rates)."""
    if is_zero(rate):
        return ZERO
    multi = lay.nodes_per_domain > 1.0
    if multi.ndim == 0 or bool(multi.all()):
        return term(lay.domains, rate) if bool(np.all(multi)) else ZERO
    return np.where(multi, lay.domains * rate, 0.0)


def _fail_slow(x: Mapping[str, Any]):
    """(λ_fs [per day], slow [min/day]): fail-slow nodes λ_fs = N·r_fs, and the minutes
    lost per day while they run slow, λ_fs · slowdown · detection time."""
    rl = section(x, "reliability")
    lam_fs = term(number(x, "cluster.nodes"), rl.fail_slow_rate_per_day)
    slow_minutes = term(
        lam_fs,
        rl.fail_slow_slowdown,
        rl.fail_slow_detection_minutes,
    )
    return lam_fs, slow_minutes


def _domain_classes(x, node, fabric, lam, p_ip, stages, spot=ZERO) -> dict[str, Any]:
    """The failure classes beyond nodes and fabric, and what a failure's replacement costs,
    as the :class:`FailureProcess` fields they fill (``failures_per_day`` of every class,
    the domain, switch, job-level and fail-slow rates, the layout, the spare-pool
    probabilities, the nodes idled and the replacement per failure).

    Classes (each a Poisson process that stops the job; docs/failure-domains.md):
    node (λ_n = N·r), fabric aborts, domain events λ_D = D·r_D (the whole domain out until
    repaired), switch events λ_W = W·r_W (the job waits ``reliability.switch_repair_hours``)
    and job-level interruptions λ_J (``reliability.job_interruptions_per_day``, no node to
    replace).  A node failure takes one of its domain's in-domain spares when one is free
    (Erlang loss B_in = B(s_d, (λ_n/D)·S), :func:`models.reliability.erlang_b`), else its
    parallel group moves to a free spare domain (B_D = B(S_D, λ_n·B_in·S + λ_D·S_D,rep)), else
    it takes the node path of before (hot spares, then ``recovery.replacement_minutes``); a
    domain event takes a free spare domain or waits for the domain's repair.  A swap takes
    ``recovery.hot_spare_swap_minutes``.  The replacement per failure is the failure-weighted
    mean of the classes' times (:func:`models.reliability.overlapping_repairs_minutes`: a
    failure during a recovery starts its own repair beside any still under way and the job
    waits for all of them, so a recovery is the busy period of repairs side by side).  With
    every class and spare of this kind absent, it is (1 − p_ip)·replacement path, as before
    them.  ``stages`` = (hot-spare swap, replacement path, expected replacement) [min]
    (:func:`_replacement_stage`).  A node that is replaced whole (silent data corruption, a
    saved Spot reclaim) takes the same spares: an in-domain one, else a spare domain, else
    the expected replacement (``node_replacement_minutes``); reclaimed Spot nodes
    (``spot`` [per day]) draw on the in-domain spares and spare domains as failed nodes do.
    """
    t_swap, repl_path, repl_node = stages
    rl = section(x, "reliability")
    lay = domain_layout(x)
    active = not all(is_zero(number(x, k)) for k in DOMAIN_KEYS)
    if node is lam:  # no other failure class: every failure is a node's
        node_share = as_float_array(1.0)
    else:
        node_share = _Shares(lam).of(node, 1.0) if not is_zero(node) else ZERO
    if not active:
        return _domain_fields(
            (lam, ZERO, ZERO, ZERO),
            lay,
            (as_float_array(1.0), as_float_array(1.0)),
            as_float_array(term(node_share, lay.group_nodes)),
            (term(1.0 - p_ip, repl_path), repl_node),
        )
    # fail-slow nodes: the job runs slower until one is found, then it is evicted like a
    # failed node (it joins the node failures from here on)
    lam_fs, slow_minutes = _fail_slow(x)
    node = total(node, lam_fs)
    lam = total(lam, lam_fs)
    lam_d = _domain_events_per_day(lay, rl.domain_failure_rate_per_day)
    lam_w = term(lay.switches, rl.switch_failure_rate_per_day)
    lam_j = rl.job_interruptions_per_day
    lam_all = total(lam, lam_d, lam_w, lam_j)
    repair_days = rl.repair_hours / HOURS_PER_DAY
    dom_repair = rl.domain_repair_hours * 60.0
    taking = total(node, spot)  # nodes that need a spare [per day]
    with np.errstate(invalid="ignore", divide="ignore"):
        per_domain = taking / lay.domains
    b_in = as_float_array(rel.erlang_b(lay.spare_nodes_per_domain, per_domain * repair_days))
    overflow = taking * b_in
    b_dom = as_float_array(
        rel.erlang_b(
            lay.spare_domains, overflow * repair_days + lam_d * dom_repair / MINUTES_PER_DAY
        )
    )

    # node failures: in-domain spare, else a spare domain, else the node path of before
    def spared(then):
        return (1.0 - b_in) * t_swap + b_in * ((1.0 - b_dom) * t_swap + b_dom * then)

    node_repl = (1.0 - p_ip) * spared(repl_path)
    shares = _Shares(lam_all)
    w = [shares.of(c, 0.0) for c in (node, fabric, lam_d, lam_d, lam_w)]
    w_j = shares.of(lam_j, 0.0)
    weights = [w[0], w[1], term(w[2], 1.0 - b_dom), term(w[3], b_dom), w[4], w_j]
    minutes = [
        node_repl,
        term(1.0 - p_ip, repl_path),
        t_swap,
        dom_repair,
        rl.switch_repair_hours * 60.0,
        ZERO,
    ]
    repl = _replacement_equivalent(weights, minutes, p_ip, repl_path)
    # the job's nodes a failure takes out: a domain event the job's n_d nodes of its
    # domain, a switch event the job's share n_d/npd of the nodes behind it (the in-domain
    # spares of the domain or switch are not the job's)
    idled = total(
        term(w[0], (1.0 - b_in) + b_in * lay.group_nodes),
        term(w[2], lay.job_nodes_per_domain),
        term(w[4], lay.nodes_per_switch * lay.job_nodes_per_domain / lay.nodes_per_domain),
    )
    return _domain_fields(
        (lam_all, lam_d, lam_w, lam_j),
        lay,
        (b_in, b_dom),
        as_float_array(idled),
        (repl, as_float_array(spared(repl_node))),
        (lam_fs, slow_minutes),
    )


def _domain_fields(rates, lay: DomainLayout, blocking, idled, repl, slow=(ZERO, ZERO)):
    """The :class:`FailureProcess` fields of :func:`_domain_classes`: ``rates`` = (every
    class, domain, switch, job-level) [per day], ``blocking`` = (no in-domain spare, no
    spare domain) [probability], nodes idled per failure, ``repl`` = (replacement per
    failure, replacement of a node replaced whole) [min] and ``slow`` = (fail-slow events
    [per day], their minutes [min/day])."""
    lam_all, lam_d, lam_w, lam_j = rates
    repl, repl_node = repl
    return {
        "failures_per_day": lam_all,
        "domain_failures_per_day": lam_d,
        "switch_failures_per_day": lam_w,
        "job_interruptions_per_day": lam_j,
        "nodes_per_domain": lay.nodes_per_domain,
        "scaleup_domains": lay.domains,
        "probability_no_domain_spare": blocking[0],
        "probability_no_spare_domain": blocking[1],
        "nodes_idled_per_failure": idled,
        "replacement_minutes_per_failure": repl,
        "node_replacement_minutes": repl_node,
        "spare_nodes_total": lay.spare_nodes_total,
        "fail_slow_events_per_day": slow[0],
        "fail_slow_minutes_per_day": slow[1],
    }


def _probability_no_spare(x, rl, rates, spares) -> np.ndarray:
    """The hot-spare pool of these failures (:func:`models.reliability.probability_short_of_spares`):
    every failure but those recovered in process sends its nodes to repair, reclaimed Spot
    nodes too, and a share ``checkpoint.correlated_fraction`` of node failures takes out
    ``checkpoint.correlated_nodes`` nodes (at most the cluster).  ``rl``: the reliability
    section; ``rates`` = (node, all, Spot [per day], SDC share, in-process share)."""
    node, lam, spot, z, p_ip = rates
    k = 1.0 - (1.0 - z) * p_ip  # share of failures whose nodes go to repair
    return as_float_array(
        rel.probability_short_of_spares(
            total(term(lam, k), spot),
            term(node, k, number(x, "checkpoint.correlated_fraction")),
            np.minimum(number(x, "checkpoint.correlated_nodes"), number(x, "cluster.nodes")),
            rl.repair_hours,
            spares,
        )
    )


def _replica_share(x: Mapping[str, Any]) -> np.ndarray:
    """Share of the cluster in one data-parallel replica, ⌈TP·PP / k⌉ / N (k accelerators per
    node): what elastic training drops while it waits for a replacement.  One node when the
    node type is unknown."""
    nodes = number(x, "cluster.nodes")
    k = number(x, "instance.accelerators_per_node")
    per_replica = number(x, "workload.tensor_parallel") * number(x, "workload.pipeline_parallel")
    with np.errstate(invalid="ignore", divide="ignore"):
        replica_nodes = np.where(k > 0, np.ceil(per_replica / np.where(k > 0, k, 1.0)), 1.0)
    return np.minimum(np.maximum(replica_nodes, 1.0), nodes) / nodes


# --------------------------------------------------------------------------- 2. checkpoints
@dataclass(frozen=True)
class CheckpointPlan(_Result):
    """Step 2: where checkpoints go, how long they take, how often, and which failures fall
    back to the durable tier.  Level 1 serves most failures; level 2 (two-level strategies
    only) serves the share φ that lose every level-1 copy."""

    checkpoint_interval_minutes: np.ndarray
    optimal_checkpoint_interval_minutes: np.ndarray
    young_interval_minutes: np.ndarray
    daly_first_order_interval_minutes: np.ndarray
    daly_higher_order_interval_minutes: np.ndarray
    durable_interval_minutes: np.ndarray
    optimal_durable_interval_minutes: np.ndarray
    save_seconds: np.ndarray
    restore_seconds: np.ndarray
    durable_save_seconds: np.ndarray
    durable_write_seconds: np.ndarray
    durable_restore_seconds: np.ndarray
    fallback_fraction: np.ndarray
    fallback_failures_per_day: np.ndarray
    checkpoint_size_TB: np.ndarray
    checkpoint_shard_GB_per_node: np.ndarray
    memory_required_GB_per_node: np.ndarray
    tier_memory_save_seconds: np.ndarray
    tier_memory_restore_seconds: np.ndarray
    tier_nvme_save_seconds: np.ndarray
    tier_nvme_restore_seconds: np.ndarray
    tier_shared_fs_save_seconds: np.ndarray
    tier_shared_fs_restore_seconds: np.ndarray
    tier_object_store_save_seconds: np.ndarray
    tier_object_store_restore_seconds: np.ndarray
    spot_notice_save_seconds: np.ndarray
    spot_save_fits_notice: np.ndarray
    # per level, in minutes, for the goodput step
    two_level: bool
    failures_l1_per_day: np.ndarray
    save1_minutes: np.ndarray
    save2_minutes: np.ndarray
    restore1_minutes: np.ndarray
    restore2_minutes: np.ndarray
    stale1_minutes: np.ndarray
    stale2_minutes: np.ndarray
    interval2_minutes: np.ndarray
    corrupt_fraction: np.ndarray
    validation_minutes: np.ndarray
    restart_loop_minutes: np.ndarray
    failures_total_per_day: np.ndarray
    spot_saved_per_day: np.ndarray
    spot_saved_restore_minutes: np.ndarray

    internal = (
        "failures_total_per_day",
        "spot_saved_per_day",
        "spot_saved_restore_minutes",
        "two_level",
        "failures_l1_per_day",
        "save1_minutes",
        "save2_minutes",
        "restore1_minutes",
        "restore2_minutes",
        "stale1_minutes",
        "stale2_minutes",
        "interval2_minutes",
        "corrupt_fraction",
        "validation_minutes",
        "restart_loop_minutes",
    )
    shaped = ("fallback_failures_per_day",)

    # shared by several figures of the goodput step (each computed once, as each wrote it)
    @cached_property
    def half_interval_minutes(self) -> np.ndarray:
        """τ/2 [min]: the mean rework of a level-1 restore, before its staleness."""
        return self.checkpoint_interval_minutes / 2.0

    @cached_property
    def half_interval2_minutes(self) -> np.ndarray:
        """τ₂/2 [min]: the same for the durable level."""
        return self.interval2_minutes / 2.0

    @cached_property
    def rework1_minutes(self) -> np.ndarray:
        """τ/2 + s₁ [min]: the rework of a failure restored from level 1."""
        return self.half_interval_minutes + self.stale1_minutes

    @cached_property
    def rework2_minutes(self) -> np.ndarray:
        """τ₂/2 + s₂ [min]: the rework of a failure that falls back to the durable level."""
        return self.half_interval2_minutes + self.stale2_minutes

    @cached_property
    def save1_share(self) -> np.ndarray:
        """δ₁/τ [fraction]: level-1 save per interval of compute."""
        return self.save1_minutes / self.checkpoint_interval_minutes

    @cached_property
    def save2_share(self) -> np.ndarray:
        """δ₂/τ₂ [fraction]: the same for the durable level."""
        return self.save2_minutes / self.interval2_minutes


@cache
def _tier_keys() -> tuple[str, ...]:
    """Every ``tier.<name>.<param>`` key of the tier table."""
    return tuple(f"tier.{name}.{p}" for name in ck.TIER_NAMES for p in ck.TIER_PARAMS)


def _tier_params(x: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    # (a known tier key first: a lookup, rather than a scan of every input's name)
    has_tiers = any(k in x for k in _tier_keys()) or any(k.startswith("tier.") for k in x)
    default = {} if has_tiers else ck.tier_inputs(ck.load_tiers())
    return {
        name: {
            p: x.get(f"tier.{name}.{p}", default.get(f"tier.{name}.{p}")) for p in ck.TIER_PARAMS
        }
        for name in ck.TIER_NAMES
    }


def spot_level1_survives(strategy: Strategy, replicas) -> np.ndarray:
    """Whether the level-1 checkpoint survives losing the node it was taken on (bool array).

    True for ``durable_only`` (level 1 is the durable tier) and for CPU memory with at least
    two replicas (a peer holds every shard); False for local NVMe and a single in-memory copy.

    Parameters
    ----------
    strategy : Strategy
        The checkpoint strategy.
    replicas : array_like
        In-memory copies of each shard [count].

    Returns
    -------
    ndarray of bool
        Whether level 1 survives the loss of its node.
    """
    strategy = Strategy(strategy)
    if strategy is Strategy.MEMORY_DURABLE:
        return as_float_array(replicas) >= 2
    return as_float_array(strategy is Strategy.DURABLE_ONLY) > 0


def _levels(x: Mapping[str, Any], strategy: Strategy, failures: FailureProcess, out=None):
    """Save, restore, staleness [min] and rates [per day] of the two levels
    (:func:`models.checkpoint.strategy_levels`) from the scenario's inputs; ``out``: memory
    for its figures by output key."""
    c = section(x, "checkpoint")
    return ck.strategy_levels(
        strategy=strategy,
        durable_tier=c.durable_tier,
        timings=c.timings,
        save_mode=c.save_mode,
        placement=c.replica_placement,
        nodes=number(x, "cluster.nodes"),
        node_failure_rate_per_day=number(x, "reliability.node_failure_rate_per_day"),
        failures_per_day=failures.node_failures_per_day,
        params_billion=number(x, "workload.params_billion"),
        bytes_per_param=c.bytes_per_param,
        replicas=c.memory_replicas,
        rereplication_minutes=c.rereplication_minutes,
        node_loss_fraction=c.node_loss_fraction,
        correlated_fraction=c.correlated_fraction,
        correlated_nodes=c.correlated_nodes,
        measured_save_seconds=c.save_seconds,
        measured_restore_minutes=number(x, "recovery.restore_minutes"),
        tiers=_tier_params(x),
        out=out,
    )


def _level_rates(x: Mapping[str, Any], strategy: Strategy, failures: FailureProcess, lv):
    """(λ, λ₁, λ₂, λ_spot [per day], fits, notice save [s], level 1 survives): rates per level.

    λ = failures + Spot reclaims whose checkpoint does not fit the notice; λ₂ = φ·λ_node·
    (1 − p)(1 − z) plus those reclaims whose level-1 copy is gone, plus the domain events
    that leave no reachable level-1 copy (:func:`domain_fallback`); λ₁ = (failures·(1 − p)
    (1 − z) + unsaved reclaims) − λ₂.

    Spot notice rule: a reclaimed instance gives ``pricing.spot_notice_seconds`` of warning.
    The checkpoint that must be complete before it goes is the first one that survives losing
    the node: level 1 when it is CPU memory with at least two replicas (or the durable tier
    itself), else the durable tier (local NVMe and a single in-memory copy go with the node).
    If its full write time fits in the notice the interruption loses no work (step 4 charges
    the save and the recovery only); otherwise the interruption is a failure like any other
    and joins the failure rates that set the intervals.
    """
    c = section(x, "checkpoint")
    two = strategy.two_level
    replicas = c.memory_replicas
    survives_l1 = spot_level1_survives(strategy, replicas)
    notice_save = np.where(survives_l1, lv["write1_minutes"], lv["write2_minutes"]) * 60.0
    fits = as_float_array(notice_save <= failures.spot_notice_seconds)
    spot = failures.spot_interruptions_per_day
    unsaved = term(spot, 1.0 - fits)  # reclaims whose checkpoint does not fit: failures
    lam = total(failures.failures_per_day, unsaved)
    # failures restored from checkpoints: not recovered from peers, not silent corruption
    keep = (1.0 - failures.peer_fraction) * (1.0 - failures.sdc_fraction)
    lam2 = term(lv["failures_l2_per_day"], keep)
    if two and not is_zero(unsaved):
        # a reclaimed node always loses its own copy; peers may have lost theirs too
        q = as_float_array(
            ck.probability_replicas_lost_in_window(
                number(x, "reliability.node_failure_rate_per_day"),
                replicas,
                c.rereplication_minutes,
            )
        )
        lam2 = lam2 + unsaved * np.where(survives_l1, q, 1.0)
    if two and not is_zero(failures.domain_failures_per_day):
        # a domain event takes a block of npd adjacent nodes and the level-1 copies on them
        p_dom = domain_fallback(strategy, replicas, c.replica_placement, failures)
        lam2 = lam2 + failures.domain_failures_per_day * keep * p_dom
    lam1 = minus(total(term(failures.failures_per_day, keep), unsaved), lam2)
    return lam, lam1, lam2, spot, fits, notice_save, survives_l1


def domain_fallback(strategy: Strategy, replicas, placement: Placement, failures) -> np.ndarray:
    """Share of domain events after which the job restores from the durable tier
    (:func:`models.checkpoint.domain_event_fallback` for the scenario's level 1) [fraction].

    Parameters
    ----------
    strategy : Strategy
        ``checkpoint.strategy`` (level 1 in CPU memory or on local NVMe).
    replicas : array_like
        In-memory copies of each shard [count].
    placement : Placement
        ``checkpoint.replica_placement``.
    failures : FailureProcess
        Step 1, with ``nodes_per_domain`` [count].

    Returns
    -------
    ndarray
        The share [fraction].
    """
    return as_float_array(
        ck.domain_event_fallback(
            failures.nodes_per_domain,
            replicas,
            float(strategy is Strategy.MEMORY_DURABLE),
            float(placement is Placement.ADJACENT),
        )
    )


def _intervals(x: Mapping[str, Any], two, lv, rates, c1, c2, out=None):
    """(τ, τ*, τ₂, τ₂*, M₁) [min]: the intervals in use and Daly's exact optima, for the
    failure rates (λ, λ₁, λ₂) [per day]; τ* written into ``out``'s row when it fits.

    τ* = max(exact optimum for M₁ = 1440/λ₁ [min] (:func:`models.goodput.
    exact_optimal_interval_minutes`), the write time when asynchronous); τ = τ* (clipped to
    [MIN, MAX]) where ``checkpoint.interval_minutes`` is 'optimal'; τ₂* = max(optimum for λ₂,
    write₂, τ) for a two-level strategy, else τ*.
    """
    c = section(x, "checkpoint")
    lam, lam1, lam2 = rates
    mtbf1_min = as_float_array(rel.mtbf_hours(lam1)) * 60.0
    min1 = np.where(lv["stale1_minutes"] > 0, lv["write1_minutes"], 0.0)
    exact = as_float_array(gp.exact_optimal_interval_minutes(c1, mtbf1_min))
    dest = _dest(out, "optimal_checkpoint_interval_minutes")
    tau_opt = np.maximum(exact, min1, out=dest if fits_into(dest, exact, min1) else None)
    tau = c.interval_minutes
    if np.any(x.get("checkpoint.interval_optimal", False)):
        tau = np.where(
            np.isnan(tau), np.clip(tau_opt, MIN_INTERVAL_MINUTES, MAX_INTERVAL_MINUTES), tau
        )
    tau = np.broadcast_to(tau, np.broadcast(tau, lam).shape)
    if two:  # the durable level's own optimum (a single level has none: it is level 1)
        mtbf2_min = as_float_array(rel.mtbf_hours(lam2)) * 60.0
        t2_opt = np.maximum(
            as_float_array(gp.exact_optimal_interval_minutes(c2, mtbf2_min)),
            np.maximum(lv["write2_minutes"], tau),
        )
    else:
        t2_opt = tau_opt
    t2 = c.durable_interval_minutes if two else as_float_array(1.0)
    return tau, tau_opt, t2, t2_opt, mtbf1_min


def _approximate_intervals(c1, mtbf1_min, r1, out=None) -> dict[str, np.ndarray]:
    """Young's √(2δM) and Daly's first- and higher-order intervals [min] of the level-1
    save δ and MTBF M [min] (and R [min] for Daly's first order), each written into its
    row of ``out`` when there is one (the same operations: the same values)."""
    dest = partial(_dest, out)
    young = gp.young_interval_minutes(c1, mtbf1_min, out=dest("young_interval_minutes"))
    young = as_float_array(young)  # √(2δM), shared with the higher order
    first = ck.daly_first_order_interval_minutes(
        c1, mtbf1_min, r1, out=dest("daly_first_order_interval_minutes")
    )
    higher = ck.daly_higher_order_interval_minutes(
        c1, mtbf1_min, root=young, out=dest("daly_higher_order_interval_minutes")
    )
    return {
        "young_interval_minutes": young,
        "daly_first_order_interval_minutes": as_float_array(first),
        "daly_higher_order_interval_minutes": as_float_array(higher),
    }


def checkpoint_plan(
    x: Mapping[str, Any], failures: FailureProcess, out: Mapping[str, np.ndarray] | None = None
) -> CheckpointPlan:
    """Save/restore times per level (:func:`models.checkpoint.strategy_levels`), the share of
    failures that fall back to the durable tier, and the intervals.

    The optimal level-1 interval is the exact minimiser of Daly's expected wall time
    (:func:`models.goodput.exact_optimal_interval_minutes`, Lambert W) for the failures level 1
    serves, λ₁ = λ − λ₂; an asynchronous checkpoint cannot start before the previous one is
    written, so the optimum is at least the write time.  ``checkpoint.interval_minutes =
    'optimal'`` uses it (capped at one week when there is no finite optimum).

    Spot reclaims: :func:`_level_rates`.

    Parameters
    ----------
    x : Mapping[str, Any]
        The scenario's inputs by field key (:mod:`models.fields`), each in its field's unit;
        numbers may be arrays (one value per scenario).
    failures : FailureProcess
        Step 1, the failure rates [per day] the intervals are optimised for.
    out : Mapping[str, ndarray] or None
        Memory to write figures into, by output key (as :func:`cost_step`'s).

    Returns
    -------
    CheckpointPlan
        Step 2: intervals, saves, restores and staleness [min], level rates [per day] and
        shares [fraction].
    """
    c = section(x, "checkpoint")
    strategy = c.strategy
    lv = _levels(x, strategy, failures, out)
    two = strategy.two_level
    lam, lam1, lam2, spot, fits, notice_save, survives_l1 = _level_rates(x, strategy, failures, lv)
    c1, c2 = lv["save1_minutes"], lv["save2_minutes"]
    r1 = failures.recovery_before_restore_minutes + lv["restore1_minutes"] + lv["stale1_minutes"]
    tau, tau_opt, t2, t2_opt, mtbf1_min = _intervals(x, two, lv, (lam, lam1, lam2), c1, c2, out)
    validating = c.validation is Validation.FALLBACK
    spot_saved = term(spot, fits)
    tiers = {
        f"tier_{name}_{what}_seconds": lv[f"tier_{name}_{what}_seconds"]
        for name in ck.TIER_NAMES
        for what in ("save", "restore")
    }
    return CheckpointPlan(
        checkpoint_interval_minutes=tau,
        optimal_checkpoint_interval_minutes=tau_opt,
        **_approximate_intervals(c1, mtbf1_min, r1, out),
        durable_interval_minutes=t2 if two else tau,
        optimal_durable_interval_minutes=t2_opt,
        save_seconds=c1 * 60.0,
        restore_seconds=lv["restore1_minutes"] * 60.0,
        durable_save_seconds=(c2 if two else c1) * 60.0,
        durable_write_seconds=(lv["write2_minutes"] if two else lv["write1_minutes"]) * 60.0,
        durable_restore_seconds=(lv["restore2_minutes"] if two else lv["restore1_minutes"]) * 60.0,
        fallback_fraction=lv["fallback_fraction"] if two else as_float_array(0.0),
        fallback_failures_per_day=lam2,
        checkpoint_size_TB=lv["size_TB"],
        checkpoint_shard_GB_per_node=lv["shard_GB"],
        memory_required_GB_per_node=lv["memory_required_GB_per_node"],
        **tiers,
        spot_notice_save_seconds=_filled(notice_save, np.shape(lam)),
        spot_save_fits_notice=_filled(fits, np.shape(lam)),
        two_level=two,
        failures_l1_per_day=lam1,
        save1_minutes=c1,
        save2_minutes=c2,
        restore1_minutes=lv["restore1_minutes"],
        restore2_minutes=lv["restore2_minutes"],
        stale1_minutes=lv["stale1_minutes"],
        stale2_minutes=lv["stale2_minutes"],
        interval2_minutes=t2,
        corrupt_fraction=c.corrupt_fraction,
        validation_minutes=np.where(validating, c.validation_seconds, 0.0) / 60.0,
        restart_loop_minutes=np.where(
            validating,
            0.0,
            number(x, "resilience.restart_loop_count")
            * number(x, "resilience.restart_loop_minutes"),
        ),
        failures_total_per_day=lam,
        spot_saved_per_day=spot_saved,
        spot_saved_restore_minutes=np.where(
            survives_l1 | (not two), lv["restore1_minutes"], lv["restore2_minutes"]
        )
        if not is_zero(spot_saved)
        else ZERO,
    )


# --------------------------------------------------------------------------- 3. step time
@dataclass(frozen=True)
class StepTime(_Result):
    """Step 3: one optimizer step without failures, and whether the job fits in memory."""

    mfu_basis: str
    allreduce_ms: np.ndarray
    allreduce_exposed_ms: np.ndarray
    tp_comm_ms: np.ndarray
    pp_comm_ms: np.ndarray
    compute_seconds_per_step: np.ndarray
    recompute_seconds_per_step: np.ndarray
    bubble_seconds_per_step: np.ndarray
    step_seconds: np.ndarray
    step_seconds_low: np.ndarray
    step_seconds_high: np.ndarray
    scaling_efficiency: np.ndarray
    effective_mfu: np.ndarray
    compute_share_of_step: np.ndarray
    compute_phase_mfu: np.ndarray
    mfu_gap_exceeded: np.ndarray
    exposed_comm_fraction_of_step: np.ndarray
    bubble_fraction_of_step: np.ndarray
    steps_to_train: np.ndarray
    data_parallel_size: np.ndarray
    idle_accelerators: np.ndarray
    micro_batches_per_step: np.ndarray
    micro_batch_sequences_effective: np.ndarray
    model_layers: np.ndarray
    model_parameters_billion: np.ndarray
    model_flops_per_token: np.ndarray
    model_states_GB_per_accel: np.ndarray
    activation_memory_GB_per_accel: np.ndarray
    memory_per_accel_GB: np.ndarray
    memory_usable_per_accel_GB: np.ndarray
    fits_in_memory: np.ndarray
    max_micro_batch_that_fits: np.ndarray
    memory_fits: np.ndarray
    min_nodes_to_fit: np.ndarray
    training_flops: np.ndarray
    recompute_level: np.ndarray
    recomputed_layer_share: np.ndarray

    internal = ("mfu_basis",)  # text: reported by Evaluation.texts


def step_time(x: Mapping[str, Any]) -> StepTime:
    """Seconds per step and memory fit (:func:`models.compute.step_model`): modelled from
    the system, or from a stated MFU (``workload.mfu_basis``).

    The step time reads only :data:`models.compute.STEP_INPUT_KEYS`, so when those are all
    scalars the result is memoised on their values (the last :data:`STEP_MEMO_SIZE`
    scenarios): a page that evaluates one scenario under many checkpoint strategies, failure
    rates or prices computes its step once.  Memoised arrays are read-only.

    Parameters
    ----------
    x : Mapping[str, Any]
        The scenario's inputs by field key (:mod:`models.fields`), each in its field's unit;
        numbers may be arrays (one value per scenario).

    Returns
    -------
    StepTime
        Step 3: seconds per step [s], MFU [fraction] and memory fit [GB].
    """
    x = _in_domain_step_inputs(x)
    key = _scalar_step_key(x)
    if key is not None:
        with _STEP_MEMO_LOCK:
            hit = _STEP_MEMO.get(key)
            if hit is not None:
                _STEP_MEMO.move_to_end(key)
                return hit
    basis = choice(x, "workload.mfu_basis")
    s = cm.step_model(x, basis=basis.value)
    result = StepTime(mfu_basis=basis.value, **s)
    if key is not None:
        for value in s.values():
            if isinstance(value, np.ndarray):
                value.flags.writeable = False
        with _STEP_MEMO_LOCK:
            _STEP_MEMO[key] = result
            while len(_STEP_MEMO) > STEP_MEMO_SIZE:
                _STEP_MEMO.popitem(last=False)
    return result


def _in_domain_step_inputs(x: Mapping[str, Any]) -> Mapping[str, Any]:
    """The step model's inputs with in-domain spares: the job has n_d·k accelerators of
    each scale-up domain (``cluster.spare_nodes_per_domain`` nodes of it are spares), so
    its tensor/data-parallel traffic sees the smaller domain (:func:`domain_layout`)."""
    if is_zero(number(x, "cluster.spare_nodes_per_domain")):
        return x
    lay = domain_layout(x)
    k = number(x, "instance.accelerators_per_node")
    accels = number(x, "instance.scaleup_domain_accels")
    return {**x, "instance.scaleup_domain_accels": np.minimum(accels, lay.job_nodes_per_domain * k)}


#: inputs besides :data:`models.compute.STEP_INPUT_KEYS` that change the step (through
#: the accelerators of a scale-up domain the job has)
_DOMAIN_STEP_KEYS = ("cluster.spare_nodes_per_domain", "cluster.nodes_per_domain")

#: Scalar scenarios whose step time :func:`step_time` keeps.
STEP_MEMO_SIZE = 512
_STEP_MEMO: OrderedDict[tuple, StepTime] = OrderedDict()
_STEP_MEMO_LOCK = threading.Lock()  # dashboard sessions run in threads of one process
_ABSENT = object()


def _scalar_step_key(x: Mapping[str, Any]) -> tuple | None:
    """The step inputs' values as a hashable key, or None when any of them is an array
    (or of a type that does not compare by value)."""
    key = []
    for k in cm.STEP_INPUT_KEYS:
        v = x.get(k, _ABSENT)
        # tags that equal no number or choice (True == 1.0, so no bools as tags)
        if v is _ABSENT:  # the field's default
            key.append(("default",))
            continue
        if v is None:  # a blank field (NaN)
            key.append(("nan",))
            continue
        if isinstance(v, np.ndarray):
            if v.ndim:
                return None
            v = v.item()
        if isinstance(v, bool | int | float | np.generic):
            f = float(v)
            key.append(("nan",) if f != f else f)  # NaN equals itself here
        elif isinstance(v, str):  # choices are str enums
            key.append(str(v))
        else:
            return None
    return tuple(key)


def step_time_table(x: Mapping[str, Any], n: int) -> tuple[StepTime, np.ndarray] | None:
    """The step time of n 1-D scenarios computed once per distinct step input.

    Sweeps vary the node count (and other whole numbers: batch, TP, PP ...) over far fewer
    distinct values than scenarios, and the step time depends on nothing else the sweep
    varies.  When every varying step input is a finite whole number, the grid of their
    ranges has at most 4n cells and at most n/4 distinct rows occur, returns
    ``(table, inverse)``: ``table`` evaluated on the
    distinct input rows, scenario i's figures at row ``inverse[i]``.  Else None (evaluate
    every scenario).

    Parameters
    ----------
    x : Mapping[str, Any]
        The scenario's inputs by field key (:mod:`models.fields`), each in its field's unit;
        numbers may be arrays (one value per scenario).
    n : int
        Number of scenarios [count].

    Returns
    -------
    tuple of (StepTime, ndarray) or None
        The table on the distinct step-input rows and each scenario's row [index]; None when
        the step inputs do not qualify.
    """
    varying = [
        (k, v)
        for k in cm.STEP_INPUT_KEYS
        if isinstance(v := x.get(k), np.ndarray) and v.ndim == 1 and v.dtype.kind in "fiu"
    ]
    if not varying or any(v.shape[0] != n for _, v in varying):
        return None
    if any(np.ndim(x.get(k, 0)) for k in _DOMAIN_STEP_KEYS):  # the domain varies too
        return None
    codes = None
    spans = []
    cells = 1
    for _, v in varying:
        lo, hi = v.min(), v.max()
        if not (np.isfinite(lo) and np.isfinite(hi)) or hi - lo > n:
            return None
        span = int(hi - lo) + 1
        cells *= span
        if cells > 4 * n:  # the grid's lookup table would outweigh the scenarios
            return None
        offset = v - lo
        whole = offset.astype(np.int64)
        if not np.array_equal(whole, offset):
            return None
        if codes is None:  # the first varying input: its offsets are the codes
            codes = whole
        else:
            codes *= span
            codes += whole
        spans.append((float(lo), span))
    present = np.flatnonzero(np.bincount(codes, minlength=cells))
    if present.size > n // 4:  # too few repeats to be worth a table
        return None
    lookup = np.empty(cells, dtype=np.intp)
    lookup[present] = np.arange(present.size)
    rows = dict(x)
    rest = present
    for (k, _), (lo, span) in zip(reversed(varying), reversed(spans), strict=True):
        rows[k] = (rest % span).astype(float) + lo
        rest = rest // span
    # codes index the grid's cells: "wrap" never wraps, and is numpy's fastest gather
    return step_time(rows), np.take(lookup, codes, mode="wrap")


def step_time_rows(table: StepTime, rows: np.ndarray) -> StepTime:
    """The scenarios ``rows`` of a :func:`step_time_table` table.  The table's inputs are
    scalars or one row per distinct input, so its figures are scalars (they depend on no
    varying input, and stay scalars) or 1-D arrays of those rows.

    Parameters
    ----------
    table : StepTime
        A :func:`step_time_table` table.
    rows : ndarray
        The row [index] of each scenario.

    Returns
    -------
    StepTime
        The figures of those scenarios, in the table's units.
    """
    return StepTime(
        **{
            f.name: (
                np.take(value, rows, mode="wrap")  # valid rows: never wraps; numpy's fastest
                if isinstance(value := getattr(table, f.name), np.ndarray) and value.ndim == 1
                else value
            )
            for f in fields(table)
        }
    )


# --------------------------------------------------------------------------- 4. goodput
@dataclass(frozen=True)
class GoodputResult(_Result):
    """Step 4: the share of wall time that advances training, and where the rest goes."""

    goodput: np.ndarray
    goodput_first_order: np.ndarray
    recovery_minutes_per_failure: np.ndarray
    rework_minutes_per_failure: np.ndarray
    minutes_lost_per_failure: np.ndarray
    lost_minutes_per_day: np.ndarray
    checkpoint_overhead_fraction: np.ndarray
    level1_waste_fraction: np.ndarray
    level2_waste_fraction: np.ndarray
    corrupt_checkpoint_minutes_per_event: np.ndarray
    checkpoint_fallback_minutes: np.ndarray
    loss_minutes_per_day: dict[str, np.ndarray]
    #: 1 − g [fraction], for the cost step (None: computed there)
    lost_share: Any = None

    internal = ("loss_minutes_per_day", "lost_share")
    shaped = (
        "recovery_minutes_per_failure",
        "rework_minutes_per_failure",
        "minutes_lost_per_failure",
        "level1_waste_fraction",
        "level2_waste_fraction",
        "corrupt_checkpoint_minutes_per_event",
        "checkpoint_fallback_minutes",
    )

    def _more_figures(self) -> dict[str, Any]:
        return {f"loss_{k}_minutes_per_day": v for k, v in self.loss_minutes_per_day.items()}


class _Shares:
    """Shares part / total of one total, which is tested and made safe to divide by once."""

    def __init__(self, total) -> None:
        self.total = total
        self.positive = total > 0
        self.everywhere = bool(np.all(self.positive))  # then part / total as it is
        self.safe = total if self.everywhere else np.where(self.positive, total, 1.0)
        self._finite: bool | None = None  # whether the total is finite everywhere, once asked

    def _total_finite(self) -> bool:
        if self._finite is None:
            self._finite = bool(np.isfinite(self.total).all())
        return self._finite

    def of(self, part, when_none, dest=None):
        """part / total, ``when_none`` where the total is not positive (:data:`ZERO` for
        an absent part when that is 0 everywhere; 1 for the total itself, where it is
        positive and finite everywhere); written into ``dest`` when given and of the
        quotient's shape (:func:`_product`)."""
        if is_zero(part) and (self.everywhere or is_zero(when_none)):
            return ZERO
        # x / x = 1 where x is positive and finite (inf / inf = nan)
        if part is self.total and self.everywhere and self._total_finite():
            return np.float64(1.0)
        with np.errstate(invalid="ignore", divide="ignore"):
            if self.everywhere:
                return quotient_into(dest, part, self.total)
            return np.where(self.positive, part / self.safe, when_none)


def corrupt_checkpoint_minutes(plan: CheckpointPlan, recovery_minutes=0.0, out=(None, None)):
    """(X, F): minutes a corrupt level-1 checkpoint adds to a recovery, and the fallback part.

    A recovery that loads a corrupt level-1 checkpoint falls back to the next one: the
    durable tier for a two-level strategy (extra rework t₂/2 + s₂ − τ/2 − s₁), else the
    previous checkpoint (one interval τ more rework); F = its restore (+ validation) + that
    extra rework, in wall time (·(1 + δ₁/τ): the redone work takes its saves again).  With ``checkpoint.validation = 'fallback'`` the corruption is caught at
    load and X = F; with ``'none'`` the job first goes round the restart loop
    (resilience.restart_loop_count × restart_loop_minutes, Megatron-LM issue 5281) and
    X = loop + F.

    Parameters
    ----------
    plan : CheckpointPlan
        Step 2: intervals, saves, restores and staleness [min].
    recovery_minutes : float
        Unused [min]; kept for callers.
    out : tuple of (ndarray or None)
        Memory to write X and F into, each when it has the result's shape (the same
        additions: the same values).

    Returns
    -------
    tuple of ndarray
        (X, F) [min].
    """
    p = plan
    v = p.validation_minutes
    tau = p.checkpoint_interval_minutes
    if p.two_level:
        extra = np.maximum(p.rework2_minutes - p.half_interval_minutes - p.stale1_minutes, 0.0)
        restore_next = p.restore2_minutes + v
    else:
        extra = tau
        restore_next = p.restore1_minutes + v
    # redone work takes its level-1 saves again: wall time = compute · (1 + δ₁/τ)
    fallback = sum_into(out[1], restore_next, extra * (1.0 + p.save1_share))
    return sum_into(out[0], p.restart_loop_minutes, fallback), fallback


@dataclass(frozen=True)
class _Classes:
    """Rates [per day] and recovery minutes [min] of the failure classes of step 4."""

    lam: Any  # all failures plus Spot reclaims that did not fit the notice
    lam1: Any  # class 1: restored from the level-1 checkpoint
    lam2: Any  # class 2: fell back to the durable tier
    lam_s: Any  # class S: silent data corruption
    lam_ns: Any  # every class but S
    lam_p: Any  # class P: recovered from peers' state
    r0: Any  # recovery before the restore
    restore1: Any
    restore2: Any
    corrupt_x: Any
    fallback: Any
    corrupt: Any
    r1: Any
    r2: Any
    r_peer: Any
    t_clean: Any
    stale_clean: Any
    restore_clean: Any
    delay: Any
    r_sdc: Any
    sdc_rollback: Any


def _failure_classes(f: FailureProcess, p: CheckpointPlan, out=None) -> _Classes:
    """Rates λ₁, λ₂, λ_S, λ_P [per day] and recoveries R₁, R₂, R_P, R_S [min] per class.

    R₁ = r₀ + restore₁ + s₁ + π·X,  R₂ = r₀ + restore₂ + s₂,  R_P = r₀ + peer restore,
    R_S = SDC recovery + restore + staleness of the last durable checkpoint, rolled back
    Δ + t/2 + s (t = τ₂ for a two-level strategy, else τ).  Absent classes stay ZERO.
    ``out``: memory for X and F (:func:`corrupt_checkpoint_minutes`) by output key.
    """
    lam = p.failures_total_per_day
    lam_s = f.sdc_failures_per_day
    r0, v = f.recovery_before_restore_minutes, p.validation_minutes
    restore1, restore2 = total(p.restore1_minutes, v), total(p.restore2_minutes, v)
    into = (
        _dest(out, "corrupt_checkpoint_minutes_per_event"),
        _dest(out, "checkpoint_fallback_minutes"),
    )
    corrupt_x, fallback = corrupt_checkpoint_minutes(p, out=into)
    corrupt = term(p.corrupt_fraction, corrupt_x)
    if p.two_level:
        t_clean, stale_clean, restore_clean = p.interval2_minutes, p.stale2_minutes, restore2
    else:
        t_clean, stale_clean, restore_clean = (
            p.checkpoint_interval_minutes,
            p.stale1_minutes,
            restore1,
        )
    delay = f.sdc_detection_minutes
    has_sdc = not is_zero(f.sdc_fraction)  # the class exists (its rate may still be 0)
    return _Classes(
        lam=lam,
        lam1=p.failures_l1_per_day,
        lam2=p.fallback_failures_per_day,
        lam_s=lam_s,
        lam_ns=minus(lam, lam_s),
        lam_p=term(f.peer_fraction, minus(f.failures_per_day, lam_s)),
        r0=r0,
        restore1=restore1,
        restore2=restore2,
        corrupt_x=corrupt_x,
        fallback=fallback,
        corrupt=corrupt,
        r1=total(r0, restore1, p.stale1_minutes, corrupt),
        r2=total(r0, restore2, p.stale2_minutes),
        r_peer=total(r0, f.peer_restore_minutes),
        t_clean=t_clean,
        stale_clean=stale_clean,
        restore_clean=restore_clean,
        delay=delay,
        r_sdc=total(f.sdc_recovery_minutes, restore_clean, stale_clean) if has_sdc else ZERO,
        sdc_rollback=delay + t_clean / 2.0 + stale_clean if has_sdc else ZERO,
    )


def _per_failure_minutes(c: _Classes, f: FailureProcess, p: CheckpointPlan):
    """(recovery, rework) [min] of the mean failure: Σ_k s_k·R_k and Σ_k s_k·(t_k/2 + s_k).

    s_k = λ_k/λ is each class's share; where λ = 0 its limit as the node failure rate goes
    to 0 (level 2 takes φ of those restored from checkpoints, keep = (1 − p)(1 − z)), so
    that the per-failure figures describe the failure that would come.
    """
    shares = _Shares(c.lam)
    z, peer = f.sdc_fraction, f.peer_fraction
    keep = (1.0 - peer) * (1.0 - z)
    phi = p.fallback_fraction
    s1, s2 = shares.of(c.lam1, (1.0 - phi) * keep), shares.of(c.lam2, term(phi, keep))
    s_ns, s_s = shares.of(c.lam_ns, 1.0 - z), shares.of(c.lam_s, z)
    s_p = shares.of(c.lam_p, term(peer, 1.0 - z))
    restore1 = total(c.restore1, c.corrupt)
    if p.two_level:
        r_total = total(
            term(s_ns, c.r0), term(s_s, c.r_sdc), term(s1, restore1), term(s2, c.restore2)
        )
    else:
        r_total = total(term(s_ns, c.r0), term(s_s, c.r_sdc), term(restore1, s1))
    r_total = total(r_total, term(s_p, f.peer_restore_minutes))
    rework = total(
        term(s1, p.rework1_minutes),
        term(s2, p.rework2_minutes),
        term(s_s, c.sdc_rollback),
    )
    return r_total, rework


def _peer_factor(lam_p, r_peer):
    """Goodput factor of peer recovery, e^{−λ_P·R_P/1440} (Daly's limit τ → 0: no rework).

    Parameters
    ----------
    lam_p : array_like
        Failures recovered from peers' state [per day].
    r_peer : array_like
        Recovery of one such failure [min].

    Returns
    -------
    ndarray or None
        The factor [fraction]; None when the class is absent (λ_P is one number, 0).

    Examples
    --------
    >>> round(float(_peer_factor(1.0, 14.4)), 6)
    0.99005
    >>> _peer_factor(0.0, 14.4) is None
    True
    """
    return np.exp(-lam_p * r_peer / MINUTES_PER_DAY) if not is_zero(lam_p) else None


def _sdc_factor(lam_s, r_sdc, t_clean, delay):
    """Goodput factor of silent data corruption, T_s/T_w(λ_S, R_S, t, 0) / (1 + λ_S·Δ/1440).

    Daly's exact goodput (:func:`models.goodput.goodput_exact`) with no save cost, divided
    by the running time spent before the corruption is found Δ minutes later.

    Parameters
    ----------
    lam_s : array_like
        Silent data corruptions [per day].
    r_sdc : array_like
        Recovery of one, to the last durable checkpoint before it [min].
    t_clean : array_like
        Interval of that durable checkpoint [min].
    delay : array_like
        Detection delay Δ [min].

    Returns
    -------
    ndarray or None
        The factor [fraction]; None when the class is absent (λ_S is one number, 0).

    Examples
    --------
    >>> _sdc_factor(0.0, 30.0, 60.0, 120.0) is None
    True
    >>> bool(0.0 < _sdc_factor(0.1, 30.0, 60.0, 120.0) < 1.0)
    True
    """
    if is_zero(lam_s):
        return None
    return as_float_array(gp.goodput_exact(lam_s, r_sdc, t_clean, 0.0)) / (
        1.0 + lam_s * delay / MINUTES_PER_DAY
    )


def _failure_factor(c: _Classes, p: CheckpointPlan):
    """Goodput with failures alone [fraction]: two-level Daly · peer factor · SDC factor.

    T_s/T_w(λ₁, R₁, τ₁, δ₁)·T_s/T_w(λ₂, R₂, τ₂, δ₂) (:func:`models.checkpoint.two_level_goodput`,
    Daly 2006) · :func:`_peer_factor` · :func:`_sdc_factor`; an absent class leaves it as it is.
    """
    g0 = as_float_array(
        ck.two_level_goodput(
            c.lam1,
            c.lam2,
            p.checkpoint_interval_minutes,
            p.interval2_minutes,
            p.save1_minutes,
            p.save2_minutes,
            c.r1,
            c.r2,
        )
    )
    g_peer = _peer_factor(c.lam_p, c.r_peer)
    g_sdc = _sdc_factor(c.lam_s, c.r_sdc, c.t_clean, c.delay)
    g_fail = g0 if g_peer is None else g0 * g_peer
    return g_fail if g_sdc is None else g_fail * g_sdc


def _loss_components(c: _Classes, f: FailureProcess, p: CheckpointPlan) -> dict[str, Any]:
    """First-order minutes lost per day [min/day] per failure component: rate × minutes.

    E.g. detection λ_ns·D, rework λ₁·(τ/2 + s₁), fallback rework λ₂·(τ₂/2 + s₂), save
    1440·(δ₁/τ + δ₂/τ₂), warm-up λ·W, SDC rollback λ_S·(Δ + t/2 + s).
    """
    lam_ns, lam_s = c.lam_ns, c.lam_s
    return {
        "detection": term(lam_ns, f.detection_minutes_expected),
        "replacement": total(
            term(lam_ns, f.replacement_minutes_per_failure),
            term(lam_s, f.node_replacement_minutes),
        ),
        "restart": total(term(lam_ns, f.restart_minutes_expected), term(lam_s, f.restart_minutes)),
        "restore": total(
            term(c.lam1, c.restore1),
            term(c.lam2, c.restore2),
            term(c.lam_p, f.peer_restore_minutes),
            term(lam_s, c.restore_clean),
        ),
        "rework": term(c.lam1, p.rework1_minutes),
        "fallback_rework": term(c.lam2, p.rework2_minutes),
        "checkpoint_save": MINUTES_PER_DAY * total(p.save1_share, p.save2_share),
        "warmup": term(c.lam, f.warmup_minutes),
        "corrupt_checkpoint": term(c.lam1, c.corrupt),
        "sdc_rollback": term(lam_s, c.sdc_rollback),
    }


def _spot_notice_factor(
    saved_per_day, save_seconds, replacement, restart, restore, warmup, up_share=1.0
):
    """Spot reclaims saved in their notice: x = λ_s·R_s/1440 and g_s = 1/(1 + u·x).

    R_s = save/60 + replacement + restart + restore + warm-up: such a reclaim loses no
    work but pauses the job.  Reclaims arrive while it runs, not during a failure's
    recovery or another reclaim's pause: of the wall time the failures leave, the job is up
    a share u = 1/(1 + λ·R/1440) (λ failures per day, R the recovery of one [min], rework
    aside; 1 without failures), so the wall time per unit of work grows from 1/g_fail to
    (1 + u·x)/g_fail.  (The product g_fail/(1 + x) counted reclaims during recoveries too:
    on p6e-gb200-nvl72 under Spot it read 0.6755 against the Monte Carlo's 0.6930, this
    0.6920.)  Those that do not fit the notice are failures of classes 1 and 2.

    Parameters
    ----------
    saved_per_day : array_like
        Spot reclaims whose checkpoint fits in the notice [per day].
    save_seconds : array_like
        The save in the notice [s].
    replacement, restart, restore, warmup : array_like
        The stages of the recovery [min].
    up_share : array_like
        u, the share of the failures' wall time the job is up [fraction].

    Returns
    -------
    x_spot : ndarray
        Paused share per day of running, λ_s·R_s/1440 [fraction]; ZERO when there is no
        such reclaim.
    gs : ndarray or None
        The goodput factor 1/(1 + u·x) [fraction]; None when absent.

    Examples
    --------
    >>> x, gs = _spot_notice_factor(1.0, 60.0, 10.0, 5.0, 3.0, 5.0)
    >>> round(float(x), 6), round(float(gs), 6)
    (0.016667, 0.983607)
    >>> round(float(_spot_notice_factor(1.0, 60.0, 10.0, 5.0, 3.0, 5.0, 0.5)[1]), 6)
    0.991736
    >>> _spot_notice_factor(0.0, 60.0, 10.0, 5.0, 3.0, 5.0)[1] is None
    True
    """
    if is_zero(saved_per_day):  # no Spot reclaim saved in its notice: no pause
        return ZERO, None
    r_spot = save_seconds / 60.0 + replacement + restart + restore + warmup
    x_spot = saved_per_day * r_spot / MINUTES_PER_DAY
    return x_spot, 1.0 / (1.0 + term(up_share, x_spot))


def _spot_notice(f: FailureProcess, p: CheckpointPlan, c: _Classes, recovery_minutes):
    """:func:`_spot_notice_factor` of the scenario: (x_spot [fraction], g_s or None), the
    job up u = 1/(1 + λ·R/1440) of the failures' wall time (λ = ``c.lam`` [per day],
    R = ``recovery_minutes`` per failure [min])."""
    if is_zero(p.spot_saved_per_day):  # no saved reclaim (every model but Spot): no pause
        return ZERO, None
    up = 1.0 / (1.0 + term(c.lam, recovery_minutes) / MINUTES_PER_DAY)
    return _spot_notice_factor(
        p.spot_saved_per_day,
        p.spot_notice_save_seconds,
        f.node_replacement_minutes,
        f.restart_minutes,
        p.spot_saved_restore_minutes,
        f.warmup_minutes,
        up,
    )


def _day_share(minutes_per_day):
    """Share of the day m/1440 [fraction] of ``minutes_per_day`` [min/day]; ZERO if absent.

    >>> float(_day_share(144.0))
    0.1
    >>> _day_share(0.0) is ZERO
    True
    """
    return ZERO if is_zero(minutes_per_day) else minutes_per_day / MINUTES_PER_DAY


def _throughput_factor(sigma, overhead):
    """Throughput kept, (1 − σ)(1 − o) [fraction], of straggler slowdown σ and resilience
    overhead o [fraction].

    >>> round(_throughput_factor(0.1, 0.05), 6)
    0.855
    """
    return (1.0 - sigma) * (1.0 - overhead)


def _loss_breakdown(comp, g_fail, gs, g_fail_spot, running, stall, slow, sigma, overhead, out):
    """Minutes lost per day per component [min/day]; they add up to (1 − g)·1440.

    The failure components' first-order minutes are scaled to add up to the exact
    failure loss (1 − g_fail)·1440; spot notice is g_fail·(1 − g_s)·1440; the fabric
    stall, fail-slow, straggler and overhead components are the exact shares of what is
    left (``running`` = g_fail·g_s·(1 − stall − slow)).  ``out``: memory for the scaled
    failure components (:func:`_term_into`).
    """
    scale = _Shares(total(*comp.values())).of((1.0 - g_fail) * MINUTES_PER_DAY, 0.0)
    losses = {
        name: _term_into(_dest(out, f"loss_{name}_minutes_per_day"), comp[name], scale)
        for name in comp
    }
    losses["spot_notice"] = ZERO if gs is None else g_fail * (1.0 - gs) * MINUTES_PER_DAY
    losses["fabric_stall"] = term(g_fail_spot, stall, MINUTES_PER_DAY)
    losses["fail_slow"] = term(g_fail_spot, slow, MINUTES_PER_DAY)
    if is_zero(sigma) and is_zero(overhead):  # neither: both absent, running time unused
        losses["straggler"] = losses["resilience_overhead"] = ZERO
    else:
        running = running * MINUTES_PER_DAY
        losses["straggler"] = term(running, sigma)
        losses["resilience_overhead"] = term(running, 1.0 - sigma, overhead)
    assert set(losses) == set(LOSS_COMPONENTS)
    return losses


def _level_waste(c: _Classes, p: CheckpointPlan, out=None):
    """First-order waste per level [fraction]: W_k = λ_k·... (:func:`models.goodput.
    waste_first_order`, their sum :func:`models.checkpoint.two_level_waste_first_order`),
    and the peer and SDC classes' (λ_P·R_P + λ_S·(R_S + Δ + t/2 + s))/1440; ``out``:
    memory for W₁ by output key."""
    waste1 = gp.waste_first_order(
        c.lam1,
        c.r1,
        p.checkpoint_interval_minutes,
        p.save1_minutes,
        save_share=p.save1_share,
        half_interval=p.half_interval_minutes,
        out=_dest(out, "level1_waste_fraction"),
    )
    waste2 = gp.waste_first_order(
        c.lam2,
        c.r2,
        p.interval2_minutes,
        p.save2_minutes,
        save_share=p.save2_share,
        half_interval=p.half_interval2_minutes,
    )
    # (a silent-corruption rate that is not 0 means the class exists: r_sdc is computed)
    lam_s = c.lam_s
    sdc_waste = ZERO if is_zero(lam_s) else c.r_sdc + c.delay + c.t_clean / 2.0 + c.stale_clean
    extra = total(term(c.lam_p, c.r_peer), term(lam_s, sdc_waste))
    return waste1, waste2, extra / MINUTES_PER_DAY if not is_zero(extra) else ZERO


def _first_order(c: _Classes, p: CheckpointPlan, x_spot, kept, out=None):
    """(W₁, W₂, g₁): the first-order waste per level (:func:`_level_waste`) and the
    first-order goodput clip(1 − W₁ − W₂ − W_extra)·clip(1 − x_spot)·``kept`` (the
    shares not stalled and the throughput kept) [fraction]; ``out``: memory for g₁
    (:func:`_term_into`)."""
    waste1, waste2, w_extra = _level_waste(c, p, out)
    dest = _dest(out, "goodput_first_order")
    kept_share = 1.0 - total(waste1, waste2, w_extra)
    into = dest if fits_into(dest, kept_share, 0.0) and _float64(kept_share) else None
    g1 = np.clip(kept_share, 0.0, 1.0, out=into)
    return waste1, waste2, _term_into(dest, g1, np.clip(1.0 - x_spot, 0.0, 1.0), *kept)


def _lost_figures(g, per_failure, p: CheckpointPlan, out=None) -> dict[str, Any]:
    """The goodput step's figures of what is lost: minutes lost per failure (recovery +
    rework [min]), the lost share 1 − g [fraction] and minutes per day (1 − g)·1440
    [min/day], and the share of the time spent saving (:func:`_overhead_fraction`);
    ``out``: memory for them (:func:`_term_into`)."""
    lost_share = 1.0 - g
    return {
        "minutes_lost_per_failure": _total_into(
            _dest(out, "minutes_lost_per_failure"), *per_failure
        ),
        "lost_minutes_per_day": _product(out, "lost_minutes_per_day", lost_share, MINUTES_PER_DAY),
        "checkpoint_overhead_fraction": _overhead_fraction(
            p, _dest(out, "checkpoint_overhead_fraction")
        ),
        "lost_share": lost_share,
    }


def _overhead_fraction(p: CheckpointPlan, dest: np.ndarray | None = None):
    """The share of the time spent saving, 1 − 1/((1 + δ₁/τ)(1 + δ₂/τ₂)) [fraction]
    (:func:`_saves_factor`), written into ``dest`` when given and of its shape (the same
    subtraction: the same values)."""
    kept = 1.0 / _saves_factor(p.save1_share, p.save2_share)
    return np.subtract(1.0, kept, out=dest) if fits_into(dest, 1.0, kept) else 1.0 - kept


def _stall_shares(f: FailureProcess):
    """(s, f): the fabric stall and fail-slow shares of the day [fraction]
    (:func:`_day_share`); slow windows owe at most the time left (then no progress at
    all), f ≤ 1 − s."""
    stall = _day_share(f.fabric_stall_minutes_per_day)
    slow = _day_share(f.fail_slow_minutes_per_day)
    if not is_zero(slow):
        slow = np.minimum(slow, 1.0 - stall)
    return stall, slow


def _saves_factor(c1, c2):
    """(1 + δ₁/τ)(1 + δ₂/τ₂); the second factor left out when it is one number, exactly 1
    (no durable save of its own: x·1 = x)."""
    second = 1.0 + c2
    if np.ndim(second) == 0 and second == 1.0:
        return 1.0 + c1
    return (1.0 + c1) * second


def goodput_step(
    failures: FailureProcess, plan: CheckpointPlan, out: Mapping[str, np.ndarray] | None = None
) -> GoodputResult:
    """Step 4: goodput, the share of wall time that advances training, and its losses.

    g = T_s/T_w(λ₁, R₁, τ₁, δ₁)·T_s/T_w(λ₂, R₂, τ₂, δ₂)·e^{−λ_P·R_P}·g_SDC · g_s
        · (1 − s − f) · (1 − σ)(1 − o)

    (Daly 2006, :func:`_failure_factor`): classes 1, 2 restore from the level-1 checkpoint
    or the durable tier, class P from peers (:func:`_peer_factor`), class S is silent data
    corruption (:func:`_sdc_factor`); g_s is Spot reclaims saved in their notice
    (:func:`_spot_notice_factor`); s, f the fabric stall and fail-slow shares of the day
    (:func:`_day_share`); (1 − σ)(1 − o) the throughput (:func:`_throughput_factor`).
    An absent class or component (one number, 0) is left out (:func:`models._tools.term`).

    Parameters
    ----------
    failures : FailureProcess
        Step 1: failure rates [per day] and recovery stages [min].
    plan : CheckpointPlan
        Step 2: checkpoint intervals, saves, restores [min] and level rates [per day].
    out : Mapping[str, ndarray] or None
        Memory to write figures into, by output key (as :func:`cost_step`'s).

    Returns
    -------
    GoodputResult
        Goodput [fraction], per-failure minutes [min], losses per component [min/day].
    """
    p, f = plan, failures
    c = _failure_classes(f, p, out)
    r_total, rework = _per_failure_minutes(c, f, p)
    g_fail = _failure_factor(c, p)
    x_spot, gs = _spot_notice(f, p, c, r_total)
    stall, slow = _stall_shares(f)
    sigma, overhead = f.straggler_slowdown, f.overhead_fraction
    throughput = _throughput_factor(sigma, overhead)
    not_stalled = minus(1.0 - stall, slow)
    g_fail_spot = g_fail if gs is None else g_fail * gs
    running = term(g_fail_spot, not_stalled)
    g = _term_into(_dest(out, "goodput"), running, throughput)
    comp = _loss_components(c, f, p)
    losses = _loss_breakdown(
        comp, g_fail, gs, g_fail_spot, running, stall, slow, sigma, overhead, out
    )
    waste1, waste2, g1 = _first_order(c, p, x_spot, (not_stalled, throughput), out)
    return GoodputResult(
        goodput=g,
        goodput_first_order=g1,
        recovery_minutes_per_failure=r_total,
        rework_minutes_per_failure=rework,
        level1_waste_fraction=waste1,
        level2_waste_fraction=waste2,
        corrupt_checkpoint_minutes_per_event=c.corrupt_x,
        checkpoint_fallback_minutes=c.fallback,
        loss_minutes_per_day=losses,
        **_lost_figures(g, (r_total, rework), p, out),
    )


# --------------------------------------------------------------------------- 5. cost
@dataclass(frozen=True)
class Cost(_Result):
    """Step 5: dollars per day and to train, at the price in force and its storage."""

    usd_per_instance_hour: np.ndarray
    usd_per_instance_hour_effective: np.ndarray
    cluster_usd_per_day: np.ndarray
    spare_usd_per_day: np.ndarray
    storage_usd_per_day: np.ndarray
    storage_file_system_usd_per_day: np.ndarray
    storage_object_usd_per_day: np.ndarray
    total_usd_per_day: np.ndarray
    total_usd_per_month: np.ndarray
    productive_usd_per_day: np.ndarray
    lost_usd_per_day: np.ndarray
    time_to_train_days: np.ndarray
    time_to_train_days_low: np.ndarray
    time_to_train_days_high: np.ndarray
    time_to_train_hours: np.ndarray
    cost_to_train_usd: np.ndarray
    cost_to_train_usd_low: np.ndarray
    cost_to_train_usd_high: np.ndarray
    usd_per_1e18_useful_flops: np.ndarray
    domain_goodput: np.ndarray
    cost_to_train_compute_usd: np.ndarray
    cost_to_train_bubble_usd: np.ndarray
    cost_to_train_communication_usd: np.ndarray
    cost_within_mfu_bubble_usd: np.ndarray
    cost_within_mfu_communication_usd: np.ndarray
    cost_to_train_goodput_loss_usd: np.ndarray
    cost_to_train_spares_usd: np.ndarray
    cost_to_train_storage_usd: np.ndarray
    total_cost_to_train_usd: np.ndarray
    compute_days: np.ndarray
    lost_usd_per_month: np.ndarray
    lost_usd_per_year: np.ndarray
    lost_usd_per_run: np.ndarray
    loss_usd_per_day: dict[str, np.ndarray]

    internal = ("loss_usd_per_day",)
    shaped = ("cost_to_train_spares_usd",)

    def _more_figures(self) -> dict[str, Any]:
        return {f"loss_{k}_usd_per_day": v for k, v in self.loss_usd_per_day.items()}


def _storage_input(x: Mapping[str, Any], key: str) -> np.ndarray:
    """A storage price or file-system input; the shipped tables when absent."""
    if key in x:
        return as_float_array(x[key])
    if key.startswith("tier."):
        return as_float_array(ck.tier_inputs(ck.load_tiers())[key])
    tiers = ck.load_tiers()
    prices = pr.storage_price_inputs(
        pr.load_storage_prices(), tiers["shared_fs"].throughput_MBps_per_TiB or float("nan")
    )
    return as_float_array(prices[key])


def storage_cost(
    x: Mapping[str, Any], plan: CheckpointPlan, good: GoodputResult
) -> tuple[np.ndarray, np.ndarray]:
    """(file system, object storage) USD/day of the durable checkpoint tier in use.

    Shared file system (FSx for Lustre-like): provisioned TiB × 1024 GB × price of its
    throughput tier per GB-month (:func:`models.pricing.file_system_usd_per_day`), paid while
    it exists.  Object store (S3-like): the ``storage.retained_checkpoints`` full checkpoints
    kept, per GB-month, plus one PUT per upload part of every durable checkpoint and one GET
    per part of every restore from it (parts = nodes · ⌈shard / part size⌉;
    :func:`models.pricing.object_storage_usd_per_day`).  CPU memory and local NVMe are part of
    the instance price.  Only the durable tier of ``checkpoint.durable_tier`` is charged.

    Parameters
    ----------
    x : Mapping[str, Any]
        The scenario's inputs by field key (:mod:`models.fields`), each in its field's unit;
        numbers may be arrays (one value per scenario).
    plan : CheckpointPlan
        Step 2: checkpoint intervals [min], restore rates [per day], sizes [GB].
    good : GoodputResult
        Step 4 (its goodput [fraction] sets the wall time per checkpoint).

    Returns
    -------
    tuple of ndarray
        (file system, object storage) [USD/day].
    """
    st = section(x, "storage")
    durable = choice(x, "checkpoint.durable_tier")
    zero = as_float_array(0.0)
    if durable is DurableTier.SHARED_FS:
        fs = as_float_array(
            pr.file_system_usd_per_day(
                _storage_input(x, "tier.shared_fs.provisioned_TiB"),
                _storage_input(x, "storage.fsx_usd_per_GB_month"),
            )
        )
        return fs, zero
    nodes = number(x, "cluster.nodes")
    size_GB = plan.checkpoint_size_TB * 1000.0
    parts = nodes * np.ceil(plan.checkpoint_shard_GB_per_node * 1000.0 / st.object_part_MB)
    with np.errstate(divide="ignore", invalid="ignore"):
        saves_per_day = good.goodput * MINUTES_PER_DAY / plan.durable_interval_minutes
    restores_per_day = (
        plan.fallback_failures_per_day if plan.two_level else plan.failures_l1_per_day
    )
    obj = as_float_array(
        pr.object_storage_usd_per_day(
            st.retained_checkpoints * size_GB,
            _storage_input(x, "storage.object_usd_per_GB_month"),
            saves_per_day * parts,
            _storage_input(x, "storage.object_usd_per_1000_put"),
            restores_per_day * parts,
            _storage_input(x, "storage.object_usd_per_1000_get"),
        )
    )
    return zero, obj


def paid_instances(x: Mapping[str, Any]) -> float:
    """The instances a scenario pays for [count]: the job's nodes and every spare beside
    them (hot spares, in-domain spares and the spare domains' nodes, :func:`domain_layout`).

    Parameters
    ----------
    x : Mapping[str, Any]
        One scenario's resolved inputs (:func:`models.evaluate.resolve_inputs`).

    Returns
    -------
    float
        N + spare nodes [count]; NaN where the domain layout cannot be made.

    Examples
    --------
    >>> from goodput_lab.models import load_preset, resolve_inputs
    >>> s = load_preset("p6e-gb200-nvl72").replace({"cluster.spare_domains": 4})
    >>> paid_instances(resolve_inputs(s))  # 1,152 nodes and 4 spare racks of 18
    1224.0
    """
    return float(np.asarray(number(x, "cluster.nodes") + _spare_nodes_total(x)))


def _spare_nodes_total(x: Mapping[str, Any]) -> np.ndarray:
    """Paid nodes beside the job: hot spares, in-domain spares and spare domains' nodes
    (NaN where the domain layout cannot be made: no figure follows)."""
    if (
        is_zero(number(x, "cluster.spare_nodes_per_domain"))
        and is_zero(number(x, "cluster.spare_domains"))
        and bool(np.all(np.isnan(number(x, "cluster.placement_group_nodes"))))
    ):
        return number(x, "cluster.spare_nodes")
    return domain_layout(x).spare_nodes_total


def _price(x: Mapping[str, Any]):
    """(rate, price) [USD/h]: the instance rate and the effective price per used
    instance-hour (:func:`models.pricing.effective_usd_per_instance_hour`)."""
    pc = section(x, "pricing")
    rate = pc.usd_per_instance_hour
    price = as_float_array(
        pr.effective_usd_per_instance_hour(rate, pc.model, pc.commitment_utilization)
    )
    return rate, price


def _cost_split(step: StepTime, productive_cost, out=None):
    """Productive cost to train [USD] split by step part: (compute, bubble, communication,
    bubble within MFU, communication within MFU).

    Under
    ``end_to_end`` all productive time is compute (communication and bubble are inside the
    MFU; their ``cost_within_mfu_*`` shares are informational); under ``modelled`` and
    ``compute_only`` the step is compute (recomputation included) + bubble + exposed
    communication, and the last two are their own costs.  Infeasible configurations (memory,
    TP outside the scale-up domain) give NaN times and costs.
    """
    fits = step.memory_fits > 0.5
    e2e = step.mfu_basis == MfuBasis.END_TO_END
    comm = step.exposed_comm_fraction_of_step
    bubble = step.bubble_fraction_of_step
    zero = productive_cost * 0.0  # NaN where the configuration cannot run
    if e2e:
        # no split exists when the modelled communication alone outlasts the step
        within = np.where(step.compute_share_of_step > 0, 1.0, np.nan)
        compute_cost = productive_cost * np.where(fits, 1.0, np.nan)
        added_bubble, added_comm = zero, zero
        within_bubble, within_comm = (
            productive_cost * bubble * within,
            productive_cost * comm * within,
        )
    else:
        compute_cost = _product(
            out, "cost_to_train_compute_usd", productive_cost, step.compute_share_of_step
        )
        added_bubble = _product(out, "cost_to_train_bubble_usd", productive_cost, bubble)
        added_comm = _product(out, "cost_to_train_communication_usd", productive_cost, comm)
        within_bubble, within_comm = zero, zero
    return compute_cost, added_bubble, added_comm, within_bubble, within_comm


def _lost_share(good: GoodputResult):
    """1 − g [fraction], as the goodput step computed it (when it did)."""
    return 1.0 - good.goodput if good.lost_share is None else good.lost_share


def _domain_goodput(g, nodes, spare_nodes):
    """Goodput over every paid node, g·N/(N + S) [fraction]; without spares the goodput
    itself (for scenarios the same array, which a chunked evaluation then writes once; one
    scenario's as a new numpy float)."""
    if not is_zero(spare_nodes):
        return g * (nodes / (nodes + spare_nodes))
    return g if isinstance(g, np.ndarray) and g.ndim else g * 1.0


def _train_days(step: StepTime, g, out=None):
    """(failure-free compute, time to train, its low and high ends [days]):
    days = steps·step / (86,400·g), inf where g = 0; the step's 80% interval carried
    through with goodput as at the point value.  ``out``: memory for the figures
    (:func:`cost_step`)."""
    train_s = step.steps_to_train * step.step_seconds
    shares = _Shares(g)  # g tested once for the three
    # (a figure itself: divided once)
    compute_days = quotient_into(_dest(out, "compute_days"), train_s, SECONDS_PER_DAY)
    days = shares.of(compute_days, np.inf, _dest(out, "time_to_train_days"))
    # the step's 80% interval carried through (goodput as at the point value)
    days_lo = shares.of(
        step.steps_to_train * step.step_seconds_low / SECONDS_PER_DAY,
        np.inf,
        _dest(out, "time_to_train_days_low"),
    )
    days_hi = shares.of(
        step.steps_to_train * step.step_seconds_high / SECONDS_PER_DAY,
        np.inf,
        _dest(out, "time_to_train_days_high"),
    )
    return compute_days, days, days_lo, days_hi


def cost_step(
    x: Mapping[str, Any],
    step: StepTime,
    good: GoodputResult,
    plan: CheckpointPlan | None = None,
    out: Mapping[str, np.ndarray] | None = None,
) -> Cost:
    """Cost per day and to train.

    price = the effective price per used instance-hour of the pricing model
    (:func:`models.pricing.effective_usd_per_instance_hour`: a Savings Plan rate divided by
    the share of its term the commitment is used, else the rate); cluster/day = N·price·24;
    spares/day = S·price·24; storage/day from :func:`storage_cost` (0 without a checkpoint
    plan); total = cluster + spares + storage; lost/day = (1 − g)·cluster + spares + storage;
    time to train = steps·step / g [s → days] (failure-free compute = steps·step [s → days]);
    lost per month and year = lost/day × 365.25/12 and × 365.25; lost per run = lost/day ×
    time to train; cost to train = days · (cluster + spares)/day (the instances,
    proportional to their price); total cost to train = days · total/day (storage
    included).  The cost split by step part: :func:`_cost_split`.

    Parameters
    ----------
    x : Mapping[str, Any]
        The scenario's inputs by field key (:mod:`models.fields`), each in its field's unit;
        numbers may be arrays (one value per scenario).
    step : StepTime
        Step 3: seconds per step [s].
    good : GoodputResult
        Step 4: goodput [fraction] and losses [min/day].
    plan : CheckpointPlan or None
        Step 2, for the storage cost; None: no storage cost.
    out : Mapping[str, ndarray] or None
        Memory to write figures into, by output key (a chunked evaluation's rows for this
        block; :func:`_product`: the same operations, the same values); None: new arrays.

    Returns
    -------
    Cost
        Step 5: costs [USD/day], [USD] to train and time to train [days].
    """
    rate, price = _price(x)
    nodes = number(x, "cluster.nodes")
    g = good.goodput
    cluster = _product(out, "cluster_usd_per_day", nodes * price, HOURS_PER_DAY)
    spare_nodes = _spare_nodes_total(x)
    spare = spare_nodes * price * HOURS_PER_DAY
    fs, obj = storage_cost(x, plan, good) if plan is not None else (as_float_array(0.0),) * 2
    storage = fs + obj
    total_day = _total_into(_dest(out, "total_usd_per_day"), cluster, spare, storage)
    compute_days, days, days_lo, days_hi = _train_days(step, g, out)
    cluster_cost = days * cluster
    with np.errstate(invalid="ignore"):  # a run that never ends (g = 0): no cost split, nan
        productive_cost = cluster_cost * g
    compute_cost, added_bubble, added_comm, within_bubble, within_comm = _cost_split(
        step, productive_cost, out
    )
    instances = cluster + spare  # per day, shared by the three costs to train
    cost = _product(out, "cost_to_train_usd", days, instances)
    lost = pr.lost_usd_per_day(g, cluster, spare, storage)
    shape = np.shape(g)
    dest = partial(_dest, out)
    flops_e18 = step.training_flops / 1e18
    return Cost(
        usd_per_instance_hour=_filled(rate, shape),
        usd_per_instance_hour_effective=_filled(price, shape),
        cluster_usd_per_day=cluster,
        spare_usd_per_day=spare,
        storage_usd_per_day=_filled(storage, shape),
        storage_file_system_usd_per_day=_filled(fs, shape),
        storage_object_usd_per_day=_filled(obj, shape),
        total_usd_per_day=total_day,
        total_usd_per_month=_product(out, "total_usd_per_month", total_day, pr.DAYS_PER_MONTH),
        productive_usd_per_day=_product(out, "productive_usd_per_day", g, cluster),
        lost_usd_per_day=lost,
        time_to_train_days=days,
        time_to_train_days_low=days_lo,
        time_to_train_days_high=days_hi,
        time_to_train_hours=_product(out, "time_to_train_hours", days, HOURS_PER_DAY),
        cost_to_train_usd=cost,
        cost_to_train_usd_low=_product(out, "cost_to_train_usd_low", days_lo, instances),
        cost_to_train_usd_high=_product(out, "cost_to_train_usd_high", days_hi, instances),
        usd_per_1e18_useful_flops=quotient_into(dest("usd_per_1e18_useful_flops"), cost, flops_e18),
        domain_goodput=_domain_goodput(g, nodes, spare_nodes),
        cost_to_train_compute_usd=compute_cost,
        cost_to_train_bubble_usd=added_bubble,
        cost_to_train_communication_usd=added_comm,
        cost_within_mfu_bubble_usd=within_bubble,
        cost_within_mfu_communication_usd=within_comm,
        cost_to_train_goodput_loss_usd=_product(
            out, "cost_to_train_goodput_loss_usd", cluster_cost, _lost_share(good)
        ),
        cost_to_train_spares_usd=_times_days(days, spare),
        cost_to_train_storage_usd=_times_days(days, storage, dest("cost_to_train_storage_usd")),
        total_cost_to_train_usd=_product(out, "total_cost_to_train_usd", days, total_day),
        compute_days=compute_days,
        lost_usd_per_month=_product(out, "lost_usd_per_month", lost, pr.DAYS_PER_MONTH),
        lost_usd_per_year=_product(out, "lost_usd_per_year", lost, pr.DAYS_PER_YEAR),
        lost_usd_per_run=_times_days(days, lost, dest("lost_usd_per_run")),
        loss_usd_per_day=_loss_usd(good, cluster, out),
    )


def _loss_usd(good: GoodputResult, cluster, out=None) -> dict[str, Any]:
    """USD/day of each loss component, minutes/1440 x cluster/day (:func:`_day_cost`); an
    absent loss costs nothing, where the price is known (NaN where it is not).  ``out``:
    memory for the figures (:func:`cost_step`)."""
    absent = ZERO if np.isfinite(cluster).all() else cluster * 0.0
    return {
        name: absent
        if is_zero(minutes)
        else _day_cost(minutes, cluster, _dest(out, f"loss_{name}_usd_per_day"))
        for name, minutes in good.loss_minutes_per_day.items()
    }


# --------------------------------------------------------------------------- the chain
@dataclass(frozen=True)
class ChainResult:
    """The five step results of one (vectorised) evaluation."""

    failures: FailureProcess
    checkpoint: CheckpointPlan
    step: StepTime
    goodput: GoodputResult
    cost: Cost

    def metrics(self) -> dict[str, Any]:
        """Every reported figure as ``{key: array}``; a key reported by two steps is an
        error (no step overwrites another's figure)."""
        out: dict[str, Any] = {}
        for part in (self.failures, self.checkpoint, self.step, self.goodput, self.cost):
            for key, value in part.metrics().items():
                if key in out:
                    raise RuntimeError(f"{key!r} is reported by two chain steps")
                out[key] = value
        return out


def run_chain(
    x: Mapping[str, Any],
    step: StepTime | None = None,
    out: Mapping[str, np.ndarray] | None = None,
) -> ChainResult:
    """Evaluate the chain once: failures → checkpoint plan → step time → goodput → cost.

    ``step``: the step time of these inputs when the caller has it already (a block of a
    sweep, from :func:`step_time_table`).

    Parameters
    ----------
    x : Mapping[str, Any]
        The scenario's inputs by field key (:mod:`models.fields`), each in its field's unit;
        numbers may be arrays (one value per scenario).
    step : StepTime or None
        The step time of these inputs when the caller has it already.
    out : Mapping[str, ndarray] or None
        Memory the steps may write figures into, by output key (:func:`cost_step`).

    Returns
    -------
    ChainResult
        The five step results (:meth:`ChainResult.metrics`: the figures by output key).
    """
    failures = failure_process(x, out)
    plan = checkpoint_plan(x, failures, out)
    step = step_time(x) if step is None else step
    good = goodput_step(failures, plan, out)
    return ChainResult(failures, plan, step, good, cost_step(x, step, good, plan, out))


__all__ = [
    "ChainResult",
    "CheckpointPlan",
    "Cost",
    "DurableTier",
    "FailureProcess",
    "GoodputResult",
    "Placement",
    "SaveMode",
    "StepTime",
    "Strategy",
    "Timings",
    "checkpoint_plan",
    "cost_step",
    "failure_process",
    "goodput_step",
    "run_chain",
    "spot_level1_survives",
    "step_time",
    "step_time_rows",
    "step_time_table",
    "storage_cost",
]


def _filled(value, shape: tuple[int, ...]) -> np.ndarray:
    """``value`` (a float array) broadcast with ``shape``, as ``value * np.ones(shape)``
    gives it: a numpy float for one scenario; a read-only broadcast when it is one number
    for every scenario (no copy, and a chunked evaluation sees at once that it never
    varies); else a new array (never a view of an input)."""
    if isinstance(value, float | int | np.floating | np.integer | np.bool_) or (
        isinstance(value, np.ndarray) and not value.ndim
    ):  # one number (the common case: an absent term or a price), without broadcast_shapes
        one = np.float64(value) * 1.0  # a numpy float, as for the other scalar figures
        return one if shape == () else _broadcast_one(one, shape)
    value = np.asarray(value, dtype=float)
    shape = np.broadcast_shapes(value.shape, shape)
    if value.size == 1:
        one = value.reshape(()) * 1.0
        return one if shape == () else _broadcast_one(one, shape)
    return np.broadcast_to(value, shape) * 1.0


#: read-only broadcasts of one number by (its bytes, shape): the figures that hold one
#: number for every scenario, built once rather than in every block of a chunked sweep
_ONES: dict[tuple[bytes, tuple[int, ...]], np.ndarray] = {}


def _broadcast_one(one: np.float64, shape: tuple[int, ...]) -> np.ndarray:
    """A read-only broadcast of the numpy float ``one`` to ``shape`` (no memory of its
    own), shared by every figure of that value and shape."""
    key = (one.tobytes(), shape)
    view = _ONES.get(key)
    if view is None:
        if len(_ONES) >= 256:
            _ONES.clear()
        view = _ONES[key] = np.broadcast_to(one, shape)
    return view


def _shaped(value, shape: tuple[int, ...]):
    """``value`` as a figure of ``shape``: itself when it is a numpy value of that shape,
    else :func:`_filled` (one number for every scenario, e.g. an absent term)."""
    if isinstance(value, np.ndarray | np.generic) and value.shape == shape:
        return value
    if value is ZERO and shape:  # an absent term: one shared read-only view per shape
        return _zeros(shape)
    return _filled(value, shape)


@lru_cache(maxsize=64)
def _zeros(shape: tuple[int, ...]) -> np.ndarray:
    """A read-only broadcast of 0 of ``shape`` (no memory of its own), shared."""
    return np.broadcast_to(ZERO, shape)


def _dest(out: Mapping[str, np.ndarray] | None, name: str) -> np.ndarray | None:
    """The memory given for figure ``name`` (:func:`cost_step`'s ``out``), or None."""
    return None if out is None else out.get(name)


def _product(out: Mapping[str, np.ndarray] | None, name: str, a, b):
    """a · b, written into the memory given for figure ``name`` when there is some and the
    product has its shape (:func:`models._tools.product_into`), else ``a * b``."""
    return product_into(_dest(out, name), a, b)


def _float64(value) -> bool:
    """Whether ``value`` is a float64 array or a float scalar (an operation on it and
    another such value gives the same bits whether or not its result has memory given)."""
    kind = type(value)
    if kind is np.ndarray:
        return value.dtype == np.float64
    return kind is float or kind is np.float64


def _fold_into(dest: np.ndarray | None, ufunc, operands: list):
    """``ufunc`` over ``operands`` left to right, ((a ∘ b) ∘ c) ..., written into ``dest``
    when it is given, the operands are float64 and the first result already has the
    shape of ``dest``: the same operations in the same order, so the same values as
    without ``dest``; else None (the caller computes it as usual)."""
    if dest is None or len(operands) < 2 or not all(_float64(v) for v in operands):
        return None
    shapes = [np.shape(v) for v in operands]
    if not (np.broadcast_shapes(*shapes[:2]) == dest.shape == np.broadcast_shapes(*shapes)):
        return None
    ufunc(operands[0], operands[1], out=dest)
    for value in operands[2:]:
        ufunc(dest, value, out=dest)
    return dest


def _term_into(dest: np.ndarray | None, *factors):
    """:func:`models._tools.term` of ``factors``, its products written into ``dest`` when
    given and they fit (:func:`_fold_into`)."""
    if dest is not None:
        kept = []
        for f in factors:
            if is_zero(f):
                return ZERO
            one = _single(f)
            if one is not None and one == 1 and not (isinstance(f, np.ndarray) and f.ndim):
                continue
            kept.append(f)
        folded = _fold_into(dest, np.multiply, kept)
        if folded is not None:
            return folded
    return term(*factors)


def _total_into(dest: np.ndarray | None, *terms):
    """:func:`models._tools.total` of ``terms``, its sums written into ``dest`` when given
    and they fit (:func:`_fold_into`)."""
    if dest is not None:
        folded = _fold_into(dest, np.add, [t for t in terms if not is_zero(t)])
        if folded is not None:
            return folded
    return total(*terms)


def _times_days(days: np.ndarray, usd_per_day: np.ndarray, dest=None) -> np.ndarray:
    """days x USD/day where nothing per day costs nothing, even over a run that never ends
    (days = inf would give inf x 0 = nan); written into ``dest`` when given (:func:`_product`)."""
    if is_zero(usd_per_day):
        return ZERO
    usd = np.asarray(usd_per_day, dtype=float)
    with np.errstate(invalid="ignore"):
        usd_days = np.multiply(days, usd, out=dest) if fits_into(dest, days, usd) else days * usd
    free = usd == 0.0
    if isinstance(usd_days, np.ndarray) and usd_days.ndim and not free.ndim and not free:
        return usd_days  # one price per day, not 0: the product as it is (a new array)
    if not isinstance(usd_days, np.ndarray) or usd_days.shape != np.shape(free):
        return np.where(free, 0.0, usd_days)
    if free.any():  # usd_days is a new array of this function's own: zeroed in place
        usd_days[free] = 0.0
    return usd_days


def _day_cost(minutes_per_day, usd_per_day, dest=None):
    """minutes/1440 x USD/day [USD/day], in that order, the product written into ``dest``
    (memory the caller gave for it) or over the quotient (a new array of its own) rather
    than into a third array."""
    share = minutes_per_day / MINUTES_PER_DAY
    if fits_into(dest, share, usd_per_day):
        return np.multiply(share, usd_per_day, out=dest)
    if (
        isinstance(share, np.ndarray)
        and share.base is None
        and np.broadcast_shapes(share.shape, np.shape(usd_per_day)) == share.shape
    ):
        return np.multiply(share, usd_per_day, out=share)
    return share * usd_per_day

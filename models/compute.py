"""Compute model: step time, parallelism, memory fit, time and cost to train.

Units: parameters in billions, tokens in trillions (or millions per step), FLOP/s as TFLOPS
per accelerator, memory in GB (10⁹ bytes), times in seconds (step) and days (training).
Functions broadcast over numpy arrays and return floats for all-scalar input.  The
equations, sources, assumptions and the validation table are in ``docs/step-time.md``.

One optimizer step of B sequences of s tokens on n accelerators, tensor-parallel size t
inside the scale-up domain, p pipeline stages of v chunks each, d = n/(t·p) data-parallel
ranks, m = B/(d·b) micro-batches of b sequences per pipeline.  Shape, model FLOPs
(6N + 12·L·s·h per token, PaLM App. B [2]) and activation memory (Korthikanti et al. [5])
come from :mod:`models.transformer`.

Step-time basis (``workload.mfu_basis``):

* ``modelled`` (default, :func:`modelled_components`): one micro-batch through the busiest
  stage (its L/p layers and the output layer, or an even share of all of it with
  ``balanced_stages``) takes
  t_mb = compute + recomputation + memory-bound kernels + exposed TP + PP, where compute is
  the FLOPs at the catalog's measured max achievable matmul rate (MAMF [7]); recomputation
  is the forward pass again (full) or the attention scores again (selective, or any fused
  attention kernel); memory-bound time streams the activations and each GEMM's operands
  through HBM at 90% of its bandwidth, added to the math time as Calculon does [8]; TP is 4
  collectives per layer (6 with full recomputation) of b·s·h·2 bytes over the scale-up
  link at its measured collective efficiency, less ``tp_comm_overlap_fraction``; PP is 2·v
  point-to-point messages of b·s·h·2/t bytes over the scale-out network.  The pipeline
  takes (m + (p−1)/v)·t_mb (Narayanan et al. [3]: the interleaved bubble of (p−1)/v
  micro-batch times, applied to the whole micro-batch); then the data-parallel gradient
  synchronisation (NCCL-style overlapped hierarchical collective, :mod:`models.network`)
  not hidden behind the last micro-batch's backward pass, and the optimizer step
  (memory-bound).  MFU is an output.
* ``end_to_end``: a measured MFU is model FLOP/s over the whole step (PaLM App. B [2];
  Llama 3 405B's 38-43% on H100 [6]): step = t_e = (6N + 12Lsh)·T / (n · peak · MFU);
  communication and bubble are NOT added, and bandwidth does not change the time to train.
  The comm/bubble model of :func:`step_components` splits that fixed step: it solves for
  the compute-phase time t_k with t_k·(1 + (p−1)/(v·m)) + DP sync − min(φ·DP sync, w·t_k)
  + TP + PP = t_e (w = 2/3, or 1 for ZeRO-3), piecewise linear and increasing in t_k, so
  it has one closed-form root.  When the implied compute-phase efficiency MFU·t_e/t_k
  exceeds the accelerator's measured max achievable matmul fraction (1 if unknown),
  ``mfu_gap_exceeded`` is set: the stated MFU is optimistic for this network.
* ``compute_only``: the MFU is the efficiency of the compute phases alone and
  step = t_c + bubble + exposed DP + TP + PP.

Scaling efficiency: the compute share of the step (modelled), or t_c / (t_c + t_b + exposed
DP + TP + PP) with t_c at the stated MFU (informational under ``end_to_end``).

Memory per accelerator (first pipeline stage): model states (2 + g + 12 bytes per
parameter, g = 2 for bf16 or 4 for Megatron's fp32 gradients, sharded by t·p and by d for
the ZeRO stages [4]) plus the activations of the micro-batches in flight; a configuration
whose sum exceeds the usable HBM, that splits fewer layers than stages, gives less than
one sequence per micro-batch, or lacks a measured matmul efficiency (modelled basis)
cannot run: NaN times, ``memory_fits`` = 0, and :func:`infeasibility_reason` says why.

References
----------
[1] J. Kaplan et al., "Scaling Laws for Neural Language Models", arXiv:2001.08361, 2020.
[2] A. Chowdhery et al., "PaLM", arXiv:2204.02311, 2022, Appendix B (MFU).
[3] D. Narayanan et al., "Efficient Large-Scale Language Model Training on GPU Clusters
    Using Megatron-LM", SC'21, arXiv:2104.04473.
[4] S. Rajbhandari et al., "ZeRO: Memory Optimizations Toward Training Trillion Parameter
    Models", SC'20, arXiv:1910.02054 (Fig. 1 memory, §7 communication volume).
[5] V. Korthikanti et al., "Reducing Activation Recomputation in Large Transformer Models",
    arXiv:2205.05198, 2022.
[6] A. Grattafiori et al., "The Llama 3 Herd of Models", arXiv:2407.21783, 2024, §3.3.2
    and Table 4 (38-43% BF16 MFU on 8,192-16,384 H100, end to end).
[7] S. Bekman, "Machine Learning Engineering Open Book", github.com/stas00/ml-engineering,
    compute/accelerator/README.md (maximum achievable matmul FLOPS) and network/README.md
    (NCCL all-reduce busbw).
[8] M. Isaev, N. McDonald, L. Dennison, R. Vuduc, "Calculon: a Methodology and Tool for
    High-Level Co-Design of Systems and Large Language Models", SC'23,
    doi:10.1145/3581784.3607102.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, NamedTuple

import numpy as np

from . import network as net
from . import transformer as tr
from ._tools import as_float_array, like_input

SECONDS_PER_DAY = 86_400.0
FLOPS_PER_PARAM_TOKEN = 6.0
GRAD_BYTES = 2.0  # bf16 gradients
#: Decimal gigabytes in one binary gigabyte: HBM is sold by binary capacity under the
#: label "GB" (JEDEC JESD100B.01 keeps giga = 2^30 for memory), so the catalog's
#: ``accel_memory_GiB`` holds the vendor's figure and the memory model, which counts
#: bytes / 1e9, converts it.  The driver confirms it: nvidia-smi reports 81,559 MiB on an
#: "H100 80GB" (79.6 GiB, 85.5 GB), 183,359 MiB on a B200 (179.1 GiB, 192.3 GB) and
#: 189,471 MiB on a GB200 (185.0 GiB, 198.7 GB) (docs/step-time.md, "Memory").
GB_PER_GIB = 2.0**30 / 1e9
#: With a stated MFU, ZeRO-3 re-gathers the weights: its data-parallel sync takes this
#: many times the gradient all-reduce (step_components).
ZERO3_SYNC_FACTOR = 1.5
ACT_BYTES = 2.0  # bf16 activations
MODEL_STATE_BYTES_PER_PARAM = 16.0


def train_flops(params_billion, tokens_trillion):
    """Training compute C = 6·N·D [FLOP] (Kaplan et al. 2020 [1]).

    Parameters
    ----------
    params_billion : array_like
        Parameters N [billion].
    tokens_trillion : array_like
        Training tokens D [trillion].

    Returns
    -------
    float or ndarray
        Training compute C [FLOP].

    Examples
    --------
    >>> f"{train_flops(405.0, 15.6):.3e}"  # Llama 3 405B, reported as 3.8e25 FLOPs
    '3.791e+25'
    """
    out = FLOPS_PER_PARAM_TOKEN * as_float_array(params_billion) * 1e9
    out = out * as_float_array(tokens_trillion) * 1e12
    return like_input(out, params_billion, tokens_trillion)


def pipeline_bubble_fraction(stages, micro_batches):
    """Idle share of a pipeline step: (p−1)/(m+p−1) (Narayanan et al. 2021 [3]).

    Parameters
    ----------
    stages, micro_batches : array_like
        Pipeline stages p and micro-batches m [count].

    Returns
    -------
    float or ndarray
        Idle share of the step [fraction].

    Examples
    --------
    >>> pipeline_bubble_fraction(4, 8)  # 3 / 11
    0.2727272727272727
    >>> pipeline_bubble_fraction(1, 8)
    0.0
    """
    p = as_float_array(stages)
    m = as_float_array(micro_batches)
    out = (p - 1.0) / (m + p - 1.0)
    return like_input(out, stages, micro_batches)


def dp_allreduce_bytes_per_param(zero_stage, gradient_bytes, micro_batches=1.0):
    """Data-parallel traffic per parameter and step, as the all-reduce of equal traffic [B].

    No ZeRO: the g-byte gradients are all-reduced.  ZeRO 1-2: a reduce-scatter of the
    gradients plus an all-gather of the bf16 weights, each half an all-reduce's traffic:
    (g + 2)/2.  ZeRO-3 gathers the weights twice (forward and backward) for every
    micro-batch m: (g + 4m)/2 (Rajbhandari et al. 2020, ZeRO, Sec. 7; FSDP frees the
    gathered weights after each micro-batch).  The modelled step and the Network page's
    algorithm table both use this.

    Parameters
    ----------
    zero_stage : ZeRO stage, 0-3.
    gradient_bytes : bytes per gradient (2 bf16, 4 fp32) [B].
    micro_batches : micro-batches per step m (ZeRO-3 only) [count].

    Returns
    -------
    float or ndarray
        Bytes per parameter [B].

    Examples
    --------
    >>> [float(dp_allreduce_bytes_per_param(z, 2.0)) for z in (0, 1, 3)]
    [2.0, 2.0, 3.0]
    >>> float(dp_allreduce_bytes_per_param(1, 4.0))  # fp32 gradients, bf16 weights
    3.0
    >>> float(dp_allreduce_bytes_per_param(3, 2.0, micro_batches=4))  # (2 + 16)/2
    9.0
    """
    z = as_float_array(zero_stage)
    g = as_float_array(gradient_bytes)
    m = as_float_array(micro_batches)
    out = np.select([z == 0, z < 3], [g, (g + 2.0) / 2.0], (g + 4.0 * m) / 2.0)
    return like_input(out, zero_stage, gradient_bytes, micro_batches)


def _state_split(zero_stage, gradient_bytes):
    """(replicated, sharded) model-state bytes per parameter: 2 + g + 12 in all, ZeRO
    stage 1 shards the 12 optimizer bytes, 2 also the g gradient bytes, 3 also the 2 weight
    bytes (:func:`models.transformer.model_state_bytes_per_param` at d = 1 and d = ∞)."""
    z = as_float_array(zero_stage)
    total = as_float_array(tr.model_state_bytes_per_param(0, gradient_bytes, 1.0))
    rep = as_float_array(tr.model_state_bytes_per_param(z, gradient_bytes, np.inf))
    return rep, total - rep


def usable_memory_GB(accel_memory_GiB, hbm_reserved_fraction):
    """HBM per accelerator left for model states and activations [GB, decimal]: the
    vendor's capacity, sold in binary gigabytes (:data:`GB_PER_GIB`), less the reserved
    share.

    Parameters
    ----------
    accel_memory_GiB : array_like
        HBM per accelerator as the vendor sells it [GiB].
    hbm_reserved_fraction : array_like
        Share kept back for the framework and fragmentation [fraction].

    Returns
    -------
    float or ndarray
        Usable memory per accelerator [GB], in the decimal units the memory model counts.

    Examples
    --------
    >>> round(usable_memory_GB(80, 0.1), 2)  # an H100 80GB: 85.9 GB, 90% usable
    77.31
    """
    out = (
        as_float_array(accel_memory_GiB)
        * GB_PER_GIB
        * (1.0 - as_float_array(hbm_reserved_fraction))
    )
    return like_input(out, accel_memory_GiB, hbm_reserved_fraction)


def model_state_GB_per_accel(
    params_billion, tensor_parallel, pipeline_parallel, dp, zero_stage, gradient_bytes=GRAD_BYTES
):
    """Model-state memory per accelerator for mixed-precision Adam [GB] (ZeRO [4], Fig. 1).

    Ψ' = Ψ/(t·p) parameters per model-parallel rank; with bf16 gradients (g = 2) stage 0:
    16Ψ', 1: 4Ψ' + 12Ψ'/d, 2: 2Ψ' + 14Ψ'/d, 3: 16Ψ'/d; other gradient precisions change
    the g bytes (:func:`models.transformer.model_state_bytes_per_param`, the step model's).

    Parameters
    ----------
    params_billion : array_like
        Parameters N [billion].
    tensor_parallel, pipeline_parallel : array_like
        t and p [count].
    dp : array_like
        Data-parallel ranks d [count].
    zero_stage : array_like
        ZeRO stage [0-3].
    gradient_bytes : array_like
        Gradient bytes per parameter g [bytes].

    Returns
    -------
    float or ndarray
        Model states per accelerator [GB].

    Examples
    --------
    >>> model_state_GB_per_accel(7.5, 1, 1, 64, 0)  # ZeRO paper: 7.5B, Nd = 64, baseline
    120.0
    >>> round(model_state_GB_per_accel(7.5, 1, 1, 64, 1), 4)  # P_os: 31.4 GB
    31.4062
    >>> model_state_GB_per_accel(7.5, 1, 1, 64, 3)  # P_os+g+p: 1.88 GB
    1.875
    >>> model_state_GB_per_accel(7.5, 1, 1, 64, 0, gradient_bytes=4)  # fp32 gradients
    135.0
    """
    psi = as_float_array(params_billion) / (
        as_float_array(tensor_parallel) * as_float_array(pipeline_parallel)
    )
    out = psi * as_float_array(
        tr.model_state_bytes_per_param(zero_stage, gradient_bytes, as_float_array(dp))
    )
    return like_input(
        out, params_billion, tensor_parallel, pipeline_parallel, dp, zero_stage, gradient_bytes
    )


def min_dp_to_fit(
    params_billion,
    tensor_parallel,
    pipeline_parallel,
    zero_stage,
    usable_GB,
    gradient_bytes=GRAD_BYTES,
):
    """Smallest data-parallel size whose model states fit in ``usable_GB`` per accelerator.

    Solves rep·Ψ' + shard·Ψ'/d ≤ U for integer d ≥ 1 (see :func:`model_state_GB_per_accel`);
    ``inf`` when no d fits (the replicated part alone is too large).

    Parameters
    ----------
    params_billion : array_like
        Parameters N [billion].
    tensor_parallel, pipeline_parallel : array_like
        t and p [count].
    zero_stage : array_like
        ZeRO stage [0-3].
    usable_GB : array_like
        Usable HBM per accelerator U [GB].
    gradient_bytes : array_like
        Gradient bytes per parameter g [bytes].

    Returns
    -------
    float or ndarray
        Smallest data-parallel size d [count]; ``inf`` when none fits.

    Examples
    --------
    >>> min_dp_to_fit(70.0, 8, 1, 3, 60.0)  # 16·8.75 GB / 60 GB = 2.33 -> 3
    3.0
    >>> min_dp_to_fit(405.0, 8, 1, 0, 60.0)
    inf
    """
    psi = as_float_array(params_billion) / (
        as_float_array(tensor_parallel) * as_float_array(pipeline_parallel)
    )
    u = as_float_array(usable_GB)
    rep, shard = _state_split(zero_stage, gradient_bytes)
    room = u - rep * psi
    with np.errstate(divide="ignore", invalid="ignore"):
        need = np.maximum(np.ceil(shard * psi / np.where(room > 0, room, 1.0) - 1e-9), 1.0)
    out = np.where(shard == 0, np.where(room >= 0, 1.0, np.inf), np.where(room > 0, need, np.inf))
    return like_input(
        out, params_billion, tensor_parallel, pipeline_parallel, zero_stage, usable_GB
    )


def min_nodes_to_fit(
    params_billion,
    tensor_parallel,
    pipeline_parallel,
    zero_stage,
    usable_GB,
    accelerators_per_node,
    gradient_bytes=GRAD_BYTES,
):
    """Fewest nodes whose accelerators hold the model states: ⌈t·p·d_min / k⌉ (``inf`` if none).

    Parameters
    ----------
    params_billion : array_like
        Parameters N [billion].
    tensor_parallel, pipeline_parallel : array_like
        t and p [count].
    zero_stage : array_like
        ZeRO stage [0-3].
    usable_GB : array_like
        Usable HBM per accelerator [GB].
    accelerators_per_node : array_like
        k [count].
    gradient_bytes : array_like
        Gradient bytes per parameter g [bytes].

    Returns
    -------
    float or ndarray
        Fewest nodes [count]; ``inf`` when none fits.

    Examples
    --------
    >>> min_nodes_to_fit(70.0, 8, 1, 3, 60.0, 8)  # 8 × 3 = 24 GPUs = 3 p5 nodes
    3.0
    """
    d = as_float_array(
        min_dp_to_fit(
            params_billion,
            tensor_parallel,
            pipeline_parallel,
            zero_stage,
            usable_GB,
            gradient_bytes,
        )
    )
    accels = d * as_float_array(tensor_parallel) * as_float_array(pipeline_parallel)
    with np.errstate(invalid="ignore"):
        out = np.ceil(accels / as_float_array(accelerators_per_node) - 1e-9)
    return like_input(
        out,
        params_billion,
        tensor_parallel,
        pipeline_parallel,
        zero_stage,
        usable_GB,
        accelerators_per_node,
    )


def fit_reason(
    params_billion: float,
    nodes: float,
    accelerators_per_node: float,
    accel_memory_GiB: float,
    hbm_reserved_fraction: float,
    tensor_parallel: float,
    pipeline_parallel: float,
    zero_stage: float,
    scaleup_domain_accels: float,
    scaleup_GBps: float | None = None,
    gradient_bytes: float = GRAD_BYTES,
) -> str:
    """Why this configuration cannot run (empty string when it can).  Scalars only.

    The model states are those of the chosen gradient precision (``gradient_bytes``, as the
    step model's ``model_states_GB_per_accel``), not a fixed 16 bytes per parameter.

    Parameters
    ----------
    params_billion : float
        Parameters N [billion].
    nodes, accelerators_per_node : float
        Nodes and accelerators per node [count].
    accel_memory_GiB : float
        HBM per accelerator, as the vendor sells it [GiB] (:data:`GB_PER_GIB`).
    hbm_reserved_fraction : float
        Share of HBM reserved (framework, fragmentation) [fraction].
    tensor_parallel, pipeline_parallel : float
        t and p [count].
    zero_stage : float
        ZeRO stage [0-3].
    scaleup_domain_accels : float
        Accelerators in one scale-up domain [count].
    scaleup_GBps : float
        Scale-up bandwidth [GB/s]; NaN = unknown.
    gradient_bytes : float
        Gradient bytes per parameter g [bytes].

    Returns
    -------
    str
        The blocking cause, or ``""``.

    Examples
    --------
    >>> fit_reason(70.0, 2, 8, 80.0, 0.25, 16, 1, 3, 8)[:40]
    'tensor-parallel size 16 exceeds the scal'
    >>> fit_reason(70.0, 100, 8, 80.0, 0.25, 8, 1, 3, 8, 900.0)
    ''
    """
    t, p, z = int(tensor_parallel), int(pipeline_parallel), int(zero_stage)
    n = nodes * accelerators_per_node
    if t > scaleup_domain_accels:
        return (
            f"tensor-parallel size {t} exceeds the scale-up domain ({int(scaleup_domain_accels)}"
            " accelerators): TP traffic must stay inside NVLink/NeuronLink"
        )
    if t > 1 and (scaleup_GBps is None or not math.isfinite(scaleup_GBps)):
        return (
            "the catalog has no scale-up (NeuronLink/NVLink) bandwidth for this instance, "
            "so tensor-parallel traffic cannot be modelled; use tensor_parallel = 1"
        )
    if n < t * p:
        return f"TP × PP = {t * p} needs more accelerators than the job has ({int(n)})"
    usable = float(usable_memory_GB(accel_memory_GiB, hbm_reserved_fraction))
    d = n / (t * p)
    need = float(model_state_GB_per_accel(params_billion, t, p, d, z, gradient_bytes))
    if need <= usable:
        return ""
    nmin = float(
        min_nodes_to_fit(params_billion, t, p, z, usable, accelerators_per_node, gradient_bytes)
    )
    where = (
        f"needs at least {nmin:,.0f} nodes"
        if math.isfinite(nmin)
        else "does not fit at any node count: raise ZeRO stage, TP or PP"
    )
    return (
        f"model states need {need:,.1f} GB per accelerator (ZeRO stage {z}, TP {t}, PP {p}, "
        f"{gradient_bytes:g}-byte gradients), "
        f"more than the {usable:,.1f} GB usable ({accel_memory_GiB:g} GiB HBM minus "
        f"{hbm_reserved_fraction:.0%} reserved for activations); {where}"
    )


def _hide_window_share(zero_stage):
    """Share w of the compute phase behind which the DP sync can hide [-].

    w = 1 for ZeRO-3 (the sync spans forward and backward), else 2/3 (the backward pass).

    >>> _hide_window_share(np.array([1.0, 3.0])).tolist()
    [0.6666666666666666, 1.0]
    """
    return np.where(zero_stage >= 3, 1.0, 2.0 / 3.0)


def _dp_sync_seconds(psi, t, p, d, z, su, dom, net_share, alpha_scaleup_us, alpha_network_us):
    """Whole data-parallel gradient synchronisation per step [s].

    A hierarchical, overlapped all-reduce (:func:`models.network.hierarchical_allreduce_seconds`)
    of 2·N/(t·p) bf16 gradient bytes over g = min(max(⌊dom/t⌋, 1), max(d, 1)) ranks inside the
    scale-up domain (Megatron's rank order tp-cp-ep-dp-pp puts DP neighbours together) and
    max(d/g, 1) domains; times ``ZERO3_SYNC_FACTOR`` for ZeRO-3 (weights re-gathered).
    """
    g_in = np.clip(np.floor(dom / t), 1.0, None)
    g_in = np.minimum(g_in, np.maximum(d, 1.0))
    domains = np.maximum(d / g_in, 1.0)
    grad_bytes = GRAD_BYTES * psi / (t * p)
    su_for_dp = np.where(g_in > 1, su, 1.0)  # unused when g_in == 1 (no NaN leak)
    ar = as_float_array(
        net.hierarchical_allreduce_seconds(
            grad_bytes,
            g_in,
            domains,
            su_for_dp,
            net_share,
            alpha_scaleup_us,
            alpha_network_us,
            overlapped=True,
        )
    )
    return np.where(z >= 3, ZERO3_SYNC_FACTOR, 1.0) * ar


def _tp_seconds(layers, p, tokens, d, h, m, t, su, alpha_scaleup_us):
    """Tensor-parallel collectives per step [s] (0 when t = 1).

    4 ring all-reduces per layer of the stage's L/p layers, of (T/d)·h·2 bytes in all, over the
    scale-up bandwidth ``su`` [GB/s], plus 2·(t−1) latencies α per call, 4·(L/p)·m calls.
    """
    f = as_float_array
    tp_bytes = 4.0 * (layers / p) * (tokens / d) * h * ACT_BYTES
    calls = 4.0 * (layers / p) * m
    with np.errstate(invalid="ignore"):
        return np.where(
            t > 1,
            f(net.ring_allreduce_seconds(tp_bytes, np.maximum(t, 1.0), su, 0.0))
            + 2.0 * (t - 1.0) * calls * f(alpha_scaleup_us) * net.US,
            0.0,
        )


def _pp_seconds(tokens, d, h, t, p, m, net_share, alpha_network_us):
    """Pipeline point-to-point transfers per step [s] (0 when p = 1).

    2·(T/d)·h·2/t bytes over the per-rank network share [GB/s] plus 2·m latencies α.

    >>> float(_pp_seconds(1e6, 1.0, 1000.0, 1.0, 2.0, 1.0, 4.0, 0.0))
    1.0
    """
    pp_bytes = 2.0 * (tokens / d) * h * ACT_BYTES / t
    return np.where(
        p > 1,
        pp_bytes / (net_share * net.GB) + 2.0 * m * as_float_array(alpha_network_us) * net.US,
        0.0,
    )


def _end_to_end_split(c, mfu, max_matmul_fraction, e2e):
    """Split a fixed end-to-end step t_e into its compute phase (module docstring).

    Solves a·t_k + C − min(φ·S, w·t_k) = t_e for t_k ≥ 0 (a = 1 + (p−1)/(v·m), C = DP sync +
    TP + PP, φ·S = ``hidden_max``), from the terms ``c`` of :func:`_compute_only_terms`
    (t_e = its ``compute``); returns t_k [s], the DP sync left exposed [s], the implied
    compute-phase MFU MFU·t_e/t_k [fraction] and whether it exceeds the matmul bound (bool).
    """
    t_e, a, w, dp_sync, hidden_max = c["compute"], c["a"], c["w"], c["dp_sync"], c["hidden_max"]
    comm_all = dp_sync + c["tp"] + c["pp"]
    f = as_float_array
    tk_sat = (t_e - comm_all + hidden_max) / a  # overlap capped by φ·S
    with np.errstate(divide="ignore", invalid="ignore"):  # a = w: only when infeasible
        tk_win = np.where(a > w, (t_e - comm_all) / np.where(a > w, a - w, 1.0), 0.0)
    tk = np.where(w * tk_sat >= hidden_max, tk_sat, tk_win)
    tk = np.maximum(tk, 0.0)
    e_dp_exposed = dp_sync - np.minimum(hidden_max, w * tk)
    with np.errstate(divide="ignore", invalid="ignore"):
        phase_mfu = np.where(tk > 0, f(mfu) * t_e / np.where(tk > 0, tk, 1.0), np.inf)
    mmf = f(max_matmul_fraction)
    bound = np.where(np.isfinite(mmf), mmf, 1.0)
    gap_exceeded = e2e & ((tk <= 0) | (phase_mfu > bound * (1.0 + 1e-12)))
    return tk, e_dp_exposed, phase_mfu, gap_exceeded


def _compute_only_terms(args: Mapping[str, Any]) -> dict[str, Any]:
    """Step components with the MFU as compute-phase efficiency (the compute_only view) [s].

    compute = F·T/(n·peak·MFU), bubble = compute·(p−1)/(v·m) [3], DP sync
    (:func:`_dp_sync_seconds`) less min(φ·S, w·compute), TP and PP.  ``args``: the
    arguments of :func:`step_components` this view reads, by name (``flops_per_token`` and
    ``layers`` may be None).  Returns the terms the end-to-end split reuses.
    """
    f = as_float_array
    psi = f(args["params_billion"]) * 1e9
    tokens = f(args["batch_million_tokens"]) * 1e6
    k = f(args["accelerators_per_node"])
    n = f(args["nodes"]) * k
    t, p, m, z, h = (
        f(args[x])
        for x in (
            "tensor_parallel",
            "pipeline_parallel",
            "micro_batches",
            "zero_stage",
            "hidden_size",
        )
    )
    d = n / (t * p)
    fpt = args["flops_per_token"]
    fpt = FLOPS_PER_PARAM_TOKEN * psi if fpt is None else f(fpt)
    compute = fpt * tokens / (n * f(args["peak_tflops"]) * 1e12 * f(args["mfu"]))
    vst = f(args["virtual_stages"])
    a = 1.0 + (p - 1.0) / (vst * m)
    bubble = compute * (p - 1.0) / (vst * m)
    su = f(args["scaleup_GBps_bidir"]) / 2.0 * f(args["scaleup_efficiency"])
    net_share = f(
        net.network_GBps_per_rank(args["node_network_gbps"], k, args["inter_node_efficiency"])
    )
    dom = f(args["scaleup_domain_accels"])
    dp_sync = _dp_sync_seconds(
        psi, t, p, d, z, su, dom, net_share, args["alpha_scaleup_us"], args["alpha_network_us"]
    )
    w = _hide_window_share(z)
    hidden_max = f(args["overlap_fraction"]) * dp_sync
    dp_exposed = dp_sync - np.minimum(hidden_max, w * compute)
    layers = args["layers"]
    layers = psi / (12.0 * h * h) if layers is None else f(layers)
    tp = _tp_seconds(layers, p, tokens, d, h, m, t, su, args["alpha_scaleup_us"])
    pp = _pp_seconds(tokens, d, h, t, p, m, net_share, args["alpha_network_us"])
    step_sum = compute + bubble + dp_exposed + tp + pp
    return {
        "compute": compute,
        "bubble": bubble,
        "a": a,
        "w": w,
        "dp_sync": dp_sync,
        "dp_exposed": dp_exposed,
        "hidden_max": hidden_max,
        "tp": tp,
        "pp": pp,
        "step_sum": step_sum,
        "p": p,
        "m": m,
        "vst": vst,
    }


def step_components(
    *,
    params_billion,
    batch_million_tokens,
    nodes,
    accelerators_per_node,
    peak_tflops,
    mfu,
    hidden_size,
    tensor_parallel,
    pipeline_parallel,
    micro_batches,
    zero_stage,
    overlap_fraction,
    scaleup_GBps_bidir,
    scaleup_domain_accels,
    node_network_gbps,
    inter_node_efficiency,
    alpha_network_us,
    alpha_scaleup_us,
    end_to_end=False,
    max_matmul_fraction=np.nan,
    flops_per_token=None,
    layers=None,
    scaleup_efficiency=1.0,
    virtual_stages=1.0,
) -> dict[str, np.ndarray]:
    """Seconds per optimizer step by component (module docstring), as arrays.

    Parameters
    ----------
    params_billion, batch_million_tokens, nodes, accelerators_per_node : array_like
        Parameters N [billion], tokens per step T [million], nodes and accelerators [count].
    peak_tflops, mfu : array_like
        Dense peak [TFLOP/s per accelerator]; MFU [fraction] on the basis ``end_to_end``.
    hidden_size, tensor_parallel, pipeline_parallel, micro_batches, zero_stage : array_like
        h [-]; t, p, m [count]; ZeRO stage [0-3].
    overlap_fraction : array_like
        Share φ of the DP sync that may overlap compute [fraction].
    scaleup_GBps_bidir, scaleup_domain_accels, scaleup_efficiency : array_like
        Datasheet scale-up bandwidth, both directions [GB/s] (half used per direction, times
        the efficiency [fraction]; NaN makes TP and in-domain DP traffic unknown); domain
        size [accelerators].
    node_network_gbps, inter_node_efficiency : array_like
        Scale-out bandwidth [Gbit/s per node]; its achieved share [fraction].
    alpha_network_us, alpha_scaleup_us : array_like
        Per-message latency α, scale-out and scale-up [µs].
    end_to_end, max_matmul_fraction : bool or array_like
        True: the MFU is end to end, the step is 6·N·T/(n·peak·MFU) (PaLM App. B [2]) and
        ``compute_s`` the implied compute phase, bounded by the matmul fraction [fraction].
    flops_per_token, layers, virtual_stages : array_like, optional
        FLOPs per token [FLOP] (default 6·N), layers [count] (default N/(12h²), Kaplan [1]),
        interleaved chunks v [count]: the bubble is (p−1)/(v·m) of the compute [3].

    Returns
    -------
    dict of str to ndarray
        ``compute_s``, ``bubble_s``, ``dp_sync_s`` (whole DP sync), ``dp_exposed_s``, ``tp_s``,
        ``pp_s``, ``step_s`` [s]; ``scaling_efficiency`` (compute_only view),
        ``compute_share_of_step``, ``end_to_end_mfu``, ``compute_phase_mfu`` [fraction];
        ``mfu_gap_exceeded`` (1.0/0.0).

    Examples
    --------
    >>> kw = dict(params_billion=70.0, batch_million_tokens=16.0, nodes=128,
    ...     accelerators_per_node=8, peak_tflops=989.0, mfu=0.4, hidden_size=8192,
    ...     tensor_parallel=8, pipeline_parallel=1, micro_batches=1, zero_stage=1,
    ...     overlap_fraction=0.0, scaleup_GBps_bidir=900.0, scaleup_domain_accels=8,
    ...     node_network_gbps=3200.0, inter_node_efficiency=1.0, alpha_network_us=0.0,
    ...     alpha_scaleup_us=0.0)
    >>> round(float(step_components(**kw)["compute_s"]), 4)  # 6·70e9·16e6/(1024·989e12·0.4)
    16.5887
    >>> round(float(step_components(**kw, end_to_end=True)["step_s"]), 4)  # comm in the MFU
    16.5887
    """
    args = {
        "params_billion": params_billion,
        "batch_million_tokens": batch_million_tokens,
        "nodes": nodes,
        "accelerators_per_node": accelerators_per_node,
        "peak_tflops": peak_tflops,
        "mfu": mfu,
        "hidden_size": hidden_size,
        "tensor_parallel": tensor_parallel,
        "pipeline_parallel": pipeline_parallel,
        "micro_batches": micro_batches,
        "zero_stage": zero_stage,
        "overlap_fraction": overlap_fraction,
        "scaleup_GBps_bidir": scaleup_GBps_bidir,
        "scaleup_domain_accels": scaleup_domain_accels,
        "node_network_gbps": node_network_gbps,
        "inter_node_efficiency": inter_node_efficiency,
        "alpha_network_us": alpha_network_us,
        "alpha_scaleup_us": alpha_scaleup_us,
        "flops_per_token": flops_per_token,
        "layers": layers,
        "scaleup_efficiency": scaleup_efficiency,
        "virtual_stages": virtual_stages,
    }
    return _components_out(_compute_only_terms(args), mfu, max_matmul_fraction, end_to_end)


def _components_out(c: Mapping[str, Any], mfu, max_matmul_fraction, end_to_end):
    """:func:`step_components`' figures from the compute-only terms ``c``
    (:func:`_compute_only_terms`) under the MFU basis: end to end (the step is the 6·N·T
    time and the compute phase is implied, :func:`_end_to_end_split`) or compute only (the
    step is the sum of the terms)."""
    f = as_float_array
    compute, dp_sync, step_sum = c["compute"], c["dp_sync"], c["step_sum"]
    e2e = np.asarray(end_to_end, dtype=bool)
    tk, e_dp_exposed, phase_mfu, gap_exceeded = _end_to_end_split(c, mfu, max_matmul_fraction, e2e)
    compute_out = np.where(e2e, tk, compute)
    step = np.where(e2e, compute, step_sum)
    scaling = compute / step_sum  # the compute_only view under both bases
    return {
        "compute_s": compute_out,
        "bubble_s": np.where(e2e, tk * (c["p"] - 1.0) / (c["vst"] * c["m"]), c["bubble"]),
        "dp_sync_s": dp_sync,
        "dp_exposed_s": np.where(e2e, e_dp_exposed, c["dp_exposed"]),
        "tp_s": c["tp"],
        "pp_s": c["pp"],
        "step_s": step,
        "scaling_efficiency": scaling,
        "compute_share_of_step": compute_out / step,
        "end_to_end_mfu": np.where(e2e, f(mfu), f(mfu) * scaling),
        "compute_phase_mfu": np.where(e2e, phase_mfu, f(mfu)),
        "mfu_gap_exceeded": gap_exceeded.astype(float),
    }


# --------------------------------------------------------------------------- modelled step
#: Share of the HBM datasheet bandwidth that streaming (memory-bound) kernels reach; an
#: assumption of the order the vendors' STREAM-like figures show (docs/step-time.md).
HBM_EFFICIENCY = 0.9
#: Bytes the Adam step reads and writes per parameter it updates: fp32 master, momentum,
#: variance (read + write), the gradient (read) and the bf16 weight (write).
OPTIMIZER_TRAFFIC_BYTES = 32.0


def compute_seconds(flops, peak_tflops, matmul_fraction):
    """Time of ``flops`` at the accelerator's measured max achievable matmul rate [s].

    flops / (peak · MAMF/peak): the kernel efficiency is the catalog's measured maximum
    achievable matmul fraction (stas00/ml-engineering, compute/accelerator/README.md).

    Parameters
    ----------
    flops : array_like
        Work [FLOP].
    peak_tflops : array_like
        Dense peak [TFLOP/s per accelerator].
    matmul_fraction : array_like
        Measured max achievable matmul fraction of peak [fraction].

    Returns
    -------
    float or ndarray
        Time [s].

    Examples
    --------
    >>> compute_seconds(794.5e12, 989.0, 0.8033)  # one second at H100's 794.5 TFLOPS MAMF
    1.0000...
    """
    out = as_float_array(flops) / (as_float_array(peak_tflops) * 1e12)
    out = out / as_float_array(matmul_fraction)
    return like_input(out, flops, peak_tflops, matmul_fraction)


def memory_bound_seconds(bytes_moved, hbm_TBps, efficiency=None):
    """Time of streaming kernels (norms, activations, dropout, residuals) [s]:
    bytes / (HBM bandwidth · efficiency), by default :data:`HBM_EFFICIENCY`.

    Parameters
    ----------
    bytes_moved : array_like
        HBM traffic [bytes].
    hbm_TBps : array_like
        HBM bandwidth [TB/s].
    efficiency : array_like, optional
        Achieved share of it [fraction]; default :data:`HBM_EFFICIENCY`.

    Returns
    -------
    float or ndarray
        Time [s].

    Examples
    --------
    >>> round(memory_bound_seconds(3.015e12, 3.35), 6)  # 3.015 TB at 90% of 3.35 TB/s
    1.0
    """
    eff = HBM_EFFICIENCY if efficiency is None else as_float_array(efficiency)
    out = as_float_array(bytes_moved) / (as_float_array(hbm_TBps) * 1e12 * eff)
    return like_input(out, bytes_moved, hbm_TBps)


def pipeline_seconds(micro_batch_seconds, micro_batches, pipeline_parallel, virtual_stages):
    """One step of a (interleaved) 1F1B pipeline: (m + (p−1)/v) · t_mb [s].

    t_mb is one micro-batch's forward and backward through a stage, its recomputation and
    its exposed tensor- and pipeline-parallel communication included: the bubble of
    (p−1)/v micro-batch times (Narayanan et al. 2021 [3], §2.2.2) idles all of it.

    Parameters
    ----------
    micro_batch_seconds : array_like
        t_mb [s].
    micro_batches, pipeline_parallel, virtual_stages : array_like
        m, p and v [count].

    Returns
    -------
    float or ndarray
        Pipeline time of one step [s].

    Examples
    --------
    >>> pipeline_seconds(1.0, 64, 8, 1)  # 64 + 7
    71.0
    >>> pipeline_seconds(1.0, 64, 8, 3)  # 64 + 7/3
    66.33333333333333
    """
    p = as_float_array(pipeline_parallel)
    out = as_float_array(micro_batch_seconds) * (
        as_float_array(micro_batches) + (p - 1.0) / as_float_array(virtual_stages)
    )
    return like_input(out, micro_batch_seconds, micro_batches, pipeline_parallel, virtual_stages)


GEMM_TRAFFIC = 1.0

# ----------------------------------------------------------------- calibrated constants
#: Share of the measured max achievable matmul rate (MAMF) that the transformer's GEMMs
#: sustain in a training run (shapes split by TP, kernels sharing SMs with overlapped
#: communication, clocks under sustained load).  A systematic constant fitted by
#: leave-one-source-out cross-validation (``tests/validation/step_loso.py``) on all
#: validation sources; the held-out errors are in docs/step-time.md.  1.0 (the top of its
#: grid) until NVIDIA's NeMo dense rows took the recomputation their configurations state
#: (none, for most) instead of a span from selective to full recomputation: 0.94 since.
GEMM_EFFICIENCY = 0.94
#: Fixed time per layer and pass (forward, each backward pass, each recomputed forward) of
#: one micro-batch [s]: kernel launches, host-side scheduling and the synchronisation gaps
#: between a layer's ~20-40 kernels.  Fitted with :data:`GEMM_EFFICIENCY` (same procedure;
#: 220 µs before the NeMo rows' stated recomputation).
LAYER_PASS_OVERHEAD_S = 240e-6
#: Share of the tensor-parallel collectives that overlapping (``tp_comm_overlap_fraction``
#: = 1, Megatron-Core's --tp-comm-overlap) actually hides: the collectives share SMs and
#: memory bandwidth with the GEMMs they overlap.  Fitted with :data:`GEMM_EFFICIENCY`
#: (1.0 before the NeMo rows' stated recomputation).
TP_OVERLAP_EFFICIENCY = 0.8
#: The 80% prediction interval of the modelled step as ratios to the point value: the
#: 10th and 90th percentiles of measured/modelled step time over the held-out cases of the
#: leave-one-source-out cross-validation (``tests/validation/step_loso.py``).  The upper end
#: rose from 1.13 to 1.16 when NVIDIA's long-sequence page joined (its H100 runs of 16k to
#: 1M tokens, NeMo 24.03.01, are slower than modelled by 12-38%), was 1.15 with NeMo
#: 25.02's and 25.04's rows, and is (0.91, 1.19) since NVIDIA's dense rows take the
#: recomputation their configurations state (the early Blackwell releases, 25.02 and 25.04,
#: are then 15-42% slower than modelled; before, (0.93, 1.15)).  Since the steps of at
#: most :data:`FEW_MICROBATCHES` micro-batches have their own interval
#: (:data:`FEW_MICROBATCH_STEP_INTERVAL_RATIO`), this one is the percentiles of the other
#: dense cases' residuals (110 of 162): (0.89, 1.16) instead of (0.91, 1.19) for all.
STEP_INTERVAL_RATIO = (0.89, 1.16)
#: Micro-batches per step at or below which a dense step takes
#: :data:`FEW_MICROBATCH_STEP_INTERVAL_RATIO` instead of :data:`STEP_INTERVAL_RATIO`.
FEW_MICROBATCHES = 2.0
#: The dense interval for steps of at most :data:`FEW_MICROBATCHES` micro-batches per
#: data-parallel rank: the 10th and 90th percentiles of the held-out residuals of the
#: dense cases in that regime (52 of 162), kept apart from the others'.  Held out, the
#: model is optimistic there (measured over modelled 1.05 at the geometric mean with one
#: micro-batch, 1.08 with two, 1.01 with more than two): what a step does once, whatever
#: its micro-batches, is spread over one or two passes (the data-parallel reduction and
#: weight gathering overlapping them, the optimizer and the training loop's own work),
#: and the model charges too little of it.  Which part is not resolved; the interval
#: says how much it moves the step.  Never fitted: MLPerf Training v5.1's Llama 3.1 8B
#: runs with one micro-batch a step on H100, B200 and GB200 (docs/step-time.md#mlperf)
#: are the check.
FEW_MICROBATCH_STEP_INTERVAL_RATIO = (0.92, 1.24)
#: The same for mixture-of-experts workloads, from the held-out MoE cases of the twelve MoE
#: sources (never fitted): the model stays optimistic on many of NVIDIA's MoE recipes
#: (GPT-OSS 120B on Blackwell in every release; in 25.11 and 26.02 the MoE rows on B200
#: and the small Qwen3-30B-A3B on H100, much less so in the later releases, where some
#: GB200 rows are faster than modelled), so the interval reaches much further above the
#: point than below.  (0.83, 1.64) before NeMo 25.02's and 25.04's Mixtral rows joined,
#: (0.85, 1.59) before the refit that NVIDIA's dense rows' stated recomputation brought,
#: (0.82, 1.53) before GPT-OSS's and DeepSeek-V3's attention weights were stated
#: (``workload.attention_params_million``) instead of entered as key/value heads.
MOE_STEP_INTERVAL_RATIO = (0.82, 1.54)

# ----------------------------------------------------------------- documented constants
#: Fused attention kernels (FlashAttention-2/3, cuDNN) in training, forward + backward, as
#: a fraction of the accelerator's max achievable matmul rate: FlashAttention-2 on A100
#: reaches about 50-60% of peak forward+backward at head dim 128 (Dao 2023,
#: arXiv:2307.08691, §4.1, Fig. 5-6) against a GEMM MAMF of 87%; FlashAttention-3 on H100
#: about 45-55% of peak against 80% (Shah et al. 2024, arXiv:2407.08608, §4.1): ~0.65.
ATTENTION_KERNEL_FRACTION = 0.65
#: A causal fused kernel skips the blocks above the diagonal: half the s² work.
CAUSAL_SKIP = 0.5
#: Fused attention FLOPs, forward + backward, over the forward's: forward QKᵀ and PV,
#: backward dV, dP, dQ, dK (2×) and the recomputed QKᵀ (0.5×) (Dao 2023 §3.1).
FLASH_PASSES = 3.5
#: Bytes moved per logit element by the output layer's softmax cross-entropy, counted
#: kernel by kernel in Megatron-Core's vocab-parallel cross-entropy (megatron/core/
#: tensor_parallel/cross_entropy.py, the default unfused path): forward, the GEMM writes
#: the bf16 logits (2), ``.float()`` reads them and writes an fp32 copy (2 + 4), the max
#: reads it (4), the in-place subtraction of the max, ``exp`` and the division by the sum
#: each read and write it (3 × 8), the sum reads it (4): 40; backward, the in-place
#: multiplication by the loss gradient (8), the cast back to bf16 (4 + 2) and the two
#: backward GEMMs reading the bf16 gradient (2 + 2): 18.  58 in all (the previous count of
#: 20 left out the three in-place passes over the fp32 copy).
LOGIT_BYTES_PER_ELEMENT = 58.0
#: Gradients per data-parallel bucket, at least [parameters], and per rank of the
#: data-parallel group [parameters]: Megatron-Core's default bucket is max(40M, 1M·n) over
#: the group's n ranks, "large enough to remain bandwidth-bound rather than latency-bound"
#: (megatron/core/distributed/distributed_data_parallel.py; Megatron-Bridge sizes it on
#: the data- and context-parallel group).  The last bucket's reduction starts after the
#: last gradient is computed, so it cannot hide (:func:`dp_bucket_params`).
DP_BUCKET_PARAMS = 40e6
DP_BUCKET_PARAMS_PER_RANK = 1e6
#: Dense FP8 GEMMs reach this share of the FP8 peak relative to what BF16 GEMMs reach of
#: the BF16 peak: the same fraction (1.0).  The MAMF table we use for BF16 now lists FP8
#: too (stas00/ml-engineering compute/accelerator/README.md, float8_e4m3fn: H100 70.9%,
#: H200 73.4%, B200 76.3%, GB200 72.3%, against BF16's 80.3%, 77.6%, 72.9%); taken as the
#: FP8 layers' fraction it made the held-out dense cases 10.1% off instead of 8.8% (and
#: moved the fit: GEMM 0.96, 320 µs), so the FP8 training rows run closer to the FP8 peak
#: than a single square-ish FP8 matmul does there: 1.0 is kept (docs/step-time.md).
FP8_GEMM_RELATIVE = 1.0
#: Bytes per element of each GEMM input that FP8 adds: Transformer Engine fuses the cast
#: into the norm or activation kernel before the GEMM, which then writes a 1-byte copy.
FP8_CAST_BYTES = 1.0

#: FlashAttention-2's rate, forward and backward, relative to the fused kernels Megatron-Core
#: runs (cuDNN, FlashAttention-3) on accelerators with FP8 tensor cores (Hopper and later).
#: Shah et al. 2024 (FlashAttention-3, arXiv:2407.08608) measure on an H100 SXM5 with head
#: dimension 128 a forward pass of 350-370 TFLOP/s for FlashAttention-2 against 565-646
#: for FlashAttention-3 and 574-617 for cuDNN from 1k to 16k tokens (Fig. 5), and state
#: that FlashAttention-2 reaches 35% of the H100's peak: 0.58-0.62 of the newer kernels,
#: 0.6 here.  On the A100 FlashAttention-2 is itself the reference kernel
#: (:data:`ATTENTION_KERNEL_FRACTION`), so the ratio is 1 there (no FP8 peak in the
#: catalog).  Blackwell parts are taken as Hopper: FlashAttention-2 has no kernel of its
#: own for them.
FA2_RELATIVE_WITH_FP8_CORES = 0.6
#: Software-stack profiles (``workload.software_stack``, :class:`models.choices.SoftwareStack`
#: order): [can overlap TP collectives, can overlap DP reduction, can interleave the
#: pipeline, runs a fused attention kernel when flash_attention is on, its fused attention
#: kernel's rate relative to Megatron-Core's on accelerators with FP8 tensor cores, overlaps
#: an interleaved schedule's pipeline sends with compute (Megatron-Core's overlap_p2p_comm,
#: :func:`pipeline_send_seconds`; torchtitan's may too, but no source says how much)].
STACKS = np.array(
    [
        [1.0, 1.0, 1.0, 1.0, 1.0, 1.0],  # megatron-core (0.8+; NeMo)
        [0.0, 0.0, 1.0, 0.0, 1.0, 0.0],  # megatron-lm-2022 (Korthikanti et al.)
        [0.0, 0.0, 1.0, 0.0, 1.0, 0.0],  # megatron-lm-2021 (Narayanan et al.)
        [0.0, 0.0, 0.0, 0.0, 1.0, 0.0],  # deepspeed-megatron (MT-NLG, BLOOM)
        # pytorch-fsdp (torchtitan, LLM Foundry): FSDP's prefetched gathers and overlapped
        # reduce-scatters, interleaved 1F1B (torchtitan), FlashAttention-2 through PyTorch's
        # scaled_dot_product_attention or flash-attn 2; tensor parallelism as plain
        # collectives (torchtitan's async TP gained 1.04-1.16× in its own benchmark,
        # benchmarks/asyncTP_llama3_h100_2025-06_torchtitan.md: not modelled)
        [0.0, 1.0, 1.0, 1.0, FA2_RELATIVE_WITH_FP8_CORES, 0.0],
    ]
)
#: Share of Megatron-LM's kernel rates (GEMMs, attention, memory-bound kernels) that a
#: stack's micro-batches reach, in :data:`STACKS` order.  Megatron-Core and the two
#: Megatron-LM releases are the reference (1: the fitted :data:`GEMM_EFFICIENCY` and
#: ``HBM_EFFICIENCY`` carry them).  DeepSpeed's pipeline engine is fitted: its two
#: published runs, MT-NLG 530B and BLOOM 176B, are both slower per micro-batch than the
#: same physics predicts (MT-NLG's 530B about a fifth slower than Megatron-LM's own run of
#: the same model on the same DGX A100s, Narayanan et al. 2021 Table 1), and no documented
#: cost explains it (docs/step-time.md#mt-nlg).  An empirical constant, not physics: fitted
#: by the same leave-one-source-out cross-validation (``tests/validation/step_loso.py``),
#: so each of the two sources is predicted from the other alone.  PyTorch's FSDP trainers
#: are fitted the same way on four sources (LLM Foundry's MPT table of January 2024,
#: torchtitan's benchmark pages of December 2024 and June 2025 on H100, and Trainy's
#: torchtitan runs on H200 of June 2025): 0.87 on all four, each predicted from the other
#: three (unfused element-wise kernels in eager PyTorch, FSDP's
#: copies in and out of its flat buffers, no fused GEMM epilogues; torch.compile, which
#: fuses some of it, cannot be entered and sits inside the spread).
STACK_KERNEL_EFFICIENCY = np.array([1.0, 1.0, 1.0, 0.94, 0.87])
#: Which stacks' efficiency is fitted (the others have no second source to fit it on).
STACK_EFFICIENCY_FITTED = np.array([False, False, False, True, True])
#: The lowest and highest value each stack's efficiency took in the leave-one-source-out
#: folds: the DeepSpeed engine's two sources disagree (MT-NLG predicted from BLOOM alone:
#: 0.94; BLOOM from MT-NLG alone: 0.81; the folds whose shared GEMM efficiency moves to
#: 0.95-0.96, 0.92-0.93), so a scenario on that stack spans them in its 80% interval
#: (:func:`_interval`); PyTorch FSDP's folds agree within 0.84-0.89; the reference stacks
#: have no spread.  (Each is a share on top of :data:`GEMM_EFFICIENCY`: DeepSpeed's 0.94
#: at 0.94 is the 0.89 it was at 1.0.)
STACK_KERNEL_EFFICIENCY_RANGE = np.array(
    [[1.0, 1.0], [1.0, 1.0], [1.0, 1.0], [0.81, 0.94], [0.84, 0.89]]
)


def attention_seconds(attn_fwd_flops, peak_tflops, matmul_fraction, fused, causal=1.0):
    """Forward + backward time of self-attention's score and value products [s].

    Fused kernels (``fused`` = 1) run at :data:`ATTENTION_KERNEL_FRACTION` of the GEMM rate,
    do :data:`FLASH_PASSES` times the forward FLOPs (the backward recomputes QKᵀ) and skip
    the masked half when causal (:data:`CAUSAL_SKIP`); materialised attention (0) runs the
    products as batched GEMMs at the GEMM rate, forward and backward (3×), mask included.

    Parameters
    ----------
    attn_fwd_flops : forward FLOPs of QKᵀ and PV, 4·b·s²·h/t [FLOP].
    peak_tflops : dense peak [TFLOP/s].
    matmul_fraction : sustained GEMM fraction of peak (MAMF × :data:`GEMM_EFFICIENCY`).
    fused : 1 for a fused (flash) kernel, 0 for materialised scores.
    causal : 1 when the mask is causal (decoder), 0 otherwise.

    Returns
    -------
    Seconds.

    Examples
    --------
    >>> round(attention_seconds(1e12, 1000.0, 0.5, 1, 1), 6)  # 1e12·3.5·0.5/(1e15·0.5·0.65)
    0.005385
    >>> round(attention_seconds(1e12, 1000.0, 0.5, 0, 1), 6)  # 3e12 / 5e14
    0.006
    """
    fused = as_float_array(fused) > 0.5
    skip = np.where(as_float_array(causal) > 0.5, CAUSAL_SKIP, 1.0)
    work = as_float_array(attn_fwd_flops) * np.where(fused, FLASH_PASSES * skip, 3.0)
    rate = as_float_array(peak_tflops) * 1e12 * as_float_array(matmul_fraction)
    out = work / (rate * np.where(fused, ATTENTION_KERNEL_FRACTION, 1.0))
    return like_input(out, attn_fwd_flops, peak_tflops, matmul_fraction, fused, causal)


def logits_memory_bytes(tokens, vocab_size, tensor_parallel):
    """HBM traffic of the output layer's logits, softmax and cross-entropy, forward and
    backward, for ``tokens`` tokens on one TP rank [bytes]:
    tokens · V/t · :data:`LOGIT_BYTES_PER_ELEMENT`.

    Parameters
    ----------
    tokens : array_like
        Tokens on the rank [count].
    vocab_size : array_like
        V [-].
    tensor_parallel : array_like
        t [count].

    Returns
    -------
    float or ndarray
        HBM traffic [bytes].

    Examples
    --------
    >>> logits_memory_bytes(4096, 131072, 1) / 1e9  # one 4k sequence, 131k vocabulary
    31.138512896
    """
    out = as_float_array(tokens) * as_float_array(vocab_size) / as_float_array(tensor_parallel)
    out = out * LOGIT_BYTES_PER_ELEMENT
    return like_input(out, tokens, vocab_size, tensor_parallel)


def moe_permutation_bytes(tokens, hidden_size, experts_per_token, tensor_parallel):
    """HBM traffic of a mixture-of-experts layer's token permutations, forward, for
    ``tokens`` tokens on one rank [bytes]: 2·(2h + 6·k·h)/t (bf16).

    Megatron-Core's token dispatcher (megatron/core/transformer/moe/token_dispatcher.py,
    moe_utils.py ``permute``/``unpermute``) copies each token k times grouped by
    destination rank (read h, write k·h), sorts the received tokens by local expert (read
    and write k·h), restores the order after the experts (read and write k·h) and sums the
    k weighted outputs back into one token (read k·h, write h); each is a gather, not a
    GEMM, so it runs at HBM speed.  The backward pass moves the same bytes again.

    Parameters
    ----------
    tokens : array_like
        Tokens on the rank [count].
    hidden_size : array_like
        h [-].
    experts_per_token : array_like
        k, routed experts per token [count].
    tensor_parallel : array_like
        t [count].

    Returns
    -------
    float or ndarray
        HBM traffic per MoE layer forward [bytes].

    Examples
    --------
    >>> round(moe_permutation_bytes(4096, 7168, 8, 1) / 1e9, 4)  # DeepSeek-V3, 4k tokens
    2.936
    """
    h = as_float_array(hidden_size)
    k = as_float_array(experts_per_token)
    out = as_float_array(tokens) * 2.0 * (2.0 * h + 6.0 * k * h) / as_float_array(tensor_parallel)
    return like_input(out, tokens, hidden_size, experts_per_token, tensor_parallel)


def grad_accumulation_bytes(params_per_rank, gradient_bytes):
    """HBM traffic of accumulating one micro-batch's weight gradients into the gradient
    buffer [bytes]: read and write ``gradient_bytes`` per parameter of the rank
    (Megatron-LM accumulates into fp32 ``main_grad`` buffers for bf16 training,
    megatron/training/arguments.py; the weight-gradient GEMM adds into them).

    Parameters
    ----------
    params_per_rank : array_like
        Parameters on the rank [count].
    gradient_bytes : array_like
        Gradient bytes per parameter [bytes].

    Returns
    -------
    float or ndarray
        HBM traffic per micro-batch [bytes].

    Examples
    --------
    >>> grad_accumulation_bytes(1e9, 4) / 1e9  # 1B parameters, fp32 buffer
    8.0
    """
    out = 2.0 * as_float_array(params_per_rank) * as_float_array(gradient_bytes)
    return like_input(out, params_per_rank, gradient_bytes)


def stage_loads(layers, stages, last_stage_layers, mtp_modules, balanced):
    """What the pipeline's last stage and each other stage hold: transformer layers,
    output-layer passes and multi-token-prediction projections [count each].

    The output layer and the D multi-token-prediction modules (each one transformer layer,
    a projection of 2h × h and one more pass through the shared output layer; DeepSeek-AI
    2024, arXiv:2412.19437 §2.2) sit on the last stage.  With ``last_stage_layers`` n
    stated (a Megatron-Core pipeline layout), the last stage holds n layers and each other
    stage (L − n)/(p − 1).  Otherwise, unbalanced: every stage holds L/p layers and the
    last one the output layer and the MTP modules too (Megatron-LM's default); balanced:
    every stage an even share of all of it.  The step is paced by whichever stage takes
    longer (:func:`modelled_components` evaluates both).

    Parameters
    ----------
    layers : array_like
        L, transformer layers of the model [count].
    stages : array_like
        p, pipeline stages [count].
    last_stage_layers : array_like
        n, layers on the last stage; NaN = not stated (ignored on one stage) [count].
    mtp_modules : array_like
        D, multi-token-prediction modules [count].
    balanced : array_like
        1 where the stages are balanced (used when n is not stated), else 0 [-].

    Returns
    -------
    tuple of two tuples of ndarray
        ((layers, output-layer passes, projections) on the last stage, the same on each
        other stage) [count].

    Examples
    --------
    DeepSeek-V3's recipe on 16 stages: 1 of 61 layers with the MTP module and the loss on
    the last stage, 4 on each other:

    >>> last, other = stage_loads(61, 16, 1, 1, 0)
    >>> [float(a) for a in last], [float(a) for a in other]
    ([2.0, 2.0, 1.0], [4.0, 0.0, 0.0])
    >>> last, other = stage_loads(61, 16, np.nan, 1, 1)  # balanced: the same everywhere
    >>> [round(float(a), 4) for a in last] == [round(float(a), 4) for a in other]
    True
    """
    L = as_float_array(layers)
    p = as_float_array(stages)
    n = as_float_array(last_stage_layers)
    d = as_float_array(mtp_modules)
    bal = as_float_array(balanced) > 0.5
    stated = np.isfinite(n) & (p > 1.0)
    n0 = np.where(stated, n, 0.0)
    even = (L + d) / p, (1.0 + d) / p, d / p
    last = (
        np.where(stated, n0 + d, np.where(bal, even[0], L / p + d)),
        np.where(stated, 1.0 + d, np.where(bal, even[1], 1.0 + d)),
        np.where(stated, d, np.where(bal, even[2], d)),
    )
    other = (
        np.where(stated, (L - n0) / np.maximum(p - 1.0, 1.0), np.where(bal, even[0], L / p)),
        np.where(stated | ~bal, 0.0, even[1]),
        np.where(stated | ~bal, 0.0, even[2]),
    )
    other = tuple(np.where(p > 1.0, o, la) for o, la in zip(other, last, strict=True))
    return last, other


def recompute_share(recompute_layers, chunk_layers):
    """Share of a model chunk's layers that recompute their forward pass [fraction]:
    Megatron-Core's block method recomputes the first N layers of each chunk and keeps all
    the activations of the others (``megatron/core/transformer/transformer_block.py``,
    ``_checkpointed_forward``); N at or above the chunk's layers, or not given (NaN), is
    every layer.

    Parameters
    ----------
    recompute_layers : array_like
        N, layers recomputed per model chunk [count]; NaN for every layer.
    chunk_layers : array_like
        Layers in one model chunk, L/(p·v) [count].

    Returns
    -------
    float or ndarray
        min(N, chunk)/chunk, or 1 [fraction].

    Examples
    --------
    >>> float(recompute_share(5, 32))  # Llama 3 8B on one stage, 5 layers recomputed
    0.15625
    >>> float(recompute_share(float("nan"), 32)), float(recompute_share(40, 32))
    (1.0, 1.0)
    """
    n, c = as_float_array(recompute_layers), as_float_array(chunk_layers)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(np.isnan(n), 1.0, np.clip(n / c, 0.0, 1.0))
    return like_input(out, recompute_layers, chunk_layers)


def launch_overhead_seconds(layers, passes, overhead_s=None):
    """Fixed per-layer time of one micro-batch: layers × passes × :data:`LAYER_PASS_OVERHEAD_S`
    (kernel launches, host scheduling, gaps between kernels) [s].

    Parameters
    ----------
    layers : array_like
        Layers on the stage [count].
    passes : array_like
        Passes per layer (forward, backward, recomputation) [count].
    overhead_s : array_like, optional
        Per layer and pass [s]; default :data:`LAYER_PASS_OVERHEAD_S`.

    Returns
    -------
    float or ndarray
        Overhead per micro-batch [s].

    Examples
    --------
    >>> round(launch_overhead_seconds(24, 3, 1e-4), 6)  # 24 layers, fwd + 2 bwd passes
    0.0072
    """
    c = LAYER_PASS_OVERHEAD_S if overhead_s is None else overhead_s
    out = as_float_array(layers) * as_float_array(passes) * as_float_array(c)
    return like_input(out, layers, passes)


#: Kernels one dense transformer layer launches in a forward pass on a tensor-parallel
#: size of 1 (Megatron-Core with Transformer Engine): input norm, QKV GEMM, two rotary
#: embeddings, the fused attention kernel and its layout copy, output projection,
#: bias-dropout-add, pre-MLP norm, fc1 GEMM, SwiGLU and fc2 GEMM, bias-dropout-add [count]
#: (``megatron/core/transformer/transformer_layer.py``, ``attention.py``, ``mlp.py``).
#: :data:`LAYER_PASS_OVERHEAD_S` over this count is the host time per kernel launch.
DENSE_LAYER_KERNELS = 13.0
#: Kernels a dropless mixture-of-experts layer with the all-to-all token dispatcher launches
#: in a forward pass beyond a dense layer, the expert GEMMs not counted [count]: the router
#: (gating GEMM, softmax, top-k, two scatters building the routing map and the
#: probabilities, the auxiliary-loss reductions: 13), the dispatcher's metadata (tokens per
#: expert, per rank and per local expert, their all-gather over the EP group and the
#: device-to-host copies of the splits that size the all-to-all: 10), the fused
#: permutation (row-index map and gather: 4) and its inverse (1), sorting the received
#: tokens by local expert and back (2), the dispatch all-to-alls of tokens and
#: probabilities and the combine all-to-all (3) and the probability multiply of the
#: experts' output (1), less the dense MLP's bias-dropout-add and activation that the
#: expert path replaces by its own (−2); counted in Megatron-Core's ``moe/router.py``,
#: ``moe/token_dispatcher.py`` (``MoEAlltoAllTokenDispatcher``), ``moe/moe_utils.py``
#: (``permute``, ``unpermute``, ``sort_chunks_by_idxs`` with ``moe_permute_fusion``, as
#: NVIDIA's Megatron-Bridge MoE recipes set it; unfused they launch about 9 more) and
#: ``moe/experts.py``.
MOE_LAYER_EXTRA_KERNELS = 32.0
#: GEMMs per local expert in a forward pass (fc1 and fc2: Transformer Engine's
#: ``GroupedLinear`` launches one GEMM per expert; ``moe/experts.py`` ``TEGroupedMLP``),
#: replacing the dense MLP's two [count]
EXPERT_GEMMS = 2.0
#: Kernels a shared expert adds to a MoE layer's forward pass: fc1, activation, fc2 [count]
SHARED_EXPERT_KERNELS = 3.0


def moe_extra_kernels(experts, expert_parallel, shared_experts):
    """Kernels a dropless MoE layer launches per forward pass beyond a dense layer [count].

    :data:`MOE_LAYER_EXTRA_KERNELS` + :data:`EXPERT_GEMMS`·(E/EP − 1) +
    :data:`SHARED_EXPERT_KERNELS`·S: router, dispatcher metadata and its device-to-host
    sync, permutations, all-to-alls, and one GEMM per local expert and matrix instead of
    the dense MLP's one (Megatron-Core's all-to-all dispatcher; see the constants).  Each
    is charged at the host time per launch, ``LAYER_PASS_OVERHEAD_S /
    DENSE_LAYER_KERNELS``: the dispatcher's device-to-host sync, which sizes the
    all-to-all, empties the launch queue once per MoE layer, so the host cannot run ahead
    of the GPU and its launch time adds to the layer's (docs/step-time.md).

    Parameters
    ----------
    experts, expert_parallel, shared_experts : array_like
        Routed experts E, expert-parallel size EP, shared experts S [count].

    Returns
    -------
    float or ndarray
        Extra kernel launches per MoE layer and forward pass [count].

    Examples
    --------
    >>> float(moe_extra_kernels(128, 8, 0))  # GPT-OSS 120B, EP 8: 16 local experts
    62.0
    >>> float(moe_extra_kernels(256, 64, 1))  # DeepSeek-V3, EP 64: 4 local experts
    41.0
    """
    local = as_float_array(experts) / as_float_array(expert_parallel)
    out = (
        MOE_LAYER_EXTRA_KERNELS
        + EXPERT_GEMMS * (local - 1.0)
        + SHARED_EXPERT_KERNELS * as_float_array(shared_experts)
    )
    return like_input(out, experts, expert_parallel, shared_experts)


def optimizer_seconds(params_updated, hbm_TBps):
    """The Adam step of the parameters one rank updates [s]: :data:`OPTIMIZER_TRAFFIC_BYTES`
    per parameter through HBM at :data:`HBM_EFFICIENCY` (memory-bound; Megatron's fused
    multi-tensor Adam).

    Parameters
    ----------
    params_updated : array_like
        Parameters the rank updates [count].
    hbm_TBps : array_like
        HBM bandwidth [TB/s].

    Returns
    -------
    float or ndarray
        Optimizer step time [s].

    Examples
    --------
    >>> round(optimizer_seconds(1e9, 3.35), 5)  # 32 GB at 90% of 3.35 TB/s
    0.01061
    """
    return memory_bound_seconds(OPTIMIZER_TRAFFIC_BYTES * as_float_array(params_updated), hbm_TBps)


def dp_bucket_params(data_parallel_ranks):
    """Parameters per data-parallel gradient bucket [count]: Megatron-Core's default,
    max(:data:`DP_BUCKET_PARAMS`, :data:`DP_BUCKET_PARAMS_PER_RANK` · n).

    Parameters
    ----------
    data_parallel_ranks : array_like
        Ranks n of the data-parallel group (with context parallelism, the d·c replicas)
        [count].

    Returns
    -------
    float or ndarray
        Parameters per bucket [count].

    Examples
    --------
    >>> float(dp_bucket_params(32)), float(dp_bucket_params(256))
    (40000000.0, 256000000.0)
    """
    n = as_float_array(data_parallel_ranks)
    out = np.maximum(DP_BUCKET_PARAMS, DP_BUCKET_PARAMS_PER_RANK * n)
    return like_input(out, data_parallel_ranks)


def dp_exposed_seconds(dp_sync_s, overlap_fraction, hide_window_s, last_bucket_s):
    """The data-parallel reduction not hidden behind the backward pass [s].

    A share ``overlap_fraction`` of it can hide, up to ``hide_window_s`` of compute; the
    last bucket's own collective (:func:`dp_bucket_params` parameters, its full latency
    included) is always exposed: its gradients are ready only when the backward pass ends.

    Parameters
    ----------
    dp_sync_s : array_like
        Whole data-parallel reduction [s].
    overlap_fraction : array_like
        Share that can overlap [fraction].
    hide_window_s : array_like
        Compute it can hide behind [s].
    last_bucket_s : array_like
        The reduction of the last bucket alone [s] (at most ``dp_sync_s``).

    Returns
    -------
    float or ndarray
        Exposed reduction [s].

    Examples
    --------
    >>> dp_exposed_seconds(1.0, 1.0, 10.0, 0.12)  # fully overlapped: the last bucket remains
    0.12
    >>> dp_exposed_seconds(1.0, 0.0, 10.0, 0.12)
    1.0
    """
    s = as_float_array(dp_sync_s)
    hidden = np.minimum(as_float_array(overlap_fraction) * s, as_float_array(hide_window_s))
    out = np.maximum(s - hidden, np.minimum(as_float_array(last_bucket_s), s))
    return like_input(out, dp_sync_s, overlap_fraction, hide_window_s, last_bucket_s)


def all_to_all_seconds(bytes_per_rank, ranks, bandwidth_GBps, alpha_s):
    """One all-to-all of ``bytes_per_rank`` among ``ranks`` [s]: each rank keeps 1/r of its
    data and sends the rest, (r−1)/r · bytes at its bandwidth, in r−1 steps of latency α
    (NCCL-tests: all-to-all busbw = algbw · (r−1)/r).

    Parameters
    ----------
    bytes_per_rank : array_like
        Data per rank [bytes].
    ranks : array_like
        r [count].
    bandwidth_GBps : array_like
        Per-rank bandwidth [GB/s].
    alpha_s : array_like
        Per-step latency α [s].

    Returns
    -------
    float or ndarray
        All-to-all time [s].

    Examples
    --------
    >>> all_to_all_seconds(8e9, 8, 100.0, 0.0)  # 7/8 of 8 GB at 100 GB/s
    0.07
    """
    r = as_float_array(ranks)
    out = (r - 1.0) / r * as_float_array(bytes_per_rank) / (as_float_array(bandwidth_GBps) * 1e9)
    out = out + (r - 1.0) * as_float_array(alpha_s)
    return like_input(out, bytes_per_rank, ranks, bandwidth_GBps, alpha_s)


def all_to_all_across_domains_seconds(
    bytes_per_rank,
    ranks,
    ranks_per_domain,
    network_GBps,
    scaleup_GBps,
    alpha_network_s,
    alpha_scaleup_s,
):
    """One all-to-all among ranks spread over scale-up domains [s].

    Of each rank's bytes B, the share (r − g)/r goes to the ranks in other domains over the
    network and (g − 1)/r to the other ranks of its own domain over the scale-up links
    (NVLink, NeuronLink); the rank keeps 1/r.  NCCL runs an all-to-all as grouped sends and
    receives, each peer over the transport its topology gives (P2P over NVLink inside the
    node, the NIC across nodes), and the two kinds progress at once, so the all-to-all
    takes the longer leg: max((r − g)/r·B/bw_net + (r − g)·α_net, (g − 1)/r·B/bw_su +
    (g − 1)·α_su) (NVIDIA NCCL documentation, "Point-to-point communication": all-to-all
    as ncclGroupStart/ncclSend/ncclRecv).  With one rank per domain (g = 1) this is
    :func:`all_to_all_seconds` over the network; with every rank in one domain (g ≥ r),
    over the scale-up links.

    Parameters
    ----------
    bytes_per_rank : array_like
        B, data per rank [bytes].
    ranks : array_like
        r, ranks in the all-to-all [count].
    ranks_per_domain : array_like
        g, of those ranks in each scale-up domain (clipped to 1..r) [count].
    network_GBps, scaleup_GBps : array_like
        Per-rank network and scale-up bandwidth [GB/s].
    alpha_network_s, alpha_scaleup_s : array_like
        Per-step latency of each [s].

    Returns
    -------
    float or ndarray
        All-to-all time [s].

    Examples
    --------
    32 ranks on 4 nodes of 8: 24/32 of 4 GB over a 50 GB/s network (the 7/32 that stay in
    the node take 2.7 ms at 320 GB/s, beside it); over the network alone it would be
    31/32 of it, 77.5 ms:

    >>> round(float(all_to_all_across_domains_seconds(4e9, 32, 8, 50.0, 320.0, 0.0, 0.0)), 4)
    0.06
    """
    r = as_float_array(ranks)
    g = np.clip(as_float_array(ranks_per_domain), 1.0, r)
    b = as_float_array(bytes_per_rank)
    net = (r - g) / r * b / (as_float_array(network_GBps) * 1e9)
    net = net + (r - g) * as_float_array(alpha_network_s)
    inside = (g - 1.0) / r * b / (as_float_array(scaleup_GBps) * 1e9)
    inside = inside + (g - 1.0) * as_float_array(alpha_scaleup_s)
    out = np.maximum(net, inside)
    return like_input(
        out, bytes_per_rank, ranks, ranks_per_domain, network_GBps, scaleup_GBps, alpha_network_s
    )


def expert_remote_nodes(experts, experts_per_token, nodes, max_nodes=np.nan):
    """Expected number of distinct remote nodes a token's routed experts sit on [count].

    The E routed experts are spread evenly over the G nodes (scale-up domains) of the
    expert-parallel group, E/G each, and a token picks k of them uniformly without
    replacement.  A given node receives none of the k with probability
    C(E − E/G, k) / C(E, k), so the expected number of distinct destination nodes is
    D = G·(1 − C(E − E/G, k)/C(E, k)).  Under node-limited routing the token first picks
    m = min(M, G) nodes and then its k experts among their m·E/G
    (DeepSeek-AI 2024, arXiv:2412.19437 §3.2.2, M = 4), so D = m·(1 − C(m·E/G − E/G, k) /
    C(m·E/G, k)).  By symmetry each node, the sender's own included, is one of them with
    probability D/G, which leaves (G − 1)/G·D remote ones.  The binomials are taken through
    the log-gamma function, so non-integer E/G interpolates.

    Parameters
    ----------
    experts : array_like
        E, routed experts [count].
    experts_per_token : array_like
        k, routed experts per token [count].
    nodes : array_like
        G, nodes (scale-up domains) the expert-parallel group spans [count].
    max_nodes : array_like, optional
        M, most nodes a token may be routed to (node-limited routing); NaN = no limit.

    Returns
    -------
    float or ndarray
        Expected distinct remote destination nodes per token, (G − 1)/G·D [count];
        at most k·(G − 1)/G, the expected remote copies without deduplication.

    Examples
    --------
    >>> round(float(expert_remote_nodes(128, 8, 4)), 3)  # Qwen3-235B, EP 32 on 4 nodes
    2.722
    >>> round(float(expert_remote_nodes(256, 8, 8, 4)), 3)  # DeepSeek-V3, EP 64, M = 4
    3.175
    >>> round(float(expert_remote_nodes(8, 1, 8)), 12)  # top-1, one expert per node: (G − 1)/G
    0.875
    """
    from scipy.special import gammaln  # imported on first use, as models.checkpoint does

    e = as_float_array(experts)
    k = as_float_array(experts_per_token)
    g = np.maximum(as_float_array(nodes), 1.0)
    lim = as_float_array(max_nodes)
    m = np.where(np.isnan(lim), g, np.minimum(np.maximum(lim, 1.0), g))
    per_node = e / g
    pool = m * per_node
    rest = pool - per_node
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        # log C(rest, k) − log C(pool, k); C(rest, k) = 0 when fewer than k remain
        log_q = (
            gammaln(rest + 1.0)
            - gammaln(np.maximum(rest - k + 1.0, 1e-300))
            - gammaln(pool + 1.0)
            + gammaln(pool - k + 1.0)
        )
        q = np.where(rest - k + 1.0 > 0.0, np.exp(log_q), 0.0)
        out = (g - 1.0) / g * m * (1.0 - q)
    out = np.where(k > 0, out, 0.0)
    return like_input(out, experts, experts_per_token, nodes, max_nodes)


def deduplicated_dispatch_seconds(
    token_bytes,
    experts,
    experts_per_token,
    expert_ranks,
    ranks_per_node,
    max_nodes,
    network_GBps,
    scaleup_GBps,
    alpha_network_s,
    alpha_scaleup_s,
):
    """One dispatch (or combine) of a mixture-of-experts layer with per-node deduplication
    and scale-up forwarding, DeepEP's normal kernels [s].

    Each token crosses the network once per distinct remote destination node
    (:func:`expert_remote_nodes`), to the GPU of the same local index there, which forwards
    it over NVLink / NeuronLink to the GPUs holding its experts (DeepEP,
    github.com/deepseek-ai/DeepEP, "NVLink to RDMA" forwarding; DeepSeek-AI 2024,
    arXiv:2412.19437 §3.2.2).  Network leg: B·R / network bandwidth + (G − 1)·α_net, with B
    the rank's tokens × hidden × bytes, G = r/g nodes of g expert ranks each.  Forwarding
    leg: of the k copies of a token, a share (g − 1)/g land on a GPU other than the one it
    entered the node by, B·k·(g − 1)/g / scale-up bandwidth + (g − 1)·α_su.  The two legs
    run at once (DeepSeek-V3 §3.2.2: the IB and NVLink transfers fully overlapped; DeepEP
    pipelines its RDMA and NVLink channels), so the dispatch takes the longer of them.

    Parameters
    ----------
    token_bytes : array_like
        B, the rank's tokens times the hidden size times bytes per element (one copy of
        each token, load imbalance included) [bytes].
    experts, experts_per_token : array_like
        E routed experts and the k each token is sent to [count].
    expert_ranks : array_like
        r, ranks of the expert-parallel group [count].
    ranks_per_node : array_like
        g, expert-parallel ranks per node (scale-up domain) [count].
    max_nodes : array_like
        M of node-limited routing; NaN = no limit [count].
    network_GBps, scaleup_GBps : array_like
        Per-rank network and scale-up bandwidth [GB/s].
    alpha_network_s, alpha_scaleup_s : array_like
        Per-step latency of each [s].

    Returns
    -------
    float or ndarray
        Dispatch time [s].

    Examples
    --------
    One node per rank (g = 1), top-1 over 8 experts on 8 ranks: the all-to-all's 7/8 of the
    bytes, nothing forwarded (compare :func:`all_to_all_seconds`):

    >>> round(float(deduplicated_dispatch_seconds(8e9, 8, 1, 8, 1, np.nan, 100.0, 400.0,
    ...                                           0.0, 0.0)), 6)
    0.07
    """
    r = as_float_array(expert_ranks)
    g = np.clip(as_float_array(ranks_per_node), 1.0, r)
    b = as_float_array(token_bytes)
    k = as_float_array(experts_per_token)
    nodes = r / g
    remote = as_float_array(expert_remote_nodes(experts, k, nodes, max_nodes))
    net_leg = b * remote / (as_float_array(network_GBps) * 1e9)
    net_leg = net_leg + (nodes - 1.0) * as_float_array(alpha_network_s)
    fwd = b * k * (g - 1.0) / g / (as_float_array(scaleup_GBps) * 1e9)
    fwd = fwd + (g - 1.0) * as_float_array(alpha_scaleup_s)
    out = np.maximum(net_leg, fwd)
    return like_input(
        out, token_bytes, experts, experts_per_token, expert_ranks, ranks_per_node, max_nodes
    )


def dispatcher_sm_cost(hidden_seconds, dispatcher_sm_fraction, reserved_sm_fraction):
    """Compute time lost while a token dispatcher that holds SMs overlaps computation [s].

    DeepEP's normal kernels run on a fixed number of streaming multiprocessors (20 by
    default: ``deep_ep.Buffer.num_sms``; Megatron-Core's ``moe_deepep_num_sms``) for as
    long as they move tokens.  Computation that overlaps them runs on the other SMs, at
    (1 − s)/(1 − r) of its rate when a share r is reserved for communication all the time
    (``workload.comm_sm_fraction``, already charged to every GEMM): over a hidden transfer
    of A seconds the computation falls behind by A·(s − r)/(1 − r), nothing when r ≥ s.

    Parameters
    ----------
    hidden_seconds : array_like
        Dispatcher time hidden behind computation, A [s].
    dispatcher_sm_fraction : array_like
        Share of the SMs the dispatcher's kernels hold, s [fraction] (20 of a Hopper
        GPU's 132: 0.1515).
    reserved_sm_fraction : array_like
        Share of the SMs reserved for communication throughout, r [fraction].

    Returns
    -------
    ndarray or float
        Extra step time [s], ≥ 0.

    Examples
    --------
    >>> round(float(dispatcher_sm_cost(10.0, 20 / 132, 0.0)), 3)
    1.515
    >>> float(dispatcher_sm_cost(10.0, 20 / 132, 20 / 132))
    0.0
    """
    a, s, r = (
        as_float_array(x) for x in (hidden_seconds, dispatcher_sm_fraction, reserved_sm_fraction)
    )
    out = a * np.maximum(s - r, 0.0) / (1.0 - r)
    return like_input(out, hidden_seconds, dispatcher_sm_fraction, reserved_sm_fraction)


def pipeline_send_seconds(message_bytes, chunks, bandwidth_GBps, alpha_s, stage_compute_s, overlap):
    """Exposed pipeline point-to-point time of one micro-batch on one stage [s]: an
    activation sent forward and a gradient sent backward at each of the ``chunks`` chunk
    boundaries (Narayanan et al. 2021, §2.2), each ``message_bytes`` over the scale-out
    share plus a latency.  Where the stack overlaps them (``overlap`` = 1: Megatron-Core's
    ``overlap_p2p_comm``, on whenever the schedule is interleaved, chunks > 1: megatron/
    training/arguments.py; NeMo Megatron-Bridge training/comm_overlap.py), each send runs
    beside the next chunk's forward (a third of the chunk's compute) or backward (two
    thirds), and only what is longer than that shows.

    Parameters
    ----------
    message_bytes : array_like
        One send [bytes].
    chunks : array_like
        Model chunks per stage v [count].
    bandwidth_GBps : array_like
        Per-rank scale-out bandwidth [GB/s].
    alpha_s : array_like
        Latency per send [s].
    stage_compute_s : array_like
        The stage's compute for one micro-batch, forward and backward [s].
    overlap : array_like
        1 where the stack overlaps the sends of an interleaved schedule, else 0.

    Returns
    -------
    float or ndarray
        Exposed send time [s].

    Examples
    --------
    >>> pipeline_send_seconds(1e9, 2, 100.0, 0.0, 0.3, 0)  # 4 sends of 10 ms
    0.04
    >>> round(pipeline_send_seconds(1e9, 2, 100.0, 0.0, 0.03, 1), 6)  # 2·(10 − 5) + 2·(10 − 10) ms
    0.01
    """
    v = as_float_array(chunks)
    one = as_float_array(message_bytes) / (as_float_array(bandwidth_GBps) * 1e9) + as_float_array(
        alpha_s
    )
    chunk = as_float_array(stage_compute_s) / (3.0 * v)
    hidden = v * (np.maximum(one - chunk, 0.0) + np.maximum(one - 2.0 * chunk, 0.0))
    out = np.where((as_float_array(overlap) > 0.5) & (v > 1.0), hidden, 2.0 * v * one)
    return like_input(out, message_bytes, chunks, bandwidth_GBps, alpha_s, stage_compute_s, overlap)


def ring_attention_exchange_seconds(kv_bytes_per_rank, cp, bandwidth_GBps, alpha_s):
    """Key/value blocks passed round a ring of ``cp`` context-parallel ranks, one layer and
    one pass [s]: (c−1) steps of the rank's K and V block (Liu et al. 2023, Ring Attention,
    arXiv:2310.01889).

    Parameters
    ----------
    kv_bytes_per_rank : array_like
        The rank's K and V block [bytes].
    cp : array_like
        Context-parallel ranks c [count].
    bandwidth_GBps : array_like
        Per-rank bandwidth [GB/s].
    alpha_s : array_like
        Per-step latency α [s].

    Returns
    -------
    float or ndarray
        Exchange time, one layer and pass [s].

    Examples
    --------
    >>> ring_attention_exchange_seconds(1e9, 4, 100.0, 0.0)  # 3 blocks of 1 GB at 100 GB/s
    0.03
    """
    c = as_float_array(cp)
    out = (c - 1.0) * (as_float_array(kv_bytes_per_rank) / (as_float_array(bandwidth_GBps) * 1e9))
    out = out + (c - 1.0) * as_float_array(alpha_s)
    return like_input(out, kv_bytes_per_rank, cp, bandwidth_GBps, alpha_s)


def expert_all_to_all_in_scaleup(expert_parallel, expert_tensor_parallel, scaleup_domain_accels):
    """Whether a mixture-of-experts layer's dispatch and combine all-to-all stays inside the
    scale-up domain [bool].

    Megatron-Core lays the expert ranks out as ETP-EP-DP (``--expert-tensor-parallel-size``;
    ``megatron/core/parallel_state.py``, the expert rank generator): the EP peers of one
    expert-tensor rank sit ETP ranks apart, so an EP group spans EP × ETP consecutive ranks
    and stays on NVLink / NeuronLink while EP × ETP ≤ the accelerators per scale-up domain.
    Without MoE parallel folding ETP = TP, which is the model's earlier rule EP × TP ≤ domain.
    With folding (Liu et al. 2025, arXiv:2504.14960 §3) ETP is set apart from TP, often 1:
    an EP 8 group at TP 2 then fits in one 8-GPU node.

    Parameters
    ----------
    expert_parallel : array_like
        EP, ranks the routed experts are split over [count].
    expert_tensor_parallel : array_like
        ETP, ranks each expert's matrices are split over (TP when not folded) [count].
    scaleup_domain_accels : array_like
        Accelerators per scale-up (NVLink / NeuronLink) domain [count].

    Returns
    -------
    bool or ndarray
        True where the all-to-all runs over the scale-up links, False over the network.

    Examples
    --------
    >>> bool(expert_all_to_all_in_scaleup(8, 2, 8))  # Qwen3-235B unfolded: EP 8 × TP 2
    False
    >>> bool(expert_all_to_all_in_scaleup(8, 1, 8))  # folded, ETP 1: one node
    True
    """
    span = as_float_array(expert_parallel) * as_float_array(expert_tensor_parallel)
    out = span <= as_float_array(scaleup_domain_accels)
    return like_input(out, expert_parallel, expert_tensor_parallel, scaleup_domain_accels)


def expert_params_per_rank(
    expert_params, pipeline_parallel, expert_parallel, expert_tensor_parallel
):
    """Routed-expert parameters one rank holds [count]: N_e / (PP · EP · ETP).

    Each of the EP ranks of an expert group holds E/EP experts, each split over ETP ranks
    (Megatron-Core ``TEGroupedMLP`` with ``--expert-tensor-parallel-size``; Liu et al.
    2025, arXiv:2504.14960 §3). Without folding ETP = TP.

    Parameters
    ----------
    expert_params : array_like
        Routed experts' parameters of the whole model, N_e [count].
    pipeline_parallel, expert_parallel, expert_tensor_parallel : array_like
        PP, EP and ETP [count].

    Returns
    -------
    float or ndarray
        Routed-expert parameters per rank [count].

    Examples
    --------
    >>> expert_params_per_rank(224e9, 8, 8, 1) / 1e9  # Qwen3-235B, PP 8, EP 8, ETP 1
    3.5
    """
    out = as_float_array(expert_params) / (
        as_float_array(expert_tensor_parallel)
        * as_float_array(pipeline_parallel)
        * as_float_array(expert_parallel)
    )
    return like_input(
        out, expert_params, pipeline_parallel, expert_parallel, expert_tensor_parallel
    )


def expert_data_parallel_size(
    tensor_parallel, context_parallel, data_parallel, expert_parallel, expert_tensor_parallel
):
    """Ranks that hold the same routed-expert shard and reduce its gradients [count]:
    TP · CP · DP / (EP · ETP), at least 1.

    The expert grid folds the attention's TP × CP × DP ranks of a pipeline stage into
    ETP × EP × expert-DP (Liu et al. 2025, arXiv:2504.14960 §3; Megatron-Core
    ``parallel_state.py``); without folding ETP = TP and this is CP · DP / EP.

    Parameters
    ----------
    tensor_parallel, context_parallel, data_parallel : array_like
        The attention's TP, CP and DP [count].
    expert_parallel, expert_tensor_parallel : array_like
        EP and ETP [count].

    Returns
    -------
    float or ndarray
        Expert data-parallel size [count].

    Examples
    --------
    >>> float(expert_data_parallel_size(2, 1, 16, 8, 1))  # 32 ranks a stage, EP 8, ETP 1
    4.0
    """
    t = as_float_array(tensor_parallel)
    out = (
        as_float_array(data_parallel)
        * as_float_array(context_parallel)
        / as_float_array(expert_parallel)
        * (t / as_float_array(expert_tensor_parallel))
    )
    out = np.maximum(out, 1.0)
    return like_input(
        out,
        tensor_parallel,
        context_parallel,
        data_parallel,
        expert_parallel,
        expert_tensor_parallel,
    )


def tensor_parallel_collective_seconds(message_bytes, ranks, bandwidth_GBps, alpha_s):
    """One tensor-parallel all-reduce (or its all-gather + reduce-scatter pair) of
    ``message_bytes`` among ``ranks`` over the scale-up link [s]: 2(r−1)/r · bytes at the
    bandwidth plus 2(r−1) latency steps α (ring; Narayanan et al. 2021, arXiv:2104.04473
    §3.2); 0 for r = 1.

    The step model charges it per layer and pass on the attention at TP and, in the MoE
    layers of a folded layout, on the expert MLP at ETP (arXiv:2504.14960 §3).

    Parameters
    ----------
    message_bytes : array_like
        Activations of one micro-batch on one rank before the split [bytes].
    ranks : array_like
        r, the tensor-parallel size [count].
    bandwidth_GBps : array_like
        Per-rank scale-up bandwidth, one direction [GB/s].
    alpha_s : array_like
        Per-step latency α [s].

    Returns
    -------
    float or ndarray
        Time of one collective [s].

    Examples
    --------
    >>> tensor_parallel_collective_seconds(1e9, 2, 100.0, 0.0)  # half of 2 GB at 100 GB/s
    0.01
    >>> float(tensor_parallel_collective_seconds(1e9, 1, 100.0, 1e-5))
    0.0
    """
    r = as_float_array(ranks)
    with np.errstate(invalid="ignore", divide="ignore"):
        one = 2.0 * (r - 1.0) / r * as_float_array(message_bytes) / (
            as_float_array(bandwidth_GBps) * net.GB
        ) + 2.0 * (r - 1.0) * as_float_array(alpha_s)
    out = np.where(r > 1, one, 0.0)
    return like_input(out, message_bytes, ranks, bandwidth_GBps, alpha_s)


def _gemm_bytes(tokens, h, a, kv, ffn, gated, t, mm):
    """Bytes the forward GEMMs of one layer read and write on one TP rank: the weights and
    each GEMM's input and output activations (bf16)."""
    k = np.where(gated > 0.5, 2.0, 1.0)
    acts = 4.0 * h + (h * (2.0 + 2.0 * kv / a) + (k + 1.0) * ffn) / t
    return 2.0 * (mm / t + tokens * acts)


def _shape(v: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The workload's shape with the derived figures filled in (module :mod:`transformer`).

    ``N`` total parameters (memory), ``N_flops`` the parameters a token multiplies (active
    experts; the output layer even when tied), ``N_expert`` the routed experts' share of
    ``N``; ``mm`` the matrix weights one token uses per layer on average, ``mm_held`` those
    a rank holds per layer before expert parallelism; ``ffn_act`` the MLP width whose
    activations a token stores (k + S experts of f_e in MoE layers)."""
    gated = v["gated"]
    h = v["workload.hidden_size"]
    a = v["workload.attention_heads"]
    kv = np.where(np.isnan(v["workload.kv_heads"]), a, v["workload.kv_heads"])
    ffn = v["workload.ffn_hidden_size"]
    ffn = np.where(np.isnan(ffn), as_float_array(tr.default_ffn(h, gated)), ffn)
    vocab = v["workload.vocab_size"]
    e = v["workload.experts"]
    moe = e > 0.5
    # top-k beyond the experts is refused (_feasible, scenario.check_workload), never clipped
    k = np.where(moe, v["workload.experts_per_token"], 1.0)
    fe = v["workload.expert_ffn_hidden_size"]
    fe = np.where(np.isnan(fe), ffn, fe)
    sx = v["workload.shared_experts"]
    phi = np.where(moe, v["workload.moe_layer_frequency"], 0.0)
    ap = v["workload.attention_params_million"] * 1e6  # NaN: from the heads
    moe_args = (e, k, fe, sx, v["workload.moe_layer_frequency"], v["tied"], ap)
    n_given = v["workload.params_billion"]
    layers = v["workload.layers"]
    if np.isnan(layers).any():  # depth from a stated count (dense shape; MoE needs layers)
        tied_b = v["tied"] * vocab * h / 1e9
        layers = np.where(
            np.isnan(layers),
            as_float_array(
                tr.layers_from_params(n_given + tied_b, h, a, kv, ffn, vocab, gated, ap)
            ),
            layers,
        )
    total, active, routed = (
        as_float_array(z) for z in tr.moe_params(layers, h, a, kv, ffn, vocab, gated, *moe_args)
    )
    given = ~np.isnan(n_given)
    scale = np.where(given, n_given / np.where(total > 0, total, 1.0), 1.0)
    params = np.where(given, n_given, total)
    untied = v["tied"] * vocab * h / 1e9  # the output layer multiplies even when tied
    k_m = np.where(gated > 0.5, 3.0, 2.0)
    attn = as_float_array(tr.attention_params_per_layer(h, a, kv, ap))
    mlp_active = (1.0 - phi) * k_m * h * ffn + phi * (k + sx) * k_m * h * fe
    mlp_held = (1.0 - phi) * k_m * h * ffn + phi * (e + sx) * k_m * h * fe
    hd = v["workload.attention_head_dim"]
    return {
        "h": h,
        "h_att": np.where(np.isnan(hd), h, a * hd),  # a·d: what the attention scores multiply
        "a": a,
        "kv": kv,
        "ffn": ffn,
        "V": vocab,
        "L": layers,
        "N": params,
        "N_flops": active * scale + untied,
        "N_expert": routed * scale,
        "mm": attn + mlp_active,
        "mm_held": attn + mlp_held,
        "mm_expert_active": phi * k * k_m * h * fe,
        "mm_routed_held": phi * e * k_m * h * fe,
        "ffn_act": (1.0 - phi) * ffn + phi * (k + sx) * fe,
        "moe": moe.astype(float) * np.ones_like(h),
        "phi": phi,
        "k": k,
        "E": e,
        "S": sx,
    }


def _flops_per_token(sh, s):
    """Model FLOPs per token (:func:`models.transformer.model_flops_per_token`) of the
    active parameters, the attention term with the heads' own dimension (a·d, not h)."""
    out = as_float_array(tr.model_flops_per_token(sh["N_flops"], sh["L"], s, sh["h"], sh["V"]))
    return out + 12.0 * sh["L"] * s * (sh["h_att"] - sh["h"])


def _params_per_rank(sh, t, p, ep, et):
    """Parameters one rank holds [count]: the non-expert ones split by TP × PP, the routed
    experts by ETP × PP × EP (:func:`expert_params_per_rank`; ETP = TP unless folded)."""
    n = sh["N"] * 1e9
    ex = sh["N_expert"] * 1e9
    return (n - ex) / (t * p) + as_float_array(expert_params_per_rank(ex, p, ep, et))


def _full_share(v, sh) -> np.ndarray:
    """Share of a model chunk's L/(p·v) layers recomputed in full [fraction]: 0 unless
    ``workload.recompute`` is full (:func:`recompute_share`)."""
    chunk = sh["L"] / (v["workload.pipeline_parallel"] * v["vst"])
    share = recompute_share(v["workload.recompute_layers"], chunk)
    return np.where(v["recompute"] >= tr.FULL, share, 0.0)


def _model_states_GB(v, sh, t, p, d) -> np.ndarray:
    """Model states per accelerator on the first pipeline stage [GB] (ZeRO [4]): weights,
    gradients and optimizer states, the routed experts' sharded over their own data-parallel
    ranks; fp8 adds a 1-byte weight copy."""
    cp = v["workload.context_parallel"]
    gbytes = v["gradient_bytes"]
    z = v["workload.zero_stage"]
    ep, et = v["workload.expert_parallel"], v["etp"]
    psi = _params_per_rank(sh, t, p, ep, et)
    # routed experts: sharded over the expert data-parallel ranks d·c·t/(EP·ETP)
    psi_e = as_float_array(expert_params_per_rank(sh["N_expert"] * 1e9, p, ep, et))

    moments = v["workload.optimizer_moment_bytes"] - 8.0  # vs the 8 of fp32 moments

    def state_bytes(ranks):
        per = as_float_array(tr.model_state_bytes_per_param(z, gbytes, ranks))
        per = per + moments * np.where(z >= 1, 1.0 / ranks, 1.0)
        return per + v["fp8"] * np.where(z >= 3, 1.0 / ranks, 1.0)

    d_e = as_float_array(expert_data_parallel_size(t, cp, d, ep, et))
    return ((psi - psi_e) * state_bytes(d * cp) + psi_e * state_bytes(d_e)) / 1e9


class _Activations(NamedTuple):
    """One layer's activation bytes per level on a rank, and what multiplies them."""

    full: np.ndarray  #: full recomputation: the layer's input [B]
    sel: np.ndarray  #: selective recomputation [B]
    none: np.ndarray  #: none (selective's with a fused attention kernel, no scores) [B]
    fp8_saved: np.ndarray  #: bytes FP8 copies of the saved GEMM inputs save [B]
    stack: np.ndarray  #: layers of the stage times micro-batches in flight [count]


def _activation_terms(v, sh, t, p, b, m, sp) -> _Activations:
    """:class:`_Activations` of one micro-batch of b sequences (context parallelism c
    splits every activation by c; :func:`models.transformer.activation_bytes_per_layer`)."""
    s = v["workload.sequence_length"]
    cp = v["workload.context_parallel"]

    def per_layer(mode):
        return as_float_array(
            tr.activation_bytes_per_layer(
                s / cp,
                b,
                sh["h"],
                sh["a"],
                sh["kv"],
                sh["ffn_act"],
                v["gated"],
                t,
                sp,
                mode,
                v["dropout"],
            )
        )

    # a fused attention kernel never stores the scores: as selective recomputation
    fa = v["fa"] > 0.5
    sel = per_layer(tr.SELECTIVE)
    none = sel if np.all(fa) else np.where(fa, sel, per_layer(tr.NONE))
    in_flight = as_float_array(tr.micro_batches_in_flight(p, v["vst"], m))
    # fp8: Transformer Engine keeps the GEMM inputs it saves for the backward pass as 1-byte
    # copies (QKV, projection, FC1 and FC2 inputs: 3h + k·f per token instead of 2 bytes)
    k_in = np.where(v["gated"] > 0.5, 2.0, 1.0)
    ln_out = np.where(sp > 0.5, 2.0 * sh["h"] / t, 2.0 * sh["h"])  # QKV and FC1 inputs
    gemm_in = ln_out + (sh["h"] + k_in * sh["ffn_act"]) / t
    fp8_saved = v["fp8"] * s / cp * b * gemm_in
    return _Activations(per_layer(tr.FULL), sel, none, fp8_saved, sh["L"] / p * in_flight)


def _activations_GB(a: _Activations, share, kept_bytes) -> np.ndarray:
    """Activation memory per accelerator [GB]: full recomputation of a ``share`` of each
    chunk's layers keeps their input, the others ``kept_bytes`` each (less the FP8 copies'
    saving); full recomputation rebuilds one layer's activations at a time in the
    backward (the none level's)."""
    kept = share * a.full + (1.0 - share) * (kept_bytes - a.fp8_saved)
    working = np.where(share > 0.0, a.none, 0.0)
    return (kept * a.stack + working) / 1e9


def _memory(v, sh, states, a: _Activations, b, usable):
    """Activation memory per accelerator on the first pipeline stage [GB]
    (:func:`_activations_GB`) at the recomputation ``v`` gives, beside the model states
    (:func:`_model_states_GB`), and the largest micro-batch that fits [sequences]."""
    # full recomputation of N layers per model chunk (recompute_layers): those keep only
    # their input, the others all their activations (as without recomputation)
    recompute = v["recompute"]
    rest = np.where(recompute >= tr.FULL, tr.NONE, recompute)
    act = _activations_GB(a, _full_share(v, sh), np.where(rest >= tr.SELECTIVE, a.sel, a.none))
    per_seq = act / b  # every term is linear in the micro-batch size
    with np.errstate(divide="ignore", invalid="ignore"):
        b_max = np.floor((usable - states) / per_seq + 1e-9)
    b_max = np.where(np.isfinite(b_max), np.maximum(b_max, 0.0), 0.0)
    return act, b_max


class _Setup(NamedTuple):
    """Shared terms of the modelled basis (:func:`_modelled_setup`), arrays over scenarios."""

    s: np.ndarray  #: sequence length [tokens]
    cp: np.ndarray  #: context-parallel size c [count]
    vst: np.ndarray  #: interleaved chunks per pipeline stage v [count]
    r: np.ndarray  #: recomputation level (models.transformer NONE / SELECTIVE / FULL)
    h: np.ndarray  #: hidden size [-]
    vocab: np.ndarray  #: vocabulary size V [tokens]
    lay: np.ndarray  #: layers L [count]
    tokens_mb: np.ndarray  #: tokens of one micro-batch on one rank, b·s/c [tokens]
    peak: np.ndarray  #: dense BF16 peak [TFLOP/s per accelerator]
    gemm_frac: np.ndarray  #: BF16 GEMM rate as a share of ``peak`` [fraction]
    fp8: np.ndarray  #: the layers' GEMMs run in FP8 [bool]
    layer_peak: np.ndarray  #: peak the layers' GEMMs run at (FP8 or BF16) [TFLOP/s]
    layer_frac: np.ndarray  #: share of ``layer_peak`` the layers' GEMMs reach [fraction]
    a_net: np.ndarray  #: scale-out latency α [s]
    a_su: np.ndarray  #: scale-up latency α [s]
    fa: np.ndarray  #: fused (flash) attention [bool]
    full: np.ndarray  #: full recomputation [bool]
    full_share: np.ndarray  #: share of a chunk's layers recomputed in full [fraction]
    attn_frac: np.ndarray  #: rate of the attention products as a share of ``peak`` [fraction]


class _Compute(NamedTuple):
    """Math time of one micro-batch on the busiest stage (:func:`_modelled_compute`)."""

    ep: np.ndarray  #: expert-parallel size [count]
    imb: np.ndarray  #: expert load imbalance (busiest rank over the mean) [-]
    mm_rank: np.ndarray  #: matrix weights one rank reads per layer [parameters]
    layers_here: np.ndarray  #: layers on the busiest stage, MTP modules' included [count]
    head_share: np.ndarray  #: output-layer passes on that stage (MTP's included) [count]
    t_model: np.ndarray  #: GEMMs, attention and output layer, forward + backward [s]
    t_attn: np.ndarray  #: attention kernels of one layer, forward + backward [s]
    t_recompute: np.ndarray  #: recomputed forward work [s]


class _Memory(NamedTuple):
    """Memory-bound and launch time of one micro-batch (:func:`_modelled_memory`)."""

    t_mem: np.ndarray  #: HBM-bound kernels [s]
    t_launch: np.ndarray  #: per layer-pass launch and host overhead [s]
    psi: np.ndarray  #: parameters on one rank [count]


class _Comm(NamedTuple):
    """Tensor-, context-, expert- and pipeline-parallel time of one micro-batch
    (:func:`_modelled_comm`)."""

    t_tp_raw: np.ndarray  #: tensor-parallel collectives before overlap [s]
    t_tp: np.ndarray  #: their exposed part [s]
    t_cp: np.ndarray  #: exposed context-parallel ring exchange [s]
    t_a2a_raw: np.ndarray  #: expert all-to-all before overlap [s]
    a2a_sm_rate: np.ndarray  #: compute lost per hidden second of it (DeepEP's SMs) [s/s]
    t_a2a: np.ndarray  #: its exposed part [s]
    a2a_cap: np.ndarray  #: the most of it that computation can hide [s]
    t_pp: np.ndarray  #: pipeline point-to-point sends [s]


class _DataParallel(NamedTuple):
    """Data-parallel synchronisation and optimizer step (:func:`_modelled_dp_and_optimizer`)."""

    dp_sync: np.ndarray  #: whole data-parallel synchronisation [s]
    dp_exposed: np.ndarray  #: its part not hidden behind compute [s]
    window: np.ndarray  #: compute it can hide behind [s]
    last_bucket: np.ndarray  #: the last gradient bucket's own reduction, never hidden [s]
    t_opt: np.ndarray  #: optimizer step [s]


def _modelled_setup(v, sh, b) -> _Setup:
    """Shared terms of the modelled basis: one micro-batch's tokens b·s/c on a rank, the
    GEMM efficiency MAMF·calibration·(1 − comm SM share) [fraction] (FP8 layers at the FP8
    peak times FP8_GEMM_RELATIVE), latencies α [s] and the recompute flags.
    """
    s = v["workload.sequence_length"]
    cp = v["workload.context_parallel"]
    vst = v["vst"]
    r = v["recompute"]
    h, vocab, lay = sh["h"], sh["V"], sh["L"]
    tokens_mb = b * s / cp  # tokens of one micro-batch on one rank
    peak, mmf = v["instance.bf16_dense_tflops"], v["instance.max_matmul_fraction"]
    # SMs a framework reserves for communication are not computing
    # (and a stack's kernels reach its share of Megatron-LM's rates)
    gemm_frac = mmf * v["cal.gemm"] * (1.0 - v["workload.comm_sm_fraction"])
    gemm_frac = gemm_frac * v["stack.kernel_eff"]
    fp8 = v["fp8"] > 0.5
    fp8_peak = v["instance.fp8_dense_tflops"]
    # no FP8 rate in the catalog: FP8 cannot run there (_feasible, precision_reason)
    layer_peak = np.where(fp8, fp8_peak, peak)
    layer_frac = np.where(fp8, gemm_frac * FP8_GEMM_RELATIVE, gemm_frac)
    a_net, a_su = v["network.alpha_network_us"] * net.US, v["network.alpha_scaleup_us"] * net.US
    fa = v["fa"] > 0.5
    full = r >= tr.FULL
    full_share = _full_share(v, sh)
    # the stack's fused attention kernel: FlashAttention-2 is slower than Megatron-Core's
    # kernels where the accelerator has FP8 tensor cores (FA2_RELATIVE_WITH_FP8_CORES)
    hopper = np.isfinite(fp8_peak)
    attn_frac = gemm_frac * np.where(fa & hopper, v["stack.attention"], 1.0)

    return _Setup(
        s=s,
        cp=cp,
        vst=vst,
        r=r,
        h=h,
        vocab=vocab,
        lay=lay,
        tokens_mb=tokens_mb,
        peak=peak,
        gemm_frac=gemm_frac,
        fp8=fp8,
        layer_peak=layer_peak,
        layer_frac=layer_frac,
        a_net=a_net,
        a_su=a_su,
        fa=fa,
        full=full,
        full_share=full_share,
        attn_frac=attn_frac,
    )


def _modelled_compute(v, sh, t, p, q: _Setup, stage: int = 0) -> _Compute:
    """Math time of one micro-batch on the last pipeline stage (``stage`` 0) or on each
    other stage (1) and its recomputation [s] (:func:`stage_loads`).

    t_model = (L/p)·(3·layer GEMMs + attention) + head share·3·logits GEMM at the measured
    matmul rate (:func:`compute_seconds`, :func:`attention_seconds`); full recomputation
    repeats the forward pass, selective (materialised attention) the scores.
    """
    s, r, h, vocab, lay, tokens_mb, peak, gemm_frac, layer_peak, layer_frac, fa, full = (
        q.s,
        q.r,
        q.h,
        q.vocab,
        q.lay,
        q.tokens_mb,
        q.peak,
        q.gemm_frac,
        q.layer_peak,
        q.layer_frac,
        q.fa,
        q.full,
    )
    # the busiest stage: L/p layers plus the output layer, or an even share of all of it
    # (balanced stages)
    # matrix weights a token multiplies per layer (active experts, the busiest expert rank
    # carrying moe_load_imbalance times its share) and those the rank reads
    ep = v["workload.expert_parallel"]
    imb = v["workload.moe_load_imbalance"]
    mm = sh["mm"] + (imb - 1.0) * sh["mm_expert_active"]
    mm_rank = sh["mm_held"] - sh["mm_routed_held"] * (1.0 - 1.0 / ep)
    # folded: the rank reads its E/EP experts split by ETP, not TP (mm_rank is divided by
    # TP where it is read); the expert FLOPs per rank do not change: the EP × ETP group
    # computes the routed copies of its own ranks' tokens, b·s/c/t·k per rank either way
    et = v["etp"]
    mm_rank = np.where(
        v["folded"] > 0.5,
        sh["mm_held"] - sh["mm_routed_held"] + sh["mm_routed_held"] * t / (ep * et),
        mm_rank,
    )
    layer_fwd = 2.0 * tokens_mb * mm / t
    attn_fwd = 4.0 * tokens_mb * s * sh["h_att"] / t  # this rank's queries, all s keys
    logits_fwd = 2.0 * tokens_mb * vocab * h / t
    t_layers = as_float_array(compute_seconds(3.0 * layer_fwd, layer_peak, layer_frac))
    t_attn = as_float_array(attention_seconds(attn_fwd, peak, q.attn_frac, fa, 1.0))
    t_head = as_float_array(compute_seconds(3.0 * logits_fwd, peak, gemm_frac))
    # a multi-token-prediction module's projection of [h; h] to h (DeepSeek-V3 §2.2)
    t_proj = as_float_array(
        compute_seconds(3.0 * 2.0 * tokens_mb * 2.0 * h * h / t, layer_peak, layer_frac)
    )
    loads = stage_loads(
        lay, p, v["workload.last_stage_layers"], v["workload.mtp_layers"], v["balanced"]
    )
    layers_here, head_share, proj_here = (as_float_array(a) for a in loads[stage])
    t_model = layers_here * (t_layers + t_attn) + head_share * t_head + proj_here * t_proj
    # full: the forward pass again (the share of layers recomputed); selective (materialised
    # attention): the scores
    t_fwd_again = as_float_array(compute_seconds(layer_fwd, layer_peak, layer_frac))
    attn_again = as_float_array(attention_seconds(attn_fwd, peak, q.attn_frac, fa, 1.0)) / np.where(
        fa, FLASH_PASSES, 3.0
    )
    redo = q.full_share * (t_fwd_again + attn_again)
    redo = redo + np.where(~fa & (r >= tr.SELECTIVE) & ~full, attn_again, 0.0)
    t_recompute = layers_here * redo

    return _Compute(
        ep=ep,
        imb=imb,
        mm_rank=mm_rank,
        layers_here=layers_here,
        head_share=head_share,
        t_model=t_model,
        t_attn=t_attn,
        t_recompute=t_recompute,
    )


def _modelled_memory(v, sh, t, p, b, q: _Setup, c: _Compute) -> _Memory:
    """Memory-bound kernels and launch overhead of one micro-batch [s] (Calculon [8]).

    HBM traffic = (L/p)·(activations·passes + recomputed scores + (GEMM operands + FP8
    casts)·passes) + logits + gradient accumulation, at HBM bandwidth times efficiency
    (:func:`memory_bound_seconds`); plus (L/p)·passes·per-layer overhead.
    """
    s, cp, r, h, vocab, tokens_mb, fp8, fa, full, ep, mm_rank, layers_here, head_share = (
        q.s,
        q.cp,
        q.r,
        q.h,
        q.vocab,
        q.tokens_mb,
        q.fp8,
        q.fa,
        q.full,
        c.ep,
        c.mm_rank,
        c.layers_here,
        c.head_share,
    )
    # streaming kernels: each activation byte is written and read once in the forward pass,
    # twice as much in the backward pass, once more when the forward is recomputed
    traffic_mode = np.where(fa, tr.SELECTIVE, tr.NONE)  # materialised scores are streamed
    act_traffic = 2.0 * as_float_array(
        tr.activation_bytes_per_layer(
            s / cp,
            b,
            h,
            sh["a"],
            sh["kv"],
            sh["ffn_act"],
            v["gated"],
            t,
            v["sp"],
            traffic_mode,
            v["dropout"],
        )
    )
    passes = 3.0 + q.full_share
    # materialised scores, written and read once a pass (the query block of s/c tokens
    # against all s keys: the stored score bytes of s/c tokens times c)
    scores = 2.0 * cp * as_float_array(tr.score_bytes(s / cp, b, sh["a"], t, v["dropout"]))
    redo_bytes = np.where(~fa & (r >= tr.SELECTIVE) & ~full, scores, 0.0)
    gemm = GEMM_TRAFFIC * _gemm_bytes(
        tokens_mb, h, sh["a"], sh["kv"], sh["ffn_act"], v["gated"], t, mm_rank
    )
    k_in = np.where(v["gated"] > 0.5, 2.0, 1.0)
    cast = np.where(fp8, FP8_CAST_BYTES * tokens_mb * (3.0 * h + k_in * sh["ffn_act"] / t), 0.0)
    traffic = layers_here * (act_traffic * passes + redo_bytes + (gemm + cast) * passes)
    traffic = traffic + head_share * as_float_array(logits_memory_bytes(tokens_mb, vocab, t))
    # mixture of experts: the dispatcher's permutations, forward and backward (and the
    # recomputed forward), on the stage's MoE layers
    perm = as_float_array(moe_permutation_bytes(tokens_mb, h, sh["k"], t))
    moe_passes = 2.0 + q.full_share
    traffic = traffic + np.where(sh["moe"] > 0.5, layers_here * sh["phi"] * moe_passes * perm, 0.0)
    # each micro-batch's weight gradients are accumulated into the gradient buffer (read
    # and written in the gradient precision; Megatron's gradient-accumulation fusion)
    psi = _params_per_rank(sh, t, p, ep, v["etp"])
    traffic = traffic + as_float_array(grad_accumulation_bytes(psi, v["gradient_bytes"]))
    hbm_eff = v["cal.hbm"] * v["stack.kernel_eff"]
    t_mem = as_float_array(memory_bound_seconds(traffic, v["instance.hbm_TBps"], hbm_eff))
    t_launch = as_float_array(launch_overhead_seconds(layers_here, passes, v["cal.overhead"]))
    # mixture of experts: the MoE layers' extra kernels at the host time per launch
    moe_kernels = as_float_array(moe_extra_kernels(sh["E"], np.maximum(ep, 1.0), sh["S"]))
    moe_launch = launch_overhead_seconds(
        layers_here * sh["phi"], passes, v["cal.overhead"] * moe_kernels / DENSE_LAYER_KERNELS
    )
    t_launch = t_launch + np.where(sh["moe"] > 0.5, as_float_array(moe_launch), 0.0)

    return _Memory(t_mem=t_mem, t_launch=t_launch, psi=psi)


def _expert_all_to_all(v, sh, q: _Setup, c: _Compute, t, et, net_share, su, cap):
    """Expert-parallel dispatch and combine of one micro-batch [s], as (before overlap,
    exposed): 4 all-to-alls per MoE layer (2 more per layer recomputed in full) of the
    micro-batch's routed tokens, inside the scale-up domain while EP × ETP fits in it, else
    over the network, or deduplicated per destination node with the DeepEP dispatcher.
    Overlap hides ``moe_comm_overlap_fraction`` of it, but never more than ``cap`` [s], the
    computation it can run beside (:func:`_modelled_comm`)."""
    tokens_mb, h, a_net, a_su = q.tokens_mb, q.h, q.a_net, q.a_su
    layers_here, ep, imb = c.layers_here, c.ep, c.imb
    # expert parallelism: dispatch and combine all-to-all per MoE layer forward, the same
    # backward, again when the forward is recomputed; inside the scale-up domain while
    # EP × ETP fits in it (ETP = TP unless folded); the busiest rank sends
    # moe_load_imbalance times its share
    a2a_bytes = tokens_mb * sh["k"] * h * tr.ACT_BYTES / t * imb
    dom = v["instance.scaleup_domain_accels"]
    ep_in = as_float_array(expert_all_to_all_in_scaleup(ep, et, dom))
    # the all-to-all dispatcher: each routed copy to its expert's rank, over the scale-up
    # links to the ranks of its own domain (floor(domain / ETP) of them, all of the group
    # when EP × ETP fits in it) and over the network to the others, both at once
    with np.errstate(invalid="ignore", divide="ignore"):
        one_a2a = as_float_array(
            all_to_all_across_domains_seconds(
                a2a_bytes, ep, np.where(ep_in, ep, np.floor(dom / et)), net_share, su, a_net, a_su
            )
        )
    # the DeepEP dispatcher, across scale-up domains: one copy per destination node over
    # the network, forwarded inside the node (deduplicated_dispatch_seconds); inside one
    # domain it is the all-to-all above
    dedup = (v["deepep"] > 0.5) & (ep_in < 0.5)
    if np.any(dedup):
        with np.errstate(invalid="ignore", divide="ignore"):
            one_dd = as_float_array(
                deduplicated_dispatch_seconds(
                    tokens_mb * h * tr.ACT_BYTES / t * imb,
                    sh["E"],
                    sh["k"],
                    ep,
                    np.floor(dom / et),
                    v["workload.moe_max_nodes_per_token"],
                    net_share,
                    su,
                    a_net,
                    a_su,
                )
            )
        one_a2a = np.where(dedup, one_dd, one_a2a)
    n_a2a = 4.0 + 2.0 * q.full_share
    t_a2a = np.where((sh["moe"] > 0.5) & (ep > 1), layers_here * sh["phi"] * n_a2a * one_a2a, 0.0)
    t_a2a_raw = t_a2a
    # an overlapped all-to-all hides behind other computation, never behind more than
    # there is: an all-to-all longer than the compute beside it shows the difference
    hidden = np.minimum(t_a2a_raw * v["workload.moe_comm_overlap_fraction"], cap)
    t_a2a = t_a2a_raw - hidden
    # DeepEP's kernels hold SMs while they move the tokens: the compute they overlap runs
    # on the rest meanwhile (dispatcher_sm_cost), unless the framework reserves as many
    rate = np.zeros_like(t_a2a)
    if np.any(v["deepep"] > 0.5):
        rate = np.where(
            v["deepep"] > 0.5,
            as_float_array(
                dispatcher_sm_cost(
                    1.0, v["workload.moe_dispatcher_sm_fraction"], v["workload.comm_sm_fraction"]
                )
            ),
            0.0,
        )
        t_a2a = t_a2a + hidden * rate
    return t_a2a_raw, t_a2a, rate


def _modelled_comm(v, sh, t, p, q: _Setup, c: _Compute, net_share, su) -> _Comm:
    """Exposed tensor-, context-, expert- and pipeline-parallel time of one micro-batch [s].

    TP: (4, and 2 more per layer recomputed in full)·(L/p) all-reduces of b·s·h·2 bytes over the
    scale-up link, less the share hidden behind the GEMMs; CP: 3 ring exchanges of K and
    V per layer beyond the attention they hide behind; EP: dispatch and combine all-to-all
    per MoE layer; PP: 2·v sends of b·s·h·2/t bytes over the scale-out network [3].
    """
    cp, vst, h, tokens_mb, a_net, a_su = q.cp, q.vst, q.h, q.tokens_mb, q.a_net, q.a_su
    layers_here, t_model, t_recompute, t_attn = c.layers_here, c.t_model, c.t_recompute, c.t_attn
    # tensor parallelism: 2 all-reduces (or all-gather + reduce-scatter) per layer forward,
    # 2 backward, 2 more when the forward is recomputed, of the micro-batch's activations
    calls = layers_here * (4.0 + 2.0 * q.full_share)
    msg = tokens_mb * h * tr.ACT_BYTES
    with np.errstate(invalid="ignore", divide="ignore"):
        one = 2.0 * (t - 1.0) / t * msg / (su * net.GB) + 2.0 * (t - 1.0) * a_su
    t_tp = np.where(t > 1, calls * one, 0.0)
    # overlapped with the GEMMs, up to the compute they can hide behind (stacks that can)
    tp_overlap = v["workload.tp_comm_overlap_fraction"] * v["stack.tp_overlap"] * v["cal.tp"]
    # folded MoE layers: the expert MLP's collective runs over the ETP ranks, not TP
    # (arXiv:2504.14960 §3): one of each layer pass's two collectives, on the MoE layers
    et = v["etp"]
    one_e = as_float_array(tensor_parallel_collective_seconds(msg, et, su, a_su))
    one_t = as_float_array(tensor_parallel_collective_seconds(msg, t, su, a_su))
    moe_calls = calls / 2.0 * sh["phi"]
    t_tp = np.where(v["folded"] > 0.5, calls * one_t + moe_calls * (one_e - one_t), t_tp)
    hidden = np.minimum(tp_overlap * t_tp, t_model + t_recompute)
    t_tp_raw = t_tp
    t_tp = t_tp - hidden
    # what is left of that compute for the experts' all-to-all to hide behind
    a2a_cap = np.maximum(t_model + t_recompute - hidden, 0.0)
    # context parallelism: K and V blocks round the ring, forward and twice backward
    # (K, V and their gradients), hidden behind the attention kernels they feed; inside the
    # scale-up domain while t·c fits in it
    kv_bytes = 2.0 * tokens_mb * h * sh["kv"] / sh["a"] * tr.ACT_BYTES / t
    in_domain = t * cp <= v["instance.scaleup_domain_accels"]
    cp_bw = np.where(in_domain, su, net_share)
    cp_alpha = np.where(in_domain, a_su, a_net)
    with np.errstate(invalid="ignore", divide="ignore"):
        ring = as_float_array(ring_attention_exchange_seconds(kv_bytes, cp, cp_bw, cp_alpha))
    ring = np.where(cp > 1, 3.0 * ring, 0.0)
    t_cp = layers_here * np.maximum(ring - t_attn, 0.0)
    t_a2a_raw, t_a2a, a2a_sm_rate = _expert_all_to_all(v, sh, q, c, t, et, net_share, su, a2a_cap)
    # pipeline: activations forward and gradients backward across each of the v chunk
    # boundaries, split over the TP ranks (scatter/gather or sequence parallelism)
    t_pp = as_float_array(
        pipeline_send_seconds(
            msg / t, vst, net_share, a_net, t_model + t_recompute, v["stack.p2p_overlap"]
        )
    )
    t_pp = np.where(p > 1, t_pp, 0.0)

    return _Comm(
        t_tp_raw=t_tp_raw,
        t_tp=t_tp,
        t_cp=t_cp,
        t_a2a_raw=t_a2a_raw,
        a2a_sm_rate=a2a_sm_rate,
        t_a2a=t_a2a,
        a2a_cap=a2a_cap,
        t_pp=t_pp,
    )


def _modelled_dp_and_optimizer(
    v, sh, t, p, d, m, q: _Setup, c: _Compute, mem: _Memory, net_share, su
) -> _DataParallel:
    """Data-parallel synchronisation, its exposed part and the optimizer step [s].

    Hierarchical all-reduce (:func:`models.network.hierarchical_allreduce_seconds`) of the
    non-expert gradients over the d·c replicas and of the routed experts' over d·c/EP, of
    :func:`dp_allreduce_bytes_per_param` bytes per parameter; exposed beyond the hide window
    (:func:`dp_exposed_seconds`), except the last bucket's own reduction
    (:func:`dp_bucket_params`); Adam at :func:`optimizer_seconds`, scaled by the moments.
    """
    cp, t_model, psi, ep = q.cp, c.t_model, mem.psi, c.ep
    # data parallelism over the d·c replicas: gradients reduced (ZeRO ≥ 1: reduce-scatter
    # + all-gather of the bf16 weights; ZeRO-3 gathers the weights again for every
    # micro-batch, forward and backward), hierarchical inside the scale-up domain
    z = v["workload.zero_stage"]
    g = v["gradient_bytes"]
    dr = d * cp
    per_param = as_float_array(dp_allreduce_bytes_per_param(z, g, m))
    dom = v["instance.scaleup_domain_accels"]
    # non-expert parameters reduce over all d·c replicas; the routed experts over the d·c/EP
    # ranks that hold the same experts (Megatron's rank order tp-cp-ep-dp: expert-parallel
    # peers sit next to each other, so expert replicas are EP ranks apart)
    psi_ne, psi_e, d_e, stride_ne, stride_e = _gradient_groups(v, sh, t, p, d, cp, ep, psi)

    def reduce_seconds(params, ranks, stride):
        g_in = np.minimum(np.clip(np.floor(dom / stride), 1.0, None), ranks)
        g_in = np.maximum(g_in, 1.0)
        domains = np.maximum(ranks / g_in, 1.0)
        out = as_float_array(
            net.hierarchical_allreduce_seconds(
                per_param * params,
                g_in,
                domains,
                np.where(g_in > 1, su, 1.0),
                net_share,
                v["network.alpha_scaleup_us"],
                v["network.alpha_network_us"],
                overlapped=True,
            )
        )
        return np.where(ranks > 1, out, 0.0)

    dp_sync = reduce_seconds(psi_ne, dr, stride_ne) + np.where(
        psi_e > 0, reduce_seconds(psi_e, d_e, stride_e), 0.0
    )
    dp_sync = np.where(dr > 1, dp_sync, 0.0)
    # the gradient reduction hides behind the last micro-batch's backward pass; with a
    # sharded optimizer the weights' all-gather behind the next step's first forward
    # (Megatron-Core --overlap-param-gather); ZeRO-3 behind all compute.  The passes last
    # their whole wall time: math, recomputation, memory-bound kernels and launch gaps
    busy = t_model + c.t_recompute + mem.t_mem + mem.t_launch
    window = np.select([z >= 3, z >= 1], [m * busy, busy], 2.0 / 3.0 * busy)
    dp_overlap = v["workload.comm_overlap_fraction"] * v["stack.dp_overlap"]
    # the last bucket of the non-expert gradients, reduced alone once the backward ends
    last_bucket = reduce_seconds(np.minimum(dp_bucket_params(dr), psi_ne), dr, t)
    dp_exposed = as_float_array(dp_exposed_seconds(dp_sync, dp_overlap, window, last_bucket))
    dp_exposed = np.where(dr > 1, dp_exposed, 0.0)

    opt_params = np.where(z >= 1, psi_ne / dr + psi_e / d_e, psi)
    # the Adam step reads and writes the moments: 2 × (moment bytes − 8) more or less
    t_opt = as_float_array(optimizer_seconds(opt_params, v["instance.hbm_TBps"]))
    t_opt = t_opt * (
        1.0 + 2.0 * (v["workload.optimizer_moment_bytes"] - 8.0) / OPTIMIZER_TRAFFIC_BYTES
    )

    return _DataParallel(
        dp_sync=dp_sync, dp_exposed=dp_exposed, window=window, last_bucket=last_bucket, t_opt=t_opt
    )


def _gradient_groups(v, sh, t, p, d, cp, ep, psi):
    """The two groups the data-parallel gradients reduce over: (non-expert parameters per
    rank, routed-expert parameters per rank, expert data-parallel ranks, rank stride of the
    non-expert replicas, rank stride of the expert replicas).  Non-expert gradients reduce
    over the d·c replicas (CP ranks adjacent: stride t); the routed experts over the
    d·c/EP ranks that hold the same experts (Megatron's rank order tp-cp-ep-dp: stride
    t·c·EP; folded, the expert grid is ETP-EP-DP: stride EP·ETP)."""
    et = v["etp"]
    psi_e = as_float_array(expert_params_per_rank(sh["N_expert"] * 1e9, p, ep, et))
    d_e = as_float_array(expert_data_parallel_size(t, cp, d, ep, et))
    stride_e = np.where(v["folded"] > 0.5, et * ep, t * cp * ep)
    return psi - psi_e, psi_e, d_e, t, stride_e


def gradient_reduction_groups(x: Mapping[str, Any]) -> dict[str, np.ndarray]:
    """The gradient reductions of one step as the modelled step charges them: the non-expert
    gradients over every data-parallel replica and, for a mixture of experts, the routed
    experts' over the expert data-parallel group (:func:`_modelled_dp_and_optimizer`).

    Parameters
    ----------
    x : Mapping of str to array_like
        Flat inputs (:func:`models.evaluate.resolve_inputs`), scalars.

    Returns
    -------
    dict of str to ndarray
        ``params_per_rank`` [count] (non-expert, experts), ``ranks`` [count] (d·c and the
        expert data-parallel size), ``stride`` [ranks] between the replicas of each group.

    Examples
    --------
    >>> from models import load_preset, resolve_inputs
    >>> g = gradient_reduction_groups(resolve_inputs(load_preset("llama3-70b")))
    >>> [float(r) for r in g["ranks"]], float(g["params_per_rank"][1])
    ([32.0, 1.0], 0.0)
    """
    v = _inputs(x)
    sh = _shape(v)
    t, p, cp = (
        v[k]
        for k in (
            "workload.tensor_parallel",
            "workload.pipeline_parallel",
            "workload.context_parallel",
        )
    )
    ep = v["workload.expert_parallel"]
    k = v["instance.accelerators_per_node"]
    d = whole_data_parallel(v["cluster.nodes"] * k, t, p, cp, ep, v["etp"], v["folded"])
    d = np.maximum(d, 1.0)
    psi = _params_per_rank(sh, t, p, ep, v["etp"])
    psi_ne, psi_e, d_e, stride_ne, stride_e = _gradient_groups(v, sh, t, p, d, cp, ep, psi)
    return {
        "params_per_rank": np.array([float(psi_ne), float(psi_e)]),
        "ranks": np.array([float(d * cp), float(d_e) if float(psi_e) > 0 else 1.0]),
        "stride": np.array([float(stride_ne), float(stride_e)]),
    }


def _other_dispatcher_a2a(v, sh, t, q: _Setup, c: _Compute, net_share, su, t_a2a, cap):
    """The exposed expert all-to-all of one micro-batch under the other token dispatcher
    [s] (all-to-all ↔ DeepEP, :func:`_expert_all_to_all`): an open setting where the
    scenario does not state its settings.  ``t_a2a`` (this dispatcher's) where no MoE layer
    sends across ranks, so the move is 0 there."""
    if not np.any((sh["moe"] > 0.5) & (c.ep > 1)):
        return t_a2a
    other = dict(v)
    other["deepep"] = 1.0 - v["deepep"]
    return _expert_all_to_all(other, sh, q, c, t, v["etp"], net_share, su, cap)[1]


def _open_settings_seconds(
    v,
    sh,
    p,
    m,
    q: _Setup,
    c: _Compute,
    mem: _Memory,
    cm: _Comm,
    dp: _DataParallel,
    t_mb,
    pipe,
    alt_a2a,
):
    """How much faster and slower the step would be under the neighbouring values of the
    settings a scenario usually assumes rather than measures [s]
    (docs/step-time.md#open-settings).

    Each setting moves one step either way, one at a time, as the validation's open
    alternatives do (``tests/validation/step_cases.py``, whose held-out residuals give the
    ratios the bounds are multiplied by); the largest move each way bounds the step:
    recomputation full ↔ selective (the recomputed forward, m·t_recompute, or one more
    forward pass, m·t_model/3); data- and tensor-parallel overlap none ↔ all the stack
    allows; the experts' all-to-all overlap none ↔ all; the token dispatcher all-to-all ↔
    DeepEP (``alt_a2a``: the exposed all-to-all under the other one, where they differ); interleaving v/2 ↔ 2v chunks per stage (within 1 and the stage's layers, for
    stacks that interleave), which scales the bubble (p−1)/v·t_mb.  Per-micro-batch terms
    are scaled by the pipeline's (m + (p−1)/v)/m.  Returns (lower_by, higher_by) [s], ≥ 0.
    """
    with np.errstate(divide="ignore", invalid="ignore"):
        f = np.where(m * t_mb > 0, pipe / (m * t_mb), 1.0)
        # recomputation: full → selective saves the recomputed forward; selective or none
        # → full adds one forward pass (a third of forward + backward)
        lo_r = np.where(q.full, m * c.t_recompute * f, 0.0)
        hi_r = (1.0 - q.full_share) * m * c.t_model / 3.0 * f
        # interleaving: the bubble (p−1)/v·t_mb at v/2 and 2v chunks
        vst = q.vst
        bubble = np.where(p > 1, pipe - m * t_mb, 0.0)
        v_lo = np.maximum(1.0, vst / 2.0)
        v_hi = np.where(v["stack.interleave"] > 0.5, np.minimum(sh["L"] / p, 2.0 * vst), vst)
        v_hi = np.maximum(v_hi, vst)
        hi_v = bubble * (vst / v_lo - 1.0)
        lo_v = bubble * (1.0 - vst / v_hi)
        # data-parallel overlap: none, or all the stack can
        ex_all = as_float_array(
            dp_exposed_seconds(dp.dp_sync, v["stack.dp_overlap"], dp.window, dp.last_bucket)
        )
        hi_dp = np.maximum(dp.dp_sync - dp.dp_exposed, 0.0)
        lo_dp = np.maximum(dp.dp_exposed - ex_all, 0.0)
        # tensor-parallel overlap: none, or all the stack can
        cap = c.t_model + c.t_recompute
        tp_all = cm.t_tp_raw - np.minimum(v["stack.tp_overlap"] * v["cal.tp"] * cm.t_tp_raw, cap)
        hi_tp = m * f * np.maximum(cm.t_tp_raw - cm.t_tp, 0.0)
        lo_tp = m * f * np.maximum(cm.t_tp - tp_all, 0.0)
        # expert all-to-all overlap: none, or all of it (less DeepEP's SMs' cost then)
        hi_ep = m * f * np.maximum(cm.t_a2a_raw - cm.t_a2a, 0.0)
        most = np.minimum(cm.t_a2a_raw, cm.a2a_cap)  # all of it, as far as compute hides it
        lo_ep = m * f * np.maximum(cm.t_a2a - (cm.t_a2a_raw - most + most * cm.a2a_sm_rate), 0.0)
        # the token dispatcher: the other one, all-to-all <-> DeepEP (the same inside one
        # scale-up domain)
        hi_ep = np.maximum(hi_ep, m * f * np.maximum(alt_a2a - cm.t_a2a, 0.0))
        lo_ep = np.maximum(lo_ep, m * f * np.maximum(cm.t_a2a - alt_a2a, 0.0))
    lower_by = np.nan_to_num(
        np.maximum.reduce(np.broadcast_arrays(lo_r, lo_v, lo_dp, lo_tp, lo_ep))
    )
    higher_by = np.nan_to_num(
        np.maximum.reduce(np.broadcast_arrays(hi_r, hi_v, hi_dp, hi_tp, hi_ep))
    )
    return lower_by, higher_by


def modelled_components(v: Mapping[str, np.ndarray], sh, t, p, d, n, b, m, net_share, su):
    """Seconds per step of the modelled basis, by component (docs/step-time.md).

    Composes :func:`_modelled_setup`, :func:`_modelled_compute`, :func:`_modelled_memory`,
    :func:`_modelled_comm` and :func:`_modelled_dp_and_optimizer`; the pipeline takes
    (m + (p−1)/v)·t_mb (:func:`pipeline_seconds`, Narayanan et al. [3]).

    Parameters
    ----------
    v : Mapping of str to ndarray
        The flat inputs as arrays (:func:`_inputs`).
    sh : Mapping of str to ndarray
        The model shape (:func:`_shape`).
    t, p : ndarray
        Tensor- and pipeline-parallel sizes [count].
    d : ndarray
        Data-parallel size, context-parallel ranks not included [count].
    n : ndarray
        Accelerators in the job [count].
    b, m : ndarray
        Sequences per micro-batch and micro-batches per step [count].
    net_share : ndarray
        Each accelerator's scale-out bandwidth [GB/s, efficiency applied].
    su : ndarray
        Its scale-up bandwidth per direction [GB/s, efficiency applied].

    Returns
    -------
    dict of str to ndarray
        ``compute_s``, ``recompute_s``, ``bubble_s``, ``dp_sync_s``, ``dp_exposed_s``,
        ``tp_s``, ``pp_s``, ``step_s`` [s]; ``open_low_s``, ``open_high_s``, the step under
        the open settings' neighbouring values [s]; on a stack with a fitted efficiency
        also ``stack_low_s``, ``stack_high_s``, the step at the highest and lowest
        efficiency its folds found [s]; ``model_flops_per_step`` [FLOP];
        ``effective_mfu`` [fraction].
    """
    q = _modelled_setup(v, sh, b)

    def on_stage(stage):
        c = _modelled_compute(v, sh, t, p, q, stage)
        mem = _modelled_memory(v, sh, t, p, b, q, c)
        cm = _modelled_comm(v, sh, t, p, q, c, net_share, su)
        dp = _modelled_dp_and_optimizer(v, sh, t, p, d, m, q, c, mem, net_share, su)
        # one micro-batch through the stage: math, recomputation, memory-bound and launch
        # time, and the exposed TP, CP, expert and PP communication
        t_mb = c.t_model + c.t_recompute + mem.t_mem + mem.t_launch
        return c, mem, cm, dp, t_mb + cm.t_tp + cm.t_cp + cm.t_a2a + cm.t_pp

    # the pipeline runs at its slowest stage: the last (the output layer, the MTP modules)
    # or, where a stated layout leaves the last stage short, maybe another one
    c, mem, cm, dp, t_mb = on_stage(0)
    if np.any(np.isfinite(v["workload.last_stage_layers"]) & (p > 1)):
        other = on_stage(1)
        slower = other[4] > t_mb
        c, mem, cm, dp = (
            type(a)(*(np.where(slower, y, x) for x, y in zip(a, o, strict=True)))
            for a, o in zip((c, mem, cm, dp), other[:4], strict=True)
        )
        t_mb = np.where(slower, other[4], t_mb)
    s, vst, peak = q.s, q.vst, q.peak
    t_model, t_recompute, t_mem, t_launch = c.t_model, c.t_recompute, mem.t_mem, mem.t_launch
    t_tp, t_cp, t_a2a, t_pp = cm.t_tp, cm.t_cp, cm.t_a2a, cm.t_pp
    dp_sync, dp_exposed, t_opt = dp.dp_sync, dp.dp_exposed, dp.t_opt
    pipe = as_float_array(pipeline_seconds(t_mb, m, p, vst))
    bubble = pipe - m * t_mb

    step = pipe + dp_exposed + t_opt
    alt_a2a = _other_dispatcher_a2a(v, sh, t, q, c, net_share, su, cm.t_a2a, cm.a2a_cap)
    lower_by, higher_by = _open_settings_seconds(
        v, sh, p, m, q, c, mem, cm, dp, t_mb, pipe, alt_a2a
    )
    model_flops = as_float_array(_flops_per_token(sh, s)) * (v["batch_sequences"] * s)
    out = {
        "compute_s": m * (t_model + t_mem + t_launch) + t_opt,
        "recompute_s": m * t_recompute,
        "bubble_s": bubble,
        "dp_sync_s": dp_sync,
        "dp_exposed_s": dp_exposed,
        "tp_s": m * (t_tp + t_cp + t_a2a),
        "pp_s": m * t_pp,
        "step_s": step,
        "open_low_s": step - lower_by,
        "open_high_s": step + higher_by,
        "model_flops_per_step": model_flops,
        "effective_mfu": model_flops / (n * peak * 1e12 * step),
    }
    eff_lo, eff_hi = v["stack.eff_range"]
    if eff_lo != eff_hi:  # a fitted stack: its kernels at every efficiency the folds found
        with np.errstate(divide="ignore", invalid="ignore"):
            kernels = np.where(t_mb > 0, (t_model + t_recompute + t_mem) * pipe / t_mb, 0.0)
        eff = v["stack.kernel_eff"]
        out["stack_low_s"] = step - kernels * np.maximum(1.0 - eff / eff_hi, 0.0)
        out["stack_high_s"] = step + kernels * np.maximum(eff / eff_lo - 1.0, 0.0)
    return out


# --------------------------------------------------------------------------- evaluate glue
#: scenario fields the step model reads (defaults come from models.fields when absent)
_STEP_FIELDS = (
    "workload.params_billion",
    "workload.tokens_trillion",
    "workload.mfu",
    "workload.global_batch_million_tokens",
    "workload.global_batch_sequences",
    "workload.sequence_length",
    "workload.micro_batch_sequences",
    "workload.micro_batches",
    "workload.layers",
    "workload.hidden_size",
    "workload.attention_heads",
    "workload.kv_heads",
    "workload.attention_head_dim",
    "workload.attention_params_million",
    "workload.ffn_hidden_size",
    "workload.vocab_size",
    "workload.tensor_parallel",
    "workload.pipeline_parallel",
    "workload.pipeline_virtual_stages",
    "workload.context_parallel",
    "workload.experts",
    "workload.experts_per_token",
    "workload.expert_ffn_hidden_size",
    "workload.shared_experts",
    "workload.expert_parallel",
    "workload.expert_tensor_parallel",
    "workload.moe_max_nodes_per_token",
    "workload.mtp_layers",
    "workload.last_stage_layers",
    "workload.recompute_layers",
    "workload.moe_layer_frequency",
    "workload.moe_load_imbalance",
    "workload.moe_comm_overlap_fraction",
    "workload.moe_dispatcher_sm_fraction",
    "workload.comm_sm_fraction",
    "workload.optimizer_moment_bytes",
    "workload.zero_stage",
    "workload.comm_overlap_fraction",
    "workload.tp_comm_overlap_fraction",
    "workload.hbm_reserved_fraction",
    "network.inter_node_gbps",
    "network.inter_node_efficiency",
    "network.alpha_network_us",
    "network.alpha_scaleup_us",
)
_INSTANCE_KEYS = (
    "instance.accelerators_per_node",
    "instance.bf16_dense_tflops",
    "instance.fp8_dense_tflops",
    "instance.accel_memory_GiB",
    "instance.hbm_TBps",
    "instance.scaleup_GBps",
    "instance.scaleup_efficiency",
    "instance.scaleup_domain_accels",
    "instance.efa_gbps",
    "instance.max_matmul_fraction",
)
#: The choices the step model reads (coded as numbers by :func:`_inputs`).
STEP_CHOICE_KEYS = (
    "workload.mlp",
    "workload.sequence_parallel",
    "workload.recompute",
    "workload.flash_attention",
    "workload.dropout",
    "workload.balanced_stages",
    "workload.gradient_precision",
    "workload.software_stack",
    "workload.precision",
    "workload.tied_embeddings",
    "workload.step_settings_stated",
    "workload.moe_dispatcher",
)
#: Every input :func:`step_model` reads, plus the basis the chain passes it: the step time
#: is a function of these alone, so equal values give equal results (the chain memoises
#: it on them; a test records the keys the model touches and compares with this tuple).
STEP_INPUT_KEYS = (
    *_STEP_FIELDS,
    *_INSTANCE_KEYS,
    "cluster.nodes",
    *STEP_CHOICE_KEYS,
    "workload.mfu_basis",
)


def _get(x: Mapping[str, Any], key: str) -> np.ndarray:
    if key in x:
        return as_float_array(x[key])
    if key.startswith("instance."):
        return as_float_array(np.nan)
    from .fields import FIELDS  # local import: fields is a leaf module, keep compute pure

    return as_float_array(FIELDS[key].default)


def _choice(x: Mapping[str, Any], key: str):
    from .choices import CHOICE_ENUMS
    from .fields import FIELDS

    return CHOICE_ENUMS[key](x.get(key, FIELDS[key].default))


def _inputs(
    x: Mapping[str, Any], calibration: Mapping[str, Any] | None = None
) -> dict[str, np.ndarray]:
    """The step model's inputs as float arrays, choices coded as numbers; ``calibration``
    overrides the fitted constants (the cross-validation passes trial values)."""
    from .choices import GradientPrecision, Mlp, MoeDispatcher, OnOff, Precision

    v = {k: _get(x, k) for k in (*_STEP_FIELDS, *_INSTANCE_KEYS)}
    v["cluster.nodes"] = _get(x, "cluster.nodes")
    v["gated"] = as_float_array(1.0 if _choice(x, "workload.mlp") is Mlp.SWIGLU else 0.0)
    v["sp"] = as_float_array(1.0 if _choice(x, "workload.sequence_parallel") is OnOff.ON else 0.0)
    v["recompute_choice"] = as_float_array(_choice(x, "workload.recompute").code)
    v["recompute"] = v["recompute_choice"]  # auto: least_recompute resolves it
    v["recompute_layers_entered"] = v["workload.recompute_layers"]
    v["fa"] = as_float_array(1.0 if _choice(x, "workload.flash_attention") is OnOff.ON else 0.0)
    v["dropout"] = as_float_array(1.0 if _choice(x, "workload.dropout") is OnOff.ON else 0.0)
    balanced = _choice(x, "workload.balanced_stages") is OnOff.ON
    v["balanced"] = as_float_array(1.0 if balanced else 0.0)
    grad = _choice(x, "workload.gradient_precision")
    v["gradient_bytes"] = as_float_array(GradientPrecision(grad).bytes)
    stack_code = int(_choice(x, "workload.software_stack").code)
    stack = STACKS[stack_code]
    v["stack.tp_overlap"] = as_float_array(stack[0])
    v["stack.dp_overlap"] = as_float_array(stack[1])
    # a stack without interleaving runs plain 1F1B; without fused kernels, materialised
    # attention
    vst = v["workload.pipeline_virtual_stages"]
    v["vst"] = vst if stack[2] > 0.5 else np.ones_like(vst)
    v["stack.interleave"] = as_float_array(stack[2])
    stated = _choice(x, "workload.step_settings_stated") is OnOff.ON
    v["stated"] = as_float_array(1.0 if stated else 0.0)
    v["fa"] = v["fa"] * stack[3]
    v["stack.attention"] = as_float_array(stack[4])
    v["stack.p2p_overlap"] = as_float_array(stack[5])
    v["fp8"] = as_float_array(1.0 if _choice(x, "workload.precision") is Precision.FP8 else 0.0)
    v["tied"] = as_float_array(1.0 if _choice(x, "workload.tied_embeddings") is OnOff.ON else 0.0)
    deepep = _choice(x, "workload.moe_dispatcher") is MoeDispatcher.DEEPEP
    v["deepep"] = as_float_array(1.0 if deepep else 0.0)
    # the calibrated constants (the cross-validation passes trial values here)
    cal = calibration or {}
    v["cal.gemm"] = as_float_array(cal.get("calibration.gemm_efficiency", GEMM_EFFICIENCY))
    v["cal.hbm"] = as_float_array(cal.get("calibration.hbm_efficiency", HBM_EFFICIENCY))
    v["cal.tp"] = as_float_array(
        cal.get("calibration.tp_overlap_efficiency", TP_OVERLAP_EFFICIENCY)
    )
    v["cal.overhead"] = as_float_array(
        cal.get("calibration.layer_pass_overhead_s", LAYER_PASS_OVERHEAD_S)
    )
    v["stack.eff_range"] = STACK_KERNEL_EFFICIENCY_RANGE[stack_code]
    v["stack.kernel_eff"] = as_float_array(
        cal.get("calibration.stack_kernel_efficiency", STACK_KERNEL_EFFICIENCY[stack_code])
        if STACK_EFFICIENCY_FITTED[stack_code]
        else STACK_KERNEL_EFFICIENCY[stack_code]
    )
    eff = v["instance.scaleup_efficiency"]
    v["instance.scaleup_efficiency"] = np.where(np.isnan(eff), 1.0, eff)
    v["etp"], v["folded"] = expert_tensor_parallel(
        v["workload.tensor_parallel"], v["workload.expert_tensor_parallel"]
    )
    gbps = v["network.inter_node_gbps"]
    v["node_gbps"] = np.where(np.isnan(gbps), v["instance.efa_gbps"], gbps)
    seqs = v["workload.global_batch_sequences"]
    v["batch_sequences"] = np.where(
        np.isnan(seqs),
        v["workload.global_batch_million_tokens"] * 1e6 / v["workload.sequence_length"],
        seqs,
    )
    return v


def step_interval(
    step_seconds,
    basis: str = "modelled",
    moe=0.0,
    settings_low=None,
    settings_high=None,
    micro_batches=np.inf,
):
    """The 80% prediction interval of a step time [s], as (low, high).

    Modelled basis: the step times :data:`STEP_INTERVAL_RATIO` (dense models),
    :data:`FEW_MICROBATCH_STEP_INTERVAL_RATIO` (dense models whose step has at most
    :data:`FEW_MICROBATCHES` micro-batches) or :data:`MOE_STEP_INTERVAL_RATIO` (``moe`` =
    1: mixture of experts), the 10th and 90th percentiles of measured/modelled over the
    held-out cases of that kind in the leave-one-source-out cross-validation
    (docs/step-time.md#leave-one-source-out).  A stated MFU (the other bases) is the
    user's figure: its interval is the point itself.

    Parameters
    ----------
    step_seconds : array_like
        Step time [s].
    basis : str
        ``workload.mfu_basis``: ``modelled``, ``end_to_end`` or ``compute_only``.
    moe : array_like
        1 for a mixture-of-experts model, else 0 [-].
    settings_low, settings_high : array_like, optional
        The step under the neighbouring values of the settings the scenario leaves open
        (:func:`_open_settings_seconds`) [s]; the interval runs from ``settings_low`` times
        the low ratio to ``settings_high`` times the high one.  Default: the step itself.
    micro_batches : array_like
        Micro-batches per step on each data-parallel rank m [count]; default many.

    Returns
    -------
    tuple of (float or ndarray)
        (low, high) [s].

    Examples
    --------
    >>> lo, hi = step_interval(10.0)
    >>> lo < 10.0 < hi
    True
    >>> step_interval(10.0, "end_to_end")
    (10.0, 10.0)
    >>> [round(float(x), 2) for x in step_interval(10.0, settings_low=9.0, settings_high=12.0)]
    [8.01, 13.92]
    >>> [round(float(x), 2) for x in step_interval(10.0, micro_batches=1)]  # one micro-batch
    [9.2, 12.4]
    """
    s = as_float_array(step_seconds)
    s_lo = s if settings_low is None else np.minimum(as_float_array(settings_low), s)
    s_hi = s if settings_high is None else np.maximum(as_float_array(settings_high), s)
    if basis != "modelled":
        return like_input(s, step_seconds), like_input(s, step_seconds)
    moe = as_float_array(moe) > 0.5
    few = as_float_array(micro_batches) <= FEW_MICROBATCHES
    ratios = (MOE_STEP_INTERVAL_RATIO, FEW_MICROBATCH_STEP_INTERVAL_RATIO, STEP_INTERVAL_RATIO)
    lo, hi = (np.select([moe, few], [r[i] for r in ratios[:2]], ratios[2][i]) for i in (0, 1))
    return like_input(s_lo * lo, step_seconds), like_input(s_hi * hi, step_seconds)


def _min_nodes_for_states(v, sh, t, p, cp, k, usable, act):
    """Fewest nodes whose data-parallel sharding brings the model states into HBM [count].

    rep·Ψ' + shard·Ψ'/d ≤ U − activations for the smallest integer d ≥ 1 (ZeRO [4]: rep and
    shard the replicated and sharded bytes per parameter of the stage), then
    ⌈max(d, cp)·t·p/k⌉; ``inf`` when no d fits.
    """
    psi = _params_per_rank(sh, t, p, v["workload.expert_parallel"], v["etp"]) / 1e9
    z, g = v["workload.zero_stage"], v["gradient_bytes"] + v["fp8"]
    opt = 4.0 + v["workload.optimizer_moment_bytes"]
    rep = np.select([z == 0, z == 1, z == 2], [2.0 + g + opt, 2.0 + g, 2.0], 0.0)
    shard = (2.0 + g + opt) - rep
    room = usable - act - rep * psi
    with np.errstate(divide="ignore", invalid="ignore"):
        d_min = np.maximum(np.ceil(shard * psi / np.where(room > 0, room, 1.0) - 1e-9), 1.0)
    d_min = np.where(
        shard == 0, np.where(room >= 0, 1.0, np.inf), np.where(room > 0, d_min, np.inf)
    )
    with np.errstate(invalid="ignore"):
        nmin = np.ceil(np.maximum(d_min, cp) * t * p / k - 1e-9)
    return nmin


def heads_split_over_tp(heads, kv_heads, tensor_parallel):
    """Whether the attention splits over the tensor-parallel ranks: the query heads a
    multiple of TP, the key/value heads a multiple or a divisor of it (replicated then), as
    Megatron-Core's ``TransformerConfig`` requires (``num_attention_heads %
    tensor_model_parallel_size``, ``num_query_groups`` a multiple or divisor).

    Parameters
    ----------
    heads, kv_heads : array_like
        Query and key/value heads [count].
    tensor_parallel : array_like
        TP [count].

    Returns
    -------
    bool or ndarray
        True where the heads split.

    Examples
    --------
    >>> bool(heads_split_over_tp(64, 8, 8)), bool(heads_split_over_tp(64, 8, 16))  # 16: 8 kv x2
    (True, True)
    >>> bool(heads_split_over_tp(64, 8, 3)), bool(heads_split_over_tp(48, 6, 16))
    (False, False)
    """
    a = np.rint(as_float_array(heads))
    g = np.rint(as_float_array(kv_heads))
    t = np.rint(as_float_array(tensor_parallel))
    with np.errstate(invalid="ignore", divide="ignore"):
        ok = (np.mod(a, t) == 0) & ((np.mod(g, t) == 0) | (np.mod(t, g) == 0))
    return ok if ok.ndim else bool(ok)


def _feasible(v, sh, t, p, cp, d, b, m, basis):
    """Masks (tp_ok, runs): TP inside a known scale-up domain; the whole configuration runs.

    runs = tp_ok, d ≥ 1, L ≥ p, N > 0, a ≥ t, s ≥ cp, expert parallelism splittable,
    a stated last stage that leaves a layer to every other stage, b ≥ 1 and m ≥ 1, and a
    measured matmul efficiency under the modelled basis.
    """
    tp_ok = (t <= v["instance.scaleup_domain_accels"]) & (
        (t == 1) | np.isfinite(v["instance.scaleup_GBps"])
    )
    shape_ok = (sh["L"] >= p) & (sh["N"] > 0) & (sh["a"] >= t)
    shape_ok = shape_ok & heads_split_over_tp(sh["a"], sh["kv"], t)
    # context parallelism splits each sequence into 2·CP chunks (load-balanced causal ring)
    shape_ok = shape_ok & ((cp <= 1) | (np.mod(v["workload.sequence_length"], 2.0 * cp) == 0))
    ep = v["workload.expert_parallel"]
    folded = v["folded"] > 0.5
    et = v["etp"]
    # folded: the EP × ETP expert grid is taken from the stage's t·c·d ranks
    ep_room = np.where(folded, t * cp * d / et, d * cp)
    moe_ok = (ep <= np.maximum(ep_room, 1.0)) & (
        (v["workload.experts"] < 0.5) & (ep == 1) | (ep <= np.maximum(v["workload.experts"], 1.0))
    )
    # a token cannot be routed to more experts than there are
    moe_ok = moe_ok & ((v["workload.experts"] < 0.5) | (sh["k"] <= v["workload.experts"]))
    fe = v["workload.expert_ffn_hidden_size"]
    fe = np.where(np.isnan(fe), sh["ffn"], fe)
    etp_ok = ~folded | (
        (v["workload.experts"] > 0.5)
        & (et <= v["instance.scaleup_domain_accels"])
        & (np.mod(fe, et) == 0)
    )
    # node-limited routing: the M nodes a token may reach must hold its k experts
    lim = v["workload.moe_max_nodes_per_token"]
    g_nodes = ep / np.maximum(np.floor(v["instance.scaleup_domain_accels"] / et), 1.0)
    route_ok = (
        np.isnan(lim)
        | (lim >= g_nodes)
        | (lim * v["workload.experts"] / np.maximum(g_nodes, 1.0) >= sh["k"])
    )
    # a stated last stage leaves at least one layer to each of the other stages
    n_last = v["workload.last_stage_layers"]
    layout_ok = np.isnan(n_last) | (p <= 1) | (n_last <= sh["L"] - (p - 1.0))
    # layers recomputed per chunk: a setting of full recomputation only
    redo_ok = np.isnan(v["recompute_layers_entered"]) | (v["recompute_choice"] == tr.FULL)
    shape_ok = shape_ok & moe_ok & etp_ok & route_ok & layout_ok & redo_ok
    batch_ok = (b >= 1.0 - 1e-9) & (m >= 1.0 - 1e-9)
    modelled = basis == "modelled"
    known = np.isfinite(v["instance.max_matmul_fraction"]) | (not modelled)
    # FP8 GEMMs need the catalog's FP8 rate (precision_reason)
    known = known & ((v["fp8"] < 0.5) | np.isfinite(v["instance.fp8_dense_tflops"]))
    runs = tp_ok & (d >= 1.0) & shape_ok & batch_ok & known
    return tp_ok, runs


#: :class:`models.choices.Recompute` code of ``auto`` (resolved by :func:`least_recompute`)
RECOMPUTE_AUTO = 3.0


def least_recompute(v, sh, states, acts, usable):
    """The least activation recomputation that fits in memory, for ``workload.recompute`` =
    ``auto``: none where the activations fit as they are, else selective, else full
    recomputation of the fewest layers N of each model chunk that fit (every layer when even
    that does not).  Recomputation costs time, so a run recomputes only what its memory
    needs: Megatron-LM recomputes nothing unless asked (``--recompute-granularity``,
    default none), selective recomputation is what Korthikanti et al. (2022, arXiv:2205.05198,
    §5) propose where activations do not fit, and ``--recompute-num-layers`` recomputes the
    first N layers of each chunk (:func:`recompute_share`).  Full recomputation's memory is
    linear in N from one layer on (:func:`_memory`), so N comes from the memory at one layer
    and at every layer.

    Parameters
    ----------
    v : Mapping of str to ndarray
        The flat inputs as arrays (:func:`_inputs`); ``recompute_choice`` the entered code.
    sh : Mapping of str to ndarray
        The model shape (:func:`_shape`).
    states : ndarray
        Model states per accelerator (:func:`_model_states_GB`) [GB].
    acts : _Activations
        One layer's activations at each level (:func:`_activation_terms`) [B].
    usable : ndarray
        Memory per accelerator the model may use [GB].

    Returns
    -------
    dict of str to ndarray
        ``v`` with ``recompute`` (the level used: 0 none, 1 selective, 2 full) and
        ``workload.recompute_layers`` (N per chunk, NaN for every layer) resolved; ``v``
        itself unless the entered level is ``auto``.
    """
    auto = v["recompute_choice"] == RECOMPUTE_AUTO
    if not np.any(auto):
        return v

    def total(share, kept_bytes):
        return states + _activations_GB(acts, share, kept_bytes)

    fits = [total(0.0, acts.none) <= usable, total(0.0, acts.sel) <= usable]
    level = np.select(fits, [tr.NONE, tr.SELECTIVE], tr.FULL)
    chunk = sh["L"] / (v["workload.pipeline_parallel"] * v["vst"])
    one, every = total(recompute_share(1.0, chunk), acts.none), total(1.0, acts.none)
    with np.errstate(divide="ignore", invalid="ignore"):
        per_layer = (one - every) / (chunk - 1.0)  # memory freed per more layer [GB]
        n = 1.0 + np.ceil((one - usable) / per_layer - 1e-9)
        # one layer if it fits, else n while it is fewer than the chunk's, else every layer
        # (NaN: recompute_share's "every layer"; so are a NaN or infinite n)
        n = np.where(one <= usable, 1.0, np.where(n < chunk, n, np.nan))
    out = dict(v)
    out["recompute"] = np.where(auto, level, v["recompute"])
    layers = np.where(level >= tr.FULL, n, np.nan)
    out["workload.recompute_layers"] = np.where(auto, layers, v["workload.recompute_layers"])
    return out


def _batch_split(v, seqs, d):
    """Sequences per micro-batch and micro-batches per step [count] of each of the d
    data-parallel replicas: the stated micro-batch size, or the stated micro-batches."""
    m_given = v["workload.micro_batches"]
    b = np.where(np.isnan(m_given), v["workload.micro_batch_sequences"], seqs / (d * m_given))
    m = np.where(np.isnan(m_given), seqs / (d * b), m_given)
    return b, m


def whole_data_parallel(
    accelerators,
    tensor_parallel,
    pipeline_parallel,
    context_parallel,
    expert_parallel,
    expert_tensor_parallel,
    folded,
):
    """The data-parallel size a job can run: whole replicas of TP × PP × CP, and a number
    of them that the expert-parallel grid divides.

    Megatron-Core runs d = n / (t·p·c) data-parallel replicas only when t·p·c divides the
    world size n, and splits the experts inside them: without folding, EP must divide
    d·c (the ranks of a stage that hold one tensor-parallel shard); with MoE parallel
    folding (``folded``), EP × ETP must divide t·c·d (Liu et al. 2025, arXiv:2504.14960;
    megatron/core/parallel_state.py).  Accelerators beyond the largest such d sit idle
    but are paid: 1,016 accelerators with TP 8 × PP 4 run 31 replicas and leave 24 idle.

    Parameters
    ----------
    accelerators : array_like
        The job's accelerators n [count].
    tensor_parallel, pipeline_parallel, context_parallel : array_like
        t, p and c [count].
    expert_parallel, expert_tensor_parallel : array_like
        EP and ETP [count] (1 and 1 for a dense model).
    folded : array_like
        1 where the expert grid is folded into the stage's t·c·d ranks, else 0.

    Returns
    -------
    ndarray
        The largest whole d with that property [count]; 0 where not even one fits.

    Examples
    --------
    >>> float(whole_data_parallel(1016, 8, 4, 1, 1, 1, 0))
    31.0
    >>> float(whole_data_parallel(1824, 1, 16, 1, 64, 1, 0))  # 114 replicas, EP 64: 64
    64.0
    >>> float(whole_data_parallel(2048, 8, 4, 1, 8, 1, 1))  # folded: EP 8 divides 8·64
    64.0
    """
    t, p, c = (as_float_array(a) for a in (tensor_parallel, pipeline_parallel, context_parallel))
    ep = np.maximum(as_float_array(expert_parallel), 1.0)
    et = np.maximum(as_float_array(expert_tensor_parallel), 1.0)
    raw = np.floor(as_float_array(accelerators) / (t * p * c) + 1e-9)
    step = replica_multiple(t, c, ep, et, folded)
    out = np.floor(raw / step + 1e-9) * step
    return like_input(
        out, accelerators, tensor_parallel, pipeline_parallel, context_parallel, expert_parallel
    )


def expert_tensor_parallel(tensor_parallel, stated):
    """The experts' tensor parallelism and whether MoE parallel folding is on: a stated
    ``workload.expert_tensor_parallel`` other than TP folds the expert grid into the
    stage's ranks; empty (NaN or None) is TP, not folded.

    Parameters
    ----------
    tensor_parallel : array_like
        TP [count].
    stated : array_like or None
        ``workload.expert_tensor_parallel`` [count], NaN or None when empty.

    Returns
    -------
    tuple of ndarray
        ETP [count] and folded (1.0 or 0.0).

    Examples
    --------
    >>> [float(a) for a in expert_tensor_parallel(8, None)]
    [8.0, 0.0]
    >>> [float(a) for a in expert_tensor_parallel(8, 1)]
    [1.0, 1.0]
    """
    tp = as_float_array(tensor_parallel)
    etp = as_float_array(np.nan if stated is None else stated)
    folded = (~np.isnan(etp) & (etp != tp)).astype(float)
    return np.where(np.isnan(etp), tp, etp), folded


def replica_multiple(
    tensor_parallel, context_parallel, expert_parallel, expert_tensor_parallel, folded
):
    """The data-parallel sizes an expert-parallel grid allows are multiples of this [count]:
    grid / gcd(grid, ranks of a replica that hold experts), with grid = EP and c ranks
    unfolded, EP × ETP and t·c ranks folded (:func:`whole_data_parallel`).  1 for a dense
    model.

    Parameters
    ----------
    tensor_parallel, context_parallel, expert_parallel, expert_tensor_parallel : array_like
        t, c, EP and ETP [count].
    folded : array_like
        1 where the expert grid is folded into the stage's t·c·d ranks, else 0.

    Returns
    -------
    ndarray
        The multiple [count].

    Examples
    --------
    >>> float(replica_multiple(8, 1, 64, 8, 0)), float(replica_multiple(8, 2, 64, 1, 1))
    (64.0, 4.0)
    """
    t, c = as_float_array(tensor_parallel), as_float_array(context_parallel)
    ep = np.maximum(as_float_array(expert_parallel), 1.0)
    et = np.maximum(as_float_array(expert_tensor_parallel), 1.0)
    fold = as_float_array(folded) > 0.5
    grid = np.where(fold, ep * et, ep)
    per = np.where(fold, t * c, c)
    g = np.gcd(_as_int(grid), _as_int(per)).astype(float)
    out = grid / np.maximum(g, 1.0)
    return like_input(out, tensor_parallel, context_parallel, expert_parallel)


def _as_int(x: np.ndarray) -> np.ndarray:
    """Whole counts as int64 (NaN and inf as 1: they are refused elsewhere)."""
    x = np.asarray(x, dtype=float)
    return np.where(np.isfinite(x) & (x >= 1), np.round(x), 1).astype(np.int64)


def _modelled_step(v, sh, t, p, dd, n_acc, b, m, net_share, su):
    """:func:`modelled_components` with the MFU views of the modelled basis added.

    Scaling efficiency and compute share = (compute + recompute)/step [fraction]; the
    compute-phase MFU = model FLOPs per step/(n·peak·(compute + recompute)) [fraction].
    """
    c = modelled_components(v, sh, t, p, dd, n_acc, b, m, net_share, su)
    step_s = c["step_s"]
    with np.errstate(divide="ignore", invalid="ignore"):
        compute_all = c["compute_s"] + c["recompute_s"]
        share = compute_all / step_s
        c["scaling_efficiency"] = share
        c["compute_share_of_step"] = share
        c["end_to_end_mfu"] = c["effective_mfu"]
        c["compute_phase_mfu"] = c["model_flops_per_step"] / (
            n_acc * v["instance.bf16_dense_tflops"] * 1e12 * compute_all
        )
    c["mfu_gap_exceeded"] = np.zeros_like(step_s)
    return c


def _stated_mfu_step(v, sh, basis, batch_mtok, m, fpt):
    """:func:`step_components` for a stated MFU (``end_to_end`` or ``compute_only``).

    Recomputation is inside the stated MFU: ``recompute_s`` is 0.
    """
    c = step_components(
        params_billion=sh["N"],
        batch_million_tokens=batch_mtok,
        nodes=v["cluster.nodes"],
        accelerators_per_node=v["instance.accelerators_per_node"],
        peak_tflops=v["instance.bf16_dense_tflops"],
        mfu=v["workload.mfu"],
        hidden_size=sh["h"],
        tensor_parallel=v["workload.tensor_parallel"],
        pipeline_parallel=v["workload.pipeline_parallel"],
        micro_batches=m,
        zero_stage=v["workload.zero_stage"],
        overlap_fraction=v["workload.comm_overlap_fraction"],
        scaleup_GBps_bidir=v["instance.scaleup_GBps"],
        scaleup_domain_accels=v["instance.scaleup_domain_accels"],
        node_network_gbps=v["node_gbps"],
        inter_node_efficiency=v["network.inter_node_efficiency"],
        alpha_network_us=v["network.alpha_network_us"],
        alpha_scaleup_us=v["network.alpha_scaleup_us"],
        end_to_end=basis == "end_to_end",
        max_matmul_fraction=v["instance.max_matmul_fraction"],
        flops_per_token=fpt,
        layers=sh["L"],
        scaleup_efficiency=v["instance.scaleup_efficiency"],
        virtual_stages=v["workload.pipeline_virtual_stages"],
    )
    c["recompute_s"] = np.zeros_like(c["step_s"])
    return c


#: step_model outputs read from the step components: output key -> component key
_STEP_MS = {
    "allreduce_ms": "dp_sync_s",
    "allreduce_exposed_ms": "dp_exposed_s",
    "tp_comm_ms": "tp_s",
    "pp_comm_ms": "pp_s",
}
_STEP_S = {
    "compute_seconds_per_step": "compute_s",
    "recompute_seconds_per_step": "recompute_s",
    "bubble_seconds_per_step": "bubble_s",
}
_STEP_SHARES = {
    "scaling_efficiency": "scaling_efficiency",
    "effective_mfu": "end_to_end_mfu",
    "compute_share_of_step": "compute_share_of_step",
    "compute_phase_mfu": "compute_phase_mfu",
    "mfu_gap_exceeded": "mfu_gap_exceeded",
}


def _interval(v, sh, c, step, fits, basis, m):
    """:func:`step_interval` of the step of m micro-batches, from the open settings' bounds
    unless the scenario states them (``workload.step_settings_stated``) or the basis is a
    stated MFU; on a stack with a fitted efficiency, also from the efficiencies its folds
    found (:data:`STACK_KERNEL_EFFICIENCY_RANGE`)."""
    if basis != "modelled":
        return step_interval(step, basis, sh["moe"])
    stated = v["stated"] > 0.5
    s_lo = np.where(stated, step, np.where(fits, c["open_low_s"], np.nan))
    s_hi = np.where(stated, step, np.where(fits, c["open_high_s"], np.nan))
    if "stack_low_s" in c:  # a fitted stack's efficiency is uncertain whatever is stated
        s_lo = np.minimum(s_lo, c["stack_low_s"])
        s_hi = np.maximum(s_hi, c["stack_high_s"])
    return step_interval(step, basis, sh["moe"], s_lo, s_hi, m)


def _memory_fit(v, sh, t, p, cp, d, b, m, k):
    """The recomputation used (:func:`least_recompute`) and the memory it leaves: (inputs
    with the recomputation resolved, usable, model states, activations [GB per
    accelerator], largest micro-batch that fits [sequences], fewest nodes whose sharding
    brings the states into memory [count])."""
    usable = usable_memory_GB(v["instance.accel_memory_GiB"], v["workload.hbm_reserved_fraction"])
    states = _model_states_GB(v, sh, t, p, d)
    acts = _activation_terms(v, sh, t, p, b, m, v["sp"])
    v = least_recompute(v, sh, states, acts, usable)
    act, b_max = _memory(v, sh, states, acts, b, usable)
    nmin = _min_nodes_for_states(v, sh, t, p, cp, k, usable, act)
    return v, usable, states, act, b_max, nmin


def _bandwidths(v, k):
    """Each accelerator's scale-up bandwidth per direction and its share of the node's
    scale-out bandwidth [GB/s], efficiencies applied."""
    su = v["instance.scaleup_GBps"] / 2.0 * v["instance.scaleup_efficiency"]
    net_share = as_float_array(
        net.network_GBps_per_rank(v["node_gbps"], k, v["network.inter_node_efficiency"])
    )
    return su, net_share


def step_model(
    x: Mapping[str, Any], basis: str = "modelled", calibration: Mapping[str, Any] | None = None
) -> dict[str, np.ndarray]:
    """Step time, communication, memory and training size from the flat inputs.

    Bases: ``modelled`` (:func:`modelled_components`), ``end_to_end`` or ``compute_only``
    (a stated MFU, :func:`step_components`), on whole data-parallel replicas
    (:func:`whole_data_parallel`).  Configurations that cannot run give NaN times and
    ``memory_fits`` = 0; :func:`infeasibility_reason` says why.

    Parameters
    ----------
    x : Mapping of str to array_like
        Flat inputs: scenario fields plus ``instance.*`` specs
        (:func:`models.evaluate.resolve_inputs`), in the field registry's units.
    basis : str
        The step-time basis ``workload.mfu_basis``.
    calibration : Mapping of str to float, optional
        Overrides of the fitted constants (``calibration.gemm_efficiency`` [fraction],
        ``calibration.layer_pass_overhead_s`` [s], ``calibration.tp_overlap_efficiency``
        [fraction], ``calibration.hbm_efficiency`` [fraction]); only the cross-validation
        uses it.

    Returns
    -------
    dict of str to ndarray
        The :class:`models.chain.StepTime` figures: times in [s] or [ms] as named,
        memory in [GB per accelerator], fractions [fraction], counts [count].
    """
    v = _inputs(x, calibration)
    sh = _shape(v)
    nodes = v["cluster.nodes"]
    k = v["instance.accelerators_per_node"]
    t = v["workload.tensor_parallel"]
    p = v["workload.pipeline_parallel"]
    cp = v["workload.context_parallel"]
    d = whole_data_parallel(
        nodes * k, t, p, cp, v["workload.expert_parallel"], v["etp"], v["folded"]
    )
    dd = np.maximum(d, 1.0)  # d = 0 (not one replica) cannot run: _feasible says so
    n_acc = dd * t * p * cp  # the accelerators the layout uses; the rest sit idle (paid)
    seqs = v["batch_sequences"]
    b, m = _batch_split(v, seqs, dd)
    v, usable, states, act, b_max, nmin = _memory_fit(v, sh, t, p, cp, dd, b, m, k)
    mem = states + act
    fits_memory = mem <= usable
    tp_ok, runs = _feasible(v, sh, t, p, cp, d, b, m, basis)
    fits = fits_memory & runs
    su, net_share = _bandwidths(v, k)
    fpt = as_float_array(_flops_per_token(sh, v["workload.sequence_length"]))
    batch_mtok = seqs * v["workload.sequence_length"] / 1e6
    nan = np.nan
    if basis == "modelled":
        c = _modelled_step(v, sh, t, p, dd, n_acc, b, m, net_share, su)
    else:
        c = _stated_mfu_step(v, sh, basis, batch_mtok, m, fpt)
    step = np.where(fits, c["step_s"], nan)
    shape = step.shape
    low, high = _interval(v, sh, c, step, fits, basis, m)
    steps = v["workload.tokens_trillion"] * 1e12 / (batch_mtok * 1e6)
    with np.errstate(divide="ignore", invalid="ignore"):
        comm_frac = np.where(fits, (c["dp_exposed_s"] + c["tp_s"] + c["pp_s"]) / c["step_s"], nan)
        bubble_frac = np.where(fits, c["bubble_s"] / c["step_s"], nan)
    flops = fpt * v["workload.tokens_trillion"] * 1e12

    def full(a):
        return np.broadcast_to(a, np.broadcast(a, step).shape)

    return {
        **{key: np.where(fits, c[src] * 1e3, nan) for key, src in _STEP_MS.items()},
        **{key: np.where(fits, c[src], nan) for key, src in _STEP_S.items()},
        "step_seconds": step,
        "step_seconds_low": low,
        "step_seconds_high": high,
        **{key: np.where(fits, c[src], nan) for key, src in _STEP_SHARES.items()},
        "exposed_comm_fraction_of_step": comm_frac,
        "bubble_fraction_of_step": bubble_frac,
        "steps_to_train": full(steps),
        "data_parallel_size": full(d),
        "idle_accelerators": full(nodes * k - d * t * p * cp),
        "micro_batches_per_step": full(m),
        "micro_batch_sequences_effective": full(b),
        "model_layers": full(sh["L"]),
        "model_parameters_billion": full(sh["N"]),
        "model_flops_per_token": full(fpt),
        "model_states_GB_per_accel": full(states),
        "activation_memory_GB_per_accel": full(act),
        "memory_per_accel_GB": full(mem),
        "memory_usable_per_accel_GB": full(usable),
        "fits_in_memory": full(fits_memory.astype(float)),
        "max_micro_batch_that_fits": full(b_max),
        "memory_fits": np.broadcast_to(fits.astype(float), shape),
        "min_nodes_to_fit": full(np.where(tp_ok, nmin, np.inf)),
        "training_flops": full(flops),
        "recompute_level": full(v["recompute"]),
        "recomputed_layer_share": full(_full_share(v, sh)),
    }


def _memory_reason(out: Mapping[str, Any]) -> str:
    """The memory message of :func:`infeasibility_reason` from :func:`step_model`'s ``out``.

    States need and usable HBM [GB], the activations and model states [GB], which is larger,
    and a hint (largest micro-batch that fits, or the node count at which states fit).
    """
    need = float(out["memory_per_accel_GB"])
    usable = float(out["memory_usable_per_accel_GB"])
    act = float(out["activation_memory_GB_per_accel"])
    st = float(out["model_states_GB_per_accel"])
    cause = "activations" if act >= st else "model states"
    bmax = float(out["max_micro_batch_that_fits"])
    if st >= usable:
        hint = (
            "; the model states alone do not fit: raise the ZeRO stage, tensor or "
            "pipeline parallelism"
        )
    elif bmax >= 1:
        hint = f"; the largest micro-batch that fits is {bmax:,.0f} sequences"
    else:
        hint = (
            "; not even one sequence per micro-batch fits: use more recomputation, "
            "sequence parallelism, or more tensor or pipeline parallelism"
        )
    nmin = float(out["min_nodes_to_fit"])
    more = (
        f"; model states shrink enough at {nmin:,.0f} nodes"
        if math.isfinite(nmin) and cause == "model states"
        else ""
    )
    return (
        f"needs {need:,.1f} GB per accelerator, more than the {usable:,.1f} GB usable: "
        f"{act:,.1f} GB of activations and {st:,.1f} GB of model states ({cause} are "
        f"the larger part){hint}{more}"
    )


def top_k_message(experts_per_token: float, experts: float) -> str:
    """The one message for a top-k beyond the experts (refused, never clipped).

    Parameters
    ----------
    experts_per_token : float
        ``workload.experts_per_token`` [experts].
    experts : float
        ``workload.experts`` [experts], at least 1.

    Returns
    -------
    str
        The message about ``workload.experts_per_token``, naming the other field and the
        allowed range.

    >>> top_k_message(9, 8)
    '9 exceeds workload.experts = 8 (allowed: an integer in [1, 8])'
    """
    return (
        f"{experts_per_token:g} exceeds workload.experts = {experts:g} "
        f"(allowed: an integer in [1, {experts:g}])"
    )


def precision_reason(x: Mapping[str, Any], instance: str = "this instance type") -> str:
    """Why ``workload.precision`` cannot run on the node type (empty string when it can).

    FP8 GEMMs run at the catalog's dense FP8 rate (``instance.fp8_dense_tflops``
    [TFLOP/s]); a type without one (A100) cannot be timed at it, and neither its BF16 rate
    nor FP8's one-byte memory savings would be honest, so the step model says it does not
    run (:func:`_feasible`), :func:`models.evaluate.resolve_inputs` refuses it and the
    instance ranking marks the type.

    Parameters
    ----------
    x : Mapping of str to scalar
        Flat inputs (``workload.precision`` and ``instance.fp8_dense_tflops``).
    instance : str
        How the message names the node type.

    Returns
    -------
    str
        The reason, or ``""``.
    """
    from .choices import Precision

    if _choice(x, "workload.precision") is not Precision.FP8:
        return ""
    rate = np.asarray(x.get("instance.fp8_dense_tflops", np.nan), float)
    if np.isfinite(rate).all():
        return ""
    return (
        f"fp8 cannot run on {instance}: the catalog gives its accelerator no dense FP8 rate "
        "(instance.fp8_dense_tflops is empty), so FP8 GEMMs cannot be timed; allowed on "
        "this type: bf16"
    )


def _expert_layout_reason(v: Mapping[str, Any], sh: Mapping[str, Any], t, p, dom, n) -> str:
    """:func:`infeasibility_reason`'s mixture-of-experts checks: expert parallelism without
    experts or beyond them, expert tensor parallelism (folded: beyond the scale-up domain,
    not dividing the expert FFN, the expert grid beyond a pipeline stage's ranks; else EP
    beyond the data-parallel ranks), and a node limit whose nodes hold fewer experts than a
    token is routed to.  Empty string when none blocks."""
    ep = int(v["workload.expert_parallel"])
    experts = int(v["workload.experts"])
    if ep > 1 and experts == 0:
        return f"expert parallelism {ep} needs experts: workload.experts is 0 (a dense model)"
    if ep > max(experts, 1):
        return f"expert parallelism {ep} exceeds the {experts} experts to split"
    k = float(v["workload.experts_per_token"])
    if experts and k > experts:
        return "workload.experts_per_token " + top_k_message(k, experts)
    etp = int(v["etp"])
    if float(v["folded"]) > 0.5:
        if experts == 0:
            return (
                f"expert tensor parallelism {etp} needs experts: workload.experts is 0 "
                "(a dense model)"
            )
        if etp > dom:
            return (
                f"expert tensor parallelism {etp} exceeds the scale-up domain ({dom:.0f} "
                "accelerators): expert TP traffic must stay inside NVLink/NeuronLink"
            )
        fe = float(v["workload.expert_ffn_hidden_size"])
        fe = float(sh["ffn"]) if math.isnan(fe) else fe
        if fe % etp:
            return (
                f"expert tensor parallelism {etp} does not divide the expert FFN width "
                f"{fe:,.0f} (workload.expert_ffn_hidden_size)"
            )
        if ep * etp > n / p:
            return (
                f"expert parallelism {ep} × expert tensor parallelism {etp} exceeds the "
                f"{n / p:,.0f} ranks of a pipeline stage (the expert grid is folded into them)"
            )
    elif ep > n / (t * p):
        return (
            f"expert parallelism {ep} exceeds the {n / (t * p):,.0f} data-parallel ranks "
            "(experts are split inside them)"
        )
    lim = float(v["workload.moe_max_nodes_per_token"])
    g_nodes = ep / max(math.floor(dom / etp), 1)
    if experts and not math.isnan(lim) and lim < g_nodes:
        held = lim * experts / g_nodes
        if held < float(sh["k"]):
            return (
                f"workload.moe_max_nodes_per_token {lim:.0f}: {lim:.0f} of the {g_nodes:.0f} "
                f"nodes the expert-parallel group spans hold {held:,.0f} experts, fewer than "
                f"the {float(sh['k']):.0f} each token is routed to"
            )
    return ""


def infeasibility_reason(x: Mapping[str, Any], basis: str = "modelled") -> str:
    """Why the scenario in ``x`` cannot run (empty string when it can).  Scalars only.

    Names the first blocking cause: tensor parallelism outside the scale-up domain or an
    unknown scale-up bandwidth, fewer accelerators than TP×PP, a shape that cannot be split,
    less than one sequence per micro-batch, no measured matmul efficiency (modelled basis),
    or memory, with the model states and the activations each in GB.

    Parameters
    ----------
    x : Mapping of str to scalar
        Flat inputs (scenario fields and ``instance.*`` specs).
    basis : str
        ``workload.mfu_basis``.

    Returns
    -------
    str
        The first blocking cause, or ``""``.
    """
    precision = precision_reason(x)
    if precision:
        return "workload.precision = " + precision
    v = _inputs(x)
    sh = _shape(v)
    out = step_model(x, basis)
    t = int(v["workload.tensor_parallel"])
    p = int(v["workload.pipeline_parallel"])
    dom = float(v["instance.scaleup_domain_accels"])
    n = float(v["cluster.nodes"] * v["instance.accelerators_per_node"])
    if t > dom:
        return (
            f"tensor-parallel size {t} exceeds the scale-up domain ({dom:.0f}"
            " accelerators): TP traffic must stay inside NVLink/NeuronLink"
        )
    if t > 1 and not math.isfinite(float(v["instance.scaleup_GBps"])):
        return (
            "the catalog has no scale-up (NeuronLink/NVLink) bandwidth for this instance, "
            "so tensor-parallel traffic cannot be modelled; use tensor_parallel = 1"
        )
    cpn = int(v["workload.context_parallel"])
    if n < t * p * cpn:
        what = "TP × PP" if cpn == 1 else "TP × PP × CP"
        return f"{what} = {t * p * cpn} needs more accelerators than the job has ({n:,.0f})"
    seq = float(v["workload.sequence_length"])
    if cpn > 1 and seq % (2 * cpn):
        return (
            f"context parallelism {cpn} needs a sequence length that divides into 2 × {cpn} = "
            f"{2 * cpn} equal chunks (Megatron-Core's load-balanced ring attention); "
            f"{seq:,.0f} tokens do not"
        )
    moe = _expert_layout_reason(v, sh, t, p, dom, n)
    if moe:
        return moe
    layers = float(sh["L"])
    if not layers >= p:
        return f"{layers:,.1f} layers cannot fill {p} pipeline stages (at least one layer each)"
    if float(sh["a"]) < t:
        return f"{float(sh['a']):.0f} attention heads cannot be split over TP = {t}"
    if not bool(heads_split_over_tp(sh["a"], sh["kv"], t)):
        return (
            f"{float(sh['a']):.0f} attention heads and {float(sh['kv']):.0f} key/value heads "
            f"do not split over TP = {t}: the heads must be a multiple of TP and the key/value "
            "heads a multiple or a divisor of it (Megatron-Core's TransformerConfig)"
        )
    n_last = float(v["workload.last_stage_layers"])
    if p > 1 and math.isfinite(n_last) and n_last > layers - (p - 1):
        return (
            f"workload.last_stage_layers {n_last:g} leaves {layers - n_last:,.1f} of the "
            f"{layers:,.1f} layers to the other {p - 1} pipeline stages, which need at least "
            f"one each (at most {max(layers - (p - 1), 0):,.1f} on the last stage)"
        )
    n_redo = float(v["workload.recompute_layers"])
    if math.isfinite(n_redo) and float(v["recompute_choice"]) != tr.FULL:
        return (
            f"workload.recompute_layers {n_redo:g} needs workload.recompute = 'full' (the "
            "layers of each model chunk that recompute their forward pass); leave it empty "
            "otherwise"
        )
    b = float(out["micro_batch_sequences_effective"])
    m = float(out["micro_batches_per_step"])
    if b < 1.0 - 1e-9 or m < 1.0 - 1e-9:
        d = float(out["data_parallel_size"])
        return (
            f"each of the {d:,.0f} data-parallel ranks gets {m * b:,.2f} sequences per step "
            f"in {m:,.2f} micro-batches of {b:,.2f}: a micro-batch needs at least one "
            "sequence (raise the global batch, lower the micro-batch size or the number of "
            "micro-batches, or use fewer data-parallel ranks)"
        )
    if basis == "modelled" and not math.isfinite(float(v["instance.max_matmul_fraction"])):
        return (
            "the catalog has no measured matmul efficiency for this accelerator, so its "
            "step time cannot be modelled; use workload.mfu_basis = end_to_end with your "
            "measured MFU"
        )
    if float(out["fits_in_memory"]) < 0.5:
        return _memory_reason(out)
    return ""

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
from typing import Any

import numpy as np

from . import network as net
from . import transformer as tr
from ._tools import as_float_array, like_input

SECONDS_PER_DAY = 86_400.0
FLOPS_PER_PARAM_TOKEN = 6.0
GRAD_BYTES = 2.0  # bf16 gradients
#: With a stated MFU, ZeRO-3 re-gathers the weights: its data-parallel sync takes this
#: many times the gradient all-reduce (step_components).
ZERO3_SYNC_FACTOR = 1.5
ACT_BYTES = 2.0  # bf16 activations
MODEL_STATE_BYTES_PER_PARAM = 16.0


def train_flops(params_billion, tokens_trillion):
    """Training compute C = 6·N·D [FLOP] (Kaplan et al. 2020 [1]).

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


def dp_allreduce_bytes_per_param(zero_stage, gradient_bytes):
    """Data-parallel traffic per parameter and step, as the all-reduce of equal traffic [B].

    No ZeRO: the g-byte gradients are all-reduced.  ZeRO 1-2: a reduce-scatter of the
    gradients plus an all-gather of the bf16 weights, each half an all-reduce's traffic:
    (g + 2)/2.  ZeRO-3 gathers the weights twice (forward and backward): (g + 4)/2
    (Rajbhandari et al. 2020, ZeRO, Sec. 7).  The modelled step and the Network page's
    algorithm table both use this.

    Parameters
    ----------
    zero_stage : ZeRO stage, 0-3.
    gradient_bytes : bytes per gradient (2 bf16, 4 fp32) [B].

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
    """
    z = as_float_array(zero_stage)
    g = as_float_array(gradient_bytes)
    out = np.select([z == 0, z < 3], [g, (g + 2.0) / 2.0], (g + 4.0) / 2.0)
    return like_input(out, zero_stage, gradient_bytes)


def _state_split(zero_stage, gradient_bytes):
    """(replicated, sharded) model-state bytes per parameter: 2 + g + 12 in all, ZeRO
    stage 1 shards the 12 optimizer bytes, 2 also the g gradient bytes, 3 also the 2 weight
    bytes (:func:`models.transformer.model_state_bytes_per_param` at d = 1 and d = ∞)."""
    z = as_float_array(zero_stage)
    total = as_float_array(tr.model_state_bytes_per_param(0, gradient_bytes, 1.0))
    rep = as_float_array(tr.model_state_bytes_per_param(z, gradient_bytes, np.inf))
    return rep, total - rep


def model_state_GB_per_accel(
    params_billion, tensor_parallel, pipeline_parallel, dp, zero_stage, gradient_bytes=GRAD_BYTES
):
    """Model-state memory per accelerator for mixed-precision Adam [GB] (ZeRO [4], Fig. 1).

    Ψ' = Ψ/(t·p) parameters per model-parallel rank; with bf16 gradients (g = 2) stage 0:
    16Ψ', 1: 4Ψ' + 12Ψ'/d, 2: 2Ψ' + 14Ψ'/d, 3: 16Ψ'/d; other gradient precisions change
    the g bytes (:func:`models.transformer.model_state_bytes_per_param`, the step model's).

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
    accel_memory_GB: float,
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
    usable = accel_memory_GB * (1.0 - hbm_reserved_fraction)
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
        f"more than the {usable:,.1f} GB usable ({accel_memory_GB:g} GB HBM minus "
        f"{hbm_reserved_fraction:.0%} reserved for activations); {where}"
    )


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

    Returns ``compute_s``, ``bubble_s``, ``dp_sync_s`` (whole DP gradient synchronisation),
    ``dp_exposed_s``, ``tp_s``, ``pp_s``, ``step_s``, ``scaling_efficiency`` (the
    compute_only view, module docstring), ``compute_share_of_step``, ``end_to_end_mfu``, ``compute_phase_mfu`` and ``mfu_gap_exceeded`` (1.0/0.0).
    ``end_to_end`` (bool or 0/1 array) selects the MFU basis (module docstring): true = the
    MFU is end to end, the step is 6·N·T/(n·peak·MFU) and ``compute_s`` is the implied
    compute phase; ``max_matmul_fraction`` (NaN = unknown, bound 1) bounds the implied
    compute-phase efficiency.
    ``scaleup_GBps_bidir`` is the datasheet NVLink/NeuronLink figure (both directions; half
    is used per direction, times ``scaleup_efficiency``); NaN makes TP traffic (t > 1) and
    in-domain DP traffic unknown.  ``flops_per_token`` (default 6·N) and ``layers``
    (default N/(12h²), Kaplan et al.) come from the model shape when known;
    ``virtual_stages`` v divides the bubble: (p−1)/(v·m) of the compute.

    Examples
    --------
    >>> c = step_components(params_billion=70.0, batch_million_tokens=16.0, nodes=128,
    ...     accelerators_per_node=8, peak_tflops=989.0, mfu=0.4, hidden_size=8192,
    ...     tensor_parallel=8, pipeline_parallel=1, micro_batches=1, zero_stage=1,
    ...     overlap_fraction=0.0, scaleup_GBps_bidir=900.0, scaleup_domain_accels=8,
    ...     node_network_gbps=3200.0, inter_node_efficiency=1.0, alpha_network_us=0.0,
    ...     alpha_scaleup_us=0.0)
    >>> round(float(c["compute_s"]), 4)  # 6·70e9·16e6 / (1024 · 989e12 · 0.4)
    16.5887
    >>> e = step_components(params_billion=70.0, batch_million_tokens=16.0, nodes=128,
    ...     accelerators_per_node=8, peak_tflops=989.0, mfu=0.4, hidden_size=8192,
    ...     tensor_parallel=8, pipeline_parallel=1, micro_batches=1, zero_stage=1,
    ...     overlap_fraction=0.0, scaleup_GBps_bidir=900.0, scaleup_domain_accels=8,
    ...     node_network_gbps=3200.0, inter_node_efficiency=1.0, alpha_network_us=0.0,
    ...     alpha_scaleup_us=0.0, end_to_end=True)
    >>> round(float(e["step_s"]), 4)  # the same 6ND time: comm is inside the MFU
    16.5887
    """
    f = as_float_array
    psi = f(params_billion) * 1e9
    tokens = f(batch_million_tokens) * 1e6
    k = f(accelerators_per_node)
    n = f(nodes) * k
    t = f(tensor_parallel)
    p = f(pipeline_parallel)
    m = f(micro_batches)
    z = f(zero_stage)
    h = f(hidden_size)
    d = n / (t * p)
    fpt = FLOPS_PER_PARAM_TOKEN * psi if flops_per_token is None else f(flops_per_token)
    compute = fpt * tokens / (n * f(peak_tflops) * 1e12 * f(mfu))
    vst = f(virtual_stages)
    bubble = compute * (p - 1.0) / (vst * m)

    su = f(scaleup_GBps_bidir) / 2.0 * f(scaleup_efficiency)
    dom = f(scaleup_domain_accels)
    net_share = f(net.network_GBps_per_rank(node_network_gbps, k, inter_node_efficiency))
    # data-parallel neighbours sit next to each other inside the scale-up domain
    # (Megatron's default rank order tp-cp-ep-dp-pp)
    g_in = np.clip(np.floor(dom / t), 1.0, None)
    g_in = np.minimum(g_in, np.maximum(d, 1.0))
    domains = np.maximum(d / g_in, 1.0)
    grad_bytes = GRAD_BYTES * psi / (t * p)
    su_for_dp = np.where(g_in > 1, su, 1.0)  # unused when g_in == 1 (no NaN leak)
    ar = f(
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
    dp_sync = np.where(z >= 3, ZERO3_SYNC_FACTOR, 1.0) * ar
    hide_window = np.where(z >= 3, 1.0, 2.0 / 3.0) * compute
    dp_exposed = dp_sync - np.minimum(f(overlap_fraction) * dp_sync, hide_window)

    layers = psi / (12.0 * h * h) if layers is None else f(layers)
    tp_bytes = 4.0 * (layers / p) * (tokens / d) * h * ACT_BYTES
    calls = 4.0 * (layers / p) * m
    with np.errstate(invalid="ignore"):
        tp = np.where(
            t > 1,
            f(net.ring_allreduce_seconds(tp_bytes, np.maximum(t, 1.0), su, 0.0))
            + 2.0 * (t - 1.0) * calls * f(alpha_scaleup_us) * net.US,
            0.0,
        )
    pp_bytes = 2.0 * (tokens / d) * h * ACT_BYTES / t
    pp = np.where(
        p > 1, pp_bytes / (net_share * net.GB) + 2.0 * m * f(alpha_network_us) * net.US, 0.0
    )
    step_sum = compute + bubble + dp_exposed + tp + pp

    # end to end: the 6ND step is fixed; solve a·t_k + C − min(φ·S, w·t_k) = t_e for t_k
    e2e = np.asarray(end_to_end, dtype=bool)
    t_e = compute
    a = 1.0 + (p - 1.0) / (vst * m)
    w = np.where(z >= 3, 1.0, 2.0 / 3.0)
    hidden_max = f(overlap_fraction) * dp_sync
    comm_all = dp_sync + tp + pp
    tk_sat = (t_e - comm_all + hidden_max) / a  # overlap capped by φ·S
    with np.errstate(divide="ignore", invalid="ignore"):  # a = w: only when infeasible
        tk_win = np.where(a > w, (t_e - comm_all) / np.where(a > w, a - w, 1.0), 0.0)
    tk = np.where(w * tk_sat >= hidden_max, tk_sat, tk_win)
    tk = np.maximum(tk, 0.0)
    e_bubble = tk * (p - 1.0) / (vst * m)
    e_dp_exposed = dp_sync - np.minimum(hidden_max, w * tk)
    with np.errstate(divide="ignore", invalid="ignore"):
        phase_mfu = np.where(tk > 0, f(mfu) * t_e / np.where(tk > 0, tk, 1.0), np.inf)
    mmf = f(max_matmul_fraction)
    bound = np.where(np.isfinite(mmf), mmf, 1.0)
    gap_exceeded = e2e & ((tk <= 0) | (phase_mfu > bound * (1.0 + 1e-12)))

    compute_out = np.where(e2e, tk, compute)
    bubble_out = np.where(e2e, e_bubble, bubble)
    dp_exposed_out = np.where(e2e, e_dp_exposed, dp_exposed)
    step = np.where(e2e, t_e, step_sum)
    scaling = compute / step_sum  # the compute_only view under both bases
    return {
        "compute_s": compute_out,
        "bubble_s": bubble_out,
        "dp_sync_s": dp_sync,
        "dp_exposed_s": dp_exposed_out,
        "tp_s": tp,
        "pp_s": pp,
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

    Examples
    --------
    >>> compute_seconds(794.5e12, 989.0, 0.8033)  # one second at H100's 794.5 TFLOPS MAMF
    1.0000...
    """
    out = as_float_array(flops) / (as_float_array(peak_tflops) * 1e12)
    out = out / as_float_array(matmul_fraction)
    return like_input(out, flops, peak_tflops, matmul_fraction)


def memory_bound_seconds(bytes_moved, hbm_TBps):
    """Time of streaming kernels (norms, activations, dropout, residuals) [s]:
    bytes / (HBM bandwidth · :data:`HBM_EFFICIENCY`).

    Examples
    --------
    >>> round(memory_bound_seconds(3.015e12, 3.35), 6)  # 3.015 TB at 90% of 3.35 TB/s
    1.0
    """
    out = as_float_array(bytes_moved) / (as_float_array(hbm_TBps) * 1e12 * HBM_EFFICIENCY)
    return like_input(out, bytes_moved, hbm_TBps)


def pipeline_seconds(micro_batch_seconds, micro_batches, pipeline_parallel, virtual_stages):
    """One step of a (interleaved) 1F1B pipeline: (m + (p−1)/v) · t_mb [s].

    t_mb is one micro-batch's forward and backward through a stage, its recomputation and
    its exposed tensor- and pipeline-parallel communication included: the bubble of
    (p−1)/v micro-batch times (Narayanan et al. 2021 [3], §2.2.2) idles all of it.

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


def _gemm_bytes(tokens, h, a, kv, ffn, gated, t, mm):
    """Bytes the forward GEMMs of one layer read and write on one TP rank: the weights and
    each GEMM's input and output activations (bf16)."""
    k = np.where(gated > 0.5, 2.0, 1.0)
    acts = 4.0 * h + (h * (2.0 + 2.0 * kv / a) + (k + 1.0) * ffn) / t
    return 2.0 * (mm / t + tokens * acts)


def _shape(v: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The workload's shape with the derived figures filled in (module :mod:`transformer`)."""
    gated = v["gated"]
    h = v["workload.hidden_size"]
    a = v["workload.attention_heads"]
    kv = np.where(np.isnan(v["workload.kv_heads"]), a, v["workload.kv_heads"])
    ffn = v["workload.ffn_hidden_size"]
    ffn = np.where(np.isnan(ffn), as_float_array(tr.default_ffn(h, gated)), ffn)
    vocab = v["workload.vocab_size"]
    n_given = v["workload.params_billion"]
    layers = v["workload.layers"]
    layers = np.where(
        np.isnan(layers),
        as_float_array(tr.layers_from_params(n_given, h, a, kv, ffn, vocab, gated)),
        layers,
    )
    params = np.where(
        np.isnan(n_given),
        as_float_array(tr.params_from_shape(layers, h, a, kv, ffn, vocab, gated)),
        n_given,
    )
    return {"h": h, "a": a, "kv": kv, "ffn": ffn, "V": vocab, "L": layers, "N": params}


def _memory(v, sh, t, p, d, b, m, recompute, sp, usable):
    """Memory per accelerator on the first pipeline stage [GB]: model states, activations."""
    s = v["workload.sequence_length"]
    vstages = v["workload.pipeline_virtual_stages"]
    gbytes = v["gradient_bytes"]
    z = v["workload.zero_stage"]
    psi = sh["N"] * 1e9 / (t * p)  # parameters per model-parallel rank
    states = psi * as_float_array(tr.model_state_bytes_per_param(z, gbytes, d)) / 1e9

    def per_layer(bb, mode):
        return as_float_array(
            tr.activation_bytes_per_layer(
                s, bb, sh["h"], sh["a"], sh["kv"], sh["ffn"], v["gated"], t, sp, mode
            )
        )

    # a fused attention kernel never stores the scores: as selective recomputation
    fa = v["fa"] > 0.5
    mode = np.where(fa & (recompute < tr.SELECTIVE), tr.SELECTIVE, recompute)
    in_flight = as_float_array(tr.micro_batches_in_flight(p, vstages, m))
    stored = per_layer(b, mode) * sh["L"] / p * in_flight
    # full recomputation rebuilds one layer's activations at a time during the backward
    rebuilt = per_layer(b, np.where(fa, tr.SELECTIVE, tr.NONE))
    working = np.where(recompute >= tr.FULL, rebuilt, 0.0)
    act = (stored + working) / 1e9
    per_seq = act / b  # every term is linear in the micro-batch size
    with np.errstate(divide="ignore", invalid="ignore"):
        b_max = np.floor((usable - states) / per_seq + 1e-9)
    b_max = np.where(np.isfinite(b_max), np.maximum(b_max, 0.0), 0.0)
    return states, act, b_max


def modelled_components(v: Mapping[str, np.ndarray], sh, t, p, d, n, b, m, net_share, su):
    """Seconds per step of the modelled basis, by component (docs/step-time.md).

    ``v`` the flat inputs as arrays, ``sh`` the shape (:func:`_shape`), ``net_share`` each
    accelerator's scale-out bandwidth [GB/s, efficiency applied], ``su`` its scale-up
    bandwidth per direction [GB/s, efficiency applied].
    """
    s = v["workload.sequence_length"]
    vst = v["workload.pipeline_virtual_stages"]
    r = v["recompute"]
    h, vocab, lay = sh["h"], sh["V"], sh["L"]
    tokens_mb = b * s  # tokens in one micro-batch
    peak, mmf = v["instance.bf16_dense_tflops"], v["instance.max_matmul_fraction"]
    a_net, a_su = v["network.alpha_network_us"] * net.US, v["network.alpha_scaleup_us"] * net.US

    # compute of one micro-batch on the busiest stage (its L/p layers and the output layer)
    mm = as_float_array(tr.matmul_params_per_layer(h, sh["a"], sh["kv"], sh["ffn"], v["gated"]))
    layer_fwd = 2.0 * tokens_mb * mm / t
    attn_fwd = 4.0 * tokens_mb * s * h / t
    logits_fwd = 2.0 * tokens_mb * vocab * h / t
    # the busiest stage: L/p layers plus the output layer, or an even share of all the
    # work when layers are moved off the last stage (balanced stages)
    fwd = np.where(
        v["balanced"] > 0.5,
        (lay * (layer_fwd + attn_fwd) + logits_fwd) / p,
        lay / p * (layer_fwd + attn_fwd) + logits_fwd,
    )
    # full: the whole forward pass again; selective, or a fused (flash) attention kernel
    # in its backward pass: the attention scores again
    fa = v["fa"] > 0.5
    scores_again = np.where(fa | ((r >= tr.SELECTIVE) & (r < tr.FULL)), attn_fwd, 0.0)
    recompute_flops = lay / p * (np.where(r >= tr.FULL, layer_fwd + attn_fwd, 0.0) + scores_again)
    t_model = as_float_array(compute_seconds(3.0 * fwd, peak, mmf))
    t_recompute = as_float_array(compute_seconds(recompute_flops, peak, mmf))
    # streaming kernels: each activation byte is written and read once in the forward pass,
    # twice as much in the backward pass, once more when the forward is recomputed
    traffic_mode = np.where(fa, tr.SELECTIVE, tr.NONE)  # materialised scores are streamed
    act_traffic = 2.0 * as_float_array(
        tr.activation_bytes_per_layer(
            s, b, h, sh["a"], sh["kv"], sh["ffn"], v["gated"], t, v["sp"], traffic_mode
        )
    )
    passes = 3.0 + np.where(r >= tr.FULL, 1.0, 0.0)
    scores = 2.0 * 5.0 * sh["a"] * s * s * b / t  # materialised scores, bytes per pass
    redo = np.where(~fa & (r >= tr.SELECTIVE) & (r < tr.FULL), scores, 0.0)
    gemm = GEMM_TRAFFIC * _gemm_bytes(tokens_mb, h, sh["a"], sh["kv"], sh["ffn"], v["gated"], t, mm)
    traffic = lay / p * (act_traffic * passes + redo + gemm * passes)
    t_mem = as_float_array(memory_bound_seconds(traffic, v["instance.hbm_TBps"]))

    # tensor parallelism: 2 all-reduces (or all-gather + reduce-scatter) per layer forward,
    # 2 backward, 2 more when the forward is recomputed, of the micro-batch's activations
    calls = lay / p * (4.0 + np.where(r >= tr.FULL, 2.0, 0.0))
    msg = tokens_mb * h * tr.ACT_BYTES
    with np.errstate(invalid="ignore", divide="ignore"):
        one = 2.0 * (t - 1.0) / t * msg / (su * net.GB) + 2.0 * (t - 1.0) * a_su
    t_tp = np.where(t > 1, calls * one, 0.0)
    # overlapped with the GEMMs, up to the compute they can hide behind
    hidden = np.minimum(v["workload.tp_comm_overlap_fraction"] * t_tp, t_model + t_recompute)
    t_tp = t_tp - hidden
    # pipeline: activations forward and gradients backward across each of the v chunk
    # boundaries, split over the TP ranks (scatter/gather or sequence parallelism)
    sends = 2.0 * vst
    t_pp = np.where(p > 1, sends * (msg / t / (net_share * net.GB) + a_net), 0.0)

    t_mb = t_model + t_recompute + t_mem + t_tp + t_pp
    pipe = as_float_array(pipeline_seconds(t_mb, m, p, vst))
    bubble = pipe - m * t_mb

    # data parallelism: gradients reduced (ZeRO ≥ 1: reduce-scatter + all-gather of the
    # bf16 weights; ZeRO-3 gathers the weights twice), hierarchical inside the scale-up domain
    z = v["workload.zero_stage"]
    g = v["gradient_bytes"]
    psi = sh["N"] * 1e9 / (t * p)
    ar_equiv = as_float_array(dp_allreduce_bytes_per_param(z, g)) * psi
    g_in = np.minimum(np.clip(np.floor(v["instance.scaleup_domain_accels"] / t), 1.0, None), d)
    g_in = np.maximum(g_in, 1.0)
    domains = np.maximum(d / g_in, 1.0)
    su_dp = np.where(g_in > 1, su, 1.0)
    dp_sync = as_float_array(
        net.hierarchical_allreduce_seconds(
            ar_equiv,
            g_in,
            domains,
            su_dp,
            net_share,
            v["network.alpha_scaleup_us"],
            v["network.alpha_network_us"],
            overlapped=True,
        )
    )
    dp_sync = np.where(d > 1, dp_sync, 0.0)
    # hidden behind the last micro-batch's backward pass (ZeRO-3: behind all compute)
    window = np.where(z >= 3, m * t_model, 2.0 / 3.0 * t_model)
    dp_exposed = dp_sync - np.minimum(v["workload.comm_overlap_fraction"] * dp_sync, window)

    opt_params = psi / np.where(z >= 1, d, 1.0)
    t_opt = as_float_array(
        memory_bound_seconds(OPTIMIZER_TRAFFIC_BYTES * opt_params, v["instance.hbm_TBps"])
    )
    step = pipe + dp_exposed + t_opt
    model_flops = as_float_array(tr.model_flops_per_token(sh["N"], lay, s, h, vocab)) * (
        v["batch_sequences"] * s
    )
    return {
        "compute_s": m * (t_model + t_mem) + t_opt,
        "recompute_s": m * t_recompute,
        "bubble_s": bubble,
        "dp_sync_s": dp_sync,
        "dp_exposed_s": dp_exposed,
        "tp_s": m * t_tp,
        "pp_s": m * t_pp,
        "step_s": step,
        "model_flops_per_step": model_flops,
        "effective_mfu": model_flops / (n * peak * 1e12 * step),
    }


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
    "workload.ffn_hidden_size",
    "workload.vocab_size",
    "workload.tensor_parallel",
    "workload.pipeline_parallel",
    "workload.pipeline_virtual_stages",
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
    "instance.accel_memory_GB",
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
    "workload.balanced_stages",
    "workload.gradient_precision",
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


def _inputs(x: Mapping[str, Any]) -> dict[str, np.ndarray]:
    """The step model's inputs as float arrays, choices coded as numbers."""
    from .choices import GradientPrecision, Mlp, OnOff

    v = {k: _get(x, k) for k in (*_STEP_FIELDS, *_INSTANCE_KEYS)}
    v["cluster.nodes"] = _get(x, "cluster.nodes")
    v["gated"] = as_float_array(1.0 if _choice(x, "workload.mlp") is Mlp.SWIGLU else 0.0)
    v["sp"] = as_float_array(1.0 if _choice(x, "workload.sequence_parallel") is OnOff.ON else 0.0)
    v["recompute"] = as_float_array(_choice(x, "workload.recompute").code)
    v["fa"] = as_float_array(1.0 if _choice(x, "workload.flash_attention") is OnOff.ON else 0.0)
    balanced = _choice(x, "workload.balanced_stages") is OnOff.ON
    v["balanced"] = as_float_array(1.0 if balanced else 0.0)
    grad = _choice(x, "workload.gradient_precision")
    v["gradient_bytes"] = as_float_array(GradientPrecision(grad).bytes)
    eff = v["instance.scaleup_efficiency"]
    v["instance.scaleup_efficiency"] = np.where(np.isnan(eff), 1.0, eff)
    gbps = v["network.inter_node_gbps"]
    v["node_gbps"] = np.where(np.isnan(gbps), v["instance.efa_gbps"], gbps)
    seqs = v["workload.global_batch_sequences"]
    v["batch_sequences"] = np.where(
        np.isnan(seqs),
        v["workload.global_batch_million_tokens"] * 1e6 / v["workload.sequence_length"],
        seqs,
    )
    return v


def step_model(x: Mapping[str, Any], basis: str = "modelled") -> dict[str, np.ndarray]:
    """Step time, communication, memory and training size from the flat inputs.

    ``x`` are the flat inputs (scenario fields plus ``instance.*`` specs, see
    :func:`models.evaluate.resolve_inputs`).  ``basis`` is the step-time basis
    (``workload.mfu_basis``): ``modelled`` (:func:`modelled_components`), ``end_to_end`` or
    ``compute_only`` (a stated MFU, :func:`step_components`).  Configurations that cannot
    run (memory, TP outside the scale-up domain, fewer accelerators than TP×PP, less than
    one sequence per micro-batch, no measured matmul efficiency for the modelled basis)
    give NaN times and ``memory_fits`` = 0; :func:`infeasibility_reason` says why.

    Returns the :class:`models.chain.StepTime` figures.
    """
    v = _inputs(x)
    sh = _shape(v)
    nodes = v["cluster.nodes"]
    k = v["instance.accelerators_per_node"]
    t = v["workload.tensor_parallel"]
    p = v["workload.pipeline_parallel"]
    n_acc = nodes * k
    d = n_acc / (t * p)
    dd = np.maximum(d, 1.0)
    seqs = v["batch_sequences"]
    m_given = v["workload.micro_batches"]
    b = np.where(np.isnan(m_given), v["workload.micro_batch_sequences"], seqs / (dd * m_given))
    m = np.where(np.isnan(m_given), seqs / (dd * b), m_given)
    usable = v["instance.accel_memory_GB"] * (1.0 - v["workload.hbm_reserved_fraction"])
    states, act, b_max = _memory(v, sh, t, p, dd, b, m, v["recompute"], v["sp"], usable)
    mem = states + act
    fits_memory = mem <= usable
    # fewest nodes whose data-parallel sharding brings the states down far enough
    # (the memory left after the activations, at the chosen gradient precision)
    z = v["workload.zero_stage"]
    nmin = as_float_array(min_nodes_to_fit(sh["N"], t, p, z, usable - act, k, v["gradient_bytes"]))
    tp_ok = (t <= v["instance.scaleup_domain_accels"]) & (
        (t == 1) | np.isfinite(v["instance.scaleup_GBps"])
    )
    shape_ok = (sh["L"] >= p) & (sh["N"] > 0) & (sh["a"] >= t)
    batch_ok = (b >= 1.0 - 1e-9) & (m >= 1.0 - 1e-9)
    modelled = basis == "modelled"
    known = np.isfinite(v["instance.max_matmul_fraction"]) | (not modelled)
    runs = tp_ok & (d >= 1.0) & shape_ok & batch_ok & known
    fits = fits_memory & runs

    su = v["instance.scaleup_GBps"] / 2.0 * v["instance.scaleup_efficiency"]
    net_share = as_float_array(
        net.network_GBps_per_rank(v["node_gbps"], k, v["network.inter_node_efficiency"])
    )
    fpt = as_float_array(
        tr.model_flops_per_token(sh["N"], sh["L"], v["workload.sequence_length"], sh["h"], sh["V"])
    )
    batch_mtok = seqs * v["workload.sequence_length"] / 1e6
    nan = np.nan
    if modelled:
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
    else:
        c = step_components(
            params_billion=sh["N"],
            batch_million_tokens=batch_mtok,
            nodes=nodes,
            accelerators_per_node=k,
            peak_tflops=v["instance.bf16_dense_tflops"],
            mfu=v["workload.mfu"],
            hidden_size=sh["h"],
            tensor_parallel=t,
            pipeline_parallel=p,
            micro_batches=m,
            zero_stage=z,
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
    step = np.where(fits, c["step_s"], nan)
    shape = step.shape
    steps = v["workload.tokens_trillion"] * 1e12 / (batch_mtok * 1e6)
    with np.errstate(divide="ignore", invalid="ignore"):
        comm_frac = np.where(fits, (c["dp_exposed_s"] + c["tp_s"] + c["pp_s"]) / c["step_s"], nan)
        bubble_frac = np.where(fits, c["bubble_s"] / c["step_s"], nan)
    flops = fpt * v["workload.tokens_trillion"] * 1e12

    def full(a):
        return np.broadcast_to(a, np.broadcast(a, step).shape)

    return {
        "allreduce_ms": np.where(fits, c["dp_sync_s"] * 1e3, nan),
        "allreduce_exposed_ms": np.where(fits, c["dp_exposed_s"] * 1e3, nan),
        "tp_comm_ms": np.where(fits, c["tp_s"] * 1e3, nan),
        "pp_comm_ms": np.where(fits, c["pp_s"] * 1e3, nan),
        "compute_seconds_per_step": np.where(fits, c["compute_s"], nan),
        "recompute_seconds_per_step": np.where(fits, c["recompute_s"], nan),
        "bubble_seconds_per_step": np.where(fits, c["bubble_s"], nan),
        "step_seconds": step,
        "scaling_efficiency": np.where(fits, c["scaling_efficiency"], nan),
        "effective_mfu": np.where(fits, c["end_to_end_mfu"], nan),
        "compute_share_of_step": np.where(fits, c["compute_share_of_step"], nan),
        "compute_phase_mfu": np.where(fits, c["compute_phase_mfu"], nan),
        "mfu_gap_exceeded": np.where(fits, c["mfu_gap_exceeded"], nan),
        "exposed_comm_fraction_of_step": comm_frac,
        "bubble_fraction_of_step": bubble_frac,
        "steps_to_train": full(steps),
        "data_parallel_size": full(d),
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
    }


def infeasibility_reason(x: Mapping[str, Any], basis: str = "modelled") -> str:
    """Why the scenario in ``x`` cannot run (empty string when it can).  Scalars only.

    Names the first blocking cause: tensor parallelism outside the scale-up domain or an
    unknown scale-up bandwidth, fewer accelerators than TP×PP, a shape that cannot be split,
    less than one sequence per micro-batch, no measured matmul efficiency (modelled basis),
    or memory, with the model states and the activations each in GB.
    """
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
    if n < t * p:
        return f"TP × PP = {t * p} needs more accelerators than the job has ({n:,.0f})"
    layers = float(sh["L"])
    if not layers >= p:
        return f"{layers:,.1f} layers cannot fill {p} pipeline stages (at least one layer each)"
    if float(sh["a"]) < t:
        return f"{float(sh['a']):.0f} attention heads cannot be split over TP = {t}"
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
    return ""

"""Transformer shape: parameters, FLOPs per token and memory per accelerator.

The units people use for a decoder-only transformer: ``L`` layers, hidden size ``h``,
``a`` attention heads of which ``a_kv`` key/value heads (grouped-query attention when
``a_kv < a``), feed-forward size ``f`` with a plain (GeLU: 2 matrices) or gated (SwiGLU:
3 matrices) MLP, vocabulary ``V``, sequence length ``s`` and ``b`` sequences per
micro-batch.  Sizes are in parameters and bytes, memory in GB (10⁹ bytes).  Every
function broadcasts over numpy arrays and returns a float for all-scalar input.

* Parameters per layer: attention 2h² + 2·h·(h/a)·a_kv (Q and output projections, K and
  V) unless stated (multi-head latent attention's low-rank projections,
  :func:`attention_params_per_layer`), MLP (2 or 3)·h·f, two norms 2h; the model adds
  2·V·h (input embedding and output projection, untied) and a final norm h.
* Model FLOPs per token: 6·N + 12·L·s·h (PaLM App. B [1]: every parameter that multiplies
  costs 6 FLOPs per token in the forward and backward passes, and self-attention adds
  12·L·s·h); the input embedding is a lookup, so N excludes its V·h parameters.
* Activation memory per layer and micro-batch (Korthikanti et al. 2022 [2], Table 2,
  here generalised to GQA and a gated MLP of any width, 2-byte activations, 1-byte
  dropout masks): s·b·h·(14 + 4·a_kv/a + (2k+2)·f/h) + 5·a·s²·b bytes without
  parallelism (k = 1 plain, 2 gated; a GPT layer with f = 4h gives Korthikanti's 34 and
  5as/h).  Tensor parallelism t splits all but the 10·s·b·h of the layer-norm inputs,
  the inputs of the first linear of each block and the dropout masks; sequence
  parallelism splits those too.  Selective recomputation drops the 5·a·s²·b attention
  scores (recomputed in the backward pass, as FlashAttention does); full recomputation
  keeps only each layer's 2·s·b·h input.
* In flight on the first pipeline stage: min(m, p) micro-batches of its L/p layers
  (1F1B), times 1 + (p−1)/(p·v) with an interleaved schedule of v chunks per stage ([2]
  §4.2.3), plus, under full recomputation, one layer's full activations while it is
  recomputed.
* Model states: 2 bytes of bf16 weights, ``g`` bytes of gradients (2 for bf16 as in ZeRO
  [3], 4 for the fp32 gradients Megatron-LM accumulates [4]) and 12 bytes of fp32 Adam
  state (master weights, momentum, variance) per parameter; ZeRO stage 1 shards the
  optimizer state over the d data-parallel ranks, stage 2 the gradients too, stage 3 the
  weights too.

References
----------
[1] A. Chowdhery et al., "PaLM: Scaling Language Modeling with Pathways",
    arXiv:2204.02311, 2022, Appendix B.
[2] V. Korthikanti et al., "Reducing Activation Recomputation in Large Transformer
    Models", arXiv:2205.05198, 2022 (MLSys 2023).
[3] S. Rajbhandari et al., "ZeRO: Memory Optimizations Toward Training Trillion Parameter
    Models", SC'20, arXiv:1910.02054.
[4] D. Narayanan et al., "Efficient Large-Scale Language Model Training on GPU Clusters
    Using Megatron-LM", SC'21, arXiv:2104.04473.
"""

from __future__ import annotations

import numpy as np

from ._tools import as_float_array, like_input

#: Relative difference above which a stated parameter count contradicts the shape.  Published
#: counts are rounded ("405B" for 405.9B, "1T" for 1,008B): 5% separates rounding from a
#: wrong shape.
PARAMS_TOLERANCE = 0.05

ACT_BYTES = 2.0  # bf16 activations
WEIGHT_BYTES = 2.0  # bf16 weights
OPTIMIZER_BYTES = 12.0  # fp32 master weights, Adam momentum and variance
#: recompute codes (models.choices.Recompute order)
NONE, SELECTIVE, FULL = 0.0, 1.0, 2.0


def _mlp_matrices(gated):
    """2 for a plain MLP, 3 for a gated one (SwiGLU)."""
    return np.where(as_float_array(gated) > 0.5, 3.0, 2.0)


def default_ffn(hidden_size, gated):
    """Feed-forward size when none is given: 4h (GPT), or (8/3)·h for a gated MLP, which
    keeps the MLP at 8h² parameters (LLaMA's convention).

    Parameters
    ----------
    hidden_size : array_like
        Hidden size h [-].
    gated : array_like
        1 for a gated (SwiGLU) MLP, 0 for a plain one [-].

    Returns
    -------
    float or ndarray
        Feed-forward size f [-].

    Examples
    --------
    >>> default_ffn(12288, 0)
    49152.0
    >>> default_ffn(4096, 1)  # 8/3 · 4096
    10922.666666666666
    """
    h = as_float_array(hidden_size)
    out = np.where(as_float_array(gated) > 0.5, 8.0 / 3.0, 4.0) * h
    return like_input(out, hidden_size, gated)


def attention_params_per_layer(hidden_size, attention_heads, kv_heads, attention_params=np.nan):
    """Weights of one layer's attention projections [parameters].

    2h² + 2·h·(h/a)·a_kv: the query and output projections (h × h each) and the key and
    value projections of a_kv heads of h/a (Vaswani et al. 2017; grouped-query attention,
    Ainslie et al. 2023, arXiv:2305.13245), unless ``attention_params`` states the count.
    Multi-head latent attention (DeepSeek-AI 2024, arXiv:2405.04434 §2.1) projects through
    low-rank latents instead, so its count is not a function of h, a and a_kv: DeepSeek-V2's
    q_a (5120 × 1536), q_b (1536 × 128·192), kv_a (5120 × 576), kv_b (512 × 128·256) and
    output (128·128 × 5120) hold 149.2M.

    Parameters
    ----------
    hidden_size, attention_heads, kv_heads : array_like
        h, a, a_kv [count].
    attention_params : array_like
        The stated count [parameters]; NaN derives it from the heads.

    Returns
    -------
    float or ndarray
        Attention weights of one layer [parameters].

    Examples
    --------
    >>> attention_params_per_layer(16384, 128, 8)  # Llama 3 405B: 2h² + 2h²/16
    570425344.0
    >>> q = 5120 * 1536 + 1536 * 128 * 192
    >>> kv = 5120 * 576 + 512 * 128 * 256
    >>> round(attention_params_per_layer(5120, 128, 128, q + kv + 128 * 128 * 5120) / 1e6, 1)
    149.2
    """
    h = as_float_array(hidden_size)
    derived = 2.0 * h * h + 2.0 * h * h * as_float_array(kv_heads) / as_float_array(attention_heads)
    stated = as_float_array(attention_params)
    out = np.where(np.isnan(stated), derived, stated)
    return like_input(out, hidden_size, attention_heads, kv_heads, attention_params)


def matmul_params_per_layer(
    hidden_size, attention_heads, kv_heads, ffn_hidden_size, gated, attention_params=np.nan
):
    """Weights of one layer's matrix multiplications [parameters].

    Attention (:func:`attention_params_per_layer`: 2h² + 2·h·(h/a)·a_kv unless stated) +
    (2 or 3)·h·f.

    Parameters
    ----------
    hidden_size, attention_heads, kv_heads, ffn_hidden_size : array_like
        h, a, a_kv [count] and f [-].
    gated : array_like
        1 gated MLP (3 matrices), 0 plain (2) [-].
    attention_params : array_like
        Attention weights of one layer when stated [parameters]; NaN derives them.

    Returns
    -------
    float or ndarray
        Matrix-multiplication weights of one layer [parameters].

    Examples
    --------
    >>> matmul_params_per_layer(12288, 96, 96, 49152, 0)  # GPT-3: 12h²
    1811939328.0
    """
    h = as_float_array(hidden_size)
    out = as_float_array(
        attention_params_per_layer(hidden_size, attention_heads, kv_heads, attention_params)
    )
    out = out + _mlp_matrices(gated) * h * as_float_array(ffn_hidden_size)
    return like_input(
        out, hidden_size, attention_heads, kv_heads, ffn_hidden_size, gated, attention_params
    )


def params_from_shape(
    layers, hidden_size, attention_heads, kv_heads, ffn_hidden_size, vocab_size, gated
):
    """Parameter count of a decoder-only transformer [billions] (module docstring).

    Parameters
    ----------
    layers, hidden_size, attention_heads, kv_heads, ffn_hidden_size, vocab_size : array_like
        L, h, a, a_kv [count], f and V [-].
    gated : array_like
        1 gated MLP, 0 plain [-].

    Returns
    -------
    float or ndarray
        N = L·(matmul weights + 2h) + 2·V·h + h [billion parameters].

    Examples
    --------
    >>> round(params_from_shape(126, 16384, 128, 8, 53248, 128256, 1), 2)  # Llama 3 405B
    405.85
    >>> round(params_from_shape(96, 12288, 96, 96, 49152, 50257, 0), 1)  # GPT-3 175B
    175.2
    """
    h = as_float_array(hidden_size)
    per_layer = as_float_array(
        matmul_params_per_layer(hidden_size, attention_heads, kv_heads, ffn_hidden_size, gated)
    )
    out = as_float_array(layers) * (per_layer + 2.0 * h)
    out = (out + 2.0 * as_float_array(vocab_size) * h + h) / 1e9
    return like_input(
        out, layers, hidden_size, attention_heads, kv_heads, ffn_hidden_size, vocab_size, gated
    )


def layers_from_params(
    params_billion,
    hidden_size,
    attention_heads,
    kv_heads,
    ffn_hidden_size,
    vocab_size,
    gated,
    attention_params=np.nan,
):
    """Depth that a parameter count implies for the other shape figures [layers, real].

    The inverse of :func:`params_from_shape` in ``layers``; not rounded (a model, not a
    checkpoint).  Zero or negative when the embeddings alone exceed the count.

    Parameters
    ----------
    params_billion : array_like
        Parameter count N [billion].
    hidden_size, attention_heads, kv_heads, ffn_hidden_size, vocab_size : array_like
        h, a, a_kv [count], f and V [-].
    gated : array_like
        1 gated MLP, 0 plain [-].
    attention_params : array_like
        Attention weights of one layer when stated [parameters]; NaN derives them.

    Returns
    -------
    float or ndarray
        Layers L [count, real].

    Examples
    --------
    >>> round(layers_from_params(405.85, 16384, 128, 8, 53248, 128256, 1), 1)
    126.0
    """
    h = as_float_array(hidden_size)
    per_layer = as_float_array(
        matmul_params_per_layer(
            hidden_size, attention_heads, kv_heads, ffn_hidden_size, gated, attention_params
        )
    )
    rest = as_float_array(params_billion) * 1e9 - 2.0 * as_float_array(vocab_size) * h - h
    out = rest / (per_layer + 2.0 * h)
    return like_input(
        out,
        params_billion,
        hidden_size,
        attention_heads,
        kv_heads,
        ffn_hidden_size,
        vocab_size,
        gated,
        attention_params,
    )


def model_flops_per_token(params_billion, layers, sequence_length, hidden_size, vocab_size=0.0):
    """Model FLOPs per trained token: 6·(N − V·h) + 12·L·s·h [FLOP] (PaLM App. B [1]).

    The MFU numerator: recomputation is not model work.  The input embedding is a table
    lookup, so its V·h parameters cost no FLOPs (Megatron-LM's count [4] likewise has the
    output layer's 6·V·h only); ``vocab_size`` 0 gives PaLM's 6N + 12·L·s·h as written.

    Parameters
    ----------
    params_billion : array_like
        Parameter count N [billion].
    layers, sequence_length, hidden_size : array_like
        L [count], s [tokens], h [-].
    vocab_size : array_like
        V [-]; 0 leaves the embedding in N (PaLM's formula as written).

    Returns
    -------
    float or ndarray
        Model FLOPs per trained token [FLOP].

    Examples
    --------
    >>> f"{model_flops_per_token(405.0, 126, 8192, 16384):.4e}"  # 6N is 2.43e12
    '2.6329e+12'
    >>> f"{model_flops_per_token(405.0, 126, 8192, 16384, 128256):.4e}"
    '2.6203e+12'
    """
    n = as_float_array(params_billion) * 1e9
    n = n - as_float_array(vocab_size) * as_float_array(hidden_size)
    attn = 12.0 * as_float_array(layers) * as_float_array(sequence_length)
    out = 6.0 * n + attn * as_float_array(hidden_size)
    return like_input(out, params_billion, layers, sequence_length, hidden_size, vocab_size)


def activation_bytes_per_layer(
    sequence_length,
    micro_batch,
    hidden_size,
    attention_heads,
    kv_heads,
    ffn_hidden_size,
    gated,
    tensor_parallel,
    sequence_parallel,
    recompute,
    dropout=1.0,
):
    """Activations one layer keeps for one micro-batch until its backward pass [bytes].

    Korthikanti et al. 2022 [2] Table 2, generalised (module docstring).  ``recompute``:
    0 none, 1 selective, 2 full; ``sequence_parallel`` 0/1; ``dropout`` 1 keeps the
    table's dropout masks and outputs (1 byte a mask after attention and after the MLP; on
    materialised scores a mask and a dropped copy, 3·as²b of the 5·as²b), 0 none (trained
    without dropout).

    Parameters
    ----------
    sequence_length, micro_batch : array_like
        s [tokens] and b [sequences].
    hidden_size, attention_heads, kv_heads, ffn_hidden_size : array_like
        h, a, a_kv [count], f [-].
    gated : array_like
        1 gated MLP, 0 plain [-].
    tensor_parallel : array_like
        t [count].
    sequence_parallel : array_like
        1 with sequence parallelism, 0 without [-].
    recompute : array_like
        0 none, 1 selective, 2 full (``models.choices.Recompute`` order).
    dropout : array_like, optional
        1 with dropout (the masks' 2·s·b·h bytes; default, as in [2]), 0 without [-].

    Returns
    -------
    float or ndarray
        Activation memory of one layer and micro-batch [bytes].

    Examples
    --------
    >>> # Korthikanti Table 2, GPT-3 175B (s 2048, b 1, h 12288, a 96), t = 8:
    >>> sbh = 2048 * 12288
    >>> activation_bytes_per_layer(2048, 1, 12288, 96, 96, 49152, 0, 8, 0, 0) / sbh  # 10+24/t+5as/ht
    23.0
    >>> activation_bytes_per_layer(2048, 1, 12288, 96, 96, 49152, 0, 8, 1, 1) / sbh  # 34/t
    4.25
    >>> activation_bytes_per_layer(2048, 1, 12288, 96, 96, 49152, 0, 8, 0, 2) / sbh  # 2
    2.0
    >>> activation_bytes_per_layer(2048, 1, 12288, 96, 96, 49152, 0, 8, 1, 1, 0) / sbh  # 32/t
    4.0
    """
    s = as_float_array(sequence_length)
    b = as_float_array(micro_batch)
    h = as_float_array(hidden_size)
    a = as_float_array(attention_heads)
    t = as_float_array(tensor_parallel)
    sp = as_float_array(sequence_parallel) > 0.5
    r = as_float_array(recompute)
    k = _mlp_matrices(gated) - 1.0  # 1 plain, 2 gated
    kv = as_float_array(kv_heads) / a
    sbh = s * b * h
    # layer-norm inputs (4), first-linear inputs (2 + 2), dropout masks (2, without dropout 0)
    replicated = 8.0 + 2.0 * as_float_array(dropout)
    split = 4.0 + 4.0 * kv + (2.0 * k + 2.0) * as_float_array(ffn_hidden_size) / h
    dense = np.where(sp, (replicated + split) / t, replicated + split / t) * sbh
    scores = np.where(r >= SELECTIVE, 0.0, as_float_array(score_bytes(s, b, a, t, dropout)))
    layer_input = np.where(sp, 2.0 / t, 2.0) * sbh
    out = np.where(r >= FULL, layer_input, dense + scores)
    return like_input(
        out,
        sequence_length,
        micro_batch,
        hidden_size,
        attention_heads,
        kv_heads,
        ffn_hidden_size,
        gated,
        tensor_parallel,
        sequence_parallel,
        recompute,
        dropout,
    )


def score_bytes(sequence_length, micro_batch, attention_heads, tensor_parallel, dropout=1.0):
    """Materialised attention scores one layer keeps for one micro-batch [bytes]: the
    softmax output (2 bytes a score) and, with dropout, its mask (1) and dropped copy (2),
    the 5·a·s²·b/t of [2] Table 2; without dropout 2·a·s²·b/t.

    Parameters
    ----------
    sequence_length, micro_batch : array_like
        s [tokens] and b [sequences].
    attention_heads, tensor_parallel : array_like
        a and t [count].
    dropout : array_like, optional
        1 with dropout (default, as in [2]), 0 without [-].

    Returns
    -------
    float or ndarray
        Score bytes of one layer and micro-batch [bytes].

    Examples
    --------
    >>> score_bytes(2048, 1, 96, 8) / (5 * 96 * 2048 * 2048 / 8)
    1.0
    >>> score_bytes(2048, 1, 96, 8, 0) / (2 * 96 * 2048 * 2048 / 8)
    1.0
    """
    s = as_float_array(sequence_length)
    out = (
        (2.0 + 3.0 * as_float_array(dropout))
        * as_float_array(attention_heads)
        * s
        * s
        * as_float_array(micro_batch)
        / as_float_array(tensor_parallel)
    )
    return like_input(out, sequence_length, micro_batch, attention_heads, tensor_parallel, dropout)


def micro_batches_in_flight(pipeline_parallel, virtual_stages, micro_batches):
    """Micro-batches whose activations the first pipeline stage holds at once.

    min(m, p) under 1F1B, times 1 + (p−1)/(p·v) for an interleaved schedule ([2] §4.2.3).

    Parameters
    ----------
    pipeline_parallel, virtual_stages, micro_batches : array_like
        p, v and m [count].

    Returns
    -------
    float or ndarray
        Micro-batches held at once on the first stage [count].

    Examples
    --------
    >>> micro_batches_in_flight(8, 1, 64)
    8.0
    >>> micro_batches_in_flight(8, 3, 64)  # 8 · (1 + 7/24)
    10.333333333333334
    >>> micro_batches_in_flight(8, 1, 2)
    2.0
    """
    p = as_float_array(pipeline_parallel)
    v = as_float_array(virtual_stages)
    out = np.minimum(as_float_array(micro_batches), p)
    out = out * np.where(v > 1, 1.0 + (p - 1.0) / (p * v), 1.0)
    return like_input(out, pipeline_parallel, virtual_stages, micro_batches)


def model_state_bytes_per_param(zero_stage, gradient_bytes, data_parallel):
    """Bytes of weights, gradients and Adam state per model parameter on one rank.

    2 + g + 12 replicated; ZeRO stage 1 divides the 12 by d, stage 2 also the g, stage 3
    also the 2 ([3] Fig. 1 with g = 2; Megatron-LM's fp32 gradients: g = 4, so its
    distributed optimizer needs 6 + 12/d).

    Parameters
    ----------
    zero_stage : array_like
        ZeRO stage [0-3].
    gradient_bytes : array_like
        Gradient bytes per parameter g [bytes] (2 bf16, 4 fp32).
    data_parallel : array_like
        Data-parallel ranks d [count].

    Returns
    -------
    float or ndarray
        Model-state bytes per parameter on one rank [bytes].

    Examples
    --------
    >>> model_state_bytes_per_param(0, 2, 64)
    16.0
    >>> model_state_bytes_per_param(1, 4, 12)  # Megatron distributed optimizer: 6 + 12/d
    7.0
    >>> model_state_bytes_per_param(3, 2, 64)
    0.25
    """
    z = as_float_array(zero_stage)
    g = as_float_array(gradient_bytes)
    d = as_float_array(data_parallel)
    w = np.where(z >= 3, WEIGHT_BYTES / d, WEIGHT_BYTES)
    gr = np.where(z >= 2, g / d, g)
    opt = np.where(z >= 1, OPTIMIZER_BYTES / d, OPTIMIZER_BYTES)
    return like_input(w + gr + opt, zero_stage, gradient_bytes, data_parallel)


def moe_params(
    layers,
    hidden_size,
    attention_heads,
    kv_heads,
    ffn_hidden_size,
    vocab_size,
    gated,
    experts=0.0,
    experts_per_token=1.0,
    expert_ffn_hidden_size=np.nan,
    shared_experts=0.0,
    moe_layer_fraction=1.0,
    tied=0.0,
    attention_params=np.nan,
):
    """Total and active parameters of a (mixture-of-experts) transformer [billions].

    A share ``moe_layer_fraction`` φ of the L layers replaces its MLP by E experts of
    ``expert_ffn_hidden_size`` f_e (empty = f) plus S shared experts, k of the E routed to
    per token, and a router of h·E; the other layers keep the dense MLP of width f.  Total
    parameters hold all experts (memory), active ones the k + S a token uses (FLOPs:
    6·N_active per token, Fedus et al. 2022, arXiv:2101.03961).  ``experts`` 0 is a dense
    model (:func:`params_from_shape`).  Tied embeddings count the V·h matrix once.

    Parameters
    ----------
    layers, hidden_size, attention_heads, kv_heads, ffn_hidden_size, vocab_size : array_like
        L, h, a, a_kv [count], f and V [-].
    gated : array_like
        1 gated MLP, 0 plain [-].
    experts, experts_per_token, shared_experts : array_like
        E, k and S [count]; E = 0 is a dense model; k > E (E > 0) gives a NaN active count.
    expert_ffn_hidden_size : array_like
        f_e [-]; NaN uses f.
    moe_layer_fraction : array_like
        Share φ of the layers with experts [fraction].
    tied : array_like
        1 when input and output embeddings are tied, else 0 [-].
    attention_params : array_like
        Attention weights of one layer when stated [parameters] (multi-head latent
        attention, :func:`attention_params_per_layer`); NaN derives them from the heads.

    Returns
    -------
    tuple of (float or ndarray)
        (total, active, expert_total) [billion parameters]: expert_total is the routed
        experts' share of total (what expert parallelism splits).

    Examples
    --------
    >>> # DeepSeek-V3 (arXiv:2412.19437): 61 layers, 58 MoE, 256 experts of 2,048, top 8,
    >>> # 1 shared; MLA's 187.1M attention weights per layer stated
    >>> tot, act, _ = moe_params(
    ...     61, 7168, 128, 128, 18432, 129280, 1, 256, 8, 2048, 1, 58 / 61,
    ...     attention_params=187105280,
    ... )
    >>> round(float(tot)), round(float(act), 1)
    (671, 37.6)
    >>> round(float(moe_params(126, 16384, 128, 8, 53248, 128256, 1)[0]), 2)  # dense
    405.85
    >>> # DeepSeek-V2 (arXiv:2405.04434 §3.1.2): 60 layers, all but the first MoE, 160
    >>> # experts of 1,536, top 6, 2 shared; MLA's 149.2M attention weights stated
    >>> tot, act, _ = moe_params(
    ...     60, 5120, 128, 128, 12288, 102400, 1, 160, 6, 1536, 2, 59 / 60,
    ...     attention_params=149225472,
    ... )
    >>> round(float(tot), 1), round(float(act), 1)  # published: 236B total, 21B active
    (235.7, 21.4)
    """
    h = as_float_array(hidden_size)
    k_m = _mlp_matrices(gated)
    attn = as_float_array(
        attention_params_per_layer(hidden_size, attention_heads, kv_heads, attention_params)
    )
    f = as_float_array(ffn_hidden_size)
    fe = as_float_array(expert_ffn_hidden_size)
    fe = np.where(np.isnan(fe), f, fe)
    e = as_float_array(experts)
    moe = e > 0.5
    phi = np.where(moe, as_float_array(moe_layer_fraction), 0.0)
    lay = as_float_array(layers)
    one_expert = k_m * h * fe
    routed = lay * phi * e * one_expert
    shared = lay * phi * as_float_array(shared_experts) * one_expert
    router = lay * phi * h * e
    dense = lay * (1.0 - phi) * k_m * h * f
    base = lay * (attn + 2.0 * h) + dense + shared + router
    emb = np.where(as_float_array(tied) > 0.5, 1.0, 2.0) * as_float_array(vocab_size) * h + h
    total = (base + routed + emb) / 1e9
    # k of the E experts (a dense model routes to none); k > E is no model: NaN, not clipped
    k = as_float_array(experts_per_token)
    k = np.where(moe, np.where(k <= e, k, np.nan), 0.0)
    active_routed = lay * phi * k * one_expert
    active = (base + active_routed + emb) / 1e9
    return total, active, routed / 1e9

"""The scenario's choice fields as enums.

A scenario stores each choice as its text value (TOML, links and widgets carry text); the
evaluation chain works with these enums.  Every enum is a ``StrEnum``, so a member compares
equal to its text: ``Strategy.MEMORY_DURABLE == "memory+durable"``.
"""

from __future__ import annotations

from enum import StrEnum


class Strategy(StrEnum):
    """Where checkpoints go (``checkpoint.strategy``)."""

    DURABLE_ONLY = "durable_only"
    NVME_DURABLE = "nvme+durable"
    MEMORY_DURABLE = "memory+durable"

    @property
    def two_level(self) -> bool:
        return self is not Strategy.DURABLE_ONLY


class DurableTier(StrEnum):
    """The durable tier (``checkpoint.durable_tier``)."""

    SHARED_FS = "shared_fs"
    OBJECT_STORE = "object_store"


class Timings(StrEnum):
    """Where level-1 save and restore times come from (``checkpoint.timings``)."""

    MEASURED = "measured"
    TIER_MODEL = "tier_model"


class SaveMode(StrEnum):
    """Synchronous or asynchronous saves (``checkpoint.save_mode``)."""

    SYNC = "sync"
    ASYNC = "async"


class Placement(StrEnum):
    """Where in-memory replicas sit (``checkpoint.replica_placement``)."""

    ADJACENT = "adjacent"
    SPREAD = "spread"


class MfuBasis(StrEnum):
    """Where the step time comes from (``workload.mfu_basis``): modelled from the system,
    or a stated MFU read end to end or as the compute phases' efficiency."""

    MODELLED = "modelled"
    END_TO_END = "end_to_end"
    COMPUTE_ONLY = "compute_only"


class Recompute(StrEnum):
    """Activation recomputation (``workload.recompute``, Korthikanti et al. 2022)."""

    NONE = "none"
    SELECTIVE = "selective"
    FULL = "full"
    #: the least that fits in memory: none, else selective, else full on the fewest layers
    #: of each model chunk (:func:`models.compute.least_recompute`)
    AUTO = "auto"

    @property
    def code(self) -> float:
        """0, 1, 2 as :mod:`models.transformer` takes it; 3 for ``auto``, which the step
        model resolves to one of them."""
        return float(list(Recompute).index(self))


class Mlp(StrEnum):
    """Feed-forward block (``workload.mlp``): GeLU (2 matrices) or SwiGLU (3, gated)."""

    GELU = "gelu"
    SWIGLU = "swiglu"


class OnOff(StrEnum):
    """A switch (``workload.sequence_parallel``, ``workload.flash_attention``,
    ``workload.balanced_stages``)."""

    ON = "on"
    OFF = "off"


class GradientPrecision(StrEnum):
    """Gradient bytes per parameter (``workload.gradient_precision``): bf16 as in ZeRO's
    2 + 2 + 12, or the fp32 gradients Megatron-LM accumulates (2 + 4 + 12)."""

    BF16 = "bf16"
    FP32 = "fp32"

    @property
    def bytes(self) -> float:
        return 2.0 if self is GradientPrecision.BF16 else 4.0


class SoftwareStack(StrEnum):
    """The training framework generation (``workload.software_stack``): what it can overlap
    and which attention kernel it runs (profiles in :data:`models.compute.STACKS`)."""

    MEGATRON_CORE = "megatron-core"
    MEGATRON_LM_2022 = "megatron-lm-2022"
    MEGATRON_LM_2021 = "megatron-lm-2021"
    DEEPSPEED_MEGATRON = "deepspeed-megatron"
    PYTORCH_FSDP = "pytorch-fsdp"

    @property
    def code(self) -> float:
        """0, 1, 2, 3, 4 as :mod:`models.compute` takes it."""
        return float(list(SoftwareStack).index(self))


class Precision(StrEnum):
    """GEMM precision (``workload.precision``): bf16, or fp8 for the transformer layers'
    GEMMs (attention, the output layer and the optimizer stay in bf16/fp32)."""

    BF16 = "bf16"
    FP8 = "fp8"


class MoeDispatcher(StrEnum):
    """How a mixture-of-experts layer moves its tokens to the experts
    (``workload.moe_dispatcher``): ``alltoall``, one copy per routed expert through an
    all-to-all (Megatron-Core's ``alltoall`` dispatcher); ``deepep``, one copy per
    destination node over the network, forwarded to the experts' GPUs over the scale-up
    links (DeepEP, github.com/deepseek-ai/DeepEP; DeepSeek-AI 2024, arXiv:2412.19437 §3.2)."""

    ALLTOALL = "alltoall"
    DEEPEP = "deepep"


class FailureScaling(StrEnum):
    """How a node failure rate carries over to another instance type
    (``reliability.failure_scaling``): per node, per accelerator, or a mix."""

    PER_NODE = "per_node"
    PER_ACCELERATOR = "per_accelerator"
    MIXED = "mixed"


class PricingModel(StrEnum):
    """How the instances are paid for (``pricing.model``).

    The terms of each model (commitment, upfront payment, what idle hours cost, Capacity
    Block lengths and sizes, the Spot notice) are in :data:`models.pricing.TERMS`.
    """

    ON_DEMAND = "on_demand"
    SAVINGS_PLAN_1Y = "savings_plan_1y"
    SAVINGS_PLAN_3Y = "savings_plan_3y"
    CAPACITY_BLOCK = "capacity_block"
    SPOT = "spot"
    HYPERPOD = "hyperpod"
    CUSTOM = "custom"

    @property
    def is_savings_plan(self) -> bool:
        return self in (PricingModel.SAVINGS_PLAN_1Y, PricingModel.SAVINGS_PLAN_3Y)


class StageDistribution(StrEnum):
    """How the Monte Carlo draws one recovery stage around its mean
    (``simulation.<stage>_distribution``); the analytic model uses the mean only.

    ``fixed``: always the mean.  ``lognormal`` and ``gamma``: the mean with coefficient of
    variation ``simulation.recovery_spread``.  ``exponential``: CV 1 (memoryless).
    ``uniform``: on [0, 2·mean] (CV 1/√3), e.g. a fault landing at a random phase of a
    periodic heartbeat or polling interval.
    """

    FIXED = "fixed"
    LOGNORMAL = "lognormal"
    GAMMA = "gamma"
    EXPONENTIAL = "exponential"
    UNIFORM = "uniform"


class Validation(StrEnum):
    """What a recovery does with the checkpoint it loads (``checkpoint.validation``).

    ``none``: trusted as loaded, so a corrupt one sends the job round a restart loop until
    someone intervenes (Megatron-LM issue 5281); ``fallback``: validated at load, and a
    corrupt one is skipped for the next tier (or the previous checkpoint).
    """

    NONE = "none"
    FALLBACK = "fallback"


#: Choice field key -> enum.
CHOICE_ENUMS: dict[str, type[StrEnum]] = {
    "checkpoint.strategy": Strategy,
    "checkpoint.durable_tier": DurableTier,
    "checkpoint.timings": Timings,
    "checkpoint.save_mode": SaveMode,
    "checkpoint.replica_placement": Placement,
    "workload.mfu_basis": MfuBasis,
    "workload.recompute": Recompute,
    "workload.mlp": Mlp,
    "workload.sequence_parallel": OnOff,
    "workload.flash_attention": OnOff,
    "workload.dropout": OnOff,
    "workload.balanced_stages": OnOff,
    "workload.gradient_precision": GradientPrecision,
    "workload.software_stack": SoftwareStack,
    "workload.precision": Precision,
    "workload.tied_embeddings": OnOff,
    "workload.step_settings_stated": OnOff,
    "workload.moe_dispatcher": MoeDispatcher,
    "reliability.failure_scaling": FailureScaling,
    "pricing.model": PricingModel,
    "checkpoint.validation": Validation,
    "simulation.detection_distribution": StageDistribution,
    "simulation.replacement_distribution": StageDistribution,
    "simulation.restart_distribution": StageDistribution,
    "simulation.restore_distribution": StageDistribution,
    "simulation.warmup_distribution": StageDistribution,
}


def values(enum: type[StrEnum]) -> tuple[str, ...]:
    """The text values of ``enum``, in order (for a field's ``choices``).

    Parameters
    ----------
    enum : type of StrEnum
        A choice enum of this module.

    Returns
    -------
    tuple of str
        The members' text values, in definition order.
    """
    return tuple(m.value for m in enum)


_WORDS: dict[str, dict[StrEnum, str]] = {
    "reliability.failure_scaling": {
        FailureScaling.PER_NODE: "Per node",
        FailureScaling.PER_ACCELERATOR: "Per accelerator",
        FailureScaling.MIXED: "Mixed (fitted share)",
    },
    "checkpoint.strategy": {
        Strategy.DURABLE_ONLY: "Durable tier only",
        Strategy.NVME_DURABLE: "Local NVMe + durable",
        Strategy.MEMORY_DURABLE: "CPU memory + durable",
    },
    "checkpoint.durable_tier": {
        DurableTier.SHARED_FS: "Shared file system",
        DurableTier.OBJECT_STORE: "Object store",
    },
    "checkpoint.timings": {
        Timings.MEASURED: "As entered",
        Timings.TIER_MODEL: "From tier bandwidths",
    },
    "checkpoint.save_mode": {SaveMode.SYNC: "Blocking (sync)", SaveMode.ASYNC: "Asynchronous"},
    "checkpoint.replica_placement": {
        Placement.ADJACENT: "Adjacent nodes",
        Placement.SPREAD: "Spread across domains",
    },
    "checkpoint.validation": {
        Validation.NONE: "Not validated (trusted)",
        Validation.FALLBACK: "Validate, fall back",
    },
    "workload.mfu_basis": {
        MfuBasis.MODELLED: "Modelled (hardware)",
        MfuBasis.END_TO_END: "End-to-end MFU",
        MfuBasis.COMPUTE_ONLY: "Compute-only MFU",
    },
    "workload.mlp": {Mlp.GELU: "GELU", Mlp.SWIGLU: "SwiGLU"},
    "workload.recompute": {
        Recompute.NONE: "No recomputation",
        Recompute.SELECTIVE: "Selective (attention)",
        Recompute.FULL: "Full",
        Recompute.AUTO: "Auto (least that fits)",
    },
    "workload.gradient_precision": {GradientPrecision.BF16: "BF16", GradientPrecision.FP32: "FP32"},
    "workload.precision": {Precision.BF16: "BF16", Precision.FP8: "FP8"},
    "workload.software_stack": {
        SoftwareStack.MEGATRON_CORE: "Megatron-Core (0.8+, NeMo)",
        SoftwareStack.MEGATRON_LM_2022: "Megatron-LM 2022",
        SoftwareStack.MEGATRON_LM_2021: "Megatron-LM 2021",
        SoftwareStack.DEEPSPEED_MEGATRON: "DeepSpeed + Megatron",
        SoftwareStack.PYTORCH_FSDP: "PyTorch FSDP (torchtitan, LLM Foundry)",
    },
    "workload.moe_dispatcher": {
        MoeDispatcher.ALLTOALL: "All-to-all",
        MoeDispatcher.DEEPEP: "DeepEP",
    },
}


#: Choices in words, keyed by field then stored value: the sidebar's dropdown, the inputs
#: tables and the sentences the models write (``goodput decide``'s answer) all read them
#: here, so "nvme+durable" reads "Local NVMe + durable" everywhere.  The pricing models'
#: words are their terms' labels (:data:`models.pricing.TERMS`).
CHOICE_WORDS: dict[str, dict[str, str]] = {
    key: {m.value: words for m, words in choices.items()} for key, choices in _WORDS.items()
}


def choice_words(key: str, value: str) -> str:
    """A choice in words, as the sidebar's dropdown shows it.

    Parameters
    ----------
    key : str
        A choice field's key (``"checkpoint.strategy"``); pricing models are worded by
        :data:`models.pricing.TERMS` instead.
    value : str
        The stored value, as links, TOML and ``--set`` carry it.

    Returns
    -------
    str
        The words of :data:`CHOICE_WORDS`, else the value with spaces for underscores and a
        capital first letter.

    Examples
    --------
    >>> choice_words("checkpoint.strategy", "nvme+durable")
    'Local NVMe + durable'
    >>> choice_words("workload.flash_attention", "on")
    'On'
    """
    words = CHOICE_WORDS.get(key, {}).get(value)
    return words or str(value).replace("_", " ").capitalize()

"""The project's bibliography: every paper, datasheet or page a figure or formula comes from.

Code, field help, the output registry and the UI cite an entry by its key (``daly2006``); the
prose that explains each formula in our own words is ``docs/references.md``, whose
bibliography lists the same keys (a test keeps the two in step).  Nothing here points outside
the repository except to the original source itself (DOI, arXiv or URL).
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Reference:
    """One source.  ``where`` is the DOI, arXiv id or URL a reader can open."""

    key: str
    citation: str
    where: str

    @property
    def year(self) -> str:
        """The work's year: the first year of the citation outside its parenthetical remarks
        (Erlang's 1917, not the 1975 of the book a remark cites; Kokolis's 2024, not the 2025
        of the venue that followed); "" when it states none."""
        plain = re.sub(r"\([^()]*\)", " ", self.citation)
        words = [w.strip(".,;()'") for w in plain.replace(":", " ").split()]
        years = [w for w in words if len(w) == 4 and w.isdigit() and w.startswith(("19", "20"))]
        return years[0] if years else ""


_ALL: tuple[Reference, ...] = (
    Reference(
        "kokolis2024",
        "A. Kokolis et al., 'Revisiting reliability in large-scale machine learning research "
        "clusters', 2024, HPCA 2025 (Meta RSC-1/RSC-2: failures per node-day, job MTTF by size)",
        "arXiv:2410.21680",
    ),
    Reference(
        "megascale2024",
        "Z. Jiang et al., 'MegaScale: Scaling large language model training to more than "
        "10,000 GPUs', NSDI 2024",
        "arXiv:2402.15627",
    ),
    Reference(
        "fthsdp2026",
        "O. Salpekar et al., 'Training LLMs with fault tolerant HSDP on 100,000 GPUs', 2026",
        "arXiv:2602.00277",
    ),
    Reference(
        "erlang1917",
        "A. K. Erlang, 'Solution of some problems in the theory of probabilities of "
        "significance in automatic telephone exchanges', Elektroteknikeren 13, 1917 (the loss "
        "formula; its insensitivity to the holding-time distribution: Kleinrock 1975 §3.7)",
        "https://en.wikipedia.org/wiki/Erlang_(unit)#Erlang_B_formula",
    ),
    Reference(
        "coreweave_pricing",
        "CoreWeave, GPU cloud pricing (on-demand GB200 NVL72 node of 4 GPUs: $42.00/h), read "
        "2026-09",
        "https://www.coreweave.com/pricing",
    ),
    Reference(
        "young1974",
        "J. W. Young, 'A first order approximation to the optimum checkpoint interval', "
        "Communications of the ACM 17(9):530-531, 1974",
        "doi:10.1145/361147.361115",
    ),
    Reference(
        "daly2006",
        "J. T. Daly, 'A higher order estimate of the optimum checkpoint interval for restart "
        "dumps', Future Generation Computer Systems 22(3):303-312, 2006",
        "doi:10.1016/j.future.2004.11.016",
    ),
    Reference(
        "moody2010",
        "A. Moody, G. Bronevetsky, K. Mohror, B. R. de Supinski, 'Design, modeling, and "
        "evaluation of a scalable multi-level checkpointing system' (SCR), SC 2010",
        "doi:10.1109/SC.2010.18",
    ),
    Reference(
        "gemini2023",
        "Z. Wang et al., 'GEMINI: Fast failure recovery in distributed training with in-memory "
        "checkpoints', SOSP 2023",
        "doi:10.1145/3600006.3613145",
    ),
    Reference(
        "checkfreq2021",
        "J. Mohan, A. Phanishayee, V. Chidambaram, 'CheckFreq: Frequent, fine-grained DNN "
        "checkpointing', FAST 2021",
        "https://www.usenix.org/conference/fast21/presentation/mohan",
    ),
    Reference(
        "datastates2024",
        "A. Maurya et al., 'DataStates-LLM: Lazy asynchronous checkpointing for large language "
        "models', HPDC 2024",
        "doi:10.1145/3625549.3658685",
    ),
    Reference(
        "hyperpod_tiered",
        "Amazon SageMaker HyperPod, managed tiered checkpointing (CPU memory first, replicated "
        "to other nodes, periodic persistence to Amazon S3), AWS documentation, 2025",
        "https://docs.aws.amazon.com/sagemaker/latest/dg/managed-tier-checkpointing.html",
    ),
    Reference(
        "llama3_2024",
        "A. Grattafiori et al. (Meta), 'The Llama 3 Herd of Models', 2024 (Table 4 parallelism "
        "and MFU, Table 5 root causes of interruptions, §3.3.4 reliability)",
        "arXiv:2407.21783",
    ),
    Reference(
        "schroeder2006",
        "B. Schroeder and G. Gibson, 'A large-scale study of failures in high-performance "
        "computing systems', DSN 2006",
        "doi:10.1109/DSN.2006.5",
    ),
    Reference(
        "opt_logbook2022",
        "Meta AI, OPT-175B training logbook (facebookresearch/metaseq, projects/OPT/chronicles), "
        "2022",
        "https://github.com/facebookresearch/metaseq/tree/main/projects/OPT/chronicles",
    ),
    Reference(
        "kleinrock1975",
        "L. Kleinrock, 'Queueing Systems, Volume 1: Theory', Wiley, 1975 (M/G/∞ occupancy, PASTA)",
        "ISBN 978-0471491101",
    ),
    Reference(
        "cox1962",
        "D. R. Cox, 'Renewal Theory', Methuen, 1962 (equilibrium forward-recurrence time)",
        "ISBN 978-0416523805",
    ),
    Reference(
        "kaplan2020",
        "J. Kaplan et al., 'Scaling laws for neural language models', 2020 (training compute "
        "C = 6·N·D)",
        "arXiv:2001.08361",
    ),
    Reference(
        "palm2022",
        "A. Chowdhery et al., 'PaLM: Scaling language modeling with Pathways', 2022, Appendix B "
        "(model FLOPs utilisation)",
        "arXiv:2204.02311",
    ),
    Reference(
        "narayanan2021",
        "D. Narayanan et al., 'Efficient large-scale language model training on GPU clusters "
        "using Megatron-LM', SC 2021",
        "arXiv:2104.04473",
    ),
    Reference(
        "korthikanti2022",
        "V. Korthikanti et al., 'Reducing activation recomputation in large transformer "
        "models', 2022",
        "arXiv:2205.05198",
    ),
    Reference(
        "zero2020",
        "S. Rajbhandari, J. Rasley, O. Ruwase, Y. He, 'ZeRO: Memory optimizations toward "
        "training trillion parameter models', SC 2020",
        "arXiv:1910.02054",
    ),
    Reference(
        "thakur2005",
        "R. Thakur, R. Rabenseifner, W. Gropp, 'Optimization of collective communication "
        "operations in MPICH', IJHPCA 19(1):49-66, 2005",
        "doi:10.1177/1094342005051521",
    ),
    Reference(
        "hockney1994",
        "R. W. Hockney, 'The communication challenge for MPP: Intel Paragon and Meiko CS-2', "
        "Parallel Computing 20(3):389-398, 1994",
        "doi:10.1016/0167-8191(94)90020-5",
    ),
    Reference(
        "nccl_tests",
        "NVIDIA, nccl-tests, doc/PERFORMANCE.md (algorithm and bus bandwidth)",
        "https://github.com/NVIDIA/nccl-tests/blob/master/doc/PERFORMANCE.md",
    ),
    Reference(
        "pytorch_ddp2020",
        "S. Li et al., 'PyTorch Distributed: Experiences on accelerating data parallel "
        "training', VLDB 2020",
        "arXiv:2006.15704",
    ),
    Reference(
        "pytorch_pg",
        "PyTorch documentation, torch.distributed.init_process_group (NCCL default timeout "
        "10 minutes)",
        "https://pytorch.org/docs/stable/distributed.html",
    ),
    Reference(
        "aws_instances",
        "AWS, 'Specifications for Amazon EC2 accelerated computing instances'",
        "https://docs.aws.amazon.com/ec2/latest/instancetypes/ac.html",
    ),
    Reference(
        "aws_fsx_throughput",
        "AWS, Amazon FSx for Lustre User Guide, 'Managing throughput capacity' "
        "(PerUnitStorageThroughput)",
        "https://docs.aws.amazon.com/fsx/latest/LustreGuide/managing-throughput-capacity.html",
    ),
    Reference(
        "ml_engineering",
        "S. Bekman, 'Machine Learning Engineering Open Book', compute/accelerator/README.md "
        "(datasheet figures and measured maximum achievable matmul FLOPS)",
        "https://github.com/stas00/ml-engineering/blob/master/compute/accelerator/README.md",
    ),
    Reference(
        "nvidia_resiliency",
        "NVIDIA Resiliency Extension (nvidia-resiliency-ext): fault tolerance, in-process "
        "restart, straggler detection; heartbeat timeouts",
        "https://github.com/NVIDIA/nvidia-resiliency-ext",
    ),
    Reference(
        "minder2025",
        "Y. Deng et al. (ByteDance), 'Minder: Faulty machine detection for large-scale "
        "distributed model training', NSDI 2025",
        "arXiv:2411.01791",
    ),
    Reference(
        "saxena2024",
        "A. Saxena et al. (NVIDIA), 2024: the availability-optimal checkpoint interval when "
        "failure detection takes time (it must be at least the detection latency)",
        "arXiv:2410.18124",
    ),
    Reference(
        "aws_ec2_pricing",
        "AWS, 'Amazon EC2 On-Demand Pricing' (per-second billing of running instances)",
        "https://aws.amazon.com/ec2/pricing/on-demand/",
    ),
    Reference(
        "aws_savings_plans",
        "AWS, 'Savings Plans FAQs' (a $/hour commitment for a one- or three-year term; "
        "Compute and EC2 Instance Savings Plans)",
        "https://aws.amazon.com/savingsplans/faqs/",
    ),
    Reference(
        "aws_capacity_blocks",
        "AWS, Amazon EC2 User Guide, 'Capacity Blocks for ML' and 'Find and purchase Capacity "
        "Blocks' (1-14 days in 1-day steps, 7-day steps up to 182 days; up to 64 instances a "
        "block, 256 across blocks; instances terminated from 30 minutes before the end)",
        "https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/ec2-capacity-blocks.html",
    ),
    Reference(
        "aws_capacity_block_pricing",
        "AWS, 'Amazon EC2 Capacity Blocks for ML Pricing' (reservation fee charged up front; "
        "effective instance hourly rates, prices in force until 2025-01-01)",
        "https://aws.amazon.com/ec2/capacityblocks/pricing/",
    ),
    Reference(
        "aws_spot_notice",
        "AWS, Amazon EC2 User Guide, 'Spot Instance interruption notices' (a warning two "
        "minutes before the instance is stopped or terminated, best effort)",
        "https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/spot-instance-termination-notices.html",
    ),
    Reference(
        "aws_spot_advisor",
        "AWS, 'Spot Instance Advisor' (frequency of interruption over the trailing month, in "
        "buckets <5%, 5-10%, 10-15%, 15-20%, >20%)",
        "https://aws.amazon.com/ec2/spot/instance-advisor/",
    ),
    Reference(
        "aws_sagemaker_pricing",
        "AWS, 'Amazon SageMaker AI Pricing' (ml.* instance prices, HyperPod and training plans)",
        "https://aws.amazon.com/sagemaker/pricing/",
    ),
    Reference(
        "fsx_lustre_prices_classmethod",
        "Classmethod, 'FSx for Lustre Persistent 2 のスペック別利用料金を手軽に確認したいので"
        "表にしてみた' (hourly prices of PERSISTENT_2 file systems by size and throughput "
        "tier, ap-northeast-1, 2022-09-03)",
        "dev.classmethod.jp (DevelopersIO), 2022-09-03",
    ),
    Reference(
        "aws_s3_pricing",
        "AWS, 'Amazon S3 Pricing' (S3 Standard storage per GB-month, PUT and GET requests per "
        "1,000), figures as quoted by secondary guides",
        "https://aws.amazon.com/s3/pricing/",
    ),
    Reference(
        "owasp_csv",
        "OWASP, 'CSV Injection'",
        "https://owasp.org/www-community/attacks/CSV_Injection",
    ),
    # --- added with docs/references.md: sources the docs, docstrings and data files cite
    Reference(
        "wolff1982",
        "R. W. Wolff, 'Poisson arrivals see time averages', Operations Research "
        "30(2):223-231, 1982 (PASTA)",
        "doi:10.1287/opre.30.2.223",
    ),
    Reference(
        "corless1996",
        "R. M. Corless, G. H. Gonnet, D. E. G. Hare, D. J. Jeffrey, D. E. Knuth, 'On the "
        "Lambert W function', Advances in Computational Mathematics 5:329-359, 1996",
        "doi:10.1007/BF02124750",
    ),
    Reference(
        "lawless2003",
        "J. F. Lawless, 'Statistical Models and Methods for Lifetime Data', 2nd ed., "
        "Wiley, 2003 (exponential and censored Weibull likelihoods)",
        "ISBN 978-0471372158",
    ),
    Reference(
        "garwood1936",
        "F. Garwood, 'Fiducial limits for the Poisson distribution', Biometrika "
        "28(3/4):437-442, 1936 (exact Poisson intervals)",
        "doi:10.1093/biomet/28.3-4.437",
    ),
    Reference(
        "efron1993",
        "B. Efron and R. J. Tibshirani, 'An Introduction to the Bootstrap', Chapman & "
        "Hall, 1993 (the percentile interval, ch. 13)",
        "ISBN 978-0412042317",
    ),
    Reference(
        "saltelli2008",
        "A. Saltelli et al., 'Global Sensitivity Analysis: The Primer', Wiley, 2008 "
        "(one-at-a-time sensitivity)",
        "ISBN 978-0470059975",
    ),
    Reference(
        "rfc5880",
        "D. Katz, D. Ward, 'Bidirectional Forwarding Detection (BFD)', RFC 5880, 2010",
        "https://www.rfc-editor.org/rfc/rfc5880",
    ),
    Reference(
        "rfc4271",
        "Y. Rekhter, T. Li, S. Hares, 'A Border Gateway Protocol 4 (BGP-4)', RFC 4271, 2006 "
        "(hold timer)",
        "https://www.rfc-editor.org/rfc/rfc4271",
    ),
    Reference(
        "aws_10p10u",
        "'AWS upgrades its 10p10u network to handle massive AI clusters', report on "
        "P. DeSantis's AWS re:Invent 2024 keynote, December 2024 (secondary source)",
        "https://gixtools.net/2024/12/aws-upgrades-its-10p10u-network-to-handle-massive-ai-clusters",
    ),
    Reference(
        "nvidia_h100",
        "NVIDIA, H100 Tensor Core GPU specifications (PCIe Gen5 128 GB/s, NVLink 900 GB/s)",
        "https://www.nvidia.com/en-us/data-center/h100/",
    ),
    Reference(
        "aws_neuron_trainium",
        "AWS Neuron documentation, 'Trainium Architecture' (190 TFLOPS BF16, 32 GiB HBM at "
        "820 GiB/s per chip)",
        "https://awsdocs-neuron.readthedocs-hosted.com/en/latest/general/arch/neuron-hardware/trainium.html",
    ),
    Reference(
        "aws_neuron_trainium2",
        "AWS Neuron documentation, 'Trainium2 Architecture' (667 TFLOPS BF16, 1,299 FP8 per chip)",
        "https://awsdocs-neuron.readthedocs-hosted.com/en/latest/about-neuron/arch/neuron-hardware/trainium2.html",
    ),
    Reference(
        "mlperf_training_v41",
        "NVIDIA Technical Blog, 'NVIDIA Blackwell Doubles LLM Training Performance in MLPerf "
        "Training v4.1', November 2024 (vendor blog: per-GPU 2x on GPT-3 175B, 2.2x on "
        "Llama 2 70B LoRA vs Hopper)",
        "https://developer.nvidia.com/blog/nvidia-blackwell-doubles-llm-training-performance-in-mlperf-training-v4-1/",
    ),
    Reference(
        "s3_benchmark",
        "D. Vassallo, s3-benchmark, 'S3 to EC2 Bandwidth' (c5n.18xlarge 8,003 MB/s, "
        "measured 2019-04-02)",
        "https://github.com/dvassallo/s3-benchmark",
    ),
    Reference(
        "bloom_chronicles",
        "BigScience, 'BigScience 176B Model' training page (BLOOM-176B: bf16 weights 329 GB, "
        "full checkpoint with optimizer states 2.3 TB), 2022",
        "https://bigscience.notion.site/BigScience-176B-Model-ad073ca07cdf479398d5f95d88e218c4",
    ),
    Reference(
        "moe_folding2025",
        "D. Liu et al. (NVIDIA), 'MoE Parallel Folding: Heterogeneous Parallelism Mappings "
        "for Efficient Large-Scale MoE Model Training with Megatron Core', 2025",
        "arXiv:2504.14960",
    ),
    Reference(
        "lablup2026",
        "Lablup, SKT, Upstage et al., 'From detection to recovery: operational analysis on "
        "LLM pre-training with 504 GPUs' (63-node B200 cluster, 55 days: 10 GPU failures; "
        "auto-retry chains succeeded 4 of 12 times over 73 attempts), 2026",
        "arXiv:2605.09370",
    ),
    Reference(
        "stepfun_trace2025",
        "StepFun, 'InfiniteHBD fault trace' (584 faults of 400 GPU servers over 348 days from "
        "2024-03-30), published with C. Shou et al., 'InfiniteHBD', SIGCOMM 2025; "
        "github.com/stepfun-ai/InfiniteHBD-Trace, Apache License 2.0",
        "arXiv:2502.03885",
    ),
    Reference(
        "byterobust2025",
        "B. Wan et al. (ByteDance), 'Robust LLM Training Infrastructure at ByteDance', 2025 "
        "(97% ETTR, three-month job on 9,600 GPUs)",
        "arXiv:2509.16293",
    ),
    Reference(
        "crusoe_autoclusters",
        "Crusoe, 'AutoClusters: Minimizing the impact of hardware failures in large GPU "
        "clusters' (blog: failed nodes replaced in under 5 minutes)",
        "https://www.crusoe.ai/resources/blog/autoclusters-minimizing-hardware-failures-in-large-gpu-clusters",
    ),
    Reference(
        "aws_pricing_ondemand",
        "AWS, 'Amazon EC2 On-Demand Pricing'",
        "https://aws.amazon.com/ec2/pricing/on-demand/",
    ),
    Reference(
        "ml_goodput_measurement",
        "Google, ml-goodput-measurement: GoodputRecorder and GoodputCalculator "
        "(goodput and badput of ML training jobs from Cloud Logging records), 2024",
        "https://github.com/AI-Hypercomputer/ml-goodput-measurement",
    ),
    Reference(
        "megatron_5281",
        "NVIDIA/Megatron-LM issue 5281, 'FT local checkpointing: corrupt replica-retrieved "
        "local ckpt ... has no integrity validation / global-ckpt fallback; rerun_state_machine "
        "loops forever under ft_launcher' (44 identical ~90 s restart cycles), 2026",
        "https://github.com/NVIDIA/Megatron-LM/issues/5281",
    ),
    Reference(
        "scr_174",
        "LLNL SCR issue 174, 'Avoid repeatedly restarting from bad checkpoint' (mark a "
        "checkpoint bad after a failed restart and fall back to the next most recent), 2020",
        "https://github.com/llnl/scr/issues/174",
    ),
    Reference(
        "hyperpod_checkpointless",
        "Amazon SageMaker HyperPod, 'In-process recovery and checkpointless training', AWS "
        "documentation (state replicated across node groups; training resumes from the "
        "previous step)",
        "https://docs.aws.amazon.com/sagemaker/latest/dg/"
        "sagemaker-eks-checkpointless-in-process-recovery.html",
    ),
    Reference(
        "hyperpod_checkpointless_blog",
        "AWS Machine Learning Blog, 'Checkpointless training on Amazon SageMaker HyperPod: "
        "Production-scale training with faster fault recovery', December 2025 (recovery 15-30 "
        "min to under 2 min on 2,304 H100; 4 min 52 s to 47 s on 256; first-step overhead)",
        "https://aws.amazon.com/blogs/machine-learning/checkpointless-training-on-amazon-"
        "sagemaker-hyperpod-production-scale-training-with-faster-fault-recovery/",
    ),
    Reference(
        "hyperpod_elastic",
        "AWS News Blog, 'Introducing checkpointless and elastic training on Amazon SageMaker "
        "HyperPod', December 2025 (elastic training adds or removes data-parallel replicas)",
        "https://aws.amazon.com/blogs/aws/introducing-checkpointless-and-elastic-training-on-"
        "amazon-sagemaker-hyperpod/",
    ),
    Reference(
        "hyperpod_health_checks",
        "Amazon SageMaker HyperPod, 'Deep health checks', AWS documentation (DCGM diagnostics "
        "level 4, NCCL tests, EFA checks on instances joining a cluster)",
        "https://docs.aws.amazon.com/sagemaker/latest/dg/"
        "sagemaker-hyperpod-eks-resiliency-deep-health-checks.html",
    ),
    Reference(
        "hyperpod_auto_resume",
        "Amazon SageMaker HyperPod, 'Running jobs using the SageMaker HyperPod CLI' (job "
        "auto-resume with node resiliency), AWS documentation",
        "https://docs.aws.amazon.com/sagemaker/latest/dg/"
        "sagemaker-hyperpod-eks-run-jobs-hyperpod-cli.html",
    ),
    Reference(
        "dcgm_diag",
        "NVIDIA DCGM, 'dcgmi diag' reference (level 1 seconds, level 2 about two minutes, "
        "level 3 about 15 minutes, level 4 extended)",
        "https://docs.nvidia.com/datacenter/dcgm/latest/reference/command-line-reference/"
        "dcgmi/dcgmi-diag.html",
    ),
    Reference(
        "nemo_resiliency",
        "NVIDIA NeMo Framework / Megatron Bridge, 'Resiliency' (fault tolerance with hang "
        "detection, straggler detection, async and local checkpointing, re-run state machine "
        "for NaN and spiky-loss attribution, in-process restart)",
        "https://docs.nvidia.com/nemo-framework/user-guide/latest/resiliency.html",
    ),
    Reference(
        "lin2025_stragglers",
        "J. Lin et al. (ByteDance), 'Understanding stragglers in large model training using "
        "what-if analysis', OSDI 2025",
        "arXiv:2505.05713",
    ),
)

REFERENCES: dict[str, Reference] = {r.key: r for r in _ALL}


def cite(key: str) -> str:
    """``Citation (where)`` for ``key``; raises KeyError for an unknown key.

    Parameters
    ----------
    key : str
        A key of :data:`REFERENCES`.

    Returns
    -------
    str
        ``Citation (where)``.
    """
    r = REFERENCES[key]
    return f"{r.citation} ({r.where})"

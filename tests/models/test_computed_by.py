"""Every output names the function computing it (``computed_by``), and the name is right.

* every registered output names a function, and that function exists;
* every figure of the evaluation chain names the chain step that reports it, or a function
  that step calls (a few figures name the more specific function);
* every other figure names a function whose source holds the figure's key (a string, an
  attribute, a field, a keyword or a parameter), or the name it is computed under there
  (:data:`RENAMED`: the figure is renamed where it is reported).
"""

import ast
import importlib
import inspect
import textwrap
from functools import cache

import pytest
from goodput_lab.models import resolve_inputs
from goodput_lab.models.chain import run_chain
from goodput_lab.models.fitting import fit_tbf
from goodput_lab.models.outputs import OUTPUTS
from goodput_lab.models.scenario import load_preset

NAMED = {k: o.computed_by for k, o in OUTPUTS.items() if o.computed_by}

#: the chain's steps (ChainResult's parts) and the functions computing them
STAGES = {
    "failures": "models.chain.failure_process",
    "checkpoint": "models.chain.checkpoint_plan",
    "step": "models.chain.step_time",
    "goodput": "models.chain.goodput_step",
    "cost": "models.chain.cost_step",
}
#: presets whose chain figures are checked (dense and mixture-of-experts, domains, tiers)
PRESETS = ("llama3-70b", "deepseek-v3")


def _chain_keys() -> dict[str, str]:
    """Output key -> the chain step function that reports it, over :data:`PRESETS`."""
    out: dict[str, str] = {}
    for preset in PRESETS:
        result = run_chain(resolve_inputs(load_preset(preset)))
        for part, stage in STAGES.items():
            for key in getattr(result, part).metrics():
                out[key] = stage
    return out


CHAIN = _chain_keys()
OTHER = sorted(k for k in OUTPUTS if k not in CHAIN)

#: Chain figures that name a function the step calls instead of the step itself: the more
#: specific names the registry carries, with the step that calls them (checked below to be
#: exactly the registry's, and to be reached from that step's source).
CALLED_BY_STAGE = {
    "models.chain.domain_layout": "models.chain.failure_process",
    "models.reliability.erlang_b": "models.chain.failure_process",
    "models.recovery.restart_with_retries_minutes": "models.chain.failure_process",
    "models.reliability.overlapping_repairs_minutes": "models.chain.failure_process",
    "models.compute.step_model": "models.chain.step_time",
    "models.compute.step_interval": "models.chain.step_time",
    "models.compute.usable_memory_GB": "models.chain.step_time",
}

#: Figures computed under another name than their key and renamed where they are reported
#: (a ``to_json_dict``, a CLI's JSON, a page's table): key -> the name in the source of the
#: function named.  None: no single name (said why).
RENAMED: dict[str, str | None] = {
    # JSON keys registered under another name, their own being another figure's
    # (tests/cli/test_outputs_registry.py: TOP_LEVEL and COLUMNS)
    "log_nodes": "nodes",
    "restore_seconds_sync": "restore_seconds",
    "ladder_features": "features",
    "timeline_duplicates": "duplicates",
    # the price in force and its provenance: fields of the Price the function returns
    # (Evaluation.texts, InstanceRanking.to_json_dict and BlockPlan.to_json_dict rename them)
    "pricing_model": "model",
    "scenario_usd_per_instance_hour": "Price",
    "scenario_price_source": "Price",
    "scenario_price_as_of": "Price",
    "capacity_block_usd_per_instance_hour": "Price",
    "capacity_block_price_source": "Price",
    "capacity_block_price_as_of": "Price",
    "overrun_usd_per_instance_hour": "Price",
    "overrun_price_source": "Price",
    "overrun_price_as_of": "Price",
    # goodput compare (Comparison.to_json_dict renames them)
    "goodput_baseline": "goodput",
    "goodput_candidate": "goodput",
    "productive_time_ratio": "r",
    "step_time_savings_usd_per_day": "step",
    # the savings waterfall's goodput points (savings_by_component's rows)
    "component_goodput_points_saved": "goodput_points",
    # instance ranking: VerdictRobustness fields, the MFU's source, the scaled failure rate
    # (views.instances and the ranking's JSON rename them)
    "mfu_source": "note",
    "node_failure_rate_per_day": "rate_per_node_day",
    "verdict_break_even_usd_per_hour": "break_even_usd_per_hour",
    "verdict_price_margin": "price_margin",
    "verdict_mfu_margin": "mfu_margin",
    "verdict_break_even_mfu": "be_mfu",
    "runner_up_break_even_mfu": "be_r",
    # goodput optimize / plan: IntervalRecommendation, SpareRecommendation,
    # DomainSparePolicy and FileSystemRecommendation fields (Optimization.to_json_dict,
    # cli.plan, the reports rename them)
    "recommended_checkpoint_interval_minutes": "interval_minutes",
    "goodput_at_recommended_interval": "goodput",
    "current_checkpoint_interval_minutes": "current_interval_minutes",
    "interval_savings_usd_per_day": "savings_usd_per_day",
    "recommendation_savings_usd_per_day": "comparison",
    "current_spare_nodes": "current_spares",
    "domain_spare_nodes": "spare_nodes",
    "file_system_TiB": "provisioned_TiB",
    "file_system_throughput_MBps_per_TiB": "throughput_MBps_per_TiB",
    "file_system_savings_usd_per_day": "savings_usd_per_day",
    # goodput optimize --json's domain_spares rows: DomainSparePolicy.count, which
    # _domain_policies computes
    "domain_spare_count": "count",
    # Monte Carlo: SimulationResult.summary and goodput simulate's JSON
    "unfinished_trials": "unfinished",
    "lost_analytic_usd": "_analytic_lost",
    "lost_analytic_usd_per_month": "_analytic_lost",
    "estimated_seconds": "seconds",
    # the loss table: Evaluation.loss_breakdown's columns (views.overview renames them)
    "component_minutes_per_day": "minutes_per_day",
    "component_usd_per_day": "usd_per_day",
    "component_share_of_wall_time": "fraction_of_wall_time",
    "component_usd_per_year": "usd_per_year",
    # the Compare page's savings waterfall: Comparison.savings_by_component's columns
    "component_minutes_saved_per_day": "minutes_per_day_saved",
    "component_savings_usd_per_day": "usd_per_day",
    # the Sensitivity tornado: models.sensitivity.tornado's swing per metric
    "goodput_swing": "swing",
    "lost_usd_per_day_swing": "swing",
    # the Network page's fabric table (views.network.fabric_value_display renames it)
    "time_to_train_change_days": "days_change",
    # the failure log: LogFit, fit_tbf's and the cause rows' entries (views.failure_log
    # renames them; its tables show the Weibull and the exponential fit)
    "fitted_node_failure_rate_per_day": "node_failure_rate_per_day",
    "fitted_job_mtbf_hours": "exp_mean_h",
    "fitted_weibull_shape": "weibull_shape",
    "fitted_weibull_scale_hours": "weibull_scale_h",
    "log_likelihood": "loglik_weibull",
    "aic": "aic_weibull",
    "ks_distance": "ks_weibull",
    "ks_p_value": "ks_weibull_p_optimistic",
    "failure_count": "failures",
    "cause_rate_per_node_day": "rate_per_node_day",
    "cause_share": "share",
    "llama3_cause_share": "llama3_share",
    "cause_rate_per_node_day_lo": "rate_per_node_day_lo",
    "cause_rate_per_node_day_hi": "rate_per_node_day_hi",
    # goodput fit --json: LogFit.to_json_dict prefixes fit_tbf's keys with job_ and
    # fit_weibull_censored's with node_ (f"job_{k}", f"node_{k}")
    **{f"job_{k}": k for k in fit_tbf([1.0, 2.0, 3.0, 4.0])},
    **{
        f"node_{k}": k
        for k in (
            "n_gaps",
            "n_censored",
            "weibull_shape",
            "weibull_shape_lo",
            "weibull_shape_hi",
            "weibull_scale_h",
            "exp_rate_per_h",
            "loglik_weibull",
        )
    },
    # goodput reconcile: RunMeasurement, TimelineFit and Summary fields, the rate interval
    # (Reconciliation.to_json_dict and reconcile._fitted_json rename them; the sample
    # statistics' keys are built there as f"{sample}_p{q}_{unit}" and f"{sample}s_measured")
    "timeline_source": "source",
    "run_days": "span_days",
    "run_nodes": "nodes",
    "run_nodes_source": "nodes_source",
    "measured_goodput": "goodput",
    "failure_events": "failures",
    "failure_incidents": "incidents",
    "failure_rate_per_node_day_lo": "lo",
    "failure_rate_per_node_day_hi": "hi",
    "job_interruptions_per_day_lo": "lo",
    "job_interruptions_per_day_hi": "hi",
    "confidence_level": "confidence",
    "recovery_minutes": "mean",
    "recovery_spread": "sd",  # Summary.cv = sd / mean
    **{f"{s}_measured": "size" for s in ("saves", "restores", "recoveries", "steps")},
    **{
        f"{s}_p{q}_{u}": f"p{q}"
        for s, u in (
            ("save", "seconds"),
            ("restore", "seconds"),
            ("recovery", "minutes"),
            ("step", "seconds"),
        )
        for q in (10, 50, 90)
    },
    "not_fitted": "notes",
    "what_if_set": "sets",
    # goodput sweep: what run_sweep's _resume returns as healed
    "parts_healed": "healed",
    # goodput decide: Decision and PriceOption fields (Decision.to_json_dict renames them)
    "meets_target": "meets",
    "dropped_instances": "dropped",
    "pricing_label": "label",
    # goodput plan --json's budget rows (budget_by_pricing_model's "own" and "available")
    "own_pricing_model": "own",
    "price_available": "available",
    "no_capacity_block": None,  # goodput plan's JSON key for the sentence no_block_price returns
    "set": None,  # the --set strings set_arguments returns (its list ``out``)
    "features": "feats",  # the feature names of each recommended prefix
    "frontier": None,  # the Pareto set _pareto returns (its list ``out``)
    # the 80% intervals: fields of the Interval returned; the Dask runner's resumed count
    # (its ``stats``, which goodput decide's JSON reports); the bucket COMPONENT_BADPUT maps
    # each loss component to; split_job_level's second count
    "failure_rate_interval_source": "Interval",
    "step_time_multiplier_low": "Interval",
    "step_time_multiplier_high": "Interval",
    "step_time_interval_source": "Interval",
    "configurations_resumed": "stats",
    "badput_bucket": "COMPONENT_BADPUT",
    "job_incidents": None,  # the second of the two counts split_job_level returns
    # Decision.sentence writes the answer; Decision.to_json_dict files it under "answer"
    "answer": None,
}


def _resolve(dotted: str):
    """Import the longest importable module prefix, then walk attributes (a method of a
    class counts)."""
    parts = dotted.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module("goodput_lab." + ".".join(parts[:i]))
        except ModuleNotFoundError:
            continue
        for name in parts[i:]:
            obj = getattr(obj, name)
        return obj
    raise ModuleNotFoundError(dotted)


def _function(obj):
    """The function behind a property, cached property, method or decorated function."""
    if isinstance(obj, property):
        obj = obj.fget
    obj = getattr(obj, "func", obj)  # functools.cached_property
    return inspect.unwrap(obj)


@cache
def _tree(dotted: str) -> ast.AST:
    return ast.parse(textwrap.dedent(inspect.getsource(_function(_resolve(dotted)))))


@cache
def _names(dotted: str) -> frozenset[str]:
    """Every name in the source of ``dotted``: strings (and the parts of a dotted field key),
    attributes, variables, keywords, parameters and definitions (a leading underscore
    dropped too); docstrings left out."""
    tree = _tree(dotted)
    docs = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in docs:
                out.add(node.value)
                out.update(node.value.split("."))
        elif isinstance(node, ast.Attribute):
            out.add(node.attr)
        elif isinstance(node, ast.Name):
            out.add(node.id)
        elif isinstance(node, ast.arg) or (isinstance(node, ast.keyword) and node.arg):
            out.add(node.arg)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            out.update((node.name, node.name.lstrip("_")))
    return frozenset(out)


def _dotted(fn) -> str | None:
    """``models.compute.step_model`` for a function of the package, else None."""
    module = getattr(fn, "__module__", "") or ""
    if not module.startswith("goodput_lab."):
        return None
    return module.removeprefix("goodput_lab.") + "." + fn.__qualname__


@cache
def _reached(stage: str) -> frozenset[str]:
    """The package's functions ``stage`` calls, directly or through others (by name)."""
    seen: set[str] = set()
    todo = [stage]
    while todo:
        dotted = todo.pop()
        if dotted in seen:
            continue
        seen.add(dotted)
        fn = _function(_resolve(dotted))
        scope = getattr(fn, "__globals__", {})
        for node in ast.walk(_tree(dotted)):
            if not isinstance(node, ast.Call):
                continue
            target, chain = node.func, []
            while isinstance(target, ast.Attribute):
                chain.append(target.attr)
                target = target.value
            if not isinstance(target, ast.Name) or target.id not in scope:
                continue
            obj = scope[target.id]
            try:
                for attr in reversed(chain):
                    obj = getattr(obj, attr)
            except AttributeError:
                continue
            name = _dotted(inspect.unwrap(obj)) if inspect.isfunction(inspect.unwrap(obj)) else None
            if name is not None and "<locals>" not in name:
                todo.append(name)
    return frozenset(seen)


def test_every_output_names_its_function():
    missing = sorted(k for k, o in OUTPUTS.items() if not o.computed_by)
    assert not missing, f"{len(missing)} outputs name no function: {missing}"


@pytest.mark.parametrize("key", sorted(NAMED))
def test_computed_by_names_a_function(key):
    obj = _resolve(NAMED[key])
    assert callable(obj) or isinstance(obj, property), NAMED[key]


def test_chain_figures_name_their_step():
    wrong = {
        key: (OUTPUTS[key].computed_by, stage)
        for key, stage in CHAIN.items()
        if OUTPUTS[key].computed_by != stage
        and CALLED_BY_STAGE.get(OUTPUTS[key].computed_by) != stage
    }
    assert not wrong, wrong


def test_more_specific_chain_names_are_the_registrys_and_called_by_their_step():
    used = {OUTPUTS[k].computed_by for k in CHAIN} - set(STAGES.values())
    assert used == set(CALLED_BY_STAGE)
    for name, stage in CALLED_BY_STAGE.items():
        assert name in _reached(stage), f"{stage} does not call {name}"


@pytest.mark.parametrize("key", OTHER)
def test_named_function_holds_the_key(key):
    names = _names(OUTPUTS[key].computed_by)
    if key in RENAMED:
        assert key not in names, f"{key!r} is in the source: drop it from RENAMED"
        if RENAMED[key] is not None:
            assert RENAMED[key] in names, (OUTPUTS[key].computed_by, RENAMED[key])
    else:
        assert key in names, f"{key!r} is not in {OUTPUTS[key].computed_by}"


def test_renamed_lists_only_registered_figures_outside_the_chain():
    assert set(RENAMED) <= set(OTHER)

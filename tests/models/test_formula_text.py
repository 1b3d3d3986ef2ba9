"""The registry's formula text names the factors its computing function composes, and no
other (issue 26, item 3).

For each composed figure the function named by ``computed_by`` is read with ``ast``: the
expression that fills the figure (the keyword ``key=`` of the result it builds, or the
``"key":`` of the dict it returns) is traced back through the function's assignments, and
into the module's private helpers it calls, to the named factor functions (:data:`WORDS`).
Every factor found must be named in the formula text by its word, and every word in the
text must be a factor found.  :func:`test_a_mutated_text_fails` shows the check failing.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import sys
import textwrap

import pytest
from goodput_lab.models.outputs import OUTPUTS

#: factor function (with the day-share's argument) -> the word the formula text uses for it
WORDS = {
    # goodput (models.chain.goodput_step)
    "_failure_factor": "g_fail",
    "_peer_factor": "peer recovery",
    "_sdc_factor": "silent corruption",
    "_spot_notice_factor": "spot",
    "_day_share(fabric_stall_minutes_per_day)": "stall",
    "_day_share(fail_slow_minutes_per_day)": "fail-slow",
    "_throughput_factor": "(1 − σ)(1 − o)",
    "_level_waste": "W_k",
    # failures (models.chain.failure_process)
    "cluster_failures_per_day": "N · r",
    "fabric_failures_per_day": "fabric aborts",
    "_domain_classes": "λ_D",
    "_fail_slow": "λ_fs",
    # checkpoint interval (models.chain.checkpoint_plan)
    "_intervals": "optimum",
    # cost (models.chain.cost_step)
    "_price": "price",
    "_spare_nodes_total": "spares",
    "storage_cost": "storage",
    "_train_days": "time_to_train_days",
    "lost_usd_per_day": "lost_usd_per_day",
    # step time (models.compute.step_model)
    "_modelled_step": "modelled:",
    "_stated_mfu_step": "end_to_end:",
}

#: the composed figures checked
COMPOSED = (
    "goodput",
    "goodput_first_order",
    "failures_per_day",
    "checkpoint_interval_minutes",
    "lost_usd_per_day",
    "lost_usd_per_month",
    "lost_usd_per_run",
    "time_to_train_days",
    "cost_to_train_usd",
    "total_cost_to_train_usd",
    "step_seconds",
)

#: how deep the private helpers are followed (goodput → _failure_factor → _sdc_factor)
DEPTH = 3


def _function(dotted: str):
    module, name = dotted.rsplit(".", 1)
    return getattr(importlib.import_module("goodput_lab." + module), name)


def _tree(fn) -> ast.FunctionDef:
    return ast.parse(textwrap.dedent(inspect.getsource(fn))).body[0]


def _targets(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, ast.Tuple | ast.List):
        return [n for elt in node.elts for n in _targets(elt)]
    return []


def _factor_id(call: ast.Call) -> str | None:
    func = call.func
    name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
    if name == "_day_share" and call.args and isinstance(call.args[0], ast.Attribute):
        return f"_day_share({call.args[0].attr})"
    return name


def _starts(body: ast.FunctionDef, key: str) -> list[ast.AST]:
    """The expressions that fill figure ``key``; the whole body when none names it."""
    found: list[ast.AST] = []
    for node in ast.walk(body):
        if isinstance(node, ast.Call):
            found += [kw.value for kw in node.keywords if kw.arg == key]
        elif isinstance(node, ast.Dict):
            found += [
                v
                for k, v in zip(node.keys, node.values, strict=True)
                if isinstance(k, ast.Constant) and k.value == key
            ]
    return found or [body]


def composed_factors(fn, key: str | None, depth: int = DEPTH) -> set[str]:
    """The factor ids of :data:`WORDS` that ``fn`` composes into figure ``key`` (None: into
    anything it returns), following its assignments and its module's private helpers.

    A factor's own arguments are its business (not followed); the function named like the
    figure itself is the figure, not a factor: its arguments are followed."""
    body = _tree(fn)
    module = sys.modules[fn.__module__]
    defs: dict[str, list[ast.AST]] = {}
    for node in ast.walk(body):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                for name in _targets(target):
                    defs.setdefault(name, []).append(node.value)
        elif isinstance(node, ast.AugAssign | ast.AnnAssign) and node.value is not None:
            for name in _targets(node.target):
                defs.setdefault(name, []).append(node.value)
    found: set[str] = set()
    seen: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.Name) and node.id not in seen:
            seen.add(node.id)
            for value in defs.get(node.id, []):
                visit(value)
        if isinstance(node, ast.Call):
            fid = _factor_id(node) or ""
            helper = getattr(module, fid, None)
            ours = inspect.isfunction(helper) and helper.__module__ == fn.__module__
            if depth > 0 and fid.startswith("_") and ours:
                found.update(composed_factors(helper, None, depth - 1))
            if fid in WORDS and fid != key:
                found.add(fid)
                return
        for child in ast.iter_child_nodes(node):
            visit(child)

    for start in _starts(body, key) if key else [body]:
        visit(start)
    return found


def mismatches(key: str, formula: str) -> list[str]:
    """What the formula text of ``key`` says wrong about its computing function."""
    fn = _function(OUTPUTS[key].computed_by)
    # a factor that is the figure itself (time_to_train_days of _train_days) is not named
    composed = {f for f in composed_factors(fn, key) if WORDS[f] != key}
    out = [
        f"{key}: composes {f} but the text lacks {WORDS[f]!r}"
        for f in sorted(composed)
        if WORDS[f] not in formula
    ]
    out += [
        f"{key}: the text names {word!r} but {fn.__name__} does not compose {f}"
        for f, word in WORDS.items()
        if f != key and word != key and word in formula and f not in composed
    ]
    return out


@pytest.mark.parametrize("key", COMPOSED)
def test_formula_text_names_exactly_the_composed_factors(key):
    assert OUTPUTS[key].computed_by, key
    assert mismatches(key, OUTPUTS[key].formula) == []


def test_the_goodput_step_composes_every_factor():
    """The reader finds the factors through helpers (_failure_factor → _sdc_factor)."""
    fn = _function("models.chain.goodput_step")
    assert composed_factors(fn, "goodput") == {
        "_failure_factor",
        "_peer_factor",
        "_sdc_factor",
        "_spot_notice_factor",
        "_day_share(fabric_stall_minutes_per_day)",
        "_day_share(fail_slow_minutes_per_day)",
        "_throughput_factor",
    }
    assert "_level_waste" in composed_factors(fn, "goodput_first_order")


def test_a_mutated_text_fails():
    """The check can fail: a factor dropped from the text, or one named that the code does
    not apply."""
    text = OUTPUTS["goodput"].formula
    dropped = text.replace("(1 − σ)(1 − o)", "(1 − σ)")
    assert mismatches("goodput", dropped) == [
        "goodput: composes _throughput_factor but the text lacks '(1 − σ)(1 − o)'"
    ]
    added = OUTPUTS["cost_to_train_usd"].formula + " + storage"
    assert mismatches("cost_to_train_usd", added) == [
        "cost_to_train_usd: the text names 'storage' but cost_step does not compose storage_cost"
    ]

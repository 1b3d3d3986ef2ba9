"""Golden figures: every preset's `goodput evaluate` outputs, and the figures of other views
that issue 26 moved, as one JSON object (tests/golden/figures.json holds them).

    .venv/bin/python scripts/golden_figures.py > /tmp/after.json

Run it on an older checkout (with that checkout's ``goodput_lab`` first on PYTHONPATH) to
see what a change moved: ``tests/models/test_golden_figures.py`` reads the file's
``evaluate`` section (the figures now) and its ``moved`` section (before, after and why).
A preset whose instance has no public price (megatron-1t) is priced at $1/instance-hour.
"""

from __future__ import annotations

import json
import math
import sys

UNIT_PRICE = 1.0


def _num(v):
    try:
        x = float(v)
    except (TypeError, ValueError):
        return None
    return x if math.isfinite(x) else None


def priced(name: str):
    from goodput_lab.models import ValidationError, evaluate, load_preset

    s = load_preset(name)
    try:
        evaluate(s)
    except ValidationError:
        s = s.replace({"pricing.usd_per_instance_hour": UNIT_PRICE})
    return s


def evaluate_figures() -> dict[str, dict[str, float | None]]:
    """preset -> every numeric figure of `goodput evaluate --json` that the registry lists."""
    from goodput_lab.models import evaluate, preset_paths
    from goodput_lab.models.outputs import OUTPUTS

    out = {}
    for name in sorted(preset_paths()):
        d = evaluate(priced(name)).to_json_dict()
        out[name] = {
            k: _num(v)
            for k, v in d.items()
            if k in OUTPUTS
            and OUTPUTS[k].kind != "text"  # a date or a word, null where not stated
            and isinstance(v, int | float | type(None))
            and not isinstance(v, bool)
        }
    return out


def elsewhere() -> dict[str, float | None]:
    """The figures of other views that issue 26 names (its measured cases)."""
    from goodput_lab.models import load_catalog, load_preset
    from goodput_lab.models.instances import rank_instances
    from goodput_lab.models.montecarlo import simulate
    from goodput_lab.models.optimize import recommend_file_system
    from goodput_lab.models.plan import budget_by_pricing_model, plan_capacity_block
    from goodput_lab.models.resilience import ladder

    from goodput_lab.views import montecarlo as mc_svc

    cat = load_catalog()
    out: dict[str, float | None] = {}
    s = load_preset("aws-16k-h100")
    # the Monte Carlo page (its own chunks before) and `goodput simulate`
    page = mc_svc.run(mc_svc.params(s, cat), 1000, 30.0, 0).summary()
    cli = simulate(s, 1000, 30.0, rng=0, catalog=cat).summary()
    for k in ("goodput_p5", "goodput_mean", "lost_p95_usd_per_month"):
        out[f"montecarlo_page.aws-16k-h100.{k}"] = _num(page[k])
        out[f"simulate.aws-16k-h100.{k}"] = _num(cli[k])
    # the page's closed-form lost per month (llama3-70b)
    res = simulate(load_preset("llama3-70b"), 1000, 30.0, rng=0, catalog=cat)
    rows = {r["key"]: r for r in mc_svc.summary_rows(res)}
    out["montecarlo_page.llama3-70b.lost_per_month_closed_form"] = _num(
        rows["lost_mean_usd_per_month"]["analytic"]
    )
    # the instance ranking's cost to train for the scenario's own type and node count
    for name in ("aws-16k-h100", "llama3-70b", "gpt3-175b"):
        sc = load_preset(name)
        r = rank_instances(sc, cat).row(sc["cluster.instance"])
        out[f"instances.{name}.own_cost_to_train_usd"] = _num(r.cost_to_train_usd)
    # the ladder's saving as the Resilience page shows it (llama3-70b)
    lad = ladder(load_preset("llama3-70b"), catalog=cat)
    shown = getattr(lad, "recommended_delta_usd_per_day", lad.total_delta_usd_per_day)
    out["resilience_page.llama3-70b.saved_usd_per_day"] = _num(shown)
    # Plan: the tile and the bill's Capacity Block row; the file system recommended
    p = plan_capacity_block(s, trials=1000, seed=0, catalog=cat)
    out["plan_page.aws-16k-h100.expected_total_cost_usd"] = _num(p.expected_total_cost_usd)
    try:
        rows = budget_by_pricing_model(s, cat, None, p)
    except TypeError:  # before issue 26: no plan argument
        rows = budget_by_pricing_model(s, cat, None)
    cb = next(r for r in rows if r["pricing_model"] == "capacity_block")
    out["plan_page.aws-16k-h100.bill_capacity_block_usd"] = _num(cb["total_cost_to_train_usd"])
    from goodput_lab.models import resolve_inputs

    fs = recommend_file_system(resolve_inputs(s, cat))
    out["plan_page.aws-16k-h100.file_system_TiB"] = _num(fs.provisioned_TiB)
    out["plan_page.aws-16k-h100.file_system_MBps_per_TiB"] = _num(fs.throughput_MBps_per_TiB)
    return out


def main() -> int:
    json.dump(
        {"evaluate": evaluate_figures(), "elsewhere": elsewhere()},
        sys.stdout,
        indent=1,
        sort_keys=True,
    )
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

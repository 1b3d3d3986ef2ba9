"""Tables behind the Optimizer page: recommended interval, spares and instance, and savings."""

from __future__ import annotations

import math

import numpy as np
import polars as pl

from goodput_lab.models import Scenario, evaluate_arrays, resolve_inputs
from goodput_lab.models import optimize as opt
from goodput_lab.models._text import as_sentence
from goodput_lab.models.catalog import Instance
from goodput_lab.models.outputs import format_apart
from goodput_lab.views import display


def interval_curve(scenario: Scenario, catalog: dict[str, Instance], n: int = 200) -> pl.DataFrame:
    """Goodput and lost USD/day over checkpoint intervals around the optimum (log-spaced)."""
    inputs = resolve_inputs(scenario, catalog)
    base = evaluate_arrays(inputs)
    tau_opt = float(base["optimal_checkpoint_interval_minutes"])
    now = float(base["checkpoint_interval_minutes"])
    centre = tau_opt if math.isfinite(tau_opt) else now
    lo = max(0.1, min(centre, now) / 8)
    hi = min(10_080.0, max(centre, now) * 8)
    taus = np.geomspace(lo, hi, n)
    out = evaluate_arrays(
        {**inputs, "checkpoint.interval_minutes": taus, "checkpoint.interval_optimal": False},
        broadcast=True,
    )
    return pl.DataFrame(
        {
            "interval_minutes": taus,
            "goodput_pct": np.asarray(out["goodput"]) * 100,
            "lost_usd_per_day": np.asarray(out["lost_usd_per_day"]),
        }
    )


def spares_view_limit(rec: opt.SpareRecommendation) -> int:
    """Largest spare count worth drawing: past break-even and the current count."""
    top = max(20, 2 * rec.break_even_spares + 2, rec.current_spares + 5, rec.spares + 5)
    return min(top, rec.savings_vs_none_usd_per_day.size - 1)


def spares_table(
    rec: opt.SpareRecommendation, price_usd_per_h: float, limit: int | None = None
) -> pl.DataFrame:
    """Net savings versus no spares and the marginal value of each spare [USD/day]."""
    n = rec.savings_vs_none_usd_per_day.size if limit is None else limit + 1
    sav = rec.savings_vs_none_usd_per_day[:n]
    marginal = np.concatenate([[0.0], rec.marginal_usd_per_day])[:n]
    return pl.DataFrame(
        {
            "spares": np.arange(sav.size),
            "net_savings_usd_per_day": sav,
            "marginal_usd_per_day": marginal,
            "spare_cost_usd_per_day": np.arange(sav.size) * price_usd_per_h * 24.0,
        }
    )


def recommend(
    scenario: Scenario, catalog: dict[str, Instance], deadline_days: float | None = None
) -> opt.Optimization:
    """Recommended interval, spares and instance type (:func:`models.optimize.optimize`)."""
    return opt.optimize(scenario, catalog, deadline_days)


def domain_spares_rows(rec: opt.DomainSpareRecommendation) -> list[dict]:
    """One row per spares-by-domain policy (:func:`models.optimize.recommend_domain_spares`),
    keyed by registry outputs, the best of them alone marked (the recommendation can add
    hot spares beside a domain policy: :func:`domain_spares_text` says which)."""
    rows = []
    for o in rec.options:
        rows.append(
            {
                "policy": o.label() + (f" ({BEST_ALONE})" if o == rec.best else ""),
                "domain_spare_nodes": o.spare_nodes,
                "spare_usd_per_day": o.spare_usd_per_day,
                "goodput": o.goodput,
                "step_seconds": o.step_seconds,
                "savings_usd_per_day": o.savings_usd_per_day,
            }
        )
    return rows


# --------------------------------------------------------------------------- page text
# What the Optimizer page shows, ready to place (the page formats no number itself).
def headline_tiles(o: opt.Optimization) -> list[dict]:
    """Recommended interval and spares (each with its change from now), the saving of both,
    and goodput with both: ``st.metric`` keyword arguments, deltas included."""
    iv, cmp = o.interval, o.comparison
    interval = display.tile("recommended_checkpoint_interval_minutes", iv.interval_minutes)
    if iv.at_limit:  # not the optimum: the longest interval, and why (QA 28 #14)
        interval["help"] = interval_note(o)
    else:
        interval["help"] += (
            " The same figure as the Overview and Checkpoints pages; a bounded Brent search on "
            "the lost dollars agrees "
            f"({display.format_value('checkpoint_interval_minutes', iv.brent_minutes)})."
        )
    change = iv.interval_minutes - iv.current_interval_minutes
    return [
        {
            **interval,
            **display.delta(display.change("checkpoint_interval_minutes", change) + " vs now"),
            "delta_color": "off",
        },
        _spares_tile(o),
        display.tile("savings_usd_per_day", cmp.savings_usd_per_day, savings=True),
        {
            **display.tile("goodput", cmp.candidate["goodput"]),
            "label": "Goodput with both",
            **display.delta(display.change("goodput_delta", cmp.goodput_delta)),
        },
    ]


def interval_note(o: opt.Optimization) -> str:
    """The sentence the page shows when the recommended interval is not the optimum but
    the longest interval a scenario accepts (the optimum unbounded at a failure rate of 0,
    as the Overview says it): :meth:`models.optimize.IntervalRecommendation.basis_text`
    as a sentence; "" otherwise."""
    iv = o.interval
    return as_sentence(iv.basis_text()) if iv.at_limit else ""


def _spares_tile(o: opt.Optimization) -> dict:
    """The recommended spares: the hot-spare count, or the domain policy that saves more."""
    sp = o.spares
    if o.spare_policy == "hot_spares":
        return {
            **display.tile("spare_nodes", sp.spares),
            # no unit: "+10 nodes vs now" is cut at 1024 px; the tile's value says nodes
            **display.delta(
                display.change("spare_nodes", sp.spares - sp.current_spares, unit=False) + " vs now"
            ),
            "delta_color": "off",
        }
    word = {
        "cluster.spare_domains": "domains",
        "cluster.spare_nodes_per_domain": "per domain",
        "cluster.spare_nodes": "hot",
    }
    short = [f"{n} {word[k]}" for k, n in o.spare_counts()]
    tile = display.tile("spare_policy", f"{o.recommended_spare_nodes:,} nodes")
    tile["help"] += (
        f" Here: {o.spares_text()}, which save more than "
        f"{o.alternative_text() or 'any count of hot spares alone'}; both are compared as "
        "`goodput compare` counts savings."
    )
    # the value names the paid nodes (whole at 1024 px); the mix is the delta's short text
    return {**tile, **display.delta(" + ".join(short)), "delta_color": "off", "delta_arrow": "off"}


def spare_payoff_text(o: opt.Optimization, scenario: Scenario) -> str:
    """At which node failure rates hot spares pay for themselves, where this scenario is,
    and the break-even and best counts (Markdown)."""
    sp = o.spares
    rate = scenario["reliability.node_failure_rate_per_day"]
    ranges = o.spare_payoff_rates_per_day
    rate_text, spans = payoff_ranges_text(rate, ranges)
    n = o.spare_payoff_spares  # the recommended count, at least one
    who, them = ("One hot spare", "itself") if n == 1 else (f"{n} hot spares", "themselves")
    # the recommendation's hot spares sit beside its domain spares (QA 26: the box said one
    # spare never pays, of the scenario's own domain spares, above a recommendation of 3
    # whole spare domains and 6 hot spares)
    beside = o.recommended_domain_spares_text()
    if beside:
        who = f"Beside {beside}, {who[0].lower()}{who[1:]}"
    if ranges:
        if any(lo <= rate <= hi for lo, hi in ranges):
            where = f"this scenario's {rate_text} is inside that range"
        elif rate < ranges[0][0]:
            where = (
                f"this scenario's {rate_text} is below it: too few failures for what the "
                "spares cost"
            )
        else:
            repair = display.field_value(
                "reliability.repair_hours", scenario["reliability.repair_hours"]
            )
            where = (
                f"this scenario's {rate_text} is outside it: with a {repair} repair time the "
                "spares are usually still in repair when the next failure comes"
            )
        pays = "pays" if n == 1 else "pay"
        be = f"{who} {pays} for {them} at node failure rates of {spans} per day; {where}."
    else:
        never = "never pays" if n == 1 else "never pay"
        be = f"{who} {never} for {them} at any failure rate up to 100% per node-day."
    none = "no hot spares" if beside else "no spares"  # beside domain spares: hot ones
    best = f"{be} At this rate, {_net_savings_span(sp, none)}; the best count is **{sp.spares}**."
    if o.spare_policy != "hot_spares":
        best += (
            f" The recommendation keeps **{o.spares_text()}**, which save more than "
            f"{o.alternative_text() or 'any count of hot spares alone'} (the domain policies "
            "are below)."
        )
    return best


def payoff_ranges_text(rate: float, ranges) -> tuple[str, str]:
    """The scenario's node failure rate and the ranges of rates [per node-day] at which
    spares pay for themselves, as the page and `goodput optimize` write them: the registry's
    format ("0.19%"; more decimals only where a bound on the other side of the rate would
    read the same as it, :func:`models.outputs.format_apart`), each range with an en dash
    and the unit once ("0.04–0.68%"), several joined by "and"."""
    rate_text, texts = format_apart(
        "node_failure_rate_per_day", rate, [x for span in ranges for x in span]
    )
    spans = " and ".join(
        f"{lo.removesuffix('%')}–{hi}" for lo, hi in zip(texts[::2], texts[1::2], strict=True)
    )
    return rate_text, spans


def _net_savings_span(sp, none: str = "no spares") -> str:
    """Which spare counts save money against none (Markdown): "stay ≥ 0 up to N" only when
    every count up to N does; the first few spares can cost more than they save (QA 18:
    1-6 lost money where the text said "≥ 0 up to 14"); ``none`` names the baseline, "no
    hot spares" where they sit beside domain spares."""
    sav = np.asarray(sp.savings_vs_none_usd_per_day, dtype=float)
    ok = np.flatnonzero(sav[1:] >= -1e-9) + 1  # counts from 1 that do not lose money
    if ok.size == 0:
        return "every spare count costs more than it saves against none"
    lo, hi = int(ok.min()), int(ok.max())
    if lo == 1 and ok.size == hi:
        return f"net savings against {none} stay ≥ 0 up to **{hi}** spares"
    return (
        f"net savings against {none} are ≥ 0 from **{lo}** to **{hi}** spares "
        f"(fewer than {lo} cost more than they save)"
        if ok.size == hi - lo + 1
        else f"net savings against {none} are ≥ 0 at {ok.size} counts from **{lo}** to "
        f"**{hi}** spares"
    )


#: The domain table's mark on the best of its policies, taken alone (without hot spares).
BEST_ALONE = "best without hot spares"


def domain_spares_text(ds, recommended: str = "") -> str:
    """The cheaper spare policy across scale-up domains, and the best of each kind
    (Markdown); ``recommended`` (:meth:`models.optimize.Optimization.spares_text`), when it
    differs from that policy alone, is what the recommendation keeps with hot spares beside
    it (the page's tile said "2 domains + 7 hot" above a table marking 3 domains
    "recommended")."""
    head = _domains_head(ds) + _in_domain_text(ds)
    b = ds.best
    # every saving is against the scenario's own domain spares (QA 26: "saves $57,738/day"
    # was against none, on a scenario with 2 spare domains and 2 spares in every domain)
    has = ds.current_in_domain or ds.current_spare_domains
    against = f" against the scenario's {ds.current_label()}" if has else ""
    if b.savings_usd_per_day <= 0:
        return f"{head} Neither spare nodes inside each domain nor whole spare domains save " + (
            f"money{against}." if has else "more than they cost here."
        )
    mix = (
        f" With hot spares beside them, the recommendation above is **{recommended}**."
        if recommended and recommended != b.label()
        else ""
    )
    fv = display.format_value

    def best(p, none: str) -> str:
        if p.policy == "none" or p.savings_usd_per_day <= 0:
            return none
        return f"{p.label()}, {fv('savings_usd_per_day', p.savings_usd_per_day)}"

    return (
        f"{head} Cheaper policy without hot spares: **{b.label()}**, saves "
        f"**{fv('savings_usd_per_day', b.savings_usd_per_day)}**"
        f"{against + ',' if against else ''} net of the {fv('spare_usd_per_day', b.spare_usd_per_day)} its spares cost. Best "
        "in-domain: "
        f"{best(ds.best_in_domain, 'no count of in-domain spares pays')}; best whole "
        f"domains: {best(ds.best_spare_domains, 'no count of spare domains pays')}.{mix}"
    )


def _domains_head(ds) -> str:
    """How many domains the job spans: without in-domain spares, and, where the scenario
    keeps some, with them (QA 26: "The job spans 64 domains" where the Overview said 72: 2
    spares in every domain leave 16 of 18 nodes to the job)."""
    head = f"The job spans {ds.domains} domains of {ds.nodes_per_domain} nodes"
    if not ds.current_in_domain:
        return head + "."
    n = ds.current_in_domain
    return (
        f"{head} without spares inside them; {ds.current_domains:,} now, with the "
        f"scenario's {n} spare node{'s' if n != 1 else ''} in every domain."
    )


def in_domain_domains(policy) -> int:
    """Domains the job occupies under an in-domain spare policy: its paid spare nodes are
    that many per domain (:class:`models.optimize.DomainSparePolicy`), so 68 on NVL72 with
    one spare tray in each of 18 (1,152 nodes on 17 a domain)."""
    return policy.spare_nodes // policy.count


def _in_domain_text(ds) -> str:
    """How many domains the job needs with each count of in-domain spares (QA: the page said
    "64 domains of 18 nodes" above a table giving 1 spare node in every domain 68 spare
    nodes), and why goodput falls as more are added; "" without in-domain options."""
    opts = [o for o in ds.options if o.policy == "in_domain" and o.count > 0]
    if not opts:
        return ""

    def listed(items: list[str]) -> str:
        return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" or {items[-1]}"

    counts = listed([str(o.count) for o in opts])
    domains = listed([f"{in_domain_domains(o):,}" for o in opts])
    training = listed([str(ds.nodes_per_domain - o.count) for o in opts])
    nodes = "node" if len(opts) == 1 and opts[0].count == 1 else "nodes"
    return (
        f" With {counts} spare {nodes} in every domain, {training} of its nodes train and the "
        f"job needs {domains} domains: more domains see more domain events, which is also "
        "why goodput falls as more in-domain spares are added."
    )


def cheapest_text(best) -> str:
    """The cheapest instance type (a ranking row) in one sentence (Markdown)."""
    fv = display.format_value
    return (
        f"Cheapest: **{best.instance}** × {best.nodes:,.0f} nodes, "
        f"{fv('time_to_train_days', best.time_to_train_days)}, "
        f"{fv('cost_to_train_usd', best.cost_to_train_usd)} — the same "
        "answer as the Instances page and `goodput optimize`."
    )


DOMAIN_SPARES_COLUMNS = (
    ("policy", "Policy"),
    "domain_spare_nodes",
    ("spare_usd_per_day", "Spares cost ($/day)"),
    "goodput",
    "step_seconds",
    "savings_usd_per_day",
)


def domain_spares_display(ds) -> pl.DataFrame:
    """:func:`domain_spares_rows` as a display table."""
    return display.table(domain_spares_rows(ds), DOMAIN_SPARES_COLUMNS)

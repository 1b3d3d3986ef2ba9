"""Optimizer: recommended checkpoint interval, hot spares and instance type, and their value."""

from __future__ import annotations

import streamlit as st
from goodput_lab.dashboard import cache, page_context, state
from goodput_lab.dashboard.components import deadline as deadline_control
from goodput_lab.dashboard.components import tables
from goodput_lab.dashboard.text import plain

from goodput_lab.charts.optimizer import instance_chart, interval_chart, spares_chart
from goodput_lab.views import display
from goodput_lab.views import instances as inst_svc
from goodput_lab.views import optimizer as svc

scenario, ev = page_context.current("Optimizer")

st.caption(
    "Objective: the money lost per day, (1 − goodput) × cluster cost + idle spares; savings "
    "are what `goodput compare` reports for the two scenarios, and `goodput optimize` prints "
    "the same recommendations."
)

d1, d2 = st.columns([2, 3])
deadline = deadline_control.show(d1)
st.caption(deadline_control.used(deadline))
o = cache.optimization(scenario, deadline)
iv, sp, cmp = o.interval, o.spares, o.comparison

c1, c2, c3, c4 = st.columns(4)
tile = display.tile("recommended_checkpoint_interval_minutes", iv.interval_minutes)
tile["help"] += (
    " The same figure as the Overview and Checkpoints pages; a bounded Brent search on the "
    f"lost dollars agrees ({display.format_value('checkpoint_interval_minutes', iv.brent_minutes)})."
)
c1.metric(
    **tile,
    delta=display.change(
        "checkpoint_interval_minutes", iv.interval_minutes - iv.current_interval_minutes
    )
    + " vs now",
    delta_color="off",
)
c2.metric(
    **display.tile("spare_nodes", sp.spares),
    # no unit: "+10 nodes vs now" is cut at 1024 px; the tile's value says nodes
    delta=display.change("spare_nodes", sp.spares - sp.current_spares, unit=False) + " vs now",
    delta_color="off",
)
c3.metric(**display.tile("savings_usd_per_day", cmp.savings_usd_per_day, savings=True))
c4.metric(
    **{**display.tile("goodput", cmp.candidate["goodput"]), "label": "Goodput with both"},
    delta=display.change("goodput_delta", cmp.goodput_delta),
)

rate = scenario["reliability.node_failure_rate_per_day"]
rate_text = display.field_value("reliability.node_failure_rate_per_day", rate)
ranges = o.spare_payoff_rates_per_day
n = o.spare_payoff_spares  # the recommended count, at least one
who, them = ("One hot spare", "itself") if n == 1 else (f"{n} hot spares", "themselves")
if ranges:
    spans = " and ".join(f"{100 * lo:.4f}% to {100 * hi:.4f}%" for lo, hi in ranges)
    if any(lo <= rate <= hi for lo, hi in ranges):
        where = f"this scenario's {rate_text} is inside that range"
    elif rate < ranges[0][0]:
        where = (
            f"this scenario's {rate_text} is below it: too few failures for what the spares cost"
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
    be = f"{who} {pays} for {them} at node failure rates from {spans} per day; {where}."
else:
    never = "never pays" if n == 1 else "never pay"
    be = f"{who} {never} for {them} at any failure rate up to 100% per node-day."
st.info(
    f"{be} At this rate, net savings against no spares stay ≥ 0 up to "
    f"**{sp.break_even_spares}** spares; the best count is **{sp.spares}**."
)
st.button(
    "Apply the recommended interval and spares to the sidebar",
    on_click=state.load_scenario,
    args=(o.recommended,),
    key="opt:apply",
)

curve = cache.interval_curve(scenario)
st.plotly_chart(
    interval_chart(curve, iv.current_interval_minutes, iv.interval_minutes), width="stretch"
)
table = svc.spares_table(sp, ev["usd_per_instance_hour"], svc.spares_view_limit(sp))
st.plotly_chart(spares_chart(table, sp.spares, sp.current_spares), width="stretch")

ds = o.domain_spares
if ds is not None:
    st.subheader("Spares by scale-up domain")
    b = ds.best
    if b.policy == "none":
        st.info(
            f"The job spans {ds.domains} domains of {ds.nodes_per_domain} nodes. Neither spare "
            "nodes inside each domain nor whole spare domains save more than they cost here."
        )
    else:
        i, w = ds.best_in_domain, ds.best_spare_domains

        def _best(o, none: str) -> str:
            if o.policy == "none":
                return none
            return (
                f"{o.label()}, {display.format_value('savings_usd_per_day', o.savings_usd_per_day)}"
            )

        st.info(
            f"The job spans {ds.domains} domains of {ds.nodes_per_domain} nodes. Cheaper "
            f"policy: **{b.label()}**, saves "
            f"**{display.format_value('savings_usd_per_day', b.savings_usd_per_day)}** "
            f"for {display.format_value('spare_usd_per_day', b.spare_usd_per_day)} of "
            f"spares. Best in-domain: {_best(i, 'no count of in-domain spares pays')}; best "
            f"whole domains: {_best(w, 'no count of spare domains pays')}."
        )
    st.caption(
        "In-domain spares leave fewer accelerators of each NVLink domain to the job (its step "
        "time changes); a failed tray is swapped inside its rack. A whole spare domain takes "
        "a rack's group after a domain event or when a rack has no spare of its own. "
        "Savings as `goodput compare` counts them; docs/references.md#failure-domains."
    )
    tables.show(
        display.table(
            svc.domain_spares_rows(ds),
            [
                ("policy", "Policy"),
                "domain_spare_nodes",
                ("spare_usd_per_day", "Spares cost ($/day)"),
                "goodput",
                "step_seconds",
                "savings_usd_per_day",
            ],
        )
    )

st.subheader("Instance type")
ranking = o.instances
df = inst_svc.table(ranking)
best = ranking.cheapest
with d2:
    if best is not None:
        st.success(
            f"Cheapest: **{best.instance}** × {best.nodes:,.0f} nodes, "
            f"{display.format_value('time_to_train_days', best.time_to_train_days)}, "
            f"{display.format_value('cost_to_train_usd', best.cost_to_train_usd)} — the same "
            "answer as the Instances page and `goodput optimize`."
        )
    else:
        st.warning("No priced instance type in the catalog can train this workload in time.")
st.caption(plain(" ".join(ranking.rules())))
st.plotly_chart(instance_chart(df, scenario["cluster.instance"]), width="stretch")
tables.show(
    display.table(
        inst_svc.display_rows(df),
        [
            "instance",
            "nodes",
            "usd_per_instance_hour",
            "goodput",
            "time_to_train_days",
            "cost_to_train_usd",
            ("note", "Note"),
        ],
    )
)
tables.missing_reasons(df)

"""Instances: time and cost to train the sidebar's workload on every catalog instance."""

from __future__ import annotations

import math

import polars as pl
import streamlit as st
from goodput_lab.dashboard import cache, page_context
from goodput_lab.dashboard.charts.instances import (
    cost_to_train_chart,
    ratio_chart,
    time_to_train_chart,
)
from goodput_lab.dashboard.services import instances as svc
from goodput_lab.dashboard.text import plain
from goodput_lab.models import ValidationError

scenario, _ev = page_context.current()
catalog = cache.catalog()


st.title("Instances")
st.caption(
    f"Train {scenario['workload.params_billion']:g}B parameters on "
    f"{scenario['workload.tokens_trillion']:g}T tokens (set the workload in the sidebar): "
    "each instance keeps the sidebar's reliability, checkpoint, network and parallelism "
    "settings; only the node type and count change."
)

top = st.columns([1, 1, 2])
use_deadline = top[0].checkbox("Meet a deadline", value=True, key="inst:use_deadline")
deadline = top[1].number_input(
    "Deadline (days)",
    min_value=1.0,
    max_value=3650.0,
    value=30.0,
    step=1.0,
    key="inst:deadline",
    disabled=not use_deadline,
    help="Per instance, the node count with the fewest node-hours that trains in time.",
)
top[2].caption(
    "Without a deadline every instance gets the scenario's accelerator count. Prices: the "
    "scenario's own price for its instance, else the catalog's on-demand price; instances with "
    "no public price need yours below."
)

prices: dict[str, float] = {}
mfus: dict[str, float] = {}
with st.expander("Prices and MFU per instance", expanded=True):
    head = st.columns([2, 2, 2, 3])
    head[0].markdown("**Instance**")
    head[1].markdown("**Price (USD/instance-h)**")
    head[2].markdown("**MFU (%)**")
    head[3].markdown("**MFU source**")
    for name, inst in catalog.items():
        row = st.columns([2, 2, 2, 3])
        row[0].write(f"{name}  \n{inst.accelerators_per_node} × {inst.accelerator}")
        own = name == scenario["cluster.instance"] and scenario["pricing.usd_per_instance_hour"]
        default_price = own or inst.usd_per_hour
        price = row[1].number_input(
            f"Price {name}",
            min_value=0.01,
            max_value=10_000.0,
            value=default_price,
            step=1.0,
            key=f"inst:price:{name}",
            label_visibility="collapsed",
            placeholder="needs a price",
        )
        if price is not None and price != default_price:
            prices[name] = float(price)
        hi = 100.0 * (inst.max_matmul_fraction or 1.0)
        mfu = row[2].slider(
            f"MFU {name}",
            min_value=5.0,
            max_value=hi,
            value=100.0 * inst.mfu_default,
            step=1.0,
            key=f"inst:mfu:{name}",
            label_visibility="collapsed",
        )
        if abs(mfu / 100.0 - inst.mfu_default) > 1e-9:
            mfus[name] = mfu / 100.0
        bound = (
            f" Upper bound {inst.max_matmul_fraction:.0%}: measured max achievable matmul."
            if inst.max_matmul_fraction
            else ""
        )
        row[3].caption(plain(inst.source_mfu) + "." + bound)

try:
    df = cache.instance_comparison(
        scenario,
        deadline if use_deadline else None,
        tuple(sorted(prices.items())),
        tuple(sorted(mfus.items())),
    )
except ValidationError as exc:
    st.error(f"Please fix this input — {plain(exc)}")
    st.stop()

best = svc.cheapest(df)
if best is not None:
    comm_unknown = not math.isfinite(best["communication_share"])
    when = f"within {deadline:g} days" if use_deadline else "at the scenario's accelerator count"
    st.success(
        f"Cheapest {when}: **{best['instance']} × {best['nodes']:,.0f} nodes**, "
        f"{best['time_to_train_days']:.1f} days, **${best['cost_to_train_usd']:,.0f}**. "
        f"Failures and checkpoints cost ${best['cost_failure_and_checkpoint_usd']:,.0f} "
        f"({best['failure_share']:.1%}); "
        + (
            "exposed communication cannot be split out of the step (see below)."
            if comm_unknown
            else f"exposed communication "
            f"${best['cost_communication_usd'] + best['cost_communication_within_mfu_usd']:,.0f}"
            f" ({best['communication_share']:.1%})"
            + (
                ", inside the end-to-end MFU (part of the compute cost, not added)."
                if best["mfu_basis"] == "end_to_end"
                else ", added to compute (compute-only MFU)."
            )
        )
    )
    if best["mfu_gap_exceeded"]:
        st.warning(
            "The network model's exposed communication and bubble "
            f"({best['exposed_comm_fraction_of_step']:.0%} of the step) exceed what this "
            "end-to-end MFU leaves for them: the MFU is optimistic for this parallelism "
            "and fabric (or switch the MFU basis to compute_only)."
        )
    k = st.columns(4)
    k[0].metric("Cheapest instance", best["instance"])
    k[1].metric("Nodes", f"{best['nodes']:,.0f}")
    k[2].metric("Cost to train", f"${best['cost_to_train_usd'] / 1e6:,.2f}M")
    k[3].metric(
        "Failure + communication overhead",
        f"{best['failure_share']:.1%} + n/a"
        if comm_unknown
        else f"{(best['failure_share'] + best['communication_share']):.1%}",
        help="Share of the cost lost to failures and checkpoints plus exposed communication "
        "(with an end-to-end MFU the communication is part of the MFU gap, not extra time).",
    )
else:
    st.warning("No priced instance can train this workload within the deadline.")

unpriced = df.filter(pl.col("usd_per_instance_hour").is_null())
for r in unpriced.iter_rows(named=True):
    be = r["break_even_usd_per_hour"]
    extra = (
        f" It would be the cheapest below ${be:,.2f}/instance-hour."
        if be is not None and math.isfinite(be)
        else ""
    )
    st.info(f"{plain(r['instance'])}: no public price — enter yours above to compare cost.{extra}")

left, right = st.columns(2)
with left:
    st.plotly_chart(time_to_train_chart(df, deadline if use_deadline else None), width="stretch")
with right:
    st.plotly_chart(cost_to_train_chart(df), width="stretch")

st.subheader("Side by side")
st.dataframe(
    df.select(
        [
            "cheapest",
            "instance",
            "nodes",
            "usd_per_instance_hour",
            "time_to_train_days",
            "cost_to_train_usd",
            "cost_failure_and_checkpoint_usd",
            "cost_communication_usd",
            "cost_communication_within_mfu_usd",
            "usd_per_1e18_useful_flops",
            "goodput",
            "scaling_efficiency",
            "mfu",
            "min_nodes_to_fit",
            "reason",
        ]
    ),
    column_config={
        "cheapest": st.column_config.CheckboxColumn("★"),
        "instance": "Instance",
        "nodes": st.column_config.NumberColumn("Nodes", format="%.0f"),
        "usd_per_instance_hour": st.column_config.NumberColumn("USD/h", format="$%.2f"),
        "time_to_train_days": st.column_config.NumberColumn("Days", format="%.1f"),
        "cost_to_train_usd": st.column_config.NumberColumn("Cost", format="$%.0f"),
        "cost_failure_and_checkpoint_usd": st.column_config.NumberColumn(
            "Failures + ckpt", format="$%.0f"
        ),
        "cost_communication_usd": st.column_config.NumberColumn(
            "Added comm.", format="$%.0f", help="Added to compute (compute-only MFU basis)."
        ),
        "cost_communication_within_mfu_usd": st.column_config.NumberColumn(
            "Comm. in MFU",
            format="$%.0f",
            help="Part of the compute cost spent in exposed communication (end-to-end MFU).",
        ),
        "usd_per_1e18_useful_flops": st.column_config.NumberColumn(
            "USD per 1e18 useful FLOP", format="$%.3f"
        ),
        "goodput": st.column_config.NumberColumn("Goodput", format="%.3f"),
        "scaling_efficiency": st.column_config.NumberColumn("Scaling eff.", format="%.3f"),
        "mfu": st.column_config.NumberColumn("MFU", format="%.2f"),
        "min_nodes_to_fit": st.column_config.NumberColumn("Min nodes (memory)", format="%.0f"),
        "reason": "Why not / note",
    },
    hide_index=True,
)

ref = "p5.48xlarge" if "p5.48xlarge" in catalog else next(iter(catalog))
st.plotly_chart(ratio_chart(df, ref), width="stretch")
st.caption(
    "Peak ratios come from spec sheets; modeled ratios include MFU, communication, failures and "
    "checkpoints at each instance's chosen node count. MLPerf Training v4.1 measured B200 at "
    "2.0× H100 per GPU on GPT-3 175B (peak ratio 2.28×)."
)

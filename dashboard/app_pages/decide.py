"""Decide: what to buy and how to run it to finish by a deadline, at least expected cost."""

from __future__ import annotations

import shlex

import streamlit as st
from goodput_lab.dashboard import cache, page_context
from goodput_lab.dashboard.components import persist, tables
from goodput_lab.dashboard.text import plain
from goodput_lab.models import ValidationError

from goodput_lab.charts.decide import frontier_chart
from goodput_lab.views import decide as svc

scenario, ev = page_context.current("Decide")
cat = cache.catalog()
ss = st.session_state

st.caption(
    "Instance type, node count, pricing model (On-Demand, Capacity Block length), hot spares, "
    "checkpoint strategy and interval and the resilience features worth adopting, chosen "
    "together: the least expected total cost that finishes by the deadline with the chosen "
    "probability. Failures, the failure rate's 80% interval and the step time's are all "
    "simulated (docs/decide.md); `goodput decide` gives the same answer."
)

c1, c2, c3, c4, c5 = st.columns([2, 2, 2, 2, 1])
deadline = persist.widget(
    c1.number_input,
    "dec:deadline",
    45.0,
    label="Deadline (days)",
    min_value=1.0,
    max_value=3650.0,
    step=1.0,
    format="%g",
)
confidence_pct = persist.widget(
    c2.number_input,
    "dec:confidence",
    90.0,
    label="Confidence (%)",
    min_value=50.0,
    max_value=99.9,
    step=1.0,
    format="%g",
    help="The probability of finishing by the deadline the choice must reach.",
)
with c3:
    budget_on = persist.widget(
        st.checkbox,
        "dec:budget_on",
        False,
        label="Budget",
        help="The choice's P90 total cost must be at most the budget.",
    )
    budget_m = persist.widget(
        st.number_input,
        "dec:budget",
        30.0,
        label="Budget (million USD)",
        min_value=0.01,
        max_value=1e6,
        step=1.0,
        format="%g",
        disabled=not budget_on,
    )
if ss.get("dec:trials") not in svc.PAGE_TRIALS:
    ss["dec:trials"] = svc.DEFAULT_PAGE_TRIALS
trials = persist.widget(
    c4.selectbox,
    "dec:trials",
    svc.DEFAULT_PAGE_TRIALS,
    label="Runs per configuration",
    options=list(svc.PAGE_TRIALS),
    format_func=svc.runs_text,
)
seed = persist.widget(
    c5.number_input, "dec:seed", 0, label="Seed", min_value=0, max_value=2**31 - 1, step=1
)
names = list(cat)
if not isinstance(ss.get("dec:instances"), list) or any(
    n not in names for n in ss["dec:instances"]
):
    ss["dec:instances"] = list(names)
instances = persist.widget(
    st.multiselect,
    "dec:instances",
    list(names),
    label="Instance types to consider",
    options=names,
    help="Types without a public price, or that cannot run the workload, are left out with "
    "the reason below.",
)
budget = float(budget_m) * 1e6 if budget_on else None
if not instances:
    st.warning("Choose at least one instance type.")
    st.stop()
if st.button("Decide", type="primary", key="dec:run_button"):
    ss["dec:go"] = True  # from now on the answer follows the inputs (and travels in the link)
if not ss.get("dec:go"):
    st.info(
        "Set the deadline, the confidence and the candidates, then press **Decide**: it "
        "searches every instance type, node count, pricing model, spare count, checkpoint "
        "strategy and feature set analytically and simulates a short list of about 40 "
        "configurations (a minute or more; the answer is kept for these inputs)."
    )
    st.stop()

try:
    with st.spinner(svc.spinner_text(int(trials))):
        d = cache.decision(
            scenario,
            float(deadline),
            svc.confidence_fraction(confidence_pct),
            budget,
            tuple(instances) if len(instances) < len(names) else (),
            int(trials),
            int(seed),
        )
except ValidationError as exc:
    st.error(f"Please fix this input — {plain(svc.page_error(exc))}")
    st.stop()

j = d.to_json_dict()
st.markdown(svc.targets_line(d))
if d.meets:
    st.success(plain(d.sentence()))
    shown = d.choice
else:
    st.warning(plain(d.sentence()))
    if j["would_take"]:
        st.info(plain("What it would take: " + j["would_take"]["text"] + "."))
    shown = d.closest

if shown is not None:
    if not d.meets:
        st.caption("The closest configuration (it does not meet the target):")
    for col, (tile, caption) in zip(st.columns(4), svc.choice_tiles(shown), strict=True):
        col.metric(**tile)
        if caption:
            col.caption(caption)
    st.caption(
        "Resilience features adopted: "
        + (", ".join(svc.feature_label(f) for f in shown["features"]) or "none")
        + " (the ladder's leading features that save money, docs/resilience.md)."
    )

if j["set"]:
    st.markdown(
        "As `--set` overrides of the sidebar's scenario (check it with "
        "`goodput plan … --deadline-days`):"
    )
    st.code(" ".join(f"--set {shlex.quote(s)}" for s in j["set"]), language="bash", wrap_lines=True)
st.caption(
    "The same answer from the command line: "
    + svc.cli_command(
        ss.get("preset") or "SCENARIO.toml",
        d.deadline_days,
        d.confidence,
        d.budget_usd,
        list(instances) if len(instances) < len(names) else None,
        int(trials),
        int(seed),
        scenario,
    )
)

frontier = svc.frontier_rows(d)
if frontier:  # nothing simulated (no type can run it): no empty chart
    st.plotly_chart(frontier_chart(frontier, d.confidence, d.deadline_days), width="stretch")

st.subheader("Runners-up")
runners = svc.runners_display(d)
st.caption(svc.runners_caption(runners.height))
if runners.height:
    tables.show(runners)

st.subheader("What would change the decision")
if j["what_would_change"]:
    st.markdown("\n".join(f"- {plain(line)}" for line in j["what_would_change"]))
else:
    st.caption("No runner-up meets the target: no price would change it.")
st.caption(svc.uncertainty_caption(d, plain))
if d.notes:
    with st.expander("Notes and types left out"):
        st.markdown("\n".join(f"- {plain(n)}" for n in d.notes))

"""Run log: a real run's timeline measured, the scenario fitted to it, predicted vs measured."""

from __future__ import annotations

import streamlit as st
from goodput_lab.dashboard import cache, page_context, state
from goodput_lab.dashboard.components import tables
from goodput_lab.dashboard.text import plain
from goodput_lab.models import FIELDS, Scenario, ValidationError
from goodput_lab.models.outputs import format_value as fv
from goodput_lab.models.outputs import help_text
from goodput_lab.models.timeline import MAX_TIMELINE_BYTES, MAX_TIMELINE_ROWS

from goodput_lab.charts.run_log import bucket_chart, goodput_over_time_chart
from goodput_lab.views import display
from goodput_lab.views import run_log as svc

TRIALS = 1000
SEED = 0


def _load(fitted: Scenario) -> None:
    """on_click: the fitted scenario into the sidebar widgets."""
    state.load_scenario(fitted)
    st.session_state[state.NOTICE_KEY] = ("success", f"Loaded {fitted.name!r} into the sidebar.")


scenario, _ = page_context.current("Run log")
st.caption(
    "A real run's timeline: where its wall time went, bucket by bucket and in dollars; the "
    "scenario fitted to it; how close the model's prediction is; and what any sidebar "
    "change would have saved on that run. Format and definitions: docs/timeline.md."
)

left, right = st.columns([3, 2])
with left:
    upload = st.file_uploader(
        "Job timeline (CSV or JSON lines, or either gzip-compressed)",
        type=["csv", "jsonl", "json", "txt", "gz"],
        key="run_log:upload",
        help="Events job_start, step_end, checkpoint_start/end, failure, restore_start/end, "
        "job_end (docs/timeline.md), or the records of ml-goodput-measurement's "
        f"GoodputRecorder. At most 10 MB uploaded (compress big files: up to "
        f"{MAX_TIMELINE_BYTES // 2**20} MB of text) and {MAX_TIMELINE_ROWS:,} rows.",
    )
with right:
    use_example = st.toggle(
        "Use the synthetic example run",
        value=upload is None,
        disabled=upload is not None,
        help="data/timelines/example-run.csv: SYNTHETIC, 2,000 nodes for 2 days "
        "(scripts/make_example_timeline.py).",
    )
    nodes = st.number_input(
        "Nodes the job ran on (0 = the sidebar scenario's)",
        min_value=0,
        max_value=200_000,
        value=svc.EXAMPLE_NODES if upload is None else 0,
        step=1,
        key="run_log:nodes",
    )
with st.expander("Column and event names", expanded=False):
    map_text = st.text_input(
        "Renames, as goodput reconcile --map takes them",
        key="run_log:map",
        placeholder="timestamp=time_utc, failure=NODE_DOWN",
        help="KEY=NAME pairs separated by commas: KEY is a column (timestamp, event, step, "
        "node_id) or an event name; NAME is what your file calls it.",
    )

bar = st.progress(0.0, text="Reading the timeline…")
try:
    mapping = tuple(sorted(svc.mapping_from_text(map_text or "").items()))
    if upload is not None:
        source = upload.name
        upload.seek(0)
        data = svc.read_chunks(
            upload,
            upload.size,
            lambda done, size: bar.progress(
                0.3 * done / size, text=f"Read {done / 1e6:,.1f} of {size / 1e6:,.1f} MB"
            ),
        )
    elif use_example:
        data, source = svc.example_bytes(), "example-run.csv (SYNTHETIC)"
    else:
        bar.empty()
        st.info("Upload a timeline or use the synthetic example run.")
        st.stop()
    digest, timeline = cache.run_log_timeline(
        data,
        mapping,
        progress=lambda f: bar.progress(0.3 + 0.6 * f, text="Parsing the timeline…"),
    )
    bar.progress(0.9, text="Fitting and simulating…")
    view = cache.run_log_view(
        digest, mapping, scenario, int(nodes) or None, TRIALS, SEED, source, _timeline=timeline
    )
except ValidationError as exc:
    bar.empty()
    st.error(f"Cannot use this timeline — {plain(exc)}")
    st.stop()
bar.empty()

d, f = view.summary, view.summary["fitted"]
st.caption(
    f"{plain(d['timeline_source'])}: {d['timeline_format']}, {d['timeline_rows']:,} rows, "
    f"{d['run_days']:.2f} days on {d['run_nodes']:,} nodes ({d['run_nodes_source']}); "
    f"{d['failure_incidents']:,} failure incidents, fitted rate "
    f"{100 * f['failure_rate_per_node_day']:.3f}% per node-day "
    f"({100 * f['confidence_level']:.0f}% CI {100 * f['failure_rate_per_node_day_lo']:.3f}–"
    f"{100 * f['failure_rate_per_node_day_hi']:.3f}%); price "
    f"{fv('usd_per_instance_hour', d['usd_per_instance_hour'])} per node."
)
c1, c2, c3 = st.columns([1, 1, 1.4])
c1.metric(
    "Measured goodput",
    fv("measured_goodput", d["measured_goodput"]),
    help=help_text("measured_goodput"),
)
c2.metric(
    "Predicted goodput",
    fv("predicted_goodput", d["predicted_goodput"]),
    delta=fv("prediction_minus_measured", d["prediction_minus_measured"]),
    delta_color="off",
    help="The analytic model on the fitted scenario; the change is against the measured "
    + (
        f"goodput. Monte Carlo P5-P95 over {d['monte_carlo_trials']:,} runs of this length: "
        f"{fv('predicted_goodput_p5', d['predicted_goodput_p5'])} – "
        f"{fv('predicted_goodput_p95', d['predicted_goodput_p95'])}."
        if d["monte_carlo_trials"]
        else "goodput. No Monte Carlo band: the run is shorter than an hour."
    ),
)
c3.metric(
    "Badput cost of the run",
    fv("run_badput_usd", d["run_badput_usd"]),
    help=f"{fv('run_badput_hours', d['run_badput_hours'])} of "
    f"{fv('run_wall_hours', d['run_wall_hours'])} × {d['run_nodes']:,} nodes at the price.",
)
b1, b2 = st.columns([1, 1])
b1.button(
    "Load the fitted scenario into the sidebar",
    type="primary",
    on_click=_load,
    args=(view.fitted,),
    help="Every sidebar field takes the fitted value; change any of them afterwards and the "
    "what-if below prices the change on this run.",
)
b2.download_button(
    "Download the fitted scenario (TOML)",
    data=view.fitted.to_toml(),
    file_name="fitted-run.toml",
    mime="application/toml",
)
for note in view.notes:
    st.warning(f"Not fitted — {plain(note)}")

try:
    cmp = cache.comparison(view.fitted, scenario)
except ValidationError as exc:
    st.error(f"Cannot compare with the sidebar scenario — {plain(exc)}")
    st.stop()
changed = bool(cmp.differences())
st.plotly_chart(
    bucket_chart(view.buckets, svc.what_if_buckets(view, cmp) if changed else None),
    width="stretch",
)
tables.show(svc.bucket_table(view))
st.plotly_chart(
    goodput_over_time_chart(view.over_time, 100 * d["predicted_goodput"]), width="stretch"
)

st.subheader("Fitted parameters")
tables.show(svc.fitted_table(view))

st.subheader("What-if: the sidebar scenario on this run")
if not changed:
    st.info(
        "The sidebar holds the fitted scenario. Change any field (e.g. Checkpointing → "
        "memory+durable) to see what it would have done on this run."
    )
else:
    w = svc.what_if_figures(view, cmp)
    diffs = cmp.differences()
    st.caption(
        "Changed: "
        + "; ".join(
            f"{FIELDS[k].label} {display.field_value(k, b)} → {display.field_value(k, c)}"
            for k, b, c in diffs[:6]
        )
        + (" …" if len(diffs) > 6 else "")
    )
    w1, w2, w3 = st.columns([1, 1, 1.4])
    w1.metric(
        "Predicted goodput (sidebar)",
        fv("predicted_goodput", w["predicted_goodput"]),
        delta=fv("goodput_delta", w["goodput_delta"]),
        help="The analytic model on the sidebar scenario; the change is against the fitted "
        "scenario's prediction. " + help_text("predicted_goodput"),
    )
    w2.metric(
        "This run, changed",
        fv("estimated_goodput", w["estimated_goodput"]),
        help="About what this run would have measured: its measured goodput plus the "
        "modelled change.",
    )
    w3.metric(
        "Savings over the run",
        fv("run_savings_usd", w["run_savings_usd"]),
        help=f"{fv('savings_usd_per_day', w['savings_usd_per_day'])} × "
        f"{d['run_days']:.2f} days (including what the change adds: spares, price).",
    )

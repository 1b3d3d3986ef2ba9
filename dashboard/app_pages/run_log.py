"""Run log: a real run's timeline measured, the scenario fitted to it, predicted vs measured."""

from __future__ import annotations

import streamlit as st
from goodput_lab.dashboard import cache, page_context, state
from goodput_lab.dashboard.components import tables
from goodput_lab.dashboard.text import plain
from goodput_lab.models import Scenario, ValidationError
from goodput_lab.models.reconcile import stated_timeline_nodes

from goodput_lab.charts.run_log import bucket_chart, bucket_unit, goodput_over_time_chart
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
        help=svc.UPLOAD_HELP,
    )
with right:
    use_example = st.toggle(
        "Synthetic example run",  # whole at 1,024 px ("Use the synthetic exam…")
        value=upload is None,
        disabled=upload is not None,
        help="data/timelines/example-run.csv: SYNTHETIC, 2,000 nodes for 2 days "
        "(scripts/make_example_timeline.py).",
    )
    nodes = st.number_input(
        f"{svc.NODES_LABEL} (0 = the file's '# nodes=' line, else the sidebar scenario's)",
        min_value=0,
        max_value=200_000,
        value=svc.EXAMPLE_NODES if upload is None else 0,
        step=1,
        # one box per source: a fixed key kept the example's 2,000 after an upload
        key="run_log:nodes:" + ("example" if upload is None else "upload"),
    )
with st.expander(svc.MAP_LABEL, expanded=False):
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
                0.3 * done / size, text=svc.read_progress_text(done, size)
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
        digest,
        mapping,
        scenario,
        int(nodes) or None,
        TRIALS,
        SEED,
        source,
        _timeline=timeline,
        stated_nodes=stated_timeline_nodes(data),
    )
except ValidationError as exc:
    bar.empty()
    st.error(f"Cannot use this timeline — {plain(svc.page_message(exc))}")
    st.stop()
bar.empty()

d = view.summary
st.caption(svc.summary_caption(d, plain))
if view.duplicates:  # dropped, as the Failure log page drops a log's
    st.warning(svc.duplicates_text(view.duplicates, d["timeline_format"]))
for col, tile in zip(st.columns([1, 1, 1.4]), svc.run_tiles(d), strict=True):
    col.metric(**tile)
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
what_if_bars = svc.what_if_buckets(view, cmp) if changed else None
st.plotly_chart(bucket_chart(view.buckets, what_if_bars), width="stretch")
tables.show(svc.bucket_table(view, bucket_unit(view.buckets, what_if_bars)))
st.caption(plain(svc.bucket_components_caption(view)))
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
    st.caption(svc.changed_caption(cmp))
    for col, tile in zip(st.columns([1, 1, 1.4]), svc.what_if_tiles(w, d), strict=True):
        col.metric(**tile)

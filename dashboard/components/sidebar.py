"""The sidebar: export and share on top, then the preset, the essentials, advanced groups.

Layout (every scenario field appears exactly once):

* **Export / Share** — the current scenario as a report (HTML, PDF, CSV, Parquet, TOML), the
  shareable link, and scenario files to download or upload.
* **Preset** and scenario name.
* **Essentials** (:data:`ESSENTIALS`) — instance, nodes, failure rate, price and pricing,
  workload size: what most questions change.
* **Advanced groups** (:data:`GROUP_OF_SECTION`), collapsed — every other field, grouped by
  the field registry's section, so a field added to :mod:`models.fields` appears in its
  section's group without touching this file.  A group's widgets (like the Export and Share
  popovers' contents) are drawn only while it is open: a closed group costs a rerun nothing.

Each numeric field is drawn as the widget its registry entry asks for (``Field.widget``):
typed number inputs for wide-ranged values, sliders for bounded ones.  Field values live in
session state under ``v:<field key>``, apart from the widgets (``w:<field key>``) that show
them while drawn (see :mod:`dashboard.state`), and the address bar is kept in step with the
scenario, so a copied link reproduces what is on screen, closed groups included.
"""

from __future__ import annotations

import functools
import math
import re
from typing import NamedTuple
from urllib.parse import urlencode

import streamlit as st
from goodput_lab.dashboard import state, url_state
from goodput_lab.dashboard.components import export_buttons
from goodput_lab.dashboard.text import plain
from goodput_lab.models import FIELDS, Scenario, ValidationError
from goodput_lab.models.catalog import Instance
from goodput_lab.models.choices import PricingModel
from goodput_lab.models.pricing import TERMS, model_price

from goodput_lab.views import display

ESSENTIALS: tuple[str, ...] = (
    "cluster.instance",
    "cluster.nodes",
    "reliability.node_failure_rate_per_day",
    "pricing.model",
    "pricing.usd_per_instance_hour",
    "pricing.price_source",
    "pricing.price_as_of",
    "workload.params_billion",
    "workload.tokens_trillion",
    "workload.mfu_basis",
    "workload.mfu",
)
#: Advanced group of each registry section, in the order the groups are drawn.  A section
#: missing here gets a group of its own, titled after it.
GROUP_OF_SECTION: dict[str, str] = {
    "cluster": "Recovery and hot spares",
    "recovery": "Recovery and hot spares",
    "resilience": "Resilience features",
    "checkpoint": "Checkpointing",
    "storage": "Checkpoint storage",
    "reliability": "Failure model",
    "workload": "Model shape and parallelism",
    "network": "Network",
    "pricing": "Pricing",
    "simulation": "Monte Carlo spread",
}
#: Choices shown in words: views.display's, which the Overview's inputs table uses too.
CHOICE_WORDS = display.CHOICE_WORDS
choice_words = display.choice_words


#: Fields that move to another section's group (repair time is part of recovery).
GROUP_OVERRIDES: dict[str, str] = {"reliability.repair_hours": "Recovery and hot spares"}
#: Checkbox label of an optional number (ticked = leave it to the model's default source).
OPTIONAL_LABELS = {
    "pricing.usd_per_instance_hour": "Use the public price of the pricing model",
    "pricing.overrun_usd_per_instance_hour": "Use the on-demand price after a block",
}


EXPORT_KEY, SHARE_KEY = "sidebar:export", "sidebar:share"


def group_key(title: str) -> str:
    """Session-state key of an advanced group's expander (True while open)."""
    return f"sidebar:group:{title}"


def _lazy(key: str) -> dict:
    """An expander or popover that reruns when opened or closed and knows whether it is open."""
    return {"key": key, "on_change": "rerun"}


def groups() -> dict[str, list[str]]:
    """Advanced groups: title -> field keys (every field not in ESSENTIALS, exactly once)."""
    out: dict[str, list[str]] = {t: [] for t in dict.fromkeys(GROUP_OF_SECTION.values())}
    for key, f in FIELDS.items():
        if key in ESSENTIALS:
            continue
        title = GROUP_OVERRIDES.get(key) or GROUP_OF_SECTION.get(
            f.section, f.section.replace("_", " ").title()
        )
        out.setdefault(title, []).append(key)
    return {t: keys for t, keys in out.items() if keys}


def input_groups() -> dict[str, list[str]]:
    """The sidebar's groups with their field keys, essentials first (for tables of inputs)."""
    return {"Essentials": [k for k in ESSENTIALS if k in FIELDS], **groups()}


def slider_range(key: str, current: float) -> tuple[float, float]:
    """The slider's range (display units) for a field showing ``current``: the field's usual
    range (``ui_min``..``ui_max``), stretched for a value outside it to a bound that does not
    follow the value, so one step of the slider keeps the same range: below the usual range,
    the field's own minimum; above it, the usual top doubled until it holds the value (at
    most the field's own maximum).  A range that followed the value made a new widget at
    every step (Streamlit keys a slider by its range), which showed its minimum (0.00%)
    while the model used the value."""
    f = FIELDS[key]
    lo, hi = f.ui_min * f.scale, f.ui_max * f.scale
    if current < lo:
        lo = min(current, f.min * f.scale) if f.min is not None else current
    if current > hi:
        top = f.max * f.scale if f.max is not None else math.inf
        while hi < current and hi < top:
            hi *= 2
        hi = max(min(hi, top), current)
    return lo, hi


def _numeric_widget(key: str, container=None) -> None:
    f = FIELDS[key]
    c = container or st
    wk = state.widget_key(key)
    current = state.get_value(key)
    if current is None:
        current = state.to_display(key, f.default if f.default is not None else f.min or 0)
    label = display.field_label(key)
    if f.widget == "slider":
        lo, hi = f.ui_min * f.scale, f.ui_max * f.scale
        step = (f.ui_step or 1.0) * f.scale
        pct = "%%" if f.scale == 100.0 else ""
        current = int(current) if f.kind == "int" else float(current)
        lo, hi = slider_range(key, current)
        if f.kind == "int":
            lo, hi, step = math.floor(lo), math.ceil(hi), max(1, int(step))
            fmt = "%d" + pct
        else:
            lo, hi, step = float(lo), float(hi), float(step)
            # the decimals every table of inputs writes it with (display.input_decimals)
            fmt = f"%.{display.input_decimals(key, current)}f{pct}"
        state.set_value(key, current)
        state.seed_on_new_range(wk, (lo, hi))
        c.slider(
            label, min_value=lo, max_value=hi, step=step, help=f.help, format=fmt, **state.bind(wk)
        )
        return
    lo = f.min * f.scale if f.min is not None else None
    hi = f.max * f.scale if f.max is not None else None
    step = (f.ui_step or 1.0) * f.scale
    if f.kind == "int":
        state.set_value(key, int(current))
        c.number_input(
            label,
            min_value=None if lo is None else int(lo),
            max_value=None if hi is None else int(hi),
            step=max(1, int(step)),
            help=f.help,
            format="%d",
            **state.bind(wk),
        )
    else:
        state.set_value(key, float(current))
        c.number_input(
            label,
            min_value=None if lo is None else float(lo),
            max_value=None if hi is None else float(hi),
            step=float(step),
            help=f.help,
            format="%.2f" if f.unit.startswith("USD") else "%g",
            **state.bind(wk),
        )


def _file_name(scenario: Scenario) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", scenario.name.lower()).strip("-")[:60]
    return f"{slug or 'scenario'}.toml"


def _current() -> Scenario | None:
    try:
        return state.scenario_from_state()
    except ValidationError:
        return None  # the page shows the error; nothing to download or share yet


def _notice() -> None:
    """The notice of the last load or edit, in the sidebar; a link or upload that could not
    be read is said at the top of the page too, above figures that are not the link's."""
    notice = st.session_state.pop(state.NOTICE_KEY, None)
    if notice:
        kind, text = notice
        show = {"error": st.error, "info": st.info}.get(kind, st.success)
        show(plain(text))  # echoes user text
        if kind == "error":
            st.session_state[state.PAGE_NOTICE_KEY] = text


def page_notice() -> None:
    """Draw (once, in the main area, before the page) the error the sidebar just showed."""
    text = st.session_state.pop(state.PAGE_NOTICE_KEY, None)
    if text:
        st.error(plain(text))


def share_link(scenario: Scenario) -> str:
    """The link that reproduces this view (the address bar's, built the same way)."""
    params = {**st.query_params.to_dict()}
    try:
        base = str(st.context.url or "").split("?", 1)[0]
    except Exception:  # outside a browser session (tests)
        base = ""
    return f"{base}?{urlencode(params)}" if params else base


class UploadPage(NamedTuple):
    """A page whose figures come from a file uploaded on it (the file cannot be in a link)."""

    upload_key: str  # session-state key of the page's file_uploader (when it has one)
    file: str  # what the file is
    sample: str  # what a link opens instead
    button: str  # the page's button that puts the fitted values into the scenario


#: Pages by URL path: the link shows the colleague the page's sample, not the upload.
UPLOAD_PAGES: dict[str, UploadPage] = {
    "run_log": UploadPage(
        "run_log:upload",
        "timeline",
        "the synthetic example run",
        "Load the fitted scenario into the sidebar",
    ),
    "failure_log": UploadPage(
        "failure_log:upload",
        "failure log",
        "the synthetic sample log",
        "Use the fitted values in the scenario",
    ),
}


def current_page() -> str:
    """URL path of the page this run draws (``run_log``; "" when unknown): the sidebar is
    drawn before the page, after st.navigation chose it."""
    try:
        from streamlit.runtime.scriptrunner import get_script_run_ctx

        pm = get_script_run_ctx().pages_manager
        info = pm.get_pages().get(pm.current_page_script_hash) or {}
        return str(info.get("url_pathname") or "")
    except Exception:  # pragma: no cover - a Streamlit without these internals
        return ""


def upload_note(page: str) -> str | None:
    """What the Share popover says on a page that reads an uploaded file (QA 29 #7: the
    colleague saw the sample's figures and nothing said so); None on other pages."""
    spec = UPLOAD_PAGES.get(page)
    if spec is None:
        return None
    name = getattr(st.session_state.get(spec.upload_key), "name", None)
    what = f"your {spec.file} {name!r}" if name else f"a {spec.file} uploaded on this page"
    return (
        f"Not in the link: {what}. A link cannot carry a file, so whoever opens it sees "
        f"{spec.sample} and its figures, not those of your file. To share what your file "
        f"shows, press '{spec.button}' on the page first: the fitted values then become "
        "the scenario, which the link and the scenario file below carry."
    )


def _share(scenario: Scenario | None) -> None:
    if scenario is None:
        st.caption("Fix the inputs below to share or save this scenario.")
        return
    st.markdown("**Link to this view**")
    note = upload_note(current_page())
    if note:
        st.warning(plain(note), icon=":material/upload_file:")
    st.caption(
        "This link holds the whole scenario and this page's controls: use its copy button. "
        "The address bar follows it, but the browser can show it one edit late (a Streamlit "
        "front-end race), so copy the link here after your last change."
    )
    st.code(share_link(scenario), language=None, wrap_lines=True)
    for line in left_out():
        st.caption(plain(line))
    st.download_button(
        "Download this scenario (TOML)",
        data=scenario.to_toml(),
        file_name=_file_name(scenario),
        mime="application/toml",
        key="scenario_download",
        help="Every field as TOML; `goodput evaluate FILE` and the upload below read it.",
        width="stretch",
    )
    st.file_uploader(
        "Upload a scenario (TOML)",
        type=["toml"],
        key=state.UPLOAD_KEY,
        on_change=state.on_upload,
        help="A TOML scenario like data/scenarios/*.toml (at most 256 KiB). It is validated "
        "first; an invalid file changes nothing.",
    )


def left_out() -> list[str]:
    """The page settings a link would not accept, one sentence each (Compare edits of more
    than 20 lines or 400 characters): the address bar holds them, but whoever opens the
    link gets the page's own value and a notice naming them."""
    out = []
    problems: list[ValidationError] = []
    url_state.decode_page(url_state.encode_page(st.session_state), None, problems)
    for p in problems:
        out.append(
            f"Not carried by the link: {p.field.removeprefix('link parameter ')}: "
            f"{p.message}. Whoever opens it gets the page's own value there."
        )
    return out


def _price(catalog: dict[str, Instance]) -> None:
    key = "pricing.usd_per_instance_hour"
    wk = state.widget_key(key)
    use_catalog = st.checkbox(
        OPTIONAL_LABELS[key],
        **state.bind(wk + state.CATALOG_PRICE_SUFFIX),
        help="On-demand: the catalog price in data/instances.csv; other pricing models: the "
        "dated price table. Each with its source and date.",
    )
    if use_catalog:
        inst = catalog.get(state.get_value("cluster.instance", ""))
        model = state.get_value("pricing.model", PricingModel.ON_DEMAND)
        try:
            price = model_price(inst, model) if inst is not None else None
        except (ValidationError, ValueError):
            price = None
        label = TERMS[PricingModel(price.model)].label if price is not None else ""
        st.caption(plain(display.public_price_caption(price, label)))
    else:
        _numeric_widget(key)
    for k in ("pricing.price_source", "pricing.price_as_of"):
        g = FIELDS[k]
        st.text_input(
            g.label,
            **state.bind(state.widget_key(k)),
            max_chars=g.max_length,
            help=g.help,
            disabled=use_catalog,
        )


def _field(key: str, catalog: dict[str, Instance]) -> None:
    f = FIELDS[key]
    wk = state.widget_key(key)
    if key == "workload.mfu" and state.get_value("workload.mfu_basis") == "modelled":
        # the modelled step reads no MFU (it is an output); the value is kept for the other bases
        st.caption(f"{f.label}: not used when the step time is modelled (MFU is an output).")
        return
    if key == "cluster.instance":
        names = list(catalog)
        if state.get_value(key) not in names:  # reported, then replaced
            bad = str(state.get_value(key))[:80]
            st.error(
                plain(
                    f"cluster.instance {bad!r} is not in the catalog; showing {names[0]} instead."
                )
            )
            state.set_value(key, names[0])
        st.selectbox(f.label, names, help=f.help, **state.bind(wk))
    elif key == "checkpoint.interval_minutes":
        optimal = st.checkbox(
            "Use the optimal checkpoint interval",
            help="Exact minimiser of Daly's expected wall time (Lambert W).",
            **state.bind(wk + state.OPTIMAL_SUFFIX),
        )
        if not optimal:
            _numeric_widget(key)
    elif key == "pricing.usd_per_instance_hour":
        _price(catalog)
    elif key in ("pricing.price_source", "pricing.price_as_of"):
        return  # drawn with the price
    elif f.kind == "str":
        st.text_input(f.label, max_chars=f.max_length, help=f.help, **state.bind(wk))
    elif f.kind == "choice":
        if state.get_value(key) not in f.choices:
            state.set_value(key, f.default)
        st.selectbox(
            f.label,
            f.choices,
            help=f.help,
            format_func=functools.partial(choice_words, key),  # picklable (session state)
            **state.bind(wk),
        )
    elif f.optional and f.kind in ("int", "float"):
        use_default = st.checkbox(
            OPTIONAL_LABELS.get(key) or f.none_label or "Use the default",
            help=f.help,
            **state.bind(wk + state.CATALOG_PRICE_SUFFIX),
        )
        if not use_default:
            _numeric_widget(key)
    elif f.kind in ("int", "float"):
        _numeric_widget(key)


def show(catalog: dict[str, Instance]) -> None:
    """Draw the sidebar; widget values live in session state (see dashboard.state)."""
    state.ensure_initialised(catalog)
    scenario = _current()
    if scenario is not None:
        state.sync_url(scenario)
    with st.sidebar:
        left, right = st.columns(2)
        # contents drawn only while open (on_change="rerun" reruns when it opens)
        export = left.popover(
            "Export", icon=":material/download:", width="stretch", **_lazy(EXPORT_KEY)
        )
        if export.open:
            with export:
                export_buttons.scenario_buttons(scenario)
        share = right.popover("Share", icon=":material/share:", width="stretch", **_lazy(SHARE_KEY))
        if share.open:
            with share:
                _share(scenario)
        _notice()
        st.selectbox(
            "Preset scenario",
            state.preset_names(),
            key=state.PRESET_KEY,
            on_change=state.on_preset_change,
            help="Loads a scenario from data/scenarios/; every field below can then be changed.",
        )
        # a scenario's own limit: a shorter box cut an uploaded 1,500-character name to 200
        # at the next edit, in the page and in the link (QA 29 #15)
        st.text_input("Scenario name", key=state.NAME_KEY, max_chars=url_state.MAX_NAME_CHARS)
        with st.container(border=True):
            st.markdown("**Essentials**")
            for key in ESSENTIALS:
                if key in FIELDS:
                    _field(key, catalog)
        st.caption("Advanced")
        for title, keys in groups().items():
            group = st.expander(title, expanded=False, **_lazy(group_key(title)))
            if group.open:  # a closed group's widgets are not drawn (their values stay)
                with group:
                    for key in keys:
                        _field(key, catalog)

"""Scenario <-> Streamlit session state.

Each scenario field has a value in one session-state dict,
``st.session_state[VALUES_KEY]["<section.key>"]`` (display units: fractions shown in %, see
``Field.scale``), and, while it is drawn, a widget keyed ``w:<section.key>``.  The two are
apart because Streamlit forgets the state of a widget a run does not draw, and the sidebar
draws an advanced group's widgets only while the group is open (a closed group costs nothing
per rerun).  :func:`bind` seeds a widget from its value and writes it back on change; the
"use the default" and "optimal" checkboxes keep theirs the same way (``"<key>:catalog"``,
``"<key>:optimal"``).  One dict rather than a key per field: every Streamlit widget call
walks all session-state keys, and reading a dict is cheaper than a session-state key.
``load_scenario`` writes a scenario into the values (preset picker, uploads, shared links,
fitted values); ``scenario_from_state`` reads them back through the one validation in
:class:`models.Scenario`.

A new session starts from the link's query parameters when there are any
(:mod:`dashboard.url_state`); every run writes the current scenario back to the URL, so the
address bar is always a shareable link.  Uploaded TOML files go through
:meth:`models.Scenario.from_toml` (size-capped, validated) before they touch any widget.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

import streamlit as st
from goodput_lab.dashboard import url_state
from goodput_lab.models import FIELDS, Scenario, ValidationError, _text
from goodput_lab.models.catalog import Instance, check_instance
from goodput_lab.models.pricing import ENTERED_SOURCE, price_follows_note
from goodput_lab.models.scenario import (
    MAX_TOML_BYTES,
    RATE_FIELD,
    RATE_INTERVAL_FIELDS,
    follow_edits,
    interval_follows_rate,
    load_preset,
    preset_paths,
)

DEFAULT_PRESET = "aws-16k-h100"
NAME_KEY = "w:name"
DESC_KEY = "scenario_description"
PRESET_KEY = "preset"
OPTIMAL_SUFFIX = ":optimal"
RANGE_SUFFIX = ":range"  # session key suffix: the range a slider was last drawn with
CATALOG_PRICE_SUFFIX = ":catalog"
UPLOAD_KEY = "scenario_upload"
NOTICE_KEY = "state_notice"  # (kind, text) shown once: link or upload problems/success
PAGE_NOTICE_KEY = "state_page_notice"  # an error notice, repeated atop the main area
BASE_KEY = "scenario_base"  # the scenario last loaded (preset, upload, link): name and values
INSTANCE_FIELD = "cluster.instance"
PRICE_FIELD, PRICE_SOURCE, PRICE_AS_OF = (
    "pricing.usd_per_instance_hour",
    "pricing.price_source",
    "pricing.price_as_of",
)
VALUES_KEY = "scenario_values"  # field key (or key + checkbox suffix) -> value, display units


def widget_key(field_key: str) -> str:
    """Session-state key of the field's widget (present only while the widget is drawn)."""
    return f"w:{field_key}"


def _values() -> dict[str, Any]:
    """The session's field values (created empty on first use)."""
    ss = st.session_state
    values = ss.get(VALUES_KEY)
    if values is None:
        values = ss[VALUES_KEY] = {}
    return values


def get_value(field_key: str, default: Any = None, suffix: str = "") -> Any:
    """The field's value in display units (``suffix``: one of its checkboxes)."""
    return _values().get(field_key + suffix, default)


def set_value(field_key: str, value: Any, suffix: str = "") -> None:
    """Set the field's value; its widget shows it the next time it is drawn."""
    _values()[field_key + suffix] = value


def _keep(wk: str) -> None:
    """on_change: the widget's new value becomes the field's value.  A typed price whose
    source and date were those of the scenario as loaded takes "entered" and no date in
    their boxes too (the old text described the old number; models.scenario.follow_edits)."""
    values = _values()
    old = values.get(wk.removeprefix("w:"))
    values[wk.removeprefix("w:")] = st.session_state[wk]
    base = (st.session_state.get(BASE_KEY) or {}).get("values", {})
    if wk == widget_key(RATE_FIELD):
        _interval_follows_rate(values, old)
    elif wk == widget_key(PRICE_FIELD):
        for key, new in ((PRICE_SOURCE, ENTERED_SOURCE), (PRICE_AS_OF, "")):
            if (values.get(key) or None) == base.get(key):
                values[key] = new
    elif wk == widget_key(INSTANCE_FIELD):
        _price_follows_instance(values, base)


def _interval_follows_rate(values: dict[str, Any], old: Any) -> None:
    """A new failure rate moves a stated 80% interval with it (a fitted log's; the fleet
    prior follows the rate anyway): models.scenario.interval_follows_rate, as ``--set`` does.
    Display units (%) scale alike; where the moved interval cannot be stated (a rate of 0,
    an end past 100% per node-day) the boxes go back to the fleet prior.  The sidebar says
    so."""
    new = values.get(RATE_FIELD)
    lo_k, hi_k = RATE_INTERVAL_FIELDS
    stated = all(
        not values.get(k + CATALOG_PRICE_SUFFIX, False) and values.get(k) is not None
        for k in RATE_INTERVAL_FIELDS
    )
    numbers = isinstance(old, int | float) and isinstance(new, int | float)
    if not stated or not numbers or new == old:
        return
    scale = FIELDS[RATE_FIELD].scale  # the rule is the model's, in per node-day
    was = (values[lo_k], values[hi_k])
    lo, hi = interval_follows_rate(was[0] / scale, was[1] / scale, old / scale, new / scale)
    if lo is None or hi is None:
        values[lo_k + CATALOG_PRICE_SUFFIX] = values[hi_k + CATALOG_PRICE_SUFFIX] = True
        now = (None, None)
    else:
        values[lo_k], values[hi_k] = now = (lo * scale, hi * scale)
    # the CLI's words for the same edit (models._text.rate_interval_note), in % per node-day
    st.session_state[NOTICE_KEY] = (
        "info",
        _text.rate_interval_note(was, now, "Advanced → Failure model"),
    )


def _price_follows_instance(values: dict[str, Any], base: Mapping[str, Any]) -> None:
    """A new instance type leaves the price entered for the scenario's own type: the price
    box goes back to the public price, its source and date are cleared, and the sidebar
    says so (models.pricing.price_follows_instance, which the scenario follows anyway)."""
    own = base.get(PRICE_FIELD)
    if own is None or values.get(PRICE_FIELD + CATALOG_PRICE_SUFFIX, False):
        return
    if values.get(PRICE_FIELD) != to_display(PRICE_FIELD, own):
        return  # a price typed in the box is the user's: kept
    loaded = Scenario(values=base)
    note = price_follows_note(
        loaded,
        loaded.replace({INSTANCE_FIELD: values.get(INSTANCE_FIELD)}),
        how="untick the box below to enter another",
    )
    if not note:  # the same type
        return
    values[PRICE_FIELD + CATALOG_PRICE_SUFFIX] = True
    for key in (PRICE_SOURCE, PRICE_AS_OF):
        if (values.get(key) or None) == base.get(key):
            values[key] = ""
    st.session_state[NOTICE_KEY] = ("info", note)


def bind(wk: str) -> dict[str, Any]:
    """Keyword arguments that tie widget ``wk`` to its value (seeded now, kept on change)."""
    ss = st.session_state
    values = _values()
    name = wk.removeprefix("w:")
    if name in values and (wk not in ss or ss[wk] != values[name]):
        ss[wk] = values[name]
    return {"key": wk, "on_change": _keep, "args": (wk,)}


def seed_on_new_range(wk: str, bounds: tuple[Any, Any]) -> None:
    """Seed slider ``wk`` from its field's value when its range differs from the one it was
    last drawn with: Streamlit makes a new widget for a new range, and a new widget not
    seeded shows its minimum rather than the value the model uses."""
    ss = st.session_state
    drawn = ss.get(wk + RANGE_SUFFIX)
    if drawn != bounds:
        ss[wk + RANGE_SUFFIX] = bounds
        name = wk.removeprefix("w:")
        if drawn is not None and name in _values():
            ss[wk] = _values()[name]


def to_display(field_key: str, value: Any) -> Any:
    f = FIELDS[field_key]
    if isinstance(value, int | float) and not isinstance(value, bool) and f.kind == "float":
        return float(value) * f.scale
    return value


def from_display(field_key: str, value: Any) -> Any:
    f = FIELDS[field_key]
    if isinstance(value, int | float) and not isinstance(value, bool) and f.kind == "float":
        x = float(value) / f.scale
        # undo the last-bit noise of % -> fraction (0.21 / 100 = 0.0021000000000000003)
        return float(f"{x:.15g}") if f.scale != 1.0 else x
    return value


def load_scenario(scenario: Scenario) -> None:
    """Write every field of ``scenario`` into the field values (widgets follow when drawn)."""
    ss = st.session_state
    ss[NAME_KEY] = scenario.name
    ss[DESC_KEY] = scenario.description
    ss[BASE_KEY] = {"name": scenario.name, "values": dict(scenario.values)}
    for key, f in FIELDS.items():
        value = scenario[key]
        if key == "checkpoint.interval_minutes":
            optimal = value == "optimal"
            set_value(key, optimal, OPTIMAL_SUFFIX)
            set_value(key, float(f.default) if optimal else float(value))
            continue
        if f.kind == "str" and key != "cluster.instance":
            set_value(key, value or "")
            continue
        if f.optional:
            set_value(key, value is None, CATALOG_PRICE_SUFFIX)
            # an empty field shows a valid starting value once the box is unticked
            start = f.ui_min if f.ui_min is not None else (f.min or 0.0)
            set_value(key, to_display(key, float(value if value is not None else start)))
            continue
        set_value(key, to_display(key, value))


def _session_id() -> str | None:
    try:
        from streamlit.runtime.scriptrunner import get_script_run_ctx

        return getattr(get_script_run_ctx(), "session_id", None)
    except Exception:  # pragma: no cover - a Streamlit without these internals
        return None


url_state.watch_dropped_links()


def ensure_initialised(catalog: Mapping[str, Instance] | None = None) -> None:
    """First run of a session: load the shared link's scenario, else the default preset.

    A link that does not validate (including a ``cluster.instance`` missing from
    ``catalog``) is reported in a notice and the default preset is shown instead.
    """
    ss = st.session_state
    if PRESET_KEY in ss:
        return
    params = {k: st.query_params.get_all(k) for k in st.query_params}
    dropped = None if params else url_state.dropped_link(_session_id())
    if dropped:  # Streamlit threw the whole link away before the app could read it
        ss[NOTICE_KEY] = (
            "error",
            "The link was ignored: it has more than 1,000 parameters or 512 Ki characters, "
            "which the dashboard's server does not read. "
            f"Showing the {DEFAULT_PRESET} preset instead.",
        )
    fallback = DEFAULT_PRESET
    if params:
        try:
            scenario, preset = url_state.decode(params, catalog)
        except ValidationError as exc:
            # the link's own preset, when it names one that exists, rather than another model
            fallback = url_state.link_preset(params) or DEFAULT_PRESET
            ss[NOTICE_KEY] = (
                "error",
                f"The link's scenario could not be read — {exc}. "
                f"Showing the {fallback} preset instead.",
            )
        else:
            ss[PRESET_KEY] = preset or DEFAULT_PRESET
            load_scenario(scenario)
            origin = load_preset(preset) if preset else None
            explicit = sorted(k for k in params if k in FIELDS)
            if origin is not None and scenario.name == origin.name:
                # fields set over a preset under its name: the page must not pass them off
                # as the preset (the name and the price's provenance follow, as they do for
                # sidebar edits; a link that names its scenario keeps that name); a price
                # the link sets is its own
                ss[BASE_KEY] = {
                    "name": origin.name,
                    "values": dict(origin.values),
                    "explicit": explicit,
                }
            if origin is not None:
                # the preset's price dropped for the link's instance type: said, as the
                # sidebar and the command line say it
                moved = origin.replace({INSTANCE_FIELD: scenario[INSTANCE_FIELD]})
                note = price_follows_note(origin, moved, explicit)
                if note:
                    ss[NOTICE_KEY] = ("info", note)
            # every valid page control is applied; every bad one is named (QA 28 #10: the
            # first bad value used to discard them all, and only it was named)
            problems: list[ValidationError] = []
            ss.update(url_state.decode_page(params, catalog, problems))
            if problems:
                ss[NOTICE_KEY] = ("error", ignored_notice(problems, ss.get(NOTICE_KEY)))
            return
    ss[PRESET_KEY] = fallback
    load_scenario(load_preset(fallback))


def ignored_notice(problems: list[ValidationError], before: tuple[str, str] | None = None) -> str:
    """The notice of a link whose page controls were partly ignored: every ignored parameter
    with its reason, and that the rest of the link was applied (``before``: a notice the
    link's scenario already gave, kept after it)."""
    n = len(problems)
    what = "1 link parameter was" if n == 1 else f"{n} link parameters were"
    each = "; ".join(f"{p.field.removeprefix('link parameter ')}: {p.message}" for p in problems)
    extra = f" {before[1]}" if before else ""
    return (
        f"Part of the link was ignored — {what} not used, and the page shows its own "
        f"value instead: {each}. The rest of the link was applied.{extra}"
    )


def sync_url(scenario: Scenario) -> None:
    """Write ``scenario`` into the address bar (only when it changed)."""
    params = url_state.encode(scenario, st.session_state.get(PRESET_KEY))
    params.update(url_state.encode_page(st.session_state))
    if st.query_params.to_dict() != params:
        st.query_params.from_dict(params)


def load_upload(name: str, data: bytes, catalog: Mapping[str, Instance] | None = None) -> Scenario:
    """Validate an uploaded scenario file; raise ValidationError naming the problem.

    With a ``catalog`` its ``cluster.instance`` must be in it (reported, never replaced).
    """
    if len(data) > MAX_TOML_BYTES:
        raise ValidationError(
            name, f"is {len(data):,} bytes; a scenario file may be at most {MAX_TOML_BYTES:,}"
        )
    try:
        scenario = Scenario.from_toml(data)
        if catalog is not None:
            check_instance(scenario["cluster.instance"], catalog)
    except ValidationError as exc:
        raise ValidationError(f"{name}: {exc.field}", exc.message) from None
    return scenario


def on_upload() -> None:
    """file_uploader callback: load a valid file into the fields, else explain why not."""
    uploaded = st.session_state.get(UPLOAD_KEY)
    if uploaded is None:
        return
    if uploaded.size > MAX_TOML_BYTES:
        st.session_state[NOTICE_KEY] = (
            "error",
            f"{uploaded.name} is {uploaded.size:,} bytes; a scenario file may be at most "
            f"{MAX_TOML_BYTES:,} bytes. Nothing was changed.",
        )
        return
    from goodput_lab.dashboard import cache  # local: cache imports the services

    try:
        scenario = load_upload(uploaded.name, uploaded.getvalue(), cache.catalog())
    except ValidationError as exc:
        st.session_state[NOTICE_KEY] = (
            "error",
            f"Could not load the uploaded scenario — {exc}. Nothing was changed.",
        )
        return
    load_scenario(scenario)
    st.session_state[NOTICE_KEY] = ("success", f"Loaded {scenario.name!r} from {uploaded.name}.")


def on_preset_change() -> None:
    load_scenario(load_preset(st.session_state[PRESET_KEY]))


def scenario_from_state() -> Scenario:
    """The scenario the widgets describe (raises models.ValidationError if invalid)."""
    ss = st.session_state
    shown = _values()
    values: dict[str, Any] = {}
    for key, f in FIELDS.items():
        if key not in shown:
            continue
        if key == "checkpoint.interval_minutes" and shown.get(key + OPTIMAL_SUFFIX):
            values[key] = "optimal"
        elif f.optional and shown.get(key + CATALOG_PRICE_SUFFIX, False):
            values[key] = None
        else:
            values[key] = from_display(key, shown[key])
    meta = {"name": ss.get(NAME_KEY) or "Untitled scenario", "description": ss.get(DESC_KEY, "")}
    items = tuple((k, type(v), v) for k, v in {**values, **meta}.items())  # 1 is not 1.0
    try:
        scenario = _validated(items)
    except TypeError:  # an unhashable value (never from the widgets): validate uncached
        scenario = Scenario.from_dict({k: v for k, _, v in items})
    return mark_modified(scenario, ss.get(BASE_KEY))


@functools.lru_cache(maxsize=256)
def _validated(items: tuple[tuple[str, type, Any], ...]) -> Scenario:
    """Scenario.from_dict of the same inputs, once (the sidebar and the page both ask; a
    Scenario is immutable, so sessions with the same inputs can share one)."""
    return Scenario.from_dict({k: v for k, _, v in items})


def mark_modified(scenario: Scenario, base: dict | None) -> Scenario:
    """``scenario`` with provenance that follows the user's edits of the scenario last
    loaded (a preset, an upload or a link): :func:`models.scenario.follow_edits` names it
    "Modified from <base name>" when its inputs differ and the user kept that name (so page
    headers, report titles and file names never pass an edited preset off as the preset,
    nor repeat numbers the edit changed), and a typed price becomes "entered" unless its
    source and date were edited with it."""
    if not base or "values" not in base:
        return scenario
    return follow_edits(
        Scenario(values=base["values"], name=base.get("name", "")),
        scenario,
        base.get("explicit", ()),
    )


def preset_names() -> list[str]:
    return list(preset_paths())

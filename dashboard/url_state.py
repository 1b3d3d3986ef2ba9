"""The whole scenario <-> URL query parameters, so a copied link reproduces the view.

Only allow-listed keys are read: every scenario field (``cluster.nodes=2000``), ``name``,
``description`` (when it differs from the preset's, e.g. an uploaded scenario's; at most
2,000 characters) and ``preset`` (whose description and unset fields are the base), plus a
few page controls
(:data:`PAGE_PARAMS`: the Compare page's sources and edits, the tornado range, the heatmap
colour, the shared training deadline, the Plan page's settings, the Resilience page's order,
features, unit and lemon share; :data:`PAGE_PATTERNS`: prices and MFUs entered per instance
type on the Instances page) so that a link reproduces the view, not only the
scenario.  Values are plain text
and go through the one validation of :class:`models.Scenario`; nothing is unpickled or
evaluated.  Anything else (unknown keys, repeated keys, oversized values) raises
:class:`models.ValidationError` naming the parameter, so the page can show a clear message.
A page control is checked as its page's widget would take it (a choice among fixed values
as that choice), and :func:`decode_page` can set aside each bad one and keep the rest.
"""

from __future__ import annotations

import logging
import re
import sys
from collections.abc import Mapping
from typing import Any

from goodput_lab.models import FIELDS, Scenario, ValidationError
from goodput_lab.models.catalog import Instance, check_instance
from goodput_lab.models.pricing import follow_price_edit
from goodput_lab.models.scenario import load_preset, preset_paths

PRESET_PARAM = "preset"
NAME_PARAM = "name"
DESC_PARAM = "description"
MAX_DESC_CHARS = 2000  # Scenario's own limit on a description
#: Scenario's own limit on a name: a link carries every name whole (QA 29 #15: names were
#: cut to 400 characters with no word).  The longest link stays well within what the
#: server and browsers take: 2,000 characters outside ASCII are 24,000 percent-encoded, and
#: with as long a description, a 400-character price source, four 400-character Compare
#: edits and every field the worst link is about 77,000 characters (it opens in Chromium,
#: name and description whole), where Streamlit's server
#: (Tornado) reads a request line of up to about 128,000 (measured) and Chrome 2 MB.
MAX_NAME_CHARS = 2000


def _choice(*allowed: str):
    def check(text: str) -> str:
        if text not in allowed:
            raise ValueError("one of " + ", ".join(repr(a) for a in allowed))
        return text

    check.choices = allowed  # the page widget's options (tests compare them)
    return check


def _compare_choices() -> list[str]:
    """The Compare page's sources that can travel in a link (an uploaded file cannot)."""
    return ["Current scenario (sidebar)", *(f"Preset: {p}" for p in preset_paths())]


def _compare_source(text: str) -> str:
    if text not in _compare_choices():  # the presets listed by name would not fit one line
        raise ValueError("'Current scenario (sidebar)' or 'Preset: NAME' with NAME a preset")
    return text


def _number(lo: float, hi: float, step: float | None = None, kind=float):
    def check(text: str):
        try:
            x = float(text)
        except ValueError:
            raise ValueError(f"a number in [{lo:g}, {hi:g}]") from None
        if not lo <= x <= hi or (step and abs(x / step - round(x / step)) > 1e-9):
            extra = f" in steps of {step:g}" if step else ""
            raise ValueError(f"a number in [{lo:g}, {hi:g}]{extra}")
        return kind(x)

    return check


def _choice_int(*allowed: int):
    def check(text: str) -> int:
        try:
            x = int(text)
        except ValueError:
            raise ValueError("one of " + ", ".join(str(a) for a in allowed)) from None
        if x not in allowed:
            raise ValueError("one of " + ", ".join(str(a) for a in allowed))
        return x

    check.choices = allowed  # the page widget's options (tests compare them)
    return check


def _bool(text: str) -> bool:
    """A link's switch: true/false as the dashboard writes it, 1/0 as people type it."""
    word = text.strip().lower()
    if word not in ("true", "false", "1", "0"):
        raise ValueError("'true' or 'false' (or 1 or 0)")
    return word in ("true", "1")


def _features(text: str) -> list[str]:
    """The Resilience page's own order: comma-separated feature names."""
    from goodput_lab.models.resilience import parse_features

    try:
        return list(parse_features(text) or [])
    except ValidationError as exc:
        raise ValueError(exc.message) from None


def _instances(text: str) -> list[str]:
    """The Decide page's instance types: comma-separated catalog names."""
    from goodput_lab.models import load_catalog

    names = [n for n in text.split(",") if n]
    cat = load_catalog()
    bad = [n for n in names if n not in cat]
    if bad or not names:
        raise ValueError("comma-separated instance types of the catalog")
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:  # the page's multiselect holds each type once
        raise ValueError("each instance type once; " + ", ".join(twice) + " is listed twice")
    return names


def _edits(text: str) -> str:
    if len(text.splitlines()) > 20:
        raise ValueError("at most 20 lines of section.key=value")
    return text


#: URL parameter -> (session-state key of the page widget, validator of the text).
PAGE_PARAMS = {
    "cmp.baseline": ("cmp:baseline", _compare_source),
    "cmp.candidate": ("cmp:candidate", _compare_source),
    "cmp.baseline_edits": ("cmp:baseline:edits", _edits),
    "cmp.candidate_edits": ("cmp:candidate:edits", _edits),
    "cmp.count": ("cmp:count", _choice_int(2, 3, 4)),
    "cmp.candidate_3": ("cmp:candidate_3", _compare_source),
    "cmp.candidate_3_edits": ("cmp:candidate_3:edits", _edits),
    "cmp.candidate_4": ("cmp:candidate_4", _compare_source),
    "cmp.candidate_4_edits": ("cmp:candidate_4:edits", _edits),
    "sens.pct": ("sens:pct", _number(5, 50, 5, int)),
    "sens.colour": ("sens:heat_metric", _choice("Goodput", "Lost per day")),
    "ckpt.replicas": ("ckpt:replicas", _number(1, 4, 1, int)),
    "net.events": ("net:events_per_day", _number(0.0, 10_000.0)),
    "mc.trials": ("mc:trials", _choice_int(200, 500, 1000, 2000, 5000, 10000, 20000)),
    "mc.days": ("mc:days", _number(1.0, 365.0)),
    "mc.seed": ("mc:seed", _number(0, 2**31 - 1, 1, int)),
    "deadline.on": ("deadline:on", _bool),
    "deadline.days": ("deadline:days", _number(1.0, 3650.0)),
    "plan.trials": ("plan:trials", _choice_int(200, 500, 1000, 2000, 5000)),
    "plan.seed": ("plan:seed", _number(0, 2**31 - 1, 1, int)),
    "plan.risk_pct": ("plan:risk", _number(1, 50, 1, int)),
    "plan.block_on": ("plan:use_block", _bool),
    "plan.block_days": ("plan:block_days", _number(1.0, 3650.0)),
    "res.order": ("res:order", _choice("Recommended (best next first)", "My order")),
    "res.features": ("res:features", _features),
    "res.unit": ("res:unit", _choice("$/day", "Goodput points")),
    "res.lemon_pct": ("res:lemon", _number(0.0, 99.0)),
    "dec.deadline": ("dec:deadline", _number(1.0, 3650.0)),
    "dec.confidence_pct": ("dec:confidence", _number(50.0, 99.9)),
    "dec.budget_on": ("dec:budget_on", _bool),
    "dec.budget_musd": ("dec:budget", _number(0.01, 1e6)),
    "dec.trials": ("dec:trials", _choice_int(200, 500, 1000, 2000)),
    "dec.seed": ("dec:seed", _number(0, 2**31 - 1, 1, int)),
    "dec.instances": ("dec:instances", _instances),
    "dec.go": ("dec:go", _bool),
}
_COMPARE_SOURCES = ("cmp.baseline", "cmp.candidate", "cmp.candidate_3", "cmp.candidate_4")
#: Page controls with one parameter per instance type: prefix -> (session-state prefix,
#: validator).  The instance name after the prefix must look like a catalog name.
PAGE_PATTERNS = {
    "inst.price.": ("inst:price:", _number(0.01, 10_000.0)),
    "inst.mfu.": ("inst:mfu:", _number(1.0, 100.0)),
}
_INSTANCE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9.\-]{0,59}")
ALLOWED = frozenset({PRESET_PARAM, NAME_PARAM, DESC_PARAM, *FIELDS, *PAGE_PARAMS})
MAX_VALUE_CHARS = 400
MAX_PARAMS = 2 * len(ALLOWED)
CATALOG_PRICE = "catalog"


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)  # shortest text that reads back to the same float
    return str(value)


def encode(scenario: Scenario, preset: str | None = None) -> dict[str, str]:
    """Query parameters for ``scenario`` (every field, so the link does not depend on defaults)."""
    params: dict[str, str] = {}
    if preset:
        params[PRESET_PARAM] = preset
    params[NAME_PARAM] = scenario.name[:MAX_NAME_CHARS]
    base = _preset_description(preset)
    if scenario.description and scenario.description != base:
        params[DESC_PARAM] = scenario.description[:MAX_DESC_CHARS]
    for key in FIELDS:
        value = scenario[key]
        params[key] = CATALOG_PRICE if value is None else _text(value)
    return params


def _preset_description(preset: str | None) -> str:
    if not preset or preset not in preset_paths():
        return ""
    return load_preset(preset).description


def _single(key: str, value: Any) -> str:
    if isinstance(value, list | tuple):
        if len(value) != 1:
            raise ValidationError(f"link parameter {key!r}", "must be given exactly once")
        value = value[0]
    if not isinstance(value, str):
        raise ValidationError(f"link parameter {key!r}", "must be text")
    limit = {DESC_PARAM: MAX_DESC_CHARS, NAME_PARAM: MAX_NAME_CHARS}.get(key, MAX_VALUE_CHARS)
    if len(value) > limit:
        raise ValidationError(f"link parameter {key!r}", f"is longer than {limit:,} characters")
    return value


def link_preset(params: Mapping[str, Any]) -> str | None:
    """The preset a link names, when it is one (else None): what a link that does not
    validate falls back to, rather than another model."""
    try:
        name = _single(PRESET_PARAM, params[PRESET_PARAM]) if PRESET_PARAM in params else None
    except ValidationError:
        return None
    return name if name in preset_paths() else None


def decode(
    params: Mapping[str, Any], catalog: Mapping[str, Instance] | None = None
) -> tuple[Scenario, str | None]:
    """Scenario (and preset name, if any) from query parameters; ValidationError otherwise.

    Values may be strings or one-element lists (``parse_qs`` style).  Fields missing from
    the link take the preset's value (or the registry default without a preset).  With a
    ``catalog``, the scenario's ``cluster.instance`` must be one of its instances (a bad
    name is reported, never replaced by another instance).
    """
    if not isinstance(params, Mapping):
        raise ValidationError("link", "query parameters must be key=value pairs")
    if len(params) > MAX_PARAMS:
        raise ValidationError("link", f"has {len(params)} parameters (at most {MAX_PARAMS})")
    unknown = sorted(str(k) for k in params if k not in ALLOWED and not _pattern(str(k)))
    if unknown:
        shown = ", ".join(repr(k[:40]) for k in unknown[:5])
        raise ValidationError(
            "link", f"unknown parameter(s) {shown}; allowed: name, preset and scenario fields"
        )
    values = {
        str(k): _single(str(k), v)
        for k, v in params.items()
        if k not in PAGE_PARAMS and not _pattern(str(k))
    }
    preset = values.pop(PRESET_PARAM, None)
    base = None
    if preset is not None:
        if preset not in preset_paths():
            raise ValidationError(
                f"link parameter {PRESET_PARAM!r}",
                f"{preset!r} is not a preset; allowed: " + ", ".join(preset_paths()),
            )
        base = load_preset(preset)
    data: dict[str, Any] = {}
    for key, text in values.items():
        if key == NAME_PARAM:
            data["name"] = text
        elif key == DESC_PARAM:
            data["description"] = text
        elif FIELDS[key].optional and text.strip().lower() == CATALOG_PRICE:
            data[key] = None
        else:
            data[key] = text
    scenario = Scenario.from_dict(data, base=base)
    if preset is not None:
        # a link that moves a preset to another instance type without a price of its own
        # prices it at its public price, not at the preset's rate for its own type
        # (models.pricing.price_follows_instance); a price the link sets is its own
        scenario = scenario.replace(follow_price_edit(base, scenario, set(values)))
    if catalog is not None:
        try:
            check_instance(scenario["cluster.instance"], catalog)
        except ValidationError as exc:
            raise ValidationError("link parameter 'cluster.instance'", exc.message) from None
    return scenario, preset


def _pattern(param: str) -> tuple[str, str, Any] | None:
    """(state key, instance name, validator) of a per-instance page parameter, else None."""
    for prefix, (state_prefix, check) in PAGE_PATTERNS.items():
        if param.startswith(prefix):
            name = param[len(prefix) :]
            if _INSTANCE_NAME.fullmatch(name):
                return state_prefix + name, name, check
    return None


def encode_page(state: Mapping[str, Any]) -> dict[str, str]:
    """URL parameters for the page controls present in ``state`` (session state)."""
    out: dict[str, str] = {}
    for key in state:
        for prefix, (state_prefix, _) in PAGE_PATTERNS.items():
            if isinstance(key, str) and key.startswith(state_prefix) and state[key] is not None:
                name = key[len(state_prefix) :]
                if _INSTANCE_NAME.fullmatch(name):
                    out[prefix + name] = _text(float(state[key]))
    for param, (key, _) in PAGE_PARAMS.items():
        if key in state and state[key] is not None:
            value = state[key]
            if param in _COMPARE_SOURCES and value not in _compare_choices():
                continue  # an uploaded file cannot travel in a link
            if isinstance(value, list | tuple):  # a multiselect: comma-separated
                if not value:
                    continue
                value = ",".join(str(v) for v in value)
            out[param] = value if isinstance(value, str) else _text(value)
    return out


def decode_page(
    params: Mapping[str, Any],
    catalog: Mapping[str, Instance] | None = None,
    problems: list[ValidationError] | None = None,
) -> dict[str, Any]:
    """Session-state values of the page controls in ``params``.

    A parameter that does not validate (a per-instance control naming a type missing from
    ``catalog`` too) raises ValidationError; with a ``problems`` list it is left out and its
    error appended instead, so that one bad value does not discard the valid ones (QA 28
    #10) and every bad one can be named.
    """
    out: dict[str, Any] = {}
    found: list[ValidationError] = []
    for param, (key, check) in PAGE_PARAMS.items():
        if param in params:
            _read(out, found, param, key, params[param], check)
    for param in params:
        hit = _pattern(str(param))
        if hit is None:
            continue
        key, name, check = hit
        if catalog is not None:
            try:
                inst = check_instance(name, catalog)
            except ValidationError as exc:
                found.append(ValidationError(f"link parameter {str(param)[:60]!r}", exc.message))
                continue
            check = _instance_limit(str(param), inst) or check
        _read(out, found, str(param), key, params[param], check)
    if problems is not None:
        problems.extend(found)
    elif found:
        raise found[0] if len(found) == 1 else ValidationError("link", "; ".join(map(str, found)))
    return out


def _read(out, found, param: str, key: str, value: Any, check) -> None:
    """``out[key]`` = the checked value of ``param``, else its error appended to ``found``."""
    try:
        text = _single(param, value)
    except ValidationError as exc:
        found.append(exc)
        return
    try:
        out[key] = check(text)
    except ValueError as exc:
        found.append(
            ValidationError(f"link parameter {param!r}", f"{text[:40]!r} is not allowed ({exc})")
        )


def _instance_limit(param: str, inst: Instance):
    """The validator of a per-instance MFU within that instance's own limit (the Instances
    page's box stops at the measured max matmul fraction; a link above it stopped the page
    with "Please fix this input")."""
    if not param.startswith("inst.mfu.") or not inst.max_matmul_fraction:
        return None
    hi = 100.0 * inst.max_matmul_fraction
    within = _number(1.0, hi)

    def check(text: str) -> float:
        try:
            return within(text)
        except ValueError:
            raise ValueError(
                f"a number in [1, {hi:g}]: {inst.accelerator}'s measured max achievable "
                "matmul fraction is the top"
            ) from None

    return check


# ------------------------------------------------------------------ links Streamlit drops
#: Streamlit drops a query string of more than 1,000 parameters or 512 Ki characters
#: before the app sees it (streamlit.runtime.state.query_params.sanitize_query_string),
#: leaving only a line in the server's log: the page would show the default preset as if
#: no link had been given.  :func:`watch_dropped_links` notes each such drop per browser
#: session so that :func:`dropped_link` can tell the page, which then says the link was
#: ignored.  (The note is taken from the log record; the first session after the server
#: starts is served before the app is imported, so only later sessions are covered.)
STREAMLIT_QUERY_LOGGER = "streamlit.runtime.state.query_params"
_DROPPED: dict[str, str] = {}
_MAX_DROPPED = 1000


class _DroppedLinks(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if str(record.msg).startswith("Ignoring query string"):
            frame = sys._getframe(1)
            while frame is not None:  # the AppSession that received the link
                owner = frame.f_locals.get("self")
                if type(owner).__name__ == "AppSession" and isinstance(
                    getattr(owner, "id", None), str
                ):
                    if len(_DROPPED) >= _MAX_DROPPED:
                        _DROPPED.pop(next(iter(_DROPPED)))
                    _DROPPED[owner.id] = record.getMessage()
                    break
                frame = frame.f_back
        return True


def watch_dropped_links() -> None:
    """Note the links Streamlit drops (idempotent; see above)."""
    logger = logging.getLogger(STREAMLIT_QUERY_LOGGER)
    if not any(isinstance(f, _DroppedLinks) for f in logger.filters):
        logger.addFilter(_DroppedLinks())


def dropped_link(session_id: str | None) -> str | None:
    """Why the link of browser session ``session_id`` was dropped, once; else None."""
    return _DROPPED.pop(session_id, None) if session_id else None

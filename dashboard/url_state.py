"""The whole scenario <-> URL query parameters, so a copied link reproduces the view.

Only allow-listed keys are read: every scenario field (``cluster.nodes=2000``), ``name``
and ``preset`` (whose description and unset fields are the base).  Values are plain text
and go through the one validation of :class:`models.Scenario`; nothing is unpickled or
evaluated.  Anything else (unknown keys, repeated keys, oversized values) raises
:class:`models.ValidationError` naming the parameter, so the page can show a clear message.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from models import FIELDS, Scenario, ValidationError
from models.scenario import load_preset, preset_paths

PRESET_PARAM = "preset"
NAME_PARAM = "name"
ALLOWED = frozenset({PRESET_PARAM, NAME_PARAM, *FIELDS})
MAX_VALUE_CHARS = 200
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
    params[NAME_PARAM] = scenario.name[:MAX_VALUE_CHARS]
    for key in FIELDS:
        value = scenario[key]
        params[key] = CATALOG_PRICE if value is None else _text(value)
    return params


def _single(key: str, value: Any) -> str:
    if isinstance(value, list | tuple):
        if len(value) != 1:
            raise ValidationError(f"link parameter {key!r}", "must be given exactly once")
        value = value[0]
    if not isinstance(value, str):
        raise ValidationError(f"link parameter {key!r}", "must be text")
    if len(value) > MAX_VALUE_CHARS:
        raise ValidationError(
            f"link parameter {key!r}", f"is longer than {MAX_VALUE_CHARS} characters"
        )
    return value


def decode(params: Mapping[str, Any]) -> tuple[Scenario, str | None]:
    """Scenario (and preset name, if any) from query parameters; ValidationError otherwise.

    Values may be strings or one-element lists (``parse_qs`` style).  Fields missing from
    the link take the preset's value (or the registry default without a preset).
    """
    if not isinstance(params, Mapping):
        raise ValidationError("link", "query parameters must be key=value pairs")
    if len(params) > MAX_PARAMS:
        raise ValidationError("link", f"has {len(params)} parameters (at most {MAX_PARAMS})")
    unknown = sorted(str(k) for k in params if k not in ALLOWED)
    if unknown:
        shown = ", ".join(repr(k[:40]) for k in unknown[:5])
        raise ValidationError(
            "link", f"unknown parameter(s) {shown}; allowed: name, preset and scenario fields"
        )
    values = {str(k): _single(str(k), v) for k, v in params.items()}
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
        elif FIELDS[key].optional and text.strip().lower() == CATALOG_PRICE:
            data[key] = None
        else:
            data[key] = text
    return Scenario.from_dict(data, base=base), preset

"""Scenario: one immutable, validated description of a cluster and its training job.

Every input is a field of :mod:`models.fields`; a scenario is a name, a description and a
value for each field.  TOML files, ``--set section.key=value`` overrides, dashboard widgets
and URL state all go through :func:`Scenario.from_dict` / :meth:`Scenario.replace`, so they
share one validation that names the field, the value and the allowed range.
"""

from __future__ import annotations

import difflib
import json
import math
import re
import tomllib
from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

import tomli_w

from ._files import BOM, decode_utf8, read_capped
from ._text import derived_note
from .errors import ValidationError, one_line, reading_error
from .fields import FIELDS, SECTIONS, Field

MAX_TOML_BYTES = 256 * 1024
META_KEYS = ("name", "description")
#: Deepest nesting of arrays / inline tables (TOML) or lists / objects (``--set`` JSON)
#: accepted; scenarios use none, and deeper input would exhaust the parsers' recursion.
MAX_NESTING = 32
#: Strings (TOML basic, literal and multi-line; JSON), comments, and brackets.
_TOKENS = re.compile(
    r'"""(?:\\.|[^\\])*?"""'
    r"|'''.*?'''"
    r'|"(?:\\.|[^"\\\n])*"'
    r"|'[^'\n]*'"
    r"|#[^\n]*"
    r"|[\[\]{}]",
    re.S,
)


def nesting_depth(text: str, limit: int = MAX_NESTING) -> int:
    """Deepest nesting of ``[``/``{`` outside strings and comments (TOML or JSON text).

    Stops counting once ``limit`` is passed (then returns ``limit + 1``).

    Parameters
    ----------
    text : str
        TOML or JSON text.
    limit : int
        Depth past which counting stops [count].

    Returns
    -------
    int
        Deepest nesting [count], at most ``limit + 1``.

    Examples
    --------
    >>> nesting_depth("a = [[1], {b = 2}]  # [[[")
    2
    """
    depth = deepest = 0
    for m in _TOKENS.finditer(text):
        c = m.group()
        if c in ("[", "{"):
            depth += 1
            deepest = max(deepest, depth)
            if deepest > limit:
                break
        elif c in ("]", "}"):
            depth = max(0, depth - 1)
    return deepest


def _check_nesting(text: str, name: str) -> None:
    if nesting_depth(text) > MAX_NESTING:
        raise ValidationError(
            name, f"nests arrays or tables more than {MAX_NESTING} levels deep (scenarios need 1)"
        )


def _check_value(f: Field, value: Any) -> Any:
    """Validate and normalise one value for field ``f``; raise ValidationError otherwise."""
    if value is None:
        if f.optional:
            return None
        raise ValidationError(f.key, f"a value is required ({f.allowed()})")
    if f.kind == "choice" and isinstance(value, bool):  # TOML's and --set's true/false
        if {"on", "off"} <= set(f.choices):
            value = "on" if value else "off"
        else:
            raise ValidationError(f.key, f"{str(value).lower()} is not allowed ({f.allowed()})")
    if f.kind in ("str", "choice"):
        if not isinstance(value, str):
            raise ValidationError(f.key, f"{value!r} is not text ({f.allowed()})")
        value = value.strip()
        if f.kind == "choice" and value not in f.choices:
            raise ValidationError(f.key, f"{value!r} is not allowed ({f.allowed()})")
        if f.kind == "str" and not value and f.optional:
            return None
        if f.kind == "str" and not 0 < len(value) <= f.max_length:
            raise ValidationError(f.key, f"{value!r} is not allowed ({f.allowed()})")
        return value
    typed = None  # a number written as text (a link, --set) is echoed as written
    if isinstance(value, str):
        text = value.strip()
        typed = text[:40]
        if text in f.special:
            return text
        if f.optional and text.lower() in ("", "none", "auto", "catalog"):
            return None
        try:
            value = float(text)
        except ValueError:
            raise ValidationError(f.key, f"{value!r} is not a number ({f.allowed()})") from None
        if math.isinf(value) and "inf" not in text.lower():  # 5,000 digits read as inf
            shown = text if len(text) <= 40 else f"{text[:20]}... ({len(text):,} characters)"
            raise ValidationError(f.key, f"{shown} is far out of range ({f.allowed()})")
        if value == 0.0 and any(c in "123456789" for c in text.lower().split("e")[0]):
            # 1e-400 reads as 0: not what was written, and not a value to answer silently
            raise ValidationError(
                f.key, f"{text[:40]} is too small to represent (it reads as 0; {f.allowed()})"
            )
    if isinstance(value, bool):  # written true/false in TOML and on the command line
        raise ValidationError(f.key, f"{str(value).lower()} is not a number ({f.allowed()})")
    if not isinstance(value, int | float):
        raise ValidationError(f.key, f"{value!r} is not a number ({f.allowed()})")
    try:
        x = float(value)
    except OverflowError:  # an integer with hundreds of digits
        raise ValidationError(f.key, f"{value!r:.40} is far out of range ({f.allowed()})") from None
    if math.isnan(x) or math.isinf(x):
        raise ValidationError(f.key, f"{value!r} is not a finite number ({f.allowed()})")
    shown = typed if typed is not None else _shown(value)
    if f.kind == "int" and x != round(x):
        raise ValidationError(f.key, f"{shown} is not a whole number ({f.allowed()})")
    if (f.min is not None and x < f.min) or (f.max is not None and x > f.max):
        raise ValidationError(f.key, f"{shown} is out of range ({f.allowed()})")
    return round(x) if f.kind == "int" else x


def _shown(value: Any) -> str:
    """A number as an error message echoes it: Python's shortest form, except that a large
    whole float is written with an exponent (1e12 as ``1e+12``, not ``1000000000000.0``)."""
    if isinstance(value, float) and math.isfinite(value) and abs(value) >= 1e7:
        digits = repr(abs(value)).split(".")[0].split("e")[0].rstrip("0")
        if value == round(value) and "e" not in repr(value):
            return f"{value:.{max(len(digits) - 1, 0)}e}"
    return repr(value)


class _Section:
    """Read-only attribute view of one section: ``scenario.cluster.nodes``."""

    def __init__(self, scenario: Scenario, section: str):
        self._scenario = scenario
        self._section = section

    def __getattr__(self, name: str) -> Any:
        key = f"{self._section}.{name}"
        if key not in FIELDS:
            raise AttributeError(key)
        return self._scenario.values[key]


@dataclass(frozen=True)
class Scenario:
    """An immutable, validated scenario.  Build it with :meth:`from_dict` or :meth:`load`."""

    values: Mapping[str, Any]
    name: str = "Untitled scenario"
    description: str = ""
    _sections: dict = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "values", MappingProxyType(dict(self.values)))

    def __reduce__(self):  # MappingProxyType does not pickle; Streamlit's cache pickles
        return (_rebuild, (dict(self.values), self.name, self.description))

    def __getattr__(self, name: str) -> Any:
        if name in SECTIONS:
            return _Section(self, name)
        raise AttributeError(name)

    def __getitem__(self, key: str) -> Any:
        return self.values[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.values)

    def __hash__(self) -> int:
        return hash((self.name, self.description, tuple(sorted(self.values.items()))))

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Scenario)
            and self.name == other.name
            and self.description == other.description
            and dict(self.values) == dict(other.values)
        )

    # ----------------------------------------------------------------- construction
    @classmethod
    def default(cls) -> Scenario:
        """The scenario of every field at its registry default.

        Returns
        -------
        Scenario
            The default scenario (name "Untitled scenario").
        """
        return cls.from_dict({})

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, base: Scenario | None = None) -> Scenario:
        """Build from a nested ``{section: {key: value}}`` mapping (TOML shape).

        Flat ``{"section.key": value}`` entries are accepted too.  Missing fields take the
        value of ``base`` (or the field default); unknown sections or keys are rejected.

        Parameters
        ----------
        data : mapping of str to Any
            ``{section: {key: value}}`` and ``name``/``description``, or flat ``section.key``
            entries; values in each field's unit (:data:`models.fields.FIELDS`).
        base : Scenario, optional
            Scenario whose values fill the fields ``data`` leaves out; default: the field defaults.

        Returns
        -------
        Scenario
            The validated scenario; a bad value raises ValidationError naming its field.
        """
        if not isinstance(data, Mapping):
            raise ValidationError("scenario", "must be a table of sections")
        values = dict(base.values) if base else {k: f.default for k, f in FIELDS.items()}
        name = base.name if base else "Untitled scenario"
        description = base.description if base else ""
        flat: dict[str, Any] = {}
        for key, value in data.items():
            if key in META_KEYS:
                if not isinstance(value, str) or len(value) > 2000:
                    raise ValidationError(key, "must be text of at most 2,000 characters")
                if key == "name":
                    name = value.strip() or name
                else:
                    description = value
            elif key in SECTIONS:
                if not isinstance(value, Mapping):
                    raise ValidationError(key, "must be a table, e.g. [" + key + "]")
                for sub, v in value.items():
                    flat[f"{key}.{sub}"] = v
            elif key in FIELDS or str(key).split(".", 1)[0] in SECTIONS:
                flat[key] = value
            else:
                raise ValidationError(
                    str(key),
                    "unknown section; allowed: " + ", ".join([*META_KEYS, *SECTIONS]),
                )
        for key, value in flat.items():
            if key not in FIELDS:
                raise ValidationError(key, _unknown_field_message(key))
            values[key] = _check_value(FIELDS[key], value)
        if base is not None and RATE_FIELD in flat and not set(RATE_INTERVAL_FIELDS) & set(flat):
            moved = interval_follows_rate(
                *(values[k] for k in RATE_INTERVAL_FIELDS),
                base.values[RATE_FIELD],
                values[RATE_FIELD],
            )
            for key, end in zip(RATE_INTERVAL_FIELDS, moved, strict=True):
                values[key] = end if end is None else _check_value(FIELDS[key], end)
        shape_only = "workload.layers" in flat and "workload.params_billion" not in flat
        if base is None and shape_only and values["workload.layers"] is not None:
            # a new scenario that gives the model's shape and no count: the count is the
            # shape's, not the registry's default (405B, which goes with the default shape)
            values["workload.params_billion"] = None
        check_workload(values, given=set(flat))
        return cls(values=values, name=name, description=description)

    @classmethod
    def from_toml(cls, text: str | bytes, *, base: Scenario | None = None) -> Scenario:
        """Parse TOML text; malformed or oversized input raises ValidationError.

        Parameters
        ----------
        text : str or bytes
            TOML text (UTF-8 bytes, a BOM is allowed) of at most 256 KiB.
        base : Scenario, optional
            Scenario whose values fill the fields the text leaves out.

        Returns
        -------
        Scenario
            The validated scenario.
        """
        if isinstance(text, bytes):
            if len(text) > MAX_TOML_BYTES:
                raise ValidationError(
                    "scenario file", f"{len(text):,} bytes is too large (at most 256 KiB)"
                )
            text = decode_utf8(text, "scenario file")
        text = text.removeprefix(BOM)  # editors on Windows save UTF-8 with a BOM
        if len(text) > MAX_TOML_BYTES:
            raise ValidationError("scenario file", "is too large (at most 256 KiB)")
        if not text.strip():
            raise ValidationError("scenario file", "is empty (expected TOML with [cluster] etc.)")
        _check_nesting(text, "scenario file")
        try:
            data = tomllib.loads(text)
        except ValueError as exc:  # TOMLDecodeError, or a whole number of 5,000 digits
            raise ValidationError(
                "scenario file", f"is not valid TOML: {reading_error(exc)}"
            ) from None
        except RecursionError:  # pragma: no cover - nesting_depth refuses this first
            raise ValidationError("scenario file", "nests too deeply to be read") from None
        return cls.from_dict(data, base=base)

    @classmethod
    def load(cls, path: str | Path) -> Scenario:
        """Read a scenario TOML file (a regular file of at most 256 KiB; size checked first).

        Parameters
        ----------
        path : str or Path
            Scenario TOML file.

        Returns
        -------
        Scenario
            The validated scenario.
        """
        try:
            return cls.from_toml(read_capped(path, MAX_TOML_BYTES))
        except ValidationError as exc:  # name the file: a comparison reads two
            if exc.field != "scenario file":
                raise
            name = Path(path).name[:80]  # the name: a long folder would push it out of view
            raise ValidationError(f"scenario file {name!r}", exc.message) from None

    # ----------------------------------------------------------------- edits / output
    def replace(self, updates: Mapping[str, Any] | None = None, **meta: str) -> Scenario:
        """Copy with some fields changed: ``s.replace({"cluster.nodes": 100})``.

        Parameters
        ----------
        updates : mapping of str to Any, optional
            ``section.key`` -> new value, in the field's unit.
        **meta : str
            ``name`` and/or ``description``.

        Returns
        -------
        Scenario
            A new validated scenario (this one is unchanged).
        """
        data: dict[str, Any] = dict(updates or {})
        data.update(meta)
        return Scenario.from_dict(data, base=self)

    def with_overrides(self, assignments: list[str] | tuple[str, ...]) -> Scenario:
        """Apply ``section.key=value`` strings (the CLI's ``--set``).

        Parameters
        ----------
        assignments : list or tuple of str
            ``section.key=value`` strings (values read as JSON, else as text).

        Returns
        -------
        Scenario
            A new validated scenario.
        """
        updates: dict[str, Any] = {}
        for item in assignments:
            if "=" not in item:
                raise ValidationError("--set", f"{item!r} is not of the form section.key=value")
            key, raw = item.split("=", 1)
            key = key.strip()
            if not key:
                raise ValidationError(
                    "--set", f"{item[:40]!r} names no field (expected section.key=value)"
                )
            if key in META_KEYS:
                updates[key] = raw
                continue
            if key not in FIELDS:
                raise ValidationError(key, "unknown field; see `goodput evaluate --help`")
            updates[key] = _parse_literal(raw, key)
        return self.replace(updates)

    def to_dict(self) -> dict[str, Any]:
        """Nested ``{section: {key: value}}`` with ``name``/``description``.

        Returns
        -------
        dict of str to Any
            ``name``, ``description`` and one ``{key: value}`` table per section, which
            :meth:`from_dict` reads back to an equal scenario (the ``scenario`` object of
            ``goodput evaluate --json``).  A field left empty is omitted when empty is its
            default, and written as None (JSON ``null``) when the default is a value
            (``workload.params_billion`` empty: derived from the shape, not the default 405).
        """
        out: dict[str, Any] = {"name": self.name, "description": self.description}
        for section, fields in SECTIONS.items():
            sec = {
                f.name: self.values[f.key]
                for f in fields
                if self.values[f.key] is not None or f.default is not None
            }
            out[section] = sec
        return out

    def to_toml(self) -> str:
        """TOML text that :meth:`from_toml` reads back to an equal scenario.

        Every key and value is written by tomli-w, which escapes what the TOML spec forbids
        in a string (control characters such as U+007F, quotes, backslashes); text with
        line breaks becomes a multi-line string.  The layout (one table per section, the
        unit of each value and the derived fields as comments) is ours.  Every field left
        empty is a commented-out line, ``workload.params_billion`` too: a scenario leaves the
        count empty only when it gives ``workload.layers``, and :meth:`from_dict` reads a
        shape without a count as "derive it", not as the default 405.

        Returns
        -------
        str
            The scenario as TOML text, ending with a line break.
        """
        lines = [_toml_line("name", self.name)]
        if self.description:
            lines.append(_toml_line("description", self.description))
        for section, fields in SECTIONS.items():
            lines.append("")
            lines.append(f"[{section}]")
            for f in fields:
                v = self.values[f.key]
                if v is None:  # one convention for "derive it" (QA 27 #12)
                    lines.append(f"# {f.name} = (derived: {derived_note(f.help)})")
                else:
                    unit = f"  # {one_line(f.unit)}" if f.unit else ""
                    lines.append(f"{_toml_line(f.name, v)}{unit}")
        return "\n".join(lines) + "\n"

    def changed_fields(self) -> dict[str, Any]:
        """Fields whose value differs from the registry default.

        Returns
        -------
        dict of str to Any
            ``section.key`` -> value of each field that differs from its default.
        """
        return {k: v for k, v in self.values.items() if v != FIELDS[k].default}


def shape_params_billion(values: Mapping[str, Any]) -> float:
    """Parameters [billions] of the ``workload.*`` shape in ``values`` (which has layers).

    Parameters
    ----------
    values : mapping of str to Any
        Scenario values (``workload.layers``, ``hidden_size``, ``attention_heads``,
        ``kv_heads``, ``attention_params_million``, ``ffn_hidden_size``, ``vocab_size``,
        ``mlp`` and the MoE fields).

    Returns
    -------
    float
        Total parameters of the shape [billions] (:func:`models.transformer.moe_params`).
    """
    from .transformer import default_ffn, moe_params

    gated = 1.0 if values["workload.mlp"] == "swiglu" else 0.0
    h = values["workload.hidden_size"]
    ffn = values["workload.ffn_hidden_size"]
    kv = values["workload.kv_heads"]

    def get(key: str, default: Any) -> Any:
        try:
            v = values[key]
        except KeyError:
            return default
        return default if v is None else v

    fe = get("workload.expert_ffn_hidden_size", None)
    total, _, _ = moe_params(
        values["workload.layers"],
        h,
        values["workload.attention_heads"],
        values["workload.attention_heads"] if kv is None else kv,
        default_ffn(h, gated) if ffn is None else ffn,
        values["workload.vocab_size"],
        gated,
        get("workload.experts", 0),
        get("workload.experts_per_token", 1),
        float("nan") if fe is None else fe,
        get("workload.shared_experts", 0),
        get("workload.moe_layer_frequency", 1.0),
        1.0 if get("workload.tied_embeddings", "off") == "on" else 0.0,
        get("workload.attention_params_million", float("nan")) * 1e6,
    )
    return float(total)


def effective_params_billion(values: Mapping[str, Any]) -> float:
    """The model's parameter count [billions]: the stated one, else derived from the shape.

    Use this instead of ``scenario["workload.params_billion"]``, which is None when the
    scenario leaves the count to the shape.

    Parameters
    ----------
    values : mapping of str to Any
        Scenario values.

    Returns
    -------
    float
        Parameter count [billions].
    """
    stated = values["workload.params_billion"]
    return float(stated) if stated is not None else shape_params_billion(values)


_SHAPE_KEYS = (
    "workload.layers",
    "workload.hidden_size",
    "workload.attention_heads",
    "workload.kv_heads",
    "workload.attention_params_million",
    "workload.ffn_hidden_size",
    "workload.mlp",
    "workload.vocab_size",
    # a mixture of experts' shape counts too (QA pass 19: experts = 4 on DeepSeek-V3 was
    # blamed on workload.params_billion, named twice in one message)
    "workload.experts",
    "workload.expert_ffn_hidden_size",
    "workload.shared_experts",
    "workload.moe_layer_frequency",
    "workload.tied_embeddings",
)


def _blame(given: set[str], keys: tuple[str, ...], default: str) -> str:
    """The field a cross-field error names: the first of ``keys`` this edit set, else
    ``default`` (so an edit is told about the field it just changed)."""
    return next((k for k in keys if k in given), default)


def check_workload(values: Mapping[str, Any], given: set[str] | None = None) -> None:
    """Cross-field checks of the workload: shape vs parameter count, batch in two units.

    ``given`` are the fields the current edit set; an error names one of them when it can.

    Parameters
    ----------
    values : mapping of str to Any
        Scenario values after the edit.
    given : set of str, optional
        Fields the current edit set.

    Returns
    -------
    None
        Raises ValidationError when the workload contradicts itself.
    """
    from .transformer import PARAMS_TOLERANCE

    given = given or set()

    stated = values["workload.params_billion"]
    layers = values["workload.layers"]
    if stated is None and layers is None:
        raise ValidationError(
            _blame(
                given, ("workload.params_billion", "workload.layers"), "workload.params_billion"
            ),
            "is empty and so is workload.layers: give the parameter count or the number of "
            "layers (with the rest of the shape) to derive it from",
        )
    kv = values["workload.kv_heads"]
    heads = values["workload.attention_heads"]
    if kv is not None and kv > heads:
        raise ValidationError(
            _blame(given, ("workload.kv_heads", "workload.attention_heads"), "workload.kv_heads"),
            f"{kv} is more than the {heads} attention heads (allowed: 1 to "
            "workload.attention_heads; attention whose weights do not follow from its heads, "
            "such as multi-head latent attention, is entered with "
            "workload.attention_params_million)",
        )
    experts, top_k = values["workload.experts"], values["workload.experts_per_token"]
    if experts and top_k > experts:  # refused, never clipped (a dense model ignores k)
        from .compute import top_k_message

        field = _blame(
            given, ("workload.experts_per_token", "workload.experts"), "workload.experts_per_token"
        )
        raise ValidationError(
            field,
            top_k_message(top_k, experts)
            if field == "workload.experts_per_token"
            else f"{experts} is fewer than the workload.experts_per_token = {top_k} each token "
            f"is routed to (allowed: at least {top_k}, or 0 for a dense model)",
        )
    if stated is not None and layers is not None:
        derived = shape_params_billion(values)
        if abs(stated - derived) > PARAMS_TOLERANCE * derived:
            field = _blame(given, ("workload.params_billion", *_SHAPE_KEYS), "")
            field = field or "workload.params_billion"
            head = (
                f"{values[field]} contradicts: the model "
                if field == "workload.params_billion"
                else f"{values[field]} contradicts: workload.params_billion = {stated:g} but the "
                "model "
            )
            raise ValidationError(
                field,
                head + f"shape ({layers} layers, hidden "
                f"{values['workload.hidden_size']}, {heads} heads, vocabulary "
                f"{values['workload.vocab_size']} gives {derived:,.1f}B; allowed: within "
                f"{PARAMS_TOLERANCE:.0%} of it). Leave the count empty "
                "(workload.params_billion = none) to derive it, or correct the shape",
            )
    seqs = values["workload.global_batch_sequences"]
    if seqs is not None:
        tokens = values["workload.global_batch_million_tokens"] * 1e6
        implied = seqs * values["workload.sequence_length"]
        if (
            abs(implied - tokens) > 0.10 * implied
            and values["workload.global_batch_million_tokens"]
            != FIELDS["workload.global_batch_million_tokens"].default
        ):
            raise ValidationError(
                _blame(
                    given,
                    (
                        "workload.global_batch_million_tokens",
                        "workload.global_batch_sequences",
                        "workload.sequence_length",
                    ),
                    "workload.global_batch_million_tokens",
                ),
                f"{tokens / 1e6:g}M tokens contradicts {seqs:,} sequences of "
                f"{values['workload.sequence_length']:,} tokens ({implied / 1e6:,.2f}M; "
                "allowed: within 10%). Give the batch in one unit",
            )


def _rebuild(values: dict, name: str, description: str) -> Scenario:
    return Scenario(values=values, name=name, description=description)


def _parse_literal(raw: str, key: str = "--set") -> Any:
    text = raw.strip()
    _check_nesting(text, key)
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return text
    if isinstance(value, float) and value == 0.0 and text != "0":
        return text  # 1e-400 reads as 0.0: the field's own check says so, as written
    if isinstance(value, float) and math.isinf(value):
        return text  # 1e400 reads as inf: likewise, as written
    return value


def _toml_line(key: str, value: Any) -> str:
    """``key = value`` as tomli-w writes it.  Text with line breaks becomes a multi-line
    string (a description stays readable) unless it holds a carriage return: tomli-w
    writes CR LF inside a multi-line string as a bare line break, which reads back as LF."""
    multiline = isinstance(value, str) and "\r" not in value
    return tomli_w.dumps({key: value}, multiline_strings=multiline).rstrip("\n")


def _unknown_field_message(key: str) -> str:
    """'unknown field' plus the closest known names; the whole list when it is short."""
    section, _, sub = key.partition(".")
    names = [f.name for f in SECTIONS.get(section, ())]
    if len(names) <= 12:
        return f"unknown field; [{section}] has: " + ", ".join(names)
    close = difflib.get_close_matches(sub, names, n=3, cutoff=0.5)
    hint = f"did you mean {' or '.join(close)}? " if close else ""
    return (
        f"unknown field; {hint}[{section}] has {len(names)} fields, "
        "listed by `goodput evaluate --help`"
    )


from ._resources import SCENARIO_DIR  # noqa: E402  (re-exported)


def preset_paths() -> dict[str, Path]:
    """Preset scenarios shipped in ``data/scenarios`` keyed by file stem.

    Parameters
    ----------
    None
        The function takes no parameters.

    Returns
    -------
    dict of str to Path
        File stem -> path of each shipped preset, sorted by stem.
    """
    return {p.stem: p for p in sorted(SCENARIO_DIR.glob("*.toml"))}


def load_preset(stem: str) -> Scenario:
    """A preset scenario shipped in ``data/scenarios``, by file stem.

    Parameters
    ----------
    stem : str
        File stem of the preset (e.g. ``aws-16k-h100-improved``).

    Returns
    -------
    Scenario
        The preset; an unknown stem raises ValidationError listing the presets.
    """
    paths = preset_paths()
    if stem not in paths:
        raise ValidationError("preset", f"{stem!r} is unknown; allowed: " + ", ".join(paths))
    return Scenario.load(paths[stem])


def _exists(p: Path) -> bool:
    try:
        return p.exists()
    except OSError:  # e.g. a name longer than the file system allows
        return False


def resolve_scenario(ref: str | Path) -> Scenario:
    """A scenario from a TOML path or, when no such file exists, a shipped preset's name.

    Parameters
    ----------
    ref : str or Path
        Path of a scenario TOML file, or a preset's file stem.

    Returns
    -------
    Scenario
        The scenario read.
    """
    if "\x00" in str(ref):  # no file system takes it: one line, not a ValueError
        raise ValidationError("scenario", "a file name cannot contain a NUL character")
    p = Path(ref)
    exists = _exists(p)
    if not exists and str(ref) in preset_paths():
        return load_preset(str(ref))
    if not exists and p.suffix != ".toml" and "/" not in str(ref):
        raise ValidationError(
            str(ref),
            "is neither a scenario file nor a preset; presets: " + _short_list(preset_paths()),
        )
    return Scenario.load(p)


def _short_list(names, limit: int = 80) -> str:
    """Comma-separated names, cut to about ``limit`` characters with a count of the rest."""
    out: list[str] = []
    for i, name in enumerate(names):
        if len(", ".join([*out, name])) > limit:
            return ", ".join(out) + f" and {len(names) - i} more (data/scenarios/)"
        out.append(name)
    return ", ".join(out)


#: How an edited scenario is named when its name was kept: the old name may state numbers
#: the edit changed ("(0.2% node failures/day)" at 0.3%), so it is quoted as the origin.
MODIFIED_FROM = "Modified from "
#: A name's closing parenthetical that states a number ("(0.2% node failures/day)").
_STATED_NUMBERS = re.compile(r"\s*\([^()]*\d[^()]*\)\s*$")


def origin_name(name: str) -> str:
    """A scenario's name as the origin of an edited copy: without a closing parenthetical
    that states a number, which the edit may have changed (QA pass 18: "Modified from AWS
    16k H100: headline-claim baseline (0.2% node failures/day)" headed a scenario at 0.1%).

    Parameters
    ----------
    name : str
        The name of the scenario that was edited.

    Returns
    -------
    str
        The name without that parenthetical (the name itself when nothing else is left).

    Examples
    --------
    >>> origin_name("AWS 16k H100: headline-claim baseline (0.2% node failures/day)")
    'AWS 16k H100: headline-claim baseline'
    >>> origin_name("Llama 3 405B pre-training on 16k H100 (Meta's published figures)")
    "Llama 3 405B pre-training on 16k H100 (Meta's published figures)"
    """
    short = _STATED_NUMBERS.sub("", name)
    return short or name


#: The node failure rate and its stated 80% interval (a fitted log's, or the user's).
RATE_FIELD = "reliability.node_failure_rate_per_day"
RATE_INTERVAL_FIELDS = ("reliability.node_failure_rate_low", "reliability.node_failure_rate_high")


def interval_follows_rate(
    low: float | None, high: float | None, old_rate: float, new_rate: float
) -> tuple[float | None, float | None]:
    """The rate's stated 80% interval after the rate is edited from ``old_rate`` to
    ``new_rate`` without touching the interval: both ends times new/old, so the interval
    keeps its width relative to the rate (a fitted log's Poisson interval, or the user's).
    Without this a what-if such as "the rate we measured, halved" left the fitted interval
    above the new rate, which the uncertainty model refuses.  Where the moved interval
    cannot be stated (a rate of 0 before or after: no width relative to it; a top end past
    the field's 1 per node-day) both ends are emptied: the fleet prior around the new rate
    applies, as for a scenario that never stated one.

    Parameters
    ----------
    low, high : float or None
        Interval ends [per node-day]; None = the fleet prior (nothing to move).
    old_rate, new_rate : float
        The rate before and after the edit [per node-day].

    Returns
    -------
    tuple of float or None
        The interval ends [per node-day], or (None, None) for the fleet prior; unchanged
        when the rate is or when an end is already empty.

    Examples
    --------
    >>> interval_follows_rate(0.004, 0.0045, 0.0042, 0.0021)
    (0.002, 0.00225)
    >>> interval_follows_rate(0.004, 0.0045, 0.0042, 0.0)  # no failures: the prior's [0, 0]
    (None, None)
    """
    if low is None or high is None or new_rate == old_rate:
        return low, high
    if not (old_rate > 0 and new_rate > 0):
        return None, None
    ratio = new_rate / old_rate
    if high * ratio > FIELDS[RATE_INTERVAL_FIELDS[1]].max:
        return None, None
    return low * ratio, high * ratio


def follow_edits(base: Scenario, edited: Scenario, explicit: Collection[str] = ()) -> Scenario:
    """``edited`` with provenance that follows what changed from ``base``.

    A price typed over the scenario's own becomes "entered" (with no date) unless its
    source and date were edited too (:func:`models.pricing.follow_price_edit`), and a
    scenario whose inputs differ from ``base`` but kept its name is named
    "Modified from <base name>", so no page, report or file passes an edited preset off
    as the preset (its name may state numbers the edit changed).

    Parameters
    ----------
    base : the scenario as loaded (a preset, a file, a link).
    edited : the scenario after the user's edits (widgets, ``--set``).
    explicit : the fields the edit set itself (``--set`` keys, a link's fields): a price
        among them is kept when the instance changes
        (:func:`models.pricing.price_follows_instance`).

    Returns
    -------
    Scenario
        ``edited`` itself when nothing is stale, else a copy with the updates.

    Examples
    --------
    >>> s = Scenario.default()
    >>> e = follow_edits(s, s.replace({"cluster.nodes": 100}))
    >>> e.name.startswith(MODIFIED_FROM)
    True
    """
    from .pricing import follow_price_edit  # local: pricing is imported by the chain

    updates = follow_price_edit(base, edited, explicit)
    out = edited.replace(updates) if updates else edited
    if (
        out.name == base.name
        and dict(out.values) != dict(base.values)
        and not base.name.startswith(MODIFIED_FROM)  # once: not "Modified from Modified from"
    ):
        out = out.replace(name=f"{MODIFIED_FROM}{origin_name(base.name)}"[:200])
    return out

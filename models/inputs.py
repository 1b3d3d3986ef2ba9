"""The chain's inputs, resolved once and typed: one frozen object per section.

:func:`models.evaluate.resolve_inputs` returns an :class:`Inputs`: a mapping keyed
``section.key`` (every existing ``x["cluster.nodes"]`` reader keeps working) that also
exposes each section as a frozen object, ``inputs.cluster.nodes``,
``inputs.tier.shared_fs.provisioned_TiB``.  The section classes are generated from the field
registry (:data:`models.fields.FIELDS`): a section object has one attribute per numeric or
choice field of its section, in registry order, plus the values ``resolve_inputs`` derives
(``checkpoint.interval_optimal``, ``pricing.price``, the ``instance.*`` specs, the
``tier.<name>.<param>`` table, the ``storage.*`` prices), described in :data:`DERIVED`.

A section holds what the mapping holds, unchanged: a number, a numpy array (the batch engine
passes one value per scenario), an enum (:mod:`models.choices`), so reading it costs no
per-scenario work.  A section object is built on first access and kept; a value that is
missing is an error naming the key (:class:`MissingInput`), never a default: the defaults
are the registry's, applied by :func:`models.scenario.Scenario` before inputs are resolved.

Writing a key (``inputs["cluster.nodes"] = ...``) is still allowed during the transition
from the flat dict (some callers perturb a copy in place); it drops the section objects
built so far, so a section never disagrees with the mapping.  New code should use
:meth:`Inputs.replace`, which returns new inputs.
"""

from __future__ import annotations

import keyword
from collections.abc import Iterable, Mapping
from dataclasses import make_dataclass
from functools import lru_cache
from typing import Any

from .fields import FIELDS

__all__ = [
    "DERIVED",
    "Inputs",
    "MissingInput",
    "as_inputs",
    "required_keys",
    "section_fields",
]

#: Inputs that ``resolve_inputs`` adds beside the registry's numeric and choice fields,
#: with their unit.  Families are given by prefix (``instance.``, ``tier.``, ``storage.``):
#: their members are the columns of the catalog, the tier table and the storage price table.
DERIVED: dict[str, str] = {
    "checkpoint.interval_optimal": "bool: the interval field was 'optimal' "
    "(checkpoint.interval_minutes is then NaN and the chain finds the optimum)",
    "pricing.price": "models.pricing.Price: the price in force, with its source and date",
    "instance.": "the node type's catalog specs (models.catalog.instance_inputs); NaN unknown",
    "tier.": "the checkpoint tier table, tier.<name>.<param> (models.checkpoint.tier_inputs)",
    "storage.": "dated storage prices [USD per GB-month, per 1,000 requests] "
    "(models.pricing.storage_price_inputs)",
}


class MissingInput(KeyError):
    """A key the typed inputs need is not in the mapping (the message names it)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


@lru_cache(maxsize=1)
def _registry_names() -> dict[str, tuple[str, ...]]:
    """Per section, the names of its numeric and choice fields, in registry order (the
    ``str`` fields, the node type's name and the price's provenance, are not chain inputs:
    ``resolve_inputs`` turns them into ``instance.*`` and ``pricing.price``)."""
    out: dict[str, list[str]] = {}
    for key, f in FIELDS.items():
        if f.kind == "str":
            continue
        section, name = key.split(".", 1)
        out.setdefault(section, []).append(name)
    return {s: tuple(names) for s, names in out.items()}


def required_keys() -> tuple[str, ...]:
    """The ``section.key`` of every registry field the typed inputs require.

    Parameters
    ----------
    None

    Returns
    -------
    tuple of str
        Numeric and choice field keys, in registry order.
    """
    return tuple(f"{s}.{n}" for s, names in _registry_names().items() for n in names)


def section_fields(section: str) -> tuple[str, ...]:
    """The field names of ``section`` in the registry, in order (numeric and choice fields).

    Parameters
    ----------
    section : str
        A section of :data:`models.fields.FIELDS` (``cluster``, ``recovery`` ...).

    Returns
    -------
    tuple of str
        The names after ``section.``; empty for a section of derived values only.
    """
    return _registry_names().get(section, ())


@lru_cache(maxsize=256)
def _section_class(path: str, names: tuple[str, ...]) -> type:
    """The frozen class of section ``path`` (``cluster``, ``tier.memory`` ...) with fields
    ``names``, generated once per distinct field list."""
    for name in names:
        if not name.isidentifier() or keyword.iskeyword(name):
            raise ValueError(f"input {path}.{name} is not a valid attribute name")
    title = "".join(p.title().replace("_", "") for p in path.split("."))
    cls = make_dataclass(
        f"{title}Inputs",
        [(n, Any) for n in names],
        frozen=True,
        eq=False,  # values may be arrays: compare the mappings instead
        slots=True,
    )
    cls.__doc__ = f"The ``{path}.*`` inputs (frozen; generated from the field registry)."
    cls.__module__ = __name__
    return cls


def _build(path: str, items: dict[str, Any], required: Iterable[str]) -> Any:
    """Section object ``path`` from its keys (relative to the section): the registry's
    ``required`` names first, then the derived ones; a dotted key nests a sub-section."""
    values: dict[str, Any] = {}
    for name in required:
        if name not in items:
            raise MissingInput(f"{path}.{name} is not in the inputs (resolve them first)")
        values[name] = items[name]
    nested: dict[str, dict[str, Any]] = {}
    for name, value in items.items():
        head, dot, rest = name.partition(".")
        if dot:
            nested.setdefault(head, {})[rest] = value
        elif name not in values:
            values[name] = value
    for head, sub in nested.items():
        values[head] = _build(f"{path}.{head}", sub, ())
    return _section_class(path, tuple(values))(**values)


class Inputs(dict):
    """Resolved chain inputs: a ``section.key`` mapping with frozen section objects.

    ``inputs["cluster.nodes"]`` and ``inputs.cluster.nodes`` are the same value.  Sections
    are generated from the registry (:func:`_section_class`) and built on first access; a
    registry field missing from the mapping raises :class:`MissingInput` naming it.

    Parameters
    ----------
    flat : Mapping[str, Any]
        Values keyed ``section.key``, each in its field's unit (numbers, arrays, enums).
    """

    __slots__ = ("_sections",)

    def __init__(self, flat: Mapping[str, Any] = (), /) -> None:
        super().__init__(flat)
        self._sections: dict[str, Any] = {}

    def __getattr__(self, section: str) -> Any:
        if section.startswith("_"):
            raise AttributeError(section)
        try:
            return self._sections[section]
        except KeyError:
            pass
        prefix = section + "."
        items = {k[len(prefix) :]: v for k, v in self.items() if k.startswith(prefix)}
        required = _registry_names().get(section, ())
        if not items and not required:
            raise AttributeError(f"no input section {section!r}")
        built = _build(section, items, required)
        self._sections[section] = built
        return built

    def __dir__(self) -> list[str]:
        return sorted({*super().__dir__(), *(k.split(".", 1)[0] for k in self)})

    def replace(self, updates: Mapping[str, Any]) -> Inputs:
        """New inputs with ``updates`` (keyed ``section.key``) applied; these are unchanged.

        Parameters
        ----------
        updates : Mapping[str, Any]
            Values by key, in the fields' units (numbers or arrays).

        Returns
        -------
        Inputs
            A copy with the updates.
        """
        return Inputs({**self, **updates})

    def __reduce__(self):
        return (Inputs, (dict(self),))

    def __repr__(self) -> str:
        return f"Inputs({dict.__repr__(self)})"

    # writes drop the section objects built so far (see the module's docstring)
    def _changed(self) -> None:
        self._sections.clear()

    def __setitem__(self, key: str, value: Any) -> None:
        super().__setitem__(key, value)
        self._changed()

    def __delitem__(self, key: str) -> None:
        super().__delitem__(key)
        self._changed()

    def update(self, *args: Any, **kwargs: Any) -> None:
        super().update(*args, **kwargs)
        self._changed()

    def pop(self, *args: Any) -> Any:
        self._changed()
        return super().pop(*args)

    def popitem(self) -> tuple[str, Any]:
        self._changed()
        return super().popitem()

    def setdefault(self, key: str, default: Any = None) -> Any:
        self._changed()
        return super().setdefault(key, default)

    def clear(self) -> None:
        super().clear()
        self._changed()

    def __ior__(self, other: Any) -> Inputs:
        super().__ior__(other)
        self._changed()
        return self


def as_inputs(x: Mapping[str, Any]) -> Inputs:
    """``x`` as :class:`Inputs` (itself when it is one; else a typed copy of the mapping).

    Parameters
    ----------
    x : Mapping[str, Any]
        Resolved inputs keyed ``section.key`` (:func:`models.evaluate.resolve_inputs`, or a
        copy of them with some values replaced).

    Returns
    -------
    Inputs
        The same values with section objects; a section missing a registry field raises
        :class:`MissingInput` when read.
    """
    return x if isinstance(x, Inputs) else Inputs(x)

"""Instance catalog: a strict CSV loader into frozen dataclasses.

The catalog (``data/instances.csv``) has one row per instance type and a source for every
figure (``source_specs``, ``source_chip``, ``source_price``).  Unknown or missing columns,
bad numbers and duplicate names are rejected with a ValidationError naming row and column.
Empty cells mean *unknown* (e.g. a price that is not published): they load as ``None`` and
the model asks the user for the value rather than inventing one.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path

from ._csv import read_text_file, strict_records
from ._resources import data_path
from .errors import ValidationError
from .fields import FIELDS, _fmt

DEFAULT_CATALOG = data_path("instances.csv")
MAX_CATALOG_BYTES = 1024 * 1024


@dataclass(frozen=True)
class Instance:
    """One node type.  Units are in the field names; ``None`` means unknown."""

    instance: str
    accelerator: str
    accelerators_per_node: int
    accel_memory_GiB: float  # per accelerator, binary gigabytes as HBM is sold (GB_PER_GIB)
    hbm_TBps: float  # per accelerator
    bf16_dense_tflops: float  # per accelerator
    fp8_dense_tflops: float | None  # per accelerator
    max_matmul_fraction: float | None  # measured max achievable matmul / peak (MFU upper bound)
    mfu_default: float  # default MFU for this accelerator (source_mfu), <= max_matmul_fraction
    scaleup_GBps: float | None  # NVLink / NeuronLink per accelerator
    scaleup_efficiency: float | None  # measured collective busbw / per-direction link spec
    scaleup_domain_accels: int  # accelerators in one scale-up (NVLink/NeuronLink) domain
    efa_gbps: float  # per node
    host_memory_GiB: float
    local_nvme_GB: float
    usd_per_hour: float | None  # on-demand, per instance
    price_as_of: str | None
    source_specs: str
    source_chip: str
    source_price: str
    source_mfu: str
    source_efficiency: str  # where max_matmul_fraction and scaleup_efficiency come from

    @property
    def node_bf16_tflops(self) -> float:
        return self.bf16_dense_tflops * self.accelerators_per_node


_INT = {"accelerators_per_node", "scaleup_domain_accels"}
_OPTIONAL = {
    "fp8_dense_tflops",
    "max_matmul_fraction",
    "scaleup_GBps",
    "scaleup_efficiency",
    "usd_per_hour",
    "price_as_of",
}
_TEXT = {
    "instance",
    "accelerator",
    "price_as_of",
    "source_specs",
    "source_chip",
    "source_price",
    "source_mfu",
    "source_efficiency",
}
_COLUMNS = [f.name for f in fields(Instance)]


class Catalog(dict[str, Instance]):
    """``{instance name: Instance}`` as loaded; an unknown name is a clear error.

    Wherever a scenario meets the catalog (``catalog[scenario["cluster.instance"]]``), a
    name the catalog lacks raises a ValidationError naming ``cluster.instance`` and the
    allowed names, instead of a bare KeyError (a traceback on the command line).
    """

    def __missing__(self, name: str) -> Instance:
        raise unknown_instance(name, self)


def unknown_instance(name: object, catalog: Mapping[str, Instance]) -> ValidationError:
    """The error for an instance name the catalog lacks (names the allowed ones).

    Parameters
    ----------
    name : object
        The instance name as given.
    catalog : Mapping of str to Instance
        The loaded catalog.

    Returns
    -------
    ValidationError
        Naming ``cluster.instance`` and the allowed names (not raised).
    """
    return ValidationError(
        "cluster.instance",
        f"{str(name)[:80]!r} is not in the catalog; allowed: " + ", ".join(catalog),
    )


def check_instance(name: object, catalog: Mapping[str, Instance]) -> Instance:
    """The catalog row of ``name``; a ValidationError naming cluster.instance if unknown.

    Links, uploads and the command line call it where a scenario meets the catalog, so a
    bad name is reported rather than replaced by another instance.

    Parameters
    ----------
    name : object
        The instance name as given.
    catalog : Mapping of str to Instance
        The loaded catalog.

    Returns
    -------
    Instance
        The catalog row.

    Raises
    ------
    ValidationError
        When ``name`` is not a catalog name.
    """
    if not isinstance(name, str) or name not in catalog:
        raise unknown_instance(name, catalog)
    return catalog[name]


#: Figures the models divide by or scale with: zero or less is a typo, not a spec.
_POSITIVE = (
    "accel_memory_GiB",
    "hbm_TBps",
    "bf16_dense_tflops",
    "fp8_dense_tflops",
    "max_matmul_fraction",
    "scaleup_GBps",
    "efa_gbps",
    "usd_per_hour",
)

#: The largest value of each numeric column, with its unit (QA 29: a price of 1e300 printed
#: a 300-digit cost per day, 1e308 TFLOP/s overflowed with RuntimeWarnings, and a scale-up
#: domain of 10^12 accelerators was accepted).  The bounds follow the scenario fields that
#: say the same thing where there is one (the price's [0, 10,000] USD/instance-h, the
#: network's 1,000,000 Gb/s, a scale-up domain of at most cluster.nodes_per_domain's 1,024
#: nodes: :func:`_max_value`); the others are generous bounds on hardware (a hundred times
#: today's largest figure, or more), there to keep the figures finite.  The fractions
#: (mfu_default, max_matmul_fraction, scaleup_efficiency) have their ranges below.
_MAX: dict[str, tuple[float, str]] = {
    "accelerators_per_node": (1024.0, "accelerators"),
    "accel_memory_GiB": (10_000.0, "GiB"),
    "hbm_TBps": (1_000.0, "TB/s"),
    "bf16_dense_tflops": (1_000_000.0, "TFLOP/s"),
    "fp8_dense_tflops": (1_000_000.0, "TFLOP/s"),
    "scaleup_GBps": (100_000.0, "GB/s"),
    "scaleup_domain_accels": (math.nan, "accelerators"),  # per row: _max_value
    "efa_gbps": (FIELDS["network.inter_node_gbps"].max, FIELDS["network.inter_node_gbps"].unit),
    "host_memory_GiB": (1_000_000.0, "GiB"),
    "local_nvme_GB": (10_000_000.0, "GB"),
    "usd_per_hour": (
        FIELDS["pricing.usd_per_instance_hour"].max,
        FIELDS["pricing.usd_per_instance_hour"].unit,
    ),
}


def _max_value(col: str, kw: dict) -> float:
    """The largest value of ``col`` in this row: a scale-up domain spans at most
    ``cluster.nodes_per_domain``'s maximum of nodes (1,024) of the row's accelerators."""
    if col == "scaleup_domain_accels":
        per_node = kw["accelerators_per_node"] or 1
        return FIELDS["cluster.nodes_per_domain"].max * per_node
    return _MAX[col][0]


def _check_max(kw: dict, rowno: int, origin: str) -> None:
    """A ValidationError naming the row, the column and the allowed range for the first
    number above its column's maximum (:data:`_MAX`)."""
    for col, (_, unit) in _MAX.items():
        x = kw[col]
        hi = _max_value(col, kw)
        if x is None or x <= hi:
            continue
        lo = "[1" if col in _INT else "(0" if col in _POSITIVE else "[0"
        tail = f" {unit}" if unit else ""
        why = (
            f" (at most {_fmt(FIELDS['cluster.nodes_per_domain'].max)} nodes of "
            f"{kw['accelerators_per_node']:g}, as cluster.nodes_per_domain)"
            if col == "scaleup_domain_accels"
            else ""
        )
        raise ValidationError(
            f"{origin} row {rowno}, column {col}",
            f"{x:g} is out of range {lo}, {_fmt(hi)}]{tail}{why}",
        )


#: Former column names, and what to do about each (a catalog of an earlier release).
_RENAMED = {
    "accel_memory_GB": "renamed accel_memory_GiB: HBM is sold in binary gigabytes (an 'H100 "
    "80GB' holds 80 GiB, 81,559 MiB by nvidia-smi); rename the column and keep the numbers",
}


def parse_catalog(text: str, origin: str = "catalog") -> Catalog:
    """Parse catalog CSV text into ``{instance name: Instance}`` (a :class:`Catalog`).

    Parameters
    ----------
    text : str
        CSV text with the columns of :class:`Instance`.
    origin : str
        Name used in error messages (file name).

    Returns
    -------
    Catalog
        ``{instance name: Instance}``, at least one row.

    Raises
    ------
    ValidationError
        Naming row and column for unknown or missing columns, bad numbers, duplicates.

    Examples
    --------
    >>> cat = load_catalog()
    >>> "p5.48xlarge" in cat and cat["p5.48xlarge"].accelerators_per_node
    8
    """
    out = Catalog()
    records = strict_records(
        text, _COLUMNS, optional=_OPTIONAL, text_columns=_TEXT, origin=origin, renamed=_RENAMED
    )
    for rowno, kw in records:
        for col in _INT:
            x = kw[col]
            if x is not None and (x != int(x) or x < 1):
                raise ValidationError(
                    f"{origin} row {rowno}, column {col}", f"{x:g} must be a whole number >= 1"
                )
            kw[col] = None if x is None else int(x)
        for col in _POSITIVE:
            x = kw[col]
            if x is not None and not x > 0:
                raise ValidationError(
                    f"{origin} row {rowno}, column {col}",
                    f"{x:g} must be a number > 0 (leave the cell empty if it is unknown)"
                    if col in _OPTIONAL
                    else f"{x:g} must be a number > 0",
                )
        if kw["max_matmul_fraction"] is not None and kw["max_matmul_fraction"] > 1:
            raise ValidationError(
                f"{origin} row {rowno}, column max_matmul_fraction",
                f"{kw['max_matmul_fraction']:g} must be in (0, 1] (a fraction of peak)",
            )
        _check_max(kw, rowno, origin)
        inst = Instance(**kw)  # type: ignore[arg-type]
        if not 0.0 < inst.mfu_default <= 1.0:
            raise ValidationError(f"{origin} row {rowno}, column mfu_default", "must be in (0, 1]")
        if inst.max_matmul_fraction is not None and inst.mfu_default > inst.max_matmul_fraction:
            raise ValidationError(
                f"{origin} row {rowno}, column mfu_default",
                f"{inst.mfu_default:g} exceeds the measured max achievable matmul fraction "
                f"{inst.max_matmul_fraction:g} (an upper bound on MFU)",
            )
        for col in ("max_matmul_fraction", "scaleup_efficiency"):
            x = getattr(inst, col)
            if x is not None and not 0.0 < x <= 1.5:
                raise ValidationError(
                    f"{origin} row {rowno}, column {col}", f"{x:g} must be in (0, 1.5]"
                )
        if inst.instance in out:
            raise ValidationError(f"{origin} row {rowno}, column instance", "duplicate name")
        out[inst.instance] = inst
    if not out:
        raise ValidationError(origin, "has no rows")
    return out


def load_catalog(path: str | Path | None = None) -> Catalog:
    """Load the catalog at ``path``, else ``$GOODPUT_CATALOG``, else ``data/instances.csv``.

    Parameters
    ----------
    path : str or Path, optional
        Catalog CSV file.

    Returns
    -------
    Catalog
        As :func:`parse_catalog`.
    """
    p = Path(path or os.environ.get("GOODPUT_CATALOG") or DEFAULT_CATALOG)
    text = read_text_file(p, MAX_CATALOG_BYTES)
    return parse_catalog(text, origin=p.name)


def instance_inputs(inst: Instance) -> dict[str, float]:
    """The ``instance.*`` numeric inputs of :func:`models.evaluate.evaluate_arrays`.

    Unknown figures (empty catalog cells) become NaN, so the models report them as unknown
    instead of inventing a value.

    Parameters
    ----------
    inst : Instance
        One catalog row.

    Returns
    -------
    dict of str to float
        ``instance.*`` inputs in the units of the catalog columns (TFLOP/s, TB/s and GiB
        per accelerator, GB/s, Gbit/s per node, [count], [fraction]); NaN for unknown.
    """

    def num(v: float | None) -> float:
        return float("nan") if v is None else float(v)

    return {
        "instance.accelerators_per_node": inst.accelerators_per_node,
        "instance.bf16_dense_tflops": inst.bf16_dense_tflops,
        "instance.fp8_dense_tflops": num(inst.fp8_dense_tflops),
        "instance.accel_memory_GiB": inst.accel_memory_GiB,
        "instance.hbm_TBps": inst.hbm_TBps,
        "instance.scaleup_GBps": num(inst.scaleup_GBps),
        "instance.scaleup_efficiency": num(inst.scaleup_efficiency),
        "instance.scaleup_domain_accels": inst.scaleup_domain_accels,
        "instance.efa_gbps": inst.efa_gbps,
        "instance.max_matmul_fraction": num(inst.max_matmul_fraction),
        "instance.mfu_default": inst.mfu_default,
    }

"""The price in force: what an instance-hour and the checkpoint storage cost, with sources.

One function decides what an instance-hour costs: :func:`price_in_force`.  It follows the
scenario's pricing model (``pricing.model``, :class:`~models.choices.PricingModel`):

* ``on_demand`` — the catalog's on-demand price (``data/instances.csv``);
* ``capacity_block``, ``savings_plan_1y``, ``savings_plan_3y``, ``spot``, ``hyperpod`` — the
  dated price table ``data/prices_2024-12.csv`` (one row per instance and model, each with its
  source and date); the table only holds figures found on public price pages;
* ``custom`` — only the scenario's own price.

A scenario may always set its own rate (``pricing.usd_per_instance_hour``, with
``pricing.price_source`` and ``pricing.price_as_of``).  A price is never invented: when
neither the scenario nor a table has one, :func:`price_in_force` raises a ValidationError that
asks the user for it and says why.

Each model's terms (commitment, upfront payment, what idle hours cost, Capacity Block
lengths and sizes, the Spot notice) are in :data:`TERMS`, with their sources; the *effective*
price per used instance-hour (:func:`effective_usd_per_instance_hour`) divides a Savings Plan
rate by the share of its term the commitment is used.

Storage prices (FSx for Lustre by throughput tier, S3 storage and requests) come from the
dated table ``data/storage_prices_2022-09.csv`` (:func:`load_storage_prices`).  The prose,
with the citations, is ``docs/pricing.md``.
"""

from __future__ import annotations

import functools
import math
import os
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ._csv import read_text_file, strict_records
from ._resources import data_path
from ._tools import as_float_array, total
from .catalog import Instance
from .choices import PricingModel
from .errors import ValidationError
from .fields import FIELDS, _fmt

PRICE_FIELD = "pricing.usd_per_instance_hour"
OVERRUN_FIELD = "pricing.overrun_usd_per_instance_hour"
#: The range a price per instance-hour may take, as the field registry writes it (with
#: separators: "[0, 10,000]", not "[0, 10000]"), for messages that ask for one.
PRICE_ALLOWED = (
    f"a number in [{_fmt(FIELDS[PRICE_FIELD].min)}, {_fmt(FIELDS[PRICE_FIELD].max)}] "
    f"{FIELDS[PRICE_FIELD].unit}"
)
DEFAULT_PRICES = data_path("prices_2024-12.csv")
DEFAULT_STORAGE_PRICES = data_path("storage_prices_2022-09.csv")
MAX_TABLE_BYTES = 256 * 1024

HOURS_PER_DAY = 24.0
#: AWS quotes monthly prices over 730 hours (its pricing examples' convention).
HOURS_PER_MONTH = 730.0
#: Days in an average (Julian) year, for every "per year" figure.
DAYS_PER_YEAR = 365.25
#: Days in an average calendar month, for the "per month" budget figures.
DAYS_PER_MONTH = DAYS_PER_YEAR / 12.0
#: FSx for Lustre capacity is provisioned in GiB and billed per GB-month of it.
GIB_PER_TIB = 1024.0
#: 1 TiB in decimal terabytes (checkpoint sizes are decimal TB).
TB_PER_TIB = 1.099511627776


# --------------------------------------------------------------------------- terms
@dataclass(frozen=True)
class Terms:
    """What a pricing model commits you to and what it charges for idle time.

    Attributes
    ----------
    model : the pricing model.
    label : short name for tables.
    commitment : length of the commitment, in words.
    commitment_days : the commitment's length in days (0 = none; None = chosen per purchase).
    upfront : how it is paid.
    idle_paid : hours are paid whether or not the instances do useful work.
    interruptible : the provider may take the instances back (with notice).
    notes : the rules that matter for a training run.
    reference : key of :data:`models.references.REFERENCES`.
    """

    model: PricingModel
    label: str
    commitment: str
    commitment_days: float | None
    upfront: str
    idle_paid: bool
    interruptible: bool
    notes: str
    reference: str


TERMS: dict[PricingModel, Terms] = {
    PricingModel.ON_DEMAND: Terms(
        PricingModel.ON_DEMAND,
        "On-Demand",
        "none",
        0.0,
        "none (billed per second of running instances)",
        False,
        False,
        "Instances can be released at any time; nothing is paid once they stop.",
        "aws_ec2_pricing",
    ),
    PricingModel.SAVINGS_PLAN_1Y: Terms(
        PricingModel.SAVINGS_PLAN_1Y,
        "Savings Plan, 1 year",
        "1 year",
        365.0,
        "all, partial or no upfront (enter the effective hourly rate of your option)",
        True,
        False,
        "An hourly spend commitment paid for every hour of the term, used or not; the "
        "effective price per used hour is the rate / the share of the term it is used.",
        "aws_savings_plans",
    ),
    PricingModel.SAVINGS_PLAN_3Y: Terms(
        PricingModel.SAVINGS_PLAN_3Y,
        "Savings Plan, 3 years",
        "3 years",
        3 * 365.0,
        "all, partial or no upfront (enter the effective hourly rate of your option)",
        True,
        False,
        "As the 1-year plan, over three years: a lower rate for a longer commitment.",
        "aws_savings_plans",
    ),
    PricingModel.CAPACITY_BLOCK: Terms(
        PricingModel.CAPACITY_BLOCK,
        "Capacity Block",
        "the block: 1-14 days in 1-day steps, then 7-day steps up to 182 days",
        None,
        "all upfront, at purchase",
        True,
        False,
        "Up to 64 instances a block and 256 across blocks (an account limit); reserved up to "
        "8 weeks ahead; instances are terminated from 30 minutes before the block ends; a "
        "block cannot be cancelled and is not covered by Savings Plans. An hour lost to a "
        "failure is already paid: what failures cost is the extra days of block.",
        "aws_capacity_blocks",
    ),
    PricingModel.SPOT: Terms(
        PricingModel.SPOT,
        "Spot",
        "none",
        0.0,
        "none (the Spot price in effect)",
        False,
        True,
        "Instances can be reclaimed with a two-minute notice (best effort); a checkpoint "
        "that fits in the notice loses no work. Spot prices change: enter yours.",
        "aws_spot_notice",
    ),
    PricingModel.HYPERPOD: Terms(
        PricingModel.HYPERPOD,
        "SageMaker HyperPod",
        "none (on-demand), or a SageMaker training plan",
        0.0,
        "none for on-demand; training plans are paid up front",
        False,
        False,
        "ml.* instance prices of the SageMaker pricing page; none was retrieved for this "
        "table, so enter yours.",
        "aws_sagemaker_pricing",
    ),
    PricingModel.CUSTOM: Terms(
        PricingModel.CUSTOM,
        "Custom",
        "as negotiated",
        None,
        "as negotiated",
        False,
        False,
        "Your own rate (an enterprise discount, another cloud): always entered by you.",
        "",
    ),
}


# --------------------------------------------------------------------------- Capacity Blocks
#: Durations a Capacity Block can be bought for [days]: 1-14 in 1-day steps, then 7-day steps
#: up to 182 (AWS, "Find and purchase Capacity Blocks").
CAPACITY_BLOCK_DAYS: tuple[int, ...] = (*range(1, 15), *range(21, 183, 7))
CAPACITY_BLOCK_MAX_DAYS = 182
#: Instance Capacity Blocks: at most 64 instances a block and 256 across an account's blocks.
#: A type whose scale-up domain spans several instances (P6e-GB200) is sold as UltraServer
#: Capacity Blocks of whole UltraServers instead (:func:`ultraserver_instances`).
CAPACITY_BLOCK_MAX_INSTANCES = 64  # per block
CAPACITY_BLOCK_ACCOUNT_INSTANCES = 256  # across an account's blocks
#: Instances in a Capacity Block are terminated from 30 minutes before it ends.
CAPACITY_BLOCK_END_MARGIN_HOURS = 0.5


def purchasable_block_days(days):
    """The shortest Capacity Block duration of at least ``days`` [day]; NaN beyond 182 days.

    Parameters
    ----------
    days : array_like
        Days needed [day].

    Returns
    -------
    float or ndarray
        Block duration [day].

    Examples
    --------
    >>> purchasable_block_days(13.2), purchasable_block_days(15.0), purchasable_block_days(183)
    (14.0, 21.0, nan)
    """
    d = as_float_array(days)
    allowed = np.asarray(CAPACITY_BLOCK_DAYS, dtype=float)
    idx = np.searchsorted(allowed, d - 1e-9, side="left")
    out = np.where(idx < allowed.size, allowed[np.minimum(idx, allowed.size - 1)], np.nan)
    out = np.where(np.isnan(d), np.nan, out)
    return float(out) if np.ndim(out) == 0 else out


def capacity_block_usd(block_days, instances, usd_per_instance_hour):
    """The price of a Capacity Block, paid up front whether the job runs or not [USD].

    price = D · 24 h · n · p (AWS EC2 Capacity Blocks: a whole number of days, every
    instance of the block, at the block's rate).  The plan's curve, its chosen block and the
    bill by pricing model all use this one formula.

    Parameters
    ----------
    block_days : block length D [day].
    instances : instances in the block(s), spares included [count].
    usd_per_instance_hour : the block's rate p [USD/instance-h].

    Returns
    -------
    float or ndarray
        The block's price [USD].

    Examples
    --------
    >>> round(capacity_block_usd(14, 64, 31.464), 3)  # 14 d x 24 h x 64 x $31.464
    676601.856
    """
    out = as_float_array(block_days) * HOURS_PER_DAY * instances * usd_per_instance_hour
    return float(out) if np.ndim(out) == 0 else out


def ultraserver_instances(inst: Instance | None) -> int:
    """Instances in one UltraServer of ``inst``, the unit its Capacity Blocks are sold in;
    1 for a type sold as single instances.

    A type whose scale-up domain spans several instances (the catalog's
    ``scaleup_domain_accels`` over ``accelerators_per_node``: P6e-GB200, 72 GPUs over 18
    p6e-gb200.36xlarge of 4) is an UltraServer: AWS sells its Capacity Blocks as a number
    of whole UltraServers, not as instances ("UltraServer Capacity Blocks" in the EC2 User
    Guide, "Capacity Blocks for ML",
    https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/ec2-capacity-blocks.html,
    reference ``aws_capacity_blocks``; docs/failure-domains.md).  The UltraServer counted
    is the catalog's scale-up domain, the one the scenario models (the 72-GPU
    u-p6e-gb200x72; the 36-GPU size would be another catalog row).

    Parameters
    ----------
    inst : Instance or None
        The catalog row (None: sold as instances).

    Returns
    -------
    int
        Instances per UltraServer [count]; 1 for a type sold as instances.

    Examples
    --------
    >>> from goodput_lab.models import load_catalog
    >>> cat = load_catalog()
    >>> ultraserver_instances(cat["p6e-gb200.36xlarge"]), ultraserver_instances(cat["p5.48xlarge"])
    (18, 1)
    """
    if inst is None:
        return 1
    return max(1, int(inst.scaleup_domain_accels) // int(inst.accelerators_per_node))


def capacity_block_instances(instances: int, inst: Instance | None = None) -> int:
    """Instances a Capacity Block holds for ``instances`` nodes (spares included): the
    nodes themselves, or whole UltraServers of them where the type is sold so
    (:func:`ultraserver_instances`).

    Parameters
    ----------
    instances : int
        Nodes, spares included [count].
    inst : Instance, optional
        The catalog row (None: sold as instances).

    Returns
    -------
    int
        Instances paid in the block(s) [count].

    Examples
    --------
    >>> from goodput_lab.models import load_catalog
    >>> capacity_block_instances(1020, load_catalog()["p6e-gb200.36xlarge"])  # 57 x 18
    1026
    """
    k = ultraserver_instances(inst)
    n = int(instances)
    return math.ceil(n / k) * k if n > 0 else 0


def capacity_blocks_needed(instances: int, inst: Instance | None = None) -> int:
    """Capacity Blocks of at most 64 instances needed for ``instances`` nodes (spares
    included); for a type sold as whole UltraServers (:func:`ultraserver_instances`), the
    UltraServers, the unit its blocks are bought in (the 64-instance limit is that of
    instance Capacity Blocks).

    Parameters
    ----------
    instances : int
        Nodes, spares included [count].
    inst : Instance, optional
        The catalog row (None: sold as instances).

    Returns
    -------
    int
        Blocks, or UltraServers [count].

    Examples
    --------
    >>> capacity_blocks_needed(2000), capacity_blocks_needed(64), capacity_blocks_needed(65)
    (32, 1, 2)
    >>> from goodput_lab.models import load_catalog
    >>> capacity_blocks_needed(1020, load_catalog()["p6e-gb200.36xlarge"])  # UltraServers
    57
    """
    n = int(instances)
    k = ultraserver_instances(inst)
    if k > 1:
        return math.ceil(n / k) if n > 0 else 0
    return max(1, math.ceil(n / CAPACITY_BLOCK_MAX_INSTANCES)) if n > 0 else 0


def capacity_block_note(instances: int, inst: Instance | None = None) -> str:
    """What buying ``instances`` nodes (spares included) as Capacity Blocks takes, when
    there is a rule to say ("" otherwise): whole UltraServers for a type sold so, else the
    blocks of at most 64 instances beyond the account's 256.

    Parameters
    ----------
    instances : int
        Nodes, spares included [count].
    inst : Instance, optional
        The catalog row (None: sold as instances).

    Returns
    -------
    str
        One sentence without a full stop, or "".

    Examples
    --------
    >>> from goodput_lab.models import load_catalog
    >>> print(capacity_block_note(1020, load_catalog()["p6e-gb200.36xlarge"]))
    p6e-gb200.36xlarge Capacity Blocks are sold as whole UltraServers of 18 instances (72 accelerators), not as single instances: 1,020 instances need 57 UltraServers (1,026 instances, all paid)
    >>> print(capacity_block_note(2000))
    2,000 instances need 32 blocks of at most 64; AWS allows 256 instances across an account's blocks unless the limit is raised
    """
    n = int(instances)
    k = ultraserver_instances(inst)
    if k > 1 and inst is not None:
        servers = capacity_blocks_needed(n, inst)
        whole = capacity_block_instances(n, inst)
        need = (
            f"{n:,} instances are {servers:,} UltraServers"
            if whole == n
            else f"{n:,} instances need {servers:,} UltraServers ({whole:,} instances, all paid)"
        )
        return (
            f"{inst.instance} Capacity Blocks are sold as whole UltraServers of {k} instances "
            f"({inst.scaleup_domain_accels:,} accelerators), not as single instances: {need}"
        )
    if n > CAPACITY_BLOCK_ACCOUNT_INSTANCES:
        return (
            f"{n:,} instances need {capacity_blocks_needed(n)} blocks of at most "
            f"{CAPACITY_BLOCK_MAX_INSTANCES}; AWS allows {CAPACITY_BLOCK_ACCOUNT_INSTANCES}"
            " instances across an account's blocks unless the limit is raised"
        )
    return ""


# --------------------------------------------------------------------------- prices
#: A price's date when nobody stated one (a price entered without ``pricing.price_as_of``)
UNDATED = "not stated"


def is_dated(as_of: str | None) -> bool:
    """Whether a price's date is stated (not empty, None or :data:`UNDATED`).

    Parameters
    ----------
    as_of : str or None
        The date (``YYYY-MM`` or ``YYYY-MM-DD``), :data:`UNDATED`, empty or None.

    Returns
    -------
    bool
        True when a date is stated.

    Examples
    --------
    >>> is_dated("2025-06"), is_dated(UNDATED), is_dated(None), is_dated(" ")
    (True, False, False, False)
    """
    return str(as_of or "").strip() not in ("", UNDATED)


def json_date(as_of: str | None) -> str | None:
    """A price's date as every JSON writes it: the date, or null when none is stated (QA 26:
    "not stated" in the plan's and evaluate's JSON, "n/a" in the instances', for one
    meaning; the text and the pages say "undated", :func:`as_of_phrase`).

    Parameters
    ----------
    as_of : str or None
        The date (``YYYY-MM`` or ``YYYY-MM-DD``), :data:`UNDATED`, empty or None.

    Returns
    -------
    str or None
        The date, or None.

    Examples
    --------
    >>> json_date("2025-06"), json_date(UNDATED), json_date("")
    ('2025-06', None, None)
    """
    return str(as_of).strip() if is_dated(as_of) else None


def as_of_phrase(as_of: str | None) -> str:
    """How a price's date reads in a sentence: "as of 2025-06", or "undated" when the
    date is not stated (a price entered in the scenario without ``pricing.price_as_of``).

    Parameters
    ----------
    as_of : str or None
        The date (``YYYY-MM`` or ``YYYY-MM-DD``), :data:`UNDATED`, empty or None.

    Returns
    -------
    str
        The phrase.

    Examples
    --------
    >>> as_of_phrase("2025-06"), as_of_phrase(UNDATED), as_of_phrase(None)
    ('as of 2025-06', 'undated', 'undated')
    """
    return f"as of {str(as_of).strip()}" if is_dated(as_of) else "undated"


def price_date_phrase(price: Price) -> str:
    """How a price's provenance reads in a sentence: "entered" for a rate typed into the
    scenario (the overrun rate decide suggests, say), else :func:`as_of_phrase` of its date.

    Parameters
    ----------
    price : Price
        The price.

    Returns
    -------
    str
        The phrase.

    Examples
    --------
    >>> price_date_phrase(Price(55.04, "entered in the scenario", UNDATED, "scenario", "custom"))
    'entered'
    """
    return "entered" if price.source.startswith("entered") else as_of_phrase(price.as_of)


@dataclass(frozen=True)
class Price:
    """A price per instance-hour with its provenance.

    Attributes
    ----------
    usd_per_instance_hour : the rate of one node for one hour [USD/h].
    source : where it comes from, in words.
    as_of : the date it was valid (``YYYY-MM`` or ``YYYY-MM-DD``), or :data:`UNDATED`.
    origin : ``"catalog"`` (the catalog's on-demand price), ``"table"`` (the dated price
        table), ``"scenario"`` (set in the scenario) or ``"user"`` (entered for one
        comparison, e.g. ``--price NAME=USD``).
    model : the pricing model the rate belongs to (a :class:`PricingModel` value).
    """

    usd_per_instance_hour: float
    source: str
    as_of: str
    origin: str = "catalog"
    model: str = PricingModel.ON_DEMAND.value

    def describe(self) -> str:
        """One line for page headers and reports: ``$55.04/h, ... (as of 2025-06)``."""
        label = TERMS[PricingModel(self.model)].label
        return (
            f"${self.usd_per_instance_hour:,.2f}/instance-h ({label}) — {self.source} "
            f"({as_of_phrase(self.as_of)})"
        )


@dataclass(frozen=True)
class TablePrice:
    """One row of the dated instance price table (``data/prices_2024-12.csv``)."""

    instance: str
    pricing_model: str
    usd_per_instance_hour: float
    region: str
    as_of: str
    source: str


_PRICE_COLUMNS = ["instance", "pricing_model", "usd_per_instance_hour", "region", "as_of", "source"]


def parse_price_table(text: str, origin: str = "price table") -> dict[tuple[str, str], TablePrice]:
    """Parse the instance price table into ``{(instance, model): TablePrice}``, strictly.

    On-demand prices live in the instance catalog, so an ``on_demand`` row is rejected; so are
    unknown models, duplicate rows, empty cells and negative or non-numeric prices (the
    ValidationError names the row and column).

    Parameters
    ----------
    text : str
        CSV text of the price table.
    origin : str
        Name used in error messages.

    Returns
    -------
    dict of (str, str) to TablePrice
        Rows by (instance, pricing model); prices [USD/h].
    """
    out: dict[tuple[str, str], TablePrice] = {}
    allowed = [
        m.value for m in PricingModel if m not in (PricingModel.ON_DEMAND, PricingModel.CUSTOM)
    ]
    records = strict_records(
        text,
        _PRICE_COLUMNS,
        optional=(),
        text_columns={"instance", "pricing_model", "region", "as_of", "source"},
        origin=origin,
    )
    for rowno, kw in records:
        if kw["pricing_model"] not in allowed:
            raise ValidationError(
                f"{origin} row {rowno}, column pricing_model",
                f"{kw['pricing_model']!r} is not allowed; allowed: "
                + ", ".join(allowed)
                + " (on-demand prices live in the instance catalog)",
            )
        price = kw["usd_per_instance_hour"]
        if price > FIELDS[PRICE_FIELD].max:  # as the scenario's own (QA 29: 1e300 accepted)
            raise ValidationError(
                f"{origin} row {rowno}, column usd_per_instance_hour",
                f"{price:g} is out of range ({PRICE_ALLOWED})",
            )
        row = TablePrice(**kw)  # type: ignore[arg-type]
        key = (row.instance, row.pricing_model)
        if key in out:
            raise ValidationError(f"{origin} row {rowno}", f"duplicate row for {key}")
        out[key] = row
    return out


def load_price_table(path: str | Path | None = None) -> dict[tuple[str, str], TablePrice]:
    """The price table at ``path``, else ``$GOODPUT_PRICES``, else the shipped dated table.

    Parameters
    ----------
    path : str or Path, optional
        Price table CSV file.

    Returns
    -------
    dict of (str, str) to TablePrice
        As :func:`parse_price_table`.
    """
    p = Path(path or os.environ.get("GOODPUT_PRICES") or DEFAULT_PRICES)
    try:
        st = p.stat()
    except OSError as exc:
        raise ValidationError(str(p), f"cannot be read ({exc.strerror})") from None
    return dict(_price_table_cached(str(p), st.st_mtime_ns, st.st_size))


@functools.lru_cache(maxsize=8)
def _price_table_cached(path: str, _mtime: int, _size: int):
    p = Path(path)
    return parse_price_table(read_text_file(p, MAX_TABLE_BYTES), origin=p.name)


def catalog_price(inst: Instance) -> Price | None:
    """The catalog's on-demand price of ``inst``, or None when the catalog has none.

    Parameters
    ----------
    inst : Instance
        The catalog row.

    Returns
    -------
    Price or None
        On-demand rate [USD/h] with source and date.
    """
    if inst.usd_per_hour is None:
        return None
    return Price(
        float(inst.usd_per_hour),
        inst.source_price,
        inst.price_as_of or UNDATED,
        "catalog",
        PricingModel.ON_DEMAND.value,
    )


def model_price(
    inst: Instance,
    model: PricingModel | str,
    table: Mapping[tuple[str, str], TablePrice] | None = None,
) -> Price:
    """The public price of ``inst`` under ``model``, or a ValidationError asking for one.

    On-demand: the catalog; custom: never (always entered); other models: the dated price
    table (:func:`load_price_table`).

    Parameters
    ----------
    inst : Instance
        The catalog row.
    model : PricingModel or str
        The pricing model.
    table : Mapping of (instance, model) to TablePrice, optional
        The dated price table; default :func:`load_price_table`.

    Returns
    -------
    Price
        Rate [USD/h] with source and date.

    Raises
    ------
    ValidationError
        When no public price exists (custom, or not in the table).
    """
    model = PricingModel(model)
    if model is PricingModel.ON_DEMAND:
        price = catalog_price(inst)
        if price is None:
            raise ValidationError(
                PRICE_FIELD,
                f"the catalog has no price for {inst.instance} ({inst.source_price}); "
                f"enter one ({PRICE_ALLOWED})",
            )
        return price
    if model is PricingModel.CUSTOM:
        raise ValidationError(
            PRICE_FIELD,
            "not set; pricing.model = 'custom' needs your own rate "
            f"({PRICE_ALLOWED}, with pricing.price_source and pricing.price_as_of)",
        )
    tab = table if table is not None else load_price_table()
    row = tab.get((inst.instance, model.value))
    if row is None:
        raise ValidationError(
            PRICE_FIELD,
            f"not set, and no public {TERMS[model].label} price for {inst.instance} was found "
            f"for the price table ({DEFAULT_PRICES.name}); enter yours ({PRICE_ALLOWED}, with "
            "pricing.price_source and pricing.price_as_of)",
        )
    return Price(
        row.usd_per_instance_hour,
        f"{row.source} [{row.region}]",
        row.as_of,
        "table",
        model.value,
    )


def price_in_force(
    scenario, inst: Instance, table: Mapping[tuple[str, str], TablePrice] | None = None
) -> Price:
    """The rate this scenario pays per instance-hour of ``inst`` under its pricing model.

    The scenario's ``pricing.usd_per_instance_hour`` when set (with ``pricing.price_source``
    and ``pricing.price_as_of``), else the public price of the model (:func:`model_price`).

    Parameters
    ----------
    scenario : Scenario
        The scenario (its ``pricing.*`` fields).
    inst : Instance
        The catalog row.
    table : Mapping of (instance, model) to TablePrice, optional
        The dated price table; default :func:`load_price_table`.

    Returns
    -------
    Price
        Rate [USD/h] with source and date.
    """
    model = PricingModel(scenario["pricing.model"])
    own = scenario[PRICE_FIELD]
    if own is not None:
        return Price(
            float(own),
            scenario["pricing.price_source"] or "entered in the scenario (source not stated)",
            scenario["pricing.price_as_of"] or UNDATED,
            "scenario",
            model.value,
        )
    return model_price(inst, model, table)


#: What a price typed over a scenario's own becomes when its source and date were not edited
#: with it (provenance follows edits: the old text described the old number).
ENTERED_SOURCE = "entered"


def _month(as_of: str) -> str | None:
    """``YYYY-MM`` of a ``YYYY-MM`` or ``YYYY-MM-DD`` date, else None (not comparable)."""
    text = str(as_of or "").strip()
    if len(text) >= 7 and text[:4].isdigit() and text[4] == "-" and text[5:7].isdigit():
        return text[:7]
    return None


@dataclass(frozen=True)
class PriceVintage:
    """The scenario's own price next to the public price of the same instance and pricing
    model, when the scenario's is dated before the public one (see :func:`price_vintage`)."""

    scenario: Price
    public: Price

    def sentence(self) -> str:
        """One sentence for a page, a report or the CLI (said once per view)."""
        label = TERMS[PricingModel(self.public.model)].label
        where = "catalog's" if self.public.origin == "catalog" else "price table's"
        return (
            f"The scenario's price, ${self.scenario.usd_per_instance_hour:,.2f}/instance-h as "
            f"of {self.scenario.as_of}, is older than the {where} {label} price, "
            f"${self.public.usd_per_instance_hour:,.2f}/instance-h as of {self.public.as_of}; "
            "the scenario's figures use its own."
        )

    def row_note(self) -> str:
        """What a ranking row priced at the scenario's price says about the other rows."""
        return (
            f"the scenario's price, as of {self.scenario.as_of}; the other rows are at public "
            f"prices as of {self.public.as_of} (this type's: "
            f"${self.public.usd_per_instance_hour:,.2f}/instance-h)"
        )


def price_vintage(
    scenario, inst: Instance, table: Mapping[tuple[str, str], TablePrice] | None = None
) -> PriceVintage | None:
    """The scenario's own price and the public one when the scenario's is older, else None.

    Parameters
    ----------
    scenario : the scenario (its ``pricing.usd_per_instance_hour``, ``pricing.price_as_of``
        and ``pricing.model``).
    inst : its instance type.
    table : the dated price table (default :func:`load_price_table`).

    Returns
    -------
    PriceVintage or None
        None when the scenario uses the public price, when either date is not a
        ``YYYY-MM[-DD]`` date, or when the scenario's is not older (a negotiated rate of the
        same month or later is not stale).
    """
    if scenario[PRICE_FIELD] is None:
        return None
    own = price_in_force(scenario, inst, table)
    try:
        public = model_price(inst, PricingModel(scenario["pricing.model"]), table)
    except ValidationError:
        return None
    a, b = _month(own.as_of), _month(public.as_of)
    if a is None or b is None or a >= b:
        return None
    return PriceVintage(own, public)


def follow_price_edit(base, edited, explicit: Collection[str] = ()) -> dict[str, Any]:
    """Provenance updates for ``edited`` when its price differs from ``base``'s and its
    source and date were left as they were: the old text described the old number, so a
    typed price becomes :data:`ENTERED_SOURCE` with no date, and a price cleared back to
    the public one drops the scenario's source and date (the public price carries its own).

    A price is a price of its instance type and of its pricing model: when the edit moves
    the job to another type or another pricing model and leaves the scenario's own price as
    it was, that price (and its source and date) is dropped, so the new type or model is
    priced at its public price (:func:`price_follows_instance`,
    :func:`price_follows_model`) rather than at a rate entered for the old one; where the
    new model has no public price, evaluation asks for one.  A price the edit sets itself
    (``explicit``) is kept, and when it equals the old number its source and date, which
    described the old type or model's rate, become :data:`ENTERED_SOURCE` and no date
    unless they were edited with it.

    Parameters
    ----------
    base : Scenario
        The scenario before the edit.
    edited : Scenario
        The scenario after it.
    explicit : collection of str
        Fields the edit set itself (``--set`` keys, a link's fields): a price among them is
        the user's, kept whatever its value.

    Returns
    -------
    dict
        Field updates for :meth:`models.Scenario.replace` (empty when nothing is stale).

    Examples
    --------
    >>> from goodput_lab.models import load_preset
    >>> s = load_preset("aws-16k-h100")  # $98.32, p5.48xlarge's 2023 On-Demand rate
    >>> follow_price_edit(s, s.replace({"pricing.model": "spot"}))
    {'pricing.usd_per_instance_hour': None, 'pricing.price_source': None, 'pricing.price_as_of': None}
    >>> spot = s.replace({"pricing.model": "spot", "pricing.usd_per_instance_hour": 30.0})
    >>> follow_price_edit(s, spot, {"pricing.model", "pricing.usd_per_instance_hour"})
    {'pricing.price_source': 'entered', 'pricing.price_as_of': None}
    """
    if price_dropped(base, edited, explicit):
        out = {PRICE_FIELD: None, "pricing.price_source": None, "pricing.price_as_of": None}
        return {k: v for k, v in out.items() if edited[k] != v}
    if edited[PRICE_FIELD] == base[PRICE_FIELD] and not (
        edited[PRICE_FIELD] is not None and _moved(base, edited)
    ):
        return {}
    out: dict[str, Any] = {}
    typed = edited[PRICE_FIELD] is not None
    if edited["pricing.price_source"] == base["pricing.price_source"]:
        out["pricing.price_source"] = ENTERED_SOURCE if typed else None
    if edited["pricing.price_as_of"] == base["pricing.price_as_of"]:
        out["pricing.price_as_of"] = None
    return {k: v for k, v in out.items() if edited[k] != v}


def _moved(base, edited) -> bool:
    """Whether ``edited`` has another instance type or pricing model than ``base``."""
    return any(edited[k] != base[k] for k in ("cluster.instance", "pricing.model"))


def _kept_own_price(base, edited, explicit: Collection[str]) -> bool:
    """``base`` has a price of its own and ``edited`` kept it without setting it."""
    return (
        base[PRICE_FIELD] is not None
        and edited[PRICE_FIELD] == base[PRICE_FIELD]
        and PRICE_FIELD not in explicit
    )


def price_follows_instance(base, edited, explicit: Collection[str] = ()) -> bool:
    """Whether ``edited`` moved the job to another instance type while keeping the price
    ``base`` entered for the old one (a rate of one type is not a rate of another).

    Parameters
    ----------
    base : Scenario
        The scenario before the edit.
    edited : Scenario
        The scenario after it.
    explicit : collection of str
        Fields the edit set itself: a price set there is the user's for the new type, even
        when it equals the old one's.

    Returns
    -------
    bool
        True when the instance changed, ``base`` has a price of its own and ``edited`` kept
        it unchanged.

    Examples
    --------
    >>> from goodput_lab.models import load_preset
    >>> s = load_preset("aws-16k-h100")  # $98.32, the 2023 price of p5.48xlarge
    >>> price_follows_instance(s, s.replace({"cluster.instance": "p6-b200.48xlarge"}))
    True
    """
    return edited["cluster.instance"] != base["cluster.instance"] and _kept_own_price(
        base, edited, explicit
    )


def price_follows_model(base, edited, explicit: Collection[str] = ()) -> bool:
    """Whether ``edited`` moved the job to another pricing model while keeping the price
    ``base`` states for the old one (QA 29: ``--set pricing.model=spot`` on the
    ``aws-16k-h100`` preset priced Spot at $98.32, p5.48xlarge's 2023 On-Demand rate, with
    the On-Demand price's source; an On-Demand rate is not a Spot, Savings Plan or
    Capacity Block rate).

    Parameters
    ----------
    base : Scenario
        The scenario before the edit.
    edited : Scenario
        The scenario after it.
    explicit : collection of str
        Fields the edit set itself: a price set there is the user's for the new model, even
        when it equals the old one's.

    Returns
    -------
    bool
        True when the pricing model changed, ``base`` has a price of its own and ``edited``
        kept it unchanged.

    Examples
    --------
    >>> from goodput_lab.models import load_preset
    >>> s = load_preset("aws-16k-h100")
    >>> price_follows_model(s, s.replace({"pricing.model": "capacity_block"}))
    True
    >>> price_follows_model(s, s.replace({"pricing.model": "spot"}), {PRICE_FIELD})
    False
    """
    return edited["pricing.model"] != base["pricing.model"] and _kept_own_price(
        base, edited, explicit
    )


def price_dropped(base, edited, explicit: Collection[str] = ()) -> bool:
    """Whether the edit drops ``base``'s own price: it moved to another instance type
    (:func:`price_follows_instance`) or pricing model (:func:`price_follows_model`) and
    did not set a price with it.

    Parameters
    ----------
    base : Scenario
        The scenario before the edit.
    edited : Scenario
        The scenario after it.
    explicit : collection of str
        Fields the edit set itself.

    Returns
    -------
    bool
        True when the old price is dropped.
    """
    return price_follows_instance(base, edited, explicit) or price_follows_model(
        base, edited, explicit
    )


def price_follows_note(
    base,
    edited,
    explicit: Collection[str] = (),
    how: str = "set pricing.usd_per_instance_hour to use another",
) -> str:
    """The sentence said when :func:`price_dropped` dropped a price ("" if not): the
    old type's or the old model's rate, and what prices the new one.

    Parameters
    ----------
    base : Scenario
        The scenario before the edit.
    edited : Scenario
        The scenario after it.
    explicit : collection of str
        Fields the edit set itself (:func:`price_follows_instance`).
    how : str
        How to enter another price where the sentence is read (the command line's field,
        the dashboard's box).

    Returns
    -------
    str
        One sentence naming the dropped price and the type or model it was entered for.

    Examples
    --------
    >>> from goodput_lab.models import load_preset
    >>> s = load_preset("aws-16k-h100")
    >>> print(price_follows_note(s, s.replace({"pricing.model": "spot"})))
    The scenario's $98.32/instance-h was entered as the On-Demand rate of p5.48xlarge; Spot is priced at its public price instead, where there is one (set pricing.usd_per_instance_hour to use another).
    """
    if not price_dropped(base, edited, explicit):
        return ""
    own = f"The scenario's ${base[PRICE_FIELD]:,.2f}/instance-h"
    old_inst, new_inst = base["cluster.instance"], edited["cluster.instance"]
    if edited["pricing.model"] == base["pricing.model"]:  # the instance alone
        return (
            f"{own} was entered for {old_inst}; {new_inst} is priced at its public price "
            f"instead ({how})."
        )
    old_model = TERMS[PricingModel(base["pricing.model"])].label
    new_model = TERMS[PricingModel(edited["pricing.model"])].label
    new = new_model if new_inst == old_inst else f"{new_inst} on {new_model}"
    return (
        f"{own} was entered as the {old_model} rate of {old_inst}; {new} is priced at its "
        f"public price instead, where there is one ({how})."
    )


def on_demand_price(scenario, inst: Instance) -> Price | None:
    """The on-demand price in force for ``inst``: the scenario's own when its model is
    on_demand and ``inst`` is its instance type (a price belongs to its type), else the
    catalog's (None when unknown).

    Parameters
    ----------
    scenario : Scenario
        The scenario (its ``pricing.*`` fields).
    inst : Instance
        The catalog row.

    Returns
    -------
    Price or None
        On-demand rate [USD/h], None when unknown.
    """
    own = scenario[PRICE_FIELD] is not None and inst.instance == scenario["cluster.instance"]
    if own and PricingModel(scenario["pricing.model"]) is PricingModel.ON_DEMAND:
        return price_in_force(scenario, inst)
    return catalog_price(inst)


#: The source of an On-Demand rate entered for one comparison (``--price on_demand=USD``)
#: when it prices the hours after a Capacity Block (:func:`overrun_price`).
ENTERED_ON_DEMAND_SOURCE = "entered for this comparison (On-Demand)"


def overrun_price(scenario, inst: Instance, on_demand: float | None = None) -> Price:
    """The price of the hours a run needs after its Capacity Block ends.

    ``pricing.overrun_usd_per_instance_hour`` when set, else the on-demand price in force
    (docs/pricing.md §3): an On-Demand rate entered for this comparison (``on_demand``:
    ``goodput plan --price on_demand=USD``, ``goodput decide --price
    [INSTANCE:]on_demand=USD``), else :func:`on_demand_price`; a ValidationError asks for
    it when none is known.

    Parameters
    ----------
    scenario : Scenario
        The scenario (its ``pricing.*`` fields).
    inst : Instance
        The catalog row of the block's instance type.
    on_demand : float, optional
        An On-Demand rate of ``inst`` entered for this comparison [USD/h]; it is the
        On-Demand price in force, ahead of the scenario's own and the catalog's.

    Returns
    -------
    Price
        Rate of the overrun hours [USD/h].

    Examples
    --------
    >>> from goodput_lab.models import load_catalog, load_preset
    >>> s, cat = load_preset("llama3-70b"), load_catalog()
    >>> overrun_price(s, cat["p5.48xlarge"]).usd_per_instance_hour  # the catalog's
    55.04
    >>> overrun_price(s, cat["p5.48xlarge"], on_demand=42.5).usd_per_instance_hour
    42.5
    """
    own = scenario[OVERRUN_FIELD]
    if own is not None:
        return Price(float(own), "entered in the scenario", UNDATED, "scenario", "custom")
    if on_demand is not None:
        return Price(
            float(on_demand),
            ENTERED_ON_DEMAND_SOURCE,
            UNDATED,
            "user",
            PricingModel.ON_DEMAND.value,
        )
    price = on_demand_price(scenario, inst)
    if price is None:
        raise ValidationError(
            OVERRUN_FIELD,
            f"not set, and {inst.instance} has no on-demand price to fall back on; enter the "
            f"price of the hours after the block ({PRICE_ALLOWED})",
        )
    return price


def effective_usd_per_instance_hour(rate, model, commitment_utilization=1.0):
    """Price per instance-hour actually used [USD/h].

    Savings Plans charge their hourly commitment for every hour of the term, used or not, so
    a plan whose commitment does paid work only a share u of its term costs rate / u per used
    hour; every other model's effective price is its rate (Capacity Block idle days are
    counted by the plan, :mod:`models.plan`).

    Parameters
    ----------
    rate : array_like
        Rate [USD/h].
    model : PricingModel or str
        The pricing model.
    commitment_utilization : array_like
        Share u of the Savings Plan term doing paid work [fraction].

    Returns
    -------
    float or ndarray
        Price per used instance-hour [USD/h].

    Examples
    --------
    >>> effective_usd_per_instance_hour(40.0, "savings_plan_3y", 0.5)
    80.0
    >>> effective_usd_per_instance_hour(40.0, "on_demand", 0.5)
    40.0
    """
    r = as_float_array(rate)
    if PricingModel(model).is_savings_plan:
        out = r / as_float_array(commitment_utilization)
    else:
        out = r * 1.0
    return float(out) if np.ndim(out) == 0 else out


def lost_usd_per_day(goodput, cluster_usd_per_day, spare_usd_per_day, storage_usd_per_day):
    """Dollars per day paid for time that does not advance training [USD/day].

    lost = (1 − g)·cluster + spares + storage: the cluster's unproductive share, plus what
    only protects the run (hot spares, the durable checkpoint tier's storage).  The chain's
    ``lost_usd_per_day`` (:func:`models.chain.cost_step`), the Monte Carlo's lost dollars
    (:class:`models.montecarlo.SimulationResult`) and the ladder's Monte Carlo band use it.

    Parameters
    ----------
    goodput : productive share of wall time [fraction, 0..1].
    cluster_usd_per_day : the training nodes per day [USD/day].
    spare_usd_per_day : hot spares per day [USD/day].
    storage_usd_per_day : durable checkpoint storage per day [USD/day].

    Returns
    -------
    float or ndarray
        Lost dollars per day [USD/day].

    Examples
    --------
    >>> round(float(lost_usd_per_day(0.9, 1000.0, 50.0, 25.0)), 6)  # 0.1 · 1000 + 50 + 25
    175.0
    """
    return total(
        (1.0 - as_float_array(goodput)) * cluster_usd_per_day,
        spare_usd_per_day,
        storage_usd_per_day,
    )


# --------------------------------------------------------------------------- storage
@dataclass(frozen=True)
class StoragePrice:
    """One row of the dated storage price table (``data/storage_prices_2022-09.csv``)."""

    service: str
    item: str
    throughput_MBps_per_TiB: float | None
    unit: str
    usd: float
    region: str
    as_of: str
    source: str


_STORAGE_COLUMNS = [
    "service",
    "item",
    "throughput_MBps_per_TiB",
    "unit",
    "usd",
    "region",
    "as_of",
    "source",
]
FSX_SERVICE = "fsx_lustre_persistent_2"
S3_SERVICE = "s3_standard"
_STORAGE_UNITS = {
    (FSX_SERVICE, "storage"): "USD/GB-month",
    (S3_SERVICE, "storage"): "USD/GB-month",
    (S3_SERVICE, "put_requests"): "USD/1000 requests",
    (S3_SERVICE, "get_requests"): "USD/1000 requests",
}


def parse_storage_prices(text: str, origin: str = "storage prices") -> dict[tuple, StoragePrice]:
    """Parse the storage price table into ``{(service, item, throughput or None): row}``.

    Known rows: FSx for Lustre PERSISTENT_2 storage per throughput tier, S3 Standard storage,
    PUT and GET requests, each in its fixed unit.  Unknown services or items, wrong units,
    duplicates and missing S3 rows raise ValidationError naming the row.

    Parameters
    ----------
    text : str
        CSV text of the storage price table.
    origin : str
        Name used in error messages.

    Returns
    -------
    dict of tuple to StoragePrice
        Rows by (service, item, throughput [MB/s/TiB] or None); prices in each row's unit.
    """
    out: dict[tuple, StoragePrice] = {}
    records = strict_records(
        text,
        _STORAGE_COLUMNS,
        optional={"throughput_MBps_per_TiB"},
        text_columns={"service", "item", "unit", "region", "as_of", "source"},
        origin=origin,
    )
    for rowno, kw in records:
        row = StoragePrice(**kw)  # type: ignore[arg-type]
        unit = _STORAGE_UNITS.get((row.service, row.item))
        if unit is None:
            raise ValidationError(
                f"{origin} row {rowno}",
                f"{row.service!r}/{row.item!r} is not a known price; allowed: "
                + ", ".join(f"{s}/{i}" for s, i in _STORAGE_UNITS),
            )
        if row.unit != unit:
            raise ValidationError(
                f"{origin} row {rowno}, column unit", f"{row.unit!r} must be {unit!r}"
            )
        tp = row.throughput_MBps_per_TiB
        if (row.service == FSX_SERVICE) != (tp is not None):
            raise ValidationError(
                f"{origin} row {rowno}, column throughput_MBps_per_TiB",
                "is required for FSx rows and must be empty otherwise",
            )
        key = (row.service, row.item, tp)
        if key in out:
            raise ValidationError(f"{origin} row {rowno}", f"duplicate row for {key}")
        out[key] = row
    for service, item in _STORAGE_UNITS:
        if service == S3_SERVICE and (service, item, None) not in out:
            raise ValidationError(origin, f"missing the {service}/{item} row")
    return out


def load_storage_prices(path: str | Path | None = None) -> dict[tuple, StoragePrice]:
    """The storage price table at ``path``, else ``$GOODPUT_STORAGE_PRICES``, else the
    shipped dated table.

    Parameters
    ----------
    path : str or Path, optional
        Storage price CSV file.

    Returns
    -------
    dict of tuple to StoragePrice
        As :func:`parse_storage_prices`.
    """
    p = Path(path or os.environ.get("GOODPUT_STORAGE_PRICES") or DEFAULT_STORAGE_PRICES)
    try:
        st = p.stat()
    except OSError as exc:
        raise ValidationError(str(p), f"cannot be read ({exc.strerror})") from None
    return dict(_storage_cached(str(p), st.st_mtime_ns, st.st_size))


@functools.lru_cache(maxsize=8)
def _storage_cached(path: str, _mtime: int, _size: int):
    p = Path(path)
    return parse_storage_prices(read_text_file(p, MAX_TABLE_BYTES), origin=p.name)


def fsx_tiers(prices: Mapping[tuple, StoragePrice]) -> dict[float, StoragePrice]:
    """FSx for Lustre storage price rows by throughput tier [MB/s/TiB].

    Parameters
    ----------
    prices : Mapping of tuple to StoragePrice
        The storage price table (:func:`load_storage_prices`).

    Returns
    -------
    dict of float to StoragePrice
        Rows by throughput tier [MB/s/TiB].
    """
    return {float(k[2]): v for k, v in prices.items() if k[0] == FSX_SERVICE and k[1] == "storage"}


def fsx_usd_per_GB_month(prices: Mapping[tuple, StoragePrice], throughput_MBps_per_TiB) -> float:
    """FSx price of a throughput tier [USD/GB-month]; NaN when the table has no such tier.

    Parameters
    ----------
    prices : Mapping of tuple to StoragePrice
        The storage price table (:func:`load_storage_prices`).
    throughput_MBps_per_TiB : float
        FSx for Lustre throughput tier [MB/s/TiB].

    Returns
    -------
    float
        Price [USD/GB-month]; NaN for an unknown tier.
    """
    row = fsx_tiers(prices).get(float(throughput_MBps_per_TiB))
    return float("nan") if row is None else row.usd


def storage_price_inputs(prices: Mapping[tuple, StoragePrice], throughput_MBps_per_TiB) -> dict:
    """The ``storage.*`` price inputs of the evaluation chain (:mod:`models.chain`).

    Parameters
    ----------
    prices : Mapping of tuple to StoragePrice
        The storage price table (:func:`load_storage_prices`).
    throughput_MBps_per_TiB : float
        FSx for Lustre throughput tier [MB/s/TiB].

    Returns
    -------
    dict of str to float
        ``storage.fsx_usd_per_GB_month`` and ``storage.object_usd_per_GB_month`` [USD/GB-month], ``storage.object_usd_per_1000_put`` and ``_get`` [USD per 1,000 requests].
    """
    return {
        "storage.fsx_usd_per_GB_month": fsx_usd_per_GB_month(prices, throughput_MBps_per_TiB),
        "storage.object_usd_per_GB_month": prices[(S3_SERVICE, "storage", None)].usd,
        "storage.object_usd_per_1000_put": prices[(S3_SERVICE, "put_requests", None)].usd,
        "storage.object_usd_per_1000_get": prices[(S3_SERVICE, "get_requests", None)].usd,
    }


def file_system_usd_per_day(provisioned_TiB, usd_per_GB_month):
    """Daily price of a file system billed per GB-month of provisioned capacity [USD/day].

    cost = TiB · 1024 GB/TiB · price / (730 h / 24 h): FSx for Lustre capacity is provisioned
    in GiB and billed per GB-month (AWS's monthly prices are over 730 hours).

    Parameters
    ----------
    provisioned_TiB : array_like
        Provisioned capacity [TiB].
    usd_per_GB_month : array_like
        Price [USD/GB-month].

    Returns
    -------
    float or ndarray
        Cost [USD/day].

    Examples
    --------
    >>> round(file_system_usd_per_day(100.0, 0.84863), 2)  # 100 · 1024 · 0.84863 / (730/24)
    2856.98
    """
    out = (
        as_float_array(provisioned_TiB)
        * GIB_PER_TIB
        * as_float_array(usd_per_GB_month)
        / (HOURS_PER_MONTH / 24.0)
    )
    return float(out) if np.ndim(out) == 0 else out


def object_storage_usd_per_day(
    stored_GB, usd_per_GB_month, puts_per_day, usd_per_1000_put, gets_per_day, usd_per_1000_get
):
    """Daily price of object storage: GB-months kept plus PUT and GET requests [USD/day].

    cost = GB · price / (730/24) + PUTs/day · p_put/1000 + GETs/day · p_get/1000.

    Parameters
    ----------
    stored_GB : array_like
        Data kept [GB].
    usd_per_GB_month : array_like
        Storage price [USD/GB-month].
    puts_per_day, gets_per_day : array_like
        Requests [per day].
    usd_per_1000_put, usd_per_1000_get : array_like
        Request prices [USD per 1,000].

    Returns
    -------
    float or ndarray
        Cost [USD/day].

    Examples
    --------
    >>> round(object_storage_usd_per_day(12960.0, 0.023, 1e5, 0.005, 0.0, 0.0004), 4)
    10.2999
    """
    out = (
        as_float_array(stored_GB) * as_float_array(usd_per_GB_month) / (HOURS_PER_MONTH / 24.0)
        + as_float_array(puts_per_day) * as_float_array(usd_per_1000_put) / 1000.0
        + as_float_array(gets_per_day) * as_float_array(usd_per_1000_get) / 1000.0
    )
    return float(out) if np.ndim(out) == 0 else out

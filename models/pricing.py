"""The price in force: one function decides what an instance-hour costs, with its source.

Every evaluation carries the price it used (``usd_per_instance_hour``), where it comes from
(``price_source``) and its date (``price_as_of``).  A scenario may set its own price (a
negotiated, reserved or historical one) with its source and date; otherwise the catalog's
on-demand price of the instance type applies.  A price is never invented: when neither the
scenario nor the catalog has one, :func:`price_in_force` says so with a ValidationError that
asks the user for it.
"""

from __future__ import annotations

from dataclasses import dataclass

from .catalog import Instance
from .errors import ValidationError

PRICE_FIELD = "pricing.usd_per_instance_hour"


@dataclass(frozen=True)
class Price:
    """A price per instance-hour with its provenance.

    Attributes
    ----------
    usd_per_instance_hour : price of one node for one hour [USD/h].
    source : where it comes from, in words.
    as_of : the date it was valid (``YYYY-MM`` or ``YYYY-MM-DD``), or "not stated".
    origin : ``"catalog"`` (the catalog's on-demand price), ``"scenario"`` (set in the
        scenario) or ``"user"`` (entered for one comparison, e.g. ``--price NAME=USD``).
    """

    usd_per_instance_hour: float
    source: str
    as_of: str
    origin: str = "catalog"

    def describe(self) -> str:
        """One line for page headers and reports: ``$55.04/h, ... (as of 2025-06)``."""
        return f"${self.usd_per_instance_hour:,.2f}/instance-h — {self.source} (as of {self.as_of})"


def catalog_price(inst: Instance) -> Price | None:
    """The catalog's on-demand price of ``inst``, or None when the catalog has none."""
    if inst.usd_per_hour is None:
        return None
    return Price(
        float(inst.usd_per_hour), inst.source_price, inst.price_as_of or "not stated", "catalog"
    )


def price_in_force(scenario, inst: Instance) -> Price:
    """The price this scenario pays per instance-hour of ``inst`` (its own instance type).

    The scenario's ``pricing.usd_per_instance_hour`` when set (with ``pricing.price_source``
    and ``pricing.price_as_of``), else the catalog's on-demand price.
    """
    own = scenario[PRICE_FIELD]
    if own is not None:
        return Price(
            float(own),
            scenario["pricing.price_source"] or "entered in the scenario (source not stated)",
            scenario["pricing.price_as_of"] or "not stated",
            "scenario",
        )
    price = catalog_price(inst)
    if price is None:
        raise ValidationError(
            PRICE_FIELD,
            f"the catalog has no price for {inst.instance} ({inst.source_price}); "
            "enter one (a number in [0, 10000] USD/instance-h)",
        )
    return price

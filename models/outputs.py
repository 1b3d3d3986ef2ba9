"""The output registry: every figure a person or a script can see, defined once.

Each :class:`Output` has the key used in JSON, CSV/Parquet and the evaluation's metrics, a
short label, the unit the JSON value is in, how it is formatted for people, a one-line
meaning, the formula and the reference (a key of :mod:`models.references`, or the project's
own derivation in ``docs/references.md``).  Dashboard tables and tiles, CLI text, reports and
exports label and format figures from here; nothing guesses units from key names.

Formatting (:func:`format_value`): fractions are shown as percentages, goodput changes as
points, money as dollars without cents from $1,000 up and with a true minus sign, durations
with their unit (hours under one hour in minutes, whole days without decimals), whole counts
without decimals, a unit that names things in the singular after exactly one ("1 node"), and
a figure that cannot be computed (NaN, None) as "n/a" — callers that know why say so next
to it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, replace

from ._text import with_unit
from .references import REFERENCES

#: Format kinds: how a value in the JSON unit is written for people.
KINDS = (
    "percent",  # fraction 0..1 shown as 89.34%
    "points",  # fraction change shown as +4.03 points
    "points_size",  # a size in points, never signed: a loss or a swing, 0.10 points
    "usd",  # dollars: $190,340 (cents below $1,000)
    "usd_rate",  # dollars per instance-hour: $98.32/h (always cents)
    "number",  # plain number with ``decimals`` and the unit
    "count",  # whole things: 2,000 nodes
    "whole",  # whole things a derivation can leave fractional: 80 layers, 15.6 when not whole
    "bool",  # 1/0 shown as yes/no
    "flops",  # 3.79 × 10²⁵ FLOP
    "text",  # a word or sentence (price source, pricing model)
    "pvalue",  # a probability from a test: 0.034, or "< 0.001"
)

#: The smallest percentage written in digits: below it a percentage reads "< 0.0001%" (a
#: goodput of 0.000000026%, nine zeros, was cut off in a tile and said nothing more).
PERCENT_FLOOR = 1e-4

#: Units whose whole values are written without decimals, as counts are: "98 days", "100 TiB"
#: beside "2.4 TiB" (:func:`format_value`).
WHOLE_UNITS = ("days", "TiB")

#: digits and minus as superscripts, for powers of ten ("3.79 × 10²⁵ FLOP", as the
#: instance tables' "Cost per 10¹⁸ useful FLOP")
_SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


@dataclass(frozen=True)
class Output:
    """One reported figure.

    Attributes
    ----------
    key : JSON key; its suffix names the unit (``_minutes``, ``_usd_per_day`` ...).
    label : short human label (table header, tile title).
    unit : unit of the JSON value ("fraction", "USD/day", "min", "" ...).
    kind : one of :data:`KINDS`.
    meaning : one line: what the figure is.
    formula : how it is computed, in symbols (shown in the UI's help).
    reference : key of :data:`models.references.REFERENCES`, or ``"derived"`` for the
        project's own derivation (``docs/references.md``), or ``""`` for plain bookkeeping.
    decimals : decimals for ``number`` kinds.
    computed_by : dotted name of the function that computes the figure
        (``"models.compute.step_seconds"``); every output added from now on names it.
    words : for a figure that codes a choice (0, 1, 2 ...), the word each code is written
        as in text (the JSON keeps the number); empty otherwise.
    """

    key: str
    label: str
    unit: str
    kind: str
    meaning: str
    formula: str = ""
    reference: str = ""
    decimals: int = 2
    computed_by: str = ""
    words: tuple[str, ...] = ()

    def help(self) -> str:
        """Tooltip text: meaning, formula and source."""
        parts = [self.meaning]
        if self.formula:
            parts.append(f"Formula: {self.formula}.")
        src = reference_text(self.reference)
        if src:
            parts.append(f"Source: {src}.")
        return " ".join(parts)

    def label_says_period(self) -> bool:
        """Whether the label names the unit's period ("Lost per day" of USD/day, "Failures
        per day" of per day): a header or tile then writes the unit without it."""
        per = self.unit.split("/", 1)[1] if "/" in self.unit else self.unit.removeprefix("per ")
        return bool(per) and f"per {per}" in self.label.lower()

    def header(self) -> str:
        """Table header with the display unit, named once: ``Step time (s)``, ``Lost per
        day ($)`` (the label says per day: not ``Lost per day ($/day)``)."""
        unit = display_unit(self)
        amount = unit.rsplit("/", 1)[0]
        if "/" in unit and amount and self.label_says_period():
            unit = amount  # "Lost per day ($)", "Lost per day (min)"
        return f"{self.label} ({unit})" if unit else self.label


def reference_text(ref: str) -> str:
    """How a ``source``/reference key reads in text: ``Citation (where)``.

    Parameters
    ----------
    ref : str
        A key of :data:`models.references.REFERENCES`, ``"derived"`` or ``""``.

    Returns
    -------
    str
        ``Citation (where)``, the note on our own derivations, or ``""``.

    Examples
    --------
    >>> reference_text("derived")
    'our derivation, docs/references.md'
    """
    if not ref:
        return ""
    if ref == "derived":
        return "our derivation, docs/references.md"
    r = REFERENCES[ref]
    return f"{r.citation} ({r.where})"


def display_unit(o: Output) -> str:
    """Unit shown in headers: % for fractions, $ for dollars, else the JSON unit.

    Parameters
    ----------
    o : Output
        A registry entry.

    Returns
    -------
    str
        The unit for column headers (``"%"``, ``"$"`` or the entry's unit).
    """
    if o.kind == "percent":  # a rate says per what: "% per node-day" (QA pass 19)
        return "% " + o.unit if o.unit.startswith("per ") else "%"
    if o.kind in ("points", "points_size"):
        return "points"
    if o.kind in ("usd", "usd_rate"):
        return "$" + o.unit[3:] if o.unit.startswith("USD") else "$"
    if o.kind in ("bool", "text", "pvalue"):
        return ""
    return o.unit


def _usd(value: float, cents: bool | None = None) -> str:
    a = abs(value)
    if a < 0.005:
        return "$0"
    sign = "−" if value < 0 else ""
    if cents is None:
        cents = a < 1000
    return f"{sign}${a:,.2f}" if cents else f"{sign}${a:,.0f}"


def _clean_zero(text: str) -> str:
    """'-0.00' and '−0.00' read as 0."""
    stripped = text.lstrip("+−-")
    if (
        stripped
        and all(c in "0.,%$ " or c.isalpha() for c in stripped)
        and not any(c in "123456789" for c in stripped)
    ):
        return stripped
    return text


def two_significant_digits(a: float) -> str:
    """A positive amount too small for its usual decimals, in two significant digits
    without trailing zeros: 0.0030 reads "0.003", 0.000049 "0.000049".

    Parameters
    ----------
    a : float
        The amount, > 0 [any unit].

    Returns
    -------
    str
        The digits.

    Examples
    --------
    >>> two_significant_digits(0.003), two_significant_digits(0.0261)
    ('0.003', '0.026')
    """
    d = 1 - math.floor(math.log10(a))
    return f"{a:.{d}f}".rstrip("0").rstrip(".") if d > 0 else f"{a:.0f}"


def format_value(key: str | Output, value, *, unit: bool = True, signed: bool = False) -> str:
    """``value`` (in the JSON unit of ``key``) as people read it; "n/a" when unknown.

    ``unit=False`` omits the unit (for table cells under a header that states it);
    ``signed=True`` writes a + on positive numbers (deltas).

    Parameters
    ----------
    key : str or Output
        Output key or registry entry, for the kind, unit and decimals.
    value : float or None
        The value in the JSON unit of ``key``.
    unit : bool
        Whether to write the unit.
    signed : bool
        Whether to write a + on positive numbers.

    Returns
    -------
    str
        The value as people read it.

    Examples
    --------
    >>> format_value("goodput", 0.9123)
    '91.23%'
    >>> format_value("nodes", 1), format_value("nodes", 2)
    ('1 node', '2 nodes')
    >>> format_value("model_layers", 80.0), format_value("micro_batches_per_step", 15.625)
    ('80', '15.6')
    >>> format_value("mtbf_hours", 0.02), format_value("block_days", 98.0)
    ('1.2 min', '98 days')
    >>> format_value("file_system_TiB", 100.0), format_value("file_system_TiB", 2.4)
    ('100 TiB', '2.4 TiB')
    >>> format_value("goodput", 0.00003), format_value("goodput", 2.6e-10)
    ('0.003%', '< 0.0001%')
    """
    o = key if isinstance(key, Output) else OUTPUTS[key]
    if value is None:
        return "n/a"
    if o.kind == "text":
        return str(value)
    try:
        x = float(value)
    except (TypeError, ValueError):
        return str(value)
    if math.isnan(x):
        return "n/a"
    if math.isinf(x):
        return "unbounded" if x > 0 else "−unbounded"
    if o.words and x.is_integer() and 0 <= x < len(o.words):
        return o.words[int(x)]
    if o.kind == "bool":
        return "yes" if x else "no"
    if o.kind == "percent":
        return _percent(x, o.decimals, signed) + ("%" if unit else "")
    if o.kind in ("points", "points_size"):
        sign = "+" if o.kind == "points" or signed else ""
        text = _clean_zero(f"{x * 100:{sign}.2f}".replace("-", "−"))
        if o.kind == "points_size" and 0 < abs(x * 100) < 0.005:  # a size, not "0.00 points"
            text = ("−" if x < 0 else sign) + two_significant_digits(abs(x * 100))
        return text + (" points" if unit else "")
    if o.kind == "usd_rate":
        text = _usd(x, cents=True)
        if signed and x > 0:  # a change of price reads "+$15.61/h", as other changes do
            text = "+" + text
        return text + ("/h" if unit else "")
    if o.kind == "usd":
        # a flow per day, month or year in whole dollars, whatever its size: a column of
        # them read −$180.22 beside +$234,664
        text = _usd(x, cents=False if o.unit in ("USD/day", "USD/month", "USD/year") else None)
        if signed and x > 0:
            text = "+" + text
        if unit and o.unit.startswith("USD/"):
            text += "/" + o.unit[4:]
        return _clean_zero(text) if abs(x) < 0.005 else text
    if o.kind == "pvalue":
        return f"{x:.3g}" if x >= 0.001 else "< 0.001"
    if o.kind == "flops":
        if x == 0:
            return "0 FLOP" if unit else "0"
        exp = math.floor(math.log10(abs(x)))
        text = f"{x / 10**exp:.2f} × 10{str(exp).translate(_SUPERSCRIPT)}"
        return text + (" FLOP" if unit else "")
    if o.kind == "number" and o.unit == "h" and unit and 0 < abs(x) < 1:
        # "1.2 min", not "0.02 h": a decimal fewer than the hours' (more where format_apart
        # asks for them)
        return _under_an_hour(x, signed, max(1, o.decimals - 1))
    # a count, and a whole value of a count a derivation can leave fractional, of days or
    # of a file system's size, without decimals: "80" layers, "98 days", "100 TiB" (not
    # "80.0", "98.00 days", "100.0 TiB"; a size that is not whole keeps its decimal, 2.4 TiB)
    whole = (o.kind == "whole" or o.unit in WHOLE_UNITS) and x.is_integer()
    d = 0 if o.kind == "count" or whole else o.decimals
    text = f"{x:+,.{d}f}" if signed else f"{x:,.{d}f}"
    if o.kind == "number" and 0 < abs(x) < 0.5 * 10.0**-d:  # 0.002 per day is not "0.00"
        text = ("−" if x < 0 else "+" if signed else "") + two_significant_digits(abs(x))
    text = _clean_zero(text.replace("-", "−"))
    return with_unit(text, o.unit) if unit and o.unit and o.unit != "fraction" else text


def _percent(x: float, d: int, signed: bool) -> str:
    """A fraction ``x`` as a percentage with ``d`` decimals, no sign of '%': under
    :data:`PERCENT_FLOOR` "< 0.0001" (2.6e-08% is no figure), under the decimals two
    significant digits (0.003, not 0.00)."""
    if 0 < abs(x * 100) < PERCENT_FLOOR:
        text = f"< {PERCENT_FLOOR:g}" if x > 0 else f"> −{PERCENT_FLOOR:g}"
    elif 0 < abs(x * 100) < 0.5 * 10.0**-d:
        sign = "−" if x < 0 else "+" if signed else ""
        text = sign + two_significant_digits(abs(x * 100))
    else:
        text = f"{x * 100:+.{d}f}" if signed else f"{x * 100:.{d}f}"
    return _clean_zero(text.replace("-", "−"))


def _under_an_hour(hours: float, signed: bool, decimals: int = 1) -> str:
    """A duration under an hour [h] in minutes ("1.2 min"), under a minute in seconds, with
    ``decimals`` decimals."""
    x, u = (hours * 60, "min") if abs(hours) * 60 >= 1 else (hours * 3600, "s")
    text = f"{x:+,.{decimals}f}" if signed else f"{x:,.{decimals}f}"
    return f"{_clean_zero(text.replace('-', '−'))} {u}"


def format_usd(value: float, per: str | None = None, *, signed: bool = False) -> str:
    """Dollars as people read them: $190,340/day, −$8,360, $98.32 (cents below $1,000).

    Parameters
    ----------
    value : float
        Amount [USD].
    per : str, optional
        Period written after a slash (``"day"``, ``"h"`` ...).
    signed : bool
        Whether to write a + on positive amounts.

    Returns
    -------
    str
        The amount as people read it.

    Examples
    --------
    >>> format_usd(190340.4, "day"), format_usd(-8360)
    ('$190,340/day', '−$8,360')
    """
    if value is None or not math.isfinite(float(value)):
        return "n/a"
    text = _usd(float(value))
    if signed and float(value) > 0:
        text = "+" + text
    return text + (f"/{per}" if per else "")


#: Amounts from which a metric tile writes dollars in millions (:func:`format_usd_compact`):
#: "$12,345,678" no longer fits a quarter of the page at 1024 px.
COMPACT_USD_FROM = 1e7


def format_usd_compact(value: float, per: str | None = None) -> str:
    """Dollars in millions, billions or trillions from :data:`COMPACT_USD_FROM` on ($436.4M,
    −$1.23B), for metric tiles; smaller amounts as :func:`format_usd` writes them.

    Parameters
    ----------
    value : float
        Amount [USD].
    per : str, optional
        Period written after a slash (``"day"``, ``"h"`` ...).

    Returns
    -------
    str
        The amount, three or four significant figures above the threshold.

    Examples
    --------
    >>> format_usd_compact(436357575.05), format_usd_compact(-1.2345e9, "run")
    ('$436.4M', '−$1.23B/run')
    >>> format_usd_compact(4719360), format_usd_compact(999.96e6), format_usd_compact(9.996e9)
    ('$4,719,360', '$1.00B', '$10.0B')
    """
    if value is None or not math.isfinite(float(value)) or abs(value) < COMPACT_USD_FROM:
        return format_usd(value, per)
    a = abs(float(value))
    for div, suffix in ((1e6, "M"), (1e9, "B"), (1e12, "T")):
        x = a / div
        # the unit of the figure as rounded ($999.96M is $1.00B, $9.996B is $10.0B)
        digits = f"{x:,.1f}" if round(x, 2) >= 10 else f"{x:.2f}"
        if suffix == "T" or float(digits.replace(",", "")) < 1000:
            break
    return ("−" if value < 0 else "") + f"${digits}{suffix}" + (f"/{per}" if per else "")


def format_savings(value: float, per: str = "day") -> str:
    """A saving as words: "saves $190,340/day" or "costs $8,360/day" (never "$-8,360").

    Parameters
    ----------
    value : float
        Saving [USD per ``per``]; negative for a cost.
    per : str
        Period of the saving.

    Returns
    -------
    str
        ``"saves $X/per"`` or ``"costs $X/per"``.

    Examples
    --------
    >>> format_savings(-8360), format_savings(757.73), format_savings(0.4)
    ('costs $8,360/day', 'saves $758/day', 'saves $0.40/day')
    """
    if value is None or not math.isfinite(float(value)):
        return "n/a"
    v = float(value)
    verb = "saves" if v >= 0 else "costs"
    # whole dollars, as every amount per day, month or year (a column of savings mixed
    # "saves $757.73" with "costs $3,039"); cents only under a dollar
    return f"{verb} {_usd(abs(v), cents=abs(v) < 1.0)}/{per}"


def format_range(key: str | Output, lo, hi, *, unit: bool = True) -> str:
    """An interval as every page, report and command writes it: the two ends in the
    registry's format joined by an en dash, the unit once after the range (dollars keep
    their $ at both ends).

    Parameters
    ----------
    key : str or Output
        Output key or registry entry of both ends.
    lo, hi : float
        The ends, in the JSON unit of ``key``.
    unit : bool
        Whether to write the unit after the range (a header or label that names it: no).

    Returns
    -------
    str
        ``lo–hi`` and the unit.

    Examples
    --------
    >>> format_range("goodput", 0.7519, 0.8406), format_range("time_to_train_days", 17.1, 30.5)
    ('75.19–84.06%', '17.1–30.5 days')
    >>> format_range("lost_usd_per_day", 187959.2, 290908.4)
    '$187,959–$290,908/day'
    >>> format_range("mtbf_hours", 0.3333, 0.4717), format_range("mtbf_hours", 0.75, 1.5)
    ('20.0–28.3 min', '45.0 min–1.50 h')
    """
    o = key if isinstance(key, Output) else OUTPUTS[key]
    if unit and _in_own_unit(o, lo, hi):
        # hours that read in minutes or seconds below an hour: each end with the unit it
        # reads in ("20.0–28.9 min", "45.0 min–1.50 h"), never a bare hour under a "min"
        low, high = format_value(o, lo), format_value(o, hi)
        if low == high:
            return high
        low_num, low_unit = low.rsplit(" ", 1)
        return f"{low_num}–{high}" if high.endswith(" " + low_unit) else f"{low}–{high}"
    low = format_value(o, lo, unit=False)
    if low == format_value(o, hi, unit=False):  # both ends read alike: one figure
        return format_value(o, hi, unit=unit)
    return f"{low}–{format_value(o, hi, unit=unit)}"


def _in_own_unit(o: Output, lo, hi) -> bool:
    """Whether a range of ``o`` has an end that :func:`format_value` writes in a unit of its
    own: hours under an hour, in minutes or seconds (QA pass 26: "0.3–28.3 min" for
    20.0-28.3 min, the low end written in hours)."""
    if not (o.kind == "number" and o.unit == "h"):
        return False
    ends = [x for x in (lo, hi) if x is not None and math.isfinite(float(x))]
    return any(0 < abs(float(x)) < 1 for x in ends)


def format_apart(key: str, value: float, others: Iterable[float]) -> tuple[str, list[str]]:
    """``value`` and ``others`` in the registry's format of ``key``, with more decimals (up to
    five) only where one of ``others`` would read the same as ``value`` without being it: a
    failure rate and the bounds of the range around it ("0.19%", "0.04%", "0.68%"), a
    fitted shape and its interval ("0.998", "0.995", "1.002", not "1.00" three times).

    Parameters
    ----------
    key : str
        An output key (a failure rate per node-day, a fitted shape ...).
    value : float
        The figure the others are read against [the key's JSON unit].
    others : iterable of float
        Further figures of the same key [the key's JSON unit].

    Returns
    -------
    tuple of (str, list of str)
        The text of ``value`` and of each of ``others``.

    Examples
    --------
    >>> format_apart("node_failure_rate_per_day", 0.0019, [0.000372, 0.006765])
    ('0.19%', ['0.04%', '0.68%'])
    >>> format_apart("node_failure_rate_per_day", 0.0019, [0.00191])
    ('0.190%', ['0.191%'])
    >>> format_apart("fitted_weibull_shape", 0.9984, [0.9951, 1.0021])
    ('0.998', ['0.995', '1.002'])
    """
    bounds = list(others)
    o = OUTPUTS[key]
    texts = [format_value(o, x) for x in [value, *bounds]]
    for d in range(o.decimals + 1, 6):
        if not any(t == texts[0] and x != value for t, x in zip(texts[1:], bounds, strict=True)):
            break
        more = replace(o, decimals=d)
        texts = [format_value(more, x) for x in [value, *bounds]]
    return texts[0], texts[1:]


#: What a figure of the whole run reads where the run does not finish in practice
#: (:func:`finishes_in_practice`): its digits (64,820,175,270.2 days, $75,270.2T) say nothing.
NOT_IN_PRACTICE = "does not finish in practice"

#: Figures of the whole run, which grow as 1/goodput: they read :data:`NOT_IN_PRACTICE`
#: where the run does not finish in practice (the compute alone, compute_days, does not).
RUN_FIGURES = frozenset(
    {
        "time_to_train_days",
        "time_to_train_days_low",
        "time_to_train_days_high",
        "time_to_train_days_p10",
        "time_to_train_days_p90",
        "time_to_train_hours",
        "cost_to_train_usd",
        "cost_to_train_usd_low",
        "cost_to_train_usd_high",
        "usd_per_1e18_useful_flops",
        "cost_to_train_compute_usd",
        "cost_to_train_bubble_usd",
        "cost_to_train_communication_usd",
        "cost_within_mfu_bubble_usd",
        "cost_within_mfu_communication_usd",
        "cost_to_train_goodput_loss_usd",
        "cost_to_train_spares_usd",
        "cost_to_train_storage_usd",
        "total_cost_to_train_usd",
        "total_cost_to_train_usd_low",
        "total_cost_to_train_usd_high",
        "lost_usd_per_run",
        "time_to_finish_analytic_days",
        "failures_analytic",
        "lost_analytic_usd",
    }
)


def finishes_in_practice(goodput: float) -> bool:
    """Whether a run finishes in practice: its goodput is at least
    :data:`models.evaluate.IMPRACTICAL_GOODPUT` (1% of the paid time), the bound below which
    :func:`models.evaluate.progress_note` says the job barely advances.  An unknown goodput
    (NaN: no step time) is left to the figures' own "n/a".

    Parameters
    ----------
    goodput : float
        Goodput [fraction].

    Returns
    -------
    bool
        False below the bound, True otherwise.

    Examples
    --------
    >>> finishes_in_practice(0.8092), finishes_in_practice(2.6e-10), finishes_in_practice(0.0)
    (True, False, False)
    """
    from .evaluate import IMPRACTICAL_GOODPUT

    g = float(goodput) if goodput is not None else math.nan
    return not math.isfinite(g) or g >= IMPRACTICAL_GOODPUT


def format_run_figure(key: str, value, goodput: float, *, unit: bool = True) -> str:
    """:func:`format_value` of a figure, but :data:`NOT_IN_PRACTICE` for a figure of the whole
    run (:data:`RUN_FIGURES`) where the run does not finish in practice.

    Parameters
    ----------
    key : str
        Output key.
    value : float
        The figure, in the JSON unit of ``key``.
    goodput : float
        The run's goodput [fraction] (:func:`finishes_in_practice`).
    unit : bool
        Whether to write the unit.

    Returns
    -------
    str
        The figure as people read it.

    Examples
    --------
    >>> format_run_figure("time_to_train_days", 6.48e10, 2.6e-10)
    'does not finish in practice'
    >>> format_run_figure("time_to_train_days", 21.02, 0.8092)
    '21.0 days'
    """
    o = output(key)  # an unregistered key names itself in the KeyError
    if key in RUN_FIGURES and not finishes_in_practice(goodput):
        return NOT_IN_PRACTICE
    return format_value(o, value, unit=unit)


#: The failure classes and scale-up domains (docs/references.md#failure-domains), shown
#: wherever a failure class beyond node failures or a domain spare is present
#: (:func:`failure_domain_keys`): the class rates that make up the failures per day, the
#: replacement per failure over every class, the nodes a failure idles and the spare pools.
FAILURE_DOMAIN_KEYS = (
    "node_failures_per_day",
    "fabric_failures_per_day",
    "domain_failures_per_day",
    "switch_failures_per_day",
    "job_interruptions_per_day",
    "replacement_minutes_per_failure",
    "nodes_idled_per_failure",
    "probability_no_domain_spare",
    "probability_no_spare_domain",
)
#: Class rates of :data:`FAILURE_DOMAIN_KEYS` left out where they are 0 (the domain events'
#: rate always shows beside the node failures')
_OPTIONAL_CLASSES = frozenset(
    {"fabric_failures_per_day", "switch_failures_per_day", "job_interruptions_per_day"}
)


def failure_domain_keys(metrics) -> tuple[str, ...]:
    """The figures of :data:`FAILURE_DOMAIN_KEYS` an evaluation shows: all of them (a class
    rate that is 0 left out) where domain or switch events, job-level interruptions or domain
    spares make the replacement per failure a mix of classes; none otherwise, where the
    replacement per failure is the replacement stage and the failures are node failures.

    Parameters
    ----------
    metrics : Mapping
        An evaluation's figures.

    Returns
    -------
    tuple of str
        Output keys, in :data:`FAILURE_DOMAIN_KEYS`' order.

    Examples
    --------
    >>> failure_domain_keys({"domain_failures_per_day": 0.0})
    ()
    """

    def value(key: str, default: float) -> float:
        x = float(metrics.get(key, default))
        return x if math.isfinite(x) else default

    classes = any(
        value(k, 0.0) > 0
        for k in ("domain_failures_per_day", "switch_failures_per_day", "job_interruptions_per_day")
    )
    spares = any(
        value(k, 1.0) < 1 for k in ("probability_no_domain_spare", "probability_no_spare_domain")
    )
    if not (classes or spares):
        return ()
    return tuple(
        k
        for k in FAILURE_DOMAIN_KEYS
        if k in metrics and not (k in _OPTIONAL_CLASSES and not value(k, 0.0) > 0)
    )


# --------------------------------------------------------------------------- registry
def _o(
    key,
    label,
    unit,
    kind,
    meaning,
    formula="",
    reference="",
    decimals=2,
    computed_by="",
    words=(),
) -> Output:
    return Output(key, label, unit, kind, meaning, formula, reference, decimals, computed_by, words)


FAILURE_OUTPUTS: tuple[Output, ...] = (
    _o(
        "node_failures_per_day",
        "Node failures per day",
        "per day",
        "number",
        "Expected job-stopping node failures per day of the whole job.",
        "λ_node = N · r (N nodes, r failures per node-day)",
        "derived",
        computed_by="models.chain.failure_process",
    ),
    _o(
        "fabric_failures_per_day",
        "Fabric aborts per day",
        "per day",
        "number",
        "Fabric (link/switch) events per day whose stall outlasts the collective timeout and "
        "so abort the job.",
        "events/day if reroute > timeout, else 0",
        "pytorch_pg",
        computed_by="models.chain.failure_process",
    ),
    _o(
        "failures_per_day",
        "Failures per day",
        "per day",
        "number",
        "All job-stopping failures per day: node failures, fabric aborts, domain and switch "
        "events and job-level interruptions.",
        "λ = N · r + fabric aborts/day + λ_D + λ_W + λ_J + λ_fs (nodes found running slow, "
        "evicted like failed ones)",
        "derived",
        2,  # as every rate per day (node failures, fabric aborts); evaluate prints it so too
        computed_by="models.chain.failure_process",
    ),
    _o(
        "mtbf_hours",
        "Job MTBF",
        "h",
        "number",
        "Mean time between job-stopping failures.",
        "M = 24 / λ",
        "derived",
        computed_by="models.chain.failure_process",
    ),
    _o(
        "probability_no_spare",
        "No hot spare free",
        "fraction",
        "percent",
        "Probability that a failure reaching the hot-spare pool finds too few hot spares "
        "free: none for a single-node failure, fewer than g for one that takes out g nodes (1 "
        "without hot spares). In-domain spares and spare domains stand before the pool "
        "(probability_no_domain_spare, probability_no_spare_domain).",
        "mix of P(Poisson(ν·S/24) ≥ s) and P(Poisson(ν·S/24) ≥ s − g + 1), ν nodes sent to "
        "repair per day; M/G/∞ repair pool, PASTA",
        "kleinrock1975",
        computed_by="models.chain.failure_process",
    ),
    _o(
        "replacement_minutes_expected",
        "Replacement from the hot-spare pool",
        "min",
        "number",
        "Mean time the hot-spare pool takes to give back a working node: a swap when a hot "
        "spare is free, else the replacement path. Node failures reach the pool only when no "
        "in-domain spare and no spare domain is free; replacement_minutes_per_failure is the "
        "mean over every failure.",
        "p · t_replace + (1 − p) · t_swap",
        "derived",
        1,
        computed_by="models.chain.failure_process",
    ),
    _o(
        "fabric_events_per_day",
        "Fabric events per day",
        "per day",
        "number",
        "Link or switch events per day that stall collectives until traffic is rerouted.",
        "input network.fabric_events_per_day",
        computed_by="models.chain.failure_process",
    ),
    _o(
        "spot_interruptions_per_day",
        "Spot interruptions per day",
        "per day",
        "number",
        "Spot instances reclaimed per day of the whole job (0 unless the pricing model is spot).",
        "λ_spot = N · r_spot",
        "aws_spot_advisor",
        computed_by="models.chain.failure_process",
    ),
    _o(
        "fabric_stall_minutes_per_day",
        "Fabric stall",
        "min/day",
        "number",
        "Wall time per day the job waits for reroutes that finish inside the timeout.",
        "events/day × reroute time (when reroute ≤ timeout)",
        "derived",
        computed_by="models.chain.failure_process",
    ),
    _o(
        "domain_failures_per_day",
        "Domain events per day",
        "per day",
        "number",
        "Events per day that take a whole scale-up domain (rack, UltraServer) of the job out "
        "of service until repaired.",
        "λ_D = D · r_D (D domains of the job, r_D events per domain-day)",
        "derived",
        computed_by="models.chain.failure_process",
    ),
    _o(
        "switch_failures_per_day",
        "Switch events per day",
        "per day",
        "number",
        "Events per day that take a scale-out switch and every node behind it out of service.",
        "λ_W = W · r_W (W = ⌈D · nodes per domain / nodes per switch⌉ switches)",
        "derived",
        computed_by="models.chain.failure_process",
    ),
    _o(
        "job_interruptions_per_day",
        "Job-level interruptions per day",
        "per day",
        "number",
        "Interruptions per day that belong to the job, not to its nodes (software, user, "
        "data): they do not grow with the node count and send no node to repair.",
        "λ_J (reliability.job_interruptions_per_day)",
        "kokolis2024",
        computed_by="models.chain.failure_process",
    ),
    _o(
        "nodes_per_domain",
        "Nodes per scale-up domain",
        "nodes",
        "count",
        "Nodes in one scale-up domain (NVLink rack, UltraServer), in-domain spares included.",
        "cluster.nodes_per_domain, or ⌊scale-up accelerators / accelerators per node⌋",
        "derived",
        computed_by="models.chain.domain_layout",
    ),
    _o(
        "scaleup_domains",
        "Scale-up domains of the job",
        "domains",
        "count",
        "Scale-up domains the job occupies.",
        "D = ⌈N / (nodes per domain − in-domain spares)⌉",
        "derived",
        computed_by="models.chain.domain_layout",
    ),
    _o(
        "probability_no_domain_spare",
        "Node failure finds no in-domain spare",
        "fraction",
        "percent",
        "Probability that a node failure finds every spare node of its domain in repair "
        "(1 without in-domain spares).",
        "Erlang B(s_d, (λ_node / D) · repair time)",
        "derived",
        computed_by="models.reliability.erlang_b",
    ),
    _o(
        "probability_no_spare_domain",
        "No spare domain free",
        "fraction",
        "percent",
        "Probability that a domain event (or a node failure with no in-domain spare) finds "
        "no whole spare domain free (1 without spare domains).",
        "Erlang B(S_D, λ_node·B_in·S + λ_D·S_D,repair)",
        "derived",
        computed_by="models.reliability.erlang_b",
    ),
    _o(
        "nodes_idled_per_failure",
        "Nodes idled per failure",
        "nodes",
        "number",
        "Job nodes taken out per failure, on average: a node failure idles its parallel "
        "group when its domain has no free spare, a domain event the job's nodes of the "
        "domain, a switch event the job's nodes behind it (in-domain spares are not the "
        "job's).",
        "Σ_c (λ_c/λ) · nodes_c; node: 1 − B_in + B_in · group nodes; domain: n_d; switch: "
        "nodes per switch · n_d / npd",
        "derived",
        decimals=1,
        computed_by="models.chain.failure_process",
    ),
    _o(
        "fail_slow_events_per_day",
        "Fail-slow events per day",
        "per day",
        "number",
        "Nodes per day that turn slow without failing; each slows the job until it is "
        "evicted (then it counts among the failures).",
        "λ_fs = N · r_fs",
        "derived",
        computed_by="models.chain.failure_process",
    ),
    _o(
        "fail_slow_minutes_per_day",
        "Fail-slow loss",
        "min/day",
        "number",
        "Full-speed minutes per day lost to fail-slow nodes before they are evicted.",
        "λ_fs · slowdown · time to detect",
        "derived",
        computed_by="models.chain.failure_process",
    ),
    _o(
        "comm_init_minutes",
        "Communicator set-up per restart",
        "min",
        "number",
        "Restart stage that grows with the job: communicator (process group, NCCL) set-up, "
        "c seconds per accelerator (0: inside the restart time).",
        "c · G / 60",
        "megascale2024",
        computed_by="models.recovery.restart_with_retries_minutes",
    ),
    _o(
        "restart_attempts_expected",
        "Restart attempts per recovery",
        "",
        "number",
        "Restart attempts a recovery makes on average when an attempt succeeds with "
        "probability recovery.retry_success_fraction.",
        "1 / q",
        "derived",
        computed_by="models.recovery.restart_with_retries_minutes",
    ),
    _o(
        "replacement_minutes_per_failure",
        "Replacement per failure (all classes)",
        "min",
        "number",
        "What replacement adds to a recovery, over every failure class: the classes' times "
        "weighted by their share of failures, since repairs run side by side (a failure "
        "during a recovery starts its own repair beside the one in progress, and the job "
        "waits for both).",
        "R = Σ_c w_c R_c",
        "derived",
        1,  # a duration in minutes, as every recovery stage (87.4 min, not 87.40)
        computed_by="models.reliability.overlapping_repairs_minutes",
    ),
)

CHECKPOINT_OUTPUTS: tuple[Output, ...] = (
    _o(
        "checkpoint_interval_minutes",
        "Checkpoint interval",
        "min",
        "number",
        "Compute time between level-1 checkpoints used in this scenario.",
        "τ (input, or the exact optimum when set to 'optimal')",
        "",
        1,
        computed_by="models.chain.checkpoint_plan",
    ),
    _o(
        "optimal_checkpoint_interval_minutes",
        "Optimal interval (exact)",
        "min",
        "number",
        "Interval that maximises Daly's exact goodput for the level-1 checkpoints.",
        "τ* = M·[1 + W₀(−e^{−(1+δ/M)})] (Lambert W; independent of R)",
        "daly2006",
        1,
        computed_by="models.chain.checkpoint_plan",
    ),
    _o(
        "young_interval_minutes",
        "Young interval",
        "min",
        "number",
        "Young's first-order optimum.",
        "τ = √(2δM)",
        "young1974",
        1,
        computed_by="models.chain.checkpoint_plan",
    ),
    _o(
        "daly_first_order_interval_minutes",
        "Daly first-order interval",
        "min",
        "number",
        "Daly's first-order optimum.",
        "τ = √(2δ(M + R))",
        "daly2006",
        1,
        computed_by="models.chain.checkpoint_plan",
    ),
    _o(
        "daly_higher_order_interval_minutes",
        "Daly higher-order interval",
        "min",
        "number",
        "Daly's higher-order optimum (his eq. 37).",
        "τ = √(2δM)[1 + ⅓√(δ/2M) + (δ/2M)/9] − δ for δ < 2M, else M",
        "daly2006",
        1,
        computed_by="models.chain.checkpoint_plan",
    ),
    _o(
        "durable_interval_minutes",
        "Durable interval",
        "min",
        "number",
        "Compute time between checkpoints on the durable tier (equals the interval for "
        "durable-only strategies).",
        "input checkpoint.durable_interval_minutes (two-level), else τ",
        "",
        1,
        computed_by="models.chain.checkpoint_plan",
    ),
    _o(
        "optimal_durable_interval_minutes",
        "Optimal durable interval",
        "min",
        "number",
        "Durable-tier interval that maximises goodput for the failures that fall back to it.",
        "T₂* = M₂·[1 + W₀(−e^{−(1+C₂/M₂)})], at least the write time and T₁",
        "moody2010",
        1,
        computed_by="models.chain.checkpoint_plan",
    ),
    _o(
        "checkpoint_overhead_fraction",
        "Checkpoint save overhead",
        "fraction",
        "percent",
        "Share of failure-free wall time spent in blocking checkpoint saves.",
        "1 − 1/((1 + δ₁/τ₁)(1 + δ₂/τ₂))",
        "derived",
        computed_by="models.chain.goodput_step",
    ),
    _o(
        "save_seconds",
        "Blocking save (level 1)",
        "s",
        "number",
        "Time training pauses for each level-1 checkpoint.",
        "measured input, or tier model: t₀ + shard / min(b_node, B_agg/N)",
        "derived",
        1,
        computed_by="models.chain.checkpoint_plan",
    ),
    _o(
        "restore_seconds",
        "Restore (level 1)",
        "s",
        "number",
        "Time to load the level-1 checkpoint on every node after a failure.",
        "measured input, or tier model read time",
        "derived",
        1,
        computed_by="models.chain.checkpoint_plan",
    ),
    _o(
        "durable_save_seconds",
        "Blocking durable save",
        "s",
        "number",
        "Time training pauses for each durable-tier checkpoint of a two-level strategy "
        "(0 when written asynchronously).",
        "tier write time (sync) or 0 (async)",
        "derived",
        1,
        computed_by="models.chain.checkpoint_plan",
    ),
    _o(
        "durable_write_seconds",
        "Durable write",
        "s",
        "number",
        "Time to write one checkpoint to the durable tier.",
        "t₀ + shard / min(b_node, B_agg/N)",
        "aws_fsx_throughput",
        1,
        computed_by="models.chain.checkpoint_plan",
    ),
    _o(
        "durable_restore_seconds",
        "Durable restore",
        "s",
        "number",
        "Time to read the checkpoint back from the durable tier after a fallback.",
        "t₀ + shard / min(b_node, B_agg/N)",
        "derived",
        1,
        computed_by="models.chain.checkpoint_plan",
    ),
    _o(
        "fallback_fraction",
        "Node failures falling back",
        "fraction",
        "percent",
        "Share of node failures after which some shard has no level-1 copy left, so the job "
        "restores from the durable tier (domain events are counted in the fallbacks per "
        "day and the share of all failures).",
        "φ = (1 − f_c)·h·q^(m−1) + f_c·P_c",
        "gemini2023",
        computed_by="models.chain.checkpoint_plan",
    ),
    _o(
        "fallback_failures_per_day",
        "Fallbacks per day",
        "per day",
        "number",
        "Failures per day that restore from the durable tier.",
        "λ₂ = φ · λ",
        "derived",
        2,  # as every rate per day (a rate too small for them keeps two digits: 0.004)
        computed_by="models.chain.checkpoint_plan",
    ),
    _o(
        "fallback_share_of_failures",
        "All failures falling back",
        "fraction",
        "percent",
        "Share of all failures, domain events included, that restore from the durable tier: "
        "with adjacent replicas a domain event takes every copy on its nodes.",
        "λ₂ / λ",
        "derived",
        computed_by="models.outputs.fallback_share_of_failures",
    ),
    _o(
        "level1_waste_fraction",
        "Level-1 waste",
        "fraction",
        "percent",
        "First-order share of wall time lost to level-1 saves and the failures it serves.",
        "C₁/T₁ + λ₁(T₁/2 + R₁)",
        "moody2010",
        computed_by="models.chain.goodput_step",
    ),
    _o(
        "level2_waste_fraction",
        "Level-2 waste",
        "fraction",
        "percent",
        "First-order share of wall time lost to durable saves and the failures that fall back.",
        "C₂/T₂ + λ₂(T₂/2 + R₂)",
        "moody2010",
        computed_by="models.chain.goodput_step",
    ),
    _o(
        "checkpoint_size_TB",
        "Checkpoint size",
        "TB",
        "number",
        "Size of one full checkpoint.",
        "P · bytes per parameter",
        "zero2020",
        2,
        computed_by="models.chain.checkpoint_plan",
    ),
    _o(
        "checkpoint_shard_GB_per_node",
        "Shard per node",
        "GB",
        "number",
        "Checkpoint bytes each node saves (sharded evenly).",
        "size / N",
        "derived",
        2,
        computed_by="models.chain.checkpoint_plan",
    ),
    _o(
        "memory_required_GB_per_node",
        "Host memory for replicas",
        "GB",
        "number",
        "CPU memory each node keeps for in-memory checkpoint replicas.",
        "shard × replicas",
        "gemini2023",
        2,
        computed_by="models.chain.checkpoint_plan",
    ),
    _o(
        "spot_notice_save_seconds",
        "Save within a Spot notice",
        "s",
        "number",
        "Time to complete the first checkpoint that survives losing the reclaimed node (level 1 "
        "if it is CPU memory with two or more replicas or the durable tier, else the durable "
        "tier).",
        "full write time of that level",
        "derived",
        1,
        computed_by="models.chain.checkpoint_plan",
    ),
    _o(
        "spot_save_fits_notice",
        "Save fits in the Spot notice",
        "",
        "bool",
        "Yes when that checkpoint can be written within the Spot notice, so a reclaimed "
        "instance loses no work.",
        "save ≤ notice (two minutes on AWS)",
        "aws_spot_notice",
        computed_by="models.chain.checkpoint_plan",
    ),
    *(
        _o(
            f"tier_{tier}_{what}_seconds",
            f"{label}: {what}",
            "s",
            "number",
            f"Synchronous {what} time of one checkpoint on the {label.lower()} tier.",
            "t₀ + copies · shard / min(b_node, B_agg/N)",
            "derived",
            1,
            computed_by="models.chain.checkpoint_plan",
        )
        for tier, label in (
            ("memory", "CPU memory"),
            ("nvme", "Local NVMe"),
            ("shared_fs", "Shared file system"),
            ("object_store", "Object store"),
        )
        for what in ("save", "restore")
    ),
    # the columns of goodput evaluate --json's checkpoint_tiers (one row per tier)
    _o(
        "save_seconds_sync",
        "Save, synchronous",
        "s",
        "number",
        "Time to write one checkpoint to this tier with training stopped, whether or not "
        "the strategy uses the tier (the tier's tier_<name>_save_seconds).",
        "t₀ + copies · shard / min(b_node, B_agg/N)",
        "derived",
        1,
        computed_by="models.evaluate.Evaluation.checkpoint_tiers",
    ),
    _o(
        "restore_seconds_sync",
        "Restore",
        "s",
        "number",
        "Time to load one checkpoint from this tier on every node, whether or not the "
        "strategy uses the tier (the tier's tier_<name>_restore_seconds).",
        "t₀ + shard / min(b_node, B_agg/N)",
        "derived",
        1,
        computed_by="models.evaluate.Evaluation.checkpoint_tiers",
    ),
    _o(
        "interval_minutes",
        "Interval of the level",
        "min",
        "number",
        "Compute time between the checkpoints of the level this tier holds: the checkpoint "
        "interval for level 1, the durable interval for level 2; null for an unused tier.",
        "τ₁ (level 1) or τ₂ (level 2)",
        "",
        1,
        computed_by="models.evaluate.Evaluation.checkpoint_tiers",
    ),
    _o(
        "blocking_save_seconds",
        "Blocking save of the level",
        "s",
        "number",
        "Time training pauses for each checkpoint of the level this tier holds "
        "(save_seconds for level 1, durable_save_seconds for level 2); null for an unused "
        "tier.",
        "C₁ (level 1) or C₂ (level 2)",
        "derived",
        1,
        computed_by="models.evaluate.Evaluation.checkpoint_tiers",
    ),
    _o(
        "waste_fraction",
        "Waste of the level",
        "fraction",
        "percent",
        "First-order share of wall time lost to the saves of the level this tier holds and "
        "to the failures it serves (level1_waste_fraction or level2_waste_fraction); null "
        "for an unused tier.",
        "Cᵢ/Tᵢ + λᵢ(Tᵢ/2 + Rᵢ)",
        "moody2010",
        computed_by="models.evaluate.Evaluation.checkpoint_tiers",
    ),
)

GOODPUT_OUTPUTS: tuple[Output, ...] = (
    _o(
        "goodput",
        "Goodput",
        "fraction",
        "percent",
        "Expected share of paid wall-clock time that advances training (Daly's exact "
        "expectation for exponential failures per failure class, times the share not paused "
        "by Spot interruptions saved in their notice, the share not stalled by fabric "
        "reroutes and the throughput left after stragglers and resilience overheads).",
        "g = g_fail · g_spot · (1 − s − f) · (1 − σ)(1 − o); g_fail = Π over failure "
        "classes of T_s/T_w = τ / (e^{λR}·(e^{λ(τ+δ)} − 1)/λ) (level-1 restores, durable "
        "fallbacks; peer recovery e^{−λ_P·R_P/1440}; silent corruption "
        "T_s/T_w/(1 + λ_S·Δ/1440)); g_spot = 1/(1 + λ_spot·R_spot/1440) (Spot reclaims "
        "saved in their notice); s = fabric stall minutes/1440, f = fail-slow minutes/1440; "
        "σ straggler slowdown, o resilience overhead",
        "daly2006",
        computed_by="models.chain.goodput_step",
    ),
    _o(
        "goodput_first_order",
        "Goodput (first order)",
        "fraction",
        "percent",
        "The linear estimate most spreadsheets use.",
        "(1 − Σ_k W_k) · (1 − x_spot) · (1 − s − f) · (1 − σ)(1 − o); W_k = δ_k/τ_k + "
        "λ_k(τ_k/2 + R_k)/1440 per checkpoint level (the peer and SDC classes add their "
        "λR/1440); x_spot = λ_spot·R_spot/1440; s = fabric stall, f = fail-slow minutes/1440",
        "young1974",
        computed_by="models.chain.goodput_step",
    ),
    _o(
        "recovery_minutes_per_failure",
        "Recovery per failure",
        "min",
        "number",
        "Detection + replacement + restart + restore, averaged over failure classes.",
        "R = t_detect + t_replace + t_restart + t_restore",
        "derived",
        1,
        computed_by="models.chain.goodput_step",
    ),
    _o(
        "rework_minutes_per_failure",
        "Rework per failure",
        "min",
        "number",
        "Progress since the last surviving checkpoint that must be recomputed, on average.",
        "τ/2 (+ staleness of an asynchronous checkpoint), per failure class",
        "young1974",
        1,
        computed_by="models.chain.goodput_step",
    ),
    _o(
        "minutes_lost_per_failure",
        "Lost per failure",
        "min",
        "number",
        "First-order wall time lost per failure.",
        "R + rework",
        "young1974",
        1,
        computed_by="models.chain.goodput_step",
    ),
    _o(
        "lost_minutes_per_day",
        "Lost per day",
        "min/day",
        "number",
        "Wall-clock minutes per day that do not advance training.",
        "(1 − g) · 1440",
        "derived",
        1,
        computed_by="models.chain.goodput_step",
    ),
)

COST_OUTPUTS: tuple[Output, ...] = (
    _o(
        "usd_per_instance_hour",
        "Price per instance-hour",
        "USD/h",
        "usd_rate",
        "The price in force for one node-hour (see price_source and price_as_of).",
        "catalog on-demand price, or the scenario's own price",
        computed_by="models.chain.cost_step",
    ),
    _o(
        "usd_per_instance_hour_effective",
        "Effective price per instance-hour",
        "USD/h",
        "usd_rate",
        "What a used instance-hour costs under the pricing model: a Savings Plan rate divided "
        "by the share of its term the commitment is used, else the rate.",
        "rate / commitment used (Savings Plans), else rate",
        "aws_savings_plans",
        computed_by="models.chain.cost_step",
    ),
    _o(
        "pricing_model",
        "Pricing model",
        "",
        "text",
        "How the instances are paid for: on_demand, savings_plan_1y, savings_plan_3y, "
        "capacity_block, spot, hyperpod or custom.",
        computed_by="models.pricing.price_in_force",
    ),
    _o(
        "price_source",
        "Price source",
        "",
        "text",
        "Where the price in force comes from.",
        computed_by="models.pricing.price_in_force",
    ),
    _o(
        "estimated_seconds",
        "Estimated time",
        "s",
        "number",
        "Seconds the command's work is predicted to take in all, before it starts: its Monte "
        "Carlo simulations (every rung of a ladder together) or, for a sweep, the points left "
        "to evaluate (CPU time on a cluster, whose workers are not known in advance); the "
        "command's limit applies to this total.",
        "sum over calls of the cost model's loop passes, events and draws (a sweep weights "
        "them by a few points timed on the machine first)",
        "derived",
        computed_by="models.montecarlo.estimate_work",
    ),
    _o(
        "progress_note",
        "Progress note",
        "",
        "text",
        "Why the job never advances (goodput 0: fabric stalls fill the day) or barely "
        "advances (goodput under 1%), naming the inputs; empty otherwise.",
        "goodput = 0 when events/day × min(reroute, timeout) ≥ 1,440 min",
        "derived",
        computed_by="models.evaluate.progress_note",
    ),
    _o(
        "layout_note",
        "Layout note",
        "",
        "text",
        "Which accelerators the parallel layout leaves idle (paid, no work): those beyond "
        "whole TP × PP × CP replicas or beyond the replicas the expert-parallel grid "
        "divides; empty when none.",
        "idle = accelerators − data_parallel_size × TP × PP × CP",
        "derived",
        computed_by="models.evaluate.layout_note",
    ),
    _o(
        "batch_note",
        "Batch note",
        "",
        "text",
        "Whether the global batch splits into whole micro-batches on every data-parallel "
        "replica (Megatron-Core needs a multiple of data-parallel size × micro-batch size); "
        "empty when it does. The step is modelled on the average either way.",
        "m = sequences / (d · b), whole?",
        "derived",
        computed_by="models.evaluate.batch_note",
    ),
    _o(
        "recompute_note",
        "Recomputation note",
        "",
        "text",
        "The recomputation workload.recompute = 'auto' chose (none, selective or full on "
        "a share of each model chunk's layers: the least that fits in memory); empty when "
        "the recomputation is entered.",
        "models.compute.least_recompute",
        "korthikanti2022",
        computed_by="models.evaluate.recompute_note",
    ),
    _o(
        "price_as_of",
        "Price as of",
        "",
        "text",
        "Date of the price in force; null where none is stated.",
        computed_by="models.pricing.price_in_force",
    ),
    _o(
        "accelerators",
        "Accelerators",
        "",
        "count",
        "Accelerators in the job.",
        "nodes × accelerators per node",
        computed_by="models.evaluate.evaluate",
    ),
    _o(
        "cluster_usd_per_day",
        "Cluster cost per day",
        "USD/day",
        "usd",
        "What the job's nodes cost per day at the effective price of the pricing model.",
        "N × effective price × 24",
        computed_by="models.chain.cost_step",
    ),
    _o(
        "spare_usd_per_day",
        "Spare nodes per day",
        "USD/day",
        "usd",
        "What the idle spare nodes cost per day: hot spares, in-domain spares and the "
        "nodes of spare domains.",
        "spares × effective price × 24",
        computed_by="models.chain.cost_step",
    ),
    _o(
        "storage_usd_per_day",
        "Checkpoint storage per day",
        "USD/day",
        "usd",
        "What the durable checkpoint tier costs per day: the shared file system's provisioned "
        "capacity, or object storage of the retained checkpoints plus its requests.",
        "file system + object storage",
        "derived",
        computed_by="models.chain.cost_step",
    ),
    _o(
        "storage_file_system_usd_per_day",
        "Shared file system per day",
        "USD/day",
        "usd",
        "Provisioned capacity of the shared file system at the price of its throughput tier "
        "(0 when it is not the durable tier).",
        "TiB × 1024 GB × USD/GB-month ÷ (730 h / 24 h)",
        "fsx_lustre_prices_classmethod",
        computed_by="models.chain.cost_step",
    ),
    _o(
        "storage_object_usd_per_day",
        "Object storage per day",
        "USD/day",
        "usd",
        "Retained checkpoints in object storage plus PUT and GET requests (0 when it is not "
        "the durable tier).",
        "kept GB × USD/GB-month ÷ 30.42 + PUTs/day × p_put + GETs/day × p_get",
        "aws_s3_pricing",
        computed_by="models.chain.cost_step",
    ),
    _o(
        "total_usd_per_day",
        "Total cost per day",
        "USD/day",
        "usd",
        "Cluster, hot spares and checkpoint storage per day.",
        "cluster + spares + storage",
        computed_by="models.chain.cost_step",
    ),
    _o(
        "total_usd_per_month",
        "Total cost per month",
        "USD/month",
        "usd",
        "The same per average calendar month.",
        "total per day × 365.25 / 12",
        computed_by="models.chain.cost_step",
    ),
    _o(
        "productive_usd_per_day",
        "Productive spend per day",
        "USD/day",
        "usd",
        "The part of the cluster cost that advances training.",
        "g × cluster cost",
        computed_by="models.chain.cost_step",
    ),
    _o(
        "lost_usd_per_day",
        "Lost per day",
        "USD/day",
        "usd",
        "Paid time that does not advance training, plus idle spares and checkpoint storage.",
        "(1 − g) × N × price × 24 + spares × price × 24 + storage per day (price in force)",
        "derived",
        computed_by="models.chain.cost_step",
    ),
    _o(
        "lost_usd_per_month",
        "Lost per month",
        "USD/month",
        "usd",
        "Lost per day over a month of 365.25/12 days: what the Monte Carlo's closed form and "
        "the pages' monthly figures read.",
        "lost_usd_per_day × 30.44",
        "derived",
        computed_by="models.chain.cost_step",
    ),
    _o(
        "lost_usd_per_year",
        "Lost per year",
        "USD/year",
        "usd",
        "Lost per day over a year of 365.25 days: the Overview's loss table and the report "
        "read it.",
        "lost_usd_per_day × 365.25",
        "derived",
        computed_by="models.chain.cost_step",
    ),
    _o(
        "lost_usd_per_run",
        "Lost over the run",
        "USD",
        "usd",
        "The loss per day summed over the whole training run (time to train): unproductive "
        "cluster time, idle spares and checkpoint storage.",
        "lost_usd_per_day × time_to_train_days",
        "derived",
        computed_by="models.chain.cost_step",
    ),
)

TRAIN_OUTPUTS: tuple[Output, ...] = (
    _o(
        "time_to_train_days",
        "Time to train",
        "days",
        "number",
        "Wall-clock days to train the workload, failures and checkpoints included.",
        "steps × step time / goodput",
        "kaplan2020",
        1,
        computed_by="models.chain.cost_step",
    ),
    _o(
        "time_to_train_days_low",
        "Time to train, 80% low (step time)",
        "days",
        "number",
        "Low end of the 80% prediction interval of the time to train: the step time's "
        "interval (step_seconds_low) at the same goodput.",
        "steps × step_seconds_low / goodput",
        "derived",
        1,
        computed_by="models.chain.cost_step",
    ),
    _o(
        "time_to_train_days_high",
        "Time to train, 80% high (step time)",
        "days",
        "number",
        "High end of the 80% prediction interval of the time to train: the step time's "
        "interval (step_seconds_high) at the same goodput.",
        "steps × step_seconds_high / goodput",
        "derived",
        1,
        computed_by="models.chain.cost_step",
    ),
    _o(
        "time_to_train_hours",
        "Time to train",
        "h",
        "number",
        "The same in hours.",
        "days × 24",
        "",
        0,
        computed_by="models.chain.cost_step",
    ),
    _o(
        "cost_to_train_usd",
        "Cost to train, instances",
        "USD",
        "usd",
        "What the instances cost to train the workload at the price in force (cluster and "
        "spares; storage is in total_cost_to_train_usd).",
        "time_to_train_days × (N + spares) × price × 24 (the instances alone)",
        computed_by="models.chain.cost_step",
    ),
    _o(
        "cost_to_train_usd_low",
        "Cost to train, instances: 80% low",
        "USD",
        "usd",
        "Low end of the 80% prediction interval of the cost to train (cluster and spares "
        "for time_to_train_days_low).",
        "time_to_train_days_low × (cluster + spares) per day",
        "derived",
        computed_by="models.chain.cost_step",
    ),
    _o(
        "cost_to_train_usd_high",
        "Cost to train, instances: 80% high",
        "USD",
        "usd",
        "High end of the 80% prediction interval of the cost to train (cluster and spares "
        "for time_to_train_days_high).",
        "time_to_train_days_high × (cluster + spares) per day",
        "derived",
        computed_by="models.chain.cost_step",
    ),
    _o(
        "domain_goodput",
        "Goodput of all paid nodes",
        "fraction",
        "percent",
        "Share of the time of every paid node (the job's, hot spares, in-domain spares and "
        "spare domains) that advances training.",
        "g · N / (N + spare nodes of every kind)",
        "derived",
        computed_by="models.chain.cost_step",
    ),
    _o(
        "usd_per_1e18_useful_flops",
        "Cost per 10¹⁸ useful FLOP",
        "USD",
        "usd",
        "Cost to train divided by the model FLOPs the training needs (training_flops: "
        "attention included).",
        "cost / ((6N + 12·L·s·h)·D / 10¹⁸)",
        "palm2022",
        computed_by="models.chain.cost_step",
    ),
    _o(
        "cost_to_train_compute_usd",
        "Cost: productive compute",
        "USD",
        "usd",
        "Part of the cost to train spent on productive steps.",
        "cluster cost × days × g (× compute share under compute_only)",
        computed_by="models.chain.cost_step",
    ),
    _o(
        "cost_to_train_bubble_usd",
        "Cost: pipeline bubble (added)",
        "USD",
        "usd",
        "Pipeline bubble time added to the step (compute_only basis; 0 when inside the MFU).",
        "productive cost × bubble share",
        "narayanan2021",
        computed_by="models.chain.cost_step",
    ),
    _o(
        "cost_to_train_communication_usd",
        "Cost: exposed communication (added)",
        "USD",
        "usd",
        "Exposed communication time added to the step (compute_only basis; 0 when inside the MFU).",
        "productive cost × exposed communication share",
        computed_by="models.chain.cost_step",
    ),
    _o(
        "cost_within_mfu_bubble_usd",
        "Within MFU: bubble",
        "USD",
        "usd",
        "Under end_to_end, the part of the compute cost the model attributes to the pipeline "
        "bubble (already inside the MFU, not added).",
        "productive cost × bubble share",
        "narayanan2021",
        computed_by="models.chain.cost_step",
    ),
    _o(
        "cost_within_mfu_communication_usd",
        "Within MFU: communication",
        "USD",
        "usd",
        "Under end_to_end, the part of the compute cost the model attributes to exposed "
        "communication (inside the MFU, not added).",
        "productive cost × exposed communication share",
        computed_by="models.chain.cost_step",
    ),
    _o(
        "cost_to_train_goodput_loss_usd",
        "Cost: failures and checkpoints",
        "USD",
        "usd",
        "Part of the cost to train lost to failures, recovery, rework, saves and stalls.",
        "cluster cost × days × (1 − g)",
        "daly2006",
        computed_by="models.chain.cost_step",
    ),
    _o(
        "cost_to_train_spares_usd",
        "Cost: spare nodes",
        "USD",
        "usd",
        "Idle spare nodes (hot spares, in-domain spares, spare domains' nodes) over the whole "
        "training run.",
        "spares cost per day × days",
        computed_by="models.chain.cost_step",
    ),
    _o(
        "cost_to_train_storage_usd",
        "Cost: checkpoint storage",
        "USD",
        "usd",
        "The durable checkpoint tier over the whole training run.",
        "storage cost per day × days",
        computed_by="models.chain.cost_step",
    ),
    _o(
        "total_cost_to_train_usd",
        "Whole bill to train",
        "USD",
        "usd",
        "Instances and checkpoint storage over the whole training run.",
        "time_to_train_days × ((N + spares) × price × 24 + storage per day)",
        computed_by="models.chain.cost_step",
    ),
)

STEP_OUTPUTS: tuple[Output, ...] = (
    _o(
        "mfu_basis",
        "MFU basis",
        "",
        "text",
        "Where the step time comes from: modelled from the system (default), or a stated MFU "
        "read end_to_end (published figures, communication inside) or compute_only "
        "(communication and bubble added).",
        "",
        "palm2022",
        computed_by="models.chain.step_time",
    ),
    _o(
        "allreduce_ms",
        "Gradient all-reduce",
        "ms",
        "number",
        "Whole data-parallel gradient synchronisation per step.",
        "hierarchical all-reduce: 2[(k−1)α + ((k−1)/k)n/B_su] + 2(N−1)α + 2((N−1)/N)(n/k)/B_net",
        "thakur2005",
        1,
        computed_by="models.chain.step_time",
    ),
    _o(
        "allreduce_exposed_ms",
        "Exposed all-reduce",
        "ms",
        "number",
        "Part of the gradient synchronisation not hidden behind the backward pass.",
        "S − min(φ·S, window)",
        "pytorch_ddp2020",
        1,
        computed_by="models.chain.step_time",
    ),
    _o(
        "tp_comm_ms",
        "Tensor-parallel communication",
        "ms",
        "number",
        "Tensor-parallel activation all-reduces per step inside the scale-up domain.",
        "4 all-reduces per layer and micro-batch",
        "narayanan2021",
        1,
        computed_by="models.chain.step_time",
    ),
    _o(
        "pp_comm_ms",
        "Pipeline communication",
        "ms",
        "number",
        "Activations sent between pipeline stages per step.",
        "2 × tokens × hidden × 2 B / TP per boundary",
        "narayanan2021",
        1,
        computed_by="models.chain.step_time",
    ),
    _o(
        "compute_seconds_per_step",
        "Compute per step",
        "s",
        "number",
        "Time in compute kernels per optimizer step (recomputation apart): modelled, the "
        "model FLOPs at the measured max matmul rate plus memory-bound kernels and the "
        "optimizer step; with a stated MFU, (6N + 12Lsh)·tokens / (n · peak · MFU).",
        "modelled: m·(3·F_fwd/(peak·MAMF) + traffic/HBM) + optimizer",
        "palm2022",
        3,
        computed_by="models.chain.step_time",
    ),
    _o(
        "recompute_seconds_per_step",
        "Recomputation per step",
        "s",
        "number",
        "Time spent recomputing forward activations (selective: attention scores; full: the "
        "forward pass of the layers recomputed) per optimizer step; 0 under a stated MFU.",
        "m · recomputed FLOPs / (peak · MAMF)",
        "korthikanti2022",
        3,
        computed_by="models.chain.step_time",
    ),
    _o(
        "bubble_seconds_per_step",
        "Pipeline bubble per step",
        "s",
        "number",
        "Idle pipeline time per step: (p − 1)/v micro-batch times, each with its compute, "
        "recomputation and exposed communication (modelled), or compute × (p − 1)/m.",
        "(p − 1)/v · t_micro-batch",
        "narayanan2021",
        3,
        computed_by="models.chain.step_time",
    ),
    _o(
        "step_seconds",
        "Step time",
        "s",
        "number",
        "Wall time of one optimizer step without failures.",
        "modelled: (m + (p−1)/v)·t_mb + exposed DP + optimizer; end_to_end: "
        "(6N+12Lsh)·T/(n·peak·MFU); compute_only: compute + bubble + exposed comm",
        "palm2022",
        3,
        computed_by="models.compute.step_model",
    ),
    _o(
        "step_seconds_low",
        "Step time, 80% low",
        "s",
        "number",
        "Low end of the step time's 80% prediction interval: the 10th percentile of "
        "measured/modelled over the held-out runs of the leave-one-source-out validation "
        "of its kind (dense, dense with one or two micro-batches a step, or mixture of "
        "experts), applied to the faster neighbour of the recomputation, overlap and "
        "interleaving entered unless workload.step_settings_stated = 'on' (modelled basis; "
        "a stated MFU gives the point itself).",
        "step under the faster open settings × the low ratio of its kind "
        "(STEP_INTERVAL_RATIO, FEW_MICROBATCH_STEP_INTERVAL_RATIO or MOE_STEP_INTERVAL_RATIO)",
        "derived",
        3,
        computed_by="models.compute.step_interval",
    ),
    _o(
        "step_seconds_high",
        "Step time, 80% high",
        "s",
        "number",
        "High end of the step time's 80% prediction interval: the 90th percentile of "
        "measured/modelled over the held-out runs of the leave-one-source-out validation "
        "of its kind (dense, dense with one or two micro-batches a step, or mixture of "
        "experts), applied to the slower neighbour of the recomputation, overlap and "
        "interleaving entered unless workload.step_settings_stated = 'on' (modelled basis; "
        "a stated MFU gives the point itself).",
        "step under the slower open settings × the high ratio of its kind "
        "(STEP_INTERVAL_RATIO, FEW_MICROBATCH_STEP_INTERVAL_RATIO or MOE_STEP_INTERVAL_RATIO)",
        "derived",
        3,
        computed_by="models.compute.step_interval",
    ),
    _o(
        "scaling_efficiency",
        "Scaling efficiency",
        "fraction",
        "percent",
        "How much modelled communication and bubble would stretch a step whose compute runs "
        "at the stated MFU.",
        "compute / (compute + bubble + exposed DP + TP + PP)",
        "derived",
        computed_by="models.chain.step_time",
    ),
    _o(
        "effective_mfu",
        "End-to-end MFU",
        "fraction",
        "percent",
        "Model FLOP/s achieved over the whole step as a share of peak.",
        "MFU (end_to_end) or MFU × scaling efficiency (compute_only)",
        "palm2022",
        computed_by="models.chain.step_time",
    ),
    _o(
        "compute_share_of_step",
        "Compute share of step",
        "fraction",
        "percent",
        "Share of the step spent in compute phases.",
        "t_compute / t_step",
        "derived",
        computed_by="models.chain.step_time",
    ),
    _o(
        "compute_phase_mfu",
        "Compute-phase MFU",
        "fraction",
        "percent",
        "Efficiency the compute phases must reach for the stated end-to-end MFU.",
        "MFU · t_step / t_compute",
        "derived",
        computed_by="models.chain.step_time",
    ),
    _o(
        "mfu_gap_exceeded",
        "MFU optimistic here",
        "",
        "bool",
        "Yes when the modelled exposed communication and bubble exceed what the stated "
        "end-to-end MFU leaves room for.",
        "implied compute-phase MFU > measured max achievable matmul fraction",
        "ml_engineering",
        computed_by="models.chain.step_time",
    ),
    _o(
        "exposed_comm_fraction_of_step",
        "Exposed communication share",
        "fraction",
        "percent",
        "Share of the step spent in exposed communication.",
        "(exposed DP + TP + PP) / step",
        "derived",
        computed_by="models.chain.step_time",
    ),
    _o(
        "bubble_fraction_of_step",
        "Bubble share",
        "fraction",
        "percent",
        "Share of the step the pipeline is idle.",
        "bubble / step",
        "narayanan2021",
        computed_by="models.chain.step_time",
    ),
    _o(
        "steps_to_train",
        "Steps to train",
        "",
        "count",
        "Optimizer steps in the training run.",
        "tokens / tokens per step",
        computed_by="models.chain.step_time",
    ),
    _o(
        "data_parallel_size",
        "Data-parallel size",
        "",
        "count",
        "Data-parallel replicas: whole replicas of TP × PP × CP, as many as the expert-"
        "parallel grid divides.",
        "⌊accelerators / (TP × PP × CP)⌋, down to a multiple the EP grid divides",
        "narayanan2021",
        computed_by="models.chain.step_time",
    ),
    _o(
        "idle_accelerators",
        "Idle accelerators",
        "",
        "count",
        "Accelerators the parallel layout leaves without work (paid all the same): those "
        "beyond whole TP × PP × CP replicas, or beyond the replicas the expert-parallel "
        "grid divides.",
        "accelerators − data_parallel_size × TP × PP × CP",
        "derived",
        computed_by="models.chain.step_time",
    ),
    _o(
        "memory_per_accel_GB",
        "Memory per accelerator",
        "GB",
        "number",
        "Everything the first pipeline stage holds per accelerator: model states plus activations.",
        "model states + activations",
        "korthikanti2022",
        1,
        computed_by="models.chain.step_time",
    ),
    _o(
        "model_states_GB_per_accel",
        "Model states per accelerator",
        "GB",
        "number",
        "Weights, gradients and Adam state per accelerator, after ZeRO sharding.",
        "Ψ'·(2 + g + 12) split by ZeRO stage over d (g = 2 bf16, 4 fp32 gradients)",
        "zero2020",
        1,
        computed_by="models.chain.step_time",
    ),
    _o(
        "activation_memory_GB_per_accel",
        "Activations per accelerator",
        "GB",
        "number",
        "Activations the first pipeline stage keeps for its micro-batches in flight (plus "
        "one recomputed layer under full recomputation).",
        "sbh(12 + 2·dropout + 4a_kv/a + (2k+2)f/h) + (2 + 3·dropout)as²b per layer, split by "
        "TP/SP, × L/p × in flight",
        "korthikanti2022",
        1,
        computed_by="models.chain.step_time",
    ),
    _o(
        "fits_in_memory",
        "Memory fits",
        "",
        "bool",
        "Whether model states and activations fit in the usable accelerator memory.",
        "states + activations ≤ HBM × (1 − reserved)",
        "korthikanti2022",
        computed_by="models.chain.step_time",
    ),
    _o(
        "max_micro_batch_that_fits",
        "Largest micro-batch that fits",
        "sequences",
        "count",
        "The most sequences per micro-batch whose activations fit next to the model states "
        "(0: none does).",
        "⌊(usable − states) / activations per sequence⌋",
        "korthikanti2022",
        computed_by="models.chain.step_time",
    ),
    _o(
        "micro_batches_per_step",
        "Micro-batches per step",
        "",
        "whole",
        "Micro-batches each pipeline runs per optimizer step.",
        "m = B / (d · b)",
        "narayanan2021",
        1,
        computed_by="models.chain.step_time",
    ),
    _o(
        "micro_batch_sequences_effective",
        "Sequences per micro-batch",
        "sequences",
        "whole",
        "Sequences in one micro-batch (B/(d·m) when the micro-batch count is given).",
        "b",
        "narayanan2021",
        2,
        computed_by="models.chain.step_time",
    ),
    _o(
        "model_layers",
        "Layers",
        "",
        "whole",
        "Transformer layers (derived from the parameter count when not given).",
        "given, or (N − 2Vh)/(per-layer parameters)",
        "",
        1,
        computed_by="models.chain.step_time",
    ),
    _o(
        "model_parameters_billion",
        "Parameters",
        "B params",
        "number",
        "Parameter count used (derived from the shape when not given).",
        "L·(2h² + 2h²·a_kv/a + (2 or 3)·h·f + 2h) + 2Vh + h",
        "",
        2,
        computed_by="models.chain.step_time",
    ),
    _o(
        "model_flops_per_token",
        "Model FLOPs per token",
        "FLOP",
        "flops",
        "Model FLOPs per trained token, attention included (the MFU numerator).",
        "6N + 12·L·s·h",
        "palm2022",
        computed_by="models.chain.step_time",
    ),
    _o(
        "memory_usable_per_accel_GB",
        "Usable memory per accelerator",
        "GB",
        "number",
        "HBM left for model states after the reserved share.",
        "HBM [GiB] × 1.0737 GB/GiB × (1 − reserved)",
        "",
        1,
        computed_by="models.compute.usable_memory_GB",
    ),
    _o(
        "memory_fits",
        "Fits in memory",
        "",
        "bool",
        "Whether this configuration can run: memory fits, TP stays in the scale-up domain, "
        "enough accelerators, at least one sequence per micro-batch, a known step time.",
        "",
        "zero2020",
        computed_by="models.chain.step_time",
    ),
    _o(
        "min_nodes_to_fit",
        "Fewest nodes that fit",
        "nodes",
        "count",
        "Fewest nodes whose data-parallel sharding brings model states and activations "
        "within memory (inf: no node count does).",
        "⌈TP·PP·d_min / k⌉",
        "zero2020",
        computed_by="models.chain.step_time",
    ),
    _o(
        "training_flops",
        "Training compute",
        "FLOP",
        "flops",
        "Model FLOPs of the whole training run, attention included.",
        "(6N + 12·L·s·h)·D",
        "palm2022",
        computed_by="models.chain.step_time",
    ),
    _o(
        "recompute_level",
        "Recomputation used",
        "",
        "whole",
        "The activation recomputation the step is modelled with: 0 none, 1 selective, 2 full "
        "(on the share of layers in recomputed_layer_share). The entered one, or under "
        "workload.recompute = 'auto' the least that fits in memory "
        "(models.compute.least_recompute).",
        "auto: none if it fits, else selective, else full on the fewest layers per chunk",
        "korthikanti2022",
        decimals=0,
        computed_by="models.chain.step_time",
        words=("none", "selective", "full"),
    ),
    _o(
        "recomputed_layer_share",
        "Layers recomputed in full",
        "fraction",
        "percent",
        "Share of each model chunk's layers that recompute their forward pass in the "
        "backward (full recomputation of N of the chunk's L/(PP·VP) layers); 0 without full "
        "recomputation.",
        "min(N, L/(PP·VP)) / (L/(PP·VP))",
        "korthikanti2022",
        decimals=0,
        computed_by="models.chain.step_time",
    ),
)

RESILIENCE_OUTPUTS: tuple[Output, ...] = (
    # recovery stages and failure classes reported by the chain (models/chain.py, step 1 and 4)
    _o(
        "detection_minutes_expected",
        "Expected detection",
        "min",
        "number",
        "Mean time until a failure is noticed: crashes when a process exits, hangs when a "
        "timeout fires.",
        "(1 − h)·d_crash + h·d_hang",
        "nvidia_resiliency",
        1,
        computed_by="models.chain.failure_process",
    ),
    _o(
        "replacement_path_minutes_expected",
        "Expected replacement stage",
        "min",
        "number",
        "Mean replacement stage of a failure that needs a node from the hot-spare pool (the "
        "node path behind any domain spares), with elastic training running through part of "
        "it degraded.",
        "p·[(1 − e)·t_replace + e·(2·t_reconf + t_replace·k/N)] + (1 − p)·t_swap",
        "hyperpod_elastic",
        1,
        computed_by="models.chain.failure_process",
    ),
    _o(
        "restart_minutes_expected",
        "Expected restart stage",
        "min",
        "number",
        "Mean restart stage: a job relaunch, or an in-process restart for the failures it "
        "recovers.",
        "(1 − q_ip)·t_restart + q_ip·t_in-process",
        "nvidia_resiliency",
        1,
        computed_by="models.chain.failure_process",
    ),
    _o(
        "sdc_failures_per_day",
        "Silent data corruptions per day",
        "per day",
        "number",
        "Failures per day that are silent data corruption, found only after a delay.",
        "λ · reliability.sdc_fraction",
        "llama3_2024",
        2,  # as every rate per day (a rate too small for them keeps two digits: 0.004)
        computed_by="models.chain.failure_process",
    ),
    _o(
        "corrupt_checkpoint_minutes_per_event",
        "Lost per corrupt checkpoint",
        "min",
        "number",
        "Minutes a corrupt level-1 checkpoint adds to a recovery: the restart loop (no "
        "validation) plus one fallback to the next checkpoint.",
        "X = loop + F; loop = restarts × cycle without validation, 0 with it",
        "megatron_5281",
        1,
        computed_by="models.chain.goodput_step",
    ),
    _o(
        "checkpoint_fallback_minutes",
        "Fallback to the next checkpoint",
        "min",
        "number",
        "One fallback: restore the next tier (or the previous checkpoint) and redo the extra "
        "work it is older by.",
        "F = restore_next (+ validation) + extra rework",
        "scr_174",
        1,
        computed_by="models.chain.goodput_step",
    ),
    # the resilience ladder (models/resilience.py, goodput ladder --json)
    _o(
        "delta_goodput_points",
        "Goodput gained by this rung",
        "points",
        "number",
        "Goodput of this rung minus the previous one, in percentage points.",
        "100 · (g_k − g_{k−1})",
        "derived",
        computed_by="models.resilience._feature_rung",
    ),
    _o(
        "delta_usd_per_day",
        "Saved by this rung",
        "USD/day",
        "usd",
        "Lost dollars per day of the previous rung minus this one's (goodput losses plus the "
        "cost of every feature adopted so far, e.g. hot spares); the rungs' values add up to "
        "the first rung's loss minus the last one's.",
        "lost_{k−1} − lost_k",
        "derived",
        computed_by="models.resilience._feature_rung",
    ),
    _o(
        "goodput_mc_mean",
        "Goodput (Monte Carlo mean)",
        "fraction",
        "percent",
        "Mean simulated goodput over the window, to set next to the analytic value.",
        "mean of simulated runs",
        "derived",
        computed_by="models.resilience._with_montecarlo",
    ),
    _o(
        "goodput_mc_stderr",
        "Monte Carlo standard error",
        "fraction",
        "points_size",  # in points, as goodput simulate and the Monte Carlo page write it
        "Standard error of the simulated mean goodput.",
        "s / √n",
        "derived",
        computed_by="models.resilience._with_montecarlo",
    ),
    _o(
        "lost_usd_per_day_p5",
        "Lost per day P5 (Monte Carlo)",
        "USD/day",
        "usd",
        "5th percentile of simulated lost dollars per day (a good month).",
        "(1 − g_run)·cluster/day + spares/day + storage/day",
        "derived",
        computed_by="models.resilience._with_montecarlo",
    ),
    _o(
        "total_delta_usd_per_day",
        "Saved by the whole ladder",
        "USD/day",
        "usd",
        "First rung's lost dollars per day minus the last rung's: the sum of the rungs' savings.",
        "lost_0 − lost_n = Σ delta_usd_per_day",
        "derived",
        computed_by="models.resilience.Ladder.total_delta_usd_per_day",
    ),
    _o(
        "recommended_delta_usd_per_day",
        "Saved by the recommended rungs",
        "USD/day",
        "usd",
        "Lost dollars per day of the scenario as given minus those after the features worth "
        "adopting here (each saves money at its rung); rungs that cost more than they save "
        "are left out.",
        "lost_0 − lost_k, k = number of recommended features",
        "derived",
        computed_by="models.resilience.Ladder.recommended_delta_usd_per_day",
    ),
    _o(
        "recommended_delta_goodput_points",
        "Goodput gained by the recommended rungs",
        "points",
        "number",
        "Goodput after the features worth adopting here minus the scenario's as given.",
        "100 · (g_k − g_0)",
        "derived",
        computed_by="models.resilience.Ladder.recommended_delta_goodput_points",
    ),
    _o(
        "total_delta_goodput_points",
        "Goodput gained by the whole ladder",
        "points",
        "number",
        "Last rung's goodput minus the first rung's, in percentage points.",
        "100 · (g_n − g_0)",
        "derived",
        computed_by="models.resilience.Ladder.total_delta_goodput_points",
    ),
    _o(
        "saving_usd_per_day",
        "Saving",
        "USD/day",
        "usd",
        "Part of a rung's saving that comes from one cause (failure losses split over the "
        "causes the feature acts on, by count) or from one other loss or cost.",
        "failure-loss saving × cause share, or the component's own change",
        "derived",
        computed_by="models.resilience._savings_by_cause",
    ),
    _o(
        "montecarlo_within_tolerance",
        "Monte Carlo agrees",
        "",
        "bool",
        "Whether the simulated mean goodput is within the stated tolerance of the analytic "
        "value (4 standard errors + 0.1 points).",
        "|mean − analytic| ≤ 4·s.e. + 0.001",
        "derived",
        computed_by="models.resilience._with_montecarlo",
    ),
    _o(
        "lost_usd_per_day_p95",
        "Lost per day P95 (Monte Carlo)",
        "USD/day",
        "usd",
        "95th percentile of simulated lost dollars per day (a bad month).",
        "(1 − g_run)·cluster/day + spares/day + storage/day",
        "derived",
        computed_by="models.resilience._with_montecarlo",
    ),
    # goodput ladder --json beyond the rungs' figures
    _o(
        "ladder_features",
        "Ladder features",
        "",
        "text",
        "The ladder's features in the order of its rungs after the baseline.",
        "",
        "",
        computed_by="models.resilience.Ladder.to_json_dict",
    ),
    _o(
        "recommended_features",
        "Features worth adopting",
        "",
        "text",
        "The leading features of the ladder that each save money: in the recommended order, "
        "the ones worth adopting for this scenario.",
        "the rungs after the baseline up to the first whose saving ≤ 0",
        "derived",
        computed_by="models.resilience.Ladder.recommended_features",
    ),
    _o(
        "failure_modes_source",
        "Failure causes from",
        "",
        "text",
        "Where the shares of failure causes the features act on come from: Llama 3 405B's "
        "root causes, or the failure log given with --fit.",
        "",
        "llama3_2024",
        computed_by="models.resilience.Ladder.to_json_dict",
    ),
)

RELIABILITY_VALUE_OUTPUTS: tuple[Output, ...] = (
    _o(
        "goodput_gain_per_0p1pp",
        "Gain from 0.1 pp lower failure rate",
        "fraction",
        "points",
        "Goodput gained if the node failure rate were 0.1 percentage point lower, all else "
        "equal ('optimal' intervals re-optimised).",
        "g(r − 0.001) − g(r)",
        "derived",
        computed_by="models.evaluate.value_of_reliability",
    ),
    _o(
        "usd_per_day_per_0p1pp",
        "Value of 0.1 pp lower failure rate",
        "USD/day",
        "usd",
        "That gain in dollars per day.",
        "gain × cluster cost per day",
        "derived",
        computed_by="models.evaluate.value_of_reliability",
    ),
    _o(
        "usd_per_year_per_0p1pp",
        "Value of 0.1 pp lower failure rate per year",
        "USD/year",
        "usd",
        "That gain in dollars per year of 365.25 days.",
        "gain × cluster cost per day × 365.25",
        "derived",
        computed_by="models.evaluate.value_of_reliability",
    ),
    _o(
        "value_of_reliability_is_partial",
        "Rate below 0.1 pp",
        "",
        "bool",
        "Yes when the rate is below 0.1%: the figure is then the gain of eliminating "
        "failures altogether.",
        computed_by="models.evaluate.value_of_reliability",
    ),
)

COMPARISON_OUTPUTS: tuple[Output, ...] = (
    _o(
        "goodput_baseline",
        "Goodput (baseline)",
        "fraction",
        "percent",
        "Goodput of the baseline.",
        "",
        "daly2006",
        computed_by="models.evaluate.compare_evaluations",
    ),
    _o(
        "goodput_candidate",
        "Goodput (candidate)",
        "fraction",
        "percent",
        "Goodput of the candidate.",
        "",
        "daly2006",
        computed_by="models.evaluate.compare_evaluations",
    ),
    _o(
        "goodput_delta",
        "Goodput change",
        "fraction",
        "points",
        "Candidate minus baseline goodput.",
        "g_cand − g_base",
        computed_by="models.evaluate.compare_evaluations",
    ),
    _o(
        "goodput_delta_first_order",
        "Goodput change (first order)",
        "fraction",
        "points",
        "The same with the first-order goodputs.",
        "g₁_cand − g₁_base",
        computed_by="models.evaluate.compare_evaluations",
    ),
    _o(
        "savings_usd_per_day",
        "Savings per day",
        "USD/day",
        "usd",
        "What the candidate saves per day at the baseline's price: its extra useful work "
        "(more goodput, or a shorter productive training time from faster steps) minus what "
        "it adds (spares, price).",
        "(g_c·r − g_b)·cluster_b + (total_b − total_c), r = productive time ratio",
        "derived",
        computed_by="models.evaluate.savings_usd_per_day",
    ),
    _o(
        "productive_time_ratio",
        "Productive time ratio",
        "",
        "number",
        "Baseline's failure-free training time over the candidate's (steps × step time); "
        "above 1 the candidate's steps are faster. Where either step cannot be computed the "
        "savings take 1 (goodput and running cost only) and goodput compare --json writes "
        "null with a reason.",
        "(steps · step)_b / (steps · step)_c",
        "derived",
        3,
        computed_by="models.evaluate.savings_usd_per_day",
    ),
    _o(
        "step_time_savings_usd_per_day",
        "Savings from faster steps",
        "USD/day",
        "usd",
        "The part of the savings per day that comes from the step time (network, "
        "accelerator, parallelism), valued at the baseline's cluster cost.",
        "g_c·(r − 1)·cluster_b",
        "derived",
        computed_by="models.evaluate.productive_time_savings",
    ),
    _o(
        "time_to_train_delta_days",
        "Time to train change",
        "days",
        "number",
        "Candidate minus baseline wall-clock days to train.",
        "T_c − T_b",
        "",
        1,
        computed_by="models.evaluate.compare_evaluations",
    ),
    _o(
        "savings_usd_per_month",
        "Savings per month",
        "USD/month",
        "usd",
        "Savings per day × 365.25/12.",
        "savings/day × 30.44",
        computed_by="models.evaluate.Comparison.savings_usd_per_month",
    ),
    _o(
        "savings_usd_per_year",
        "Savings per year",
        "USD/year",
        "usd",
        "Savings per day × 365.25.",
        "savings/day × 365.25",
        computed_by="models.evaluate.Comparison.savings_usd_per_year",
    ),
)

LOSS_COMPONENTS: dict[str, str] = {
    "detection": "Detection",
    "replacement": "Replacement",
    "restart": "Restart",
    "restore": "Checkpoint restore",
    "warmup": "Warm-up after restart",
    "rework": "Rework since last checkpoint",
    "fallback_rework": "Rework after fallback to the durable tier",
    "corrupt_checkpoint": "Corrupt checkpoint recoveries",
    "sdc_rollback": "Silent data corruption rollback",
    "checkpoint_save": "Checkpoint saves",
    "spot_notice": "Spot interruptions saved in the notice",
    "fabric_stall": "Fabric reroute stalls",
    "fail_slow": "Fail-slow nodes until evicted",
    "straggler": "Straggler slowdown",
    "resilience_overhead": "Resilience feature overhead",
}

#: Dollar-only lines of the loss breakdown: they cost money, not wall-clock time.
COST_LINES: dict[str, str] = {
    "spares": "Idle spare nodes",
    "storage": "Checkpoint storage",
}

LOSS_OUTPUTS: tuple[Output, ...] = tuple(
    o
    for name, label in LOSS_COMPONENTS.items()
    for o in (
        _o(
            f"loss_{name}_minutes_per_day",
            f"{label}",
            "min/day",
            "number",
            f"Wall time per day lost to {label.lower()}; the components add up to the exact "
            "loss (1 − g)·1440.",
            "first-order component × exact loss / first-order total",
            "derived",
            1,
            computed_by="models.chain.goodput_step",
        ),
        _o(
            f"loss_{name}_usd_per_day",
            f"{label}",
            "USD/day",
            "usd",
            f"Dollars per day lost to {label.lower()}.",
            "minutes/day ÷ 1440 × cluster cost per day",
            "derived",
            computed_by="models.chain.cost_step",
        ),
    )
)

PLAN_OUTPUTS: tuple[Output, ...] = (
    _o(
        "compute_days",
        "Failure-free compute",
        "days",
        "number",
        "Days the workload needs with no failures, saves or stalls.",
        "steps × step time / 86,400",
        "kaplan2020",
        1,
        computed_by="models.chain.cost_step",
    ),
    *(
        _o(
            f"block_days_p{q}",
            f"Block for {q}% completion",
            "days",
            "number",
            f"Capacity Block length inside which the run finishes with probability {q}% "
            "(Monte Carlo, each run drawing its failure rate and step time from their 80% "
            "intervals), the 30-minute termination margin included.",
            f"P{q} of the wall time to finish + 30 min",
            "aws_capacity_blocks",
            2,
            computed_by="models.plan.plan_capacity_block",
        )
        for q in (50, 90, 99)
    ),
    _o(
        "block_days",
        "Block length",
        "days",
        "number",
        "The Capacity Block length evaluated.",
        "--block-days, else the cheapest block that meets the risk",
        "aws_capacity_blocks",
        2,
        computed_by="models.plan._chosen_block_days",
    ),
    _o(
        "block_days_purchasable",
        "Purchasable block",
        "days",
        "number",
        "The shortest block AWS sells of at least that length (1-14 days, then 7-day steps to "
        "182; n/a beyond).",
        "smallest allowed duration ≥ block length",
        "aws_capacity_blocks",
        0,
        computed_by="models.plan._chosen_block_costs",
    ),
    _o(
        "probability_finish_within_block",
        "Finishes within the block",
        "fraction",
        "percent",
        "Share of simulated runs that finish before the block's instances are terminated "
        "(each run drawing its failure rate and step time from their 80% intervals).",
        "P(T + 30 min ≤ D)",
        "derived",
        computed_by="models.plan._chosen_block_costs",
    ),
    _o(
        "probability_finish",
        "Finishes within the block",
        "fraction",
        "percent",
        "The same for one block length of the curve.",
        "P(T + 30 min ≤ D)",
        "derived",
        computed_by="models.plan._block_curve",
    ),
    _o(
        "block_cost_usd",
        "Block price",
        "USD",
        "usd",
        "What the block costs up front: days × 24 × instances × block rate.",
        "D · 24 · n · p_block",
        "aws_capacity_block_pricing",
        computed_by="models.plan._chosen_block_costs",
    ),
    _o(
        "expected_overrun_cost_usd",
        "Expected overrun",
        "USD",
        "usd",
        "Mean cost of the hours a run still needs after its block, at the fallback price.",
        "mean of 1[T > U]·(T − U + move)·24·n·p_fallback",
        "derived",
        computed_by="models.plan._chosen_block_costs",
    ),
    _o(
        "expected_storage_cost_usd",
        "Expected storage",
        "USD",
        "usd",
        "Mean cost of the checkpoint storage over the run's wall time.",
        "storage/day × mean wall time",
        "derived",
        computed_by="models.plan._chosen_block_costs",
    ),
    _o(
        "expected_total_cost_usd",
        "Expected total cost",
        "USD",
        "usd",
        "Mean over simulated runs of block + overrun + storage.",
        "mean of total cost per run",
        "derived",
        computed_by="models.plan._chosen_block_costs",
    ),
    _o(
        "p90_total_cost_usd",
        "P90 total cost",
        "USD",
        "usd",
        "Total cost that 90% of simulated runs stay under.",
        "90th percentile of total cost per run",
        "derived",
        computed_by="models.plan._chosen_block_costs",
    ),
    _o(
        "no_capacity_block",
        "No Capacity Block to plan",
        "",
        "text",
        "Why goodput plan plans no block: the instance type has no public Capacity Block "
        "price and the scenario gives none (the bill by pricing model is given all the same).",
        computed_by="models.plan.no_block_price",
    ),
    _o(
        "cheapest_block_days",
        "Cheapest block for the risk",
        "days",
        "number",
        "The purchasable block with the least expected total cost whose probability of not "
        "finishing is at most the stated risk.",
        "argmin over allowed D with P(finish) ≥ 1 − risk",
        "derived",
        0,
        computed_by="models.plan._block_curve",
    ),
    _o(
        "cheapest_block_expected_total_cost_usd",
        "Its expected total cost",
        "USD",
        "usd",
        "Expected total cost of that block.",
        "",
        "derived",
        computed_by="models.plan._block_curve",
    ),
    _o(
        "cheapest_block_probability_finish",
        "Its completion probability",
        "fraction",
        "percent",
        "Probability that the run finishes inside that block.",
        "",
        "derived",
        computed_by="models.plan._block_curve",
    ),
    _o(
        "risk",
        "Accepted risk",
        "fraction",
        "percent",
        "The largest accepted probability of not finishing inside the block.",
        computed_by="models.plan.plan_capacity_block",
    ),
    # time_to_finish_mean_days, unfinished_trials, trials, seed: see MONTECARLO_OUTPUTS
    _o(
        "capacity_blocks_needed",
        "Capacity Blocks needed",
        "",
        "count",
        "Blocks of at most 64 instances that hold the job's nodes and spares; for a type sold "
        "only as whole UltraServers (p6e-gb200.36xlarge: 18 instances), the UltraServers.",
        "⌈instances / 64⌉",
        "aws_capacity_blocks",
        computed_by="models.pricing.capacity_blocks_needed",
    ),
    _o(
        "capacity_block_instances",
        "Instances in blocks",
        "nodes",
        "count",
        "Nodes plus hot spares reserved in the blocks, rounded up to whole UltraServers for a "
        "type sold only as UltraServers (all paid).",
        "nodes + spares",
        computed_by="models.plan.plan_capacity_block",
    ),
    _o(
        "capacity_block_usd_per_instance_hour",
        "Block rate",
        "USD/h",
        "usd_rate",
        "The Capacity Block's effective rate per instance-hour (the dated table's, or one "
        "entered with --price capacity_block=…).",
        "",
        "aws_capacity_block_pricing",
        computed_by="models.plan.capacity_block_price",
    ),
    _o(
        "overrun_usd_per_instance_hour",
        "Fallback rate after the block",
        "USD/h",
        "usd_rate",
        "What an instance-hour costs after the block ends: pricing.overrun_usd_per_instance_hour, "
        "else an On-Demand rate entered with --price, else the scenario's own On-Demand price "
        "for its type, else the catalog's.",
        computed_by="models.pricing.overrun_price",
    ),
    _o(
        "capacity_block_price_source",
        "Block price source",
        "",
        "text",
        "Where the block rate comes from.",
        computed_by="models.plan.capacity_block_price",
    ),
    _o(
        "capacity_block_price_as_of",
        "Block price as of",
        "",
        "text",
        "Date of the block rate; null when no date is stated.",
        computed_by="models.plan.capacity_block_price",
    ),
    _o(
        "overrun_price_source",
        "Fallback price source",
        "",
        "text",
        "Where the fallback rate comes from.",
        computed_by="models.pricing.overrun_price",
    ),
    _o(
        "overrun_price_as_of",
        "Fallback price as of",
        "",
        "text",
        "Date of the fallback rate; null when no date is stated.",
        computed_by="models.pricing.overrun_price",
    ),
    _o(
        "transition_minutes",
        "Move after the block",
        "min",
        "number",
        "Replacement, restart and restore from the durable tier when an unfinished run moves "
        "to new instances after its block.",
        "replacement + restart + durable restore",
        "",
        1,
        computed_by="models.plan.plan_capacity_block",
    ),
)

BUDGET_OUTPUTS: tuple[Output, ...] = (
    _o(
        "failures_and_checkpoints_usd",
        "Failures and checkpoints",
        "USD",
        "usd",
        "What failures, recoveries, saves and stalls cost over the run under a pricing model: "
        "the paid time that does not advance training, or under a Capacity Block the extra "
        "block days they make the run need (those hours are already paid); with the plan's "
        "block, its expected block and overrun cost beyond what the failure-free run would "
        "pay: the cheaper of the block it needs and the plan's block with its overrun.",
        "(T − T_ff) × cluster/day; Capacity Block: (D(T) − D(T_ff)) × 24 × n × rate; the "
        "plan's block D: E[C(T; D)] − min(C(T_ff; D), D(T_ff) × 24 × n × rate), C = block + "
        "overrun (models.plan.block_costs)",
        "derived",
        computed_by="models.plan.budget_by_pricing_model",
    ),
    # goodput plan --json's budget rows: the terms each bill rests on
    _o(
        "own_pricing_model",
        "The scenario's pricing model",
        "",
        "bool",
        "Whether this row's pricing model is the scenario's own (pricing.model).",
        computed_by="models.plan.budget_by_pricing_model",
    ),
    _o(
        "idle_paid",
        "Idle hours paid",
        "",
        "bool",
        "Whether the pricing model bills hours the instances sit idle (a commitment or a "
        "reservation) rather than only the hours they run.",
        computed_by="models.plan.budget_by_pricing_model",
    ),
    _o(
        "price_available",
        "Price available",
        "",
        "bool",
        "Whether the pricing model has a rate for this instance type (entered, the "
        "scenario's own or a public one); without one the row's figures are missing and "
        "reason says why.",
        computed_by="models.plan.budget_by_pricing_model",
    ),
)

FILE_SYSTEM_OUTPUTS: tuple[Output, ...] = (
    _o(
        "file_system_TiB",
        "File system size",
        "TiB",
        "number",
        "Provisioned capacity of the shared file system.",
        "",
        "aws_fsx_throughput",
        1,
        computed_by="models.optimize.recommend_file_system",
    ),
    _o(
        "file_system_throughput_MBps_per_TiB",
        "Throughput tier",
        "MB/s/TiB",
        "number",
        "Throughput per TiB of the shared file system (FSx for Lustre PERSISTENT_2 tiers).",
        "",
        "aws_fsx_throughput",
        0,
        computed_by="models.optimize.recommend_file_system",
    ),
    _o(
        "file_system_savings_usd_per_day",
        "Saved by the recommended file system",
        "USD/day",
        "usd",
        "Lost dollars per day of the current file system minus those of the recommended one "
        "(faster saves against a higher storage price).",
        "lost(current) − lost(best)",
        "derived",
        computed_by="models.optimize.recommend_file_system",
    ),
    _o(
        "assumed_save_seconds",
        "Blocking save the scenario assumes",
        "s",
        "number",
        "The blocking save time the scenario states (checkpoint.timings = measured) when it "
        "writes its checkpoints to the shared file system alone; the file-system "
        "recommendation keeps to file systems that can write one that fast.",
        "checkpoint.save_seconds",
        "derived",
        1,
        computed_by="models.optimize.recommend_file_system",
    ),
    _o(
        "deliverable_save_seconds",
        "Blocking save the file system can deliver",
        "s",
        "number",
        "The recommended file system's blocking save by the tier model (latency + shard ÷ "
        "its bandwidth per node), to set against the save the scenario assumes.",
        "latency + shard GB ÷ (throughput per TiB × TiB ÷ nodes)",
        "derived",
        1,
        computed_by="models.optimize.recommend_file_system",
    ),
    _o(
        "at_search_limit",
        "At the search limit",
        "",
        "bool",
        "Whether the recommended file system is the largest size searched: a larger one "
        "might lose less still.",
        "TiB* ≥ largest size searched",
        computed_by="models.optimize.recommend_file_system",
    ),
    _o(
        "warning",
        "File system warning",
        "",
        "text",
        "Why the file-system recommendation may not hold (goodput plan's file_system): the "
        "scenario's stated blocking save is faster than its file system writes, or no "
        "searched file system writes fast enough; empty when there is none.",
        computed_by="models.optimize.recommend_file_system",
    ),
)

INSTANCE_OUTPUTS: tuple[Output, ...] = (
    _o(
        "instance",
        "Instance",
        "",
        "text",
        "Catalog name of the node type.",
        computed_by="models.instances._option",
    ),
    _o(
        "accelerator",
        "Accelerator",
        "",
        "text",
        "Accelerator model of the node type.",
        computed_by="models.instances._option",
    ),
    _o(
        "accelerators_per_node",
        "Accelerators per node",
        "",
        "count",
        "Accelerators in one node of this type.",
        "",
        "aws_instances",
        computed_by="models.instances._option",
    ),
    _o(
        "nodes",
        "Nodes",
        "nodes",
        "count",
        "Nodes of this type in the job (the cheapest count that meets the deadline, if one "
        "is set).",
        computed_by="models.instances._option",
    ),
    _o(
        "price_known",
        "Price known",
        "",
        "bool",
        "Whether a price exists for this type (the catalog's or yours).",
        computed_by="models.instances._option",
    ),
    _o(
        "mfu",
        "MFU",
        "fraction",
        "percent",
        "Model FLOPs utilisation used for this type (end_to_end and compute_only bases).",
        "scenario MFU × catalog MFU ratio, or entered",
        "palm2022",
        computed_by="models.instances.instance_mfu",
    ),
    _o(
        "mfu_source",
        "MFU source",
        "",
        "text",
        "Where this type's MFU comes from.",
        computed_by="models.instances.instance_mfu",
    ),
    _o(
        "node_failure_rate_per_day",
        "Node failure rate",
        "per node-day",
        "percent",
        "Failures per node per day on this type, after the failure-scaling rule.",
        "r·[(1 − s) + s·k/k₀]",
        "llama3_2024",
        computed_by="models.instances.scaled_failure_rate",
    ),
    _o(
        "feasible",
        "Can run",
        "",
        "bool",
        "Whether the workload can run on this type (memory, tensor-parallel domain, catalog "
        "figures).",
        computed_by="models.instances._option",
    ),
    _o(
        "meets_deadline",
        "Meets deadline",
        "",
        "bool",
        "Whether it trains within the deadline.",
        computed_by="models.instances._option",
    ),
    _o(
        "reason",
        "Note",
        "",
        "text",
        "Why a figure is missing or the type is not ranked.",
        computed_by="models.instances._option",
    ),
    _o(
        "price_note",
        "Price basis",
        "",
        "text",
        "Set on a ranking row priced on another basis than the others: the scenario's own "
        "price on its own type (as `goodput evaluate`), with the dates when it is older than "
        "the public prices of the other rows.",
        computed_by="models.instances.rank_instances",
    ),
    _o(
        "node_hours",
        "Node-hours",
        "node-h",
        "count",
        "Node-hours to train (cluster and spares): the cost at $1 per instance-hour.",
        "days × 24 × (nodes + spares)",
        computed_by="models.instances._option",
    ),
    _o(
        "cost_compute_usd",
        "Productive compute",
        "USD",
        "usd",
        "Part of the cost to train spent on productive steps.",
        "see cost_to_train_compute_usd",
        computed_by="models.instances._option",
    ),
    _o(
        "cost_communication_usd",
        "Added communication",
        "USD",
        "usd",
        "Exposed communication added to compute (compute_only basis).",
        computed_by="models.instances._option",
    ),
    _o(
        "cost_bubble_usd",
        "Added bubble",
        "USD",
        "usd",
        "Pipeline bubble added to compute (compute_only basis).",
        "",
        "narayanan2021",
        computed_by="models.instances._option",
    ),
    _o(
        "cost_communication_within_mfu_usd",
        "Communication inside the MFU",
        "USD",
        "usd",
        "Part of the compute cost the network model attributes to exposed communication "
        "(end_to_end basis).",
        computed_by="models.instances._option",
    ),
    _o(
        "cost_bubble_within_mfu_usd",
        "Bubble inside the MFU",
        "USD",
        "usd",
        "Part of the compute cost the model attributes to the pipeline bubble (end_to_end).",
        "",
        "narayanan2021",
        computed_by="models.instances._option",
    ),
    _o(
        "cost_failure_and_checkpoint_usd",
        "Failures and checkpoints",
        "USD",
        "usd",
        "Part of the cost to train lost to failures, recovery, rework, saves and stalls.",
        "cluster cost × days × (1 − g)",
        "daly2006",
        computed_by="models.instances._option",
    ),
    _o(
        "cost_spares_usd",
        "Spare nodes",
        "USD",
        "usd",
        "Idle spare nodes (hot spares, in-domain spares, spare domains' nodes) over the run.",
        computed_by="models.instances._option",
    ),
    _o(
        "bf16_dense_tflops",
        "Peak BF16",
        "TFLOP/s",
        "number",
        "Dense BF16 peak per accelerator.",
        "",
        "ml_engineering",
        0,
        computed_by="models.instances._option",
    ),
    _o(
        "peak_ratio_vs_reference",
        "Peak ratio",
        "×",
        "number",
        "Peak BF16 per accelerator relative to the reference type (p5.48xlarge where it can "
        "train the workload, else the scenario's own type: reference_instance).",
        "peak / peak_ref",
        computed_by="models.instances.rank_instances",
    ),
    _o(
        "modeled_ratio_vs_reference",
        "Modelled ratio",
        "×",
        "number",
        "Useful FLOP/s per accelerator over the whole run (MFU, communication, failures and "
        "checkpoints included) relative to the reference type.",
        "(6ND / (days · accelerators)) / same for the reference",
        computed_by="models.instances.rank_instances",
    ),
    _o(
        "cheapest",
        "Cheapest",
        "",
        "bool",
        "The lowest cost to train among ranked types.",
        computed_by="models.instances._mark_cheapest",
    ),
    _o(
        "too_close_to_call",
        "Too close to call",
        "",
        "bool",
        "This type's 80% cost-to-train interval overlaps the cheapest type's, so the model "
        "cannot tell which is cheaper (in the ranking's JSON: the list of such types).",
        "cost_to_train_usd_low ≤ cheapest's cost_to_train_usd_high",
        "derived",
        computed_by="models.instances.too_close_to_call",
    ),
    _o(
        "verdict",
        "Verdict",
        "",
        "text",
        "The ranking's answer in words: the cheapest type, or too close to call.",
        "",
        "derived",
        computed_by="models.instances.InstanceRanking.verdict",
    ),
    _o(
        "deadline_risk",
        "Deadline risk",
        "",
        "text",
        "When the cheapest type meets the deadline at the point estimate but not at the high "
        "end of its step time's 80% interval, that in words; empty otherwise.",
        "time_to_train_days ≤ deadline < time_to_train_days_high",
        "derived",
        computed_by="models.instances.InstanceRanking.deadline_risk",
    ),
    _o(
        "break_even_usd_per_hour",
        "Break-even price",
        "USD/h",
        "usd_rate",
        "Price per instance-hour below which this type would be the cheapest.",
        "cheapest cost to train / this type's node-hours",
        computed_by="models.instances._mark_cheapest",
    ),
    _o(
        "failure_share",
        "Failure share of cost",
        "fraction",
        "percent",
        "Share of the cost to train lost to failures and checkpoints.",
        "failures and checkpoints / cost to train",
        computed_by="models.instances.InstanceOption.failure_share",
    ),
    _o(
        "communication_share",
        "Communication share of cost",
        "fraction",
        "percent",
        "Share of the cost to train spent in exposed communication (added or inside the MFU).",
        computed_by="models.instances.InstanceOption.communication_share",
    ),
    _o(
        "deadline_days",
        "Deadline",
        "days",
        "number",
        "Training must finish within this many days.",
        "",
        "",
        0,
        computed_by="models.instances.rank_instances",
    ),
    _o(
        "cheapest_nodes",
        "Nodes of the cheapest",
        "nodes",
        "count",
        "Its node count.",
        computed_by="models.instances.InstanceRanking.to_json_dict",
    ),
    _o(
        "failure_scaling",
        "Failure scaling",
        "",
        "text",
        "How the node failure rate carries over to other node types.",
        computed_by="models.instances.rank_instances",
    ),
    _o(
        "accelerator_failure_share",
        "Failures that scale with accelerators",
        "fraction",
        "percent",
        "Share of node failures caused by accelerators (mixed scaling).",
        "GPU group of Llama 3's root causes: 268/419",
        "llama3_2024",
        computed_by="models.instances.rank_instances",
    ),
    _o(
        "scenario_usd_per_instance_hour",
        "Scenario's own price",
        "USD/h",
        "usd_rate",
        "The scenario's price in force (not mixed into the ranking).",
        computed_by="models.instances._scenario_price",
    ),
    _o(
        "runner_up",
        "Runner-up",
        "",
        "text",
        "The next type that can run the workload, is priced and meets the deadline.",
        computed_by="models.instances.verdict_robustness",
    ),
    _o(
        "verdict_break_even_usd_per_hour",
        "Break-even price",
        "USD/h",
        "usd_rate",
        "Price per instance-hour of the cheapest type at which the runner-up costs the same "
        "to train (above it the verdict changes).",
        "cost_runner-up / node-hours_cheapest",
        "derived",
        computed_by="models.instances.verdict_robustness",
    ),
    _o(
        "verdict_price_margin",
        "Price headroom",
        "fraction",
        "percent",
        "How much the cheapest type's price may rise before the runner-up is cheaper.",
        "break-even price / price − 1",
        "derived",
        computed_by="models.instances.VerdictRobustness.price_margin",
    ),
    _o(
        "verdict_break_even_mfu",
        "Break-even MFU",
        "fraction",
        "percent",
        "MFU of the cheapest type at which the runner-up costs the same to train (below it "
        "the verdict changes); node counts re-chosen at every MFU.",
        "root of cost_cheapest(MFU) = cost_runner-up (bisection)",
        "derived",
        computed_by="models.instances._mfu_break_evens",
    ),
    _o(
        "verdict_mfu_margin",
        "MFU headroom",
        "fraction",
        "percent",
        "How much the cheapest type's MFU may fall before the runner-up is cheaper.",
        "1 − break-even MFU / MFU",
        "derived",
        computed_by="models.instances.VerdictRobustness.mfu_margin",
    ),
    _o(
        "runner_up_break_even_mfu",
        "Runner-up's winning MFU",
        "fraction",
        "percent",
        "MFU above which the runner-up would be the cheapest (none if above its measured "
        "maximum achievable matmul fraction).",
        "root of cost_runner-up(MFU) = cost_cheapest (bisection)",
        "derived",
        computed_by="models.instances._mfu_break_evens",
    ),
    _o(
        "scenario_price_source",
        "Scenario price source",
        "",
        "text",
        "Its source.",
        computed_by="models.instances._scenario_price",
    ),
    _o(
        "scenario_price_as_of",
        "Scenario price date",
        "",
        "text",
        "The date of the scenario's price; null where none is stated.",
        computed_by="models.instances._scenario_price",
    ),
)

OPTIMIZE_OUTPUTS: tuple[Output, ...] = (
    _o(
        "recommended_checkpoint_interval_minutes",
        "Recommended checkpoint interval",
        "min",
        "number",
        "The checkpoint interval the Optimizer recommends: the exact optimum, held to "
        "[0.1, 10,080] min (10,080 when the optimum is unbounded, at a 0 failure rate).",
        "τ* = M·[1 + W₀(−e^{−(1+δ/M)})]",
        "daly2006",
        1,
        computed_by="models.optimize.recommend_checkpoint_interval",
    ),
    _o(
        "goodput_at_recommended_interval",
        "Goodput at the recommended interval",
        "fraction",
        "percent",
        "Goodput with the recommended interval, all else as in the scenario.",
        "",
        "daly2006",
        computed_by="models.optimize.recommend_checkpoint_interval",
    ),
    _o(
        "recommendation_savings_usd_per_day",
        "Savings from interval and spares",
        "USD/day",
        "usd",
        "Lost dollars per day saved by the recommended interval and spares together.",
        "lost(now) − lost(recommended)",
        computed_by="models.optimize.optimize",
    ),
    _o(
        "current_checkpoint_interval_minutes",
        "Current interval",
        "min",
        "number",
        "The scenario's checkpoint interval.",
        "",
        "",
        1,
        computed_by="models.optimize.recommend_checkpoint_interval",
    ),
    _o(
        "interval_savings_usd_per_day",
        "Savings from the interval",
        "USD/day",
        "usd",
        "Lost dollars per day saved by the optimal checkpoint interval.",
        "lost(τ_now) − lost(τ*)",
        "daly2006",
        computed_by="models.optimize.recommend_checkpoint_interval",
    ),
    _o(
        "spare_nodes",
        "Best hot-spare count",
        "nodes",
        "count",
        "Hot spares the recommendation keeps beside its domain spares: the count that "
        "minimises the lost dollars per day (exhaustive search 0-200).",
        "argmin_s lost(s)",
        "kleinrock1975",
        computed_by="models.optimize.optimize",
    ),
    _o(
        "spare_policy",
        "Recommended spares",
        "",
        "text",
        "The spares the recommendation keeps: hot spares alone (hot_spares), or spare nodes "
        "in every scale-up domain (in_domain) or whole spare domains (spare_domains) with "
        "the hot spares that still pay beside them, whichever mix saves most per day as "
        "goodput compare counts it.",
        "argmax over domain policies × their best hot-spare count of savings/day",
        "derived",
        computed_by="models.optimize.optimize",
    ),
    _o(
        "current_spare_nodes",
        "Current hot spares",
        "nodes",
        "count",
        "The scenario's spares.",
        computed_by="models.optimize.recommend_spares",
    ),
    _o(
        "domain_spare_nodes",
        "Spare nodes",
        "nodes",
        "count",
        "Paid nodes a spares-by-domain policy adds: in-domain spares × domains, or whole "
        "spare domains × nodes per domain.",
        "s_d · D or S_D · npd",
        "derived",
        computed_by="models.optimize._domain_policies",
    ),
    _o(
        "spares_savings_usd_per_day",
        "Savings from the spares",
        "USD/day",
        "usd",
        "What the recommended spares (domain and hot) save per day against the scenario's, "
        "both at the recommended interval, as goodput compare counts it.",
        "compare(scenario at τ*, recommended)",
        computed_by="models.optimize.optimize",
    ),
    _o(
        "break_even_spares",
        "Spares that still pay",
        "nodes",
        "count",
        "Largest hot-spare count, beside the recommendation's domain spares, whose net "
        "savings versus none are still ≥ 0.",
        computed_by="models.optimize.recommend_spares",
    ),
    _o(
        "spare_payoff_rates_per_day",
        "Rates where the spares pay",
        "per node-day",
        "text",
        "Node failure rate ranges in which the recommended number of hot spares (at least "
        "one, spare_payoff_spares), beside the recommendation's domain spares, saves more "
        "than it costs.",
        "roots of lost(0; r) − lost(s; r) = 0",
        "kleinrock1975",
        computed_by="models.optimize.spare_payoff_rates_per_day",
    ),
    _o(
        "spare_payoff_spares",
        "Spares the rates are for",
        "nodes",
        "count",
        "The hot-spare count of spare_payoff_rates_per_day: the recommended one, at least 1.",
        computed_by="models.optimize.optimize",
    ),
    _o(
        "current_goodput",
        "Current goodput",
        "fraction",
        "percent",
        "Goodput of the scenario as it is.",
        "",
        "daly2006",
        computed_by="models.optimize.recommend_checkpoint_interval",
    ),
    # goodput optimize --json's domain_spares (models.optimize.recommend_domain_spares)
    _o(
        "domains",
        "Scale-up domains searched",
        "domains",
        "count",
        "Scale-up domains the job occupies without domain spares: the domains the "
        "spares-by-domain search starts from.",
        "D = ⌈N / nodes per domain⌉",
        computed_by="models.optimize.recommend_domain_spares",
    ),
    _o(
        "domain_spare_count",
        "Spares of the option",
        "",
        "count",
        "Spare nodes kept in every scale-up domain (policy in_domain) or whole spare "
        "domains (policy spare_domains) of one spares-by-domain option; 0 for none.",
        computed_by="models.optimize._domain_policies",
    ),
)

#: the Monte Carlo result's summaries (models/montecarlo.py)
_SIM = "models.montecarlo.SimulationResult."

MONTECARLO_OUTPUTS: tuple[Output, ...] = (
    *(
        _o(
            f"goodput_{stat}",
            f"Goodput ({name})",
            "fraction",
            "percent",
            f"{name.capitalize()} of the simulated goodput over the horizon.",
            "productive compute / wall time per run",
            "daly2006",
            computed_by=_SIM + ("goodput_mean" if stat == "mean" else "summary"),
        )
        for stat, name in (
            ("mean", "mean"),
            ("p5", "P5"),
            ("p50", "median"),
            ("p95", "P95"),
        )
    ),
    _o(
        "goodput_stderr",
        "Goodput (standard error of the mean)",
        "fraction",
        "points_size",  # a spread of goodput, in points: "± 0.32 points" on page and CLI
        "Standard error of the simulated mean goodput over the horizon, in goodput points.",
        "s / √n",
        "daly2006",
        computed_by=_SIM + "goodput_stderr",
    ),
    _o(
        "goodput_analytic",
        "Goodput (closed form)",
        "fraction",
        "percent",
        "Daly's expectation for the same scenario, next to the simulation.",
        "",
        "daly2006",
        computed_by="models.montecarlo.params_from_inputs",
    ),
    *(
        _o(
            f"time_to_finish_{stat}_days",
            f"Time to finish ({name})",
            "days",
            "number",
            f"{name.capitalize()} of the wall time to do the horizon's work.",
            "",
            "",
            2,
            computed_by=_SIM
            + ("time_to_finish_analytic_days" if stat == "analytic" else "summary"),
        )
        for stat, name in (
            ("mean", "mean"),
            ("p5", "P5"),
            ("p50", "median"),
            ("p95", "P95"),
            ("stderr", "standard error of the mean"),
            ("analytic", "closed form"),
        )
    ),
    _o(
        "cost_mean_usd",
        "Cost per run (mean)",
        "USD",
        "usd",
        "Mean cost of one simulated run.",
        computed_by="models.montecarlo.SimulationResult.summary",
    ),
    _o(
        "lost_mean_usd",
        "Lost per run (mean)",
        "USD",
        "usd",
        "Mean paid time per run that did not advance training, in dollars.",
        computed_by="models.montecarlo.SimulationResult.summary",
    ),
    _o(
        "lost_p95_usd",
        "Lost per run (P95)",
        "USD",
        "usd",
        "95th percentile of the lost dollars per run: one run in twenty loses more.",
        computed_by="models.montecarlo.SimulationResult.summary",
    ),
    *(
        _o(
            f"lost_{stat}_usd_per_month",
            f"Lost per month ({name})",
            "USD/month",
            "usd",
            f"{name.capitalize()} over runs of the lost dollars per month (365.25/12 days) of "
            "wall time: one run's lost dollars divided by its wall time to finish."
            + (" One month in twenty loses more." if stat == "p95" else ""),
            "lost per run / time to finish × 30.44 days",
            "derived",
            computed_by=_SIM + "summary",
        )
        for stat, name in (("mean", "mean"), ("p50", "median"), ("p95", "P95"))
    ),
    _o(
        "lost_analytic_usd",
        "Lost per run (closed form)",
        "USD",
        "usd",
        "Lost dollars of one run at the closed-form goodput: Daly's expected wall time to do "
        "the horizon's work, its unproductive share of the cluster, spares and storage.",
        "(1 − g)·cluster/day + spares/day + storage/day, times work / g days",
        "derived",
        computed_by="models.montecarlo.SimulationResult.summary",
    ),
    _o(
        "lost_analytic_usd_per_month",
        "Lost per month (closed form)",
        "USD/month",
        "usd",
        "The chain's lost dollars per day (spares and storage included) over a month "
        "(365.25/12 days) of wall time, next to the simulated runs.",
        "lost_usd_per_day × 30.44 days",
        "derived",
        computed_by="models.montecarlo.SimulationResult.summary",
    ),
    _o(
        "failures_mean",
        "Failures per run (mean)",
        "",
        "number",
        "Mean job failures per run; its closed form is the counted failure rate times "
        "Daly's expected wall time.",
        decimals=1,
        computed_by="models.montecarlo.SimulationResult.summary",
    ),
    _o(
        "failures_analytic",
        "Failures per run (closed form)",
        "",
        "number",
        "Job failures per run that the rate implies: failures per day (less Spot "
        "interruptions saved within their notice) times Daly's expected wall time. Left "
        "out with Weibull failures or the simulator's extended recovery path, where the "
        "product does not hold.",
        "λ · work / g (Wald's identity)",
        "derived",
        decimals=1,
        computed_by="models.montecarlo.SimulationResult.summary",
    ),
    _o(
        "failures_per_run",
        "Failures per run",
        "",
        "count",
        "Job failures in one simulated run: its 5th, 50th and 95th percentiles over the "
        "runs, whole failures (the nearest run's count).",
        computed_by="views.montecarlo.summary_rows",
    ),
    _o(
        "unfinished_trials",
        "Unfinished runs",
        "",
        "count",
        "Runs still unfinished after 4× the work (their time to finish is unknown).",
        computed_by="models.montecarlo.SimulationResult.unfinished",
    ),
    _o(
        "trials",
        "Runs",
        "",
        "count",
        "Independent simulated runs.",
        computed_by="cli.simulate.cmd_simulate",
    ),
    _o(
        "days",
        "Horizon",
        "days",
        "number",
        "Days of wall time each run is measured over.",
        "",
        "",
        1,
        computed_by="cli.simulate.cmd_simulate",
    ),
    _o(
        "seed",
        "Seed",
        "",
        "count",
        "Random seed (same seed, same result).",
        computed_by="cli.simulate.cmd_simulate",
    ),
    _o(
        "events_simulated",
        "Events simulated",
        "",
        "count",
        "Failures, recoveries and stalls.",
        computed_by="models.montecarlo._result",
    ),
    _o(
        "checkpoints_simulated",
        "Checkpoints simulated",
        "",
        "count",
        "Checkpoint saves.",
        computed_by="models.montecarlo._result",
    ),
    _o(
        "seconds",
        "Run time",
        "s",
        "number",
        "Wall time the computation took.",
        "",
        "",
        2,
        computed_by="cli.simulate.cmd_simulate",
    ),
)

#: Columns of the dashboard's and reports' loss table (one row per loss component).
LOSS_TABLE_OUTPUTS: tuple[Output, ...] = (
    _o(
        "component_minutes_per_day",
        "Time lost",
        "min/day",
        "number",
        "Wall time per day this loss component takes from training; the components add up "
        "to the exact loss (1 − g)·1440.",
        "first-order component × exact loss / first-order total",
        "derived",
        1,
        computed_by="models.evaluate.Evaluation.loss_breakdown",
    ),
    _o(
        "component_usd_per_day",
        "Lost per day",
        "USD/day",
        "usd",
        "That time in dollars per day.",
        "minutes/day ÷ 1440 × cluster cost per day",
        "derived",
        computed_by="models.evaluate.Evaluation.loss_breakdown",
    ),
    _o(
        "component_usd_per_year",
        "Lost per year",
        "USD/year",
        "usd",
        "That time in dollars per year.",
        "lost per day × 365.25",
        computed_by="models.evaluate.Evaluation.loss_breakdown",
    ),
    _o(
        "component_share_of_wall_time",
        "Share of wall-clock time",
        "fraction",
        "percent",
        "Share of the wall-clock time lost to this component (goodput points).",
        "minutes/day ÷ 1440",
        "derived",
        computed_by="models.evaluate.Evaluation.loss_breakdown",
    ),
    _o(
        "component_savings_usd_per_day",
        "Savings per day",
        "USD/day",
        "usd",
        "Lower loss of this component in the candidate, valued at the baseline's cluster "
        "cost; the running-cost row is the difference in what the clusters cost.",
        "(minutes_b − minutes_c)/1440 × cluster cost_b",
        "derived",
        computed_by="models.evaluate.Comparison.savings_by_component",
    ),
    _o(
        "component_minutes_saved_per_day",
        "Time saved",
        "min/day",
        "number",
        "Minutes per day the candidate loses less to this component than the baseline.",
        "minutes_b − minutes_c",
        "derived",
        1,
        computed_by="models.evaluate.Comparison.savings_by_component",
    ),
    _o(
        "component_goodput_points_saved",
        "Goodput saved",
        "points",
        "number",
        "Goodput points the candidate gains from its lower loss in this component; 0 on the "
        "step-time and running-cost rows, which take no wall time.",
        "(minutes_b − minutes_c) / 1440 × 100",
        "derived",
        2,
        computed_by="models.evaluate.Comparison.savings_by_component",
    ),
    # the rows of goodput evaluate --json's badput (one per badput bucket, models/badput.py)
    _o(
        "badput_minutes_per_day",
        "Time lost in the bucket",
        "min/day",
        "number",
        "Wall time per day the loss components that land in this badput bucket take from "
        "training; 0 for idle spares, which cost dollars but no time.",
        "Σ of the bucket's component minutes per day",
        "derived",
        1,
        computed_by="models.badput.badput_minutes_per_day",
    ),
    _o(
        "badput_usd_per_day",
        "Lost per day in the bucket",
        "USD/day",
        "usd",
        "Dollars per day the bucket's loss components cost; the idle_spares bucket holds "
        "what the idle spare nodes cost.",
        "Σ of the bucket's component USD per day (+ spare nodes per day for idle_spares)",
        "derived",
        computed_by="models.badput.badput_usd_per_day",
    ),
)

#: Tables of the Network page.
NETWORK_TABLE_OUTPUTS: tuple[Output, ...] = (
    _o(
        "allreduce_ranks",
        "Data-parallel ranks",
        "",
        "count",
        "Ranks taking part in the gradient all-reduce.",
        "accelerators / (TP × PP)",
        computed_by="models.fabric.allreduce_by_algorithm",
    ),
    _o(
        "allreduce_message_GB",
        "Message per rank",
        "GB",
        "number",
        "Gradient traffic each rank all-reduces per step (bf16 or fp32 gradients; with ZeRO "
        "the reduce-scatter plus the all-gather of bf16 weights, as an all-reduce of equal "
        "traffic).",
        "bytes per parameter × parameters / (TP × PP)",
        "",
        3,
        computed_by="models.fabric.allreduce_by_algorithm",
    ),
    _o(
        "collective_ms",
        "Time",
        "ms",
        "number",
        "Time of the collective in the α-β model.",
        "ring 2(n−1)α + 2((n−1)/n)·S/B; tree and hierarchical as cited",
        "thakur2005",
        1,
        computed_by="models.fabric.allreduce_by_algorithm",
    ),
    _o(
        "algbw_GBps",
        "Algorithm bandwidth",
        "GB/s",
        "number",
        "Message size over time, as NCCL-tests report it.",
        "algbw = S / t",
        "nccl_tests",
        computed_by="models.network.algbw_GBps",
    ),
    _o(
        "busbw_GBps",
        "Bus bandwidth",
        "GB/s",
        "number",
        "Algorithm bandwidth scaled to the link load of a ring, as NCCL-tests report it.",
        "busbw = algbw × 2(n−1)/n",
        "nccl_tests",
        computed_by="models.network.busbw_GBps",
    ),
    _o(
        "reroute_seconds",
        "Stall per event",
        "s",
        "number",
        "How long collectives stall until traffic is rerouted (a labelled input).",
        "",
        "",
        1,
        computed_by="models.fabric.reroute_costs",
    ),
    _o(
        "fabric_goodput_loss",
        "Goodput lost",
        "fraction",
        "points_size",
        "Goodput lost to the fabric events at this reroute time.",
        "g(no events) − g(events)",
        "derived",
        computed_by="models.fabric.reroute_costs",
    ),
    _o(
        "time_to_train_change_days",
        "Change in time to train",
        "days",
        "number",
        "Time to train with the fabric change minus without it (negative: faster).",
        "time to train(changed) − time to train(scenario)",
        "derived",
        1,
        computed_by="models.fabric.fabric_changes",
    ),
    _o(
        "fabric_cost_usd_per_day",
        "Cost of fabric events",
        "USD/day",
        "usd",
        "Dollars per day lost to the fabric events (stalls, or aborts past the timeout).",
        "goodput lost × cluster cost per day",
        "derived",
        computed_by="models.fabric.reroute_costs",
    ),
)

#: The Failure log page: fitted estimates, goodness of fit, causes and lemon nodes.
FAILURE_LOG_OUTPUTS: tuple[Output, ...] = (
    _o(
        "fitted_node_failure_rate_per_day",
        "Node failure rate",
        "per node-day",
        "percent",
        "Failures per node per day in the log (maximum likelihood).",
        "node incidents / node-days; exact Poisson (Garwood) interval",
        "derived",
        computed_by="models.fitting.fit_failure_log",
    ),
    _o(
        "fitted_job_mtbf_hours",
        "Job MTBF (exponential)",
        "h",
        "number",
        "Mean time between the job's incidents.",
        "mean gap; interval from the rate's",
        "derived",
        computed_by="models.fitting.fit_tbf",
    ),
    _o(
        "fitted_weibull_shape",
        "Weibull shape k",
        "",
        "number",
        "Shape of the Weibull fit (k < 1: decreasing hazard).",
        "maximum likelihood; profile-likelihood interval",
        "schroeder2006",
        computed_by="models.fitting.fit_tbf",
    ),
    _o(
        "fitted_weibull_scale_hours",
        "Weibull scale η",
        "h",
        "number",
        "Scale of the Weibull fit of the job's time between incidents.",
        "maximum likelihood; Wald interval on the log scale",
        "derived",
        computed_by="models.fitting.fit_tbf",
    ),
    _o(
        "duplicates",
        "Repeated rows dropped",
        "",
        "count",
        "Rows of a failure log that repeat an earlier row cell for cell (the same time, "
        "node, cause and downtime): the same failure listed twice, not counted.",
        computed_by="models.failure_log.drop_duplicate_rows",
    ),
    _o(
        "timeline_duplicates",
        "Repeated rows dropped",
        "",
        "count",
        "Rows of a run's timeline that repeat an earlier row cell for cell (the same time, "
        "event, step and node, or the same GoodputRecorder record): a log shipper's repeat, "
        "not counted (a repeated step_end would read as rework).",
        computed_by="models.timeline.drop_repeated_rows",
    ),
    _o(
        "repairs",
        "Downtimes fitted",
        "",
        "count",
        "Node failures of a failure log that give a downtime, the repair time fitted from them "
        "(the job's own failures have no node to repair).",
        computed_by="models.fitting.fit_repair_times",
    ),
    _o(
        "repairs_zero",
        "Downtimes of 0",
        "",
        "count",
        "Fitted downtimes of 0 minutes (a node back at once); in the mean and the median.",
        computed_by="models.fitting.fit_repair_times",
    ),
    _o(
        "repair_hours_median",
        "Median repair time",
        "h",
        "number",
        "Median downtime of a failed node in the log: the typical repair.",
        "median of the downtimes",
        "derived",
        1,
        computed_by="models.fitting.fit_repair_times",
    ),
    _o(
        "repair_hours_mean",
        "Mean repair time",
        "h",
        "number",
        "Mean downtime of a failed node in the log: the scenario's reliability.repair_hours. "
        "Erlang's loss formula for the spare pools depends on the repair time only through "
        "its mean.",
        "mean of the downtimes; percentile bootstrap interval",
        "erlang1917",
        1,
        computed_by="models.fitting.fit_repair_times",
    ),
    _o(
        "repair_hours_mean_lo",
        "Mean repair time, lower bound",
        "h",
        "number",
        "Lower end of the percentile bootstrap interval of the mean repair time.",
        "percentile bootstrap, 999 resamples",
        "efron1993",
        1,
        computed_by="models.fitting.fit_repair_times",
    ),
    _o(
        "repair_hours_mean_hi",
        "Mean repair time, upper bound",
        "h",
        "number",
        "Upper end of the percentile bootstrap interval of the mean repair time.",
        "percentile bootstrap, 999 resamples",
        "efron1993",
        1,
        computed_by="models.fitting.fit_repair_times",
    ),
    _o(
        "repair_sigma",
        "Repair time lognormal shape",
        "",
        "number",
        "Shape σ of the lognormal with the log's mean and median repair time: the scenario's "
        "simulation.repair_sigma, with which the simulator draws repairs.",
        "σ = √(2·ln(mean / median))",
        "schroeder2006",
        2,
        computed_by="models.fitting.fit_repair_times",
    ),
    _o(
        "repair_sigma_lo",
        "Repair shape, lower bound",
        "",
        "number",
        "Lower end of the percentile bootstrap interval of the lognormal shape.",
        "percentile bootstrap, 999 resamples",
        "efron1993",
        2,
        computed_by="models.fitting.fit_repair_times",
    ),
    _o(
        "repair_sigma_hi",
        "Repair shape, upper bound",
        "",
        "number",
        "Upper end of the percentile bootstrap interval of the lognormal shape.",
        "percentile bootstrap, 999 resamples",
        "efron1993",
        2,
        computed_by="models.fitting.fit_repair_times",
    ),
    _o(
        "log_likelihood",
        "Log-likelihood",
        "",
        "number",
        "Log-likelihood of the fit.",
        "",
        "",
        1,
        computed_by="models.fitting.fit_tbf",
    ),
    _o(
        "aic",
        "AIC",
        "",
        "number",
        "Akaike information criterion (lower is better).",
        "2k − 2 ln L",
        "",
        1,
        computed_by="models.fitting.fit_tbf",
    ),
    _o(
        "ks_distance",
        "KS distance",
        "",
        "number",
        "Largest gap between the log's and the fit's distribution functions.",
        "sup |F_n − F|",
        "",
        3,
        computed_by="models.fitting.fit_tbf",
    ),
    _o(
        "ks_p_value",
        "KS p-value (optimistic)",
        "",
        "pvalue",
        "Kolmogorov-Smirnov p-value; optimistic because the parameters were fitted to the "
        "same data.",
        computed_by="models.fitting.fit_tbf",
    ),
    _o(
        "failure_count",
        "Failures",
        "",
        "count",
        "Failures in the log.",
        computed_by="models.fitting._cause_rates",
    ),
    _o(
        "cause_rate_per_node_day",
        "Rate",
        "per node-day",
        "percent",
        "Node failures with this cause per node per day (exact chi-square interval); "
        "failures the log marks as the job's own are left out, as from the node failure rate.",
        "node failures with the cause / (nodes × days)",
        "derived",
        4,
        computed_by="models.fitting._cause_rates",
    ),
    _o(
        "lemon_nodes",
        "Lemon nodes",
        "nodes",
        "count",
        "Nodes that fail significantly more often than the rest (binomial upper tail, "
        "Bonferroni over all nodes, α = 0.05).",
        computed_by="models.fitting._lemon_nodes",
    ),
    _o(
        "cause_share",
        "Share of failures",
        "fraction",
        "percent",
        "Share of the log's failures with this cause.",
        computed_by="models.fitting._cause_rates",
    ),
    _o(
        "llama3_cause_share",
        "Llama 3 share",
        "fraction",
        "percent",
        "Share of Llama 3 405B's 419 unexpected interruptions with this cause.",
        "",
        "llama3_2024",
        computed_by="models.fitting._cause_rates",
    ),
    _o(
        "expected_failures",
        "Expected failures",
        "",
        "number",
        "Failures a node would have if all nodes were alike.",
        "failures / nodes",
        computed_by="models.fitting._lemon_nodes",
    ),
    _o(
        "p_value",
        "p-value",
        "",
        "pvalue",
        "Binomial upper tail P(X ≥ count).",
        computed_by="models.fitting._lemon_nodes",
    ),
    _o(
        "p_value_bonferroni",
        "p-value (Bonferroni)",
        "",
        "pvalue",
        "The p-value times the number of nodes (flagged below 0.05).",
        computed_by="models.fitting._lemon_nodes",
    ),
    # goodput fit --json (models.fitting.LogFit.to_json_dict): the log, the job's time
    # between incidents (job_*: fit_tbf) and each node's (node_*: fit_weibull_censored)
    _o(
        "failures",
        "Failures in the log",
        "",
        "count",
        "Failure rows of the log, of every cause, the job's own marks included.",
        computed_by="models.fitting.LogFit.to_json_dict",
    ),
    _o(
        "incidents",
        "Incidents",
        "",
        "count",
        "Distinct failure times of the log: failures at the same moment stop the job once.",
        computed_by="models.fitting.fit_failure_log",
    ),
    _o(
        "log_nodes",
        "Nodes of the log",
        "nodes",
        "count",
        "Nodes the failure log covers, the denominator of its rates per node-day: --nodes, "
        "the log's '# nodes=N' comment, else its distinct node ids; 0 when every failure "
        "is marked as the job's own and neither gives the fleet.",
        computed_by="models.fitting.fit_failure_log",
    ),
    _o(
        "nodes_from_log",
        "Nodes counted from the log",
        "",
        "bool",
        "Whether the node count is the log's distinct node ids (no --nodes, no '# nodes=N' "
        "comment): nodes that never failed are then missing and the rate per node-day is "
        "too high.",
        computed_by="models.fitting.fit_failure_log",
    ),
    _o(
        "span_days",
        "Log span",
        "days",
        "number",
        "Days from the log's first incident to its last.",
        "(t_last − t_first) / 24",
        "",
        1,
        computed_by="models.fitting.fit_failure_log",
    ),
    *(
        _o(
            f"node_failure_rate_per_day_{end}",
            f"Node failure rate, {word} bound",
            "per node-day",
            "percent",
            f"{word.capitalize()} end of the exact Poisson interval of the fitted node "
            "failure rate, at the fit's confidence_level: of the node incidents k over the "
            "node-days E the rate uses; the lower end is 0 when k = 0, and the upper end null "
            "when the log names no node and no fleet size is given.",
            f"χ²_{{{q}}}(2k{'' if end == 'lo' else ' + 2'}) / (2E), E = N · span · n/(n − 1)",
            "garwood1936",
            computed_by="models.fitting.fit_failure_log",
        )
        for end, word, q in (("lo", "lower", "α/2"), ("hi", "upper", "1−α/2"))
    ),
    _o(
        "median_downtime_minutes",
        "Median downtime",
        "min",
        "number",
        "Median downtime of the log's node failures (not the job's own); null when the log "
        "gives none.",
        "median of the downtimes",
        "",
        1,
        computed_by="models.fitting.fit_failure_log",
    ),
    _o(
        "job_n_gaps",
        "Job gaps fitted",
        "",
        "count",
        "Gaps between consecutive incidents the job's fits use: the incidents less one.",
        "incidents − 1",
        computed_by="models.fitting.fit_tbf",
    ),
    _o(
        "job_exp_rate_per_h",
        "Job incident rate (exponential)",
        "per h",
        "number",
        "Incidents per hour of the job: the exponential fit of the gaps between incidents "
        "(maximum likelihood).",
        "λ̂ = n / ΣX",
        "lawless2003",
        4,
        computed_by="models.fitting.fit_tbf",
    ),
    *(
        _o(
            f"job_exp_rate_per_h_{end}",
            f"Job incident rate, {word} bound",
            "per h",
            "number",
            f"{word.capitalize()} end of the exact chi-square interval of the job's incident rate.",
            f"χ²_{{{q}}}(2n) / (2·ΣX)",
            "lawless2003",
            4,
            computed_by="models.fitting.fit_tbf",
        )
        for end, word, q in (("lo", "lower", "α/2"), ("hi", "upper", "1−α/2"))
    ),
    _o(
        "job_exp_mean_h",
        "Job MTBF, exponential fit",
        "h",
        "number",
        "Mean time between the job's incidents: the exponential fit's mean, the gaps' mean "
        "(fitted_job_mtbf_hours on the Failure log page).",
        "1 / λ̂",
        "lawless2003",
        computed_by="models.fitting.fit_tbf",
    ),
    _o(
        "job_weibull_shape",
        "Job Weibull shape",
        "",
        "number",
        "Shape k of the Weibull fit of the gaps between the job's incidents (k < 1: the "
        "hazard falls with time since the last incident); null when the gaps are all the "
        "same or nearly so (the Weibull likelihood still rises at shape 100).",
        "maximum likelihood, location 0",
        "lawless2003",
        3,
        computed_by="models.fitting.fit_tbf",
    ),
    *(
        _o(
            f"job_weibull_shape_{end}",
            f"Job Weibull shape, {word} bound",
            "",
            "number",
            f"{word.capitalize()} end of the profile-likelihood interval of the job's "
            "Weibull shape.",
            "{k : 2[ℓ(k̂) − ℓ_p(k)] ≤ χ²₁(confidence)}",
            "lawless2003",
            3,
            computed_by="models.fitting.fit_tbf",
        )
        for end, word in (("lo", "lower"), ("hi", "upper"))
    ),
    _o(
        "job_weibull_scale_h",
        "Job Weibull scale",
        "h",
        "number",
        "Scale η of the Weibull fit of the gaps between the job's incidents.",
        "maximum likelihood, location 0",
        "lawless2003",
        computed_by="models.fitting.fit_tbf",
    ),
    *(
        _o(
            f"job_weibull_scale_h_{end}",
            f"Job Weibull scale, {word} bound",
            "h",
            "number",
            f"{word.capitalize()} end of the Wald interval of the job's Weibull scale, taken "
            "on its logarithm.",
            f"η̂ · exp({sign}z · se(ln η̂))",
            "lawless2003",
            computed_by="models.fitting.fit_tbf",
        )
        for end, word, sign in (("lo", "lower", "−"), ("hi", "upper", ""))
    ),
    _o(
        "job_weibull_mean_h",
        "Job MTBF, Weibull fit",
        "h",
        "number",
        "Mean time between the job's incidents under the Weibull fit.",
        "η · Γ(1 + 1/k)",
        "lawless2003",
        computed_by="models.fitting.fit_tbf",
    ),
    *(
        _o(
            f"job_loglik_{model}",
            f"Log-likelihood, {word}",
            "",
            "number",
            f"Log-likelihood of the {word} fit of the gaps between the job's incidents.",
            "ℓ = Σ ln f(xᵢ)",
            "",
            1,
            computed_by="models.fitting.fit_tbf",
        )
        for model, word in (("exponential", "exponential"), ("weibull", "Weibull"))
    ),
    *(
        _o(
            f"job_aic_{model}",
            f"AIC, {word}",
            "",
            "number",
            f"Akaike information criterion of the {word} fit of the job's gaps (the lower of "
            "the two fits better).",
            f"2·{k} − 2ℓ",
            "",
            1,
            computed_by="models.fitting.fit_tbf",
        )
        for model, word, k in (("exponential", "exponential", 1), ("weibull", "Weibull", 2))
    ),
    _o(
        "job_lr_statistic",
        "Likelihood-ratio statistic",
        "",
        "number",
        "Likelihood-ratio statistic of the exponential (k = 1) inside the Weibull fit of "
        "the job's gaps.",
        "D = 2(ℓ_W − ℓ_E)",
        "lawless2003",
        computed_by="models.fitting.fit_tbf",
    ),
    _o(
        "job_lr_p_value",
        "Likelihood-ratio p-value",
        "",
        "pvalue",
        "Probability of a statistic at least D if the job's gaps were exponential: a small "
        "value rejects the exponential in favour of the Weibull.",
        "P(χ²₁ ≥ D)",
        "lawless2003",
        computed_by="models.fitting.fit_tbf",
    ),
    *(
        _o(
            f"job_ks_{model}",
            f"KS distance, {word}",
            "",
            "number",
            f"Largest gap between the distribution functions of the job's gaps and of the "
            f"{word} fit.",
            "sup |F_n − F|",
            "",
            3,
            computed_by="models.fitting.fit_tbf",
        )
        for model, word in (("exponential", "exponential"), ("weibull", "Weibull"))
    ),
    *(
        _o(
            f"job_ks_{model}_p_optimistic",
            f"KS p-value, {word} (optimistic)",
            "",
            "pvalue",
            f"Kolmogorov-Smirnov p-value of the {word} fit; too large, since the fit's "
            "parameters come from the same gaps (the Lilliefors effect).",
            computed_by="models.fitting.fit_tbf",
        )
        for model, word in (("exponential", "exponential"), ("weibull", "Weibull"))
    ),
    _o(
        "node_n_gaps",
        "Node gaps fitted",
        "",
        "count",
        "Gaps between repeat failures of the same node that the per-node Weibull fit uses "
        "(lemon nodes and the job's own marks left out).",
        computed_by="models.fitting.fit_weibull_censored",
    ),
    _o(
        "node_n_censored",
        "Censored node times",
        "",
        "count",
        "Right-censored times of the per-node fit: each node's time from its last failure "
        "to the end of the log.",
        computed_by="models.fitting.fit_weibull_censored",
    ),
    _o(
        "node_weibull_shape",
        "Weibull shape per node",
        "",
        "number",
        "Shape k of the Weibull renewal process of one node, fitted with censoring: what "
        "the simulator's reliability.weibull_shape means.",
        "maximum likelihood with right-censoring",
        "lawless2003",
        3,
        computed_by="models.fitting.fit_weibull_censored",
    ),
    *(
        _o(
            f"node_weibull_shape_{end}",
            f"Weibull shape per node, {word} bound",
            "",
            "number",
            f"{word.capitalize()} end of the profile-likelihood interval of the per-node "
            "Weibull shape.",
            "{k : 2[ℓ(k̂) − ℓ_p(k)] ≤ χ²₁(confidence)}",
            "lawless2003",
            3,
            computed_by="models.fitting.fit_weibull_censored",
        )
        for end, word in (("lo", "lower"), ("hi", "upper"))
    ),
    _o(
        "node_weibull_scale_h",
        "Weibull scale per node",
        "h",
        "number",
        "Scale η of the per-node Weibull fit.",
        "η̂ᵏ = (Σ tᵢᵏ + Σ cⱼᵏ) / d",
        "lawless2003",
        computed_by="models.fitting.fit_weibull_censored",
    ),
    _o(
        "node_exp_rate_per_h",
        "Failure rate per node (exponential)",
        "per h",
        "number",
        "Failures per hour of one node under an exponential fit of the same gaps and "
        "censored times.",
        "d / (Σ t + Σ c)",
        "lawless2003",
        6,
        computed_by="models.fitting.fit_weibull_censored",
    ),
    _o(
        "node_loglik_weibull",
        "Log-likelihood, per-node Weibull",
        "",
        "number",
        "Log-likelihood of the per-node Weibull fit at its maximum.",
        "ℓ_p(k̂)",
        "",
        1,
        computed_by="models.fitting.fit_weibull_censored",
    ),
    _o(
        "weibull_shape",
        "Weibull shape for the scenario",
        "",
        "number",
        "The per-node Weibull shape (node_weibull_shape) that goes into the scenario's "
        "reliability.weibull_shape; null when too few nodes failed twice to fit it.",
        "node_weibull_shape",
        "lawless2003",
        3,
        computed_by="models.fitting.LogFit.weibull_shape",
    ),
    _o(
        "lemon_test",
        "Lemon-node test",
        "",
        "text",
        "The test this fit flagged lemon nodes with: the binomial upper tail per node, "
        "Bonferroni over the nodes, and its family-wise error.",
        computed_by="models.fitting.LogFit.to_json_dict",
    ),
    *(
        _o(
            f"cause_rate_per_node_day_{end}",
            f"Rate, {word} bound",
            "per node-day",
            "percent",
            f"{word.capitalize()} end of the exact Poisson interval of a cause's rate per "
            "node-day, at the fit's confidence_level (95%).",
            f"χ²_{{{q}}}({df}) / 2 / node-days",
            "garwood1936",
            4,
            computed_by="models.fitting._cause_rates",
        )
        for end, word, q, df in (("lo", "lower", "α/2", "2k"), ("hi", "upper", "1−α/2", "2k + 2"))
    ),
    _o(
        "llama3_failures",
        "Llama 3 failures",
        "",
        "count",
        "Unexpected interruptions of Llama 3 405B's pre-training with this cause (of 419).",
        "",
        "llama3_2024",
        computed_by="models.fitting._cause_rates",
    ),
)

#: The Sensitivity page's figures beyond the evaluation's own.
SENSITIVITY_OUTPUTS: tuple[Output, ...] = (
    _o(
        "goodput_swing",
        "Goodput swing",
        "fraction",
        "points_size",
        "Goodput with the input raised minus goodput with it lowered (absolute).",
        "|g(high) − g(low)|",
        computed_by="models.sensitivity.tornado",
    ),
    _o(
        "lost_usd_per_day_swing",
        "Lost-per-day swing",
        "USD/day",
        "usd",
        "Lost dollars per day with the input raised minus lowered (absolute).",
        "|lost(high) − lost(low)|",
        computed_by="models.sensitivity.tornado",
    ),
)

# ---- goodput reconcile: a measured run, its fitted parameters and predicted-vs-measured
# (models/timeline.py, models/reconcile.py, docs/timeline.md)
_RUN_SAMPLES = (
    ("save", "seconds", "s", "Blocking save", 1),
    ("restore", "seconds", "s", "Restore", 1),
    ("recovery", "minutes", "min", "Recovery (failure to restore)", 2),
    ("step", "seconds", "s", "Step time", 3),
)

RECONCILE_OUTPUTS: tuple[Output, ...] = (
    _o(
        "timeline_source",
        "Timeline",
        "",
        "text",
        "The run's timeline file.",
        computed_by="models.reconcile.reconcile",
    ),
    _o(
        "timeline_format",
        "Timeline format",
        "",
        "text",
        "timeline (docs/timeline.md) or goodput_recorder (ml-goodput-measurement's records).",
        "",
        "ml_goodput_measurement",
        computed_by="models.reconcile.reconcile",
    ),
    _o(
        "timeline_rows",
        "Rows read",
        "",
        "count",
        "Data rows read from the timeline.",
        computed_by="models.reconcile.reconcile",
    ),
    _o(
        "timeline_ignored_rows",
        "Rows ignored",
        "",
        "count",
        "Records read but not used (records without any GoodputRecorder key).",
        computed_by="models.reconcile.reconcile",
    ),
    _o(
        "run_start",
        "Run start",
        "",
        "text",
        "The job_start time (UTC).",
        computed_by="models.reconcile.Reconciliation.to_json_dict",
    ),
    _o(
        "run_end",
        "Run end",
        "",
        "text",
        "The job_end time (UTC).",
        computed_by="models.reconcile.Reconciliation.to_json_dict",
    ),
    _o(
        "run_days",
        "Run length",
        "days",
        "number",
        "job_end − job_start.",
        "",
        "",
        2,
        computed_by="models.timeline.RunMeasurement.span_days",
    ),
    _o(
        "run_nodes",
        "Nodes",
        "nodes",
        "count",
        "Nodes the job ran on (--nodes, or the base scenario's cluster.nodes).",
        computed_by="models.reconcile.reconcile",
    ),
    _o(
        "run_nodes_source",
        "Nodes from",
        "",
        "text",
        "Where the node count came from.",
        computed_by="models.reconcile.reconcile",
    ),
    _o(
        "measured_goodput",
        "Measured goodput",
        "fraction",
        "percent",
        "Share of the run's wall time spent in step executions whose work survived to the "
        "end (the last execution of each step number).",
        "productive / (job_end − job_start)",
        computed_by="models.timeline.RunMeasurement.goodput",
    ),
    _o(
        "predicted_goodput",
        "Predicted goodput",
        "fraction",
        "percent",
        "The analytic model's goodput for the scenario fitted to the run (in what_if: for "
        "the changed scenario).",
        "Daly's exact expectation on the fitted scenario",
        "daly2006",
        computed_by="models.reconcile.Reconciliation.predicted_goodput",
    ),
    _o(
        "predicted_goodput_p5",
        "Predicted goodput P5",
        "fraction",
        "percent",
        "5th percentile of the goodput of Monte Carlo runs of the fitted scenario as long "
        "as this one.",
        "percentile over trials",
        "derived",
        computed_by="models.reconcile.Reconciliation.to_json_dict",
    ),
    _o(
        "predicted_goodput_p95",
        "Predicted goodput P95",
        "fraction",
        "percent",
        "95th percentile of the goodput of Monte Carlo runs of the fitted scenario as long "
        "as this one.",
        "percentile over trials",
        "derived",
        computed_by="models.reconcile.Reconciliation.to_json_dict",
    ),
    _o(
        "predicted_goodput_mc_mean",
        "Predicted goodput (Monte Carlo mean)",
        "fraction",
        "percent",
        "Mean goodput of those Monte Carlo runs.",
        "mean over trials",
        "derived",
        computed_by="models.reconcile.Reconciliation.to_json_dict",
    ),
    _o(
        "prediction_minus_measured",
        "Predicted − measured",
        "fraction",
        "points",
        "How far the analytic prediction on the fitted scenario is from the measured goodput.",
        "g_predicted − g_measured",
        computed_by="models.reconcile.Reconciliation.to_json_dict",
    ),
    _o(
        "monte_carlo_trials",
        "Monte Carlo trials",
        "",
        "count",
        "Simulated runs behind the band.",
        computed_by="models.reconcile.Reconciliation.to_json_dict",
    ),
    _o(
        "monte_carlo_seed",
        "Monte Carlo seed",
        "",
        "count",
        "Random seed of the simulation.",
        computed_by="models.reconcile.Reconciliation.to_json_dict",
    ),
    _o(
        "run_wall_hours",
        "Wall time",
        "h",
        "number",
        "job_end − job_start.",
        "",
        "",
        1,
        computed_by="models.reconcile.Reconciliation.to_json_dict",
    ),
    _o(
        "run_productive_hours",
        "Productive time",
        "h",
        "number",
        "Wall time in surviving step executions.",
        "Σ last execution of each step",
        "",
        1,
        computed_by="models.reconcile.Reconciliation.to_json_dict",
    ),
    _o(
        "run_badput_hours",
        "Badput",
        "h",
        "number",
        "Wall time that did not advance training: the sum of the badput buckets.",
        "wall − productive",
        "",
        1,
        computed_by="models.reconcile.Reconciliation.to_json_dict",
    ),
    _o(
        "run_cost_usd",
        "Run cost",
        "USD",
        "usd",
        "What the run's nodes cost for its wall time at the scenario's price.",
        "wall hours × nodes × price",
        computed_by="models.reconcile.Reconciliation.to_json_dict",
    ),
    _o(
        "run_badput_usd",
        "Badput cost",
        "USD",
        "usd",
        "What the badput cost at the scenario's price.",
        "badput hours × nodes × price",
        computed_by="models.reconcile.Reconciliation.to_json_dict",
    ),
    _o(
        "failure_events",
        "Failure events",
        "",
        "count",
        "failure rows in the timeline.",
        computed_by="models.timeline.RunMeasurement.failures",
    ),
    _o(
        "failure_incidents",
        "Failure incidents",
        "",
        "count",
        "Failures at distinct times (several nodes failing at once stop the job once).",
        computed_by="models.timeline.RunMeasurement.incidents",
    ),
    _o(
        "bucket_label",
        "Bucket",
        "",
        "text",
        "Badput bucket of the measured run.",
        computed_by="models.reconcile.Reconciliation.badput_rows",
    ),
    _o(
        "badput_bucket",
        "Badput bucket",
        "",
        "text",
        "ml-goodput-measurement's name of the badput bucket (BadputType), or ours where none "
        "fits (fabric_stall, straggler, resilience_overhead, idle_spares).",
        reference="ml_goodput_measurement",
        computed_by="models.badput.badput_minutes_per_day",
    ),
    _o(
        "model_components",
        "Model components",
        "",
        "text",
        "The analytic model's loss components the bucket is compared with (docs/timeline.md).",
        computed_by="models.reconcile.Reconciliation.badput_rows",
    ),
    _o(
        "measured_hours",
        "Measured",
        "h",
        "number",
        "Wall time of the run spent in this bucket.",
        "sum of the bucket's intervals",
        "",
        2,
        computed_by="models.reconcile.Reconciliation.badput_rows",
    ),
    _o(
        "predicted_hours",
        "Predicted",
        "h",
        "number",
        "The fitted scenario's loss in this bucket over the run's length.",
        "Σ loss_<component>_minutes_per_day × days / 60",
        "derived",
        2,
        computed_by="models.reconcile.Reconciliation.badput_rows",
    ),
    _o(
        "what_if_hours",
        "What-if",
        "h",
        "number",
        "The changed scenario's loss in this bucket over the run's length.",
        "Σ loss_<component>_minutes_per_day × days / 60",
        "derived",
        2,
        computed_by="models.reconcile.Reconciliation.bucket_rows",
    ),
    _o(
        "measured_fraction",
        "Measured share",
        "fraction",
        "percent",
        "The bucket's share of the run's wall time.",
        "bucket / wall",
        computed_by="models.reconcile.Reconciliation.badput_rows",
    ),
    _o(
        "predicted_fraction",
        "Predicted share",
        "fraction",
        "percent",
        "The model's share of wall time for the bucket.",
        "predicted / wall",
        "derived",
        computed_by="models.reconcile.Reconciliation.badput_rows",
    ),
    _o(
        "measured_usd",
        "Measured cost",
        "USD",
        "usd",
        "The bucket's hours at the scenario's price.",
        "hours × nodes × price",
        computed_by="models.reconcile.Reconciliation.badput_rows",
    ),
    _o(
        "predicted_usd",
        "Predicted cost",
        "USD",
        "usd",
        "The predicted hours at the scenario's price.",
        "hours × nodes × price",
        computed_by="models.reconcile.Reconciliation.badput_rows",
    ),
    _o(
        "failure_rate_per_node_day",
        "Fitted node failure rate",
        "per node-day",
        "number",
        "Failure incidents per node per wall-clock day of the run.",
        "incidents / (nodes × days)",
        "",
        5,
        computed_by="models.reconcile.fit_timeline",
    ),
    _o(
        "failure_rate_per_node_day_lo",
        "Failure rate, lower bound",
        "per node-day",
        "number",
        "Lower end of the exact Poisson interval of the fitted rate.",
        "χ²_{α/2}(2k) / (2E)",
        "garwood1936",
        5,
        computed_by="models.fitting.poisson_rate_ci",
    ),
    _o(
        "failure_rate_per_node_day_hi",
        "Failure rate, upper bound",
        "per node-day",
        "number",
        "Upper end of the exact Poisson interval of the fitted rate.",
        "χ²_{1−α/2}(2k + 2) / (2E)",
        "garwood1936",
        5,
        computed_by="models.fitting.poisson_rate_ci",
    ),
    _o(
        "job_interruptions_per_day_lo",
        "Job-level interruptions, lower bound",
        "per day",
        "number",
        "Lower end of the exact Poisson interval of the fitted job-level interruption rate "
        "(failures the log marks as the job's own).",
        "χ²_{α/2}(2k) / (2·days)",
        "garwood1936",
        computed_by="models.fitting.poisson_rate_ci",
    ),
    _o(
        "job_interruptions_per_day_hi",
        "Job-level interruptions, upper bound",
        "per day",
        "number",
        "Upper end of the exact Poisson interval of the fitted job-level interruption rate.",
        "χ²_{1−α/2}(2k + 2) / (2·days)",
        "garwood1936",
        computed_by="models.fitting.poisson_rate_ci",
    ),
    _o(
        "job_incidents",
        "Job-level incidents",
        "",
        "count",
        "Incidents of a failure log whose every failure is marked as the job's own (node id "
        "'job', '*', '-' ...), left out of the node failure rate.",
        computed_by="models.fitting.split_job_level",
    ),
    _o(
        "measured_with",
        "Measured together with",
        "",
        "text",
        "Badput buckets a run log measures together with this one (a timeline has no event "
        "between them): the measured figure of the group is on its first bucket.",
        computed_by="models.reconcile.Reconciliation.badput_rows",
    ),
    _o(
        "predicted_group_hours",
        "Predicted (group)",
        "h",
        "number",
        "The model's loss over the run for this bucket and those measured with it: the figure "
        "to set against the measured one.",
        "Σ predicted hours of the group",
        computed_by="models.reconcile.Reconciliation.badput_rows",
    ),
    _o(
        "confidence_level",
        "Confidence",
        "fraction",
        "percent",
        "Two-sided level of intervals.",
        computed_by="models.reconcile.fit_timeline",
    ),
    _o(
        "recovery_minutes",
        "Recovery (failure to restore)",
        "min",
        "number",
        "Mean time from the last failure before a restore to restore_start (detection, "
        "replacement and restart).",
        "mean(restore_start − failure)",
        "",
        2,
        computed_by="models.reconcile.summarise",
    ),
    _o(
        "recovery_spread",
        "Recovery spread",
        "",
        "number",
        "Coefficient of variation of the recovery times (the simulator's "
        "simulation.recovery_spread).",
        "sd / mean",
        "",
        2,
        computed_by="models.reconcile.summarise",
    ),
    *(
        _o(
            f"{name}s_measured" if name != "recovery" else "recoveries_measured",
            f"{label}: count",
            "",
            "count",
            f"Complete {label.lower()} intervals measured in the run.",
            computed_by="models.reconcile.summarise",
        )
        for name, _unit, _u, label, _d in _RUN_SAMPLES
    ),
    *(
        _o(
            f"{name}_p{q}_{unit}",
            f"{label} P{q}",
            u,
            "number",
            f"{q}th percentile of the measured {label.lower()} times.",
            "percentile of the sample",
            "",
            d,
            computed_by="models.reconcile.summarise",
        )
        for name, unit, u, label, d in _RUN_SAMPLES
        for q in (10, 50, 90)
    ),
    _o(
        "not_fitted",
        "Not fitted",
        "",
        "text",
        "Scenario fields the run could not tell (they keep the base scenario's value), and why.",
        computed_by="models.reconcile.fitted_scenario",
    ),
    _o(
        "scenario_overrides",
        "Fitted fields",
        "",
        "text",
        "The fitted fields as --set section.key=value strings.",
        computed_by="models.reconcile.scenario_overrides",
    ),
    _o(
        "what_if_set",
        "What-if changes",
        "",
        "text",
        "The --set changes of the what-if.",
        computed_by="models.reconcile.reconcile",
    ),
    _o(
        "estimated_goodput",
        "This run under the change",
        "fraction",
        "percent",
        "What this run would have measured had the change been in place: its measured "
        "badput, less the 'other' time the model does not describe (kept as measured), "
        "scaled by the model's predicted badput with the change over without it.",
        "1 − min(1, u + (b − u)·(1 − g_what-if)/(1 − g_fitted)), b the measured badput, "
        "u its unmodelled part",
        "derived",
        computed_by="models.reconcile.WhatIf.estimated_goodput",
    ),
    _o(
        "run_savings_usd",
        "Savings over the run",
        "USD",
        "usd",
        "The change's savings per day over the run's length.",
        "savings/day × run days",
        "derived",
        computed_by="models.reconcile.WhatIf.run_savings_usd",
    ),
    _o(
        "scenario_written",
        "Scenario written",
        "",
        "text",
        "The fitted scenario's TOML file.",
        computed_by="cli.reconcile.cmd_reconcile",
    ),
)

#: ``goodput sweep``: its JSON summary and the Monte Carlo columns of its Parquet rows (the
#: same keys as ``goodput simulate --json``; the analytic columns are the figures above).
SWEEP_OUTPUTS: tuple[Output, ...] = (
    _o(
        "engine",
        "Engine",
        "",
        "text",
        "What evaluated the sweep: 'local' (this process), 'dask' (dask.distributed) or "
        "'none' (the output already held the sweep).",
        computed_by="engine.sweep.run_sweep",
    ),
    _o(
        "parts_healed",
        "Parts evaluated again",
        "parts",
        "count",
        "Finished batches of an interrupted run that did not read back and were evaluated again.",
        computed_by="engine.sweep._resume",
    ),
    _o(
        "fingerprint",
        "Fingerprint",
        "",
        "text",
        "sha256 of what decides the rows (inputs, grid, trials, days, seed, version, catalog "
        "and presets), also in the Parquet file's metadata.",
        computed_by="engine.sweep.SweepSpec.fingerprint",
    ),
    _o(
        "workers",
        "Workers",
        "workers",
        "count",
        "Dask worker processes that evaluated the sweep (0 when every point was resumed).",
        computed_by="engine.sweep.run_sweep",
    ),
    _o(
        "points",
        "Points",
        "points",
        "count",
        "Points of the sweep's grid (rows written).",
        computed_by="models.sweep.check_axes",
    ),
    _o(
        "points_evaluated",
        "Points evaluated",
        "points",
        "count",
        "Points evaluated by this run.",
        "points − points resumed",
        computed_by="engine.sweep.run_sweep",
    ),
    _o(
        "points_resumed",
        "Points resumed",
        "points",
        "count",
        "Points taken from the finished batches of an interrupted run of the same sweep.",
        computed_by="engine.sweep.run_sweep",
    ),
    _o(
        "batches",
        "Batches",
        "batches",
        "count",
        "Batches the points were cut into.",
        computed_by="engine.sweep.run_sweep",
    ),
    _o(
        "point",
        "Point",
        "",
        "count",
        "Number of the point in the grid (first axis slowest).",
        computed_by="models.sweep.evaluate_batch",
    ),
    _o(
        "cluster_start_seconds",
        "Cluster start",
        "s",
        "number",
        "Wall time to start or reach the Dask cluster.",
        computed_by="engine.sweep.run_sweep",
    ),
    _o(
        "output",
        "Output",
        "",
        "text",
        "The Parquet file written.",
        computed_by="engine.sweep.run_sweep",
    ),
    _o(
        "varied_fields",
        "Varied fields",
        "",
        "text",
        "The scenario fields varied, in axis order.",
        computed_by="engine.sweep.run_sweep",
    ),
    # the Monte Carlo columns (goodput_mean ... unfinished_trials) and trials, days,
    # seed, seconds are registered once, in MONTECARLO_OUTPUTS
)

_HI = "models.uncertainty.headline_intervals"
_DEC = "models.decide.decide"
_PFD = "models.decide.probability_finish_by_deadline"

#: 80% intervals of the headline figures over the failure-rate and step-time uncertainty.
INTERVAL_OUTPUTS: tuple[Output, ...] = (
    _o(
        "goodput_low",
        "Goodput, 80% low",
        "fraction",
        "percent",
        "10th percentile of goodput over the failure rate's 80% interval (a fitted log's, else "
        "the fleet prior of docs/decide.md).",
        "P10 of g(λ), λ lognormal through the interval",
        "derived",
        computed_by=_HI,
    ),
    _o(
        "goodput_high",
        "Goodput, 80% high",
        "fraction",
        "percent",
        "90th percentile of goodput over the failure rate's 80% interval.",
        "P90 of g(λ)",
        "derived",
        computed_by=_HI,
    ),
    _o(
        "lost_usd_per_day_low",
        "Lost per day, 80% low",
        "USD/day",
        "usd",
        "10th percentile of the money lost per day over the failure rate's 80% interval.",
        "P10 of (1 − g(λ))·cluster $/day + spares",
        "derived",
        computed_by=_HI,
    ),
    _o(
        "lost_usd_per_day_high",
        "Lost per day, 80% high",
        "USD/day",
        "usd",
        "90th percentile of the money lost per day over the failure rate's 80% interval.",
        "P90 of (1 − g(λ))·cluster $/day + spares",
        "derived",
        computed_by=_HI,
    ),
    _o(
        "time_to_train_days_p10",
        "Time to train, P10 (all inputs)",
        "days",
        "number",
        "10th percentile of the time to train over BOTH the failure rate's and the step time's "
        "80% intervals (time_to_train_days_low/high is the step model's interval alone).",
        "P10 of steps·step·s/g(λ)",
        "derived",
        1,
        computed_by=_HI,
    ),
    _o(
        "time_to_train_days_p90",
        "Time to train, P90 (all inputs)",
        "days",
        "number",
        "90th percentile of the time to train over both the failure-rate and step-time intervals.",
        "P90 of steps·step·s/g(λ)",
        "derived",
        1,
        computed_by=_HI,
    ),
    _o(
        "total_cost_to_train_usd_low",
        "Total cost to train, P10 (all inputs)",
        "USD",
        "usd",
        "10th percentile of the whole bill of the run (instances and storage) over both the "
        "failure-rate and step-time intervals.",
        "P10 of the bill at (λ, s)",
        "derived",
        computed_by=_HI,
    ),
    _o(
        "total_cost_to_train_usd_high",
        "Total cost to train, P90 (all inputs)",
        "USD",
        "usd",
        "90th percentile of the whole bill of the run over both intervals.",
        "P90 of the bill at (λ, s)",
        "derived",
        computed_by=_HI,
    ),
)

#: ``goodput decide`` and ``goodput plan --deadline-days``.
DECIDE_OUTPUTS: tuple[Output, ...] = (
    _o(
        "confidence",
        "Confidence",
        "fraction",
        "percent",
        "The probability P of finishing by the deadline the decision must reach.",
        computed_by=_DEC,
    ),
    _o(
        "budget_usd",
        "Budget",
        "USD",
        "usd",
        "With a budget, a candidate's P90 total cost must be at most this.",
        computed_by=_DEC,
    ),
    _o(
        "meets_target",
        "Meets the target",
        "",
        "bool",
        "Some configuration finishes by the "
        "deadline with at least the confidence (and within the budget).",
        computed_by=_DEC,
    ),
    _o(
        "answer",
        "Answer",
        "",
        "text",
        "The decision in one sentence.",
        computed_by="models.decide.Decision.sentence",
    ),
    _o(
        "choice",
        "Choice",
        "",
        "text",
        "The configuration chosen: instance, nodes, pricing "
        "model, block length, spares, checkpoint strategy and interval, features.",
        computed_by=_DEC,
    ),
    _o(
        "set",
        "As --set overrides",
        "",
        "text",
        "The section.key=value overrides that turn the "
        "scenario into the choice (evaluate them with goodput plan --deadline-days).",
        computed_by="models.decide.set_arguments",
    ),
    _o(
        "total_cost_usd_p10",
        "Total cost, P10",
        "USD",
        "usd",
        "10th percentile of the total "
        "cost over the simulated runs (failures, failure rate and step time uncertain).",
        "P10 over runs",
        "derived",
        computed_by="models.decide.price_samples",
    ),
    _o(
        "total_cost_usd_p90",
        "Total cost, P90",
        "USD",
        "usd",
        "90th percentile of the total cost over the simulated runs.",
        "P90 over runs",
        "derived",
        computed_by="models.decide.price_samples",
    ),
    _o(
        "probability_finish_by_deadline",
        "P(finish by the deadline)",
        "fraction",
        "percent",
        "Share of simulated runs that finish the workload by the deadline; each run draws its "
        "own failure rate and step time from their 80% intervals.",
        "P(T ≤ D)",
        "derived",
        computed_by="models.decide.price_samples",
    ),
    _o(
        "paid_spare_nodes",
        "Paid spare nodes",
        "nodes",
        "count",
        "Every node a choice (goodput decide), a recommendation (goodput optimize) or a "
        "ranked type pays for beside the job: hot spares, the nodes of spare domains and "
        "the spares kept in every domain (the answer's '+ N spare').",
        "hot spares + spare domains × domain size + per-domain spares × domains",
        computed_by="models.decide._spare_pool",
    ),
    _o(
        "spare_domains",
        "Spare domains",
        "domains",
        "count",
        "Whole spare scale-up domains a choice (goodput decide), a recommendation (goodput "
        "optimize) or a ranked type keeps (the scenario's cluster.spare_domains).",
        computed_by="models.decide._spare_pool",
    ),
    _o(
        "spare_nodes_per_domain",
        "Spare nodes per domain",
        "nodes",
        "count",
        "Spare nodes a choice (goodput decide), a recommendation (goodput optimize) or a "
        "ranked type keeps in every scale-up domain (the scenario's "
        "cluster.spare_nodes_per_domain; 0 on a type whose domain has at most that many "
        "nodes).",
        computed_by="models.decide._spare_pool",
    ),
    _o(
        "closest",
        "Closest",
        "",
        "text",
        "When nothing meets the brief: the configuration with the highest probability, or, "
        "when some reach the target probability and only the budget stops them, the one "
        "with the lowest P90 cost.",
        computed_by=_DEC,
    ),
    _o(
        "would_take",
        "What it would take",
        "",
        "text",
        "When nothing meets the brief: the budget the closest needs (when only the budget "
        "stops it), else the deadline at which it reaches the confidence, the confidence it "
        "reaches, and (analytic) the node count that would.",
        computed_by="models.decide._would_take",
    ),
    _o(
        "budget_usd_needed",
        "Budget needed",
        "USD",
        "usd",
        "When the closest configuration reaches the target probability by the deadline but "
        "its P90 total cost is over the budget: that P90 cost, the least budget it needs.",
        "P90 of the total cost",
        "derived",
        computed_by="models.decide._would_take",
    ),
    _o(
        "deadline_days_at_confidence",
        "Deadline at the confidence",
        "days",
        "number",
        "The deadline the closest configuration meets with the confidence.",
        "P-quantile of T",
        "derived",
        1,
        computed_by="models.decide._would_take",
    ),
    _o(
        "confidence_at_deadline",
        "Confidence at the deadline",
        "fraction",
        "percent",
        "The probability the closest configuration reaches by the deadline.",
        computed_by="models.decide._would_take",
    ),
    _o(
        "nodes_at_confidence_analytic",
        "Nodes for the confidence (analytic)",
        "nodes",
        "count",
        "Smallest node count of the closest type whose approximate P meets the target.",
        computed_by="models.decide._would_take",
    ),
    _o(
        "text",
        "In words",
        "",
        "text",
        "The same, in one sentence.",
        computed_by="models.decide._would_take",
    ),
    _o(
        "runners_up",
        "Runners-up",
        "",
        "text",
        "The best of every other instance type and "
        "pricing model, with cost, probability and why it lost.",
        computed_by=_DEC,
    ),
    _o(
        "frontier",
        "Cost-probability frontier",
        "",
        "text",
        "The Pareto set of expected cost "
        "against P(finish by the deadline) over the simulated candidates.",
        computed_by="models.decide._pareto",
    ),
    _o(
        "what_would_change",
        "What would change the decision",
        "",
        "text",
        "The prices at which a runner-up would win (expected cost is linear in each rate).",
        computed_by="models.decide._what_would_change",
    ),
    _o(
        "dropped_instances",
        "Types not searched",
        "",
        "text",
        "Instance types left out, each "
        "with the reason (no price, cannot run, misses the deadline at any size).",
        computed_by=_DEC,
    ),
    _o(
        "node_failure_rate_low",
        "Failure rate, 80% low",
        "per node-day",
        "percent",
        "Lower end of the failure rate's 80% interval used.",
        computed_by="models.uncertainty.failure_rate_interval",
    ),
    _o(
        "node_failure_rate_high",
        "Failure rate, 80% high",
        "per node-day",
        "percent",
        "Upper end of the failure rate's 80% interval used.",
        computed_by="models.uncertainty.failure_rate_interval",
    ),
    _o(
        "failure_rate_interval_source",
        "Failure-rate interval from",
        "",
        "text",
        "Where the failure rate's interval comes from (the scenario's, or the fleet prior).",
        computed_by="models.uncertainty.failure_rate_interval",
    ),
    _o(
        "step_time_multiplier_low",
        "Step time, 80% low",
        "",
        "number",
        "Lower end of the step time's 80% interval relative to the modelled step.",
        computed_by="models.uncertainty.step_time_interval",
    ),
    _o(
        "step_time_multiplier_high",
        "Step time, 80% high",
        "",
        "number",
        "Upper end of the step time's 80% interval relative to the modelled step.",
        computed_by="models.uncertainty.step_time_interval",
    ),
    _o(
        "step_time_interval_source",
        "Step-time interval from",
        "",
        "text",
        "Where the step time's interval comes from.",
        computed_by="models.uncertainty.step_time_interval",
    ),
    _o(
        "analytic_candidates",
        "Candidates evaluated analytically",
        "candidates",
        "count",
        "Configurations (type, features, strategy, nodes, spares) the analytic prune evaluated.",
        computed_by="models.decide.analytic_candidates",
    ),
    _o(
        "simulated_configurations",
        "Configurations simulated",
        "configurations",
        "count",
        "Configurations on the Monte Carlo short list.",
        computed_by=_DEC,
    ),
    _o(
        "configurations_resumed",
        "Configurations resumed",
        "configurations",
        "count",
        "Simulations taken from an interrupted run of the same decision (-o FILE.json).",
        computed_by="views.decide.dask_runner",
    ),
    _o(
        "reference",
        "Ranked first by goodput instances",
        "",
        "text",
        "The configuration "
        "goodput instances --deadline-days D ranks first (On-Demand), simulated alike.",
        computed_by=_DEC,
    ),
    _o("notes", "Notes", "", "text", "Conditions the answer rests on.", computed_by=_DEC),
    _o(
        "checkpoint_strategy",
        "Checkpoint strategy",
        "",
        "text",
        "Where checkpoints go (checkpoint.strategy).",
        computed_by="models.decide._rows",
    ),
    _o(
        "features",
        "Resilience features",
        "",
        "text",
        "Ladder features adopted (models/resilience.py).",
        computed_by="models.decide.feature_sets",
    ),
    _o(
        "pricing_label",
        "Pricing",
        "",
        "text",
        "The pricing model, in words.",
        computed_by="models.decide.PriceOption.label",
    ),
    _o(
        "why_not",
        "Why it lost",
        "",
        "text",
        "Why a runner-up is not the choice.",
        computed_by="models.decide._why_not",
    ),
    _o(
        "usd_per_price_unit",
        "Cost per unit of price",
        "USD per USD/instance-h",
        "number",
        "d(expected cost)/d(rate): instance-hours paid at the option's rate.",
        computed_by="models.decide.price_samples",
    ),
    _o(
        "time_to_finish_p90_days",
        "Time to finish, P90",
        "days",
        "number",
        "90th percentile of the wall time to finish over the simulated runs.",
        "P90 of T",
        "derived",
        2,
        computed_by=_PFD,
    ),
    _o(
        "deadline_trials",
        "Runs for the deadline probability",
        "runs",
        "count",
        "Monte Carlo runs behind probability_finish_by_deadline in goodput plan.",
        computed_by=_PFD,
    ),
)

#: Sections of the registry: (id, title, outputs).  Reports group figures beyond the
#: core ones by section.  A bare tuple of outputs is accepted too (section "other").
_SECTIONS: tuple = (
    ("failures", "Failures", FAILURE_OUTPUTS),
    ("checkpoint", "Checkpointing", CHECKPOINT_OUTPUTS),
    ("goodput", "Goodput", GOODPUT_OUTPUTS),
    ("losses", "Losses by component", LOSS_OUTPUTS),
    ("compute", "Compute and network", STEP_OUTPUTS),
    ("cost", "Cost", COST_OUTPUTS),
    ("train", "Time and cost to train", TRAIN_OUTPUTS),
    ("reliability", "Value of reliability", RELIABILITY_VALUE_OUTPUTS),
    ("comparison", "Comparison", COMPARISON_OUTPUTS),
    ("instances", "Instance choice", INSTANCE_OUTPUTS),
    ("optimize", "Recommendations", OPTIMIZE_OUTPUTS),
    ("montecarlo", "Monte Carlo", MONTECARLO_OUTPUTS),
    ("loss_table", "Loss table", LOSS_TABLE_OUTPUTS),
    ("network_tables", "Collectives and fabric faults", NETWORK_TABLE_OUTPUTS),
    ("failure_log", "Failure log fits", FAILURE_LOG_OUTPUTS),
    ("sensitivity", "Sensitivity", SENSITIVITY_OUTPUTS),
    ("plan", "Capacity Block plan", PLAN_OUTPUTS),
    ("budget", "Budget by pricing model", BUDGET_OUTPUTS),
    ("file_system", "Shared file system", FILE_SYSTEM_OUTPUTS),
    ("reconcile", "Run log: measured vs predicted", RECONCILE_OUTPUTS),
    ("recovery", "Recovery stages and failure classes", RESILIENCE_OUTPUTS),
    ("sweep", "Sweeps", SWEEP_OUTPUTS),
    ("intervals", "80% intervals (failure rate and step time)", INTERVAL_OUTPUTS),
    ("decide", "Decision under a deadline", DECIDE_OUTPUTS),
)


def _normalise(sections) -> list[tuple[str, str, tuple[Output, ...]]]:
    out = []
    for sec in sections:
        if len(sec) == 3 and isinstance(sec[0], str):
            out.append((sec[0], sec[1], tuple(sec[2])))
        else:
            out.append(("other", "Other results", tuple(sec)))
    return out


def _build(sections: Iterable[Iterable[Output]]) -> dict[str, Output]:
    out: dict[str, Output] = {}
    for section in sections:
        for o in section:
            if o.key in out:
                raise ValueError(f"output {o.key!r} is registered twice")
            if o.kind not in KINDS:
                raise ValueError(f"output {o.key!r}: unknown kind {o.kind!r}")
            if o.reference and o.reference != "derived" and o.reference not in REFERENCES:
                raise ValueError(f"output {o.key!r}: unknown reference {o.reference!r}")
            out[o.key] = o
    return out


SECTIONS: list[tuple[str, str, tuple[Output, ...]]] = _normalise(_SECTIONS)
OUTPUTS: dict[str, Output] = _build(outputs for _, _, outputs in SECTIONS)
#: output key -> (section id, section title)
SECTION_OF: dict[str, tuple[str, str]] = {
    o.key: (sid, title) for sid, title, outputs in SECTIONS for o in outputs
}

#: Columns of a table in a command's ``--json`` (rows under the key named) that the registry
#: holds under another key: the name the dashboard's table gives the column, or a name of the
#: table's own where the JSON's is a word other tables use for another figure ("usd_per_day",
#: "count", "own", a tier's "restore_seconds").  {table: {JSON key: registry key}}.
JSON_COLUMNS: dict[str, dict[str, str]] = {
    "loss_breakdown": {
        "minutes_per_day": "component_minutes_per_day",
        "usd_per_day": "component_usd_per_day",
        "usd_per_year": "component_usd_per_year",
        "fraction_of_wall_time": "component_share_of_wall_time",
    },
    "savings_by_component": {
        "minutes_per_day_saved": "component_minutes_saved_per_day",
        "usd_per_day": "component_savings_usd_per_day",
        "goodput_points": "component_goodput_points_saved",
    },
    "badput": {"minutes_per_day": "badput_minutes_per_day", "usd_per_day": "badput_usd_per_day"},
    "causes": {
        "failures": "failure_count",
        "share": "cause_share",
        "rate_per_node_day": "cause_rate_per_node_day",
        "rate_per_node_day_lo": "cause_rate_per_node_day_lo",
        "rate_per_node_day_hi": "cause_rate_per_node_day_hi",
        "llama3_share": "llama3_cause_share",
    },
    "lemon_nodes": {"failures": "failure_count"},
    "budget": {"own": "own_pricing_model", "available": "price_available"},
    # a tier's own restore (restore_seconds is the level-1 restore in force)
    "checkpoint_tiers": {"restore_seconds": "restore_seconds_sync"},
    **{
        option: {"count": "domain_spare_count", "spare_nodes": "domain_spare_nodes"}
        for option in ("best_without_hot_spares", "best_in_domain", "best_spare_domains", "options")
    },
}

#: Top-level keys of one command's ``--json`` that the registry holds under another key,
#: because the JSON's name is another figure's: goodput fit's node count and rate are the
#: log's, not an instance type's.  {command: {JSON key: registry key}}.
JSON_TOP_LEVEL: dict[str, dict[str, str]] = {
    "fit": {"nodes": "log_nodes", "node_failure_rate_per_day": "fitted_node_failure_rate_per_day"},
    "ladder": {"features": "ladder_features"},
    "reconcile": {"duplicates": "timeline_duplicates"},
}


def json_names(key: str) -> list[str]:
    """Where output ``key`` appears in a command's ``--json`` under a name of its own
    (``share (in causes)``, ``nodes (goodput fit)``); [] when only under its key.

    Parameters
    ----------
    key : str
        Output key.

    Returns
    -------
    list of str
        The JSON names, a table's columns as ``column (in table)``.
    """
    out = [
        f"{col} (in {table})"
        for table, cols in JSON_COLUMNS.items()
        for col, reg in cols.items()
        if reg == key
    ]
    out += [
        f"{col} (goodput {cmd})"
        for cmd, cols in JSON_TOP_LEVEL.items()
        for col, reg in cols.items()
        if reg == key
    ]
    return out


def output(key: str) -> Output:
    """The registry entry of ``key``; KeyError names the key when it is not registered.

    Parameters
    ----------
    key : str
        Output key (as in the JSON of ``goodput evaluate``).

    Returns
    -------
    Output
        The registry entry.
    """
    try:
        return OUTPUTS[key]
    except KeyError:
        raise KeyError(f"{key!r} is not in the output registry (models/outputs.py)") from None


def label(key: str) -> str:
    """The label of output ``key`` (no unit).

    Parameters
    ----------
    key : str
        Output key.

    Returns
    -------
    str
        The entry's label.
    """
    return output(key).label


def help_text(key: str) -> str:
    """Tooltip text of output ``key``: meaning, formula and source.

    Parameters
    ----------
    key : str
        Output key.

    Returns
    -------
    str
        Meaning, formula and source of the output.
    """
    return output(key).help()


def fallback_share_of_failures(metrics) -> float:
    """The share of all failures that restore from the durable tier [fraction]: the
    fallbacks per day over the failures per day, domain events included (with adjacent
    replicas a rack event takes every copy on its nodes, so on NVL72 a fifth of all failures
    fall back where 8.40% of node failures do).  NaN without failures.

    Parameters
    ----------
    metrics : Mapping
        An evaluation's figures, with ``fallback_failures_per_day`` and
        ``failures_per_day`` [per day].

    Returns
    -------
    float
        λ₂ / λ [fraction], NaN when λ is 0.

    Examples
    --------
    >>> fallback_share_of_failures({"fallback_failures_per_day": 0.5, "failures_per_day": 2.5})
    0.2
    """
    fallbacks = float(metrics.get("fallback_failures_per_day", math.nan))
    failures = float(metrics.get("failures_per_day", math.nan))
    return fallbacks / failures if failures > 0 else math.nan


def json_value(key: str, value):
    """``value`` of output ``key`` as JSON writes it: a non-finite float as None (``null``),
    a whole number of a ``count`` or ``whole`` output as an int (``"nodes": 128``, not
    ``128.0``; the vectorised model holds counts as floats), a 0 or 1 of a ``bool`` output
    as false or true, anything else unchanged.

    Parameters
    ----------
    key : str
        Output key (an unregistered key is only cleaned of non-finite floats).
    value : Any
        The figure, in the output's unit.

    Returns
    -------
    Any
        The JSON-ready value.

    Examples
    --------
    >>> json_value("nodes", 128.0), json_value("goodput", float("nan"))
    (128, None)
    >>> json_value("failures_per_run", 2.5), json_value("memory_fits", 1.0)
    (2.5, True)
    """
    if hasattr(value, "dtype") and getattr(value, "ndim", 1) == 0:  # a numpy scalar
        value = value.item()
    if isinstance(value, float):
        if not math.isfinite(value):
            return None
        o = OUTPUTS.get(key)
        if o is not None and o.kind in ("count", "whole") and value.is_integer():
            return int(value)
        if o is not None and o.kind == "bool" and value in (0.0, 1.0):
            return value == 1.0  # a yes/no figure is true or false, as instances writes it
    return value


def json_ready(obj):
    """``obj`` with every value under a registered key as :func:`json_value` writes it,
    through nested dicts and lists (the CLI's JSON; a value not under a key is unchanged).

    Parameters
    ----------
    obj : Any
        A JSON-able tree of dicts, lists and scalars.

    Returns
    -------
    Any
        The same tree, counts as integers.

    Examples
    --------
    >>> json_ready({"rows": [{"nodes": 2.0, "goodput": 0.5}]})
    {'rows': [{'nodes': 2, 'goodput': 0.5}]}
    """
    if isinstance(obj, dict):
        return {k: json_value(k, json_ready(v)) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [json_ready(v) for v in obj]
    return obj

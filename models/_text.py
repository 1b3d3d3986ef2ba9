"""Text of the project's own help strings: sentences, and the note a derived field carries.

A field's help is several sentences; where one sentence of it is shown (the comment of a
field left empty in a scenario file), it must end at a real sentence boundary: not inside a
number ("1.93"), an abbreviation ("e.g.") or a reference ("arXiv:2407.21783").
"""

from __future__ import annotations

import math
import re

from .errors import one_line

#: Words that end with a period without ending a sentence ("e.g. 2023-07", "Narayanan et
#: al. 2021", "cf. Table 3"), lower case, without their last period.
ABBREVIATIONS = frozenset(
    {"e.g", "i.e", "et al", "al", "cf", "vs", "etc", "approx", "fig", "eq", "no", "app", "sec"}
)

#: A sentence that says what an empty field becomes ("Empty = h/a.", "Omit to use ...",
#: "Leave empty to derive ...", "...; left empty, the rate times 1.93 ...").
_DERIVATION = re.compile(r"^(empty\b|omit\b|leave (it )?empty\b)|\bleft empty\b", re.IGNORECASE)
_LAST_WORD = re.compile(r"([A-Za-z][A-Za-z.]*(?: al)?)$")


def as_sentence(note: str) -> str:
    """A note written mid-sentence ("the global batch ...") as a sentence of its own: a
    capital first letter and a full stop (not doubled); ``""`` stays ``""``.

    Parameters
    ----------
    note : str
        The note, as :attr:`models.evaluate.Evaluation.texts` and the CLI write it.

    Returns
    -------
    str
        The sentence.

    Examples
    --------
    >>> as_sentence("no Capacity Block fits"), as_sentence("done."), as_sentence("")
    ('No Capacity Block fits.', 'Done.', '')
    """
    if not note:
        return ""
    return note[0].upper() + note[1:] + ("" if note.endswith(".") else ".")


def sentences(text: str) -> list[str]:
    """``text`` split into sentences.

    A sentence ends at a period followed by white space or the end of the text, outside
    brackets, and not after an abbreviation (:data:`ABBREVIATIONS`) or another period (an
    ellipsis).  A period inside a number (1.93, arXiv:2407.21783), a file name
    (data/instances.csv) or brackets ("(... Table 3. ...)") ends nothing.

    Parameters
    ----------
    text : str
        The text (a field's help).

    Returns
    -------
    list of str
        The sentences, each with its own final period, white space stripped.

    Examples
    --------
    >>> sentences("Upper end; left empty, the rate times 1.93 (docs/decide.md). Default 0.")
    ['Upper end; left empty, the rate times 1.93 (docs/decide.md).', 'Default 0.']
    >>> sentences("When the price was valid, e.g. 2023-07.")
    ['When the price was valid, e.g. 2023-07.']
    """
    out: list[str] = []
    start = depth = 0
    for i, c in enumerate(text):
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth = max(0, depth - 1)
        elif c == "." and depth == 0 and (i + 1 == len(text) or text[i + 1].isspace()):
            word = _LAST_WORD.search(text[start:i])
            abbreviation = word is not None and word.group(1).lower() in ABBREVIATIONS
            if not abbreviation and text[i - 1 : i] != ".":
                sentence = text[start : i + 1].strip()
                if sentence:
                    out.append(sentence)
                start = i + 1
    rest = text[start:].strip()
    if rest:
        out.append(rest)
    return out


def derived_note(help_text: str) -> str:
    """What the comment of a derived (empty) field says: the first sentence of its help and,
    when that one does not say it, the first sentence on how the empty field is derived
    ("Empty = ...", "Omit to ...", "Leave empty to ..."); the last period dropped, as the
    note sits in brackets.

    Parameters
    ----------
    help_text : str
        The field's help.

    Returns
    -------
    str
        The note, on one line.

    Examples
    --------
    >>> derived_note("Micro-batches per step, m. Empty = B/(d·b). Bubble = (p−1)/v.")
    'Micro-batches per step, m. Empty = B/(d·b)'
    """
    parts = sentences(help_text)
    if not parts:
        return ""
    note = [parts[0]]
    if not _DERIVATION.search(parts[0]):
        note += [s for s in parts[1:] if _DERIVATION.search(s)][:1]
    text = " ".join(note)
    if text.endswith(".") and not text.endswith(".."):
        text = text[:-1]
    return one_line(text)


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """A count with its noun, in the singular for one: "1 incident", "62,683 repeat gaps".

    Parameters
    ----------
    n : int
        The count [-].
    noun : str
        The noun in the singular.
    plural : str, optional
        The plural, when it is not ``noun + "s"`` ("recoveries").

    Returns
    -------
    str
        ``n`` with thousands separators and the noun.

    >>> counted(1, "incident"), counted(62683, "repeat gap"), counted(2, "recovery", "recoveries")
    ('1 incident', '62,683 repeat gaps', '2 recoveries')
    """
    n = int(n)
    return f"{n:,} {noun if n == 1 else (plural or noun + 's')}"


def rate_interval_note(
    was: tuple[float, float], now: tuple[float | None, float | None], how: str
) -> str:
    """What happened to the failure rate's stated 80% interval when the rate was edited
    without it (:func:`models.scenario.interval_follows_rate`), in the sidebar's words.

    Parameters
    ----------
    was : tuple of float
        The interval ends before the edit [% per node-day].
    now : tuple of float or None
        The ends after it [% per node-day]; None: emptied, the fleet prior applies.
    how : str
        Where to state another interval ("Advanced → Failure model", a ``--set``).

    Returns
    -------
    str
        One sentence.

    Examples
    --------
    >>> rate_interval_note((0.4, 0.45), (0.2, 0.225), "Advanced → Failure model")
    "The failure rate's stated 80% interval (0.4–0.45%) moved with the rate: → 0.2–0.225% per node-day (Advanced → Failure model)."
    """
    lo, hi = now
    if lo is None or hi is None:
        text = "no longer applies at this rate: the fleet prior around the rate is used"
    else:
        text = f"moved with the rate: → {lo:.3g}–{hi:.3g}% per node-day"
    return f"The failure rate's stated 80% interval ({was[0]:.3g}–{was[1]:.3g}%) {text} ({how})."


#: Units that name things, written in the singular after exactly one ("1 node", "1 day");
#: every plural-noun unit of the field and output registries.
SINGULAR_UNITS = {
    "batches": "batch",
    "bytes": "byte",
    "candidates": "candidate",
    "checkpoints": "checkpoint",
    "chunks": "chunk",
    "configurations": "configuration",
    "copies": "copy",
    "days": "day",
    "domains": "domain",
    "experts": "expert",
    "heads": "head",
    "layers": "layer",
    "modules": "module",
    "nodes": "node",
    "node-days": "node-day",
    "parts": "part",
    "points": "point",
    "ranks": "rank",
    "replicas": "replica",
    "restarts": "restart",
    "runs": "run",
    "sequences": "sequence",
    "stages": "stage",
    "tokens": "token",
    "workers": "worker",
}


def with_unit(number: str, unit: str) -> str:
    """A formatted number and its unit, the unit in the singular after exactly one.

    Parameters
    ----------
    number : str
        The number as written ("1", "+1", "−1", "2,000", "1.5").
    unit : str
        The unit (a plural noun of :data:`SINGULAR_UNITS`, or any other unit).

    Returns
    -------
    str
        ``number unit``; "1 node", not "1 nodes" (but "1.0 nodes" and "2 nodes").

    Examples
    --------
    >>> with_unit("1", "nodes"), with_unit("−1", "days"), with_unit("2,000", "nodes")
    ('1 node', '−1 day', '2,000 nodes')
    """
    if number.lstrip("+−-") == "1":
        unit = SINGULAR_UNITS.get(unit, unit)
    return f"{number} {unit}"


def node_days(x: float) -> str:
    """An exposure in node-days with its unit, a small positive one never rounded to 0.

    Parameters
    ----------
    x : float
        The exposure [node-days].

    Returns
    -------
    str
        Whole node-days from 10 up ("1,280 node-days"), else two significant digits
        ("0.042 node-days", "2.5 node-days"); "1 node-day" for exactly one.

    Examples
    --------
    >>> node_days(1280.4), node_days(1 / 24), node_days(2.5), node_days(1.0), node_days(0.0)
    ('1,280 node-days', '0.042 node-days', '2.5 node-days', '1 node-day', '0 node-days')
    """
    x = float(x)
    digits = 0
    if math.isfinite(x) and x != 0 and x != round(x):
        digits = max(0, 1 - math.floor(math.log10(abs(x))))
        if abs(round(x, digits)) >= 10:  # 9.96 reads 10, not 10.0
            digits = 0
    return with_unit(f"{x:,.{digits}f}" if math.isfinite(x) else str(x), "node-days")

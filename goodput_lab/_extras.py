"""The optional parts of the install (``pip install 'goodput-lab[EXTRA]'``) and a check that
turns a missing one into the project's one-line error instead of a traceback.

The core (``goodput_lab.models``, the data, the command line's model commands and the Dask
sweep engine) needs numpy, scipy, polars, dask[distributed] and tomli-w only.  The extras
are declared in pyproject.toml; this table must name the same packages (a test checks it).
"""

from __future__ import annotations

import importlib.util

#: extra -> the top-level modules it brings (pyproject.toml's [project.optional-dependencies])
EXTRAS: dict[str, tuple[str, ...]] = {
    "dashboard": ("streamlit", "plotly"),
    "pdf": ("playwright", "plotly"),
}

#: module -> the extra to install when it is missing (the first extra that brings it)
EXTRA_OF: dict[str, str] = {}
for _extra, _modules in EXTRAS.items():
    for _m in _modules:
        EXTRA_OF.setdefault(_m, _extra)


def install_hint(extra: str) -> str:
    """The command that installs ``extra``: ``pip install 'goodput-lab[dashboard]'``."""
    return f"pip install 'goodput-lab[{extra}]'"


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a broken or half-removed install counts as missing
        return False


def missing(extra: str, modules: tuple[str, ...] | None = None) -> list[str]:
    """The modules of ``extra`` (or just ``modules`` of it) that are not installed, found
    without importing any of them."""
    return [m for m in (modules or EXTRAS[extra]) if not _installed(m)]


def missing_extra_message(extra: str, modules: list[str]) -> str:
    """``needs the [pdf] extra (playwright is not installed): pip install ...``."""
    names = ", ".join(modules)
    verb = "is" if len(modules) == 1 else "are"
    return f"needs the [{extra}] extra ({names} {verb} not installed): {install_hint(extra)}"


def require(extra: str, what: str, modules: tuple[str, ...] | None = None) -> None:
    """Raise the project's ValidationError (exit status 2 in the CLI) naming the extra to
    install when any module of ``extra`` is missing.

    Parameters
    ----------
    extra : str
        ``"dashboard"`` or ``"pdf"`` (keys of :data:`EXTRAS`).
    what : str
        What needs it, as the user typed it: ``"dashboard"``, ``"-o"``.
    modules : tuple of str, optional
        The modules of the extra that are needed (default: all of them).
    """
    gone = missing(extra, modules)
    if gone:
        from goodput_lab.models.errors import ValidationError

        raise ValidationError(what, missing_extra_message(extra, gone))


def extra_for_import_error(exc: BaseException) -> str | None:
    """The extra that brings the module a ModuleNotFoundError is about, or None."""
    name = getattr(exc, "name", None) or ""
    return EXTRA_OF.get(name.split(".")[0]) if isinstance(exc, ModuleNotFoundError) else None

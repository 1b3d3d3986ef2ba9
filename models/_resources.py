"""Where the shipped data lives: ``goodput_lab.data``, found with :mod:`importlib.resources`.

In the repository the package ``goodput_lab.data`` is the top-level ``data/`` folder; in an
installed wheel it sits inside ``goodput_lab/``.  Either way the files are ordinary files on
disk (the project is never imported from a zip), so :data:`DATA_DIR` is a real ``Path`` that
the strict, size-capped readers can ``stat`` before they read.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

DATA_DIR = Path(str(resources.files("goodput_lab.data")))
SCENARIO_DIR = DATA_DIR / "scenarios"


def data_path(*parts: str) -> Path:
    """Path of a file shipped in ``goodput_lab.data`` (e.g. ``data_path("instances.csv")``).

    Parameters
    ----------
    *parts : str
        Path parts below the data folder.

    Returns
    -------
    Path
        The file's path (not checked to exist).
    """
    return DATA_DIR.joinpath(*parts)

"""Goodput Lab: what reliability, checkpointing, networking, instance choice and pricing are
worth for large AI training clusters, in hours and dollars.

The repository keeps the top-level folders ``models/`` (pure models), ``dashboard/`` (the
Streamlit app, CLI and reports) and ``data/`` (catalogs and presets); the wheel installs them
as ``goodput_lab.models``, ``goodput_lab.dashboard`` and ``goodput_lab.data`` so that they never
collide with a user's own ``models`` or ``dashboard`` package.
"""

__version__ = "0.2.0"

"""Catalogs and presets shipped with Goodput Lab (read with ``importlib.resources``).

Every figure here carries its source; see ``README.md`` in this folder.
"""

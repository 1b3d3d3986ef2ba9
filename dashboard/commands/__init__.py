"""Subcommands of ``goodput`` beyond the core ones, one module each (see dashboard.cli)."""

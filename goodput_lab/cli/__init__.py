"""The ``goodput`` command line: :mod:`goodput_lab.cli.main` parses and dispatches; one module
per subcommand beyond the core ones.  Needs the core install only (no Streamlit, no plotly)."""

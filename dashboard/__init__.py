"""Goodput Lab user interfaces: Streamlit app, chart builders, reports and the CLI."""

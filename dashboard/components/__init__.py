"""Reusable Streamlit widgets; each owns its session-state keys."""

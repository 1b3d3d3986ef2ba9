"""Pure plotly figure builders: data in, ``go.Figure`` out (no Streamlit)."""

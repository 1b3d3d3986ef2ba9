"""Services: call the models and shape results as polars tables.  No Streamlit here."""

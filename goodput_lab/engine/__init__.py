"""The sweep engine: grids of scenarios evaluated in blocks, locally or on a Dask cluster,
written to Parquet with a resumable fingerprint.  No Streamlit."""

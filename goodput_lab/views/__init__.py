"""View-models: call the models and shape their results as tiles, tables and captions built
from registry keys, which the dashboard's pages place and the reports render.  No Streamlit."""

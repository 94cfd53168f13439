"""Streamlit glue: the shell (sidebar, URL-bound widgets), cached loaders, i18n strings,
and the view helpers the thin pages call. Imports models and viz_core, never the reverse."""

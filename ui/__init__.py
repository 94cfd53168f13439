"""Streamlit glue: the sidebar (sidebar.py), URL-bound widgets and their notices (links.py),
what a page requires before it draws (page.py), cached loaders, i18n strings, and the view
helpers the thin pages call. Imports models and viz_core, never the reverse."""

"""What the server process keeps for all its browser sessions, apart from any one page:

- `guard`: the process-wide queue for big forward passes (ui/serving/gate.py runs every
  pass through it);
- `sessions`: how many browser sessions this process serves, against its limit;
- `classroom`: class mode's store (SQLite, or PostgreSQL for several replicas);
- `replica`: this replica's name behind a proxy, and a session that moved here;
- `run_stats`: script-run times on /_stcore/metrics (imports Streamlit's runtime: the
  histogram is served by the Streamlit server's own endpoint);
- `warmup`: the warm-up thread, its stages and progress (the app's steps: ui/warmup.py);
- `threads`: OpenMP's idle policy (workers sleep instead of spinning), set before torch loads.

Imports only `server`, `models` and the standard library (and Streamlit's runtime in
run_stats); never `ui` or `app_pages`: `ui` reads these, not the reverse.
"""

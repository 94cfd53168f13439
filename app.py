"""Glassbox: Streamlit entry point. Page config, the shared sidebar, navigation."""
import sys
import time

import streamlit as st

st.set_page_config(page_title="Glassbox", page_icon="🔍", layout="wide")

# The first run of a fresh server imports PyTorch (seconds): show progress, not a blank page.
# The warm-up (ui/warmup.py, its thread in server/warmup.py) does that work in the background
# from the server's start (`python -m ui.warmup run app.py`), or from here for a plain `streamlit run`.
from server import warmup as progress  # noqa: E402  (standard library only)
from ui import warmup  # noqa: E402  (standard library only)

boot = st.empty()
warmup.start(late=True)      # a no-op under the launcher, which started it with the server
if progress.state().busy and progress.state().stage == "imports":
    progress.wait_for("imports", on_wait=lambda s: boot.progress(
        min(60, 5 + int(20 * (time.monotonic() - s.started))),
        text="Starting PyTorch… · 正在启动 PyTorch…"))
elif "torch" not in sys.modules:
    boot.progress(5, text="Starting PyTorch… · 正在启动 PyTorch…")

from server.run_stats import timed_run  # noqa: E402  (after the progress bar is on screen)
from ui import presenter, replica  # noqa: E402
from ui.i18n import t  # noqa: E402
from ui.sidebar import admit, sidebar  # noqa: E402

# Each run is timed on the server's clock and served on /_stcore/metrics (server/run_stats.py).
with timed_run():
    admit(boot)               # a visitor beyond GLASSBOX_MAX_SESSIONS gets a sentence, not a slow server
    sidebar()
    presenter.apply()         # ?present=1: large text, figures full width, sidebar folded away
    replica.show()            # behind a proxy: this replica's name; a page that moved here is told so
    boot.empty()

    pages = [
        st.Page("app_pages/home.py", title=t("nav_home"), default=True),
        st.Page("app_pages/lessons.py", title=t("nav_lessons"), url_path="lessons"),
        st.Page("app_pages/tokens.py", title=t("nav_tokens"), url_path="tokens"),
        st.Page("app_pages/attention.py", title=t("nav_attention"), url_path="attention"),
        st.Page("app_pages/positional.py", title=t("nav_positional"), url_path="positional"),
        st.Page("app_pages/masks.py", title=t("nav_masks"), url_path="masks"),
        st.Page("app_pages/beyond.py", title=t("nav_beyond"), url_path="beyond"),
        st.Page("app_pages/walkthrough.py", title=t("nav_walkthrough"), url_path="walkthrough"),
        st.Page("app_pages/ffn.py", title=t("nav_ffn"), url_path="ffn"),
        st.Page("app_pages/residual.py", title=t("nav_residual"), url_path="residual"),
        st.Page("app_pages/attribution.py", title=t("nav_attribution"), url_path="attribution"),
        st.Page("app_pages/generate.py", title=t("nav_generate"), url_path="generate"),
        st.Page("app_pages/training.py", title=t("nav_training"), url_path="training"),
    ]
    # every page listed: 13 pages would fold into ten and a "View 3 more" button (English on a Chinese screen)
    st.navigation(pages, position="sidebar", expanded=True).run()

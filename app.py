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
from ui.i18n import hold_language, lang, t  # noqa: E402
from ui.sidebar import admit, sidebar  # noqa: E402

PAGES = (("home", "nav_home"), ("lessons", "nav_lessons"), ("tokens", "nav_tokens"), ("attention", "nav_attention"),
         ("positional", "nav_positional"), ("masks", "nav_masks"), ("beyond", "nav_beyond"),
         ("walkthrough", "nav_walkthrough"), ("ffn", "nav_ffn"), ("residual", "nav_residual"),
         ("attribution", "nav_attribution"), ("generate", "nav_generate"), ("training", "nav_training"))


def pages() -> list:
    """The navigation's pages, titled in the UI language. Made once per session and language:
    st.Page resolves and checks its file on the disk (13 pages were a twentieth of every
    run under a class's load). Not shared between sessions: st.navigation marks on the
    object the page it lets run."""
    made = st.session_state.get("_nav_pages")
    if made is None or made[0] != lang():
        made = (lang(), [st.Page(f"app_pages/{name}.py", title=t(title), default=name == "home",
                                 url_path=None if name == "home" else name) for name, title in PAGES])
        st.session_state["_nav_pages"] = made
    return made[1]


# Each run is timed on the server's clock and served on /_stcore/metrics (server/run_stats.py).
with timed_run():
    hold_language(None)       # the language widget may have changed: read it again until the sidebar holds it
    admit(boot)               # a visitor beyond GLASSBOX_MAX_SESSIONS gets a sentence, not a slow server
    sidebar()
    presenter.apply()         # ?present=1: large text, figures full width, sidebar folded away
    replica.show()            # behind a proxy: this replica's name; a page that moved here is told so
    boot.empty()

    # every page listed: 13 pages would fold into ten and a "View 3 more" button (English on a Chinese screen)
    st.navigation(pages(), position="sidebar", expanded=True).run()

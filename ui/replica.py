"""Several replicas behind a proxy: this replica's name at the foot of the sidebar, and a
sentence when a page arrives from a server that went away (server/replica.py says which
replica this is and recognises a session that moved here).

What the link carries (page, text, model, view) came with the page; what lived only in
the old process (models trained or uploaded in the session, a guess tally) did not, and
the sentence says so.
"""
from __future__ import annotations

import streamlit as st

from server.replica import moved_here, name, resumed_session

from .i18n import t

HEARTBEAT_S = 30             # the marker reruns alone this often (see `marker`)


def previous_session() -> str | None:
    """The session id the browser asked to resume on this websocket, if any."""
    try:
        raw = st.context.headers.get("Sec-Websocket-Protocol") or ""
    except Exception:  # noqa: BLE001  (no websocket: AppTest, bare mode)
        return None
    return resumed_session(raw)


def own_session() -> str | None:
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    return ctx.session_id if ctx is not None else None


def show() -> None:
    """Each run: the replica's name at the foot of the sidebar (when named), and, from the
    first run of a session that moved here, the sentence saying so. It stays on every run
    until dismissed: the first run after a reconnection is often cut short by the click
    that was waiting for the connection, and a sentence shown only then could be missed."""
    if "_replica_moved" not in st.session_state:
        old, mine = previous_session(), own_session()
        st.session_state["_replica_moved"] = moved_here(old, mine)
    if st.session_state["_replica_moved"]:
        with st.container(key="gb_moved"):
            st.info(t("replica_moved", name=name() or "?") if name() else t("replica_restarted"),
                    icon=":material/sync_alt:")
            st.button(t("replica_ok"), key="gb_moved_ok", on_click=_dismiss)
    if name():
        with st.sidebar:
            marker()


def _dismiss() -> None:
    st.session_state["_replica_moved"] = False


@st.fragment(run_every=HEARTBEAT_S)
def marker() -> None:
    """The replica's name. A fragment that reruns alone every HEARTBEAT_S: Streamlit's
    frontend, reconnecting after its server went away, asks the new server for a run only
    when the page was running or has such a timer; an idle page would otherwise keep
    showing the old server's page until the next click (measured: tests/e2e/test_replicas_e2e.py).
    One tiny run per session every 30 s."""
    with st.container(key="gb_replica"):
        st.caption(t("replica_marker", name=name()))

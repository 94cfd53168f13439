"""Several replicas behind a proxy (deploy/, docs/deploy.md): this server's name, and how
a session that moved here from another server is recognised.

A browser keeps one websocket to one Streamlit process; the proxy's affinity cookie
keeps it there. When that process stops, Streamlit's frontend reconnects by itself (to
another replica: the proxy's next one) and names its old session in the websocket's
subprotocol header ("streamlit, <xsrf>, <session id>"). The process it reaches now
(another replica, or the same server restarted) does not know that session and starts a
new one, so: an old session id that is not ours = this page moved here.

No Streamlit here: ui/replica.py reads the header and this session's id and shows the
sentence (and the replica's name in the sidebar).
"""
from __future__ import annotations

import os

ENV = "GLASSBOX_REPLICA"     # the replica's name (compose: the container's hostname); unset = one server


def name() -> str:
    return os.environ.get(ENV, "").strip()


def resumed_session(protocol_header: str) -> str | None:
    """The session id a browser asks to resume, from the websocket's subprotocol header
    ("streamlit, <xsrf>, <session id>"); None when it names none."""
    parts = [p.strip() for p in protocol_header.split(",")]
    return parts[2] if len(parts) >= 3 and parts[2] else None


def moved_here(old: str | None, mine: str | None) -> bool:
    """Whether a session whose browser asked to resume `old` and got `mine` came from a
    server that went away (another replica, or this one restarted)."""
    return bool(old and mine and old != mine)

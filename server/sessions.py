"""How many browser sessions this server process serves, against its limit
(models/limits.py, GLASSBOX_MAX_SESSIONS).

A session holds a ticket in its session state; the server keeps only weak references to
the tickets, so a session that Streamlit has closed (and whose state it dropped) stops
counting by itself. A visitor beyond the limit is refused with a sentence before the
sidebar loads anything (ui/sidebar.py's `admit` passes `st.session_state` here).
"""
from __future__ import annotations

import gc
import threading
import weakref
from collections.abc import MutableMapping
from typing import Any

from models import limits
from models.errors import Refused

_KEY = "_session_ticket"
_tickets: "weakref.WeakSet[_Ticket]" = weakref.WeakSet()
_lock = threading.Lock()


class _Ticket:
    """A session's place on the server (only its identity matters)."""


def count() -> int:
    """Sessions holding a ticket now."""
    with _lock:
        return len(_tickets)


def admit(state: MutableMapping[str, Any]) -> None:
    """Give the session whose state this is a ticket on its first run; Refused("sessions")
    when the server is full (the sessions already in keep theirs)."""
    if _KEY in state:
        return
    limit = int(limits.value("sessions"))
    with _lock:
        if len(_tickets) >= limit:
            gc.collect()                    # closed sessions whose state is only held in a cycle
        if len(_tickets) >= limit:
            raise Refused("sessions", f"This server is serving {limit} sessions, its limit.", n=limit)
        ticket = _Ticket()
        _tickets.add(ticket)
    state[_KEY] = ticket

"""A Streamlit client without a browser: it speaks the app's own websocket protocol
(`ws://HOST:PORT/_stcore/stream`, the `BackMsg` / `ForwardMsg` protobufs that ship in the
`streamlit` package) the way Streamlit's frontend does, so a benchmark can play many
users against one server without paying for a browser each (`benchmarks/protocol_load.py`).

    client = StreamlitClient("http://127.0.0.1:8501")
    await client.connect()
    run = await client.open("attention", {"text": "..."})    # the first run, as a link opens it
    run = await client.set_value("text", "another text")     # the sidebar's text area, as typed
    run = await client.set_value("head", 3)                  # a slider in a fragment: a fragment rerun
    run = await client.click("ls_next")                      # a button (trigger value)
    run = await client.goto("residual")                      # a page change (st.navigation)
    run.latency, run.status, run.exceptions, run.full        # rerun sent -> script_finished
    await client.close()

What it does as the frontend does (Streamlit 1.67's `App.sendRerunBackMsg`, `WidgetStateManager`,
`ForwardMsgCache`):
  - every run is a `BackMsg.rerun_script` (`ClientState`): the URL's query string, the page
    (`page_name` from the path on the first run, else `page_script_hash`), the widget states,
    the fragment id when the widget that changed was drawn inside an `st.fragment`, the
    `cached_message_hashes` it holds, and `context_info` (timezone, locale, URL);
  - widgets are found in the deltas by their user key (an element id is `$$ID-<hash>-<key>`);
    a value it sets is sent with every later run while the widget is on the page, until the
    server sets the widget itself (`set_value`); a button's trigger is sent once; a
    URL-bound widget (`query_param_key`) also changes the client's query string, and
    `page_info_changed` replaces it (the app wrote `st.query_params`);
  - a page change keeps the widgets and URL parameters of the main script (app.py's sidebar);
  - ForwardMsg cache: a `cacheable` message is kept by its hash and its hash sent back with
    each run; the server then sends `ref_hash` for it, which the client resolves; entries
    unused for `max_cached_message_age` runs are dropped (`cache=False`: the client says it
    holds nothing, so every message comes in full);
  - `auto_rerun` (an `st.fragment(run_every=...)`): `poll_forever` reruns the fragment at its
    interval with `is_auto_rerun`, as the frontend's timer does, but never while one of this
    client's own requests is in flight (one request at a time per client);
  - keep-alives: the server's websocket pings are answered by the `websockets` library (a
    Streamlit dependency); the client sends no pings of its own, as a browser does not.

A run is over at the first `script_finished` whose status is final (finished, fragment
finished, compile error); a run that calls `st.rerun()` ends early for the rerun and the run
after it is waited for. Timeouts and disconnects end a run with `error` set.
"""
from __future__ import annotations

import asyncio
import json
import time
import urllib.parse
from dataclasses import dataclass, field
from typing import Any

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ClientState_pb2 import ClientState
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

FINISHED = ForwardMsg.FINISHED_SUCCESSFULLY
FRAGMENT_FINISHED = ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY
COMPILE_ERROR = ForwardMsg.FINISHED_WITH_COMPILE_ERROR
FINAL = {FINISHED, FRAGMENT_FINISHED, COMPILE_ERROR}
ID_PREFIX = "$$ID-"
MAX_MESSAGE_BYTES = 64 * 2**20      # the server's cap is server.maxMessageSize (40 MB in .streamlit/config.toml)
STRING_WIDGETS = {"text_area", "text_input", "selectbox", "radio", "color_picker", "time_input", "date_input"}


@dataclass
class Widget:
    """A widget as the last run drew it."""

    key: str                  # the user key (`key=` in the app)
    id: str                   # the element id the server knows it by
    kind: str                 # the Element field: text_area, slider, button, button_group, ...
    proto: Any                # that field's message (options, min/max, value, ...)
    fragment_id: str          # the st.fragment it was drawn in ("" outside any)
    script_hash: str          # the script that drew it (app.py's hash for the sidebar)


@dataclass
class Run:
    """One rerun request and what came back until its script_finished."""

    kind: str
    sent: float                                   # time.perf_counter() when the BackMsg went out
    done: float | None = None
    status: int | None = None
    full: bool = False                            # a full script run happened (not only a fragment)
    exceptions: list[str] = field(default_factory=list)
    alerts: list[str] = field(default_factory=list)      # st.error / st.warning bodies
    widget_keys: set[str] = field(default_factory=set)
    elements: int = 0
    bytes: int = 0
    refs: int = 0                                  # messages the server sent as a ref_hash
    error: str | None = None                       # timeout, disconnect, compile error, cache miss

    @property
    def latency(self) -> float | None:
        return None if self.done is None else self.done - self.sent

    @property
    def ok(self) -> bool:
        return self.error is None and not self.exceptions and self.status in (FINISHED, FRAGMENT_FINISHED)


@dataclass
class _Cached:
    data: bytes
    used_at: int
    fragment_id: str


class StreamlitClient:
    """One browser session, without the browser (see the module's docstring)."""

    def __init__(self, base_url: str, *, timeout: float = 120.0, cache: bool = True, locale: str = "en-US") -> None:
        self.base = base_url.rstrip("/")
        self.timeout, self.use_cache, self.locale = timeout, cache, locale
        self.ws = None
        self.path = ""                                   # the page's URL path ("attention"; "" = default page)
        self.query = ""                                  # the URL's query string, without "?"
        self.session_id = ""
        self.page_hash = ""                              # the page the server runs (new_session)
        self.main_hash = ""                              # app.py's script hash
        self.pages: dict[str, str] = {}                  # url path -> page_script_hash ("" = the default page)
        self.widgets: dict[str, Widget] = {}             # user key -> widget, as the latest runs drew them
        self.values: dict[str, WidgetState] = {}         # widget id -> the value this client set
        self.auto: dict[str, float] = {}                 # fragment id -> run_every seconds (auto_rerun)
        self.cache: dict[str, _Cached] = {}
        self.max_age = 2
        self.run_count = 0
        self.bytes_in = 0
        self.closed: str | None = None                   # why the connection ended
        self._lock = asyncio.Lock()
        self._run: Run | None = None
        self._done: asyncio.Future | None = None
        self._reader: asyncio.Task | None = None
        self._due: dict[str, float] = {}

    # ---- connection ---------------------------------------------------------------------------
    async def connect(self) -> None:
        url = "ws" + self.base[len("http"):] + "/_stcore/stream"
        self.ws = await connect(url, subprotocols=["streamlit"], max_size=MAX_MESSAGE_BYTES, ping_interval=None,
                                proxy=None, open_timeout=self.timeout)
        self._reader = asyncio.create_task(self._read())

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            await asyncio.gather(self._reader, return_exceptions=True)

    async def _read(self) -> None:
        try:
            async for data in self.ws:
                self.bytes_in += len(data)
                self._receive(data)
        except ConnectionClosed as e:
            self.closed = f"websocket closed ({e})"
        finally:
            self.closed = self.closed or "websocket closed"
            self._finish(error=f"disconnected: {self.closed}")

    # ---- requests -----------------------------------------------------------------------------
    async def open(self, path: str = "", params: dict[str, str] | None = None, kind: str = "open") -> Run:
        """The first run of a page opened by its link: `/path?params`."""
        self.path = path.strip("/")
        self.query = urllib.parse.urlencode(params or {})
        return await self.request(kind, page_name=self.path)

    async def set_value(self, key: str, value: Any, kind: str = "") -> Run:
        """Give widget `key` a new value as a user would, and rerun (the widget's fragment
        only, when it was drawn inside one)."""
        w = self.widget(key)
        state = widget_state(w, value)
        self.values[w.id] = state
        bound = getattr(w.proto, "query_param_key", "")
        if bound:
            self._set_param(bound, url_value(w, state))
        return await self.request(kind or key, fragment_id=w.fragment_id)

    async def click(self, key: str, kind: str = "") -> Run:
        """Press button `key` (its trigger is sent with this run only)."""
        w = self.widget(key)
        state = WidgetState(id=w.id, trigger_value=True)
        return await self.request(kind or key, fragment_id=w.fragment_id, once=[state])

    async def goto(self, path: str, kind: str = "page") -> Run:
        """Change page as the navigation does: the target's script hash, the main script's
        widgets and URL parameters kept, the page's own dropped."""
        path = path.strip("/")
        if path not in self.pages:
            raise KeyError(f"no page {path!r} (pages: {sorted(self.pages)})")
        kept = {w.id for w in self.widgets.values() if w.script_hash == self.main_hash}
        bound = {getattr(w.proto, "query_param_key", "") for w in self.widgets.values() if w.id in kept} - {""}
        params = [(k, v) for k, v in urllib.parse.parse_qsl(self.query, keep_blank_values=True) if k in bound]
        self.query = urllib.parse.urlencode(params)
        self.values = {i: s for i, s in self.values.items() if i in kept}
        self.path = path
        return await self.request(kind, page_hash=self.pages[path], keep=kept)

    async def request(self, kind: str, *, page_name: str | None = None, page_hash: str | None = None,
                      fragment_id: str = "", auto: bool = False, once: list[WidgetState] | None = None,
                      keep: set[str] | None = None) -> Run:
        """Send one `rerun_script` and wait for its final `script_finished` (or `timeout`)."""
        async with self._lock:
            run = Run(kind, time.perf_counter())
            if self.closed:
                run.error = f"disconnected: {self.closed}"
                return run
            on_page = keep if keep is not None else {w.id for w in self.widgets.values()}
            cs = ClientState(query_string=self.query, fragment_id=fragment_id, is_auto_rerun=auto,
                             page_name=page_name if page_name is not None else "",
                             page_script_hash=page_hash if page_hash is not None else
                             ("" if page_name is not None else self.page_hash))
            cs.widget_states.widgets.extend(s for i, s in self.values.items() if i in on_page)
            cs.widget_states.widgets.extend(once or [])
            cs.cached_message_hashes.extend(self.cache if self.use_cache else ())
            info = cs.context_info
            info.timezone, info.timezone_offset, info.locale = "UTC", 0, self.locale
            info.url = f"{self.base}/{self.path}" + (f"?{self.query}" if self.query else "")
            info.is_embedded, info.color_scheme = False, "light"
            msg = BackMsg()
            msg.rerun_script.CopyFrom(cs)
            self._run, self._done = run, asyncio.get_running_loop().create_future()
            try:
                run.sent = time.perf_counter()
                await self.ws.send(msg.SerializeToString())
                await asyncio.wait_for(asyncio.shield(self._done), self.timeout)
            except (asyncio.TimeoutError, TimeoutError):
                run.error = f"timeout: no script_finished within {self.timeout:.0f} s"
            except ConnectionClosed as e:
                run.error = f"disconnected: {e}"
            finally:
                self._run, self._done = None, None
            return run

    async def poll_forever(self, on_run=None, tick: float = 0.05) -> None:
        """Rerun each `run_every` fragment at its interval (`auto_rerun`), as the frontend's
        timers do; a tick that finds this client busy skips to the next interval.
        `on_run(run)` gets every poll's Run. Ends when the connection does (cancel it to stop)."""
        while not self.closed:
            await asyncio.sleep(tick)
            now = time.monotonic()
            for fid, interval in list(self.auto.items()):
                due = self._due.setdefault(fid, now + interval)
                if now < due:
                    continue
                self._due[fid] = now + interval
                if self._lock.locked() or fid not in self.auto:
                    continue
                run = await self.request("poll", fragment_id=fid, auto=True)
                if on_run is not None:
                    on_run(run)

    # ---- lookups ------------------------------------------------------------------------------
    def widget(self, key: str) -> Widget:
        if key not in self.widgets:
            raise KeyError(f"no widget with key {key!r} on the page (keys: {sorted(self.widgets)[:40]})")
        return self.widgets[key]

    def find(self, prefix: str) -> Widget | None:
        """The first widget whose key starts with `prefix` (keys that carry a step number)."""
        return next((w for k, w in self.widgets.items() if k.startswith(prefix)), None)

    def param(self, name: str) -> str | None:
        return dict(urllib.parse.parse_qsl(self.query, keep_blank_values=True)).get(name)

    def _set_param(self, name: str, value: str) -> None:
        params = [(k, v) for k, v in urllib.parse.parse_qsl(self.query, keep_blank_values=True) if k != name]
        self.query = urllib.parse.urlencode(params + [(name, value)])

    # ---- what the server sends ----------------------------------------------------------------
    def _receive(self, data: bytes) -> None:
        msg = ForwardMsg.FromString(data)
        run = self._run
        if run is not None:
            run.bytes += len(data)
        if msg.WhichOneof("type") == "ref_hash":
            cached = self.cache.get(msg.ref_hash)
            if cached is None:
                self._finish(error=f"cache miss: the server referred to {msg.ref_hash}, which this client never had")
                return
            cached.used_at = self.run_count
            full = ForwardMsg.FromString(cached.data)
            full.metadata.CopyFrom(msg.metadata)
            msg = full
            if run is not None:
                run.refs += 1
        elif self.use_cache and msg.metadata.cacheable and msg.hash and msg.hash not in self.cache:
            self.cache[msg.hash] = _Cached(data, self.run_count, msg.delta.fragment_id)
        kind = msg.WhichOneof("type")
        if kind == "new_session":
            self._new_session(msg)
        elif kind == "navigation":
            self._pages(msg.navigation.app_pages)
            if msg.navigation.page_script_hash:
                self.page_hash = msg.navigation.page_script_hash
        elif kind == "page_info_changed":
            self.query = msg.page_info_changed.query_string
        elif kind == "delta":
            self._delta(msg, run)
        elif kind == "auto_rerun":
            self.auto[msg.auto_rerun.fragment_id] = msg.auto_rerun.interval
        elif kind == "stop_auto_rerun":
            for fid in msg.stop_auto_rerun.fragment_ids:
                self.auto.pop(fid, None)
                self._due.pop(fid, None)
        elif kind == "session_event" and msg.session_event.HasField("script_compilation_exception"):
            if run is not None:
                run.exceptions.append(f"compile error: {msg.session_event.script_compilation_exception.message}")
        elif kind == "page_not_found":
            if run is not None:
                run.alerts.append(f"page not found: {msg.page_not_found.page_name}")
        elif kind == "script_finished":
            self._script_finished(msg)

    def _new_session(self, msg: ForwardMsg) -> None:
        ns = msg.new_session
        if ns.HasField("initialize") and ns.initialize.session_id:
            self.session_id = ns.initialize.session_id
        self.page_hash, self.main_hash = ns.page_script_hash, ns.main_script_hash or self.main_hash
        self._pages(ns.app_pages)
        if ns.config.max_cached_message_age:
            self.max_age = ns.config.max_cached_message_age
        if not msg.metadata.run.fragment_ids:          # a full run: the page is drawn anew
            self.widgets = {}
            self.auto.clear()
            self._due.clear()
            if self._run is not None:
                self._run.full = True

    def _pages(self, pages) -> None:
        for p in pages:
            self.pages[p.url_pathname.strip("/")] = p.page_script_hash
            if p.is_default:
                self.pages[""] = p.page_script_hash

    def _delta(self, msg: ForwardMsg, run: Run | None) -> None:
        if msg.delta.WhichOneof("type") != "new_element":
            return
        el = msg.delta.new_element
        kind = el.WhichOneof("type")
        if run is not None:
            run.elements += 1
        if kind == "exception":
            if run is not None and not el.exception.is_warning:
                run.exceptions.append(f"{el.exception.type}: {el.exception.message}"[:300])
            return
        if kind == "alert":
            if run is not None and el.alert.format in (1, 2):          # ERROR, WARNING
                run.alerts.append(el.alert.body[:300])
            return
        proto = getattr(el, kind) if kind else None
        wid = getattr(proto, "id", "") if proto is not None and "id" in proto.DESCRIPTOR.fields_by_name else ""
        if not wid.startswith(ID_PREFIX):
            return
        key = wid.split("-", 2)[-1]
        self.widgets[key] = Widget(key, wid, kind, proto, msg.delta.fragment_id,
                                   msg.metadata.active_script_hash)
        if run is not None:
            run.widget_keys.add(key)
        if getattr(proto, "set_value", False):           # the app set this widget: its value is the server's now
            self.values.pop(wid, None)

    def _script_finished(self, msg: ForwardMsg) -> None:
        status = msg.script_finished
        if status in (FINISHED, FRAGMENT_FINISHED):
            self.run_count += 1
            fragments = set(msg.metadata.run.fragment_ids)
            for h, c in list(self.cache.items()):
                if fragments and (not c.fragment_id or c.fragment_id not in fragments):
                    continue
                if self.run_count - c.used_at > self.max_age:
                    del self.cache[h]
        if status in FINAL:
            self._finish(status=status, error="compile error" if status == COMPILE_ERROR else None)

    def _finish(self, status: int | None = None, error: str | None = None) -> None:
        run, done = self._run, self._done
        if run is None or done is None or done.done():
            return
        run.done, run.status = time.perf_counter(), status
        run.error = run.error or error
        done.set_result(run)


def widget_state(w: Widget, value: Any) -> WidgetState:
    """The WidgetState the frontend sends for `value` in widget `w`."""
    s = WidgetState(id=w.id)
    if w.kind in STRING_WIDGETS:
        s.string_value = str(value)
    elif w.kind in ("slider", "select_slider"):
        values = value if isinstance(value, (list, tuple)) else [value]
        if w.kind == "slider":
            s.double_array_value.data.extend(float(v) for v in values)
        else:
            s.string_array_value.data.extend(str(v) for v in values)
    elif w.kind == "number_input":
        s.double_value = float(value)
    elif w.kind == "checkbox":
        s.bool_value = bool(value)
    elif w.kind in ("button_group", "multiselect"):
        s.string_array_value.data.extend(str(v) for v in (value if isinstance(value, (list, tuple)) else [value]))
    elif w.kind == "bidi_component":          # a v2 custom component: its whole state, as setStateValue sends it
        s.json_value = json.dumps(value)
    else:
        raise TypeError(f"widget {w.key!r} is a {w.kind}: this client does not set that kind")
    return s


def url_value(w: Widget, s: WidgetState) -> str:
    """What the frontend writes into the URL for a bound widget's value."""
    which = s.WhichOneof("value")
    if which == "double_array_value":
        ints = w.kind == "slider" and w.proto.data_type == 0          # Slider.INT
        return ",".join(str(int(v)) if ints else repr(v) for v in s.double_array_value.data)
    if which == "string_array_value":
        return ",".join(s.string_array_value.data)
    if which == "bool_value":
        return "true" if s.bool_value else "false"
    return str(getattr(s, which))


def options(w: Widget) -> list[str]:
    """The options a choice widget shows (button_group / pills: their labels)."""
    if w.kind == "button_group":
        return [o.content for o in w.proto.options]
    return list(getattr(w.proto, "options", []))

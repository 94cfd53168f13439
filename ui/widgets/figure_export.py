"""Every plotly figure of the app, with SVG and PDF downloads for papers and slides.

`chart(fig, key=..., **plotly_chart_kwargs)` is `st.plotly_chart` plus two things:
- the chart's own camera button (plotly's modebar) saves an SVG instead of a PNG:
  drawn by the reader's browser, instant and offline;
- a compact "⋮ Download" popover under the chart. Inside, "Prepare SVG / PDF" draws the
  figure once, server-side, with plotly's static export (`kaleido` 1.x driving the
  system Chromium through `choreographer`), then offers both files. Drawing costs a
  browser start and ~1-5 s, so it only runs when asked.

`render_static(fig, formats)` is the renderer (no streamlit; a notebook can call it).
Offline by construction: plotly.js is the copy inside the plotly package
(`PLOTLY_JS`), MathJax is off (kaleido would take it from a CDN), and the browser is
found on this machine (`browser_path()`: CHROMIUM_PATH, BROWSER_PATH, then `chromium`,
`chromium-browser`, `google-chrome` on PATH), never downloaded.

Safety on a shared server: one render at a time per process (`_LOCK`, a render waits
at most `BUSY_WAIT_S` for it), each render is cut off after `RENDER_TIMEOUT_S` (the
browser is closed when its task is cancelled), and every failure is a sentence in the
popover. Files are cached per figure (sha1 of `fig.to_json()`) in `st.cache_data`.
The files leave out the app's click layers (`for_print`).
"""
from __future__ import annotations

import asyncio
import functools
import hashlib
import importlib.util
import json
import os
import re
import shutil
import threading
from pathlib import Path
from typing import Any

import plotly
import plotly.graph_objects as go
import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from viz_core.figure import CLICK_TRACE, text_scale

from ..i18n import t

FORMATS = ("svg", "pdf")
MIME = {"svg": "image/svg+xml", "pdf": "application/pdf"}
PLOTLY_JS = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"
BROWSER_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")
DEFAULT_SIZE = (960, 540)      # px, when the figure sets none (a 16:9 slide)
RENDER_TIMEOUT_S = 45.0        # one render (browser start + both files)
BUSY_WAIT_S = 20.0             # how long a render waits for another one to finish
CACHE_ENTRIES = 8

_LOCK = threading.Lock()


class ExportError(Exception):
    """A figure could not be drawn to a file; `reason` names the sentence to show."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason    # no_kaleido | no_browser | busy | timeout | failed


def browser_path() -> str | None:
    """The Chromium/Chrome executable to draw with, or None when this machine has none."""
    env = os.environ
    return _find_browser(env.get("CHROMIUM_PATH"), env.get("BROWSER_PATH"), env.get("PATH", ""))


@functools.lru_cache(maxsize=8)
def _find_browser(chromium_path: str | None, browser_path: str | None, search: str) -> str | None:
    # asked under every chart on every rerun: cached per value of the variables that decide it
    for value in (chromium_path, browser_path):
        if value:
            return value if os.access(value, os.X_OK) else None
    for name in BROWSER_NAMES:
        if found := shutil.which(name, path=search):
            return found
    return None


@functools.cache
def kaleido_available() -> bool:
    """Whether kaleido is installed (found, not imported: it is imported when a figure is drawn)."""
    return importlib.util.find_spec("kaleido") is not None


def unavailable() -> str | None:
    """Why files cannot be drawn here ('no_kaleido' | 'no_browser'), or None when they can."""
    if not kaleido_available():
        return "no_kaleido"
    if browser_path() is None:
        return "no_browser"
    return None


def figure_size(fig: go.Figure) -> tuple[int, int]:
    """The size to draw at: the figure's own layout size, else DEFAULT_SIZE."""
    width = fig.layout.width or DEFAULT_SIZE[0]
    height = fig.layout.height or DEFAULT_SIZE[1]
    return int(width), int(height)


async def _draw(fig_dict: dict, formats: tuple[str, ...], size: tuple[int, int], browser: str,
                timeout: float) -> dict[str, bytes]:
    import kaleido

    out: dict[str, bytes] = {}
    async with kaleido.Kaleido(n=1, timeout=timeout, plotlyjs=PLOTLY_JS.as_uri(), mathjax=False,
                               path=browser) as k:
        for fmt in formats:
            out[fmt] = await k.calc_fig(fig_dict, opts={"format": fmt, "width": size[0], "height": size[1],
                                                        "scale": 1})
    return out


def render_static(fig: go.Figure, formats: tuple[str, ...] = FORMATS, *, timeout: float = RENDER_TIMEOUT_S,
                  busy_wait: float = BUSY_WAIT_S) -> dict[str, bytes]:
    """`{format: bytes}` of `fig` drawn by the system Chromium; raises `ExportError`.

    One browser start draws every format asked for. The drawing runs in a thread of its
    own (its own event loop, as kaleido's sync API does) that holds `_LOCK` until the
    browser has closed, so a render cut off by the timeout still blocks the next one
    until its browser is gone.
    """
    if bad := [f for f in formats if f not in MIME]:
        raise ValueError(f"unknown format(s) {bad}; choose from {list(MIME)}")
    if reason := unavailable():
        raise ExportError(reason)
    browser = browser_path()
    assert browser is not None
    fig_dict = json.loads(fig.to_json())    # numpy as plotly.js typed arrays: plain JSON for the browser
    size = figure_size(fig)
    if not _LOCK.acquire(timeout=busy_wait):
        raise ExportError("busy")
    result: dict[str, Any] = {}

    def work() -> None:
        try:
            result["files"] = asyncio.run(asyncio.wait_for(_draw(fig_dict, formats, size, browser, timeout),
                                                           timeout))
        except BaseException as e:  # noqa: BLE001  reported to the caller below
            result["error"] = e
        finally:
            _LOCK.release()

    worker = threading.Thread(target=work, name="figure-export", daemon=True)
    try:
        worker.start()
    except BaseException:
        _LOCK.release()
        raise
    worker.join(timeout + 15)   # wait_for cancels at `timeout`; closing the browser takes a moment more
    if worker.is_alive():
        raise ExportError("timeout")
    error = result.get("error")
    if isinstance(error, (asyncio.TimeoutError, TimeoutError)):
        raise ExportError("timeout")
    if error is not None:
        raise ExportError("failed", f"{type(error).__name__}: {error}") from error
    files = result["files"]
    for fmt, data in files.items():
        if not isinstance(data, bytes) or not data:
            raise ExportError("failed", f"empty {fmt}")
    return files


def figure_digest(fig: go.Figure) -> str:
    return hashlib.sha1(fig.to_json().encode()).hexdigest()


def for_print(fig: go.Figure) -> go.Figure:
    """A copy of `fig` without the app's click layers (the dots that take clicks on screen)."""
    out = go.Figure(fig)
    for trace in out.data:
        if trace.name == CLICK_TRACE:
            trace.visible = False
    return out


@st.cache_data(max_entries=CACHE_ENTRIES, show_spinner=False)
def _files(digest: str, _fig: go.Figure) -> dict[str, bytes]:
    """Both files of the figure whose JSON hashes to `digest` (the figure itself is not hashed)."""
    return render_static(for_print(_fig))


def page_name() -> str:
    """The current page's file stem (app_pages/attention.py -> 'attention'), else 'app'."""
    try:
        ctx = get_script_run_ctx()
        page = ctx.pages_manager.get_pages()[ctx.page_script_hash]
        return Path(page["script_path"]).stem
    except Exception:  # noqa: BLE001  a file name is never worth a traceback
        return "app"


def file_stem(key: str) -> str:
    """'glassbox-<page>-<chart key>', safe as a file name."""
    return re.sub(r"[^A-Za-z0-9_-]+", "_", f"glassbox-{page_name()}-{key}").strip("_")


def chart(fig: go.Figure, *, key: str, download: bool = True, **kwargs: Any) -> Any:
    """`st.plotly_chart(fig, key=key, **kwargs)` (same return value, same `on_select`), whose
    camera button saves SVG, with the "⋮ Download" popover under it unless `download=False`."""
    stem = file_stem(key)
    config = dict(kwargs.pop("config", None) or {})
    config.setdefault("toImageButtonOptions", {"format": "svg", "filename": stem})
    state = st.plotly_chart(readable_bar_text(fig), key=key, config=config, **kwargs)
    if download:
        download_menu(fig, key, stem)
    return state


def readable_bar_text(fig: go.Figure) -> go.Figure:
    """On a projector (text scale > 1), the numbers written beside bars keep a readable size:
    plotly shrinks a bar's text to the bar's thickness (9 px beside a thin bar). A copy, so a
    cached figure is not changed; other figures are returned as they are."""
    scale = text_scale()
    if scale <= 1 or not any(tr.type == "bar" and tr.text is not None for tr in fig.data):
        return fig
    out = go.Figure(fig)
    out.update_layout(uniformtext=dict(minsize=round(10 * scale), mode="show"))
    return out


def download_menu(fig: go.Figure, key: str, stem: str) -> None:
    """The popover: a sentence when files cannot be drawn here, else Prepare, then SVG and PDF."""
    ready_key = f"_fx_ready_{key}"
    with st.popover(t("fx_menu"), type="tertiary", key=f"fx_{key}"):
        if reason := unavailable():
            st.caption(t(f"fx_{reason}"))
            return
        st.caption(t("fx_intro"))
        files = None
        ready = st.session_state.get(ready_key)
        want = ready is not None and ready == figure_digest(fig)
        slot = st.empty()     # Prepare, until the files are there
        if want or slot.button(t("fx_prepare"), key=f"fx_{key}_prepare", icon=":material/draw:"):
            digest = ready if want else figure_digest(fig)
            try:
                with st.spinner(t("fx_preparing")):
                    files = _files(digest, fig)     # a cache hit once prepared, unless evicted
            except ExportError as e:
                st.warning(t(f"fx_{e.reason}"))
                st.session_state.pop(ready_key, None)
            else:
                st.session_state[ready_key] = digest
                slot.empty()      # a failed render keeps Prepare, to try again
        if files:
            row = st.container(horizontal=True)
            for fmt in FORMATS:
                row.download_button(t(f"fx_{fmt}"), files[fmt], f"{stem}.{fmt}", mime=MIME[fmt],
                                    key=f"fx_{key}_{fmt}", on_click="ignore", icon=":material/download:")
        st.caption(t("fx_camera"))

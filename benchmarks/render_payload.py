"""Bytes needed to show a text's attention: the Glassbox attention page vs BertViz.

Glassbox: a real `streamlit run` server and headless Chromium open
`/attention?text=...&view=heads` (the heads view, named since the page opens on the
instant view: the all-heads model view as one image and the selected head's heatmap;
`--views` adds the other views, each by name) in a fresh browser context, so Streamlit's per-session
message cache holds nothing. Counted: the sum of the payload sizes of every websocket
frame the browser receives (Playwright `framereceived`, bytes) from opening the URL
until the run is finished (`script_finished` received, stApp `notRunning`, no
stSkeleton) and every plotly chart is drawn. Websocket compression is off by default
in Streamlit, so payload bytes are wire bytes (less a few bytes of framing). Not
counted: the static frontend bundle (JS/CSS, fetched once over HTTP and cached by the
browser), as BertViz's d3/jQuery/require.js from its CDN are not counted either. Each
frame is a protobuf `ForwardMsg`; they are decoded to split the bytes by element (one
line per plotly chart key) and, for plotly charts, by trace field. One warm-up page
load per text runs first (model load, forward pass, Streamlit's `pages/` guard), so the
measured load is what a visitor gets from a running server with a cached trace.

BertViz: MiniLM loaded with HF transformers (`output_attentions=True`, eager
attention) from the bundled folder, offline; `model_view(...)` and `head_view(...)` with
`html_action="return"` give an `IPython.display.HTML`; its `.data` (UTF-8) is the size.
Each call runs in its own subprocess, which reports the build time (the call alone,
forward pass excluded) and the peak RSS of that process. The HTML embeds every
weight of every head as JSON text (the page then loads require.js and d3 from a CDN;
those are not counted).

Instant view and HTML export (in this process, no browser): MiniLM's patterns for the
same text packed by viz_core/attention_pack.py (uint8 per cell, one scale per head,
deflate, base64 in JSON): the component's payload (what the instant view receives once)
and the standalone HTML file (viz_core/attention_html.py: payload + inline script).
Goal (issue "instant attention"): the export <= 1.07 MB at 128 tokens.

Target (issue "render payload"): at 128 tokens, Glassbox page bytes / BertViz
model_view bytes <= 1/50 = 0.02. Printed and written to docs/benchmarks.md (section
"render_payload"); nothing is asserted.

    python -m benchmarks.render_payload                      # 32, 128, 512 tokens
    python -m benchmarks.render_payload --skip-bertviz-512   # BertViz at 512: ~0.9 GB of HTML
    python -m benchmarks.render_payload --tokens 128 --views --no-doc
    python -m benchmarks.render_payload --url http://127.0.0.1:8501   # a running server
"""
from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

TARGET_RATIO = 1 / 50
ALL_VIEWS = ("heads", "lines", "metrics", "rollout", "instant")
EXPORT_GOAL_BYTES = 1.07e6      # the standalone HTML at 128 tokens (issue "instant attention")

# Every drawn plotly chart has its SVG; a chart whose spec arrived but is not drawn yet
# has none (or is still a stSkeleton, which wait_for_rerun already excludes).
_CHARTS_DRAWN_JS = """
() => [...document.querySelectorAll('[data-testid="stPlotlyChart"]')].every(
  (c) => {
    const gd = c.querySelector('.js-plotly-plot');
    return gd && gd._fullLayout && c.querySelector('.main-svg');
  })
"""


# ------------------------------------------------------------------------ Glassbox bytes


def _chart_key(element_id: str) -> str:
    """'$$ID-<hash>-head_map' -> 'head_map' (the widget key given in the app)."""
    parts = element_id.split("-", 2)
    return parts[2] if len(parts) == 3 and parts[2] else "(no key)"


def _json_size(value) -> int:  # noqa: ANN001
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))


def _spec_fields(spec: str) -> dict[str, int]:
    """Approximate bytes of a plotly spec per trace field (summed over traces) and the
    layout (compact JSON re-serialisation of each part)."""
    fig = json.loads(spec)
    sizes: dict[str, int] = defaultdict(int)
    for trace in fig.get("data", []):
        for field, value in trace.items():
            sizes[f"data.{field}"] += _json_size(value)
    sizes["layout"] += _json_size(fig.get("layout", {}))
    return dict(sizes)


class FrameLog:
    """Websocket frames the page receives, decoded as Streamlit ForwardMsgs."""

    def __init__(self, page) -> None:  # noqa: ANN001
        self.frames: list[bytes] = []
        page.on("websocket", lambda ws: ws.on("framereceived", self._add))

    def _add(self, payload: bytes | str) -> None:
        self.frames.append(payload if isinstance(payload, bytes) else payload.encode("utf-8"))

    def mark(self) -> int:
        return len(self.frames)

    def total(self, since: int = 0) -> int:
        return sum(len(f) for f in self.frames[since:])

    def finished(self, since: int = 0) -> bool:
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        return any(ForwardMsg.FromString(f).WhichOneof("type") == "script_finished" for f in self.frames[since:])

    def breakdown(self, since: int = 0) -> tuple[dict[str, int], dict[str, dict[str, int]]]:
        """(bytes per part, plotly spec field sizes per chart key). Parts: one
        'chart:<key>' per plotly chart, 'other elements', 'containers & control'."""
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        parts: dict[str, int] = defaultdict(int)
        fields: dict[str, dict[str, int]] = {}
        for frame in self.frames[since:]:
            msg = ForwardMsg.FromString(frame)
            kind = msg.WhichOneof("type")
            if kind == "delta" and msg.delta.WhichOneof("type") == "new_element":
                element = msg.delta.new_element
                if element.WhichOneof("type") == "plotly_chart":
                    key = _chart_key(element.plotly_chart.id)
                    parts[f"chart:{key}"] += len(frame)
                    fields[key] = _spec_fields(element.plotly_chart.spec)
                else:
                    parts["other elements"] += len(frame)
            elif kind == "ref_hash":
                parts["cache references"] += len(frame)
            else:
                parts["containers & control"] += len(frame)
        return dict(parts), fields


def _wait_drawn(page, log: FrameLog, since: int, timeout_s: float = 120) -> None:  # noqa: ANN001
    deadline = time.monotonic() + timeout_s
    while not log.finished(since):
        if time.monotonic() > deadline:
            raise RuntimeError("no script_finished message arrived")
        page.wait_for_timeout(50)
    page.wait_for_function(_CHARTS_DRAWN_JS, timeout=timeout_s * 1000)


def glassbox_bytes(base: str, browser, text: str, views: tuple[str, ...], click: bool) -> dict:  # noqa: ANN001
    """Bytes received for each view of the attention page (fresh context per view)
    and, optionally, for one click on a head-map cell (detail panel)."""
    from benchmarks._browser import attention_query, click_plotly_point, new_page, open_app, wait_for_rerun

    out: dict = {}
    with new_page(browser) as page:   # warm-up: model, trace and page guard
        open_app(page, base, "/attention", attention_query(text, view="heads"))
    for view in views:
        query = attention_query(text, view=view)          # every view by name, heads included
        with new_page(browser) as page:
            log = FrameLog(page)
            open_app(page, base, "/attention", query)
            _wait_drawn(page, log, 0)
            parts, fields = log.breakdown()
            out[view] = {"total": log.total(), "parts": parts, "fields": fields,
                         "external": list(page.external_requests)}
            if view == "heads" and click:
                since = log.mark()
                click_plotly_point(page, 1, 2, 1)            # head map: key 2, query 1
                wait_for_rerun(page)
                page.locator(".st-key-detail_panel").wait_for(state="visible")
                _wait_drawn(page, log, since)
                parts, _ = log.breakdown(since)
                out["click"] = {"total": log.total(since), "parts": parts}
    return out


# ------------------------------------------------------------------------ instant payload / export


def instant_bytes(tokens: int) -> dict:
    """Sizes of the instant view's payload and of the standalone HTML export for the
    benchmark text (MiniLM run here, packed as the app packs it)."""
    import torch

    from benchmarks._browser import text_with_tokens
    from models.trace import record_names
    from models.weights.pretrained import load
    from viz_core.attention_html import standalone_html
    from viz_core.attention_pack import pack_attention, payload_json

    model, tok = load("minilm")
    enc = tok.encode(text_with_tokens(tokens))
    with torch.no_grad():
        _, trace = model.run_with_cache(torch.tensor([enc.ids]), names=record_names(model.cfg, ["pattern"]))
    patterns = trace.patterns().float().numpy()                          # [L, H, q, k]
    t0 = time.perf_counter()
    payload = pack_attention(patterns, enc.tokens)
    pack_s = time.perf_counter() - t0
    html = standalone_html(payload, title="benchmark")
    return {"tokens": len(enc.tokens), "cells": int(patterns.size), "payload": len(payload_json(payload).encode()),
            "data_b64": len(payload["data"]), "export": len(html.encode("utf-8")), "pack_s": pack_s}


# ------------------------------------------------------------------------ BertViz bytes


def bertviz_worker(tokens: int, view: str) -> None:
    """Run in a subprocess: build one BertViz view for the benchmark text, print JSON."""
    import resource

    import torch
    from transformers import AutoModel, AutoTokenizer

    from benchmarks._browser import text_with_tokens
    from models.weights.pretrained import minilm_path

    import bertviz

    path = minilm_path()
    text = text_with_tokens(tokens)
    tok = AutoTokenizer.from_pretrained(path, local_files_only=True)
    model = AutoModel.from_pretrained(path, output_attentions=True, attn_implementation="eager",
                                      local_files_only=True).eval()
    enc = tok(text, return_tensors="pt")
    t0 = time.perf_counter()
    with torch.inference_mode():
        attention = model(**enc).attentions                 # L x [1, heads, q, k]
    forward_s = time.perf_counter() - t0
    names = tok.convert_ids_to_tokens(enc["input_ids"][0])
    fn = bertviz.model_view if view == "model_view" else bertviz.head_view
    t0 = time.perf_counter()
    html = fn(attention, names, html_action="return")
    build_s = time.perf_counter() - t0
    n_bytes = len(html.data.encode("utf-8"))
    rss_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"tokens": len(names), "bytes": n_bytes, "build_s": build_s, "forward_s": forward_s,
                      "peak_rss_mb": rss_kib / 1024, "bertviz": getattr(bertviz, "__version__", "?")}))


def bertviz_bytes(tokens: int, view: str) -> dict:
    cmd = [sys.executable, "-m", "benchmarks.render_payload", "--_bertviz-worker", str(tokens), view]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    if proc.returncode != 0:
        return {"error": (proc.stderr or proc.stdout).strip().splitlines()[-1:] or [f"exit {proc.returncode}"]}
    result = json.loads(proc.stdout.strip().splitlines()[-1])
    if result["tokens"] != tokens:
        result["error"] = [f"HF tokenizer gave {result['tokens']} tokens, expected {tokens}"]
    return result


# ------------------------------------------------------------------------ report


def _kb(n: float | None) -> str:
    if n is None:
        return "n/a"
    return f"{n / 1e6:,.1f} MB" if n >= 1e6 else f"{n / 1e3:,.1f} KB"


def _ratio(a: float | None, b: float | None) -> str:
    return "n/a" if a is None or not b else f"{a / b:.4f} (1/{b / a:,.0f})"


def report(results: dict[int, dict], views: tuple[str, ...]) -> str:
    from benchmarks._timing import machine

    lines = [
        "## Render payload: Glassbox attention page vs BertViz",
        "",
        f"`{shlex.join(['python', '-m', 'benchmarks.render_payload', *sys.argv[1:]])}`. "
        f"Machine: {machine()}. Streamlit "
        f"{_version('streamlit')}, plotly {_version('plotly')}, BertViz {_version('bertviz')}. "
        "Glassbox bytes: every websocket frame the browser receives from opening "
        "`/attention?text=...&view=heads` (heads view, fresh session, warm server) until the run is done "
        "and the charts are drawn; the static JS bundle is not counted. BertViz bytes: the HTML "
        "of `model_view` / `head_view` (`html_action=\"return\"`), CDN scripts not counted. "
        f"Target at 128 tokens: Glassbox / BertViz model_view <= {TARGET_RATIO:.2f} (1/50).",
        "",
        "| tokens | Glassbox page bytes | BertViz model_view bytes | BertViz head_view bytes "
        "| ratio Glassbox / BertViz model_view | ratio Glassbox / BertViz head_view |",
        "| ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for n, r in sorted(results.items()):
        g = r["glassbox"]["heads"]["total"]
        mv, hv = r["bertviz"].get("model_view", {}), r["bertviz"].get("head_view", {})
        lines.append(f"| {n} | {g:,} ({_kb(g)}) | {_cell(mv)} | {_cell(hv)} "
                     f"| {_ratio(g, mv.get('bytes'))} | {_ratio(g, hv.get('bytes'))} |")
    if 128 in results and "bytes" in results[128]["bertviz"].get("model_view", {}):
        r = results[128]["glassbox"]["heads"]["total"] / results[128]["bertviz"]["model_view"]["bytes"]
        verdict = "met" if r <= TARGET_RATIO else "MISSED"
        lines += ["", f"At 128 tokens: ratio {r:.4f} = {r / TARGET_RATIO:.2f} x the target {TARGET_RATIO:.2f} "
                      f"(target {verdict})."]

    if any(r["bertviz"] for r in results.values()):
        lines += ["", "BertViz cost of building the HTML (own process each; forward pass excluded):", "",
                  "| tokens | view | build s | peak RSS of the process |", "| ---: | --- | ---: | ---: |"]
    for n, r in sorted(results.items()):
        for view, b in r["bertviz"].items():
            if "bytes" in b:
                lines.append(f"| {n} | {view} | {b['build_s']:.2f} | {b['peak_rss_mb']:,.0f} MB |")
            else:
                lines.append(f"| {n} | {view} | {b.get('error', ['skipped'])[0]} | |")

    if any("instant" in r for r in results.values()):
        lines += ["", "Instant view payload and standalone HTML export (viz_core/attention_pack.py: uint8 per cell, "
                      "one scale per head, deflate, base64; max error scale/510), MiniLM 6 x 12 heads. Goal: export "
                      f"<= {EXPORT_GOAL_BYTES / 1e6:.2f} MB at 128 tokens.", "",
                  "| tokens | cells (L x H x q x k) | component payload | standalone HTML | "
                  "HTML / BertViz model_view | pack s |", "| ---: | ---: | ---: | ---: | ---: | ---: |"]
        for n, r in sorted(results.items()):
            i = r.get("instant")
            if not i:
                continue
            mv = r["bertviz"].get("model_view", {}).get("bytes")
            lines.append(f"| {n} | {i['cells']:,} (= {_kb(i['cells'])} as uint8) | {i['payload']:,} ({_kb(i['payload'])}) "
                         f"| {i['export']:,} ({_kb(i['export'])}) | {_ratio(i['export'], mv)} | {i['pack_s']:.3f} |")
        if 128 in results and results[128].get("instant"):
            e = results[128]["instant"]["export"]
            lines += ["", f"At 128 tokens the export is {_kb(e)}: goal <= {EXPORT_GOAL_BYTES / 1e6:.2f} MB "
                          f"{'met' if e <= EXPORT_GOAL_BYTES else 'MISSED'}."]

    lines += ["", "Where the Glassbox bytes go (heads view):", "",
              "| tokens | part | bytes | share |", "| ---: | --- | ---: | ---: |"]
    for n, r in sorted(results.items()):
        heads = r["glassbox"]["heads"]
        for part, size in sorted(heads["parts"].items(), key=lambda kv: -kv[1]):
            lines.append(f"| {n} | {part} | {size:,} | {size / heads['total']:.1%} |")

    lines += ["", "Inside the plotly specs (compact JSON of each trace field, summed over traces; "
                  "approximate):", "", "| tokens | chart | field | bytes |", "| ---: | --- | --- | ---: |"]
    for n, r in sorted(results.items()):
        for chart, fields in r["glassbox"]["heads"]["fields"].items():
            big = sorted(fields.items(), key=lambda kv: -kv[1])
            for field, size in big[:6]:
                lines.append(f"| {n} | {chart} | {field} | {size:,} |")

    extra = [v for v in (*views, "click") if v != "heads"]
    if any(v in r["glassbox"] for r in results.values() for v in extra):
        lines += ["", "Other views (fresh session each) and one click on a head-map cell (fragment rerun, "
                      "detail panel):", "", "| tokens | view | bytes |", "| ---: | --- | ---: |"]
        for n, r in sorted(results.items()):
            for v in extra:
                if v in r["glassbox"]:
                    lines.append(f"| {n} | {v} | {r['glassbox'][v]['total']:,} |")
    external = sorted({u for r in results.values() for v in r["glassbox"].values() for u in v.get("external", [])})
    lines += ["", f"Requests to other hosts during the Glassbox loads: {len(external)}"
                  + (f" ({', '.join(external[:5])})" if external else "") + "."]
    return "\n".join(lines)


def _cell(b: dict) -> str:
    if "bytes" in b:
        return f"{b['bytes']:,} ({_kb(b['bytes'])})"
    return "skipped" if not b else "error: " + b["error"][0]


def _version(name: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(name)
    except PackageNotFoundError:
        return "?"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tokens", type=int, nargs="+", default=[32, 128, 512])
    ap.add_argument("--skip-bertviz-512", action="store_true",
                    help="do not build BertViz at >= 512 tokens (~0.9 GB of HTML, tens of seconds each)")
    ap.add_argument("--no-bertviz", action="store_true", help="Glassbox bytes only")
    ap.add_argument("--views", action="store_true",
                    help="also measure the lines, metrics and rollout views and a click on a cell")
    ap.add_argument("--port", type=int, help="port for the server this script starts (default: a free one)")
    ap.add_argument("--url", help="measure a server that is already running (e.g. http://127.0.0.1:8501)")
    ap.add_argument("--no-doc", action="store_true", help="do not write docs/benchmarks.md")
    ap.add_argument("--json", type=Path, help="also write the raw results here")
    ap.add_argument("--_bertviz-worker", nargs=2, metavar=("TOKENS", "VIEW"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args._bertviz_worker:
        bertviz_worker(int(args._bertviz_worker[0]), args._bertviz_worker[1])
        return

    from benchmarks._browser import app_server, chromium, load_note, sigterm_as_exit, text_with_tokens

    sigterm_as_exit()
    load = os.getloadavg()
    views = ALL_VIEWS if args.views else ("heads",)
    results: dict[int, dict] = {n: {"glassbox": {}, "bertviz": {}} for n in args.tokens}
    with app_server(port=args.port, url=args.url) as base, chromium() as browser:
        for n in args.tokens:
            t0 = time.perf_counter()
            results[n]["glassbox"] = glassbox_bytes(base, browser, text_with_tokens(n), views, click=args.views)
            print(f"[{n} tokens] Glassbox heads view: {results[n]['glassbox']['heads']['total']:,} bytes "
                  f"({time.perf_counter() - t0:.1f} s)", file=sys.stderr)
    for n in args.tokens:
        results[n]["instant"] = i = instant_bytes(n)
        print(f"[{n} tokens] instant payload {i['payload']:,} bytes, export {i['export']:,} bytes", file=sys.stderr)
    if not args.no_bertviz:
        for n in args.tokens:
            if n >= 512 and args.skip_bertviz_512:
                continue
            for view in ("model_view", "head_view"):
                results[n]["bertviz"][view] = b = bertviz_bytes(n, view)
                print(f"[{n} tokens] BertViz {view}: {b.get('bytes', b.get('error'))} bytes", file=sys.stderr)
    md = report(results, views) + "\n\nBuild times above: " + load_note(load)
    from benchmarks._timing import publish

    publish("render_payload", md, write_doc=not args.no_doc, say_where=True)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()

"""The live standalone export (viz_core/attention_html.py with a model): the policy still
forbids every fetch and allows only inline scripts plus WebAssembly compilation, the
model's JSON cannot end its script element, and the three scripts the page needs are in
it. The page itself is typed into from file:// in tests/e2e/test_instant_live_e2e.py."""
from __future__ import annotations

import json
import re

import numpy as np

from viz_core.attention_html import script_safe_text, standalone_html
from viz_core.attention_pack import pack_attention

PAYLOAD = pack_attention(np.full((1, 1, 2, 2), 0.5, dtype=np.float32), ["a", "b"])
HOSTILE = json.dumps({"vocab": ["</script><script>alert(1)</script>", "<!--", "&amp;"]})


def policy(page: str) -> str:
    return re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', page).group(1)


def test_static_export_has_no_wasm_permission() -> None:
    page = standalone_html(PAYLOAD)
    assert "wasm-unsafe-eval" not in policy(page)
    assert "glassboxModel" not in page and 'id="gb-model"' not in page


def test_live_export_embeds_the_model_and_stays_offline() -> None:
    page = standalone_html(PAYLOAD, model_json=HOSTILE, text="<b>hi</b>", live_labels={"box": "Your text"})
    csp = policy(page)
    assert csp.startswith("default-src 'none'; ")
    assert "script-src 'unsafe-inline' 'wasm-unsafe-eval';" in csp
    assert "connect-src data: blob:" in csp and "http" not in csp
    for name in ("glassboxModel", "glassboxLive", "glassboxAttention"):
        assert name in page
    # one real closing tag per script element: the model's and the text's cannot end theirs
    assert page.count("</script>") == page.count("<script")
    assert "<!--" not in page and "<b>hi</b>" not in page
    block = re.search(r'<script type="application/json" id="gb-model">(.*?)</script>', page, re.S).group(1)
    assert json.loads(block) == json.loads(HOSTILE)          # JSON.parse reads the escapes back
    live = re.search(r'<script type="application/json" id="gb-live">(.*?)</script>', page, re.S).group(1)
    assert json.loads(live) == {"text": "<b>hi</b>", "labels": {"box": "Your text"}}


def test_script_safe_text_escapes_what_could_end_a_script() -> None:
    out = script_safe_text('"</script>\u2028<!--&"')
    assert "<" not in out and ">" not in out and "&" not in out and "\u2028" not in out
    assert json.loads(out) == "</script>\u2028<!--&"

"""Load a Hugging Face model from the UI, and the parity badge of models that come from a
Hugging Face folder.

`sidebar(entry, text, target, device)` (called once from ui/shell.py's sidebar) shows the
selected model's parity badge (cached per text, or a button that computes it) and the
"Load a model" expander: a folder path, or a hub id when this machine is online. A load
runs in steps with a progress bar (checking files and the memory the model needs, reading
weights, building, comparing with transformers); the model then joins this session's
model picker like a trained model (ui/serving/trained.py, kind "loaded") and is selected.
A refused folder gets one sentence in the UI language (ui/refusals.py) and nothing the
user had is touched: the model is only added once it is completely built.

`card_badge(sel)` is the home page's badge (computed on the current text)."""
from __future__ import annotations

import os
import re
import socket
from pathlib import Path
from typing import Any, Callable

import streamlit as st

from models.weights import parity as P

from ..i18n import t
from ..markup import md_escape
from ..refusals import say
from ..serving import parity as pc
from ..serving import trained

_SOURCE, _DONE = "_ml_source", "_ml_done"
HUB_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,95}(/[A-Za-z0-9][A-Za-z0-9_.-]{0,95})?$")
HUB_HOST, HUB_TIMEOUT_S = "huggingface.co", 3.0


# ---- the badge -------------------------------------------------------------------------------------
def badge_text(p: P.Parity) -> str:
    """The badge in the UI language, markdown-safe."""
    version = md_escape(p.transformers_version)
    if p.ok is None:
        key = f"ml_skip_{p.skipped}"
        reason = t(key, version=version) if key in _strings() else md_escape(p.reason)
        return t("ml_parity_skipped", reason=reason)
    diff = "0" if p.max_abs_diff == 0 else f"{p.max_abs_diff:.1e}"
    if p.ok:
        return t("ml_parity_ok", version=version, diff=diff).replace("✓", ":green[✓]", 1)
    return t("ml_parity_bad", version=version, diff=diff, tol=f"{p.tolerance:.0e}").replace("✗", ":red[✗]", 1)


def badge_help(p: P.Parity) -> str:
    if p.ok is None:
        return ""
    return t("ml_parity_compared", what=t(f"ml_what_{p.output}"), n=p.n_tokens)


def _strings() -> Any:
    from ..i18n import STRINGS

    return STRINGS


def show_badge(p: P.Parity) -> None:
    st.caption(badge_text(p), help=badge_help(p) or None)


def card_badge(slot: Any, key: str, text: str, target: str, device: str) -> None:
    """Fill `slot` (drawn in the home page's model card) with the model's badge on the
    current text, computed now if need be. Nothing for a model not from a HF folder."""
    if pc.source_of(key) is None:
        return
    try:
        result = pc.check(key, text, target, device)
    except Exception as e:  # noqa: BLE001 - a badge never breaks the page
        slot.caption(t("ml_parity_skipped", reason=say(e)))
        return
    if result is not None:
        with slot.container():
            show_badge(result)


# ---- the sidebar -------------------------------------------------------------------------------------
def sidebar(entry: Any, text: str, target: str, device: str) -> None:
    """The selected model's parity badge and the "Load a model" expander."""
    if pc.source_of(entry.key) is not None:
        result = pc.cached(entry.key, text, target)
        if result is None and st.button(t("ml_check"), key="_ml_check", icon=":material/rule:"):
            try:
                result = pc.check(entry.key, text, target, device)
            except Exception as e:  # noqa: BLE001
                st.caption(t("ml_parity_skipped", reason=say(e)))
        if result is not None:
            show_badge(result)
    if panel_enabled():
        panel(text, target)


def panel_enabled() -> bool:
    """The panel reads paths on the server: GLASSBOX_LOAD_PANEL=0 hides it (a public
    server whose visitors should only see the models it offers)."""
    return os.environ.get("GLASSBOX_LOAD_PANEL", "1").strip().lower() not in ("0", "false", "no", "off")


def panel(text: str, target: str) -> None:
    done = st.session_state.pop(_DONE, None)
    with st.expander(t("ml_expander"), icon=":material/upload_file:", expanded=done is not None):
        if done is not None:
            st.success(t("ml_done", label=md_escape(done)), icon=":material/check:")
        source = st.text_input(t("ml_source"), key=_SOURCE, help=t("ml_source_help"), placeholder="./tiny-llama")
        if not st.button(t("ml_load"), key="_ml_load", icon=":material/download:"):
            return
        if not (source or "").strip():
            st.info(t("ml_empty"), icon=":material/edit:")
            return
        bar = st.progress(0, text=t("ml_step_check"))
        try:
            key, label = load_into_session(source.strip(), text, target,
                                           lambda step, pct: bar.progress(pct, text=t(f"ml_step_{step}")))
        except Exception as e:  # noqa: BLE001 - a refusal in the UI language, anything else one general sentence
            bar.empty()
            said = say(e)              # model_too_big says "Nothing was loaded" itself
            st.warning(said if getattr(e, "reason", "") == "model_too_big" else t("ml_failed", reason=said),
                       icon=":material/block:")
            return
        bar.progress(100, text=t("ml_step_parity"))
        st.session_state[_DONE] = label
        trained.select_next(key)
        st.rerun()


# ---- the load --------------------------------------------------------------------------------------------
def resolve(source: str, on_step: Callable[[str, int], None]) -> Path:
    """The local folder of `source`: a path, else a hub id downloaded when online."""
    from models.weights.keytable import CheckpointError

    path = Path(source).expanduser()
    if path.exists() or source.startswith((".", "/", "~")) or not HUB_ID.match(source):
        if not path.exists():
            raise CheckpointError("not_found", f"{path.name} does not exist.", name=(path.name or source)[:80])
        if not path.is_dir():
            raise CheckpointError("not_folder", f"{path.name} is not a folder.", folder=path.name[:80])
        return path
    offline = CheckpointError("offline", f"{source!r} is neither a local folder nor reachable on the Hugging Face "
                              "hub (this machine is offline).", name=source[:80])
    if os.environ.get("HF_HUB_OFFLINE", "0") not in ("0", "", "false", "False") or not _online():
        raise offline
    on_step("download", 5)
    try:
        from huggingface_hub import snapshot_download

        return Path(snapshot_download(source, allow_patterns=["*.json", "*.safetensors", "*.txt"], etag_timeout=5))
    except Exception as e:  # noqa: BLE001 - unknown repo, network error, missing library: the same sentence
        raise offline from e


def _online() -> bool:
    """Whether the hub answers a connection within a few seconds (never hangs the page)."""
    try:
        with socket.create_connection((HUB_HOST, 443), timeout=HUB_TIMEOUT_S):
            return True
    except OSError:
        return False


def load_into_session(source: str, text: str, target: str,
                      on_step: Callable[[str, int], None] = lambda step, pct: None) -> tuple[str, str]:
    """Load `source` (a folder or a hub id) into this session's picker, with its parity
    badge on `text`; returns (key, label). Raises a Refused (CheckpointError,
    ModelTooBig, ...) before anything is added."""
    from models.weights import pretrained, safety
    from models.weights.keytable import CheckpointError

    trained.check_room()
    folder = resolve(source, on_step)
    on_step("check", 10)
    hf_config, cfg = pretrained.check_folder(folder)        # config, memory budget, every tensor's shape
    on_step("read", 30)
    tok = pretrained.load_tokenizer(folder)
    if tok is None:
        raise CheckpointError("no_tokenizer", f"{folder.name} has no tokenizer files.", folder=folder.name)
    pretrained.check_tokenizer(folder, tok, cfg)
    weights = pretrained.read_safetensors(folder)
    on_step("build", 60)
    model = pretrained.from_weights(hf_config, weights, "cpu")
    del weights
    on_step("parity", 80)
    name = folder.name if Path(source).expanduser().exists() else source
    family = str(hf_config.get("model_type", "?"))
    card = {"description": t("ml_desc", name=name[:60], family=family[:30], params=f"{model.n_params / 1e6:.1f}"),
            "source": str(folder), "family": family, "need_bytes": safety.model_bytes(cfg)}
    key = trained.add(model, tok, name[:40], card, kind="loaded")
    pc.compare(key, str(folder), model, tok, text, target)
    holder = trained.find(key)
    return key, holder.label if holder else name

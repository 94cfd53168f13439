"""Load a Hugging Face model from the UI, and the parity badge of models that come from a
Hugging Face folder.

`sidebar(entry, text, target, device)` (called once from ui/sidebar.py's sidebar) shows the
selected model's parity badge (cached per text, or a button that computes it) and the
"Load a model" expander: a folder path, or a hub id when this machine reaches the hub (or
the mirror HF_ENDPOINT names), with suggestions of popular small models; the precision to
load in (float32, bfloat16, float16); and, before anything is read, the model's size in
each precision and whether it fits the server's budget (from config.json; for a suggested
hub id, its published parameter count). A load runs in steps with a progress bar (checking
files and the memory the model needs, downloading with the bytes done, reading weights,
building, comparing with transformers); the model then joins this session's model picker
like a trained model (ui/serving/trained.py, kind "loaded") and is selected.
A refused folder gets one sentence in the UI language (ui/refusals.py) and nothing the
user had is touched: the model is only added once it is completely built.

`card_badge(sel)` is the home page's badge (computed on the current text)."""
from __future__ import annotations

import os
import re
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import streamlit as st
import torch

import models.weights.parity
from models import limits
from models.weights import safety
from server import sessions

from ..i18n import count_words, t
from ..markup import md_escape
from ..refusals import say
from ..serving import parity
from ..serving import trained
from .folded import folded

_SOURCE, _DONE, _DTYPE, _PICK, _SIZES = "_ml_source", "_ml_done", "_ml_dtype", "_ml_pick", "_ml_sizes"
HUB_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,95}(/[A-Za-z0-9][A-Za-z0-9_.-]{0,95})?$")
DTYPES = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}


@dataclass(frozen=True)
class Suggestion:
    hub_id: str
    n_params: int           # APPROXIMATE: the published parameter count (model card), not read from a file
    gated: bool = False     # the hub asks for a token of an account that accepted the licence


# Popular small open models (2025-26) by hub id, with their published, approximate parameter counts.
# Whether one loads depends on its family being supported (models/weights/pretrained.py); the panel
# checks its config.json before any weight is downloaded.
SUGGESTIONS = (
    Suggestion("HuggingFaceTB/SmolLM2-135M", 135_000_000),
    Suggestion("google/gemma-3-270m", 268_000_000, gated=True),
    Suggestion("FacebookAI/xlm-roberta-base", 278_000_000),
    Suggestion("HuggingFaceTB/SmolLM2-360M", 362_000_000),
    Suggestion("Qwen/Qwen3-0.6B", 596_000_000),
    Suggestion("meta-llama/Llama-3.2-1B", 1_240_000_000, gated=True),
    Suggestion("microsoft/Phi-4-mini-instruct", 3_840_000_000),
)


# ---- numbers in words ------------------------------------------------------------------------------
def size_words(nbytes: float) -> str:
    """Bytes in decimal units, three significant digits: 1.98 GB, 988 MB, 412 kB."""
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if nbytes >= scale:
            return f"{nbytes / scale:.3g} {unit}"
    return f"{nbytes:.0f} B"


def sci(x: float) -> str:
    """1e-4, 3.1e-2, 0: a tolerance or a difference, short."""
    if x == 0:
        return "0"
    if x != x:
        return "NaN"
    mant, exp = f"{x:.1e}".split("e")
    return f"{mant.removesuffix('.0')}e{int(exp)}"


def size_sentence(size: safety.SizeSummary, dtype: str, approximate: bool = False) -> str:
    """"494 M parameters: 1.98 GB in float32, 988 MB in bfloat16 or float16 — fits in float32
    (this server's model budget is 11.7 GB)." in the UI language."""
    head = t("ml_size_approx" if approximate else "ml_size", params=count_words(size.n_params),
             f32=size_words(size.nbytes["float32"]), half=size_words(size.nbytes["bfloat16"]))
    budget = size_words(size.budget)
    if size.fits[dtype]:
        verdict = t("ml_fits", dtype=dtype, budget=budget)
    elif size.fits["bfloat16"]:
        verdict = t("ml_fits_other", dtype=dtype, budget=budget)
    else:
        verdict = t("ml_fits_none", budget=budget)
    return head + verdict


# ---- the badge -------------------------------------------------------------------------------------
def badge_text(p: models.weights.parity.Parity) -> str:
    """The badge in the UI language, markdown-safe: the dtype and the tolerance it was held to."""
    version = md_escape(p.transformers_version)
    if p.ok is None:
        key = f"ml_skip_{p.skipped}"
        reason = t(key, version=version) if key in _strings() else md_escape(p.reason)
        return t("ml_parity_skipped", reason=reason)
    values = dict(version=version, dtype=p.dtype, diff=sci(p.max_abs_diff or 0.0), tol=sci(p.tolerance))
    if p.ok:
        return t("ml_parity_ok", **values).replace("✓", ":green[✓]", 1)
    return t("ml_parity_bad", **values).replace("✗", ":red[✗]", 1)


def badge_help(p: models.weights.parity.Parity) -> str:
    """What was compared, and the tolerance's rule for the dtype."""
    if p.ok is None:
        return ""
    if p.dtype == "float32":
        rule = t("ml_tol_float32")
    else:
        eps = torch.finfo(DTYPES[p.dtype]).eps
        scale = p.tolerance / (models.weights.parity.HALF_EPS * eps)
        rule = t("ml_tol_half", eps=models.weights.parity.HALF_EPS, dtype=p.dtype, scale=f"{scale:.3g}", frac=round(1 / (models.weights.parity.HALF_EPS * eps)))
    return t("ml_parity_compared", what=t(f"ml_what_{p.output}"), n=p.n_tokens, dtype=p.dtype, rule=rule)


def _strings() -> Any:
    from ..i18n import STRINGS

    return STRINGS


def show_badge(p: models.weights.parity.Parity) -> None:
    st.caption(badge_text(p), help=badge_help(p) or None)


def card_badge(slot: Any, key: str, text: str, target: str, device: str) -> None:
    """Fill `slot` (drawn in the home page's model card) with the model's badge on the
    current text, computed now if need be. Nothing for a model not from a HF folder.
    While more than GLASSBOX_MAP_SESSIONS sessions share the server, a text not checked
    yet waits for a click, as the model map does: the check is a transformers pass and
    ours for every reader's text (7.5 % of the server's CPU with 30 explorers)."""
    if parity.source_of(key) is None:
        return
    limit, n = int(limits.value("map_sessions")), sessions.count()
    if n > limit and parity.cached(key, text, target) is None and not slot.button(
            t("ml_check"), key="_ml_check_card", icon=":material/rule:", help=t("ml_check_busy", n=n, limit=limit)):
        return
    try:
        result = parity.check(key, text, target, device)
    except Exception as e:  # noqa: BLE001 - a badge never breaks the page
        slot.caption(t("ml_parity_skipped", reason=say(e)))
        return
    if result is not None:
        with slot.container():
            show_badge(result)


# ---- the sidebar -------------------------------------------------------------------------------------
def sidebar(entry: Any, text: str, target: str, device: str) -> None:
    """The selected model's parity badge and the "Load a model" expander."""
    if parity.source_of(entry.key) is not None:
        result = parity.cached(entry.key, text, target)
        if result is None and st.button(t("ml_check"), key="_ml_check", icon=":material/rule:"):
            try:
                result = parity.check(entry.key, text, target, device)
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


def _fill() -> None:
    """A suggestion was clicked: its hub id goes into the source box (a callback runs before
    the box is drawn); the pills forget the click so the same one can be clicked again."""
    picked = st.session_state.get(_PICK)
    if picked:
        st.session_state[_SOURCE] = picked
    st.session_state[_PICK] = None


def is_hub_id(source: str) -> bool:
    """`source` names a hub model, not a local path (an existing path always wins)."""
    return (not Path(source).expanduser().exists() and not source.startswith((".", "/", "~"))
            and HUB_ID.match(source) is not None)


def preview(source: str) -> tuple[safety.SizeSummary, bool] | None:
    """(size, approximate) of what `source` names, known without reading a tensor: a
    folder's config.json, the config of a hub model this session already asked for, or a
    suggestion's published count (approximate); None when nothing can be said yet (the
    load then says what is wrong)."""
    from models.weights import pretrained

    source = source.strip()
    if not source:
        return None
    if is_hub_id(source):
        known = st.session_state.get(_SIZES, {}).get(source)
        if known is not None:
            return safety.size_of_count(*known), False
        hit = next((s for s in SUGGESTIONS if s.hub_id.lower() == source.lower()), None)
        return (safety.size_of_count(hit.n_params), True) if hit else None
    folder = Path(source).expanduser()
    try:
        if not (folder / "config.json").is_file():
            return None
        return safety.size_summary(pretrained.config_from_hf(pretrained.read_hf_config(folder))), False
    except Exception:  # noqa: BLE001 - a folder that cannot be read is said by the load, in its words
        return None


def panel(text: str, target: str) -> None:
    done = st.session_state.pop(_DONE, None)      # a load just finished (in this panel, so it is open)
    box = folded(t("ml_expander"), key="_ml_open", keep=(_SOURCE, _DTYPE), icon=":material/upload_file:")
    if box is None:                   # closed (as it is on most runs): its widgets cost nothing
        return
    with box:
        if done is not None:
            st.success(t("ml_done", label=md_escape(done[0]), dtype=done[1]), icon=":material/check:")
        source = st.text_input(t("ml_source"), key=_SOURCE, help=t("ml_source_help"), placeholder="./tiny-llama")
        names = {s.hub_id: f"{s.hub_id.split('/')[-1]} · {count_words(s.n_params)}" for s in SUGGESTIONS}
        st.pills(t("ml_suggest"), list(names), format_func=names.__getitem__, key=_PICK, on_change=_fill,
                 help=t("ml_suggest_help"))
        labels = {d: t(f"ml_dtype_{d}") for d in DTYPES}           # in this run's language
        dtype = st.radio(t("ml_dtype"), list(DTYPES), key=_DTYPE, format_func=labels.__getitem__,
                         help=t("ml_dtype_help")) or "float32"
        size_slot = st.empty()
        seen = preview(source or "")
        if seen is not None:
            show_size(size_slot, seen[0], dtype, seen[1])
        if not st.button(t("ml_load"), key="_ml_load", icon=":material/download:"):
            return
        if not (source or "").strip():
            st.info(t("ml_empty"), icon=":material/edit:")
            return
        bar = st.progress(0, text=t("ml_step_check"))
        try:
            key, label = load_into_session(source.strip(), text, target,
                                           lambda step, pct, **fmt: bar.progress(pct, text=t(f"ml_step_{step}", **fmt)),
                                           dtype=dtype, on_size=lambda size: show_size(size_slot, size, dtype))
        except Exception as e:  # noqa: BLE001 - a refusal in the UI language, anything else one general sentence
            bar.empty()
            said = say(e)              # model_too_big says "Nothing was loaded" itself
            st.warning(said if getattr(e, "reason", "") == "model_too_big" else t("ml_failed", reason=said),
                       icon=":material/block:")
            return
        bar.progress(100, text=t("ml_step_parity"))
        st.session_state[_DONE] = (label, dtype)
        trained.select_next(key)
        st.rerun()


def show_size(slot: Any, size: safety.SizeSummary, dtype: str, approximate: bool = False) -> None:
    slot.caption(size_sentence(size, dtype, approximate),
                 help=t("ml_budget_machine" if size.budget_from_machine else "ml_budget_operator"))


# ---- the download -----------------------------------------------------------------------------------------
class DownloadProgress:
    """How far a hub download is, shared by its threads and the script's thread.

    `tqdm_class()` is the class given to huggingface_hub's snapshot_download: every bar it
    opens (bytes, or files for an older huggingface_hub) registers here, and `done()` reads
    the first bar counting bytes, else the one counting files. No Streamlit call is made
    from the download's threads: the script's thread polls `done()` and draws."""

    def __init__(self) -> None:
        self.bars: list[Any] = []
        self.lock = threading.Lock()

    def tqdm_class(self) -> type:
        from tqdm.std import tqdm

        progress = self

        class _Null:                                   # the bars print nothing
            def write(self, _: str) -> None: ...
            def flush(self) -> None: ...

        class Bar(tqdm):
            monitor_interval = 0                       # no tqdm monitor thread per bar

            def __init__(self, *args: Any, **kwargs: Any) -> None:
                kwargs.pop("name", None)
                kwargs.update(file=_Null(), disable=False)
                super().__init__(*args, **kwargs)
                with progress.lock:
                    progress.bars.append(self)

        return Bar

    def done(self) -> tuple[str, float, float] | None:
        """(unit "B" or "files", done, total) of the most telling bar, None before any."""
        with self.lock:
            bars = list(self.bars)
        for unit in ("B", "it"):
            for bar in bars:
                if getattr(bar, "unit", "it") == unit and (bar.total or 0) > 0:
                    return ("B" if unit == "B" else "files"), float(bar.n), float(bar.total)
        return None


def download(source: str, on_step: Callable[..., None]) -> Path:
    """The hub model's folder, downloaded in a thread while this one reports its progress."""
    from models.weights import hub

    host = hub.host()
    progress, result = DownloadProgress(), {}

    def work() -> None:
        try:
            result["folder"] = hub.download(source, progress.tqdm_class())
        except BaseException as e:  # noqa: BLE001 - handed to the script's thread
            result["error"] = e

    worker = threading.Thread(target=work, name="glassbox-hub-download", daemon=True)
    worker.start()
    on_step("download", 10, host=host)
    while worker.is_alive():
        worker.join(0.25)
        seen = progress.done()
        if seen is None:
            continue
        unit, n, total = seen
        pct = 10 + int(20 * min(1.0, n / total))
        if unit == "B":
            on_step("download_bytes", pct, host=host, done=size_words(n), total=size_words(total))
        else:
            on_step("download_files", pct, host=host, done=int(n), total=int(total))
    if "error" in result:
        raise result["error"]
    return result["folder"]


# ---- the load --------------------------------------------------------------------------------------------
def resolve(source: str, on_step: Callable[..., None], dtype: torch.dtype = torch.float32,
            on_size: Callable[[safety.SizeSummary], None] = lambda size: None) -> Path:
    """The local folder of `source`: a path, else a hub id, downloaded when the hub (or the
    mirror HF_ENDPOINT names) is reachable and its config.json says it fits in `dtype`."""
    from models.weights import hub
    from models.weights.keytable import CheckpointError

    path = Path(source).expanduser()
    if not is_hub_id(source):
        if not path.exists():
            raise CheckpointError("not_found", f"{path.name} does not exist.", name=(path.name or source)[:80])
        if not path.is_dir():
            raise CheckpointError("not_folder", f"{path.name} is not a folder.", folder=path.name[:80])
        return path
    if hub.offline() or not hub.reachable():              # HF_ENDPOINT's host and port, 3 s at most
        raise hub.offline_error(source)
    on_step("hub_config", 5, host=hub.host())
    _, cfg = _checked_size(lambda: hub.check(source, dtype), on_size)
    st.session_state.setdefault(_SIZES, {})[source] = safety.parameter_count(cfg)
    return download(source, on_step)


def _checked_size(check: Callable[[], Any], on_size: Callable[[safety.SizeSummary], None]) -> Any:
    """check() (a folder's or a hub config's checks, which refuse a model over the budget
    with both numbers); the size of one that passed is said before its weights are read."""
    hf_config, cfg = check()
    on_size(safety.size_summary(cfg))
    return hf_config, cfg


def load_into_session(source: str, text: str, target: str,
                      on_step: Callable[..., None] = lambda step, pct, **fmt: None, dtype: str = "float32",
                      on_size: Callable[[safety.SizeSummary], None] = lambda size: None) -> tuple[str, str]:
    """Load `source` (a folder or a hub id) in `dtype` ("float32", "bfloat16", "float16")
    into this session's picker, with its parity badge on `text`; returns (key, label).
    `on_step(step, percent, **values)` hears each step, `on_size` the model's size before a
    weight is read. Raises a Refused (CheckpointError, ModelTooBig, ...) before anything
    is added."""
    from models.weights import pretrained
    from models.weights.keytable import CheckpointError

    torch_dtype = DTYPES[safety.dtype_name(dtype)]
    trained.check_room()
    folder = resolve(source, on_step, torch_dtype, on_size)
    on_step("check", 35)
    from ..serving import loaded        # one copy per folder, dtype and device for the whole server, in its budget

    in_memory = loaded.in_memory(folder, torch_dtype, "cpu")   # another session's copy costs this load nothing
    hf_config, cfg = _checked_size(lambda: pretrained.check_folder(folder, torch_dtype, budget=not in_memory),
                                   on_size)                       # the budget in dtype
    on_step("read", 45)
    tok = pretrained.load_tokenizer(folder)
    if tok is None:
        raise CheckpointError("no_tokenizer", f"{folder.name} has no tokenizer files.", folder=folder.name)
    pretrained.check_tokenizer(folder, tok, cfg)
    on_step("build", 65)
    handle = loaded.share(folder, lambda: pretrained.from_weights(hf_config, pretrained.LazyWeights(folder), "cpu",
                                                                  torch_dtype),
                          safety.model_bytes(cfg, torch_dtype.itemsize), torch_dtype, "cpu")
    model = handle.model
    on_step("parity", 80)
    name = folder.name if not is_hub_id(source) else source
    family = str(hf_config.get("model_type", "?"))
    values = dict(name=name[:60], family=family[:30], dtype=dtype)     # the count is said in the language of the moment
    card = {"description": t("ml_desc", params=count_words(model.n_params), **values), "description_key": "ml_desc",
            "description_values": values, "n_params": model.n_params,
            "source": str(folder), "family": family, "dtype": dtype,
            "need_bytes": safety.model_bytes(cfg, torch_dtype.itemsize)}
    key = trained.add(model, tok, name[:40], card, kind="loaded", handle=handle)
    parity.compare(key, str(folder), model, tok, text, target)
    holder = trained.find(key)
    return key, holder.label if holder else name

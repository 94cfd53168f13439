"""The training lab: the settings form, runs in background threads, live curves and
attention, the step scrubber, and checkpoint download / upload.

A run trains in a daemon thread (`models.training.trainer.train`) that fills a `TrainRun` in
place; the page polls it from a fragment every second while it runs, so widgets stay
responsive and a Stop button works. Runs live in the session's state, so two browser
sessions never see each other's runs. At most `MAX_PARALLEL` runs train at once in
the whole server (others wait for a slot), so a classroom cannot starve the CPU.
Its probe passes (the attention snapshots) go through the run gate (`ui/serving/`).
The checkpoint zip is a file format: models/weights/checkpoint.py.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field

import numpy as np
import streamlit as st

import viz_core as vz
from lab import detectors
from models.config import ACTIVATIONS, NORMS, POSITIONALS
from models.training.tasks import MAX_LM_CHARS, TASKS, Task, char_lm_task, get_task, text_from_upload
from models.training.trainer import TrainRun, TrainSettings, check_fits, train
from models import limits
from models.errors import Refused
from models.weights import safety
from models.weights.checkpoint import checkpoint_zip, read_checkpoint_zip

from ..figure_words import weight_terms
from ..i18n import t
from ..markup import md_code, md_escape
from ..model_names import pe_name
from ..page import explain
from ..refusals import say
from ..serving import run_held, trained
from ..sidebar import Selection
from ..widgets import figure_export

MAX_PARALLEL = int(limits.value("training_runs"))   # training threads in the whole server
MAX_TEXT_KB = MAX_LM_CHARS // 1000     # char-LM .txt upload
TASK_IDS = (*TASKS, "char_lm")
_slots = threading.BoundedSemaphore(MAX_PARALLEL)
_RUNS = "_train_runs"

DEFAULT_TEXT = ("To be, or not to be, that is the question: whether 'tis nobler in the mind to suffer the slings "
                "and arrows of outrageous fortune, or to take arms against a sea of troubles and by opposing end "
                "them. To die, to sleep, no more; and by a sleep to say we end the heart-ache and the thousand "
                "natural shocks that flesh is heir to. ") * 3


@dataclass(frozen=True)
class Choices:
    """What the settings form chose when Start was pressed."""

    task_id: str                       # a toy task (models/training/tasks.py) or char_lm
    text: str | None                   # char_lm: the training text (None: the upload was refused)
    length: int                        # training length (char_lm: the context)
    n_layers: int
    n_heads: int
    n_kv_heads: int
    d_model: int
    d_ff: int
    positional: str
    norm: str
    norm_position: str                 # pre | post
    activation: str
    steps: int
    lr: float
    batch_size: int
    seed: int
    every: int                         # steps between evaluations and attention snapshots

    def model_kw(self) -> dict:
        """Keyword arguments of the task's TransformerConfig."""
        return dict(n_layers=self.n_layers, n_heads=self.n_heads, n_kv_heads=self.n_kv_heads, d_model=self.d_model,
                    d_ff=self.d_ff, positional=self.positional, norm=self.norm, norm_position=self.norm_position,
                    activation=self.activation)

    def train_settings(self) -> TrainSettings:
        return TrainSettings(steps=self.steps, lr=self.lr, batch_size=self.batch_size, seed=self.seed,
                             eval_every=self.every, snapshot_every=self.every)


def render(sel: Selection) -> None:
    """The training lab page."""
    st.title(t("tr_title"))
    st.caption(t("tr_intro"))
    recs = _records()
    rec = recs[-1] if recs else None
    running = rec is not None and not rec.run.finished
    choices = settings_form(running)
    if choices is not None:
        start(choices, sel.device)
    if rec is not None:
        st.divider()
        st.subheader(t("tr_run_title", label=md_escape(rec.label)))
        if running:
            st.fragment(live, run_every=1.0)(rec)
        else:
            finished(rec)
    upload()
    session_models()
    with st.expander(t("tr_how")):
        st.markdown(t("tr_how_text"))


@dataclass(eq=False)
class Record:
    """One run of this session."""

    run: TrainRun
    stop: threading.Event
    label: str
    waiting: bool = True               # queued for a training slot
    key: str = ""                      # model-picker key once the model has joined it
    failure: BaseException | None = None   # what ended the thread, if it did not end by itself
    thread: threading.Thread | None = field(default=None, repr=False)


def _records() -> list[Record]:
    return st.session_state.setdefault(_RUNS, [])


def _worker(rec: Record, device: str) -> None:
    import torch

    with _slots:
        rec.waiting = False
        if rec.stop.is_set():          # stopped while queued: nothing trained, nothing to keep
            rec.run.state = "stopped"
            return
        # Toy models gain nothing from several intra-op threads, and on a busy CPU their
        # spin-waits make every step many times slower: train on one thread. (PyTorch's
        # setting is also the default of threads started meanwhile: restored afterwards.)
        before = torch.get_num_threads()
        torch.set_num_threads(1)
        try:
            train(rec.run.task, rec.run.config, rec.run.settings, device=device, stop=rec.stop, run=rec.run,
                  gate=run_held)
        except Exception as e:  # noqa: BLE001 - a background thread must leave a message, not die silently
            rec.run.state, rec.failure = "failed", e          # the page says it in one sentence (explain)
        finally:
            torch.set_num_threads(before)


def _task_label(task_id: str) -> str:
    return t(f"tr_task_{task_id}")


# ---- the settings form -----------------------------------------------------------------------
def settings_form(running: bool) -> Choices | None:
    """Task and architecture choices; the Choices when Start was pressed, else None."""
    st.subheader(t("tr_setup"))
    task_id = st.selectbox(t("tr_task"), TASK_IDS, index=TASK_IDS.index("reverse"), format_func=_task_label,
                           key="tr_task", disabled=running)
    st.caption(t(f"tr_task_{task_id}_help"))
    text = None
    if task_id == "char_lm":
        up = st.file_uploader(t("tr_upload_text", kb=MAX_TEXT_KB), type=["txt"], key="tr_text_file",
                              disabled=running)
        text = st.text_area(t("tr_lm_text"), DEFAULT_TEXT, height=120, key="tr_lm_text", disabled=running,
                            max_chars=MAX_LM_CHARS)
        if up is not None:
            try:
                text = text_from_upload(up.getvalue(), up.name)
                st.caption(t("tr_using_file", name=md_escape(up.name), n=len(text)))
            except Refused as e:
                st.error(say(e))
                text = None
    base = _base_task(task_id)
    defaults = base.default_config() if base is not None else None
    # option labels in this run's language (a format_func that looked them up later would follow AppTest's)
    names = {**{p: t(f"pos_{p}") for p in POSITIONALS}, **{n: t(f"bn_axis_{n}") for n in NORMS},
             **{p: t(f"norm_{p}") for p in ("pre", "post")}, **{a: t(f"act_{a}") for a in ACTIVATIONS}}
    with st.form("tr_form", border=True):
        c = st.columns(4)
        layers = c[0].number_input(t("tr_layers"), 1, 6, defaults.n_layers if defaults else 2, key="tr_layers")
        heads = c[1].number_input(t("tr_heads"), 1, 16, 4, key="tr_heads")
        kv = c[2].number_input(t("tr_kv_heads"), 1, 16, 4, key="tr_kv", help=t("tr_kv_help"))
        d_model = c[3].number_input(t("tr_d_model"), 8, 512, 64, step=8, key="tr_d_model")
        # the four menus two to a row: their names ("RoPE（旋转位置编码）", "Pre-LN（前置层归一化）") were
        # cut off in a quarter of the width, in Chinese and on a projector's larger text
        c = st.columns(2)
        pe = c[0].selectbox(t("tr_positional"), POSITIONALS, format_func=names.__getitem__,
                            index=POSITIONALS.index(defaults.positional if defaults else "rope"), key="tr_pe")
        norm = c[1].selectbox(t("tr_norm"), NORMS, format_func=names.__getitem__, key="tr_norm")
        c = st.columns(2)
        norm_pos = c[0].selectbox(t("tr_norm_position"), ("pre", "post"), format_func=names.__getitem__,
                                  key="tr_norm_pos")
        act = c[1].selectbox(t("tr_activation"), ACTIVATIONS, index=ACTIVATIONS.index("gelu"),
                             format_func=names.__getitem__, key="tr_act")
        c = st.columns(4)
        d_ff = c[0].number_input(t("tr_d_ff"), 8, 2048, 256, step=8, key="tr_d_ff")
        length_default = base.train_len if base is not None else 64
        length = c[1].number_input(t("tr_length") if task_id != "char_lm" else t("tr_context"), 1, 64 if
                                   task_id != "char_lm" else 128, length_default, key=f"tr_len_{task_id}")
        steps = c[2].number_input(t("tr_steps"), 0, 20_000, 400 if task_id == "reverse" else 1000, step=50,
                                  key=f"tr_steps_{task_id}")
        lr = c[3].number_input(t("tr_lr"), 0.0, 1.0, 3e-3, step=1e-4, format="%.4f", key="tr_lr")
        c = st.columns(4)
        batch = c[0].number_input(t("tr_batch"), 1, 512, 64, key="tr_batch")
        seed = c[1].number_input(t("tr_seed"), 0, 2**31 - 1, 0, key="tr_seed")
        every = c[2].number_input(t("tr_snapshot_every"), 1, 1000, 25, key="tr_every",
                                  help=t("tr_snapshot_help"))
        started = st.form_submit_button(t("tr_start"), type="primary", disabled=running,
                                        icon=":material/play_arrow:", key="tr_start")
    if not started:
        return None
    return Choices(task_id=task_id, text=text, length=int(length), n_layers=int(layers), n_heads=int(heads),
                   n_kv_heads=int(kv), d_model=int(d_model), d_ff=int(d_ff), positional=pe, norm=norm,
                   norm_position=norm_pos, activation=act, steps=int(steps), lr=float(lr), batch_size=int(batch),
                   seed=int(seed), every=int(every))


def _base_task(task_id: str) -> Task | None:
    return None if task_id == "char_lm" else get_task(task_id)


def start(c: Choices, device: str) -> None:
    """Validate everything first (a sentence per problem), then launch the thread."""
    try:
        if c.task_id == "char_lm":
            if c.text is None:
                raise ValueError(t("tr_no_text"))
            task = char_lm_task(c.text, c.length)
        else:
            task = get_task(c.task_id, train_len=c.length)
        if c.n_kv_heads > c.n_heads:
            raise ValueError(t("tr_kv_too_many", kv=c.n_kv_heads, h=c.n_heads))
        cfg = task.default_config(**c.model_kw())
        settings = c.train_settings()
        check_fits(task, cfg)
        safety.check_model(cfg)                 # the form bounds it; the server's budget is checked anyway
        trained.check_room()
    except Refused as e:
        st.error(say(e), icon=":material/block:")
        return
    except ValueError as e:
        st.error(t("tr_refused", error=explain(e)), icon=":material/block:")
        return
    run = TrainRun(task, cfg, settings, task.probe(), detector_ids=detector_ids(task, cfg))
    label = t("label_value", label=t("tr_trained"), value=f"{_task_label(c.task_id)} · {pe_name(cfg.positional)}")
    rec = Record(run, threading.Event(), label)
    rec.thread = threading.Thread(target=_worker, args=(rec, device), daemon=True,
                                  name=f"glassbox-train-{c.task_id}")
    _records().append(rec)
    rec.thread.start()
    st.rerun()


def detector_ids(task: Task, cfg) -> list[int] | None:
    """The sequence the head detectors read at every snapshot (decoder tasks): the task's
    symbols, repeated, at its training length (lab/detectors.py)."""
    if cfg.arch != "decoder":
        return None
    try:
        return detectors.for_task(task, cfg.max_len).ids
    except ValueError:
        return None


# ---- a run -------------------------------------------------------------------------------
def _curves(run: TrainRun, marker: int | None = None):
    # the training thread appends to these lists while we read: cut to a common length
    n = min(len(run.steps), len(run.loss), len(run.lr))
    m = min(len(run.eval_steps), len(run.accuracy))
    return vz.training_curves(run.steps[:n], run.loss[:n], run.eval_steps[:m], run.accuracy[:m], run.lr[:n],
                              total_steps=run.settings.steps, marker_step=marker,
                              terms={"loss": t("tr_loss"), "accuracy": t("tr_accuracy"), "lr": t("tr_lr_short"),
                                     "step": t("tr_step")})


def _stack_tokens(run: TrainRun, stack: str) -> tuple[list[str], list[str]]:
    p = run.probe
    src, tgt = p.tokens, p.tgt_tokens
    return {"self": (src, src), "encoder": (src, src), "decoder": (tgt, tgt), "cross": (tgt, src)}[stack]


def _status_line(rec: Record) -> None:
    run = rec.run
    if rec.waiting and run.state == "running":
        st.info(t("tr_waiting"), icon=":material/hourglass_empty:")
        return
    acc = f"{run.final_accuracy:.1%}" if run.accuracy else "–"
    loss = f"{run.loss[-1]:.4f}" if run.loss else "–"
    text = t("tr_status", step=run.step, steps=run.settings.steps, loss=loss, acc=acc, s=f"{run.seconds:.1f}")
    if run.state == "running":
        st.progress(min(1.0, run.step / run.settings.steps), text=text)
    elif run.state == "done":
        st.success(t("tr_done") + " " + text, icon=":material/check_circle:")
    elif run.state == "stopped":
        st.warning(t("tr_stopped") + " " + text, icon=":material/stop_circle:")
    else:
        error = explain(rec.failure) if rec.failure is not None else md_escape(run.error)
        st.error(t("tr_failed", error=error), icon=":material/error:")


def live(rec: Record) -> None:
    """Redrawn every second while the run trains."""
    run = rec.run
    if run.finished:
        st.rerun()                                   # whole page: switch to the finished view
    _status_line(rec)
    if st.button(t("tr_stop"), icon=":material/stop:", key="tr_stop"):
        rec.stop.set()
    if run.steps:
        figure_export.chart(_curves(run), key="tr_live_curves", config={"displayModeBar": False},
                 download=False)     # redrawn every second: the finished view has the menu
    if run.snapshots:
        snap = run.snapshots[-1]
        stack = run.probe_stack
        st.caption(t("tr_live_attention", step=snap.step))
        figure_export.chart(vz.model_view(snap.patterns[stack].astype(np.float32), tile_px=96,
                               terms={"tile": t("term_tile")}),
                 key="tr_live_heads", config={"displayModeBar": False}, download=False)


def finished(rec: Record) -> None:
    """Curves, the step scrubber over the snapshots, the model in the picker, download."""
    run = rec.run
    _status_line(rec)
    if run.state == "failed" or not run.snapshots:
        return
    if not rec.key:
        rec.key = trained.add(run.frozen_model(), run.task.tokenizer, rec.label,
                              {**run.card(), "description": t("tr_card", task=_task_label(run.task.name), step=run.step)})
        trained.select_next(rec.key)                 # the picker selects it: the model the user just made
        st.rerun()                                   # the sidebar (drawn before this page) shows it now
    c1, c2 = st.columns([3, 2])
    c1.info(t("tr_in_picker", label=md_escape(trained.find(rec.key).label if trained.find(rec.key) else rec.label)),
            icon=":material/model_training:")
    c2.page_link("app_pages/attention.py", label=t("tr_inspect"), icon=":material/visibility:")
    steps = [s.step for s in run.snapshots]
    stack_opts = ["cross", "decoder", "encoder"] if run.config.arch == "encoder-decoder" else ["self"]
    cols = st.columns([4, 2])
    step = cols[0].select_slider(t("tr_scrub"), steps, value=steps[-1], key="tr_scrub")
    stack = cols[1].radio(t("tr_stack"), stack_opts, horizontal=True, key="tr_stack",
                          format_func=lambda s: t(f"stack_{s}")) if len(stack_opts) > 1 else "self"
    snap = run.snapshots[steps.index(step)]
    figure_export.chart(_curves(run, marker=step), key="tr_curves", config={"displayModeBar": False})
    scores = run.ideal_scores()
    m = st.columns(4)
    m[0].metric(t("tr_step"), f"{snap.step}")
    m[1].metric(t("tr_loss"), "–" if not np.isfinite(snap.loss) else f"{snap.loss:.4f}")
    m[2].metric(t("tr_accuracy"), f"{snap.accuracy:.1%}")
    if scores is not None:
        m[3].metric(t("tr_ideal"), f"{scores[steps.index(step)]:.2f}", help=t("tr_ideal_help"))
    q_tok, k_tok = _stack_tokens(run, stack)
    st.markdown(t("tr_probe", text=md_code(run.probe.text + (f" → {run.probe.tgt_text}" if run.probe.tgt_text else ""))))
    left, right = st.columns([1, 1])
    with left:
        st.caption(t("tr_all_heads", step=snap.step))
        figure_export.chart(vz.model_view(snap.patterns[stack].astype(np.float32), tile_px=128,
                               terms={"tile": t("term_tile")}), key="tr_heads_fig",
                 config={"displayModeBar": False})
    with right:
        st.caption(t("tr_ideal_map"))
        try:
            ideal = run.task.ideal_for(run.probe) if stack == run.probe_stack else None
        except ValueError:
            ideal = None
        if ideal is not None:
            fig = vz.head_heatmap(ideal, q_tok, k_tok, clickable=False, square=False, terms=weight_terms())
            fig.update_layout(height=420)
            figure_export.chart(fig, key="tr_ideal_fig", config={"displayModeBar": False})
        else:
            st.caption(t("tr_no_ideal"))
    detector_chart(run, step)
    st.subheader(t("tr_play_title"))
    st.caption(t("tr_play_help"))
    frames = [s.patterns[stack].astype(np.float32).mean(axis=1) for s in run.snapshots]   # [layers, q, k] each
    figure_export.chart(vz.attention_over_steps(frames, steps, q_tok, k_tok, start=steps.index(step),
                                     titles=[t("tr_layer_mean", layer=i) for i in range(frames[0].shape[0])],
                                     terms={"play": t("tr_play"), "pause": t("tr_pause"),
                                            "step": t("tr_step")}),
             key="tr_anim", config={"displayModeBar": False})
    download(rec)


DETECTORS_SHOWN = ("induction", "previous_token", "duplicate_token", "first_token")


def detector_chart(run: TrainRun, step: int) -> None:
    """The best head's detector scores at every snapshot, above the loss."""
    snaps = [s for s in run.snapshots if s.detector_patterns is not None]
    if not snaps or run.detector_ids is None:
        return
    hist = detectors.history([s.step for s in snaps], [s.detector_patterns for s in snaps], run.detector_ids)
    names = {d: t(f"at_det_{d}") for d in DETECTORS_SHOWN}
    n = min(len(run.steps), len(run.loss))
    fig = vz.detector_curves(hist.steps, {names[d]: hist.best(d) for d in DETECTORS_SHOWN}, run.steps[:n],
                             run.loss[:n], chance={names[d]: hist.chance[d] for d in DETECTORS_SHOWN},
                             marker_step=step, terms={"loss": t("tr_loss"), "step": t("tr_step")})
    st.subheader(t("tr_det_title"))
    figure_export.chart(fig, key="tr_detectors", config={"displayModeBar": False})
    layer, head = hist.head_at_end("induction")
    st.caption(t("tr_det_caption", layer=layer, head=head, score=float(hist.scores["induction"][-1, layer, head])))


def download(rec: Record) -> None:
    holder = trained.find(rec.key)
    if holder is None:
        return
    stem = f"glassbox-{rec.run.task.name}-{rec.run.config.positional}-step{rec.run.step}"
    st.download_button(t("tr_download"), lambda: checkpoint_zip(holder.model, holder.tokenizer,
                                                                {**holder.card, "label": holder.label}, stem),
                       f"{stem}.zip", "application/zip", icon=":material/download:", key="tr_download")


def upload() -> None:
    with st.expander(t("tr_upload_title"), icon=":material/upload:"):
        st.caption(t("tr_upload_help", mb=int(limits.value("upload_mb"))))
        f = st.file_uploader(t("tr_upload"), type=["zip"], key="tr_upload")
        if f is None:
            return
        done = st.session_state.setdefault("_tr_uploaded", {})
        sig = f"{f.name}:{f.size}:{f.file_id}"
        if sig in done:
            st.success(t("tr_uploaded", label=md_escape(done[sig])), icon=":material/check:")
            return
        try:
            trained.check_room()
            model, tok, meta = read_checkpoint_zip(f.getvalue())
        except Exception as e:      # noqa: BLE001 - a hostile file must leave a sentence, never a traceback
            st.error(say(e), icon=":material/error:")
            return
        label = meta.get("label") or t("label_value", label=t("tr_uploaded_label"), value=f.name)
        key = trained.add(model, tok, str(label)[:60], {**meta, "description": t("tr_uploaded_desc", name=f.name),
                                                              "description_key": "tr_uploaded_desc",
                                                              "description_values": {"name": f.name}})
        done[sig] = trained.find(key).label
        st.success(t("tr_uploaded", label=md_escape(done[sig])), icon=":material/check:")


def session_models() -> None:
    """The models this session trained or uploaded, each with a button that removes it
    (a session holds at most GLASSBOX_SESSION_MODELS of them)."""
    holders = trained.session_models()
    if not holders:
        return
    limit = int(limits.value("session_models"))
    with st.expander(t("tr_session_models", n=len(holders), limit=limit), icon=":material/inventory_2:"):
        for h in holders:
            c1, c2 = st.columns([5, 1], vertical_alignment="center")
            c1.markdown(md_escape(h.label))
            c2.button(t("tr_remove"), key=f"tr_remove_{h.key}", on_click=trained.remove, args=(h.key,),
                      icon=":material/delete:")

"""The generation page: settings, the generation run (streamed, with a stop button), and
the views of its steps (candidates, attention row, beam tree, repetition, KV cache,
cross-attention).

The generation itself is lab/generate.py; every number shown comes from its Steps
(the real distributions, the real K/V tensors' sizes, the recorded attention rows) or
from lab/kv.py (cache sizes, paged blocks). Every forward pass runs inside the run gate
(`serving.run_held`). A run lives in session state (`_gen`) keyed by its settings, so
moving the step slider never regenerates, and a stop keeps the steps produced so far.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import streamlit as st

import lab.generate
import viz_core as vz
import viz_core.generate
from lab import kv, repetition
from models.trace import Stack, act_name
from models.weights import zoo

from .. import model_names, serving
from ..figure_words import words
from ..i18n import formula, lang, t
from ..links import bound, choice, show_notices
from ..markup import md_escape
from ..page import explain, require_model
from ..serving import MAX_CHARS, run_held
from ..serving.generate import compare_settings
from ..sidebar import Selection
from ..widgets import figure_export
from ..widgets.notes import misconception
from . import generate_teacher_forcing

STRATEGIES = lab.generate.STRATEGIES
MAX_NEW = 64
PLAY_SECONDS = 0.9


@dataclass
class Run:
    """One generation as the page keeps it."""

    sig: tuple
    settings: lab.generate.Settings
    prompt_ids: list[int]
    prompt_tokens: list[str]
    source_tokens: list[str] | None
    steps: list[lab.generate.Step] = field(default_factory=list)
    result: lab.generate.Result | None = None        # beam search
    done: bool = False
    stopped: bool = False

    @property
    def new_ids(self) -> list[int]:
        if self.result is not None:
            return self.result.new_ids
        return [s.token_id for s in self.steps]


def render(sel: Selection) -> None:
    """The generation page."""
    st.title(t("gen_title"))
    model, tok = require_model(sel)
    cfg = model.cfg
    if cfg.arch == "encoder" or cfg.output != "logits":
        show_notices()
        encoder_only(sel)
        return
    language_prompt_buttons(sel)
    example = lab.generate.task_prompt(serving.task_of(sel.model_key), cfg.arch)
    if example is not None and example != sel.text:
        st.button(t("gen_use_example", text=md_escape(example)), on_click=_set, args=("text", example),
                  key="gen_example")
    if sel.random_weights:
        st.caption(t("gen_random"))
    st.caption(t("gen_prompt_is_sidebar") if cfg.arch == "decoder" else t("gen_source_is_sidebar"))
    settings = settings_controls(cfg.vocab_size, cfg.arch)
    show_notices()                                  # link values the widgets could not take
    if not sel.text.strip():
        st.info(t("empty_text"), icon=":material/edit:")
        return
    run = run_generation(model, tok, sel, settings)
    if run is not None:
        views(model, tok, sel, run)
    with st.container(key="tf_section"):            # teacher forcing vs the KV cache, on the same text
        generate_teacher_forcing.section(sel, cfg.arch)
    explanations()


# ---- encoder-only and toy prompts -----------------------------------------------------------
def decoder_choice() -> zoo.Entry | None:
    """A generating model to offer instead of an encoder: the shipped language model
    (verse-lm), else a trained toy decoder, else the GPT-2-style preset, else any decoder;
    None if the catalogue has none."""
    entries = [e for e in zoo.catalogue() if e.available and e.config is not None]
    lms = [e for e in entries if e.kind == "lm" and e.config.arch == "decoder"]
    toys = [e for e in entries if e.kind == "toy" and e.config.arch == "decoder"]
    customs = [e for e in entries if e.key == "custom:gpt"]
    return (lms + toys + customs + [e for e in entries if e.config.arch == "decoder"] + [None])[0]


def language_prompt_buttons(sel: Selection) -> None:
    """A language model's example prompts: the UI language's first (primary), one click
    for the other language's."""
    entry = serving.entry(sel.model_key)
    pairs = lab.generate.language_prompts(entry.card, lang()) if entry is not None and entry.kind == "lm" else []
    pairs = [(code, prompt) for code, prompt in pairs if code in ("zh", "en")]      # the languages named here
    if not pairs:
        return
    cols = st.columns(len(pairs))
    for i, (code, prompt) in enumerate(pairs):
        label = t("gen_lm_prompt", lang=t(f"gen_lang_{code}"), text=md_escape(prompt))
        cols[i].button(label, on_click=_set, args=("text", prompt), key=f"gen_lm_prompt_{code}",
                       type="primary" if i == 0 and sel.text != prompt else "secondary", disabled=sel.text == prompt)


def _switch_model(entry: zoo.Entry) -> None:
    """Switch the sidebar's model; to a language model with prompts, its UI-language prompt too."""
    st.session_state["model"] = entry.key
    pairs = lab.generate.language_prompts(entry.card, lang()) if entry.kind == "lm" else []
    if pairs:
        st.session_state["text"] = pairs[0][1]


def encoder_only(sel: Selection) -> None:
    """An encoder (MiniLM, BERT) reads a whole text at once and has no next-token head."""
    st.info(t("gen_encoder_only", model=md_escape(sel.model_label)), icon=":material/block:")
    misconception("encoder_generation", t("gen_mis_encoder_common"), t("gen_mis_encoder_shown"))
    entry = decoder_choice()
    if entry is not None:
        st.button(t("gen_switch_decoder", model=md_escape(model_names.label(entry))), on_click=_switch_model,
                  args=(entry,),
                  key="gen_switch", type="primary")


def _set(key: str, value) -> None:
    """A button's callback: put `value` in session state (the sidebar's text or model, a stop)."""
    st.session_state[key] = value


# ---- settings -------------------------------------------------------------------------------
def settings_controls(vocab: int, arch: str) -> lab.generate.Settings:
    """The decoding settings (bounded widgets; the values go in the URL)."""
    strategy = choice(st.radio, t("gen_strategy"), STRATEGIES, param="strategy", default="greedy",
                      horizontal=True, labels={s: t(f"gen_strategy_{s}") for s in STRATEGIES})
    c = st.columns(5)
    n = bound(c[0].slider, t("gen_max_new"), 1, MAX_NEW, 20, key="gen_n", url_default="20")
    temperature, top_k, top_p, seed, width, alpha = 1.0, 0, 1.0, 0, 3, 1.0
    if strategy == "sample":
        temperature = bound(c[1].slider, t("gen_temperature"), 0.0, 2.0, 1.0, 0.05, key="gen_t", url_default="1.0",
                            help=t("gen_temperature_help"))
        top_k = bound(c[2].number_input, t("gen_top_k"), 0, vocab, 0, key="gen_k", url_default="0",
                      help=t("gen_top_k_help"))
        top_p = bound(c[3].slider, t("gen_top_p"), 0.0, 1.0, 1.0, 0.05, key="gen_p", url_default="1.0",
                      help=t("gen_top_p_help"))
        seed = bound(c[4].number_input, t("gen_seed"), 0, 1_000_000, 0, key="gen_seed", url_default="0")
    elif strategy == "beam":
        width = bound(c[1].slider, t("gen_beam_width"), 1, 8, 3, key="gen_width", url_default="3")
        alpha = bound(c[2].slider, t("gen_length_penalty"), 0.0, 2.0, 1.0, 0.1, key="gen_alpha", url_default="1.0",
                      help=t("gen_length_penalty_help"))
    cache_slot = c[4] if strategy != "sample" else st.container()
    use_cache = cache_slot.toggle(t("gen_use_cache"), True, key="gen_cache", help=t("gen_use_cache_help"))
    settings = lab.generate.Settings(strategy, int(n), float(temperature), int(top_k), float(top_p), int(seed),
                                     int(width),
                          float(alpha), bool(use_cache))
    if strategy == "sample" and settings.is_greedy:
        st.caption(t("gen_t0_greedy"))
    elif strategy == "sample" and top_p == 0:
        st.caption(t("gen_p0_greedy"))
    return settings


# ---- the run ---------------------------------------------------------------------------------
def run_generation(model, tok, sel: Selection, settings: lab.generate.Settings) -> Run | None:
    """The generation for these settings: from session state when it exists (done or
    stopped), else generated now, token by token, with a progress bar and a stop button."""
    p = lab.generate.prepare_prompt(tok, model.cfg, sel.text[:MAX_CHARS], settings.max_new_tokens)
    prompt, src = p.ids, p.source_ids
    if p.cut:
        st.info(t("gen_truncated", cut=p.cut, kept=len(src or prompt), max_len=model.cfg.max_len),
                icon=":material/content_cut:")
    if not (src or prompt) or (src is not None and not src):
        st.info(t("empty_text"), icon=":material/edit:")
        return None
    sig = (sel.model_key, sel.device, tuple(prompt), tuple(src or ()), settings)
    run: Run | None = st.session_state.get("_gen")
    stop = st.session_state.pop("_gen_stop", False)
    if run is not None and run.sig == sig and (run.done or run.stopped or stop):
        run.stopped = run.stopped or not run.done
        return run
    run = Run(sig, settings, prompt, p.tokens, p.source_tokens)
    st.session_state["_gen"] = run
    eos = lab.generate.eos_id(tok)
    try:
        if settings.strategy == "beam":
            with st.spinner(t("gen_running_beam")):
                run.result = run_held(model,
                                      lambda m: lab.generate.beam_search(m, prompt, settings, source=src, eos=eos),
                                      len(prompt) + settings.max_new_tokens)
        else:
            _stream(model, run, settings, src, eos)
    except ValueError as e:
        st.session_state.pop("_gen", None)
        st.error(t("gen_failed", error=explain(e)))
        return None
    run.done = True
    return run


def _stream(model, run: Run, settings: lab.generate.Settings, src, eos) -> None:
    """Generate token by token; the stop button's click reruns the page, which ends this
    loop at the next progress update and keeps `run.steps` (see run_generation)."""
    slot = st.empty()
    with slot.container():
        stop_col, bar_col = st.columns([1, 5])
        stop_col.button(t("gen_stop"), on_click=_set, args=("_gen_stop", True), key="gen_stop_btn",
                        icon=":material/stop:")
        bar = bar_col.progress(0.0, text=t("gen_progress", i=0, n=settings.max_new_tokens))
    names = [act_name("pattern", None, s) for s in Stack.attention_maps(model.cfg.arch) if s is not Stack.ENCODER]
    steps = lab.generate.iter_generate(model, run.prompt_ids, settings, source=src, eos=eos, names=names)
    while True:                                             # one step at a time: other sessions interleave
        step = run_held(model, lambda _m: next(steps, None), len(run.prompt_ids) + len(run.steps) + 1)
        if step is None:
            break
        run.steps.append(lab.generate.last_rows(step))
        bar.progress(len(run.steps) / settings.max_new_tokens,
                     text=t("gen_progress", i=len(run.steps), n=settings.max_new_tokens))
    slot.empty()


# ---- views -----------------------------------------------------------------------------------
def output_markdown(tokens: list[str], n_prompt: int, marks: np.ndarray, current: int | None) -> str:
    """The sequence as markdown: prompt grey, generated tokens plain, repeated n-grams
    orange, the current step's token red. Every token escaped."""
    out = []
    for i, s in enumerate(tokens):
        label = md_escape(vz.visible_label(s, 30))
        if i < n_prompt:
            out.append(f":gray[{label}]")
        elif current is not None and i == current:
            out.append(f":red-background[**{label}**]")
        elif marks[i]:
            out.append(f":orange-background[{label}]")
        else:
            out.append(f":blue[{label}]")
    return " ".join(out)


def _on_play() -> None:
    playing = not st.session_state.get("gen_playing", False)
    st.session_state["gen_playing"] = playing
    if playing and st.session_state.get("gen_step", 1) >= st.session_state.get("_gen_n_steps", 1):
        st.session_state["gen_step"] = 1


def _nudge(delta: int) -> None:
    n = st.session_state.get("_gen_n_steps", 1)
    st.session_state["gen_step"] = int(np.clip(st.session_state.get("gen_step", 1) + delta, 1, n))


def views(model, tok, sel: Selection, run: Run) -> None:
    """Everything below the settings once a run exists."""
    n_new = len(run.new_ids)
    if run.stopped:
        st.warning(t("gen_stopped", n=n_new), icon=":material/stop_circle:")
    text = tok.decode(run.new_ids) if n_new else ""
    st.markdown(f"**{t('gen_output')}** {md_escape(text) if text.strip() else t('gen_nothing')}")
    if (run.result is not None and run.result.stopped_by_eos
            or run.steps and run.steps[-1].token_id == lab.generate.eos_id(tok)):
        st.caption(t("gen_eos"))
    st.button(t("gen_again"), on_click=_set, args=("_gen", None), key="gen_again", icon=":material/refresh:")
    if n_new == 0:
        return
    if run.settings.strategy == "beam":
        tabs(model, tok, sel, run, None, run.prompt_tokens + lab.generate.token_texts(tok, run.new_ids))
        return
    st.session_state["_gen_n_steps"] = n_new
    if st.session_state.get("_gen_shown") != id(run) or st.session_state.get("gen_step", n_new) > n_new:
        st.session_state["gen_step"] = n_new                  # a new run opens on its last step
        st.session_state["_gen_shown"] = id(run)
    playing = bool(st.session_state.get("gen_playing"))
    st.session_state["_gen_timer"] = playing        # whether this run's fragment ticks by itself
    st.fragment(run_every=PLAY_SECONDS if playing else None)(_step_fragment)(model, tok, sel, run)


def _step_fragment(model, tok, sel: Selection, run: Run) -> None:
    """The step slider and every per-step view: a fragment, so stepping (and playing)
    reruns only this part."""
    n_new = len(run.steps)
    playing = bool(st.session_state.get("gen_playing"))
    if playing and st.session_state.get("gen_step", 1) >= n_new:
        st.session_state["gen_playing"] = playing = False  # played to the end
    if playing != st.session_state.get("_gen_timer"):
        st.rerun()                                          # the timer is set when the page runs: start/stop it
    if playing:
        st.session_state["gen_step"] = st.session_state.get("gen_step", 1) + 1
    c1, c2, c3, c4 = st.columns([1, 1, 1, 9], vertical_alignment="bottom")
    c1.button("", icon=":material/skip_previous:", on_click=_nudge, args=(-1,), key="gen_prev", help=t("gen_prev"))
    playing = bool(st.session_state.get("gen_playing"))
    c2.button("", icon=":material/pause:" if playing else ":material/play_arrow:", on_click=_on_play,
              key="gen_play", help=t("gen_pause") if playing else t("gen_play"))
    c3.button("", icon=":material/skip_next:", on_click=_nudge, args=(1,), key="gen_next", help=t("gen_next"))
    with c4:
        step_no = st.slider(t("gen_step"), 1, max(n_new, 2), key="gen_step", disabled=n_new < 2)
    s = run.steps[min(step_no, n_new) - 1]
    tokens = run.prompt_tokens + lab.generate.token_texts(tok, run.new_ids)
    n_prompt = len(run.prompt_ids)
    marks = repetition.repeated_ngrams(run.prompt_ids + run.new_ids, 3, start=n_prompt)
    st.markdown(output_markdown(tokens[: s.position + 1], n_prompt, marks, s.position))
    tabs(model, tok, sel, run, s, tokens)


def tabs(model, tok, sel: Selection, run: Run, s: lab.generate.Step | None, tokens: list[str]) -> None:
    """The views of one step `s` (beam search, which keeps no steps: of the whole run)."""
    cfg = model.cfg
    names = ["step" if s is not None else "beam", "repetition", "cache"]
    names += ["cross"] if s is not None and cfg.arch == "encoder-decoder" else []
    tab = st.tabs([t(f"gen_tab_{n}") for n in names])
    with tab[0]:
        if s is not None:
            step_view(model, tok, run, s, tokens)
        else:
            beam_view(tok, run)
    with tab[1]:
        repetition_view(tok, sel, run)
    with tab[2]:
        cache_view(cfg, run, s.index if s is not None else len(run.new_ids) - 1, tokens)
    if "cross" in names:
        with tab[3]:
            cross_view(cfg, run, s, tokens)


def _why(s: lab.generate.Step, settings: lab.generate.Settings) -> str:
    if settings.is_greedy:
        return t("gen_why_greedy")
    rank = s.candidates.index(s.token_id) + 1 if s.token_id in s.candidates else None
    return t("gen_why_sampled", p=s.chosen_prob, rank=rank if rank else f"> {len(s.candidates)}", kept=s.n_kept)


def step_view(model, tok, run: Run, s: lab.generate.Step, tokens: list[str]) -> None:
    cfg = model.cfg
    left, right = st.columns([1, 1], gap="medium")
    chosen = s.candidates.index(s.token_id) if s.token_id in s.candidates else None
    cand = lab.generate.token_texts(tok, s.candidates)
    with left:
        st.markdown(f"**{t('gen_candidates', i=s.index + 1, pos=s.position)}**")
        fig = viz_core.generate.candidate_bars(cand, s.model_probs, s.probs, s.kept, s.final_probs, chosen,
                                terms=words("gen_term_", viz_core.generate.BAR_TERMS))
        figure_export.chart(fig, key="gen_bars", width="stretch")
        st.markdown(t("gen_chosen", tok=md_escape(vz.visible_label(lab.generate.token_text(tok, s.token_id), 30))) + " "
                    + _why(s, run.settings))
    with right:
        layer = st.slider(t("layer"), 0, cfg.n_layers - 1, cfg.n_layers - 1, key="gen_layer") if cfg.n_layers > 1 else 0
        row = lab.generate.attention_row(s, layer,
                                         Stack.output(cfg.arch))                               # [head, context]
        ctx = tokens[: s.position]
        fig = vz.head_heatmap(row, [f"H{h}" for h in range(row.shape[0])], ctx, clickable=False, square=False,
                              title=t("gen_attn_title", tok=vz.visible_label(tokens[s.position - 1], 20), layer=layer),
                              terms={"query": t("term_head"), "key": t("term_key"), "weight": t("term_weight")})
        vz.fit_height(fig, int(np.clip(200 + 26 * row.shape[0], 320, 560)))
        figure_export.chart(fig, key="gen_attn_row", width="stretch")
        st.caption(t("gen_attn_caption"))


def repetition_view(tok, sel: Selection, run: Run) -> None:
    n_prompt = len(run.prompt_ids)
    ids = run.prompt_ids + run.new_ids
    n = st.slider(t("gen_ngram"), 1, 6, 3, key="gen_ngram")
    marks = repetition.repeated_ngrams(ids, n, start=n_prompt)
    tokens = run.prompt_tokens + lab.generate.token_texts(tok, run.new_ids)
    st.markdown(output_markdown(tokens, n_prompt, marks, None))
    st.markdown(t("gen_repeat_rate", n=n, rate=repetition.repetition_rate(ids, n, start=n_prompt)))
    st.markdown(t("gen_repeat_explain"))
    if st.toggle(t("gen_compare"), key="gen_compare_on"):
        rows = compare_settings(sel.model_key, sel.device, tuple(run.prompt_ids),
                                tuple(run.sig[3]) or None, run.settings.max_new_tokens, n)
        st.dataframe(pd.DataFrame(rows).rename(columns={"setting": t("gen_col_setting"), "rate": t("gen_col_rate"),
                                                       "text": t("gen_col_text")}),
                     hide_index=True, width="stretch", key="gen_compare_table")
        st.caption(t("gen_compare_caption"))


def beam_view(tok, run: Run) -> None:
    res = run.result
    nodes = res.beam
    if len(nodes) > 400:
        st.info(t("gen_beam_big", n=len(nodes)))
    fig = viz_core.generate.beam_tree([n.step for n in nodes], [n.parent for n in nodes],
                       lab.generate.token_texts(tok, [n.token_id for n in nodes]),
                       [n.score for n in nodes], [n.kept for n in nodes], [n.finished for n in nodes], res.best_path,
                       prompt_label=t("gen_prompt"), terms=words("gen_term_", viz_core.generate.BEAM_TERMS))
    figure_export.chart(fig, key="gen_beam_tree", width="stretch")
    best = nodes[res.best_path[-1]]
    length = len(res.best_path)
    st.markdown(t("gen_beam_best", score=best.score, n=length, alpha=run.settings.length_penalty,
                  norm=lab.generate.normalised_score(best.score, length, run.settings.length_penalty)))
    st.markdown(t("gen_beam_explain", width=run.settings.beam_width))
    st.latex(formula("gen_beam"))


def cache_view(cfg, run: Run, index: int, all_tokens: list[str]) -> None:
    """The KV cache after step `index`: its rows per layer, its memory, MHA/GQA/MQA, paging."""
    s = run.steps[index] if run.steps else None          # beam search keeps no steps
    rows = (s.cache_rows if s else 0) or len(run.prompt_ids) + index   # positions whose K/V exist after it
    width = run.settings.beam_width if run.settings.strategy == "beam" else 1
    cache = kv.cache_at_step(cfg, rows, width, s.cache_bytes if s else None)
    if not run.settings.use_cache:
        st.info(t("gen_cache_off"))
    st.markdown(t("gen_cache_explain", n=rows, kv=cfg.kv_heads, heads=cfg.n_heads, kind=cfg.attention_kind,
                  dh=cfg.head_dim))
    st.latex(formula("gen_cache_bytes"))
    tokens = all_tokens[:rows]
    before = 0 if index == 0 else rows - 1
    fig = viz_core.generate.kv_cache_grid(cfg.n_layers, rows, before, tokens,
                           terms=words("gen_term_", viz_core.generate.CACHE_TERMS))
    figure_export.chart(fig, key="gen_cache_grid", width="stretch")
    st.caption(t("gen_cache_grid_caption"))
    shape = f"[{', '.join(map(str, cache.shape))}]"
    table = pd.DataFrame({t("layer"): list(range(cfg.n_layers)), "K": [shape] * cfg.n_layers,
                          "V": [shape] * cfg.n_layers,
                          t("gen_col_bytes"): [f"{b / 1024:.1f} KiB" for b in cache.layer_bytes]})
    st.dataframe(table, hide_index=True, key="gen_cache_table")
    if run.settings.strategy == "beam":
        st.caption(t("gen_cache_beam", width=width))
    if run.source_tokens is not None:
        n_src = len(run.source_tokens)
        st.caption(t("gen_cache_cross", n=n_src, kib=kv.kv_cache_bytes(cfg, n_src).total / 1024))
    # MHA / GQA / MQA for this model's shape
    positions, curves = kv.kv_cache_curves(cfg, max(cfg.max_len, rows))
    name = {d: t("gen_kv_label", kind=kv.attention_kind(cfg.n_heads, d), n=d) for d in curves}
    series = {name[d]: b for d, b in curves.items()}
    figure_export.chart(viz_core.generate.kv_memory_chart(positions, series, current=name.get(cfg.kv_heads), at=rows,
                                terms={"tokens": t("gen_term_tokens"), "bytes": t("gen_term_bytes")}),
             key="gen_cache_memory", width="stretch")
    st.markdown(t("gen_cache_compare", n=rows, this=cache.total / 1024, mha=cache.mha / 1024, mqa=cache.mqa / 1024,
                  kind=cfg.attention_kind))
    st.markdown(f"**{t('gen_paged_title')}**")
    block = st.select_slider(t("gen_block_size"), [2, 4, 8, 16, 32], 4, key="gen_block")
    paged = kv.paged_layout(rows, block)
    figure_export.chart(viz_core.generate.paged_view(tokens, block, paged.physical, terms={"block": t("gen_term_block"),
                                                                  "slot": t("gen_term_slot")}),
             key="gen_paged", width="stretch")
    st.markdown(t("gen_paged_explain", blocks=paged.blocks, block=block, empty=paged.empty, max_len=cfg.max_len,
                  waste=cfg.max_len - rows))


def cross_view(cfg, run: Run, s: lab.generate.Step, tokens: list[str]) -> None:
    """Encoder-decoder: each generated token's cross-attention over the source, growing
    row by row up to the current step."""
    c1, c2 = st.columns(2)
    layer = (c1.slider(t("layer"), 0, cfg.n_layers - 1, cfg.n_layers - 1, key="gen_cross_layer")
             if cfg.n_layers > 1 else 0)
    head = c2.selectbox(t("head"), ["mean"] + [str(h) for h in range(cfg.n_heads)], key="gen_cross_head",
                        format_func=lambda o: t("combine_mean") if o == "mean" else f"H{o}")
    rows = np.stack([lab.generate.attention_row(st_, layer,
                                                Stack.CROSS) for st_ in run.steps[: s.index + 1]])  # [step, head, src]
    m = rows.mean(axis=1) if head == "mean" else rows[:, int(head)]
    q_labels = [f"{vz.visible_label(tokens[st_.position - 1], 12)} → {vz.visible_label(tokens[st_.position], 12)}"
                for st_ in run.steps[: s.index + 1]]
    fig = vz.head_heatmap(m, q_labels, run.source_tokens, clickable=False, square=False,
                          title=t("gen_cross_title", layer=layer, n=s.index + 1),
                          terms={"query": t("gen_term_step"), "key": t("gen_term_source"), "weight": t("term_weight")})
    vz.fit_height(fig, int(np.clip(160 + 26 * m.shape[0], 260, 700)))
    figure_export.chart(fig, key="gen_cross", width="stretch")
    st.caption(t("gen_cross_caption"))


def explanations() -> None:
    with st.expander(t("explain")):
        st.markdown(t("gen_ex_loop"))
        st.latex(formula("gen_sampling"))
        st.markdown(t("gen_ex_cache"))

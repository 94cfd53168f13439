"""Autoregressive generation, one token at a time, with everything kept for the page.

A decoder reads the context, turns the last position's logits into a distribution over
the vocabulary, picks one token, appends it and repeats (Radford et al. 2019, GPT-2).
How the token is picked:

- greedy: the most probable token (temperature 0 means greedy);
- sampling: divide the logits by a temperature T (T < 1 sharpens, T > 1 flattens),
  keep the k most probable tokens (top-k, Fan et al. 2018; k = 0: no limit) and/or the
  smallest set whose probability reaches p (top-p / nucleus, Holtzman et al. 2020;
  p >= 1: no limit, p = 0: only the most probable token), renormalise, draw with a
  seeded generator;
- beam search: keep the `width` best partial sequences by total log-probability;
  a finished sequence is ranked by log P / length^alpha (alpha = length penalty).

The KV cache (`models.kv_cache.KVCache`, `past_key_values` in Hugging Face): each
step feeds only the new token; its keys and values are appended to those of the
earlier positions, so a step costs O(context) instead of O(context²). The output equals
full recomputation (tests/unit/test_generate.py). Every step's recorded Trace (the new
token's hooks, e.g. its attention row over the context) is kept in `Step.trace`.
The app runs these functions inside its run gate (ui/serving/: `run_held`); the one
that runs several generations, `compare_repetition`, takes the gate as an argument.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Sequence

import numpy as np
import torch

from models.hooks import Names, recording
from models.kv_cache import KVCache, cache_is_exact
from models.config import TransformerConfig
from models.trace import Stack, Trace
from models.transformer import Transformer

STRATEGIES = ("greedy", "sample", "beam")
N_CANDIDATES = 10     # candidates kept per step for the probability bars
Gate = Callable[[Transformer, Callable[[Transformer], Any], int], Any]   # gate(model, attempt, n_tokens)


@dataclass(frozen=True)
class Settings:
    """How to pick tokens. Plain values (hashable: the app caches on it)."""

    strategy: str = "greedy"        # greedy | sample | beam
    max_new_tokens: int = 20        # tokens to generate at most
    temperature: float = 1.0        # sampling: logits / T; 0 = greedy
    top_k: int = 0                  # sampling: keep the k most probable; 0 = no limit
    top_p: float = 1.0              # sampling: keep the smallest set with mass >= p; >= 1 = no limit, 0 = top token
    seed: int = 0                   # sampling: seed of the random generator
    beam_width: int = 3             # beam search: sequences kept per step
    length_penalty: float = 1.0     # beam search: score = log P / length^alpha
    use_cache: bool = True          # incremental KV cache (False: recompute the whole context each step)
    stop_at_eos: bool = True        # stop when the end-of-sequence token is chosen

    def __post_init__(self) -> None:
        if self.strategy not in STRATEGIES:
            raise ValueError(f"Unknown strategy {self.strategy!r}: choose one of {', '.join(STRATEGIES)}.")
        if self.max_new_tokens < 1:
            raise ValueError(f"Generate at least one token (got max_new_tokens={self.max_new_tokens}).")
        if self.temperature < 0 or not math.isfinite(self.temperature):
            raise ValueError(f"The temperature must be 0 (greedy) or positive (got {self.temperature}).")
        if self.top_k < 0:
            raise ValueError(f"top-k must be 0 (no limit) or positive (got {self.top_k}).")
        if not 0.0 <= self.top_p <= 1.0:
            raise ValueError(f"top-p must be between 0 and 1 (got {self.top_p}).")
        if self.beam_width < 1:
            raise ValueError(f"The beam width must be at least 1 (got {self.beam_width}).")

    @property
    def is_greedy(self) -> bool:
        return self.strategy == "greedy" or (self.strategy == "sample" and self.temperature == 0)


# ---- the distribution of one step ---------------------------------------------------------
def filter_logits(logits: torch.Tensor, temperature: float = 1.0, top_k: int = 0,
                  top_p: float = 1.0) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """logits [vocab] -> (tempered probabilities [vocab], kept [vocab] bool, final
    probabilities [vocab]: the kept ones renormalised, the cut ones exactly 0).

    temperature 0 (greedy) keeps only the most probable token; its "tempered"
    probabilities are those of the model (T = 1), so a view can show what was cut.
    top-k and top-p both apply when both are set (a token must survive both). The most
    probable token always survives, so the final distribution is never empty."""
    logits = logits.float()
    best = int(torch.argmax(logits))
    if temperature == 0:
        final = torch.zeros_like(logits)
        final[best] = 1.0
        return torch.softmax(logits, dim=-1), final.bool(), final
    probs = torch.softmax(logits / temperature, dim=-1)
    kept = torch.ones_like(probs, dtype=torch.bool)
    order = torch.argsort(probs, descending=True, stable=True)
    if 0 < top_k < probs.numel():
        kept[order[top_k:]] = False
    if top_p < 1.0:
        before = torch.cumsum(probs[order], dim=0) - probs[order]      # mass of the tokens ranked above
        kept[order[before >= top_p]] = False                           # stop once p is reached (p=0: top only)
    kept[best] = True
    final = torch.where(kept, probs, torch.zeros_like(probs))
    return probs, kept, final / final.sum()


# ---- what the page shows per step -----------------------------------------------------------
@dataclass
class Step:
    """One generated token and why it was chosen."""

    index: int                  # 0 = first generated token
    position: int               # its position in the decoder sequence
    token_id: int               # the chosen token
    candidates: list[int]       # the N most probable ids (model distribution, T = 1)
    model_probs: np.ndarray     # [N] softmax of the logits (T = 1)
    probs: np.ndarray           # [N] after temperature
    kept: np.ndarray            # [N] bool: survived top-k / top-p
    final_probs: np.ndarray     # [N] the distribution the token was drawn from
    chosen_prob: float          # final probability of the chosen token
    n_kept: int                 # how many vocabulary tokens survived the cut
    cache_bytes: list[int]      # per layer: K/V bytes held after this step (0 without a cache)
    cache_rows: int             # positions whose K/V are cached after this step
    trace: Trace | None         # hooks recorded during this step (the new token's rows)


@dataclass
class BeamNode:
    """A node of the beam-search tree: one token appended to a parent's sequence."""

    id: int
    parent: int                 # -1 for the root (the prompt)
    step: int                   # generation step (0 = first new token)
    token_id: int
    logprob: float              # log P(token | parent sequence)
    score: float                # sum of log P along the path
    kept: bool                  # among the `width` best at its step
    finished: bool = False      # ended with the end-of-sequence token


@dataclass
class Result:
    prompt_ids: list[int]                    # decoder prompt (encoder-decoder: the start token)
    ids: list[int]                           # prompt + generated
    steps: list[Step] = field(default_factory=list)
    source_ids: list[int] | None = None      # encoder-decoder: the source
    beam: list[BeamNode] | None = None       # beam search: the whole tree
    best_path: list[int] | None = None       # beam search: node ids of the returned sequence
    stopped_by_eos: bool = False

    @property
    def new_ids(self) -> list[int]:
        return self.ids[len(self.prompt_ids):]


def eos_id(tokenizer) -> int | None:
    """The end-of-sequence id a tokenizer defines, if any."""
    if tokenizer is None:
        return None
    if getattr(tokenizer, "eos_id", None) is not None:
        return int(tokenizer.eos_id)
    vocab = tokenizer.tok.get_vocab() if hasattr(tokenizer, "tok") else {}
    return next((vocab[t] for t in ("<|endoftext|>", "</s>", "[SEP]", "<eos>") if t in vocab), None)


def start_id(tokenizer) -> int:
    """The decoder's first token in an encoder-decoder model."""
    if getattr(tokenizer, "bos_id", None) is not None:
        return int(tokenizer.bos_id)
    vocab = tokenizer.tok.get_vocab() if hasattr(tokenizer, "tok") else {}
    return next((vocab[t] for t in ("<s>", "[CLS]", "<pad>", "[PAD]") if t in vocab), 0)


def encode_prompt(tokenizer, text: str) -> tuple[list[int], list[str]]:
    """A prompt's ids without a trailing separator ([SEP], </s>), which would tell the
    model the text is over."""
    enc = tokenizer.encode(text)
    ids, toks = list(enc.ids), list(enc.tokens)
    if len(ids) > 1 and toks[-1] in ("[SEP]", "</s>", "<eos>"):
        ids, toks = ids[:-1], toks[:-1]
    return ids, toks


def fit_context(ids: list[int], max_len: int, max_new_tokens: int) -> tuple[list[int], int]:
    """Keep the last tokens of a prompt so that prompt + new tokens fit in max_len
    positions (the most recent context matters most). Returns (kept ids, number cut)."""
    room = max(1, max_len - max_new_tokens)
    if len(ids) <= room:
        return list(ids), 0
    return list(ids[-room:]), len(ids) - room


def token_text(tokenizer, i: int) -> str:
    """The printable text of one id (byte-level BPE decoded, WordPiece as is)."""
    return tokenizer.token_text(int(i))


def token_texts(tokenizer, ids: Sequence[int]) -> list[str]:
    return [token_text(tokenizer, i) for i in ids]


@dataclass(frozen=True)
class Prompt:
    """What a generation starts from."""

    ids: list[int]                       # decoder prompt (encoder-decoder: the start token)
    tokens: list[str]
    source_ids: list[int] | None         # encoder-decoder: the encoder's ids
    source_tokens: list[str] | None
    cut: int                             # prompt (or source) tokens cut to fit the context


def prepare_prompt(tokenizer, cfg: TransformerConfig, text: str, max_new_tokens: int) -> Prompt:
    """A decoder's prompt: the text's ids, the oldest cut so that `max_new_tokens` fit. An
    encoder-decoder's: the text is the source (cut at max_len), the decoder starts alone."""
    if cfg.arch == "encoder-decoder":
        enc = tokenizer.encode(text, max_len=cfg.max_len)
        cut = enc.n_tokens_before_truncation - len(enc) if enc.truncated else 0
        start = start_id(tokenizer)
        return Prompt([start], [token_text(tokenizer, start)], list(enc.ids), list(enc.tokens), cut)
    ids, toks = encode_prompt(tokenizer, text)
    kept, cut = fit_context(ids, cfg.max_len, max_new_tokens)
    return Prompt(kept, toks[len(toks) - len(kept):], None, None, cut)


def task_prompt(task_name: str | None, arch: str) -> str | None:
    """The example prompt of a toy task (models/training/tasks.py): its probe up to where
    the answer starts (encoder-decoder: the whole source). None for no task."""
    if task_name is None:
        return None
    from models.training import tasks

    try:
        ex = tasks.get_task(task_name).probe()
    except ValueError:
        return None
    tokens = list(ex.tokens) if arch == "encoder-decoder" else list(ex.tokens[: ex.answer.start + 1])
    return "".join(tk for tk in tokens if tk not in ("<bos>", "<eos>", "<pad>"))


def language_prompts(card, lang: str) -> list[tuple[str, str]]:
    """A language model's example prompts (its card's "prompts": {language: text}) as
    (language, prompt) pairs, the UI language's first; [] for a model without any."""
    prompts = card.get("prompts") if hasattr(card, "get") else None
    if not isinstance(prompts, dict):
        return []
    pairs = [(str(k), v) for k, v in prompts.items() if isinstance(v, str) and v]
    return sorted(pairs, key=lambda kv: kv[0] != lang)


# ---- the engine ---------------------------------------------------------------------------
class _Runner:
    """Feeds a model step by step, with or without the KV cache, recording each step."""

    def __init__(self, model: Transformer, source: list[int] | None, use_cache: bool, names: Names):
        cfg = model.cfg
        if cfg.arch == "encoder" or cfg.output != "logits":
            raise ValueError("This model is an encoder: it reads a whole text at once and has no language-model "
                             "head to predict a next token, so it cannot generate. Pick a decoder.")
        if cfg.arch == "encoder-decoder" and not source:
            raise ValueError("An encoder-decoder model needs a source text to generate from.")
        self.model, self.source, self.names = model, source, names
        self.use_cache = use_cache and cache_is_exact(cfg)
        self.cache: KVCache | None = None

    def _forward(self, ids: torch.Tensor, cache: KVCache | None) -> torch.Tensor:
        model = self.model
        if model.cfg.arch == "encoder-decoder":
            src = torch.as_tensor(self.source, device=model.device)[None].expand(ids.shape[0], -1)
            return model(src, ids, cache=cache)
        return model(ids, cache=cache)

    def logits(self, seqs: torch.Tensor) -> tuple[torch.Tensor, Trace | None]:
        """Next-token logits [b, vocab] for sequences [b, pos]; with the cache only the
        tokens not yet cached are fed. Returns the step's trace too."""
        model = self.model
        with torch.inference_mode(), recording(model, self.names) as store:
            if not self.use_cache:
                out = self._forward(seqs, None)
            else:
                if self.cache is None:
                    self.cache = KVCache.empty(model.cfg)
                out = self._forward(seqs[:, self.cache.length:], self.cache)
        trace = Trace(store, model.cfg) if self.names != [] else None
        return out[:, -1].float(), trace

    def cache_bytes(self) -> tuple[list[int], int]:
        if self.cache is None:
            return [0] * self.model.cfg.n_layers, 0
        return [layer.self_attn.nbytes for layer in self.cache.layers], self.cache.length


def _check_room(model: Transformer, n_prompt: int) -> None:
    if model.cfg.positional == "learned" and n_prompt >= model.cfg.max_len:
        raise ValueError(f"The prompt has {n_prompt} tokens and this model has {model.cfg.max_len} learned "
                         "positions: no room for a new token. Shorten the prompt (see fit_context).")


def iter_generate(model: Transformer, prompt: Sequence[int], settings: Settings, *, source: Sequence[int] | None = None,
                  eos: int | None = None, names: Names = None) -> Iterator[Step]:
    """Greedy or sampled generation as a stream of Steps (the page shows each as it
    comes, and a stop keeps what was produced). `prompt`: decoder ids (encoder-decoder:
    usually just the start token); `source`: the encoder's ids. `names`: hooks to record
    per step (None = all, [] = none)."""
    if settings.strategy == "beam":
        raise ValueError("Beam search keeps several sequences: use beam_search().")
    prompt = [int(i) for i in prompt]
    if not prompt:
        raise ValueError("The prompt is empty: give at least one token.")
    _check_room(model, len(prompt))
    runner = _Runner(model, list(source) if source is not None else None, settings.use_cache, names)
    gen = torch.Generator().manual_seed(int(settings.seed))
    seq = torch.as_tensor(prompt, device=model.device)[None]
    temperature = 0.0 if settings.strategy == "greedy" else settings.temperature
    for i in range(settings.max_new_tokens):
        if model.cfg.positional == "learned" and seq.shape[1] >= model.cfg.max_len:
            return
        logits, trace = runner.logits(seq)
        logits = logits[0].cpu()
        probs, kept, final = filter_logits(logits, temperature, settings.top_k, settings.top_p)
        if temperature == 0:
            nxt = int(torch.argmax(logits))
        else:
            nxt = int(torch.multinomial(final, 1, generator=gen))
        model_probs = torch.softmax(logits, dim=-1)
        top = torch.argsort(model_probs, descending=True, stable=True)[:N_CANDIDATES].tolist()
        nbytes, rows = runner.cache_bytes()
        yield Step(i, seq.shape[1], nxt, top, model_probs[top].numpy(), probs[top].numpy(), kept[top].numpy(),
                   final[top].numpy(), float(final[nxt]), int(kept.sum()), nbytes, rows, trace)
        seq = torch.cat([seq, torch.tensor([[nxt]], device=model.device)], dim=1)
        if settings.stop_at_eos and eos is not None and nxt == eos:
            return


def generate(model: Transformer, prompt: Sequence[int], settings: Settings, *, source: Sequence[int] | None = None,
             eos: int | None = None, names: Names = None) -> Result:
    """Run `settings` to the end: greedy / sampling via `iter_generate`, or beam search."""
    if settings.strategy == "beam":
        return beam_search(model, prompt, settings, source=source, eos=eos)
    steps = list(iter_generate(model, prompt, settings, source=source, eos=eos, names=names))
    ids = [int(i) for i in prompt] + [s.token_id for s in steps]
    stopped = bool(steps) and eos is not None and settings.stop_at_eos and steps[-1].token_id == eos
    return Result([int(i) for i in prompt], ids, steps, list(source) if source is not None else None,
                  stopped_by_eos=stopped)


def beam_search(model: Transformer, prompt: Sequence[int], settings: Settings, *,
                source: Sequence[int] | None = None, eos: int | None = None) -> Result:
    """Keep the `width` best partial sequences; each step, extend each by every token and
    keep the `width` best (beam, token) pairs by total log-probability. A pair ending in
    the end-of-sequence token is finished and leaves the beam (the beam shrinks), so a
    width of 1 is exactly greedy. The answer is the best finished-or-alive sequence by
    log P / (new tokens)^length_penalty. The whole tree is kept in `Result.beam`:
    per step the `width` best candidates of every beam, kept or pruned."""
    prompt = [int(i) for i in prompt]
    if not prompt:
        raise ValueError("The prompt is empty: give at least one token.")
    _check_room(model, len(prompt))
    width = settings.beam_width
    runner = _Runner(model, list(source) if source is not None else None, settings.use_cache, names=[])
    seqs = torch.as_tensor(prompt, device=model.device)[None]          # [beams, pos]
    scores = torch.zeros(1)                                            # [beams] sum of log P
    alive_nodes = [-1]                                                 # tree node of each beam
    nodes: list[BeamNode] = []
    finished: list[tuple[float, int]] = []                             # (normalised score, node id)
    stopped_by_eos = False

    def normalised(score: float, length: int) -> float:
        return normalised_score(score, length, settings.length_penalty)

    for step in range(settings.max_new_tokens):
        if model.cfg.positional == "learned" and seqs.shape[1] >= model.cfg.max_len:
            break
        logits, _ = runner.logits(seqs)
        logp = torch.log_softmax(logits.cpu(), dim=-1)                 # [beams, vocab]
        total = scores[:, None] + logp                                 # [beams, vocab]
        best = torch.topk(total.flatten(), min(width, total.numel()))
        chosen = set(best.indices.tolist())
        # the tree: each beam's own `width` best continuations (kept or pruned)
        node_of: dict[int, int] = {}
        per_beam = torch.topk(total, min(width, total.shape[1]), dim=-1)
        flat_ids = sorted(set((per_beam.indices + torch.arange(total.shape[0])[:, None] * total.shape[1])
                              .flatten().tolist()) | chosen)
        for flat in flat_ids:
            b, tok = divmod(flat, total.shape[1])
            node = BeamNode(len(nodes), alive_nodes[b], step, tok, float(logp[b, tok]), float(total[b, tok]),
                            flat in chosen, finished=flat in chosen and eos is not None and settings.stop_at_eos
                            and tok == eos)
            node_of[flat] = node.id
            nodes.append(node)
        keep_beams, keep_tokens, keep_scores, keep_nodes = [], [], [], []
        for flat, sc in zip(best.indices.tolist(), best.values.tolist()):
            b, tok = divmod(flat, total.shape[1])
            if nodes[node_of[flat]].finished:
                finished.append((normalised(sc, step + 1), node_of[flat]))
                stopped_by_eos = True
                continue
            keep_beams.append(b), keep_tokens.append(tok), keep_scores.append(sc), keep_nodes.append(node_of[flat])
        if not keep_beams:
            seqs = seqs[:0]
            break
        index = torch.tensor(keep_beams, device=model.device)
        if runner.cache is not None:
            runner.cache.reorder(index)
        seqs = torch.cat([seqs.index_select(0, index), torch.tensor(keep_tokens, device=model.device)[:, None]], 1)
        scores = torch.tensor(keep_scores)
        alive_nodes = keep_nodes
    candidates = finished + [(normalised(float(s), len(_path(nodes, n))), n) for s, n in zip(scores.tolist(), alive_nodes)
                             if n >= 0]
    if not candidates:
        return Result(prompt, prompt, [], list(source) if source is not None else None, beam=nodes, best_path=[])
    _, best_node = max(candidates, key=lambda c: (c[0], -c[1]))
    path = _path(nodes, best_node)
    ids = prompt + [nodes[n].token_id for n in path]
    ended = nodes[path[-1]].finished
    return Result(prompt, ids, [], list(source) if source is not None else None, beam=nodes, best_path=path,
                  stopped_by_eos=ended and stopped_by_eos)


def normalised_score(score: float, length: int, length_penalty: float) -> float:
    """Beam search's ranking of a finished sequence: log P / length^alpha."""
    return score / (max(length, 1) ** length_penalty)


def _path(nodes: list[BeamNode], node: int) -> list[int]:
    out = []
    while node >= 0:
        out.append(node)
        node = nodes[node].parent
    return out[::-1]


# ---- what a view reads from the steps -------------------------------------------------------
def last_rows(step: Step) -> Step:
    """Keep only the new token's row of each recorded pattern, float32 on the CPU (a kept
    step then holds layers x heads x context numbers). In place; returns `step`."""
    if step.trace is None:
        return step
    rows = {n: v[:, :, -1:].float().cpu() for n, v in step.trace.items()}
    step.trace = Trace(rows, step.trace.config)
    return step


def attention_row(step: Step, layer: int, stack: Stack) -> np.ndarray:
    """[head, context]: the new token's attention in one layer of one stack (cross: the
    context is the source)."""
    return step.trace.get("pattern", layer, stack).float().numpy()[0, :, -1]

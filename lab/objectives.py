"""The two pre-training objectives side by side on one sentence: what a masked language model
predicts at a hidden character (BERT's objective; the shipped verse-mlm) and what a causal
language model predicts there from the characters before it (GPT's; verse-lm), plus the
masked model's answer when the character is *not* hidden, the pre-training / fine-tuning
mismatch BERT's 80/10/10 rule is there for.

Both shipped models read characters (models/tokenizer.py CharTokenizer); `position` counts
the characters of the text as the tokenizer reads it. No Streamlit.
"""
from __future__ import annotations

from dataclasses import dataclass

import torch

from models.tokenizer import CharTokenizer
from models.transformer import Transformer

MASK, CLS = "<mask>", "<cls>"          # verse-mlm's two extra tokens (recipes/verse_tasks.py)


@dataclass(frozen=True)
class Prediction:
    """A model's distribution over the character at one position: its top k and the
    probability it gives the character that is really there."""

    top: list[tuple[str, float]]       # (character, probability), most probable first
    actual: str                        # the text's character at that position
    actual_prob: float
    context: str                       # what the model read, with the hidden position marked


def _softmax_top(logits: torch.Tensor, tok: CharTokenizer, k: int) -> list[tuple[str, float]]:
    probs = torch.softmax(logits.double(), -1)
    p, i = probs.topk(k)
    return [(tok.id_to_token(int(j)), float(q)) for q, j in zip(p, i)]


def _encode(tok: CharTokenizer, text: str, position: int) -> tuple[list[int], list[str]]:
    """(ids, tokens) of the text; a position outside it raises ValueError."""
    if not isinstance(tok, CharTokenizer):
        raise ValueError("The objectives view compares character-level models.")
    enc = tok.encode(text)
    if not 0 <= position < len(enc.ids):
        raise ValueError(f"Position {position} is not in the text (0..{len(enc.ids) - 1}).")
    return list(enc.ids), list(enc.tokens)


@torch.no_grad()
def masked(model: Transformer, tok: CharTokenizer, text: str, position: int, *, hide: bool = True,
           k: int = 5) -> Prediction:
    """The masked LM's prediction at `position` of <cls> + text, the character there replaced
    by <mask> (hide=True, as in pre-training) or left as it is (hide=False, as a fine-tuned
    model sees every input)."""
    ids, tokens = _encode(tok, text, position)
    if MASK not in tok.index or CLS not in tok.index:
        raise ValueError("This model has no <mask> and <cls> tokens: it is not a masked language model.")
    shown = list(ids)
    if hide:
        shown[position] = tok.index[MASK]
    logits = model(torch.tensor([[tok.index[CLS], *shown]]))[0, position + 1]
    actual = ids[position]
    context = "".join(MASK if (hide and i == position) else t for i, t in enumerate(tokens))
    return Prediction(_softmax_top(logits, tok, k), tokens[position],
                      float(torch.softmax(logits.double(), -1)[actual]), context)


@torch.no_grad()
def next_token(model: Transformer, tok: CharTokenizer, text: str, position: int, k: int = 5) -> Prediction:
    """The causal LM's prediction for `position` from the characters before it (it never
    sees the rest). Position 0 has nothing before it: ValueError."""
    ids, tokens = _encode(tok, text, position)
    if position == 0:
        raise ValueError("A causal model predicts a character from the ones before it; position 0 has none.")
    logits = model(torch.tensor([ids[:position]]))[0, -1]
    return Prediction(_softmax_top(logits, tok, k), tokens[position],
                      float(torch.softmax(logits.double(), -1)[ids[position]]), "".join(tokens[:position]))

"""The Hugging Face Whisper encoder (the `whisper` family) as our own model: Whisper's
convolution stem in front, then `models.Transformer` fed through its input-vectors entry
(`inputs_embeds`), exactly as lab/patches.py's `from_hf_vit` puts a ViT's patch projection in
front of the same Transformer. No second model: the stem is two `torch.nn.Conv1d` holding
their weights, everything after it is ours.

Whisper's encoder (Radford et al. 2022), as transformers writes it:
- log-mel [B, 80, T] -> conv1 (kernel 3, padding 1) -> GELU -> conv2 (kernel 3, stride 2,
  padding 1) -> GELU: one vector every two frames (frames 10 ms apart, vectors 20 ms);
- + a fixed sinusoidal table (`embed_positions`, frozen): the sines of every frequency in
  the first half, the cosines in the second, frequency i = 10000^(-i / (d/2 - 1)). That is our
  "halves" sinusoidal layout with the base 10000^(d / (d - 2)) (`whisper_table` checks it); the
  converted model holds THEIR stored table as its position table (positional "learned",
  frozen by nothing but use), so any checkpoint's rounding is kept bit for bit;
- pre-LN layers: LayerNorm -> self-attention (k_proj has no bias: ours is zero) -> +, then
  LayerNorm -> fc1 -> GELU (exact) -> fc2 -> +; a final LayerNorm. LayerNorm eps 1e-5.
"""
from __future__ import annotations

import math

import torch
import torch.nn.functional as F
from torch import nn

from models import Transformer, TransformerConfig
from models import positional

# a layer's modules as transformers names them -> ours
HF_LAYER = {"self_attn_layer_norm": "ln1", "self_attn.q_proj": "attn.W_Q", "self_attn.k_proj": "attn.W_K",
            "self_attn.v_proj": "attn.W_V", "self_attn.out_proj": "attn.W_O", "final_layer_norm": "ln2",
            "fc1": "mlp.W_in", "fc2": "mlp.W_out"}


class WhisperStem(nn.Module):
    """Whisper's front end: two 1-D convolutions over time, each followed by exact GELU; the
    second has stride 2, so T frames become ceil(T / 2) vectors."""

    def __init__(self, n_mels: int, d_model: int) -> None:
        super().__init__()
        self.conv1 = nn.Conv1d(n_mels, d_model, kernel_size=3, padding=1)
        self.conv2 = nn.Conv1d(d_model, d_model, kernel_size=3, stride=2, padding=1)

    def forward(self, mel: torch.Tensor) -> torch.Tensor:
        """log-mel [B, n_mels, T] -> input vectors [B, ceil(T/2), d]."""
        x = F.gelu(self.conv2(F.gelu(self.conv1(mel))))
        return x.transpose(1, 2)


class WhisperLike(nn.Module):
    """The stem + our Transformer (an encoder whose output is the final hidden state)."""

    def __init__(self, stem: WhisperStem, body: Transformer) -> None:
        super().__init__()
        self.stem, self.body = stem, body

    def _vectors(self, mel) -> torch.Tensor:
        x = torch.as_tensor(mel, dtype=torch.float32)
        x = x[None] if x.dim() == 2 else x
        if x.dim() != 3 or x.shape[1] != self.stem.conv1.in_channels:
            raise ValueError(f"Expected a log-mel spectrogram [batch, {self.stem.conv1.in_channels} bins, frames], "
                             f"got {tuple(x.shape)}.")
        n = (x.shape[-1] + 1) // 2
        if n > self.body.cfg.max_len:
            raise ValueError(f"{x.shape[-1]} frames make {n} vectors; this encoder has positions for "
                             f"{self.body.cfg.max_len} ({2 * self.body.cfg.max_len} frames).")
        return self.stem(x)

    def forward(self, mel) -> torch.Tensor:
        """The last hidden state [B, ceil(T/2), d] for log-mel input [B, n_mels, T]."""
        return self.body(inputs_embeds=self._vectors(mel))

    def run_with_cache(self, mel, names=None):
        """(the last hidden state, the Trace of every hook)."""
        with torch.inference_mode():
            vectors = self._vectors(mel)
        return self.body.run_with_cache(inputs_embeds=vectors, names=names)


def whisper_table(n: int, d: int) -> torch.Tensor:
    """Whisper's sinusoidal table [n, d] written as ours: the "halves" layout with the base
    10000^(d / (d - 2)), since 10000^(-i / (d/2 - 1)) = base^(-2i / d) for that base."""
    return positional.sinusoidal(n, d, base=10000.0 ** (d / (d - 2)), layout="halves")


def from_hf_whisper_encoder(hf: nn.Module) -> WhisperLike:
    """Our WhisperLike holding the weights of a transformers `WhisperModel`,
    `WhisperForConditionalGeneration` (their encoder is used) or `WhisperEncoder`. Refused
    (ValueError) where the architecture differs from what our model computes."""
    c = hf.config
    if c.activation_function != "gelu":
        raise ValueError("Only Whisper encoders with exact GELU are supported.")
    s = {k: v.detach().float() for k, v in hf.state_dict().items()}
    prefix = next((p for p in ("model.encoder.", "encoder.", "") if f"{p}conv1.weight" in s), None)
    if prefix is None:
        raise ValueError("No Whisper encoder weights (conv1.weight) in this model.")
    s = {k[len(prefix):]: v for k, v in s.items() if k.startswith(prefix)}
    d, n_pos = c.d_model, c.max_source_positions
    cfg = TransformerConfig(arch="encoder", vocab_size=1, d_model=d, n_layers=c.encoder_layers,
                            n_heads=c.encoder_attention_heads, d_ff=c.encoder_ffn_dim, max_len=n_pos,
                            positional="learned", norm="layernorm", norm_position="pre", activation="gelu",
                            norm_eps=1e-5, tie_embeddings=False, output="hidden")
    state = {"embed.weight": torch.zeros(1, d), "pos_embed.weight": s["embed_positions.weight"],
             "ln_final.weight": s["layer_norm.weight"], "ln_final.bias": s["layer_norm.bias"]}
    for i in range(c.encoder_layers):
        for theirs, ours in HF_LAYER.items():
            for w in ("weight", "bias"):
                key = f"layers.{i}.{theirs}.{w}"
                # Whisper's k_proj has no bias: a zero bias is the same map
                state[f"blocks.{i}.{ours}.{w}"] = s[key] if key in s else torch.zeros(d)
    stem = WhisperStem(c.num_mel_bins, d)
    stem.load_state_dict({k: s[k] for k in ("conv1.weight", "conv1.bias", "conv2.weight", "conv2.bias")})
    return WhisperLike(stem, Transformer.from_state(cfg, state, "cpu")).eval()


def table_difference(hf: nn.Module) -> float:
    """max |their stored position table − `whisper_table`| (float32 rounding only)."""
    w = next(v for k, v in hf.state_dict().items() if k.endswith("embed_positions.weight") and "decoder" not in k)
    return float((w.detach().double() - whisper_table(*w.shape).double()).abs().max())


def frames_to_tokens(frames: int) -> int:
    """How many vectors the stem makes from `frames` log-mel frames (stride 2, padding 1)."""
    return math.floor((frames + 2 * 1 - 3) / 2) + 1

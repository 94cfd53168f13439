"""lab/whisper.py: a tiny random transformers Whisper encoder (the `whisper` family) loaded
into our Transformer behind Whisper's convolution stem gives the same last hidden state and
the same attention in every layer and head; its position table is our sinusoidal table in
the "halves" layout with another base; the stem halves the frame rate."""
from __future__ import annotations

import pytest
import torch

from lab import whisper


def tiny_config(**kw):
    from transformers import WhisperConfig

    base = dict(d_model=32, encoder_layers=2, encoder_attention_heads=4, encoder_ffn_dim=48, decoder_layers=1,
                decoder_attention_heads=4, decoder_ffn_dim=48, num_mel_bins=80, max_source_positions=16,
                max_target_positions=8, vocab_size=64, pad_token_id=0, bos_token_id=1, eos_token_id=2,
                decoder_start_token_id=1, attn_implementation="eager")
    return WhisperConfig(**(base | kw))


@pytest.fixture(scope="module")
def tiny():
    from transformers import WhisperModel

    torch.manual_seed(0)
    model = WhisperModel(tiny_config()).eval()
    with torch.no_grad():       # transformers starts biases at 0 and norms at 1: move every one
        for name, p in model.named_parameters():
            if "embed_positions" not in name:
                p.add_(0.1 * torch.randn_like(p))
    return model


def test_encoder_parity(tiny):
    """Same log-mel input (2 × 80 bins × 32 frames = 16 vectors): the last hidden state and
    every layer's attention equal transformers' (eager attention) within 1e-5."""
    ours = whisper.from_hf_whisper_encoder(tiny)
    mel = torch.randn(2, 80, 32, generator=torch.Generator().manual_seed(1))
    with torch.no_grad():
        ref = tiny.encoder(mel, output_attentions=True)
        out, trace = ours.run_with_cache(mel)
    assert out.shape == ref.last_hidden_state.shape == (2, 16, 32)
    assert (out - ref.last_hidden_state).abs().max() < 1e-5
    assert len(ref.attentions) == 2
    for layer, att in enumerate(ref.attentions):
        for b in range(2):
            assert (trace.pattern(layer, batch=b) - att[b]).abs().max() < 1e-5


def test_k_proj_has_no_bias_and_ours_is_zero(tiny):
    assert tiny.encoder.layers[0].self_attn.k_proj.bias is None
    ours = whisper.from_hf_whisper_encoder(tiny)
    for block in ours.body.blocks:
        assert torch.count_nonzero(block.attn.W_K.bias) == 0
        assert torch.count_nonzero(block.attn.W_Q.bias) > 0


def test_other_wrappers_give_the_same_encoder(tiny):
    """WhisperForConditionalGeneration (model.encoder.*) and WhisperEncoder alone (no prefix)."""
    from transformers import WhisperForConditionalGeneration

    full = WhisperForConditionalGeneration(tiny_config()).eval()
    full.model.load_state_dict(tiny.state_dict())
    mel = torch.randn(1, 80, 32)
    with torch.no_grad():
        a = whisper.from_hf_whisper_encoder(tiny)(mel)
        b = whisper.from_hf_whisper_encoder(full)(mel)
        c = whisper.from_hf_whisper_encoder(tiny.encoder)(mel)
    assert torch.equal(a, b) and torch.equal(a, c)


def test_position_table_is_our_sinusoidal_with_another_base(tiny):
    """Whisper's frozen table: frequency i = 10000^(-i/(d/2-1)), sines then cosines = our
    'halves' layout with base 10000^(d/(d-2)); only float32 rounding apart."""
    assert whisper.table_difference(tiny) < 1e-5
    stored = tiny.encoder.embed_positions.weight.detach()
    stock = whisper.positional.sinusoidal(16, 32, layout="halves")        # the stock base is NOT Whisper's
    assert (stored - stock).abs().max() > 1e-2


def test_stem_halves_the_frame_rate():
    """30 s of audio at 10 ms a frame = 3000 frames -> 1500 vectors (20 ms each)."""
    assert whisper.frames_to_tokens(3000) == 1500
    stem = whisper.WhisperStem(80, 8)
    for t in (1, 2, 5, 32):
        assert stem(torch.zeros(1, 80, t)).shape[1] == whisper.frames_to_tokens(t) == (t + 1) // 2


def test_bad_input_is_refused(tiny):
    ours = whisper.from_hf_whisper_encoder(tiny)
    with pytest.raises(ValueError, match="80 bins"):
        ours(torch.zeros(1, 40, 32))
    with pytest.raises(ValueError, match="positions for 16"):
        ours(torch.zeros(1, 80, 34))


def test_relu_whisper_refused():
    from transformers import WhisperModel

    with pytest.raises(ValueError, match="exact GELU"):
        whisper.from_hf_whisper_encoder(WhisperModel(tiny_config(activation_function="relu")))

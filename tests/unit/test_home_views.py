"""The overview's catalogue is one markdown table whose cells are escaped user text."""
from ui.views.home import markdown_table


def test_markdown_table_escapes_every_cell_and_keeps_its_shape():
    hostile = "evil | <script>alert(1)</script>\n[link](http://x) *bold*"
    md = markdown_table(["model", "details"], [[hostile, "ok"], ["", "two\nlines"]])
    lines = md.split("\n")
    assert len(lines) == 4                                  # header, rule, two rows: newlines folded
    assert lines[1] == "| --- | --- |"
    for line in lines[2:]:
        # exactly three unescaped pipes: the row's borders and the one separator
        assert sum(1 for i, ch in enumerate(line) if ch == "|" and line[i - 1:i] != "\\") == 3
    assert "<script>" not in md and "&lt;script&gt;" in md
    assert "\\[link\\]\\(http://x\\)" in md and "\\*bold\\*" in md   # no link, no emphasis
    assert "| two lines |" in md and lines[3].startswith("|   |")       # an empty cell stays a cell


def test_the_card_names_every_setting_of_the_new_families(monkeypatch):
    """Issue 32: each setting not at its default is on the model card, in both languages."""
    import ui.i18n
    from models import TransformerConfig
    from ui.views.home import card_rows

    gemma2 = TransformerConfig(vocab_size=50, d_model=16, n_layers=12, n_heads=4, d_ff=32, norm="rmsnorm",
                               norm_plus_one=True, norm_position="sandwich", positional="rope", activation="geglu",
                               qk_norm="head", local_layers=(0, 1, 3, 4, 6, 7, 9, 10), local_window=4096,
                               rope_local_base=10000.0, rope_base=1e6, nope_layers=(5, 11), attn_softcap=50.0,
                               logit_softcap=30.0, attn_scale=0.0625, rope_scaling="llama3", rope_factor=32.0,
                               rope_original_len=8192, max_len=64)
    text = " | ".join(f"{k}: {v}" for k, v in card_rows(gemma2).items())
    for words in ("sliding window on layers 0, 1, 3, 4, 6, 7, 9, 10 (window 4,096)",
                  "RoPE base 10,000 on those layers, 1,000,000 on the rest", "no RoPE on layers 5, 11",
                  "q/k norm per head", "q·k × 0.0625", "50 on attention scores, 30 on logits",
                  "RMSNorm (1 + w), norms before and after each sub-layer", "GeGLU, d_ff = 32",
                  "θ = 1,000,000, llama3 scaling ×32 (trained on 8,192)"):
        assert words in text, (words, text)
    granite = TransformerConfig(vocab_size=50, d_model=16, n_heads=4, embed_multiplier=12.0, residual_multiplier=0.22,
                                logit_divisor=8.0, d_embed=8, tie_embeddings=False, unembed_bias=True,
                                activation="geglu_exact", norm_position="output", first_attn_norm=False)
    text = " | ".join(f"{k}: {v}" for k, v in card_rows(granite).items())
    for words in ("Multipliers: embeddings × 12, residual branches × 0.22, logits ÷ 8", "GeGLU (erf)",
                  "width 8, projected to the stream's 16", "a norm on each sub-layer's output, before the addition",
                  "none before block 0's attention", "learned bias on the logits"):
        assert words in text, (words, text)
    modern = TransformerConfig(vocab_size=50, d_model=16, n_heads=4, norm_bias=False, parallel_residual=True,
                               shared_block_norm=True)
    text = " ".join(card_rows(modern).values())
    assert "LayerNorm without bias, pre-norm, one norm read by attention and MLP" in text
    monkeypatch.setattr(ui.i18n, "lang", lambda: "zh")
    text = " | ".join(f"{k}: {v}" for k, v in card_rows(gemma2).items())
    for words in ("第 0、1、3、4、6、7、9、10 层使用滑动窗口（窗口 4,096）", "这些层的 RoPE 基数为 10,000，其余层为 1,000,000",
                  "第 5、11 层不使用 RoPE", "查询/键逐头归一化", "注意力分数 50，logits 30", "每个子层前后各一个归一化（夹心式）",
                  "llama3 式缩放 ×32（训练长度 8,192）"):
        assert words in text, (words, text)
    assert "sliding" not in text and "soft" not in text

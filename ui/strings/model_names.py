"""Names of models, of their settings and of the places in them (ui/model_names.py) in both languages."""

STRINGS = {
    # ---- catalogue entries, by key (a shipped checkpoint's card names the others) ----------
    "mn_minilm": {"en": "MiniLM (BERT, 6×12)", "zh": "MiniLM（BERT，6×12）"},
    "mn_custom:gpt": {"en": "GPT-2-style decoder", "zh": "GPT-2 式解码器"},
    "mn_custom:bert": {"en": "BERT-style encoder", "zh": "BERT 式编码器"},
    "mn_custom:llama": {"en": "LLaMA-style decoder", "zh": "LLaMA 式解码器"},
    "mn_custom:transformer": {"en": "Original Transformer", "zh": "原始 Transformer"},
    "mn_custom:t5": {"en": "T5-style encoder-decoder", "zh": "T5 式编码器-解码器"},
    "mn_custom:alibi": {"en": "ALiBi decoder", "zh": "ALiBi 解码器"},
    "mn_custom:longformer": {"en": "Sparse encoder (Longformer)", "zh": "稀疏编码器（Longformer）"},
    "mn_toy:verse-lm": {"en": "Verse LM (characters, Chinese + English)", "zh": "诗文语言模型（字符级，中文 + 英文）"},
    "mn_toy:verse-mlm": {"en": "Verse MLM encoder (characters, Chinese + English)",
                         "zh": "诗文掩码编码器（字符级，中文 + 英文）"},
    # ---- a shipped toy checkpoint: its task and positions (the card's English label stays the
    # English name: links made before keep working) -------------------------------------------
    "mn_toy": {"en": "Toy: {task} · {pe}{post}", "zh": "玩具模型：{task} · {pe}{post}"},
    "mn_toy_post": {"en": " · post-LN", "zh": " · Post-LN"},
    "mn_folder": {"en": "Folder: {name}", "zh": "文件夹：{name}"},
    "mn_random": {"en": "{model} · random", "zh": "{model} · 随机权重"},
    # positional schemes in a model's name or description
    "pe_name_none": {"en": "no", "zh": "无位置编码"},
    "pe_name_sinusoidal": {"en": "sinusoidal", "zh": "正弦位置编码"},
    "pe_name_learned": {"en": "learned", "zh": "可学习位置编码"},
    "pe_name_rope": {"en": "RoPE", "zh": "RoPE"},
    "pe_name_alibi": {"en": "ALiBi", "zh": "ALiBi"},
    "pe_name_relative": {"en": "T5 relative", "zh": "T5 相对位置分桶"},
    # a configuration's values where a page lists them (the model map's comparison, the training lab)
    "act_relu": {"en": "ReLU", "zh": "ReLU"},
    "act_gelu": {"en": "GELU", "zh": "GELU"},
    "act_gelu_tanh": {"en": "GELU (tanh approximation)", "zh": "GELU（tanh 近似）"},
    "act_silu": {"en": "SiLU", "zh": "SiLU"},
    "act_swiglu": {"en": "SwiGLU", "zh": "SwiGLU"},
    "act_geglu": {"en": "GeGLU", "zh": "GeGLU"},
    "act_geglu_exact": {"en": "GeGLU (exact GELU)", "zh": "GeGLU（精确 GELU）"},
    # the curve an FFN page draws for an activation (a gated one: the gate's function)
    "act_curve_swiglu": {"en": "SiLU (SwiGLU gate)", "zh": "SiLU（SwiGLU 的门）"},
    "act_curve_geglu": {"en": "GELU-tanh (GeGLU gate)", "zh": "GELU-tanh（GeGLU 的门）"},
    "act_curve_geglu_exact": {"en": "GELU (GeGLU gate)", "zh": "GELU（GeGLU 的门）"},
    "out_hidden": {"en": "hidden states", "zh": "隐藏状态"},
    "out_logits": {"en": "logits", "zh": "logits"},
    "setting_true": {"en": "yes", "zh": "是"},
    "setting_false": {"en": "no", "zh": "否"},
    "setting_none": {"en": "none", "zh": "无"},
    # places in a model (lab/residual.py, lab/attribution.py: "embed", "L0 attn", "L1 ln2", "ln_final");
    # the English names stay the short ones charts and lessons always used
    "site_embed": {"en": "embed", "zh": "嵌入"},
    "site_layer": {"en": "L{i}", "zh": "第 {i} 层"},
    "site_attn": {"en": "L{i} attn", "zh": "第 {i} 层注意力"},
    "site_cross": {"en": "L{i} cross", "zh": "第 {i} 层交叉注意力"},
    "site_mlp": {"en": "L{i} mlp", "zh": "第 {i} 层前馈网络"},
    "site_ln1": {"en": "L{i} ln1", "zh": "第 {i} 层归一化 1"},
    "site_ln2": {"en": "L{i} ln2", "zh": "第 {i} 层归一化 2"},
    "site_ln_cross": {"en": "L{i} ln_cross", "zh": "第 {i} 层交叉注意力前的归一化"},
    "site_ln1_out": {"en": "L{i} ln1_out", "zh": "第 {i} 层注意力输出的归一化"},
    "site_ln2_out": {"en": "L{i} ln2_out", "zh": "第 {i} 层前馈网络输出的归一化"},
    "site_ln_final": {"en": "ln_final", "zh": "最终归一化"},
    "site_ln_embed": {"en": "ln_embed", "zh": "嵌入归一化"},
    "site_unembedding": {"en": "unembedding", "zh": "反嵌入"},
    "site_enc": {"en": "enc {site}", "zh": "编码器{site}"},
    "site_dec": {"en": "dec {site}", "zh": "解码器{site}"},
}

"""Strings of the overview (home) page: introduction, tokens, model card, model catalogue."""

STRINGS = {
    "app_title": {"en": "Glassbox", "zh": "Glassbox 玻璃盒"},
    "tagline": {"en": "Look inside a Transformer while it reads your text.",
                "zh": "看一个 Transformer 如何阅读你的文字。"},
    "home_intro": {
        "en": "Glassbox runs a real Transformer on your text and records every intermediate value: "
              "queries, keys and values, attention maps, masks, feed-forward activations and the residual "
              "stream. The numbers are those of the real model (tested against Hugging Face transformers).",
        "zh": "Glassbox 在你的文本上运行一个真实的 Transformer，并记录每一个中间量：查询、键、值、注意力图、掩码、"
              "前馈网络激活以及残差流。显示的数字就是真实模型的数字（已与 Hugging Face transformers 对比测试）。"},
    "home_open_lessons": {"en": "New here? Start a lesson: attention step by step, on your own sentence",
                          "zh": "第一次来？从一门课程开始：用你自己的句子，一步步看懂注意力"},
    "home_tokens": {"en": "How the model splits your text", "zh": "模型如何切分你的文本"},
    "home_tokens_caption": {"en": "{n} tokens. Each token becomes one row and one column of every attention map.",
                            "zh": "共 {n} 个词元。每个词元对应注意力图中的一行和一列。"},
    "home_model": {"en": "The model", "zh": "当前模型"},
    "home_pipeline": {"en": "What happens inside", "zh": "内部发生了什么"},
    "home_pipeline_text": {
        "en": "1. The tokenizer turns text into ids; each id looks up a vector (the embedding), and position "
              "information is added (or injected into attention).\n"
              "2. Each layer lets every token gather information from the others with attention, then "
              "transforms each token on its own with a feed-forward network. Both add their result to the "
              "residual stream.\n"
              "3. The last layer's vectors are the model's reading of your text.",
        "zh": "1. 分词器把文本变成编号；每个编号查表得到一个向量（嵌入），再加入位置信息（或在注意力中注入位置）。\n"
              "2. 每一层先用注意力让每个词元从其他词元收集信息，再用前馈网络逐个变换每个词元；两者的结果都加回残差流。\n"
              "3. 最后一层的向量就是模型对你这段文本的理解。"},
    "home_open_attention": {"en": "Open the attention explorer", "zh": "打开注意力探查器"},
    "home_catalogue": {"en": "Models on this machine", "zh": "本机可用的模型"},
    "cfg_arch": {"en": "Architecture", "zh": "结构"},
    "cfg_layers_heads": {"en": "Layers × heads", "zh": "层数 × 头数"},
    "cfg_params": {"en": "Parameters", "zh": "参数量"},
    "cfg_positional": {"en": "Positions", "zh": "位置编码"},
    "cfg_norm": {"en": "Normalisation", "zh": "归一化"},
    "cfg_ffn": {"en": "Feed-forward", "zh": "前馈网络"},
    "cfg_conventions": {"en": "Checkpoint conventions", "zh": "检查点约定"},
    "card_unscaled": {"en": "scores not scaled by 1/√d_head", "zh": "注意力分数不除以 √d_head"},
    "card_halves": {"en": "sinusoidal positions as [sin | cos] halves", "zh": "正弦位置编码按 [sin | cos] 分两半排列"},
    "card_pos_offset": {"en": "positions +{k} (position p reads row p + {k})", "zh": "位置 +{k}（位置 p 读取第 p + {k} 行）"},
    "card_unembed_scale": {"en": "output × d_model^-0.5 before the unembedding", "zh": "反嵌入前输出乘以 d_model^-0.5"},
    "card_logit_bias": {"en": "fixed bias added to the logits", "zh": "logits 加上固定偏置"},
    "cfg_attention": {"en": "Attention", "zh": "注意力"},
    "cfg_residual": {"en": "Residual", "zh": "残差连接"},
    "card_window": {"en": "window |q − k| ≤ {w}", "zh": "窗口 |q − k| ≤ {w}"},
    "card_rope_linear": {"en": "position interpolation ×{s:g}", "zh": "位置插值 ×{s:g}"},
    "card_rope_ntk": {"en": "NTK-aware scaling ×{s:g}", "zh": "NTK 感知缩放 ×{s:g}"},
    "card_rope_yarn": {"en": "YaRN ×{s:g}", "zh": "YaRN ×{s:g}"},
    "card_rope_original": {"en": "(trained on {n})", "zh": "（训练长度 {n}）"},
    "card_qkv_bias": {"en": "Q/K/V bias", "zh": "查询/键/值带偏置"},
    "card_parallel": {"en": "attention and MLP in parallel", "zh": "注意力与 MLP 并行"},
    "kind_pretrained": {"en": "pretrained", "zh": "预训练"},
    "kind_toy": {"en": "trained toy", "zh": "训练好的小模型"},
    "kind_lm": {"en": "trained language model", "zh": "训练好的语言模型"},
    "kind_custom": {"en": "build your own", "zh": "自定义结构"},
    "kind_folder": {"en": "local folder", "zh": "本地文件夹"},
    "arch_encoder": {"en": "encoder", "zh": "编码器"},
    "arch_decoder": {"en": "decoder", "zh": "解码器"},
    "arch_encoder-decoder": {"en": "encoder-decoder", "zh": "编码器-解码器"},
    "pos_none": {"en": "none", "zh": "无"},
    "pos_sinusoidal": {"en": "sinusoidal", "zh": "正弦位置编码"},
    "pos_learned": {"en": "learned", "zh": "可学习位置编码"},
    "pos_rope": {"en": "RoPE (rotary)", "zh": "RoPE（旋转位置编码）"},
    "pos_alibi": {"en": "ALiBi (linear bias)", "zh": "ALiBi（线性偏置）"},
    "pos_relative": {"en": "T5 relative buckets", "zh": "T5 相对位置分桶"},
    "norm_pre": {"en": "pre-norm", "zh": "前置归一化"},
    "norm_post": {"en": "post-norm", "zh": "后置归一化"},
    "col_model": {"en": "model", "zh": "模型"},
    "col_kind": {"en": "kind", "zh": "类型"},
    "col_available": {"en": "available", "zh": "可用"},
    "col_details": {"en": "details", "zh": "说明"},
}

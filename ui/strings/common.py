"""Strings of the app's frame (the sidebar, link notices, errors, memory notes, page titles) and words several pages use."""

STRINGS = {
    "sb_char_encoder_note": {
        "en": "This text is mostly Chinese: MiniLM's English WordPiece vocabulary reads most Chinese characters as "
              "[UNK]. A character-level encoder knows every character of its training poems.",
        "zh": "这段文本以中文为主：MiniLM 的英文 WordPiece 词表会把大多数汉字读成 [UNK]。字符级编码器的词表包含其训练诗文中的每个字。"},
    "sb_char_encoder_switch": {"en": "Switch to {model}", "zh": "切换到 {model}"},
    "language": {"en": "Language", "zh": "语言"},
    "model": {"en": "Model", "zh": "模型"},
    "text": {"en": "Your text", "zh": "输入文本"},
    "text_help": {"en": "Press Ctrl+Enter (or click outside) to run the model on it.",
                  "zh": "按 Ctrl+Enter（或点击别处）运行模型。"},
    "target_text": {"en": "Decoder input (target)", "zh": "解码器输入（目标序列）"},
    "target_help": {"en": "Encoder-decoder models read the source with the encoder and this text with the decoder. "
                          "Empty = the same as the source.",
                    "zh": "编码器-解码器模型用编码器读源文本，用解码器读这段文本。留空则与源文本相同。"},
    "device": {"en": "Device", "zh": "设备"},
    "loading_torch": {"en": "Starting PyTorch…", "zh": "正在启动 PyTorch……"},
    "loading_model": {"en": "Loading {model}…", "zh": "正在加载 {model}……"},
    "loaded_model": {"en": "{model} ready", "zh": "{model} 已就绪"},
    "empty_text": {"en": "Type a sentence in the sidebar to see how the model reads it.",
                   "zh": "请在侧边栏输入一句话，看看模型如何阅读它。"},
    "truncated": {"en": "Your text has {n} tokens; this view shows the first {kept} (the model's limit).",
                  "zh": "文本共有 {n} 个词元；此处只显示前 {kept} 个（模型的上限）。"},
    "url_invalid": {"en": "The link's {param}={value} is not valid here; using the default instead.",
                    "zh": "链接中的 {param}={value} 在此无效，已改用默认值。"},
    "url_adjusted": {"en": "The link's {param}={value} was adjusted to {now}.",
                     "zh": "链接中的 {param}={value} 已调整为 {now}。"},
    "model_unavailable": {"en": "Not available on this machine", "zh": "本机不可用"},
    # a label and its value in a line or a list (Chinese takes the full-width colon)
    "label_value": {"en": "{label}: {value}", "zh": "{label}：{value}"},
    "sb_example_english": {
        "en": "MiniLM learned English, so the example sentence is English. Type Chinese to see which characters "
              "its vocabulary does not know ([UNK]).",
        "zh": "MiniLM 是用英文训练的，所以这里默认用英文例句。输入中文试试：它词表里没有的字会变成 [UNK]。"},
    "random_weights": {"en": "random weights: patterns show the architecture, not learned behaviour",
                       "zh": "随机权重：图案反映结构，而非学到的行为"},
    "load_failed": {"en": "Could not load {model}: {error}", "zh": "无法加载 {model}：{error}"},
    "run_failed": {"en": "The model could not read this text: {error}", "zh": "模型无法处理这段文本：{error}"},
    "many_unk": {"en": "{pct:.0%} of the tokens are unknown to this model's vocabulary ([UNK]).",
                 "zh": "{pct:.0%} 的词元不在该模型的词表中（[UNK]）。"},
    # ---- page titles (app.py's navigation) ---------------------------------------------------
    "nav_home": {"en": "Overview", "zh": "概览"},
    "nav_lessons": {"en": "Lessons", "zh": "课程"},
    "nav_attention": {"en": "Attention", "zh": "注意力"},
    "nav_positional": {"en": "Positional encodings", "zh": "位置编码"},
    "nav_masks": {"en": "Masks & variants", "zh": "掩码与注意力变体"},
    "nav_walkthrough": {"en": "Q/K/V walk-through", "zh": "Q/K/V 逐步演算"},
    "nav_ffn": {"en": "Feed-forward (FFN)", "zh": "前馈网络（FFN）"},
    "nav_residual": {"en": "Residual stream", "zh": "残差流"},
    "nav_attribution": {"en": "Attribution", "zh": "归因"},
    "nav_generate": {"en": "Generation", "zh": "文本生成"},
    "nav_training": {"en": "Training lab", "zh": "训练实验室"},
    # ---- memory and out-of-memory notices (ui/serving/) --------------------------------------
    "mem_budget_cut": {
        "en": "This text has {n} tokens; recording them would need about {need} MB, more than this server's budget of "
              "{budget} MB per pass. The views show the first {kept} tokens.",
        "zh": "这段文本有 {n} 个词元；全部记录大约需要 {need} MB，超过了服务器每次计算 {budget} MB 的内存预算。"
              "下面的视图只显示前 {kept} 个词元。",
    },
    "mem_budget_refused": {
        "en": "This model is too large for this server's memory budget: even one token needs about {need} MB, and "
              "the budget is {budget} MB per pass. Pick a smaller model (or ask the server's owner to raise "
              "GLASSBOX_TRACE_BUDGET_MB).",
        "zh": "这个模型超出了服务器的内存预算：即使只有一个词元也需要大约 {need} MB，而每次计算的预算是 {budget} MB。"
              "请选择更小的模型（或请服务器管理员调高 GLASSBOX_TRACE_BUDGET_MB）。",
    },
    "mem_fallback_cpu": {
        "en": "The {device} ran out of memory on this text, so it was run on the CPU instead (slower, same numbers).",
        "zh": "{device} 处理这段文本时内存不足，因此改在 CPU 上运行（更慢，但结果相同）。",
    },
    "mem_fallback_shorter": {
        "en": "The server ran out of memory on this text: only its first {kept} of {n} tokens were run.",
        "zh": "服务器处理这段文本时内存不足：只运行了前 {kept} 个词元（共 {n} 个）。",
    },
    "mem_out_of_memory": {
        "en": "The server ran out of memory even on the first {n} tokens of this text. Try a shorter text or a "
              "smaller model.",
        "zh": "即使只处理这段文本的前 {n} 个词元，服务器的内存仍然不足。请换一段更短的文本或更小的模型。",
    },
    # ---- model descriptions (sidebar caption, home catalogue) --------------------------------
    "desc_minilm": {"en": "all-MiniLM-L6-v2: real pretrained BERT weights, bundled, offline",
                    "zh": "all-MiniLM-L6-v2：真实的预训练 BERT 权重，随软件附带，离线可用"},
    "desc_custom:gpt": {"en": "causal, learned positions, pre-LayerNorm, GELU (random weights)",
                        "zh": "因果注意力、可学习位置编码、Pre-LN（LayerNorm）、GELU（随机权重）"},
    "desc_custom:bert": {"en": "bidirectional, learned positions, post-LayerNorm, GELU (random weights)",
                         "zh": "双向注意力、可学习位置编码、Post-LN（LayerNorm）、GELU（随机权重）"},
    "desc_custom:llama": {"en": "RoPE, RMSNorm, SwiGLU, grouped-query attention (4 query / 2 kv heads) (random weights)",
                          "zh": "RoPE、RMSNorm、SwiGLU、分组查询注意力（4 个查询头 / 2 个键/值头）（随机权重）"},
    "desc_custom:transformer": {"en": "encoder-decoder, sinusoidal positions, post-LayerNorm, ReLU (random weights)",
                                "zh": "编码器-解码器、正弦位置编码、Post-LN（LayerNorm）、ReLU（随机权重）"},
    "desc_custom:t5": {"en": "relative position buckets, RMSNorm, pre-norm, ReLU (random weights)",
                       "zh": "相对位置分桶、RMSNorm、Pre-LN、ReLU（随机权重）"},
    "desc_custom:alibi": {"en": "no position vectors: a linear distance penalty per head (random weights)",
                          "zh": "没有位置向量：每个头对距离施加线性惩罚（随机权重）"},
    "desc_custom:longformer": {"en": "sliding window of ±2 tokens per side (5 keys) plus a global first token "
                                     "(random weights)",
                               "zh": "每侧 2 个词元（共 5 个）的滑动窗口，加上一个全局的首词元（随机权重）"},
    "desc_toy": {"en": "{task}, {pe} positions{post}: trained {steps} steps on inputs of {n} symbols; exact-sequence "
                        "accuracy {acc}.",
                 "zh": "{task}，{pe}{post}：在 {n} 个符号的输入上训练了 {steps} 步；整条序列准确率 {acc}。"},
    "desc_toy_post": {"en": ", post-LN", "zh": "，Post-LN（后置层归一化）"},
    # ---- toy tasks: names (model descriptions, training page) and the example button ---------
    "tr_task_copy": {"en": "Copy", "zh": "复制"},
    "tr_task_reverse": {"en": "Reverse", "zh": "反转"},
    "tr_task_sort": {"en": "Sort", "zh": "排序"},
    "tr_task_induction": {"en": "Induction (repeated sequence)", "zh": "归纳（重复序列）"},
    "tr_task_brackets": {"en": "Close the brackets", "zh": "补全括号"},
    "tr_task_spell": {"en": "Spell digits (encoder-decoder)", "zh": "数字转英文单词（编码器-解码器）"},
    "tr_task_char_lm": {"en": "Character language model (your text)", "zh": "字符级语言模型（你的文本）"},
    "use_task_example": {"en": "Read the task's example instead: {text}", "zh": "改为读取该任务的示例：{text}"},
    # ---- controls several pages share --------------------------------------------------------
    "view": {"en": "View", "zh": "视图"},
    "stack_self": {"en": "Self-attention", "zh": "自注意力"},
    "stack_encoder": {"en": "Encoder self", "zh": "编码器自注意力"},
    "stack_decoder": {"en": "Decoder self", "zh": "解码器自注意力"},
    "stack_cross": {"en": "Cross (decoder → encoder)", "zh": "交叉注意力（解码器→编码器）"},
    "layer": {"en": "Layer", "zh": "层"},
    "head": {"en": "Head", "zh": "头"},
    "combine_one": {"en": "one head", "zh": "单个头"},
    "combine_mean": {"en": "mean of heads", "zh": "所有头的平均"},
    "combine_max": {"en": "max of heads", "zh": "所有头的最大值"},
    "head_what": {"en": "head {head}", "zh": "第 {head} 个头"},
    "explain": {"en": "What am I looking at?", "zh": "这是什么？"},
    # ---- figure words several pages share ----------------------------------------------------
    "term_query": {"en": "query", "zh": "查询"},
    "term_key": {"en": "key", "zh": "键"},
    "term_masked": {"en": "masked", "zh": "被掩码"},
    "term_layer": {"en": "layer", "zh": "层"},
    "term_head": {"en": "head", "zh": "头"},
    "term_tile": {"en": "layer L{l}, head H{h}", "zh": "第 {l} 层第 {h} 个头"},
    "term_weight": {"en": "attention weight", "zh": "注意力权重"},
    "term_token": {"en": "token", "zh": "词元"},
    "term_neuron": {"en": "neuron", "zh": "神经元"},
    "term_activation": {"en": "activation", "zh": "激活值"},
}

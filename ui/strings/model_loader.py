"""Strings of the "Load a model" panel (ui/widgets/model_loader.py) and the parity badge (sidebar, home card)."""

STRINGS = {
    "ml_expander": {"en": "Load a model", "zh": "加载模型"},
    "ml_source": {"en": "Folder or hub id", "zh": "文件夹路径或 Hub 模型名"},
    "ml_source_help": {
        "en": "A folder on this server with config.json, *.safetensors weights and the tokenizer files "
              "(tokenizer.json, or vocab.txt, or vocab.json + merges.txt). A Hugging Face hub id such as gpt2 "
              "works only when this machine is online. To try it offline: `python -m cli tiny-model llama "
              "./tiny-llama` writes a tiny random model to load.",
        "zh": "本服务器上的一个文件夹，内含 config.json、*.safetensors 权重和分词器文件（tokenizer.json，或 "
              "vocab.txt，或 vocab.json + merges.txt）。Hugging Face Hub 模型名（如 gpt2）仅在本机联网时可用。"
              "离线试用：`python -m cli tiny-model llama ./tiny-llama` 会写出一个可加载的微型随机模型。"},
    "ml_load": {"en": "Load", "zh": "加载"},
    "ml_empty": {"en": "Type the path of a folder (or a hub id) first.", "zh": "请先输入文件夹路径（或 Hub 模型名）。"},
    "ml_step_check": {"en": "Checking the files and the memory the model needs…", "zh": "正在检查文件和模型所需内存…"},
    "ml_step_read": {"en": "Reading the weights…", "zh": "正在读取权重…"},
    "ml_step_build": {"en": "Building the model…", "zh": "正在构建模型…"},
    "ml_step_parity": {"en": "Comparing with transformers on the current text…",
                       "zh": "正在用当前文本与 transformers 对比…"},
    "ml_step_download": {"en": "Downloading from the Hugging Face hub…", "zh": "正在从 Hugging Face Hub 下载…"},
    "ml_done": {"en": "{label} joined the model picker and is selected.", "zh": "{label} 已加入模型选择列表并被选中。"},
    "ml_failed": {"en": "Nothing was loaded. {reason}", "zh": "未加载任何模型。{reason}"},
    "ml_desc": {"en": "Hugging Face checkpoint {name} ({family}, {params} M parameters), loaded in this session",
                "zh": "Hugging Face 检查点 {name}（{family}，{params} M 参数），在本会话中加载"},
    "ml_parity_ok": {"en": "✓ matches transformers {version} on this text: max |Δ| = {diff}",
                     "zh": "✓ 在这段文本上与 transformers {version} 一致：最大 |Δ| = {diff}"},
    "ml_parity_bad": {"en": "✗ differs from transformers {version} on this text by max |Δ| = {diff} "
                            "(tolerance {tol})",
                      "zh": "✗ 在这段文本上与 transformers {version} 不一致：最大 |Δ| = {diff}（容差 {tol}）"},
    "ml_parity_skipped": {"en": "parity not checked: {reason}", "zh": "未检查一致性：{reason}"},
    "ml_parity_compared": {"en": "Compared: {what} over {n} tokens, float32, the same token ids.",
                           "zh": "对比内容：{n} 个词元上的{what}，float32，相同的词元 id。"},
    "ml_what_logits": {"en": "logits", "zh": "logits（输出分数）"},
    "ml_what_hidden": {"en": "last hidden states", "zh": "最后一层隐藏状态"},
    "ml_check": {"en": "Check against transformers", "zh": "与 transformers 对比"},
    "ml_skip_no_transformers": {"en": "the transformers package is not installed.",
                                "zh": "未安装 transformers 软件包。"},
    "ml_skip_not_hf": {"en": "this model does not come from a Hugging Face folder.",
                       "zh": "该模型并非来自 Hugging Face 文件夹。"},
    "ml_skip_no_text": {"en": "there is no text to compare on.", "zh": "没有可用于对比的文本。"},
    "ml_skip_unknown_arch": {"en": "transformers {version} does not know this architecture.",
                             "zh": "transformers {version} 不认识这种结构。"},
    "ml_skip_error": {"en": "transformers {version} could not build or run this model.",
                      "zh": "transformers {version} 无法构建或运行该模型。"},
}

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
    "ml_step_check": {"en": "Checking the files and the memory the model needs…", "zh": "正在检查文件和模型所需内存……"},
    "ml_step_read": {"en": "Reading the weights…", "zh": "正在读取权重……"},
    "ml_step_build": {"en": "Building the model…", "zh": "正在构建模型……"},
    "ml_step_parity": {"en": "Comparing with transformers on the current text…",
                       "zh": "正在用当前文本与 transformers 对比……"},
    "ml_step_hub_config": {"en": "Reading the model's config.json from {host}…",
                           "zh": "正在从 {host} 读取模型的 config.json…"},
    "ml_step_download": {"en": "Downloading from {host}…", "zh": "正在从 {host} 下载……"},
    "ml_step_download_bytes": {"en": "Downloading from {host}: {done} of {total}…",
                               "zh": "正在从 {host} 下载：已完成 {done}，共 {total}…"},
    "ml_step_download_files": {"en": "Downloading from {host}: {done} of {total} files…",
                               "zh": "正在从 {host} 下载：已完成 {done} 个文件，共 {total} 个…"},
    "ml_done": {"en": "{label} ({dtype}) joined the model picker and is selected.",
                "zh": "{label}（{dtype}）已加入模型选择列表并被选中。"},
    # the precision a model is loaded in
    "ml_dtype": {"en": "Precision", "zh": "数值精度"},
    "ml_dtype_float32": {"en": "float32 · exact parity", "zh": "float32 · 与 transformers 精确一致"},
    "ml_dtype_bfloat16": {"en": "bfloat16 · half the memory", "zh": "bfloat16 · 内存减半"},
    "ml_dtype_float16": {"en": "float16 · half the memory", "zh": "float16 · 内存减半"},
    "ml_dtype_help": {
        "en": "float32: 4 bytes a number, and the model matches transformers to 1e-4. bfloat16 or float16: half the "
              "memory, and the model computes in that precision; its badge compares it with transformers run in the "
              "same precision, to a looser tolerance that the badge states.",
        "zh": "float32：每个数占 4 字节，模型与 transformers 的差异不超过 1e-4。bfloat16 或 float16：内存减半，模型也以"
              "该精度计算；一致性标记会与同一精度下运行的 transformers 对比，容差更宽，标记上会写明。"},
    # the model's size, said before anything is read
    "ml_size": {"en": "{params} parameters: {f32} in float32, {half} in bfloat16 or float16",
                "zh": "参数量 {params}：float32 占 {f32}，bfloat16 或 float16 占 {half}"},
    "ml_size_approx": {"en": "About {params} parameters (approximate): about {f32} in float32, {half} in bfloat16 "
                             "or float16",
                       "zh": "参数量约 {params}（近似值）：float32 约占 {f32}，bfloat16 或 float16 约占 {half}"},
    "ml_fits": {"en": " — fits in {dtype} (this server's model budget is {budget}).",
                "zh": "——按 {dtype} 加载，在本服务器单个模型的内存预算（{budget}）之内。"},
    "ml_fits_other": {"en": " — does not fit in {dtype} in this server's model budget of {budget}; it fits in "
                            "bfloat16 or float16.",
                      "zh": "——按 {dtype} 加载会超出本服务器单个模型的内存预算（{budget}）；改用 bfloat16 或 float16 "
                            "则可以。"},
    "ml_fits_none": {"en": " — does not fit in the server's model budget of {budget}.",
                     "zh": "——超出本服务器单个模型的内存预算（{budget}）。"},
    "ml_budget_machine": {"en": "The budget comes from this machine, read now: half of its available memory less "
                                "1 GB (the server's operator can set GLASSBOX_MODEL_BUDGET_MB instead).",
                          "zh": "该预算取自本机的当前状态：可用内存减去 1 GB 后的一半（服务器管理员也可以用 "
                                "GLASSBOX_MODEL_BUDGET_MB 另行设定）。"},
    "ml_budget_operator": {"en": "The server's operator set this budget (GLASSBOX_MODEL_BUDGET_MB).",
                           "zh": "该预算由服务器管理员设定（GLASSBOX_MODEL_BUDGET_MB）。"},
    "ml_count_big": {"en": "{x} B", "zh": "{x} 亿"},          # x in billions (en), in 亿 = 10^8 (zh)
    "ml_count_mid": {"en": "{x} M", "zh": "{x} 万"},          # x in millions (en), in 万 = 10^4 (zh)
    # a hub that answers but will not serve the model (models/weights/hub.py; ui/refusals.py says refused_<reason>)
    "refused_hub_gated": {
        "en": "{name} is gated on the Hugging Face hub: the server needs the token (HF_TOKEN) of an account that "
              "accepted its licence.",
        "zh": "{name} 在 Hugging Face Hub 上需申请访问：服务器需要一个已同意其许可协议的账号的令牌（HF_TOKEN）。"},
    "refused_hub_not_found": {
        "en": "{host} has no model {name}: check the hub id (organisation/name, as on the model's page).",
        "zh": "{host} 上没有模型 {name}：请检查 Hub 模型名（组织/名称，与模型页面上的一致）。"},
    # suggestions
    "ml_suggest": {"en": "Popular small models on the hub", "zh": "Hub 上常用的小模型"},
    "ml_suggest_help": {
        "en": "A click puts the model's hub id in the box above. Parameter counts are approximate (published "
              "figures). A hub id loads only when this server reaches the Hugging Face hub or the mirror its "
              "HF_ENDPOINT names. Llama and Gemma are gated: they need the token (HF_TOKEN) of an account that "
              "accepted their licence.",
        "zh": "点击后会把模型的 Hub 模型名填入上面的输入框。参数量为近似值（公开数据）。只有当本服务器能连上 Hugging "
              "Face Hub 或其 HF_ENDPOINT 指定的镜像时，才能按 Hub 模型名加载。Llama 和 Gemma 需申请访问：需要一个已同意"
              "其许可协议的账号的令牌（HF_TOKEN）。"},
    "ml_failed": {"en": "Nothing was loaded. {reason}", "zh": "未加载任何模型。{reason}"},
    "ml_desc": {"en": "Hugging Face checkpoint {name} ({family}, {params} parameters, {dtype}), loaded in this "
                      "session",
                "zh": "Hugging Face 检查点 {name}（{family}，参数量 {params}，{dtype}），在本会话中加载"},
    "ml_parity_ok": {"en": "✓ matches transformers {version} in {dtype} on this text: max |Δ| = {diff} "
                           "(tolerance {tol})",
                     "zh": "✓ 在这段文本上与 transformers {version} 一致（{dtype}）：最大 |Δ| = {diff}（容差 {tol}）"},
    "ml_parity_bad": {"en": "✗ differs from transformers {version} in {dtype} on this text by max |Δ| = {diff} "
                            "(tolerance {tol})",
                      "zh": "✗ 在这段文本上与 transformers {version} 不一致（{dtype}）：最大 |Δ| = {diff}（容差 {tol}）"},
    "ml_parity_skipped": {"en": "parity not checked: {reason}", "zh": "未检查一致性：{reason}"},
    "ml_parity_compared": {"en": "Compared: {what} over {n} tokens, the same token ids, both models in {dtype}. {rule}",
                           "zh": "对比内容：{n} 个词元上的{what}，相同的词元 id，两个模型都以 {dtype} 计算。{rule}"},
    "ml_tol_float32": {"en": "Tolerance: 1e-4 (float32 kernels that add in a different order differ by about 1e-6).",
                       "zh": "容差：1e-4（按不同顺序累加的 float32 计算之间约差 1e-6）。"},
    "ml_tol_half": {"en": "Tolerance: {eps} times {dtype}'s machine epsilon times the largest |value| of transformers' "
                          "output ({scale}), i.e. 1/{frac} of it: both models round to {dtype}, in a different order.",
                    "zh": "容差：{dtype} 机器精度（eps）的 {eps} 倍乘以 transformers 输出的最大绝对值（{scale}），即该值的 "
                          "1/{frac}：两个模型都按 {dtype} 舍入，只是运算顺序不同。"},
    "ml_what_logits": {"en": "logits", "zh": "logits（输出分数）"},
    "ml_what_hidden": {"en": "last hidden states", "zh": "最后一层隐藏状态"},
    "ml_check": {"en": "Check against transformers", "zh": "与 transformers 对比"},
    "ml_check_busy": {
        "en": "{n} sessions share this server now, so a new text is checked when you ask (above {limit} sessions, "
              "GLASSBOX_MAP_SESSIONS): each check runs transformers' model and ours on it.",
        "zh": "现在有 {n} 个会话共用这台服务器，所以新文本在你点击后才对比（超过 {limit} 个会话时，GLASSBOX_MAP_SESSIONS）："
              "每次对比都要让 transformers 的模型和我们的模型各算一遍。"},
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

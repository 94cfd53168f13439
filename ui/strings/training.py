"""Strings of the training lab (task, model, live training, checkpoints)."""

STRINGS = {
    "tr_title": {"en": "Training lab: watch attention emerge", "zh": "训练实验室：看注意力模式如何形成"},
    "tr_intro": {
        "en": "Train a tiny Transformer on a toy task whose ideal attention pattern is known, and watch its heads "
              "find that pattern step by step. The trained model joins the model picker, so every other page can "
              "inspect it.",
        "zh": "在一个理想注意力模式已知的玩具任务上训练一个很小的 Transformer，一步步看它的注意力头如何找到这个模式。"
              "训练好的模型会加入侧边栏的模型列表，其他页面都可以查看它。"},
    "tr_setup": {"en": "Task and model", "zh": "任务与模型"},
    "tr_task": {"en": "Task", "zh": "任务"},
    "tr_task_copy_help": {
        "en": "Input `abcd=` → answer `abcd`. A head learns to look exactly n places back (n = the input's "
              "length): from `=` to `a`, from each answer token to the next input symbol.",
        "zh": "输入 `abcd=` → 答案 `abcd`。某个头学会恰好往回看 n 个位置（n 为输入长度）：从 `=` 看向 `a`，"
              "从每个答案词元看向下一个输入符号。"},
    "tr_task_reverse_help": {
        "en": "Input `abcd=` → answer `dcba`. The answer's attention forms the anti-diagonal; one layer is enough "
              "when positions are absolute.",
        "zh": "输入 `abcd=` → 答案 `dcba`。答案部分的注意力呈反对角线；使用绝对位置编码时一层就够了。"},
    "tr_task_sort_help": {
        "en": "Input `cadb=` → answer `abcd`. Each answer token has to find the smallest remaining symbol of the "
              "input.",
        "zh": "输入 `cadb=` → 答案 `abcd`。每个答案词元都要在输入中找到剩余符号中最小的那个。"},
    "tr_task_induction_help": {
        "en": "n distinct letters, then the same letters again. In the second copy the current letter's first "
              "occurrence is n positions back, and the key that holds the answer, the letter after it, n − 1 back: "
              "a previous-token head (layer 0) and an induction head (layer 1) find it (Olsson et al. 2022).",
        "zh": "n 个互不相同的字母，然后再重复一遍。在第二遍中，当前字母第一次出现的位置在 n 个位置之前，"
              "而存放答案的键（它后面的那个字母）在 n − 1 个位置之前：前一词元头（第 0 层）和归纳头（第 1 层）配合找到它"
              "（Olsson 等，2022）。"},
    "tr_task_brackets_help": {
        "en": "Input `([{}(=` → answer `)])`: the closers that balance it, innermost first. Each closer should look "
              "at the opener it matches, like a stack.",
        "zh": "输入 `([{}(=` → 答案 `)])`：按由内到外的顺序补全右括号。每个右括号应当关注与它匹配的左括号，就像一个栈。"},
    "tr_task_spell_help": {
        "en": "The encoder reads `307`, the decoder writes `three zero seven`. Cross-attention learns which digit "
              "each letter comes from.",
        "zh": "编码器读入 `307`，解码器写出 `three zero seven`。交叉注意力学会每个字母来自哪个数字。"},
    "tr_task_char_lm_help": {
        "en": "A tiny GPT that predicts the next character of your text. Accuracy here is next-character accuracy.",
        "zh": "一个预测你文本下一个字符的迷你 GPT。这里的准确率是下一个字符的预测准确率。"},
    "tr_upload_text": {"en": "Upload a .txt file (at most {kb} KB)", "zh": "上传 .txt 文件（最多 {kb} KB）"},
    "tr_lm_text": {"en": "Training text", "zh": "训练文本"},
    "tr_using_file": {"en": "Training on {name} ({n} characters).", "zh": "使用 {name} 训练（{n} 个字符）。"},
    "tr_no_text": {"en": "There is no usable training text.", "zh": "没有可用的训练文本。"},
    "tr_layers": {"en": "Layers", "zh": "层数"},
    "tr_heads": {"en": "Heads", "zh": "头数"},
    "tr_kv_heads": {"en": "Key/value heads", "zh": "键/值头数"},
    "tr_kv_help": {"en": "Equal to heads: multi-head attention; 1: multi-query; in between: grouped-query.",
                   "zh": "等于头数：多头注意力；1：多查询注意力；介于两者之间：分组查询注意力。"},
    "tr_d_model": {"en": "d_model", "zh": "d_model（模型宽度）"},
    "tr_d_ff": {"en": "d_ff (FFN width)", "zh": "d_ff（前馈层宽度）"},
    "tr_positional": {"en": "Positional encoding", "zh": "位置编码"},
    "tr_norm": {"en": "Normalisation", "zh": "归一化"},
    "tr_norm_position": {"en": "Norm placement", "zh": "归一化位置"},
    "tr_activation": {"en": "Activation", "zh": "激活函数"},
    "tr_length": {"en": "Input length (symbols)", "zh": "输入长度（符号数）"},
    "tr_context": {"en": "Context (characters)", "zh": "上下文长度（字符数）"},
    "tr_steps": {"en": "Steps", "zh": "训练步数"},
    "tr_lr": {"en": "Learning rate", "zh": "学习率"},
    "tr_lr_short": {"en": "learning rate", "zh": "学习率"},
    "tr_batch": {"en": "Batch size", "zh": "批大小"},
    "tr_seed": {"en": "Seed", "zh": "随机种子"},
    "tr_snapshot_every": {"en": "Snapshot every (steps)", "zh": "快照间隔（步）"},
    "tr_snapshot_help": {"en": "How often accuracy is measured and the probe's attention recorded.",
                         "zh": "每隔多少步测量一次准确率并记录探测输入的注意力。"},
    "tr_start": {"en": "Start training", "zh": "开始训练"},
    "tr_stop": {"en": "Stop", "zh": "停止"},
    "tr_refused": {"en": "Cannot start: {error}", "zh": "无法开始：{error}"},
    "tr_kv_too_many": {"en": "There are {kv} key/value heads but only {h} query heads; use at most {h}.",
                       "zh": "键/值头有 {kv} 个，但查询头只有 {h} 个；键/值头最多 {h} 个。"},
    "tr_trained": {"en": "Trained", "zh": "已训练"},
    "tr_run_title": {"en": "Run: {label}", "zh": "本次训练：{label}"},
    "tr_waiting": {"en": "Waiting for a free training slot (other sessions on this server are training)…",
                   "zh": "正在等待空闲的训练名额（本服务器上有其他会话在训练）……"},
    "tr_status": {"en": "Step {step}/{steps} · loss {loss} · accuracy {acc} · {s} s",
                  "zh": "第 {step}/{steps} 步 · 损失 {loss} · 准确率 {acc} · {s} 秒"},
    "tr_done": {"en": "Training finished.", "zh": "训练完成。"},
    "tr_stopped": {"en": "Stopped; what it learned so far is kept.", "zh": "已停止；目前学到的内容已保留。"},
    "tr_failed": {"en": "Training failed: {error}", "zh": "训练失败：{error}"},
    "tr_loss": {"en": "loss", "zh": "损失"},
    "tr_accuracy": {"en": "accuracy", "zh": "准确率"},
    "tr_step": {"en": "step", "zh": "步"},
    "tr_live_attention": {"en": "Every head's attention on the probe input at step {step} (rows: queries, columns: "
                                "keys; one tile per head, layers top to bottom).",
                          "zh": "第 {step} 步时每个头对探测输入的注意力（行：查询，列：键；每格一个头，层从上到下）。"},
    "tr_card": {"en": "{task}, trained here for {step} steps", "zh": "{task}，在此训练了 {step} 步"},
    "tr_in_picker": {"en": "**{label}** is now in the sidebar's model picker: every page can inspect it.",
                     "zh": "**{label}** 已加入侧边栏的模型列表，所有页面都可以查看它。"},
    "tr_inspect": {"en": "Open in the attention explorer", "zh": "在注意力探查器中打开"},
    "tr_scrub": {"en": "Step to inspect", "zh": "查看第几步"},
    "tr_stack": {"en": "Attention", "zh": "注意力类型"},
    "tr_ideal": {"en": "ideal-pattern score", "zh": "理想模式得分"},
    "tr_ideal_help": {"en": "Attention mass that the best last-layer head puts on the task's ideal keys, averaged "
                            "over the answer's queries (1 = exactly the ideal pattern).",
                      "zh": "最后一层中最好的那个头在任务理想键上的注意力权重，对答案部分的查询取平均（1 表示与理想模式完全一致）。"},
    "tr_probe": {"en": "Probe input: {text}", "zh": "探测输入：{text}"},
    "tr_all_heads": {"en": "All heads at step {step}", "zh": "第 {step} 步的所有头"},
    "tr_ideal_map": {"en": "The ideal pattern of this task (answer queries)", "zh": "该任务的理想注意力模式（答案部分的查询）"},
    "tr_no_ideal": {"en": "This task has no single ideal pattern (a language model).",
                    "zh": "该任务没有唯一的理想模式（语言模型）。"},
    "tr_play_title": {"en": "Replay training", "zh": "回放训练过程"},
    "tr_play_help": {"en": "Each layer's attention averaged over heads, at every snapshot. Press Play, or drag the "
                           "slider under the maps.",
                     "zh": "每层各头平均后的注意力，逐个快照显示。点击播放，或拖动图下方的滑块。"},
    "tr_layer_mean": {"en": "layer {layer} (mean of heads)", "zh": "第 {layer} 层（各头平均）"},
    "tr_play": {"en": "Play", "zh": "播放"},
    "tr_pause": {"en": "Pause", "zh": "暂停"},
    "tr_download": {"en": "Download checkpoint (.zip: safetensors + JSON)",
                    "zh": "下载检查点（.zip：safetensors + JSON）"},
    "tr_session_models": {"en": "Models in this session ({n} of at most {limit})", "zh": "本会话中的模型（{n} 个，最多 {limit} 个）"},
    "tr_remove": {"en": "Remove", "zh": "移除"},
    "tr_upload_title": {"en": "Upload a checkpoint", "zh": "上传检查点"},
    "tr_upload_help": {"en": "A .zip downloaded from this page (one .safetensors and one .json), at most {mb} MB. "
                             "The model joins the model picker.",
                       "zh": "从本页下载的 .zip（包含一个 .safetensors 和一个 .json），最大 {mb} MB。模型会加入模型列表。"},
    "tr_upload": {"en": "Checkpoint (.zip)", "zh": "检查点（.zip）"},
    "tr_uploaded": {"en": "Loaded: **{label}** is in the model picker.", "zh": "已加载：**{label}** 已加入模型列表。"},
    "tr_uploaded_label": {"en": "Uploaded", "zh": "已上传"},
    "tr_uploaded_desc": {"en": "uploaded from {name}", "zh": "从 {name} 上传"},
    "tr_how": {"en": "How training works here", "zh": "这里的训练是如何进行的"},
    "tr_how_text": {
        "en": "Each step draws a batch of fresh examples from the task (seeded, so the same seed gives the same "
              "weights), computes the cross-entropy of the answer tokens only, and takes one AdamW step (linear "
              "warm-up, then cosine decay). Accuracy is exact-sequence accuracy: an example counts only if every "
              "answer token is the model's top prediction. Every few steps the same probe input is run through the "
              "model and its attention recorded: those snapshots are what you scrub through. Token and position "
              "vectors start at N(0, 1) so that no positional scheme drowns the tokens.",
        "zh": "每一步从任务中抽取一批新样本（有随机种子，相同种子得到相同权重），只对答案词元计算交叉熵，并做一次 AdamW "
              "更新（先线性预热，再余弦衰减）。准确率按整条序列计算：只有答案中每个词元都是模型的首选预测，样本才算正确。"
              "每隔几步，同一个探测输入会送入模型并记录注意力：你拖动浏览的就是这些快照。词元向量和位置向量初始化为 N(0, 1)，"
              "这样任何位置编码方案都不会淹没词元信息。"},
}

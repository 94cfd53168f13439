"""Strings of the attribution page (ui/views/attribution*.py), its refusals, and the training lab's head-detector chart."""

STRINGS = {
    "at_title": {"en": "Attribution: what each part contributes", "zh": "归因：每个部分贡献了什么"},
    "at_view": {"en": "View", "zh": "视图"},
    "at_view_dla": {"en": "Direct logit attribution", "zh": "直接 logit 归因"},
    "at_view_head": {"en": "What a head writes", "zh": "一个头写入了什么"},
    "at_view_patching": {"en": "Activation patching", "zh": "激活修补"},
    "at_view_detectors": {"en": "Head detectors", "zh": "注意力头检测器"},
    "at_intro_dla": {
        "en": "Attention weights say where a head looks, not what it adds. Here the logit of one token is split into "
              "the share each head, each MLP and each embedding wrote into the residual stream. The shares add up "
              "to the logit the model computed.",
        "zh": "注意力权重只说明一个头看向哪里，而不说明它往残差流里加了什么。这里把某个词元的 logit 拆开，"
              "看每个注意力头、每个 MLP 和每个嵌入各贡献了多少。这些份额加起来正好等于模型算出的 logit。"},
    "at_intro_head": {
        "en": "One head's output at one position, read through the final norm and the unembedding: the tokens it "
              "pushes up and pushes down. Beside it, what the head would write if it put all its attention on the "
              "key it attends to most (its OV circuit, on that key's value).",
        "zh": "某个注意力头在某个位置的输出，经过最终归一化和反嵌入矩阵读出：它抬高了哪些词元、压低了哪些词元。"
              "旁边是假如它把全部注意力都放在最受关注的那个键上时会写入的内容（它的 OV 回路，作用在该键的值上）。"},
    "at_intro_patching": {
        "en": "Run text B (corrupted) but take one activation from text A (clean). If the output moves back to A's, "
              "that activation carries the difference. Every layer and position is patched in turn.",
        "zh": "运行文本 B（被破坏的），但把其中一个激活值换成文本 A（干净的）的对应激活。如果输出因此回到 A 的样子，"
              "说明这个激活携带了两段文本之间的差别。每一层、每一个位置都会轮流被修补一次。"},
    "at_intro_detectors": {
        "en": "Scores for heads with a known job: looking at the previous token, at an earlier copy of the same "
              "token, at the token after that copy (an induction head), at the first token (a sink), or along a "
              "diagonal you pick. Read on a random sequence repeated twice, where these jobs have clear answers.",
        "zh": "为具有已知功能的注意力头打分：看前一个词元、看同一词元更早出现的位置、看那次出现之后的词元"
              "（归纳头）、看第一个词元（注意力汇聚点），或沿着你选定的对角线看。打分用的是一段重复两次的随机序列，"
              "在这样的序列上这些功能都有明确的正确答案。"},
    "at_no_lm_head": {
        "en": "This model has no language-model head (it outputs hidden states, like MiniLM), so there are no logits "
              "to attribute. What applies here: *What a head writes* (read through the token embeddings), "
              "*Activation patching* (scored by the distance to text A's final hidden state) and *Head detectors*.",
        "zh": "该模型没有语言模型头（它输出隐藏状态，例如 MiniLM），因此没有可以归因的 logit。适用于它的视图："
              "“一个头写入了什么”（通过词元嵌入读出）、“激活修补”（以与文本 A 最终隐藏状态的距离打分）以及"
              "“注意力头检测器”。"},
    "at_position": {"en": "Position", "zh": "位置"},
    "at_target": {"en": "Target token (empty: the top prediction)", "zh": "目标词元（留空：模型的首选预测）"},
    "at_target_help": {"en": "Any token of the vocabulary, as the tokenizer writes it (a GPT-2 word starts with a space).",
                       "zh": "词表中的任意词元，按分词器的写法输入（GPT-2 的单词以空格开头）。"},
    "at_other": {"en": "Minus token (optional)", "zh": "减去的词元（可选）"},
    "at_other_help": {"en": "Explain logit(target) − logit(this token): the usual “A vs B” metric.",
                      "zh": "解释 logit(目标) − logit(此词元)：常用的“A 对 B”指标。"},
    "at_top": {"en": "Top predictions after position {pos} ({tok}): {top}", "zh": "位置 {pos}（{tok}）之后的首选预测：{top}"},
    "at_diff_of": {"en": "{a} − {b}", "zh": "{a} − {b}"},
    "at_dla_heading": {"en": "**Logit of {what} at position {pos}, split into direct shares**",
                       "zh": "**位置 {pos} 上 {what} 的 logit，拆分为各部分的直接份额**"},
    "at_logit": {"en": "Logit (model)", "zh": "logit（模型输出）"},
    "at_sum": {"en": "Sum of the shares", "zh": "各份额之和"},
    "at_error": {"en": "Difference", "zh": "差值"},
    "at_frozen": {
        "en": "The {n} norm(s) on the way to the output are frozen at the divisor this pass used ({scales}): with s "
              "fixed, a norm is a linear map plus its bias, so every piece gets an exact share.",
        "zh": "通往输出的 {n} 个归一化层都把除数固定为这次计算实际用到的值（{scales}）：s 固定后，归一化就是一个线性映射"
              "加上偏置，所以每个部分都能得到精确的份额。"},
    "at_heads_title": {"en": "Each head's direct share (layer × head)", "zh": "每个注意力头的直接份额（层 × 头）"},
    "at_cross_title": {"en": "Each cross-attention head's direct share", "zh": "每个交叉注意力头的直接份额"},
    "at_heads_click": {"en": "Red raises the logit, blue lowers it. Click a head to see what it writes.",
                       "zh": "红色表示抬高 logit，蓝色表示压低。点击一个头，查看它写入了什么。"},
    "at_share": {"en": "share of the logit", "zh": "logit 份额"},
    "at_parts_title": {"en": "MLPs, embeddings and biases", "zh": "MLP、嵌入与偏置"},
    "at_piece_mlp": {"en": "L{layer} MLP", "zh": "L{layer} MLP"},
    "at_piece_head": {"en": "L{layer} H{head}", "zh": "L{layer} H{head}"},
    "at_piece_cross_head": {"en": "L{layer} cross H{head}", "zh": "L{layer} 交叉 H{head}"},
    "at_piece_attn_bias": {"en": "L{layer} attention bias", "zh": "L{layer} 注意力偏置"},
    "at_piece_cross_bias": {"en": "L{layer} cross-attention bias", "zh": "L{layer} 交叉注意力偏置"},
    "at_piece_norm_bias": {"en": "{norm} bias", "zh": "{norm} 偏置"},
    "at_part_embed": {"en": "token embedding", "zh": "词元嵌入"},
    "at_part_pos_embed": {"en": "position embedding", "zh": "位置嵌入"},
    "at_part_type_embed": {"en": "segment embedding", "zh": "段嵌入"},
    "at_part_attn_bias": {"en": "attention biases (all layers)", "zh": "注意力偏置（所有层）"},
    "at_part_norm_bias": {"en": "norm biases", "zh": "归一化偏置"},
    "at_part_embed_proj": {"en": "embedding projection bias", "zh": "嵌入投影的偏置"},
    "at_softcapped": {
        "en": "This model soft-caps its logits (c · tanh(logit / c), c = {c}): the shares add up to the logit before "
              "the cap, {logit:.4f}; the model's output after it is {capped:.4f}.",
        "zh": "该模型对 logits 做软截断（c · tanh(logit / c)，c = {c}）：各部分的份额加起来等于截断前的 logit "
              "{logit:.4f}；截断后模型输出的是 {capped:.4f}。"},
    "at_col_piece": {"en": "Largest pieces", "zh": "最大的部分"},
    "at_head_heading": {
        "en": "**Layer {layer}, head {head} at position {pos} ({tok})**: it attends most to position {kpos} ({ktok}), "
              "with weight {w:.2f}.",
        "zh": "**第 {layer} 层第 {head} 个头，位置 {pos}（{tok}）**：它最关注位置 {kpos}（{ktok}），权重为 {w:.2f}。"},
    "at_writes_title": {"en": "What it writes here: promoted · suppressed", "zh": "它在这里写入的：抬高 · 压低"},
    "at_ov_title": {"en": "Its OV circuit on the value of key {kpos}", "zh": "它的 OV 回路作用在键 {kpos} 的值上"},
    "at_score": {"en": "effect on the logit", "zh": "对 logit 的影响"},
    "at_via_unembedding": {
        "en": "Scores: the vector through the norms after it (divisors frozen) and the unembedding: exactly the "
              "direct effect on each token's logit.",
        "zh": "分数：该向量经过其后的归一化层（除数固定）和反嵌入矩阵，即它对每个词元 logit 的直接影响。"},
    "at_via_embedding": {
        "en": "This model has no unembedding, so the vector is compared with the token embeddings (which tokens it "
              "points towards), as on the FFN page.",
        "zh": "该模型没有反嵌入矩阵，因此把向量与词元嵌入比较（看它指向哪些词元），与前馈网络页面的做法相同。"},
    # ---- activation patching -------------------------------------------------------------------------
    "at_site": {"en": "Patch", "zh": "修补位置"},
    "at_site_resid": {"en": "Residual stream", "zh": "残差流"},
    "at_site_attn_out": {"en": "Attention output", "zh": "注意力输出"},
    "at_site_mlp_out": {"en": "MLP output", "zh": "MLP 输出"},
    "at_site_head": {"en": "Each head (all positions)", "zh": "每个头（所有位置）"},
    "at_metric": {"en": "Metric", "zh": "指标"},
    "at_metric_logit_diff": {"en": "Logit difference", "zh": "logit 差"},
    "at_metric_prob": {"en": "Probability of a token", "zh": "某词元的概率"},
    "at_metric_kl": {"en": "KL from A's distribution", "zh": "与 A 分布的 KL 散度"},
    "at_metric_hidden": {"en": "Distance to A's hidden state", "zh": "与 A 隐藏状态的距离"},
    "at_metric_token": {"en": "Token (empty: A's top prediction)", "zh": "词元（留空：A 的首选预测）"},
    "at_metric_token_help": {"en": "The answer text A leads to.", "zh": "文本 A 引出的答案。"},
    "at_metric_other": {"en": "Minus token (empty: B's top prediction)", "zh": "减去的词元（留空：B 的首选预测）"},
    "at_metric_other_help": {"en": "The answer text B leads to.", "zh": "文本 B 引出的答案。"},
    "at_same_tokens": {"en": "The two tokens are the same, so their logit difference is always 0: pick another.",
                       "zh": "两个词元相同，它们的 logit 差恒为 0：请换一个。"},
    "at_pair_tops": {"en": "After position {pos}: A predicts {a}, B predicts {b}.",
                     "zh": "位置 {pos} 之后：A 预测 {a}，B 预测 {b}。"},
    "at_sweep_start": {"en": "Run the sweep ({runs} patched runs of {n} tokens)",
                       "zh": "开始修补扫描（{runs} 次运行，每次 {n} 个词元）"},
    "at_sweep_big": {
        "en": "This sweep is {runs} patched runs of {n} tokens, about {gmacs} billion multiply-adds: it can take a "
              "while on this server, so it starts when you ask. Its result is then kept for this pair of texts.",
        "zh": "这次扫描包含 {runs} 次修补运行，每次 {n} 个词元，约 {gmacs}×10⁹ 次乘加运算：在本服务器上可能需要一段时间，"
              "所以要等你点击后才开始。之后结果会为这对文本保留。"},
    "at_sweep_running": {"en": "Patching…", "zh": "正在修补……"},
    "at_sweep_progress": {"en": "Patching… {done} of {total} runs", "zh": "正在修补……已完成 {done} / {total} 次运行"},
    "at_metric_a": {"en": "Metric on A (clean)", "zh": "A 上的指标（干净）"},
    "at_metric_b": {"en": "Metric on B (corrupted)", "zh": "B 上的指标（被破坏）"},
    "at_runs": {"en": "Patched runs", "zh": "修补运行次数"},
    "at_runs_help": {"en": "In {passes} batched forward passes, {s} s.", "zh": "分 {passes} 批前向计算完成，用时 {s} 秒。"},
    "at_nothing_to_recover": {
        "en": "A and B score the same on this metric, so there is nothing to recover: change text B or the metric.",
        "zh": "A 与 B 在这个指标上得分相同，因此没有可恢复的差别：请修改文本 B 或换一个指标。"},
    "at_row_final": {"en": "final", "zh": "最终"},
    "at_sweep_title_resid": {"en": "Recovered: residual stream patched at (layer, position)",
                             "zh": "恢复比例：在（层，位置）修补残差流"},
    "at_sweep_title_attn_out": {"en": "Recovered: attention output patched at (layer, position)",
                                "zh": "恢复比例：在（层，位置）修补注意力输出"},
    "at_sweep_title_mlp_out": {"en": "Recovered: MLP output patched at (layer, position)",
                               "zh": "恢复比例：在（层，位置）修补 MLP 输出"},
    "at_sweep_title_head": {"en": "Recovered: each head's output patched at every position",
                            "zh": "恢复比例：在所有位置修补每个头的输出"},
    "at_recovered": {"en": "recovered", "zh": "恢复比例"},
    "at_sweep_caption": {
        "en": "1 = the patch brings back A's score ({metric}) entirely; 0 = it changes nothing; below 0 it pushes "
              "further towards B. {runs} patched runs in {passes} batched passes, {s} s (kept for this pair).",
        "zh": "1 表示这次修补完全恢复了 A 的得分（{metric}）；0 表示没有任何改变；小于 0 表示更偏向 B。"
              "共 {runs} 次修补运行，分 {passes} 批完成，用时 {s} 秒（结果已为这对文本缓存）。"},
    "at_sweep_resid_rows": {
        "en": "Row L*i*: the stream entering layer *i*; row “final”: the stream leaving the last layer (patching it at "
              "the last position gives exactly A's output there).",
        "zh": "第 L*i* 行：进入第 *i* 层的残差流；“最终”行：离开最后一层的残差流（在最后一个位置修补它，"
              "得到的输出与 A 完全相同）。"},
    "at_pair_texts": {"en": "A: {a} · B: {b}", "zh": "A：{a} · B：{b}"},
    # ---- head detectors ------------------------------------------------------------------------------
    "at_det_previous_token": {"en": "previous token", "zh": "前一个词元"},
    "at_det_duplicate_token": {"en": "duplicate token", "zh": "重复词元"},
    "at_det_induction": {"en": "induction", "zh": "归纳"},
    "at_det_first_token": {"en": "first token (sink)", "zh": "首个词元（汇聚）"},
    "at_det_diagonal": {"en": "diagonal (your offsets)", "zh": "对角线（自选偏移）"},
    "at_det_source": {"en": "Read on", "zh": "打分所用序列"},
    "at_det_source_repeat": {"en": "A random sequence, repeated", "zh": "重复的随机序列"},
    "at_det_source_text": {"en": "Your text", "zh": "你的文本"},
    "at_det_offsets": {"en": "Diagonal offsets", "zh": "对角线偏移"},
    "at_det_offsets_help": {
        "en": "Where the custom detector expects a head to look: d = 1 is the previous token, 2 the one before; "
              "negative offsets look ahead (encoders). Several: 1, 2.",
        "zh": "自定义检测器期望注意力头看向的位置：d = 1 是前一个词元，2 是再前一个；负数表示看后面（未来）的词元（仅编码器）。"
              "可填多个：1, 2。"},
    "at_det_half": {"en": "Tokens per copy", "zh": "每份的词元数"},
    "at_det_half_help": {"en": "A toy model starts at its training length: it may not generalise beyond it.",
                         "zh": "玩具模型默认使用其训练长度：超出这个长度它可能无法泛化。"},
    "at_det_seed": {"en": "Seed", "zh": "随机种子"},
    "at_det_sequence": {"en": "Sequence ({n} tokens, {half} per copy): {seq}",
                        "zh": "序列（{n} 个词元，每份 {half} 个）：{seq}"},
    "at_det_colour": {"en": "Colour by", "zh": "着色依据"},
    "at_det_chance": {
        "en": "Chance level, the score of a head that spreads its attention evenly over the keys it may see: "
              "{chance}. Diagonal offsets: {offsets}. A random model scores near these.",
        "zh": "随机水平（一个把注意力均匀分配给所有可见键的头的得分）：{chance}。对角线偏移：{offsets}。"
              "随机初始化的模型得分接近这些值。"},
    "at_det_open": {"en": "Open L{layer} H{head} in the attention explorer", "zh": "在注意力探查器中打开 L{layer} H{head}"},
    "at_det_open_seq": {"en": "Open L{layer} H{head} on this sequence in the attention explorer",
                        "zh": "在注意力探查器中用这段序列打开 L{layer} H{head}"},
    "at_det_open_help": {"en": "Click a cell or a row to choose the head.", "zh": "点击一个格子或一行来选择注意力头。"},
    # ---- the training lab's chart -------------------------------------------------------------------
    "tr_det_title": {"en": "Head detectors over training", "zh": "训练过程中的注意力头检测"},
    "tr_det_caption": {
        "en": "The best head's score at every snapshot, on a random sequence of the task's symbols repeated twice "
              "(dotted: chance), above the loss. At the end the best induction head is L{layer} H{head} ({score:.2f}).",
        "zh": "每个快照中最佳头的得分（在一段由任务符号组成、重复两次的随机序列上测得；虚线为随机水平），下方是损失。"
              "训练结束时最好的归纳头是 L{layer} H{head}（{score:.2f}）。"},
    # ---- explanations -------------------------------------------------------------------------------
    "at_ex_dla": {
        "en": "**Direct logit attribution.** The final stream is a sum: the embeddings plus everything each head and "
              "each MLP added. The logit of token *t* reads that sum through the final norm and row *t* of the "
              "unembedding W_U, so each piece gets its share. “Direct” means only the path straight to the output: "
              "a head that works by changing what later heads do gets little direct share.",
        "zh": "**直接 logit 归因。** 最终的残差流是一个和：嵌入加上每个注意力头、每个 MLP 写入的内容。词元 *t* 的 logit "
              "是把这个和经过最终归一化，再与反嵌入矩阵 W_U 的第 *t* 行相乘得到的，因此每一部分都有自己的份额。"
              "“直接”指只算直通输出的那条路径：一个通过影响后面各层来起作用的头，直接份额会很小。"},
    "at_ex_frozen": {
        "en": "**Frozen norm.** LayerNorm divides by s, the spread of the stream, which depends on every piece at "
              "once. Fixing s at the value this pass used makes the norm linear, so the shares add up exactly "
              "(RMSNorm: the same without centring; post-LN models: every later norm frozen in turn). DyT has no "
              "divisor, so it has no exact split.",
        "zh": "**固定归一化。** 层归一化要除以 s（残差流的离散程度），而 s 同时取决于所有部分。把 s 固定为本次计算"
              "实际用到的值，归一化就变成了线性运算，各份额于是能精确相加（RMSNorm 相同，只是不减均值；Post-LN 模型"
              "则把之后的每个归一化层依次固定）。DyT 没有除数，因此无法精确拆分。"},
    "at_ex_logit_diff": {
        "en": "**Logit difference.** logit(A) − logit(B) reads the stream along W_U[A] − W_U[B]: what makes the "
              "model prefer A over B, with everything that raises both cancelled out.",
        "zh": "**logit 差。** logit(A) − logit(B) 沿 W_U[A] − W_U[B] 方向读取残差流：它衡量是什么让模型更偏向 A 而不是 B，"
              "同时抬高两者的部分会相互抵消。"},
    "at_ex_head_write": {
        "en": "**What a head writes.** A head's output o = z W_O is a vector added to the stream. Through the frozen "
              "norms and the unembedding it becomes a score per token: its direct effect on every logit.",
        "zh": "**一个头写入了什么。** 头的输出 o = z W_O 是加进残差流的一个向量。经过固定的归一化和反嵌入矩阵，"
              "它变成每个词元的一个分数：即它对每个 logit 的直接影响。"},
    "at_ex_ov": {
        "en": "**OV circuit.** Where a head looks is set by its queries and keys (QK); what it copies is set by its "
              "values and output matrix (OV). v_k W_O is what it writes when all its attention is on key k.",
        "zh": "**OV 回路。** 一个头看向哪里由查询和键决定（QK 回路）；它搬运什么由值和输出矩阵决定（OV 回路）。"
              "v_k W_O 就是它把全部注意力放在键 k 上时写入的内容。"},
    "at_ex_patching": {
        "en": "**Activation patching** (causal tracing). m is the metric, e.g. logit(A's answer) − logit(B's answer) "
              "at the chosen position. A patch that recovers 1 carries everything that distinguishes A from B at "
              "that point; in a decoder, positions before the changed token stay at 0 because nothing there differs.",
        "zh": "**激活修补**（因果追踪）。m 是指标，例如所选位置上 logit(A 的答案) − logit(B 的答案)。恢复比例为 1 的修补，"
              "携带了该处区分 A 与 B 的全部信息；在解码器中，被替换词元之前的位置恒为 0，因为那里没有任何不同。"},
    "at_ex_detectors": {
        "en": "**Head detectors.** Q is the set of queries a detector scores and T(q) the keys it expects; the score "
              "is the attention mass on them, averaged. An induction head (Olsson et al. 2022) finds the earlier "
              "copy of the current token and attends to the token after it, so it can predict what comes next.",
        "zh": "**注意力头检测器。** Q 是检测器打分的查询集合，T(q) 是它期望被关注的键；得分是落在这些键上的注意力之和的"
              "平均值。归纳头（Olsson 等，2022）会找到当前词元更早出现的位置，并关注紧跟其后的词元，从而预测接下来会"
              "出现什么。"},
    # ---- refusals -------------------------------------------------------------------------------------
    "refused_token_empty": {"en": "Type a token.", "zh": "请输入一个词元。"},
    "refused_token_unknown": {"en": "{token} is not in this model's vocabulary.", "zh": "{token} 不在该模型的词表中。"},
    "refused_token_splits": {"en": "{token} is not one token here: it splits into {pieces}. Type one of the pieces.",
                             "zh": "{token} 在这里不是一个词元：它会被切分为 {pieces}。请输入其中一个。"},
    "refused_no_lm_head": {"en": "This model has no language-model head, so there are no logits to attribute.",
                           "zh": "该模型没有语言模型头，因此没有可以归因的 logit。"},
    "refused_no_frozen_scale": {
        "en": "This model normalises with DyT (a tanh, no divisor), so its logit cannot be split exactly into "
              "shares. Activation patching and head detectors still apply.",
        "zh": "该模型用 DyT（tanh，没有除数）做归一化，因此它的 logit 无法被精确拆分成各部分的份额。激活修补和注意力头"
              "检测器仍然适用。"},
    "refused_patching_two_stacks": {
        "en": "Activation patching here compares two texts of a one-stack model (an encoder or a decoder). This "
              "encoder-decoder reads two sequences; direct logit attribution, head writes and detectors apply.",
        "zh": "这里的激活修补比较的是只有编码器或只有解码器的模型的两段文本。这个编码器-解码器模型读取两个序列；"
              "直接 logit 归因、头的写入和注意力头检测器仍然适用。"},
    "refused_lengths_differ": {
        "en": "Text A has {a} tokens and text B has {b}. Patching puts position p of A into position p of B, so both "
              "need the same number of tokens.",
        "zh": "文本 A 有 {a} 个词元，文本 B 有 {b} 个。修补是把 A 的第 p 个位置放进 B 的第 p 个位置，所以两者的词元数必须相同。"},
}

FORMULAS = {
    "at_dla": r"\ell_t=\Big(w\odot\frac{x-\bar{x}}{s}+b\Big)\cdot W_U[t],\quad x=e+p+\sum_{l,h} z_{l,h}W_O^{l,h}"
              r"+\sum_l b_O^l+\sum_l \mathrm{MLP}_l\;\Rightarrow\;\ell_t=\sum_{c}\Big(w\odot\frac{c-\bar{c}}{s}\Big)"
              r"\cdot W_U[t]+b\cdot W_U[t]",
    "at_frozen": r"\mathrm{LN}(x)=w\odot\frac{x-\bar{x}}{s}+b,\qquad s=\sqrt{\mathrm{Var}(x)+\epsilon}\ \text{(fixed)}",
    "at_frozen_zh": r"\mathrm{LN}(x)=w\odot\frac{x-\bar{x}}{s}+b,\qquad s=\sqrt{\mathrm{Var}(x)+\epsilon}\ "
                    r"\text{（固定）}",
    "at_logit_diff": r"\ell_A-\ell_B=\mathrm{LN}(x)\cdot\big(W_U[A]-W_U[B]\big)",
    "at_head_write": r"o=z_h W_O^{h},\qquad \mathrm{effect}_t=\Big(w\odot\frac{o-\bar{o}}{s}\Big)\cdot W_U[t]",
    "at_head_write_zh": r"o=z_h W_O^{h},\qquad \text{效应}_t=\Big(w\odot\frac{o-\bar{o}}{s}\Big)\cdot W_U[t]",
    "at_ov": r"o_k=v_k W_O^{h}=\big(\mathrm{LN}_1(x_k)\,W_V^{h}+b_V^{h}\big)W_O^{h}",
    "at_patching": r"\mathrm{recovered}=\frac{m(B\ \text{with A's activation})-m(B)}{m(A)-m(B)}",
    "at_patching_zh": r"\text{恢复比例}=\frac{m(B\ \text{换入 A 的激活值})-m(B)}{m(A)-m(B)}",
    "at_detectors": r"\mathrm{score}=\frac{1}{|Q|}\sum_{q\in Q}\ \sum_{k\in T(q)} p_{qk}",
    "at_detectors_zh": r"\text{得分}=\frac{1}{|Q|}\sum_{q\in Q}\ \sum_{k\in T(q)} p_{qk}",
}

"""Strings of the beyond-softmax page's long-memory section (Transformer-XL, Infini-attention, LongNet)."""

STRINGS = {
    "bxl_intro": {
        "en": "Three ways to read further back than one window, on the same queries, keys and values.",
        "zh": "三种读取超过一个窗口长度的上文的方法，都作用在同一组查询、键、值上。"},
    "bxl_part": {"en": "Method", "zh": "方法"},
    "bxl_part_xl": {"en": "Transformer-XL", "zh": "Transformer-XL"},
    "bxl_part_infini": {"en": "Infini-attention", "zh": "Infini-attention"},
    "bxl_part_longnet": {"en": "LongNet (dilated)", "zh": "LongNet（空洞注意力）"},
    "bxl_segment": {"en": "Segment length", "zh": "分段长度"},
    "bxl_weights": {"en": "The weights it uses (blank: not read)", "zh": "它使用的权重（空白：不读取）"},
    "bxl_unread": {"en": "not read", "zh": "不读取"},
    # Transformer-XL
    "bxl_xl_intro": {
        "en": "**Transformer-XL** (Dai et al. 2019) cuts the text into segments. While reading a segment, each "
              "position also attends to the **previous segment's** keys and values, kept in a cache that gets no "
              "gradient. One layer therefore reaches one segment further back; a stack of L layers reaches about L "
              "segments back. Positions enter the score as a relative term with four parts. Here the keys and values "
              "of this one layer are cached (the paper caches the hidden states and projects them again in every "
              "layer); u, v and W_R are seeded random, R is the sinusoidal table of the distance i − j.",
        "zh": "**Transformer-XL**（Dai 等，2019）把文本切成若干段。读一段时，每个位置还会关注**上一段**的键和值，"
              "它们保存在一个不回传梯度的缓存中。因此一层可以多看一段；L 层叠起来大约能看到前面 L 段。位置以相对项的形式"
              "进入分数，共四部分。这里缓存的是这一层的键和值（论文缓存的是隐藏状态，并在每一层重新投影）；u、v、W_R "
              "是带种子的随机值，R 是距离 i − j 的正弦表。"},
    "bxl_layers": {"en": "Layers in the stack", "zh": "堆叠的层数"},
    "bxl_query": {"en": "Query position (for the four terms)", "zh": "查询位置（用于四项分解）"},
    "bxl_seed": {"en": "Seed of u, v, W_R", "zh": "u、v、W_R 的随机种子"},
    "bxl_one_segment": {
        "en": "The segment ({segment}) is at least as long as the text ({n} positions): there is one segment and "
              "no cache, so this is plain causal attention with the relative bias.",
        "zh": "分段长度（{segment}）不小于文本长度（{n} 个位置）：只有一段，没有缓存，因此这就是带相对位置偏置的普通因果注意力。"},
    "bxl_xl_plain": {"en": "max |XL − plain attention|", "zh": "最大 |XL − 普通注意力|"},
    "bxl_xl_segments": {"en": "Segments: **{k}** of {segment} positions; each query reads its own segment so far and "
                                "the one before it.",
                        "zh": "分段数：**{k}**，每段 {segment} 个位置；每个查询读取本段到自己为止的部分以及上一段。"},
    "bxl_terms_title": {"en": "The four terms of query {q}'s scores, key by key",
                        "zh": "查询 {q} 的分数的四项，逐个键展开"},
    "bxl_term_a": {"en": "(a) content–content q·k", "zh": "(a) 内容–内容 q·k"},
    "bxl_term_b": {"en": "(b) content–position q·W_R R", "zh": "(b) 内容–位置 q·W_R R"},
    "bxl_term_c": {"en": "(c) global content bias u·k", "zh": "(c) 全局内容偏置 u·k"},
    "bxl_term_d": {"en": "(d) global position bias v·W_R R", "zh": "(d) 全局位置偏置 v·W_R R"},
    "bxl_term_sum": {"en": "sum", "zh": "总和"},
    "bxl_score": {"en": "score term", "zh": "分数项"},
    "bxl_reach_title": {"en": "Positions the last token reaches, by the number of layers (segments of {segment}, "
                                  "counted on a text of {n} positions: longer than yours when needed, so the growth shows)",
                        "zh": "最后一个词元能到达的位置数随层数的变化（每段 {segment} 个位置；按 {n} 个位置的文本计算，"
                              "必要时比你的文本更长，以便看出增长）"},
    "bxl_with": {"en": "with the cache (XL)", "zh": "有缓存（XL）"},
    "bxl_without": {"en": "segments read alone", "zh": "各段单独读取"},
    "bxl_reached": {"en": "positions reached", "zh": "到达的位置数"},
    "bxl_layers_axis": {"en": "layers", "zh": "层数"},
    # Infini-attention
    "bxl_infini_intro": {
        "en": "**Infini-attention** (Munkhdalai et al. 2024) reads each segment with ordinary softmax attention and, "
              "besides, a **compressive memory** of every earlier segment: a d×dv matrix M and a d-vector z, updated "
              "after each segment by M ← M + σ(K)ᵀV and z ← z + Σσ(K) (σ = ELU + 1), read by σ(Q)M / σ(Q)z — "
              "linear attention over all the earlier segments. A gate g = sigmoid(β) (learned per head in the paper, "
              "a slider here) mixes the two. The first segment finds the memory empty and reads nothing from it.",
        "zh": "**Infini-attention**（Munkhdalai 等，2024）在每一段内用普通的 softmax 注意力读取，另外还有一个记录此前所有段的"
              "**压缩记忆**：一个 d×dv 的矩阵 M 和一个 d 维向量 z，每段结束后更新 M ← M + σ(K)ᵀV、z ← z + Σσ(K)"
              "（σ = ELU + 1），用 σ(Q)M / σ(Q)z 读取——相当于对此前所有段做线性注意力。门控 g = sigmoid(β)（论文中每个头"
              "学习得到，这里用滑块设定）把两者混合。第一段时记忆为空，从中读不到任何内容。"},
    "bxl_beta": {"en": "Gate β (g = sigmoid(β) is the memory's share)", "zh": "门控 β（g = sigmoid(β) 是记忆所占的比例）"},
    "bxl_gate": {"en": "memory share g", "zh": "记忆比例 g"},
    "bxl_mem_err": {"en": "max |M − Σ over segments σ(K)ᵀV|", "zh": "最大 |M − 各段 σ(K)ᵀV 之和|"},
    "bxl_memory": {"en": "The memory M after the last segment", "zh": "最后一段之后的记忆 M"},
    "bxl_bytes_title": {"en": "Bytes held by one head against the text's length (float32)",
                        "zh": "一个头所占的字节数随文本长度的变化（float32）"},
    "bxl_bytes_mem": {"en": "Infini memory M + z", "zh": "Infini 记忆 M + z"},
    "bxl_bytes_kv": {"en": "KV cache", "zh": "KV 缓存"},
    "bxl_bytes": {"en": "bytes", "zh": "字节"},
    "bxl_length": {"en": "text length n", "zh": "文本长度 n"},
    "bxl_mem_size": {"en": "The memory holds {d} × {dv} + {d} = **{numbers:,}** numbers however long the text; a KV "
                               "cache of these {n} positions holds **{kv:,}**.",
                     "zh": "无论文本多长，记忆都只有 {d} × {dv} + {d} = **{numbers:,}** 个数；这 {n} 个位置的 KV 缓存有 "
                           "**{kv:,}** 个。"},
    # LongNet
    "bxl_longnet_intro": {
        "en": "**LongNet's dilated attention** (Ding et al. 2023): a pattern (w, r) cuts the text into segments of w "
              "positions and keeps every r-th position of each; the kept positions attend to each other. Several "
              "patterns — short and dense, long and sparse — are computed separately and mixed, each weighted by its "
              "softmax denominator, which is one softmax over their keys together. The work per query stays about "
              "Σ w/r² instead of n. (Causal here; the paper also shifts the kept offsets from head to head.)",
        "zh": "**LongNet 的空洞注意力**（Ding 等，2023）：一个模式 (w, r) 把文本切成长度为 w 的段，每段中每隔 r 个位置保留一个；"
              "保留下来的位置彼此关注。多个模式——短而密的、长而疏的——分别计算后再混合，每个模式按它的 softmax 分母加权，"
              "这相当于在它们的键上合起来做一次 softmax。每个查询的计算量约为 Σ w/r²，而不是 n。"
              "（这里是因果的；论文还会在不同的头之间错开保留位置的偏移。）"},
    "bxl_pairs": {"en": "Pairs segment:dilation", "zh": "段长与空洞率组合 w:r"},
    "bxl_pairs_help": {"en": "Comma-separated w:r pairs, e.g. 4:1, 8:2, 16:4 (at most 8).",
                       "zh": "用逗号分隔的 w:r 对，例如 4:1, 8:2, 16:4（最多 8 对）。"},
    "bxl_too_long": {"en": "Segment {pairs} is longer than the text ({n} positions): it acts as one segment of {n}.",
                     "zh": "段长 {pairs} 超过了文本长度（{n} 个位置）：它相当于一个长度为 {n} 的段。"},
    "bxl_uncovered": {"en": "No pattern reads anything for position(s) {positions}: their output is zero. Add a pair "
                                "with dilation 1 (e.g. 4:1) to cover every position.",
                      "zh": "没有任何模式为位置 {positions} 读取内容：它们的输出为零。加入一个空洞率为 1 的对（例如 4:1），"
                            "即可覆盖每个位置。"},
    "bxl_pattern": {"en": "The mixed pattern: who reads whom, coloured by the first pair that holds the cell",
                    "zh": "混合后的模式：谁读取谁，按包含该格的第一个对着色"},
    "bxl_mix_err": {"en": "max |one softmax − mix of the patterns|", "zh": "最大 |一次 softmax − 各模式混合|"},
    "bxl_keys_note": {
        "en": "With a fixed list of pairs the keys per query do not grow with n at all. LongNet lets the pairs grow with "
              "the text (segments w₀, 2w₀, 4w₀, … up to n with dilations 1, 2, 4, …): each adds about w/r² keys, a "
              "shrinking sum, so the work stays linear in n while the longest pattern spans the whole text.",
        "zh": "当对的列表固定时，每个查询的键数完全不随 n 增长。LongNet 让这些对随文本增长（段长 w₀, 2w₀, 4w₀, …，直到 n，"
              "空洞率 1, 2, 4, …）：每个模式增加约 w/r² 个键，这是一个递减的和，因此计算量仍与 n 成线性，而最长的模式覆盖整段文本。"},
    "bxl_keys_title": {"en": "Keys per query against the text's length", "zh": "每个查询的键数随文本长度的变化"},
    "bxl_keys": {"en": "keys per query", "zh": "每个查询的键数"},
    "bxl_dense": {"en": "dense causal attention", "zh": "稠密因果注意力"},
    "bxl_mix": {"en": "dilated mix {pairs}", "zh": "空洞混合 {pairs}"},
}

FORMULAS = {
    "bxl_xl": r"A^{\mathrm{rel}}_{ij} = \underbrace{q_i^\top k_j}_{(a)} + \underbrace{q_i^\top W_R R_{i-j}}_{(b)}"
              r" + \underbrace{u^\top k_j}_{(c)} + \underbrace{v^\top W_R R_{i-j}}_{(d)},\quad"
              r"\tilde K_\tau = [\,\mathrm{SG}(K_{\tau-1}) \circ K_\tau\,]",
    "bxl_infini": r"M_s = M_{s-1} + \sigma(K_s)^\top V_s,\ \ z_s = z_{s-1} + \textstyle\sum_t \sigma(k_t),\ \ "
                  r"A_{\mathrm{mem}} = \frac{\sigma(Q_s) M_{s-1}}{\sigma(Q_s) z_{s-1}},\ \ "
                  r"O = g\,A_{\mathrm{mem}} + (1-g)\,A_{\mathrm{dot}}",
    "bxl_longnet": r"O = \frac{\sum_p s_p\, O_p}{\sum_p s_p},\quad s_p = \sum_{j \in \mathcal{K}_p(i)} e^{q_i\cdot k_j/\sqrt d}",
}

"""Strings of the masks lab (compose, gallery, padding, cost, receptive field, without softmax)."""

STRINGS = {
    "mk_title": {"en": "Masks and attention variants", "zh": "掩码与注意力变体"},
    "mk_intro": {
        "en": "A mask decides which keys each query may look at. Compose one from the patterns of the literature, "
              "see what it costs, apply it to the selected model (the model itself computes with it) and compare "
              "softmax attention with attention that has no softmax.",
        "zh": "掩码决定每个查询可以看哪些键。你可以用文献中的各种模式组合出一个掩码，查看它的计算代价，把它应用到所选模型上"
              "（由模型本身用它计算），并把 softmax 注意力与不用 softmax 的注意力作比较。"},
    "mk_truncated": {"en": "The masks lab works on the first {kept} tokens of your text ({n} in all): larger masks "
                           "cannot be read cell by cell.",
                     "zh": "掩码实验只使用文本的前 {kept} 个词元（共 {n} 个）：更大的掩码无法逐格阅读。"},
    "mk_tab_compose": {"en": "Compose & apply", "zh": "组合与应用"},
    "mk_tab_gallery": {"en": "Gallery", "zh": "图库"},
    "mk_tab_padding": {"en": "Padding (a batch)", "zh": "填充（批处理）"},
    "mk_tab_cost": {"en": "Cost", "zh": "计算代价"},
    "mk_tab_reach": {"en": "Receptive field", "zh": "感受野"},
    "mk_tab_variants": {"en": "Without softmax", "zh": "不用 softmax"},
    "mk_parts": {"en": "Patterns to combine (AND: a pair is allowed only if every pattern allows it)",
                 "zh": "要组合的模式（与运算：只有所有模式都允许时，一对位置才被允许）"},
    "mk_kind_full": {"en": "Full (everything)", "zh": "全注意力（全部可见）"},
    "mk_kind_causal": {"en": "Causal (decoder)", "zh": "因果（解码器）"},
    "mk_kind_local": {"en": "Local window", "zh": "局部窗口"},
    "mk_kind_dilated": {"en": "Dilated (atrous)", "zh": "空洞"},
    "mk_kind_strided": {"en": "Strided (Sparse Transformer)", "zh": "跨步（Sparse Transformer）"},
    "mk_kind_longformer": {"en": "Longformer (window + global)", "zh": "Longformer（窗口 + 全局）"},
    "mk_kind_bigbird": {"en": "BigBird (window + global + random)", "zh": "BigBird（窗口 + 全局 + 随机）"},
    "mk_kind_prefix": {"en": "Prefix-LM", "zh": "前缀语言模型"},
    "mk_kind_xlnet_content": {"en": "XLNet content stream", "zh": "XLNet 内容流"},
    "mk_kind_xlnet_query": {"en": "XLNet query stream", "zh": "XLNet 查询流"},
    "mk_window": {"en": "Window (keys on each side)", "zh": "窗口（每侧的键数）"},
    "mk_dilation": {"en": "Dilation (gap between keys)", "zh": "空洞率（键之间的间隔）"},
    "mk_dilated_window": {"en": "Dilated reach in steps (0 = no limit)", "zh": "空洞模式的覆盖范围（步数，0 = 不限）"},
    "mk_stride": {"en": "Stride", "zh": "步长"},
    "mk_global": {"en": "Global tokens", "zh": "全局词元"},
    "mk_random": {"en": "Random keys per query", "zh": "每个查询的随机键数"},
    "mk_seed": {"en": "Random seed", "zh": "随机种子"},
    "mk_prefix_len": {"en": "Prefix length", "zh": "前缀长度"},
    "mk_order": {"en": "XLNet factorisation order (a permutation of 0…{last})",
                 "zh": "XLNet 分解顺序（0…{last} 的一个排列）"},
    "mk_order_shuffle": {"en": "Random order", "zh": "随机顺序"},
    "mk_order_bad": {"en": "This order cannot be used: {error} The XLNet pattern is left out until it is fixed.",
                     "zh": "无法使用这个顺序：{error} 在改正之前，XLNet 模式不参与组合。"},
    "mk_none": {"en": "No pattern chosen: full attention (every query sees every key).",
                "zh": "未选择任何模式：全注意力（全部可见，每个查询都能看到所有键）。"},
    "mk_composed": {"en": "Composed mask", "zh": "组合后的掩码"},
    "mk_stats": {"en": "Density {density:.0%} · {pairs} of {total} pairs · each query sees {lo}–{hi} keys",
                 "zh": "密度 {density:.0%} · {total} 对中允许 {pairs} 对 · 每个查询看到 {lo}–{hi} 个键"},
    "mk_per_query": {"en": "Keys each query may attend to", "zh": "每个查询可以关注的键数"},
    "mk_empty": {
        "en": "Query position(s) {rows} may attend to nothing (red rows). Softmax over a row where every score is "
              "−∞ is 0/0, which is NaN, and a NaN spreads through every later layer. So, when the mask is applied, "
              "such a query attends to **itself only** (weight 1 on its own value); nothing else changes. (XLNet's "
              "query stream has one such row by design: the first position of the order predicts its token from "
              "memory, which this model has none of.)",
        "zh": "查询位置 {rows} 没有任何可关注的键（红色行）。若一行的分数全是 −∞，softmax 就是 0/0，即 NaN，而 NaN 会"
              "传播到之后的每一层。因此应用掩码时，这样的查询**只关注自己**（对自身的值赋予权重 1），其他都不变。（XLNet 的"
              "查询流按设计就有这样一行：顺序中的第一个位置要靠记忆来预测自己的词元，而这个模型没有记忆。）"},
    "mk_apply": {"en": "Applied to {model}", "zh": "应用到 {model}"},
    "mk_apply_how": {
        "en": "A hook replaces every layer's `hook_mask` with this mask (`run_with_hooks`), so the model's own code "
              "computes the masked scores and the softmax. Below: one layer and head, step by step.",
        "zh": "一个钩子把每一层的 `hook_mask` 换成这个掩码（`run_with_hooks`），因此掩码后的分数和 softmax 都由模型自己的"
              "代码计算。下面逐步展示某一层的某一个头。"},
    "mk_same_as_trained": {"en": "This is the pattern the model uses on its own.",
                           "zh": "这正是模型自己使用的模式。"},
    "mk_differs": {"en": "This pattern differs from the one the model was trained with ({trained}): {n} of {total} "
                         "pairs changed. Its attention will be unlike anything it saw in training.",
                   "zh": "这个模式与模型训练时使用的模式（{trained}）不同：{total} 对中有 {n} 对改变了。它的注意力将与训练中"
                         "见过的都不一样。"},
    "mk_sees_future": {"en": "This decoder was trained never to look ahead; this mask lets {n} pairs see later tokens.",
                       "zh": "这个解码器训练时从不看后面（未来）的词元；这个掩码让 {n} 对位置看到了未来的词元。"},
    "mk_layer_head": {"en": "Layer {layer}, head {head} (the sliders above).", "zh": "第 {layer} 层，第 {head} 个头（见上方滑块）。"},
    "mk_stack": {"en": "Self-attention of", "zh": "查看哪部分的自注意力"},
    "mk_layer": {"en": "Layer", "zh": "层"},
    "mk_head": {"en": "Head", "zh": "头"},
    "mk_step_scores": {"en": "1. Scores q·k/√d (+ position bias)", "zh": "1. 分数 q·k/√d（+ 位置偏置）"},
    "mk_step_masked": {"en": "2. Masked scores (−∞ where masked)", "zh": "2. 掩码后的分数（被掩码处为 −∞）"},
    "mk_step_softmax": {"en": "3. Softmax (e^−∞ = 0)", "zh": "3. Softmax（e^−∞ = 0）"},
    "mk_step_output": {"en": "4. Output: how much each position's layer output moved",
                       "zh": "4. 输出：每个位置的层输出改变了多少"},
    "mk_output_caption": {
        "en": "‖attn_out(with this mask) − attn_out(the model's own mask)‖ per position and layer (the model's "
              "`hook_attn_out`). Later layers also change because their inputs changed.",
        "zh": "每个位置、每一层的 ‖注意力输出（用此掩码）− 注意力输出（模型自己的掩码）‖（模型的 `hook_attn_out`）。"
              "后面的层也会变，因为它们的输入变了。"},
    "mk_rows_ok": {"en": "Every row of the softmax sums to 1 (largest deviation {dev:.1e}); masked cells are exactly 0.",
                   "zh": "softmax 的每一行之和为 1（最大偏差 {dev:.1e}）；被掩码的格子严格为 0。"},
    "mk_gallery_caption": {"en": "Each pattern on your first {n} tokens, with the parameters set in the composer.",
                           "zh": "每种模式作用于你的前 {n} 个词元，参数取自组合器中的设置。"},
    "mk_ex_kinds": {
        "en": "**Causal**: a decoder never looks at later (future) tokens. **Local**: a window of keys on each side of the "
              "token (window 2: ±2 tokens per side, 5 keys with the token itself; Longformer's base). "
              "**Dilated**: keys with gaps, so a few layers reach far (LongNet mixes several dilations). "
              "**Strided** (Child et al. 2019): a local block plus every stride-th token. **Longformer**: window plus "
              "global tokens that see and are seen by all. **BigBird**: Longformer plus a few random keys per query "
              "(seeded, so the same seed gives the same mask). **Prefix-LM** (T5): the prefix is read both ways, the "
              "rest is causal. **XLNet**: pick a factorisation order; the content stream sees positions up to itself "
              "in that order, the query stream only strictly earlier ones.",
        "zh": "**因果**：解码器从不看后面（未来）的词元。**局部**：每个词元两侧各取若干个键（窗口为 2 时每侧 2 个词元，连同自身共 5 个；Longformer 的基础）。**空洞**：隔着间隙取键，"
              "几层之后就能看得很远（LongNet 混合多种空洞率）。**跨步**（Child 等，2019）：一个局部块，外加按步长等间隔选取的"
              "键。**Longformer**：窗口加上全局词元，全局词元能看到所有位置，也被所有位置看到。**BigBird**：Longformer "
              "再给每个查询加几个随机键（有种子，同一种子得到同一掩码）。**前缀语言模型**（T5）：前缀双向读取，其余部分是因果的。"
              "**XLNet**：选一个分解顺序；内容流能看到顺序中不晚于自己的位置，查询流只能看到严格更早的位置。"},
    "mk_padding_intro": {
        "en": "A batch holds texts of different lengths, so the shorter one is filled with [PAD] tokens. The padding "
              "mask hides those keys from every query. Both texts go through the model in one batch here; the "
              "masks and weights below are what it recorded.",
        "zh": "一个批次里的文本长短不一，较短的文本用 [PAD] 词元补齐。填充掩码让所有查询都看不到这些键。这里两段文本作为"
              "一个批次一起送入模型；下面的掩码和权重都是模型记录下来的。"},
    "mk_padding_encdec": {"en": "This view runs single-stack models (encoder or decoder); pick one in the sidebar.",
                          "zh": "这个视图只运行单一结构的模型（只有编码器或只有解码器）；请在侧边栏中选择一个。"},
    "mk_text2": {"en": "Second text of the batch", "zh": "批次中的第二段文本"},
    "mk_text2_default": {"en": "A shorter one.", "zh": "A shorter one."},
    "mk_row": {"en": "Text {i}: {n} tokens + {pad} padding", "zh": "文本 {i}：{n} 个词元 + {pad} 个填充"},
    "mk_row_mask": {"en": "Mask of text {i} (layer {layer})", "zh": "文本 {i} 的掩码（第 {layer} 层）"},
    "mk_row_pattern": {"en": "Attention of text {i}, layer {layer}, head {head}",
                       "zh": "文本 {i} 的注意力，第 {layer} 层，第 {head} 个头"},
    "mk_pad_weights": {"en": "Weight on padding keys: {w:.1e} (exactly zero: e^−∞ = 0).",
                       "zh": "填充键上的权重：{w:.1e}（严格为零：e^−∞ = 0）。"},
    "mk_pad_queries": {"en": "Padding queries keep the unpadded row so that they are never empty; their outputs are "
                             "ignored.",
                       "zh": "填充位置的查询保留未填充时的行，因此永远不会是空行；它们的输出会被忽略。"},
    "mk_empty_text2": {"en": "Type a second text to build a batch.", "zh": "请输入第二段文本以组成一个批次。"},
    "mk_cost_intro": {
        "en": "Attention stores and computes one score per allowed (query, key) pair. Full attention has n² of them; "
              "a sparse pattern grows about linearly. Each line rebuilds the pattern at that length with the same "
              "parameters.",
        "zh": "注意力对每一对被允许的（查询，键）都要存储并计算一个分数。全注意力有 n² 对；稀疏模式大约线性增长。"
              "每条曲线都在该长度下用相同参数重新构建模式。"},
    "mk_cost_full": {"en": "full (n²)", "zh": "全注意力（n²）"},
    "mk_cost_composed": {"en": "composed mask", "zh": "组合后的掩码"},
    "mk_cost_table_n": {"en": "length n", "zh": "长度 n"},
    "mk_reach_intro": {
        "en": "After one layer a token holds information from the keys it attended to; after two layers, from their "
              "keys too. Count the layers a sparse pattern needs until every token can reach every input: a local "
              "window alone grows by the window each layer, while local + strided (the Sparse Transformer) reaches "
              "everything in two.",
        "zh": "一层之后，一个词元包含了它所关注的键的信息；两层之后，还包含这些键所关注的键的信息。数一数稀疏模式需要多少层"
              "才能让每个词元都触及所有输入：单独的局部窗口每层只扩大一个窗口宽度，而局部 + 跨步（Sparse Transformer）两层"
              "就能覆盖全部。"},
    "mk_reach_layers": {"en": "Layers", "zh": "层数"},
    "mk_reach_map": {"en": "Which inputs (columns) reach each position (rows) after {l} layer(s)",
                     "zh": "经过 {l} 层后，每个位置（行）能触及哪些输入（列）"},
    "mk_reach_closure": {"en": "After {l} layer(s) every position reaches every input this pattern can ever connect "
                               "it to.",
                         "zh": "经过 {l} 层后，每个位置都能触及这个模式最终能连到的所有输入。"},
    "mk_reach_more": {"en": "This pattern needs {l} layers before every position reaches every input it can ever "
                            "connect to.",
                      "zh": "这个模式需要 {l} 层，每个位置才能触及它最终能连到的所有输入。"},
    "mk_reach_compare": {"en": "Causal patterns on your {n} tokens: layers until nothing new is reached, and whether "
                               "every token then reaches all earlier ones",
                         "zh": "在你的 {n} 个词元上的因果模式：直到不再触及新输入所需的层数，以及此时每个词元是否能触及所有"
                               "更早的词元"},
    "mk_reach_local": {"en": "local window {w}", "zh": "局部窗口 {w}"},
    "mk_reach_strided": {"en": "strided {s} (local block + every {s}-th, ≈√n)",
                         "zh": "跨步 {s}（局部块 + 每隔 {s} 个，≈√n）"},
    "mk_reach_dilated": {"en": "dilated {s} (every {s}-th key only)", "zh": "空洞 {s}（每 {s} 个键取一个）"},
    "mk_reach_col_pattern": {"en": "pattern (& causal)", "zh": "模式（与因果掩码取交集）"},
    "mk_reach_col_all": {"en": "reaches every earlier token", "zh": "能触及所有更早的词元"},
    "mk_yes": {"en": "yes", "zh": "是"},
    "mk_no": {"en": "no", "zh": "否"},
    "mk_reach_col_pairs": {"en": "attended pairs", "zh": "关注的位置对数"},
    "mk_reach_col_layers": {"en": "layers needed", "zh": "所需层数"},
    "mk_variants_intro": {
        "en": "The same q, k, v of one head of the model (its own mask), three ways. **Softmax** attention "
              "normalises exp(q·k/√d). **Linear attention** (Katharopoulos et al. 2020) replaces exp by a feature "
              "map φ(x) = elu(x)+1, so Σ φ(k) vᵀ is computed once: cost O(n) instead of O(n²). **Retention** "
              "(RetNet, Sun et al. 2023) drops the normalisation and multiplies q·k by a causal decay D = γ^(i−j): "
              "the same result as an RNN with a fixed-size state.",
        "zh": "同一个头的同一组 q、k、v（使用模型自己的掩码），三种算法。**Softmax** 注意力对 exp(q·k/√d) 做归一化。"
              "**线性注意力**（Katharopoulos 等，2020）用特征映射 φ(x) = elu(x)+1 代替 exp，于是 Σ φ(k) vᵀ 只需算一次："
              "计算量是 O(n) 而不是 O(n²)。**保留机制**（Retention，RetNet，Sun 等，2023）去掉归一化，把 q·k 乘以因果衰减 "
              "D = γ^(i−j)：结果与一个状态大小固定的 RNN 相同。"},
    "mk_linear_causal": {"en": "Causal (a decoder)", "zh": "因果（解码器）"},
    "mk_gamma": {"en": "Retention decay γ", "zh": "保留机制的衰减 γ"},
    "mk_v_softmax": {"en": "Softmax weights", "zh": "Softmax 权重"},
    "mk_v_linear": {"en": "Linear attention weights", "zh": "线性注意力权重"},
    "mk_v_retention": {"en": "Retention: q·k ⊙ γ^(i−j) (unnormalised, may be negative)",
                       "zh": "保留机制：q·k ⊙ γ^(i−j)（未归一化，可以为负）"},
    "mk_v_similarity": {"en": "Cosine similarity of each output with the softmax output, per position",
                        "zh": "每个位置上各输出与 softmax 输出的余弦相似度"},
    "mk_v_col_pos": {"en": "position", "zh": "位置"},
    "mk_v_col_linear": {"en": "linear vs softmax", "zh": "线性 vs softmax"},
    "mk_v_col_retention": {"en": "retention vs softmax", "zh": "保留机制与 softmax 对比"},
    "mk_v_recurrent": {"en": "Retention computed as an RNN (state {d}×{d}) equals the parallel form: max difference "
                             "{err:.1e}.",
                       "zh": "把保留机制当作 RNN 计算（状态 {d}×{d}）与并行形式一致：最大差值 {err:.1e}。"},
    "mk_encdec_decoder_note": {"en": "The decoder stack reads the decoder input (the target text).",
                               "zh": "解码器部分读取的是解码器输入（目标文本）。"},
    "mk_term_allowed": {"en": "may attend", "zh": "可关注"},
    "mk_term_blocked": {"en": "masked", "zh": "被掩码"},
    "mk_term_empty": {"en": "nothing to attend to", "zh": "无可关注之处"},
    "mk_term_length": {"en": "sequence length n", "zh": "序列长度 n"},
    "mk_term_pairs": {"en": "attended pairs", "zh": "关注的位置对数"},
    "mk_term_keys": {"en": "keys it may attend to", "zh": "可关注的键数"},
    "mk_term_layers": {"en": "layers", "zh": "层数"},
    "mk_term_reached": {"en": "pairs connected", "zh": "已连通的位置对"},
    "mk_term_change": {"en": "change", "zh": "变化量"},
    "mk_term_fewest": {"en": "min", "zh": "最少"},
    "mk_term_position": {"en": "position", "zh": "位置"},
    # ---- notes: what the course notes say, and what this page computes (issue 36, item 8) ----
    "mk_mis_add_common": {"en": "“To combine a padding mask and a causal mask, add them.”",
                          "zh": "“要组合填充掩码和因果掩码，把它们相加即可。”"},
    "mk_mis_add_shown": {
        "en": "A sum counts a pair that both masks block twice: with {a} and {b} on these {n} tokens, {two} pairs add "
              "up to 2, so the sum must be turned back into yes/no before it is a mask. The rule is AND of “may "
              "attend” (OR of “masked”): a pair is allowed only if every pattern allows it, {allowed} of {total} "
              "pairs here.",
        "zh": "相加会把两个掩码都屏蔽的位置对算两次：在这 {n} 个词元上组合{a}和{b}，有 {two} 个位置对的和为 2，所以必须先把和"
              "变回“是/否”才能当掩码用。正确的规则是对“可以关注”取与（对“被掩码”取或）：只有每个模式都允许时，一个位置对才被允许，"
              "这里是 {total} 个位置对中的 {allowed} 个。"},
    "mk_mis_cost_common": {"en": "“Attention's memory grows four times as the input grows.”",
                           "zh": "“输入变长时，注意力的内存增长四倍。”"},
    "mk_mis_cost_shown": {
        "en": "It grows with the square of the length: from n = {n1:,} to {n2:,} the full pairs go from {p1:,} to "
              "{p2:,}, ×{r:g}. Four times is what doubling n gives; tripling it gives nine.",
        "zh": "它随长度的平方增长：n 从 {n1:,} 变为 {n2:,} 时，全注意力的位置对从 {p1:,} 增加到 {p2:,}，是原来的 {r:g} 倍。"
              "四倍只是 n 翻倍时的结果；n 变为三倍时是九倍。"},
    "mk_mis_sparse_common": {"en": "“Sparse self-attention was introduced in the Image Transformer.”",
                             "zh": "“稀疏自注意力是在图像 Transformer 中提出的。”"},
    "mk_mis_sparse_shown": {
        "en": "The strided and fixed patterns are from Child et al. 2019, *Generating Long Sequences with Sparse "
              "Transformers*; the Image Transformer (Parmar et al. 2018) restricted attention to a local "
              "neighbourhood of the image. The strided pattern above keeps {pairs:,} of the {total:,} pairs on "
              "{n} tokens.",
        "zh": "跨步模式和固定模式出自 Child 等 2019 年的论文《用稀疏 Transformer 生成长序列》；更早的图像 Transformer"
              "（2018）是把注意力限制在图像的局部邻域内。上面的跨步模式在 {n} 个词元上保留了 {total:,} "
              "个位置对中的 {pairs:,} 个。"},
    "mk_mis_convention_common": {
        "en": "“`False` marks the positions to mask” (while the code beside it, `seq_k.eq(0)`, is `True` at [PAD]).",
        "zh": "“`False` 表示要掩码的位置”（而旁边的代码 `seq_k.eq(0)` 在 [PAD] 处为 `True`）。"},
    "mk_mis_convention_shown": {
        "en": "Either convention works if it is said once and kept. This app's masks are `True` where a query may "
              "attend: text {i}'s mask above is `False` at its {pad} [PAD] keys, and the weight there is {w:.1e}.",
        "zh": "两种约定都可以，只要说清楚并始终如一。本应用的掩码在查询可以关注的位置为 `True`：上面第 {i} 段文本的掩码在它的 "
              "{pad} 个 [PAD] 键上为 `False`，那里的权重为 {w:.1e}。"},
    "mk_mis_xlnet_common": {
        "en": "“XLNet picks i − 1 random words as the context of word i; how much a word sees depends on where it "
              "sits in the sentence.”",
        "zh": "“XLNet 随机选 i − 1 个词作为第 i 个词的上下文；一个词能看到多少取决于它在句子中的位置。”"},
    "mk_mis_xlnet_shown": {
        "en": "What a token sees is set by its rank in the factorisation order, not by its place in the sentence: "
              "in the order typed above, position {first} comes first and sees {seen_first} position(s) in the "
              "content stream, position {last} comes last and sees {seen_last}.",
        "zh": "一个词元能看到什么，由它在分解顺序中的名次决定，而不是由它在句子中的位置决定：按上面输入的顺序，位置 {first} "
              "排第一，在内容流中看到 {seen_first} 个位置；位置 {last} 排最后，看到 {seen_last} 个。"},
}

FORMULAS = {
    "mk_masked_softmax": r"p_{qk}=\frac{e^{s_{qk}}}{\sum_{k'\,\text{allowed}}e^{s_{qk'}}},\qquad "
                         r"s_{qk}=-\infty\ \Rightarrow\ p_{qk}=0",
    "mk_masked_softmax_zh": r"p_{qk}=\frac{e^{s_{qk}}}{\sum_{k'\,\text{允许}}e^{s_{qk'}}},\qquad "
                            r"s_{qk}=-\infty\ \Rightarrow\ p_{qk}=0",
    "mk_reach": r"R_1=A\lor I,\qquad R_\ell=(A\lor I)\,R_{\ell-1}",
    "mk_linear": r"o_i=\frac{\phi(q_i)^\top\sum_j\phi(k_j)v_j^\top}{\phi(q_i)^\top\sum_j\phi(k_j)},\quad "
                 r"\phi(x)=\mathrm{elu}(x)+1",
    "mk_retention": r"\mathrm{Retention}(X)=(QK^\top\odot D)\,V,\quad D_{ij}=\begin{cases}\gamma^{i-j}&i\ge j\\0&i<j"
                    r"\end{cases};\qquad S_n=\gamma S_{n-1}+k_n^\top v_n,\ o_n=q_nS_n",
}

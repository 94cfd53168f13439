"""Strings of the Q/K/V walk-through page."""

STRINGS = {
    "wt_title": {"en": "Q/K/V walk-through", "zh": "Q/K/V 逐步演算"},
    "wt_intro": {
        "en": "Follow one head of one layer, for one query token, from the numbers that enter attention to the "
              "numbers that leave it. Everything is recomputed here from the layer's weights and checked against "
              "the model's own recording.",
        "zh": "跟随某一层的某一个头，针对一个查询词元，从进入注意力的数字一直算到离开注意力的数字。所有数字都在这里用该层的"
              "权重重新计算，并与模型自己记录的结果核对。"},
    "wt_stack": {"en": "Attention", "zh": "注意力"},
    "wt_cross": {"en": "Cross-attention: the decoder's tokens ask (queries), the encoder's output answers (keys and "
                       "values); no position bias and no causal mask, only the source's padding.",
                 "zh": "交叉注意力：解码器的词元提问（查询），编码器的输出作答（键和值）；没有位置偏置，也没有因果掩码，"
                       "只对源序列的填充做掩码。"},
    "wt_layer": {"en": "Layer", "zh": "层"},
    "wt_head": {"en": "Head", "zh": "头"},
    "wt_query": {"en": "Query token", "zh": "查询词元"},
    "wt_key": {"en": "Key token for the neuron view", "zh": "神经元视图中的键词元"},
    "wt_qkv": {"en": "1. Q, K and V of head {head}", "zh": "1. 第 {head} 个头的 Q、K、V"},
    "wt_qkv_text": {
        "en": "Every token's vector x (the attention input: {input}) is multiplied by this head's W_Q, W_K and W_V "
              "(plus biases): one row per token, {dh} columns (d_head).",
        "zh": "每个词元的向量 x（注意力的输入：{input}）分别乘以这个头的 W_Q、W_K、W_V（加上偏置）：每个词元一行，"
              "共 {dh} 列（d_head）。"},
    "wt_input_pre": {"en": "the output of ln1 (pre-LN)", "zh": "ln1 的输出（Pre-LN）"},
    "wt_input_post": {"en": "the residual stream itself (post-LN)", "zh": "残差流本身（Post-LN）"},
    "wt_input_sandwich": {"en": "the output of ln1 (sandwich norm: another norm follows the attention)",
                          "zh": "ln1 的输出（夹心式归一化：注意力之后还有一个归一化）"},
    "wt_input_output": {"en": "the residual stream itself (the norm sits on the attention's output)",
                        "zh": "残差流本身（归一化作用在注意力的输出上）"},
    "wt_input_no_norm": {"en": "the residual stream itself (block 0 has no norm before its attention)",
                         "zh": "残差流本身（第 0 块的注意力之前没有归一化）"},
    "wt_qk_norm": {"en": "Q and K then go through the model's own norm ({how}) before RoPE and the dot product.",
                   "zh": "Q 和 K 接着经过模型自己的归一化（{how}），然后才做 RoPE 和点积。"},
    "wt_qk_norm_head": {"en": "per head, over d_head", "zh": "逐头，在 d_head 上"},
    "wt_qk_norm_full": {"en": "over all heads at once", "zh": "所有头一起"},
    "wt_softcap": {"en": "This model soft-caps the scores before the mask: score = c · tanh(score / c), c = {c}.",
                   "zh": "该模型在掩码之前对分数做软截断：score = c · tanh(score / c)，c = {c}。"},
    "wt_row_added": {"en": "what the block adds ({how})", "zh": "块加入残差流的量（{how}）"},
    "wt_how_out_norm": {"en": "through ln1_out", "zh": "经过 ln1_out"},
    "wt_how_multiplier": {"en": "× {m}", "zh": "× {m}"},
    "wt_input_cross": {"en": "for Q the decoder's stream after self-attention (through ln_cross in pre-LN), for K and V "
                             "the encoder's output",
                       "zh": "Q 来自解码器经过自注意力之后的流（Pre-LN 时再经过 ln_cross），K 和 V 来自编码器的输出"},
    "wt_rope": {"en": "RoPE rotates q and k by their positions before the dot product; the Q and K shown are rotated.",
                "zh": "RoPE 在点积之前按位置旋转 q 和 k；这里显示的 Q 和 K 已经旋转过。"},
    "wt_gqa": {"en": "Query head {head} reads key/value head {kv} (shared by query heads {shared}).",
               "zh": "查询头 {head} 读取键/值头 {kv}（它被查询头 {shared} 共享）。"},
    "wt_steps": {"en": "2. Query {q} against every key", "zh": "2. 用查询 {q} 与每个键打分"},
    "wt_steps_text": {
        "en": "For each key j: the dot product q·k_j, divided by √d_head = {sqrt:.4g}{bias}, then the mask (−∞ where "
              "the query may not look), then softmax over the row. The division keeps the scores' variance near 1 "
              "whatever d_head is, so the softmax does not saturate (section 6 below measures it).",
        "zh": "对每个键 j：点积 q·k_j，除以 √d_head = {sqrt:.4g}{bias}，然后加上掩码（查询不能看的地方为 −∞），"
              "最后对整行做 softmax。除以 √d_head 让分数的方差无论 d_head 多大都保持在 1 附近，softmax 才不会饱和"
              "（下面第 6 部分会实际测量）。"},
    "wt_bias_alibi": {"en": ", plus the ALiBi distance penalty", "zh": "，加上 ALiBi 距离惩罚"},
    "wt_bias_relative": {"en": ", plus the T5 relative-position bias", "zh": "，加上 T5 相对位置偏置"},
    "wt_col_key": {"en": "key", "zh": "键"},
    "wt_col_pos": {"en": "pos", "zh": "位置"},
    "wt_col_dot": {"en": "q·k", "zh": "q·k"},
    "wt_col_scaled": {"en": "÷√d", "zh": "÷√d"},
    "wt_col_bias": {"en": "+ bias", "zh": "+ 偏置"},
    "wt_col_mask": {"en": "mask", "zh": "掩码"},
    "wt_col_score": {"en": "masked score", "zh": "掩码后的分数"},
    "wt_col_weight": {"en": "softmax", "zh": "softmax"},
    "wt_col_model": {"en": "model's weight", "zh": "模型的权重"},
    "wt_weights_chart": {"en": "Softmax weights of query {q}", "zh": "查询 {q} 的 softmax 权重"},
    "wt_mask_yes": {"en": "visible", "zh": "可见"},
    "wt_mask_no": {"en": "masked", "zh": "被掩码"},
    "wt_sum": {"en": "3. Weighted sum of the values, all heads, W_O", "zh": "3. 值的加权和 → 拼接所有头 → 乘以 W_O"},
    "wt_sum_text": {
        "en": "z = Σ_j p_j v_j is this head's output ({dh} numbers). Every head does the same; their z vectors are "
              "laid side by side ({H} × {dh} = {hd} numbers) and multiplied by W_O ({hd} × {d}) plus its bias, "
              "giving the layer's attention output for this token ({d} numbers).",
        "zh": "z = Σ_j p_j v_j 是这个头的输出（{dh} 个数）。每个头都做同样的计算；把它们的 z 并排拼接（{H} × {dh} = {hd} "
              "个数），再乘以 W_O（{hd} × {d}）并加上偏置，就得到该词元在这一层的注意力输出（{d} 个数）。"},
    "wt_z": {"en": "z of head {head} = Σ p·v", "zh": "第 {head} 个头的 z = Σ p·v"},
    "wt_heads": {"en": "All heads' z for this query (the concatenation, one row per head)",
                 "zh": "该查询所有头的 z（拼接结果，每个头一行）"},
    "wt_out": {"en": "Attention output: concat · W_O + b_O, and the model's {hook}",
               "zh": "注意力输出：concat · W_O + b_O，以及模型的 {hook}"},
    "wt_row_ours": {"en": "computed here", "zh": "此处计算"},
    "wt_row_model": {"en": "model ({hook})", "zh": "模型（{hook}）"},
    "wt_row_head": {"en": "head {head}'s share", "zh": "第 {head} 个头的贡献"},
    "wt_check_ok": {"en": "Checked: the vector computed here equals the model's `{hook}` (largest difference "
                          "{err:.1e}).",
                    "zh": "已核对：这里算出的向量等于模型的 `{hook}`（最大差值 {err:.1e}）。"},
    "wt_check_bad": {"en": "The vector computed here differs from the model's `{hook}` by {err:.1e}.",
                     "zh": "这里算出的向量与模型的 `{hook}` 相差 {err:.1e}。"},
    "wt_numbers": {"en": "Every number of this walk", "zh": "这次演算中的每一个数"},
    "wt_numbers_text": {"en": "The query token's input x, its q = x·W_Q + b_Q (and rotated, with RoPE). The download "
                              "holds every array of the walk (x, the weights of this head, Q, K, V, the scores at each "
                              "step, the weights, z of every head, W_O and both output vectors); −∞ is written `null`.",
                        "zh": "查询词元的输入 x，以及它的 q = x·W_Q + b_Q（使用 RoPE 时还有旋转后的 q）。下载文件包含这次演算的"
                              "每一个数组（x、这个头的权重、Q、K、V、每一步的分数、权重、每个头的 z、W_O 以及两个输出向量）；"
                              "−∞ 记为 `null`。"},
    "wt_download": {"en": "Download all numbers (JSON)", "zh": "下载全部数字（JSON）"},
    "wt_neuron": {"en": "4. Neuron view: query {q} and key {k}", "zh": "4. 神经元视图：查询 {q} 与键 {k}"},
    "wt_neuron_text": {
        "en": "q ⊙ k multiplies the two vectors dimension by dimension; the products add up to q·k = {dot:.4g} "
              "(score {score:.4g}, weight {weight:.4f}). Large products show which dimensions make this pair "
              "match. The value v of this key, times its weight, is what it adds to z.",
        "zh": "q ⊙ k 把两个向量逐维相乘；这些乘积之和就是 q·k = {dot:.4g}（分数 {score:.4g}，权重 {weight:.4f}）。"
              "较大的乘积说明是哪些维度让这一对匹配。这个键的值 v 乘以它的权重，就是它加到 z 上的部分。"},
    "wt_neuron_agree": {
        "en": "Read like a film rating (a film's features times a viewer's tastes, added up): of the head's {d} "
              "dimensions, those where q and k agree push the score up, most of all {agree}; those where they "
              "disagree pull it down, most of all {disagree}. Agreement {plus}, disagreement {minus}, together q·k = "
              "{dot}. Unlike the film example's genres, these dimensions have no names: the model learned them.",
        "zh": "可以像电影评分那样理解（电影的特征乘以观众的口味，再加起来）：在这个头的 {d} 个维度中，q 和 k 一致的维度把分数往上推，"
              "最多的是 {agree}；不一致的维度把分数往下拉，最多的是 {disagree}。一致部分合计 {plus}，不一致部分合计 {minus}，"
              "两者之和就是 q·k = {dot}。与电影例子里的类型不同，这些维度没有名字：它们是模型自己学出来的。"},
    "wt_neuron_masked": {"en": "This key is masked for this query: its weight is exactly 0 (e^−∞), so it adds nothing.",
                         "zh": "对这个查询来说这个键被掩码了：它的权重严格为 0（e^−∞），所以没有任何贡献。"},
    "wt_kv": {"en": "5. Multi-head, grouped-query and multi-query attention",
              "zh": "5. 多头、分组查询与多查询注意力"},
    "wt_kv_text": {
        "en": "This model is **{kind}**: {H} query heads read {G} key/value head(s). A decoder that generates text "
              "keeps every past token's K and V (the KV cache), so fewer kv heads mean a smaller cache: MQA "
              "(Shazeer 2019) shares one, GQA (Ainslie et al. 2023) shares one per group.",
        "zh": "这个模型是 **{kind}**：{H} 个查询头读取 {G} 个键/值头。生成文本的解码器要保存之前每个词元的 K 和 V"
              "（KV 缓存），所以键/值头越少，缓存越小：MQA（Shazeer，2019）共用一个，GQA（Ainslie 等，2023）每组共用一个。"},
    "wt_kv_context": {"en": "Context length (tokens)", "zh": "上下文长度（词元数）"},
    "wt_kv_bytes": {"en": "Bytes per number", "zh": "每个数的字节数"},
    "wt_kv_col_kind": {"en": "attention", "zh": "注意力类型"},
    "wt_kv_col_kv": {"en": "kv heads", "zh": "键/值头数"},
    "wt_kv_col_token": {"en": "per token", "zh": "每个词元"},
    "wt_kv_col_total": {"en": "for the context", "zh": "整个上下文"},
    "wt_kv_this": {"en": "(this model)", "zh": "（当前模型）"},
    "wt_kv_formula": {"en": "per token = 2 (K and V) × {L} layers × kv heads × {dh} (d_head) × bytes",
                      "zh": "每个词元 = 2（K 和 V）× {L} 层 × 键/值头数 × {dh}（d_head）× 字节数"},
    "wt_kv_encoder": {"en": "An encoder reads the whole text at once and keeps no KV cache; the numbers show what a "
                            "decoder of this shape would need.",
                      "zh": "编码器一次读完整个文本，不需要 KV 缓存；这些数字表示同样结构的解码器需要多少。"},
    # ---- misconceptions beside sections 1 and 2 ----------------------------------------------
    "wt_mis_kv_common": {"en": "“K and V are the same thing: both are the keys' vectors.”",
                         "zh": "“K 和 V 是同一个东西：都是键的向量。”"},
    "wt_mis_kv_shown": {
        "en": "They share a source, not a projection. Every token's x goes through W_K and, separately, through "
              "W_V: in this head the cosine between the two matrices is {cos:.2f}, and a token's v differs from its "
              "k by {rel:.0%} of ‖k‖ on average. K decides where the query looks, V what it takes from there.",
        "zh": "它们来源相同，投影不同。每个词元的 x 分别经过 W_K 和 W_V：在这个头中两个矩阵的余弦相似度为 {cos:.2f}，"
              "一个词元的 v 与它的 k 平均相差 ‖k‖ 的 {rel:.0%}。K 决定查询看向哪里，V 决定从那里取走什么。"},
    "wt_mis_cross_common": {"en": "“Cross-attention mixes the decoder's and the encoder's tokens in Q, K and V alike.”",
                            "zh": "“交叉注意力的 Q、K、V 同样混合了解码器和编码器的词元。”"},
    "wt_mis_cross_shown": {
        "en": "Q comes from the decoder, K and V from the encoder: here {nq} query rows (the decoder's tokens) "
              "against {nk} key and value rows (the encoder's tokens). K and V do not depend on the decoder's input at "
              "all, which is why generation computes them once.",
        "zh": "Q 来自解码器，K 和 V 来自编码器：这里是 {nq} 行查询（解码器的词元）对 {nk} 行键和值（编码器的词元）。"
              "K 和 V 完全不依赖解码器的输入，所以生成时只需计算一次。"},
    "wt_mis_cross_mask_common": {
        "en": "“Cross-attention is masked multi-head attention; it reads the block's input x with the causal mask.”",
        "zh": "“交叉注意力是带掩码的多头注意力；它用因果掩码读取这个块的输入 x。”"},
    "wt_mis_cross_mask_shown": {
        "en": "Cross-attention has no causal mask: decoder token {q} reads {seen} of the {m} encoder tokens, wherever "
              "they sit; only the source's padding is masked. The masked attention is the decoder's self-attention, "
              "the sub-layer before, and its output (not x) gives cross-attention its queries.",
        "zh": "交叉注意力没有因果掩码：解码器的词元 {q} 读取编码器 {m} 个词元中的 {seen} 个，无论它们在什么位置；只有源序列的"
              "填充被掩码。带掩码的是解码器的自注意力，也就是前一个子层，交叉注意力的查询来自它的输出（而不是 x）。"},
    # ---- 6. why divide by sqrt(d_k) ------------------------------------------------------------
    "sc_title": {"en": "6. Why divide by √d_k?", "zh": "6. 为什么要除以 √d_k？"},
    "sc_intro": {
        "en": "q·k adds up d_k products. If the components of q and k are independent with variance 1, each "
              "product has variance 1 and the sum has variance d_k: the scores spread wider as heads get wider, "
              "and a softmax over widely spread scores puts almost all its weight on one key (it saturates). "
              "Dividing by √d_k brings the variance back to 1 for every d_k (Vaswani et al. 2017, §3.2.1).",
        "zh": "q·k 是 d_k 个乘积之和。如果 q 和 k 的各分量相互独立、方差为 1，那么每个乘积的方差为 1，和的方差就是 d_k："
              "头的维度 d_k 越大，分数越分散；而对非常分散的分数做 softmax，几乎所有权重都会落在一个键上（饱和）。"
              "除以 √d_k 后，无论 d_k 多大，方差都回到 1（Vaswani 等，2017，§3.2.1）。"},
    "sc_variance_title": {"en": "Var(q·k) against d_k", "zh": "Var(q·k) 随 d_k 的变化"},
    "sc_variance_caption": {
        "en": "Dots: Var(q·k) of {samples:,} random pairs per d_k (bars: ±2 standard errors, sqrt((2d²+6d)/N)); "
              "they follow Var = d_k, and ÷√d_k brings them to 1. Stars: this head (d_k = {dk}) over all its "
              "(query, key) pairs: Var(q·k) = {var:.3g}, ÷√d_k: {scaled:.3g}. A trained head's q and k are not "
              "independent unit-variance vectors (mean component variances {vq:.2g} and {vk:.2g}), so its star "
              "need not sit on the line.",
        "zh": "圆点：每个 d_k 下 {samples:,} 对随机向量的 Var(q·k)（误差线：±2 个标准误差，sqrt((2d²+6d)/N)）；"
              "它们沿着 Var = d_k 分布，除以 √d_k 后回到 1。星号：这个头（d_k = {dk}）在所有（查询，键）对上的值："
              "Var(q·k) = {var:.3g}，除以 √d_k 后为 {scaled:.3g}。训练过的头的 q 和 k 并不是独立的单位方差向量"
              "（各分量方差的平均分别为 {vq:.2g} 和 {vk:.2g}），所以星号不一定落在直线上。"},
    "sc_query_title": {"en": "Query {q}: its softmax with and without ÷√d_k", "zh": "查询 {q}：除以与不除以 √d_k 时的 softmax"},
    "sc_col_row": {"en": "scores", "zh": "分数"},
    "sc_col_max": {"en": "largest weight", "zh": "最大权重"},
    "sc_col_entropy": {"en": "entropy (nats)", "zh": "熵（奈特）"},
    "sc_col_grad_s": {"en": "‖∂p/∂s‖ (softmax's gradient)", "zh": "‖∂p/∂s‖（softmax 的梯度）"},
    "sc_col_grad_dot": {"en": "‖∂p/∂(q·k)‖", "zh": "‖∂p/∂(q·k)‖"},
    "sc_with": {"en": "÷√d_k (the model)", "zh": "除以 √d_k（模型的做法）"},
    "sc_without": {"en": "not divided", "zh": "不除"},
    "sc_query_caption": {
        "en": "‖∂p/∂s‖ is the Frobenius norm of the softmax's Jacobian diag(p) − p pᵀ at these scores: the size "
              "of the gradient the softmax passes back. The ÷√d_k row equals the model's own weights (largest "
              "difference {err:.1e}).",
        "zh": "‖∂p/∂s‖ 是 softmax 在这些分数处的雅可比矩阵 diag(p) − p pᵀ 的 Frobenius 范数，即 softmax 向回传递的梯度"
              "大小。“除以 √d_k”那一行与模型自己的权重一致（最大差值 {err:.1e}）。"},
    "sc_ablation_title": {"en": "The whole model without ÷√d_k", "zh": "整个模型去掉 ÷√d_k 之后"},
    "sc_ablation_text": {
        "en": "A hook multiplies every query by √d_k = {sqrt:.3g}, so every attention of every layer computes "
              "softmax(q·k + bias) instead of softmax(q·k/√d_k + bias); nothing else changes. The weights were "
              "trained with the division, so this shows what the division does, not a model trained without it.",
        "zh": "一个钩子把每个查询乘以 √d_k = {sqrt:.3g}，于是每一层的每个注意力都计算 softmax(q·k + 偏置)，而不是 "
              "softmax(q·k/√d_k + 偏置)；其他都不变。权重是在有除法的情况下训练出来的，所以这里展示的是除法的作用，"
              "而不是一个不用除法训练出来的模型。"},
    "sc_entropy_title": {"en": "Mean attention entropy per layer ({stack})", "zh": "每层的平均注意力熵（{stack}）"},
    "sc_maxw_title": {"en": "Mean largest weight per layer", "zh": "每层的平均最大权重"},
    "sc_change_logits": {
        "en": "Output change: mean KL(with ‖ without) = {kl:.3g} nats per position; the top prediction changed at "
              "{changed} of {n} positions.",
        "zh": "输出的变化：每个位置的平均 KL（有除法 ‖ 无除法）= {kl:.3g} 奈特；首选预测在 {n} 个位置中的 {changed} 个发生了改变。"},
    "sc_change_hidden": {
        "en": "Output change: mean cosine(with, without) = {cos:.3f}; mean relative change ‖Δh‖/‖h‖ = {rel:.3g}.",
        "zh": "输出的变化：平均余弦相似度（有除法，无除法）= {cos:.3f}；平均相对变化 ‖Δh‖/‖h‖ = {rel:.3g}。"},
    "sc_mis01_common": {"en": "“Dividing by √d_k squeezes the scores into 0–1.”",
                        "zh": "“除以 √d_k 是为了把分数压缩到 0–1 之间。”"},
    "sc_mis01_shown": {
        "en": "The scaled scores of this head run from {lo:.2f} to {hi:.2f}: not 0–1, and nothing makes them so. "
              "What lies in 0–1 is the softmax's output, with or without the division. The division sets the "
              "scores' spread: their variance is {scaled:.3g} here, {raw:.3g} undivided.",
        "zh": "这个头除以 √d_k 后的分数从 {lo:.2f} 到 {hi:.2f}：并不在 0–1 之间，也没有任何操作让它们落在 0–1 之间。"
              "落在 0–1 之间的是 softmax 的输出，无论是否除以 √d_k。除法控制的是分数的分散程度：这里方差为 {scaled:.3g}，"
              "不除则为 {raw:.3g}。"},
    "sc_mis_grad_common": {"en": "“Dividing by √d_k stops the gradients from exploding.”",
                           "zh": "“除以 √d_k 是为了防止梯度爆炸。”"},
    "sc_mis_grad_shown": {
        "en": "The danger is the opposite. Undivided, query {q}'s largest weight is {w0:.3f} and the softmax's "
              "gradient ‖∂p/∂s‖ is {g0:.3g}; divided, {w1:.3f} and {g1:.3g}. A saturated softmax passes almost no "
              "gradient back: it vanishes, and the scores stop learning.",
        "zh": "危险恰恰相反。不除时，查询 {q} 的最大权重为 {w0:.3f}，softmax 的梯度 ‖∂p/∂s‖ 为 {g0:.3g}；除以 √d_k 后为 "
              "{w1:.3f} 和 {g1:.3g}。饱和的 softmax 几乎不向回传递梯度：梯度消失，分数就学不动了。"},
    "sc_mis_linear_common": {"en": "“Attention is linear; only the FFN brings a nonlinearity.”",
                             "zh": "“注意力是线性的，只有前馈网络带来非线性。”"},
    "sc_mis_linear_shown": {
        "en": "Doubling this layer's input X does not double its attention output (compared as an affine map, so "
              "the biases do not count against it): the output is {dev:.1%} away from linear. The weights are a "
              "softmax of X, so attention is nonlinear in X; it is linear in V only once the weights are fixed.",
        "zh": "把这一层的输入 X 加倍，注意力输出并不会加倍（按仿射映射比较，偏置不计入误差）：输出偏离线性 {dev:.1%}。"
              "权重是 X 的 softmax，所以注意力对 X 是非线性的；只有在权重固定之后，它才对 V 是线性的。"},
    "sc_mis_mean_common": {"en": "“We divide by √d_k because the dot product's mean (or its “dimension”) grows with d_k.”",
                           "zh": "“除以 √d_k 是因为点积的均值（或者说它的“维度”）随 d_k 增大。”"},
    "sc_mis_mean_shown": {
        "en": "q·k is one number whatever d_k is; what grows is its spread. For q and k with zero-mean components the "
              "mean stays 0 at every d_k, while the variance follows d_k: the dots on the left measure {v0:.3g} at "
              "d_k = {d0} and {v1:.3g} at d_k = {d1}. A mean would not matter anyway: adding the same number to every "
              "score of a row leaves its softmax unchanged. A wide spread is what saturates the softmax, and ÷√d_k "
              "brings the variance back to {s1:.3g}.",
        "zh": "无论 d_k 多大，q·k 都只是一个数；变大的是它的分散程度。q 和 k 的分量均值为 0 时，点积的均值在任何 d_k 下都是 0，"
              "方差却随 d_k 增长：左图的圆点在 d_k = {d0} 时测得 {v0:.3g}，在 d_k = {d1} 时测得 {v1:.3g}。即使均值变化也无关紧要："
              "给一行的每个分数加上同一个数，softmax 的结果不变。让 softmax 饱和的是分散程度，除以 √d_k 把方差拉回到 {s1:.3g}。"},
    "sc_mis_paper_common": {"en": "“The paper does not explain why it divides by √d_k.”",
                            "zh": "“论文没有解释为什么要除以 √d_k。”"},
    "sc_mis_paper_shown": {
        "en": "It does, in §3.2.1 and its footnote 4: if the components of q and k are independent with mean 0 and "
              "variance 1, then q·k has mean 0 and variance d_k. The dots on the left are that footnote measured on "
              "{samples:,} random pairs per d_k (Var = {v1:.3g} at d_k = {d1}), and the star is this head's own value "
              "({var:.3g} at d_k = {dk}).",
        "zh": "论文解释了，在 §3.2.1 及其脚注 4 中：如果 q 和 k 的各分量相互独立、均值为 0、方差为 1，那么 q·k 的均值为 0，"
              "方差为 d_k。左图的圆点就是在每个 d_k 下用 {samples:,} 对随机向量测量这条脚注（d_k = {d1} 时 Var = {v1:.3g}），"
              "星号是这个头自己的值（d_k = {dk} 时为 {var:.3g}）。"},
    "sc_mis_gradrisk_common": {
        "en": "“A nonlinearity inside attention would raise the risk of vanishing or exploding gradients, so attention "
              "leaves it out.”",
        "zh": "“在注意力里加入非线性会增加梯度消失或爆炸的风险，所以注意力里没有非线性。”"},
    "sc_mis_gradrisk_shown": {
        "en": "Attention has a nonlinearity already, the softmax ({dev:.1%} away from linear above), and the gradient "
              "risk it brings is the saturation that ÷√d_k keeps small (‖∂p/∂s‖ = {g1:.3g} here with the division, "
              "{g0:.3g} without). Where the block's elementwise nonlinearity sits is a design choice; the notes' "
              "reason for it is a guess, not a result.",
        "zh": "注意力本来就有非线性，即 softmax（上面测得偏离线性 {dev:.1%}），它带来的梯度风险正是 ÷√d_k 所抑制的饱和"
              "（这里除以 √d_k 时 ‖∂p/∂s‖ = {g1:.3g}，不除时为 {g0:.3g}）。逐元素的非线性放在块中的哪个位置是一种设计选择；"
              "笔记给出的理由只是猜测，而不是结论。"},
    "sc_term_d_k": {"en": "d_k (dimensions of q and k)", "zh": "d_k（q 和 k 的维数）"},
    "sc_term_variance": {"en": "variance", "zh": "方差"},
    "sc_term_random": {"en": "random q, k: Var(q·k)", "zh": "随机 q、k：Var(q·k)"},
    "sc_term_random_scaled": {"en": "random q, k: Var(q·k/√d_k)", "zh": "随机 q、k：Var(q·k/√d_k)"},
    "sc_term_head": {"en": "this head: Var(q·k)", "zh": "该头：Var(q·k)"},
    "sc_term_head_scaled": {"en": "this head: Var(q·k/√d_k)", "zh": "该头：Var(q·k/√d_k)"},
    "sc_term_weight": {"en": "weight", "zh": "权重"},
    # ---- 7. FlashAttention ---------------------------------------------------------------------
    "fa_title": {"en": "7. FlashAttention: the same head, tile by tile", "zh": "7. FlashAttention：同一个头，逐块计算"},
    "fa_intro": {
        "en": "FlashAttention (Dao et al. 2022) computes exactly this attention without ever holding the n × m "
              "score matrix. It reads K and V one tile of keys at a time and keeps three running values per query "
              "row: the largest score so far m, the denominator l = Σ e^(s − m) and the output O = Σ e^(s − m)·v. "
              "When a tile raises the maximum, the old l and O are multiplied by e^(m_old − m_new) (the online "
              "softmax). After the last tile, O / l is softmax(s)·V.",
        "zh": "FlashAttention（Dao 等，2022）精确地计算同样的注意力，但从不保存完整的 n × m 分数矩阵。它每次只读入一块键的 "
              "K 和 V，并为每一行查询维护三个累计量：目前为止的最大分数 m、分母 l = Σ e^(s − m) 和输出 "
              "O = Σ e^(s − m)·v。当新的一块带来更大的最大值时，旧的 l 和 O 乘以 e^(m_旧 − m_新)（在线 softmax）。"
              "读完最后一块后，O / l 就是 softmax(s)·V。"},
    "fa_tile": {"en": "Tile size (queries and keys per tile)", "zh": "块大小（每块的查询数和键数）"},
    "fa_step": {"en": "Key tiles read", "zh": "已读入的键块数"},
    "fa_grid_title": {"en": "Scores of head {head} in {b}×{b} tiles (outlined: the tile in memory now)",
                      "zh": "第 {head} 个头的分数，按 {b}×{b} 分块（框出的是当前在内存中的块）"},
    "fa_stats_title": {"en": "Query {q} after each key tile", "zh": "每读入一块键之后的查询 {q}"},
    "fa_partial": {
        "en": "After {k} of {T} key tiles, query {q}'s partial output O / l (the softmax over the keys read so far, "
              "times their values) is {diff:.3g} away from its final output.",
        "zh": "读入 {T} 块中的 {k} 块之后，查询 {q} 的部分输出 O / l（对已读入的键做 softmax 再乘以它们的值）与最终输出"
              "相差 {diff:.3g}。"},
    "fa_check_ok": {
        "en": "After the last tile the output equals the model's own attention output of this head (`hook_z` = "
              "softmax(s)·V, float32) within {err:.1e}; against the same formula on the whole matrix in float64: "
              "{ref:.1e}.",
        "zh": "读完最后一块后，输出与模型自己在这个头上的注意力输出（`hook_z` = softmax(s)·V，float32）一致，"
              "最大差值 {err:.1e}；与用完整矩阵按同一公式在 float64 中的计算相比：{ref:.1e}。"},
    "fa_check_bad": {"en": "The tiled output differs from the model's `hook_z` by {err:.1e}.",
                     "zh": "分块计算的输出与模型的 `hook_z` 相差 {err:.1e}。"},
    "fa_memory_title": {"en": "Numbers held at once, per head", "zh": "每个头同时保存的数字个数"},
    "fa_mem_matrix": {"en": "score matrix n·m", "zh": "分数矩阵 n·m"},
    "fa_mem_stats": {"en": "statistics m, l (2n)", "zh": "统计量 m、l（2n）"},
    "fa_mem_tile": {"en": "one score tile", "zh": "一块分数"},
    "fa_mem_tiles": {"en": "Q, K, V, O tiles", "zh": "Q、K、V、O 的块"},
    "fa_memory_caption": {
        "en": "At {n} tokens the score matrix holds {matrix:,} numbers per head; FlashAttention holds {stats:,} "
              "statistics and one tile of {tile:,} scores. At {big:,} tokens: {big_matrix:,} against {big_stats:,} "
              "+ {big_tile:,}. The statistics grow as O(n), the matrix as n².",
        "zh": "在 {n} 个词元时，分数矩阵每个头要保存 {matrix:,} 个数；FlashAttention 只保存 {stats:,} 个统计量和一块 "
              "{tile:,} 个分数。在 {big:,} 个词元时：{big_matrix:,} 对比 {big_stats:,} + {big_tile:,}。统计量按 O(n) "
              "增长，矩阵按 n² 增长。"},
    "fa_flops": {
        "en": "Arithmetic: Q·Kᵀ and P·V cost {standard:,} flops either way (4·n·m·d_head); the tiles add {extra:,} "
              "for the rescaling ({pct:.1%}). FlashAttention is faster because it moves less data between GPU "
              "memory and the chip, not because it computes less: the work is still O(n²).",
        "zh": "计算量：无论哪种做法，Q·Kᵀ 和 P·V 都需要 {standard:,} 次浮点运算（4·n·m·d_head）；分块只为重新缩放多出 "
              "{extra:,} 次（{pct:.1%}）。FlashAttention 更快，是因为它在显存与芯片之间搬运的数据更少，而不是因为算得更少："
              "计算量仍然是 O(n²)。"},
    "fa_term_score": {"en": "score", "zh": "分数"},
    "fa_term_running_max": {"en": "running max m", "zh": "累计最大值 m"},
    "fa_term_denominator": {"en": "denominator l", "zh": "分母 l"},
    "fa_term_tile_max": {"en": "max inside the tile", "zh": "块内最大值"},
    "fa_term_not_read": {"en": "not read yet", "zh": "尚未读入"},
    "fa_term_tile": {"en": "keys {a}–{b}", "zh": "键 {a}–{b}"},
    "wt_term_dim": {"en": "dimension", "zh": "维度"},
    "wt_term_value": {"en": "value", "zh": "数值"},
    "wt_term_token": {"en": "token", "zh": "词元"},
    "wt_term_qh": {"en": "query heads", "zh": "查询头"},
    "wt_term_kvh": {"en": "key/value heads", "zh": "键/值头"},
    "wt_term_cache": {"en": "KV cache", "zh": "KV 缓存"},
}

FORMULAS = {
    "wt_score": r"s_j=\frac{q\cdot k_j}{\sqrt{d_{head}}}+b_j,\qquad p_j=\frac{e^{s_j}}{\sum_{j'}e^{s_{j'}}},"
                r"\qquad z=\sum_j p_j\,v_j",
    "wt_out": r"\mathrm{out}=[z_1;\dots;z_H]\,W^O+b^O",
}

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
    "wt_input_pre": {"en": "the output of ln1 (pre-LN)", "zh": "ln1 的输出（前置归一化，Pre-LN）"},
    "wt_input_post": {"en": "the residual stream itself (post-LN)", "zh": "残差流本身（后置归一化，Post-LN）"},
    "wt_input_cross": {"en": "for Q the decoder's stream after self-attention (through ln_cross in pre-LN), for K and V "
                             "the encoder's output",
                       "zh": "Q 来自解码器经过自注意力之后的流（前置 LN 时再经过 ln_cross），K 和 V 来自编码器的输出"},
    "wt_rope": {"en": "RoPE rotates q and k by their positions before the dot product; the Q and K shown are rotated.",
                "zh": "RoPE 在点积之前按位置旋转 q 和 k；这里显示的 Q 和 K 已经旋转过。"},
    "wt_gqa": {"en": "Query head {head} reads key/value head {kv} (shared by query heads {shared}).",
               "zh": "查询头 {head} 读取键/值头 {kv}（它被查询头 {shared} 共享）。"},
    "wt_steps": {"en": "2. Query {q} against every key", "zh": "2. 查询 {q} 与每个键"},
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
    "wt_sum": {"en": "3. Weighted sum of the values, all heads, W_O", "zh": "3. 值的加权和、所有头、W_O"},
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
                              "step, the weights, z of every head, W_O and both output vectors); −∞ is written null.",
                        "zh": "查询词元的输入 x，以及它的 q = x·W_Q + b_Q（使用 RoPE 时还有旋转后的 q）。下载文件包含这次演算的"
                              "每一个数组（x、这个头的权重、Q、K、V、每一步的分数、权重、每个头的 z、W_O 以及两个输出向量）；"
                              "−∞ 记为 null。"},
    "wt_download": {"en": "Download all numbers (JSON)", "zh": "下载全部数字（JSON）"},
    "wt_neuron": {"en": "4. Neuron view: query {q} and key {k}", "zh": "4. 神经元视图：查询 {q} 与键 {k}"},
    "wt_neuron_text": {
        "en": "q ⊙ k multiplies the two vectors dimension by dimension; the products add up to q·k = {dot:.4g} "
              "(score {score:.4g}, weight {weight:.4f}). Large products show which dimensions make this pair "
              "match. The value v of this key, times its weight, is what it adds to z.",
        "zh": "q ⊙ k 把两个向量逐维相乘；这些乘积之和就是 q·k = {dot:.4g}（分数 {score:.4g}，权重 {weight:.4f}）。"
              "较大的乘积说明是哪些维度让这一对匹配。这个键的值 v 乘以它的权重，就是它加到 z 上的部分。"},
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

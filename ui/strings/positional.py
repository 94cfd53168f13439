"""Strings of the positional-encoding lab (tables, shift, RoPE, biases, trained checkpoints)."""

STRINGS = {
    "pe_title": {"en": "Positional-encoding lab", "zh": "位置编码实验室"},
    "pe_intro": {
        "en": "Attention by itself does not know the order of the tokens: permute the words and every score "
              "permutes with them. Each scheme below puts position back in a different place: added to the "
              "token vectors (sinusoidal, learned), as a rotation of queries and keys (RoPE), or as a bias on "
              "the scores (ALiBi, T5 relative buckets). Every number here is computed by the same functions "
              "the model uses (models/positional.py) or read from a real model's weights.",
        "zh": "注意力本身并不知道词元的顺序：把词打乱，每个分数也会随之同样地打乱。下面每种方案把位置信息放回到不同的地方："
              "加到词元向量上（正弦、可学习），作为查询和键的旋转（RoPE），或作为分数上的偏置（ALiBi、T5 相对分桶）。"
              "这里的每个数字都由模型所用的同一组函数（models/positional.py）计算，或直接读自真实模型的权重。"},
    "pe_section": {"en": "Section", "zh": "部分"},
    "pe_sec_tables": {"en": "Tables & similarity", "zh": "编码表与相似度"},
    "pe_sec_shift": {"en": "Sinusoidal shift", "zh": "正弦平移性质"},
    "pe_sec_rope": {"en": "RoPE", "zh": "RoPE"},
    "pe_sec_bias": {"en": "ALiBi & relative", "zh": "ALiBi 与相对位置"},
    "pe_sec_attention": {"en": "Effect on attention", "zh": "对注意力的影响"},
    "pe_sec_extrapolation": {"en": "Length extrapolation", "zh": "长度外推"},
    "pe_sec_shifttest": {"en": "Shift test", "zh": "平移测试"},
    # ---- controls --------------------------------------------------------------------------
    "pe_schemes": {"en": "Schemes to compare", "zh": "要比较的方案"},
    "pe_length": {"en": "Sequence length (positions)", "zh": "序列长度（位置数）"},
    "pe_dim": {"en": "Dimension d", "zh": "维度 d"},
    "pe_dim_help": {"en": "Width of the sinusoidal table, or of one head for RoPE. Learned tables keep their "
                          "model's own width.",
                    "zh": "正弦编码表的宽度，或 RoPE 中一个头的维度。可学习的表保持其模型自身的宽度。"},
    "pe_base": {"en": "Base (10000 in the papers)", "zh": "底数（论文中为 10000）"},
    "pe_similarity": {"en": "Similarity", "zh": "相似度"},
    "pe_sim_dot": {"en": "dot product", "zh": "点积"},
    "pe_sim_cosine": {"en": "cosine", "zh": "余弦相似度"},
    "pe_learned_source": {"en": "Learned table from", "zh": "可学习位置表来自"},
    "pe_relative_source": {"en": "Relative bias from", "zh": "相对位置偏置来自"},
    "pe_none_schemes": {"en": "Choose at least one scheme to compare.", "zh": "请至少选择一种方案进行比较。"},
    "pe_scheme_none": {"en": "none", "zh": "无位置编码"},
    "pe_scheme_sinusoidal": {"en": "sinusoidal", "zh": "正弦"},
    "pe_scheme_learned": {"en": "learned", "zh": "可学习"},
    "pe_scheme_rope": {"en": "RoPE", "zh": "RoPE"},
    "pe_scheme_alibi": {"en": "ALiBi", "zh": "ALiBi"},
    "pe_scheme_relative": {"en": "T5 relative", "zh": "T5 相对位置"},
    "pe_random_note": {"en": "{model} has random weights: its table is the initialisation, not something learned.",
                       "zh": "{model} 是随机权重：它的表只是初始化值，并不是学出来的。"},
    # ---- figure words --------------------------------------------------------------------------
    "pe_w_position": {"en": "position", "zh": "位置"},
    "pe_w_dimension": {"en": "dimension", "zh": "维度"},
    "pe_w_value": {"en": "value", "zh": "数值"},
    "pe_w_wavelength": {"en": "wavelength", "zh": "波长"},
    "pe_w_table_end": {"en": "table ends at {n}", "zh": "表在 {n} 处结束"},
    "pe_w_no_wavelength": {"en": "learned: no fixed wavelength", "zh": "可学习：没有固定的波长"},
    "pe_w_distance": {"en": "distance |m − n|", "zh": "距离 |m − n|"},
    "pe_w_offset": {"en": "offset m − n", "zh": "偏移 m − n"},
    "pe_w_query_pos": {"en": "query position", "zh": "查询位置"},
    "pe_w_key_pos": {"en": "key position", "zh": "键位置"},
    "pe_w_bias": {"en": "bias", "zh": "偏置"},
    "pe_w_bucket": {"en": "bucket", "zh": "分桶"},
    "pe_w_score": {"en": "q·k", "zh": "q·k"},
    "pe_w_head": {"en": "head {h}", "zh": "第 {h} 个头"},
    "pe_w_slope": {"en": "slope", "zh": "斜率"},
    "pe_w_weight": {"en": "attention weight", "zh": "注意力权重"},
    # ---- tables ------------------------------------------------------------------------------
    "pe_tables_title": {"en": "Position tables (position × dimension)", "zh": "位置编码表（位置 × 维度）"},
    "pe_tables_caption": {
        "en": "Each row is the vector of one position. The strip above is the wavelength of each dimension in "
              "positions (log scale): the first dimensions repeat every 2π ≈ 6.3 positions, the last almost "
              "never. For RoPE the row is the unit pair (1, 0) of every frequency turned to that position "
              "(cos m·θ in the first half, sin m·θ in the second).",
        "zh": "每一行是一个位置的向量。上方的条带是每个维度的波长（以位置为单位，对数坐标）：前几个维度每 2π ≈ 6.3 个位置重复一次，"
              "最后几个维度几乎不重复。RoPE 的每一行是把每个频率的单位向量 (1, 0) 旋转到该位置的结果"
              "（前一半为 cos m·θ，后一半为 sin m·θ）。"},
    "pe_no_table_none": {"en": "No position information at all: the model sees the tokens as a set (a causal mask "
                               "is the only source of order in a decoder).",
                         "zh": "完全没有位置信息：模型把词元看作一个集合（在解码器中，因果掩码是唯一的顺序来源）。"},
    "pe_no_table_bias": {"en": "{scheme} has no position vectors: it adds a bias to the attention scores. See the "
                               "section \"ALiBi & relative\".",
                         "zh": "{scheme} 没有位置向量：它在注意力分数上加一个偏置。请看“ALiBi 与相对位置”部分。"},
    "pe_odd_dim": {"en": "{scheme} pairs up dimensions (sin with cos, or a 2-D rotation), so it needs an even "
                         "dimension; {d} is odd. Choose {lo} or {hi}.",
                   "zh": "{scheme} 需要把维度两两配对（sin 与 cos，或二维旋转），因此维度必须是偶数；{d} 是奇数。"
                         "请选择 {lo} 或 {hi}。"},
    "pe_table_short": {"en": "{model} has learned vectors for {rows} positions only; positions {rows}–{last} have "
                             "no vector (grey, below the dashed line). Such a model cannot read that far.",
                       "zh": "{model} 只为 {rows} 个位置学习了向量；位置 {rows}–{last} 没有向量（虚线以下的灰色部分）。"
                             "这样的模型无法读取那么长的序列。"},
    "pe_trained_rows": {"en": "Training only used positions 0..{trained}−1 of its {rows} rows: the rows after "
                              "that still hold their random initial values.",
                        "zh": "训练只用到了 {rows} 行中的位置 0..{trained}−1：之后的行仍然是随机初始值。"},
    "pe_table_width": {"en": "{model}: {rows} positions × {d} dimensions (the model's own width).",
                       "zh": "{model}：{rows} 个位置 × {d} 个维度（模型自身的宽度）。"},
    "pe_sim_title": {"en": "Position similarity (position × position)", "zh": "位置相似度（位置 × 位置）"},
    "pe_sim_caption": {
        "en": "Cell (m, n) compares the vectors of positions m and n. Sinusoidal and RoPE vectors give a band "
              "that depends only on m − n; a learned table need not, and shows what training made of it.",
        "zh": "格子 (m, n) 比较位置 m 和位置 n 的向量。正弦和 RoPE 的相似度只取决于 m − n，呈带状；"
              "可学习的表不一定如此，它展示的是训练的结果。"},
    "pe_curve_title": {"en": "Similarity vs distance (mean over all pairs at that distance)",
                       "zh": "相似度随距离的变化（同一距离下所有位置对的平均）"},
    # ---- shift ---------------------------------------------------------------------------------
    "pe_shift_k": {"en": "Shift k", "zh": "平移量 k"},
    "pe_shift_pos": {"en": "Position pos", "zh": "位置 pos"},
    "pe_shift_intro": {
        "en": "For every k there is one matrix M_k, the same for all positions, with PE(pos + k) = M_k · PE(pos). "
              "It is block diagonal: each (sin, cos) pair is turned by the angle k·ω_i. So the model can learn "
              "\"look k tokens back\" as a fixed linear map, wherever it is in the sequence.",
        "zh": "对每个 k 都存在一个矩阵 M_k，对所有位置都相同，使 PE(pos + k) = M_k · PE(pos)。它是分块对角的："
              "每一对 (sin, cos) 旋转角度 k·ω_i。因此无论处在序列的什么位置，模型都可以把“往回看 k 个词元”学成一个固定的线性映射。"},
    "pe_shift_matrix": {"en": "M_k for k = {k} (first {n} dimensions)", "zh": "k = {k} 时的 M_k（前 {n} 个维度）"},
    "pe_shift_arrows": {"en": "Pairs (sin, cos) of PE({pos}) turned by M_k land on PE({pos2})",
                        "zh": "PE({pos}) 的 (sin, cos) 对经 M_k 旋转后落在 PE({pos2}) 上"},
    "pe_shift_pair": {"en": "pair {i}: ω = {w:.3g}\nk·ω = {a:.3g} rad",
                      "zh": "第 {i} 对：ω = {w:.3g}\nk·ω = {a:.3g} 弧度"},
    "pe_arrow_before": {"en": "PE(pos)", "zh": "PE(pos)"},
    "pe_arrow_rotated": {"en": "M_k · PE(pos)", "zh": "M_k · PE(pos)"},
    "pe_arrow_target": {"en": "PE(pos + k)", "zh": "PE(pos + k)"},
    "pe_shift_check": {"en": "Largest |M_k · PE(pos) − PE(pos + k)| over all {n} positions and {d} dimensions: "
                             "{err:.2e} (float32 rounding).",
                       "zh": "在全部 {n} 个位置和 {d} 个维度上，|M_k · PE(pos) − PE(pos + k)| 的最大值为 {err:.2e}"
                             "（float32 舍入误差）。"},
    # ---- rope ----------------------------------------------------------------------------------
    "pe_rope_intro": {
        "en": "RoPE turns each pair of query/key dimensions by the angle m·θ_i, where m is the position. A "
              "query at m and a key at n are turned by m·θ_i and n·θ_i, so their dot product sees only the "
              "difference (m − n)·θ_i: the score depends on the distance, not on where the pair sits.",
        "zh": "RoPE 把查询/键的每一对维度旋转角度 m·θ_i（m 为位置）。位置 m 的查询和位置 n 的键分别旋转 m·θ_i 和 n·θ_i，"
              "所以它们的点积只看到差值 (m − n)·θ_i：分数只取决于距离，而不取决于这对词元所在的位置。"},
    "pe_rope_arrows": {"en": "q at m (solid) and k at n = m − {gap} (dashed): the pair turns together, the angle "
                             "between them stays",
                       "zh": "位于 m 的 q（实线）与位于 n = m − {gap} 的 k（虚线）：两者一起旋转，它们之间的夹角保持不变"},
    "pe_rope_gap": {"en": "Distance m − n", "zh": "距离 m − n"},
    "pe_rope_q_at": {"en": "q at m = {m}", "zh": "q 位于 m = {m}"},
    "pe_rope_k_at": {"en": "k at n = {n}", "zh": "k 位于 n = {n}"},
    "pe_rope_freq": {"en": "pair {i}: θ = {theta:.3g}", "zh": "第 {i} 对：θ = {theta:.3g}"},
    "pe_rope_scores": {"en": "q(m)·k(n) against m − n, for queries at several m", "zh": "q(m)·k(n) 随 m − n 的变化（多个查询位置 m）"},
    "pe_rope_query_at": {"en": "query at m = {m}", "zh": "查询位于 m = {m}"},
    "pe_rope_check": {"en": "The curves lie on top of each other: largest difference between them {err:.2e}.",
                      "zh": "这些曲线完全重合：它们之间的最大差异为 {err:.2e}。"},
    "pe_rope_seed": {"en": "Random q and k (seed)", "zh": "随机的 q 和 k（种子）"},
    # ---- bias ----------------------------------------------------------------------------------
    "pe_heads": {"en": "Heads", "zh": "头数"},
    "pe_alibi_title": {"en": "ALiBi: slope per head", "zh": "ALiBi：每个头的斜率"},
    "pe_alibi_bias": {"en": "ALiBi bias −slope·|q − k| per head (first {n} positions)",
                      "zh": "每个头的 ALiBi 偏置 −斜率·|q − k|（前 {n} 个位置）"},
    "pe_alibi_caption": {
        "en": "Head h adds −m_h·|q − k| to its scores: steep heads look locally, flat heads far. The slopes are "
              "the geometric sequence 2^(−8/H), 2^(−16/H), …, not learned.",
        "zh": "第 h 个头在分数上加 −m_h·|q − k|：斜率大的头只看附近，斜率小的头能看得远。斜率是等比数列 "
              "2^(−8/H)、2^(−16/H)、……，不是学出来的。"},
    "pe_bucket_title": {"en": "T5 buckets ({direction})", "zh": "T5 分桶（{direction}）"},
    "pe_bidirectional": {"en": "bidirectional: encoder", "zh": "双向：编码器"},
    "pe_causal": {"en": "causal: decoder", "zh": "因果：解码器"},
    "pe_bucket_caption": {
        "en": "Small distances get a bucket each; larger ones share log-spaced buckets; beyond {maxd} all share "
              "the last. The model learns one number per (bucket, head).",
        "zh": "较小的距离各有自己的分桶；较大的距离共享按对数划分的分桶；超过 {maxd} 的距离全部共享最后一个分桶。"
              "模型为每个（分桶，头）学习一个数。"},
    "pe_rel_bias": {"en": "Relative bias per head from {model} (first {n} positions)",
                    "zh": "{model} 中每个头的相对位置偏置（前 {n} 个位置）"},
    "pe_rel_curve": {"en": "Bias per head against the offset k − q", "zh": "每个头的偏置随偏移 k − q 的变化"},
    "pe_w_rel_offset": {"en": "offset k − q", "zh": "偏移 k − q"},
    "pe_stack": {"en": "Stack", "zh": "编码器/解码器"},
    "pe_stack_encoder": {"en": "encoder", "zh": "编码器"},
    "pe_stack_decoder": {"en": "decoder", "zh": "解码器"},
    "pe_grid_capped": {"en": "Showing the first {n} of {total} positions.", "zh": "只显示 {total} 个位置中的前 {n} 个。"},
    "pe_no_relative": {"en": "No model with T5 relative buckets is available.", "zh": "没有可用的 T5 相对分桶模型。"},
    "pe_no_learned": {"en": "No model with a learned position table is available.", "zh": "没有可用的可学习位置表模型。"},
    # ---- explanations ----------------------------------------------------------------------------
    "pe_formulas": {"en": "Formulas and worked numbers", "zh": "公式与计算示例"},
    "pe_ex_sinusoidal": {
        "en": "**Sinusoidal** (Vaswani et al., 2017). Pair i of the vector turns at the frequency ω_i = 10000^(−2i/d): "
              "fast in the first dimensions, slow in the last, like the hands of a clock. Added to the token "
              "embedding; nothing to learn, defined for any position.",
        "zh": "**正弦位置编码**（Vaswani 等，2017）。向量的第 i 对维度以频率 ω_i = 10000^(−2i/d) 旋转："
              "前面的维度转得快，后面的维度转得慢，就像时钟的指针。它加到词元嵌入上；无需学习，任何位置都有定义。"},
    "pe_ex_worked": {
        "en": "Worked numbers (computed now by `models.positional.sinusoidal`): PE(10, 0) = sin(10 rad) = {v0:.4f} and "
              "PE(10, 1) = cos(10 rad) = {v1:.4f}. Angles are radians: sin(10°) = {deg:.4f} is the common mistake.",
        "zh": "计算示例（由 `models.positional.sinusoidal` 实时计算）：PE(10, 0) = sin(10 弧度) = {v0:.4f}，"
              "PE(10, 1) = cos(10 弧度) = {v1:.4f}。角度用弧度：sin(10°) = {deg:.4f} 是常见的错误。"},
    "pe_ex_yours": {"en": "Your numbers: PE({pos}, {dim}) = {fn}({pos} / 10000^({two_i}/{d})) = {fn}({angle:.6g} rad) "
                          "= {value:.6f}",
                    "zh": "你的例子：PE({pos}, {dim}) = {fn}({pos} / 10000^({two_i}/{d})) = {fn}({angle:.6g} 弧度) "
                          "= {value:.6f}"},
    "pe_ex_learned": {
        "en": "**Learned** (BERT, GPT-2). A trainable table P with one vector per position up to a maximum "
              "length (512 for MiniLM/BERT, 1024 for GPT-2). Flexible, but a position that was never trained "
              "has no vector: the model cannot read beyond its table.",
        "zh": "**可学习位置编码**（BERT、GPT-2）。一个可训练的表 P，每个位置一个向量，直到最大长度（MiniLM/BERT 为 512，"
              "GPT-2 为 1024）。很灵活，但从未训练过的位置没有向量：模型无法读取超出表长度的序列。"},
    "pe_ex_rope": {
        "en": "**RoPE** (Su et al., 2021; LLaMA). No vector is added; queries and keys are rotated, pair by pair, "
              "by the angle m·θ_i. The dot product of a query at m and a key at n depends on m − n only. The "
              "formula shows the pairing this model (and LLaMA, `rotate_half`) uses: dimension i with i + d/2. "
              "RoFormer's paper pairs neighbours (2i, 2i+1); the two are the same rotation up to a permutation of "
              "the dimensions, so only checkpoints must agree on it.",
        "zh": "**RoPE**（Su 等，2021；LLaMA）。不加任何向量，而是把查询和键逐对旋转角度 m·θ_i。"
              "位置 m 的查询与位置 n 的键的点积只取决于 m − n。公式给出的是本模型（以及 LLaMA 的 `rotate_half`）"
              "采用的配对方式：第 i 维与第 i + d/2 维配对。RoFormer 论文则把相邻的 (2i, 2i+1) 配对；两者只差一个维度"
              "置换，是同一种旋转，只是加载检查点时配对方式必须一致。"},
    "pe_ex_rope_worked": {"en": "Worked numbers: θ_0 = 1 rad per position, so a query at m = 3 turns its first pair "
                                "by 3 rad = {deg:.1f}°.",
                          "zh": "计算示例：θ_0 = 每个位置 1 弧度，所以位于 m = 3 的查询的第一对维度旋转 3 弧度 = {deg:.1f}°。"},
    "pe_ex_alibi": {
        "en": "**ALiBi** (Press et al., 2022). No vectors: head h subtracts m_h·|q − k| from every score. "
              "Trained short, it keeps working on longer inputs because the penalty is defined for any distance.",
        "zh": "**ALiBi**（Press 等，2022）。没有位置向量：第 h 个头从每个分数中减去 m_h·|q − k|。"
              "由于惩罚对任意距离都有定义，在短序列上训练后仍能处理更长的输入。"},
    "pe_ex_alibi_worked": {"en": "Worked numbers: with {h} heads the first slope is 2^(−8/{h}) = {s0:.4g}; at distance "
                                 "5 head 0 adds {b:.4g}.",
                           "zh": "计算示例：{h} 个头时第一个斜率为 2^(−8/{h}) = {s0:.4g}；在距离 5 处第 0 个头加上 {b:.4g}。"},
    "pe_ex_relative": {
        "en": "**Relative buckets** (T5, Raffel et al., 2020). The offset k − q is mapped to a bucket (exact for "
              "small offsets, log-spaced beyond), and each head learns one scalar bias per bucket, added to the "
              "score. This is what the model here computes. The first relative scheme, Shaw et al. (2018), was "
              "different: it clips the offset to [−K, K] and learns a *vector* per offset that is added to the "
              "keys (and values).",
        "zh": "**相对位置分桶**（T5，Raffel 等，2020）。把偏移 k − q 映射到一个分桶（小偏移各占一个桶，较大的偏移按对数"
              "划分），每个头为每个分桶学习一个标量偏置，加到分数上。这里的模型计算的正是这种方案。最早的相对位置方案"
              "（Shaw 等，2018）则不同：它把偏移截断到 [−K, K]，为每个偏移学习一个*向量*，加到键（以及值）上。"},
    "pe_ex_relative_worked": {"en": "Worked numbers (32 buckets, bidirectional, max distance 128): offset −7 → bucket "
                                    "{b7}, −8 → {b8}, −20 → {b20}, −200 → {b200}.",
                              "zh": "计算示例（32 个分桶，双向，最大距离 128）：偏移 −7 → 分桶 {b7}，−8 → {b8}，"
                                    "−20 → {b20}，−200 → {b200}。"},
    "pe_ex_none": {
        "en": "**No positions.** Self-attention is permutation-equivariant: shuffle the input tokens and every "
              "output is shuffled the same way. Only a causal mask (in a decoder) tells positions apart.",
        "zh": "**无位置编码。** 自注意力是置换等变的：打乱输入词元，每个输出也以同样的方式被打乱。"
              "只有（解码器中的）因果掩码能区分位置。"},
    "pe_your_d": {"en": "d_model", "zh": "d_model"},
    "pe_your_d_help": {"en": "Any even width: 512 gives the paper's (and the course notes') table.",
                       "zh": "任意偶数宽度：512 即论文（以及课程讲义）中的表。"},
    "pe_ex_yours_degrees": {"en": "(Read in degrees by mistake: {fn}({angle:.6g}°) = {deg:.6f}.)",
                            "zh": "（若误把角度当作度数：{fn}({angle:.6g}°) = {deg:.6f}。）"},
    "pe_notes_title": {"en": "The course notes' worked example, PE({pos}, ·) at d_model = {d}, computed now:",
                       "zh": "课程讲义中的计算示例，d_model = {d} 时的 PE({pos}, ·)，此处实时计算："},
    "pe_notes_formula": {"en": "formula", "zh": "公式"},
    "pe_notes_angle": {"en": "angle (rad)", "zh": "角度（弧度）"},
    "pe_notes_rad": {"en": "value (radians: the model)", "zh": "取值（弧度：模型的算法）"},
    "pe_notes_deg": {"en": "value if read in degrees", "zh": "若按度数计算"},
    "pe_notes_caption": {
        "en": "The notes give PE(10, 0) = sin(10) = 0.17 and PE(10, 1) = cos(10) = 0.98: those are the degree column. "
              "The model (and Vaswani et al.) use radians: sin(10) = −0.5440.",
        "zh": "讲义给出 PE(10, 0) = sin(10) = 0.17、PE(10, 1) = cos(10) = 0.98：这正是按度数计算的那一列。"
              "模型（以及 Vaswani 等）使用弧度：sin(10) = −0.5440。"},
    "pe_mis_length_common": {"en": "“Sinusoidal position encodings stop working beyond about 50 tokens.”",
                             "zh": "“正弦位置编码超过大约 50 个词元就失效了。”"},
    "pe_mis_length_shown": {
        "en": "What breaks is the *training* length, whatever it is. The sinusoidal checkpoint was trained on inputs of "
              "{train} symbols ({pos} positions): at 1× its {metric} is {a1:.0%}, at ×{f:g} ({n} symbols) {af:.0%}. "
              "The table itself is fine far out: neighbouring positions are {gap:.3f} apart at position 10,000, "
              "exactly as at position 0 ({gap0:.3f}). A model trained on 512 or 2,048 tokens reads them all.",
        "zh": "失效的界限是*训练*长度，无论它是多少。这个正弦位置编码检查点训练时的输入为 {train} 个符号（{pos} 个位置）：在 1× 时"
              "{metric}为 {a1:.0%}，在 ×{f:g}（{n} 个符号）时为 {af:.0%}。编码表本身在很远处也没有问题：在位置 10,000 处相邻位置之间"
              "相距 {gap:.3f}，与位置 0 处（{gap0:.3f}）完全相同。在 512 或 2,048 个词元上训练的模型能读取全部这些位置。"},
    # ---- notes: what the course notes say, and what this page computes (item 8 of issue 36) ----
    "pe_mis_wavelength_common": {
        "en": "“The smaller the position, the longer the wavelength; the right half of the table is flat because later "
              "positions have lower frequencies.”",
        "zh": "“位置越小，波长越长；编码表的右半部分很平，是因为靠后的位置频率更低。”"},
    "pe_mis_wavelength_shown": {
        "en": "The wavelength belongs to the dimension, not to the position: 2π·{base:g}^(2i/d) has no pos in it. In the "
              "table above (d = {d}) dimensions 0 and 1 repeat every {w0:.1f} positions and dimensions {a} and {b} every "
              "{wl:,.0f}, at every position alike. Along a row the frequency falls from left to right; down a column it "
              "never changes. The right half is flat because its dimensions turn slowly.",
        "zh": "波长属于维度，而不属于位置：2π·{base:g}^(2i/d) 里没有 pos。在上面的编码表中（d = {d}），第 0、1 维每 {w0:.1f} "
              "个位置重复一次，第 {a}、{b} 维每 {wl:,.0f} 个位置重复一次，在任何位置都一样。沿着一行看，频率从左到右降低；"
              "沿着一列看，频率始终不变。右半部分之所以平，是因为这些维度转得慢。"},
    "pe_mis_evenodd_common": {"en": "“Even positions use sin, odd positions use cos.”",
                              "zh": "“偶数位置用 sin，奇数位置用 cos。”"},
    "pe_mis_evenodd_shown": {
        "en": "It is the dimension that decides: dimension 2i uses sin and 2i + 1 uses cos, at every position. Your "
              "dimension {dim} uses {fn} at position {pos} and {fn2} again at position {pos2}.",
        "zh": "决定用 sin 还是 cos 的是维度：第 2i 维用 sin，第 2i + 1 维用 cos，在任何位置都是如此。你选的第 {dim} 维在位置 "
              "{pos} 用 {fn}，在位置 {pos2} 仍然用 {fn2}。"},
    "pe_mis_exponent_common": {"en": "Code: `div = 10000 ** (i / d_model)` with `i` running over every dimension.",
                               "zh": "代码：`div = 10000 ** (i / d_model)`，其中 `i` 取遍每一个维度。"},
    "pe_mis_exponent_shown": {
        "en": "The exponent is 2i/d_model, the same for both dimensions of a pair (2i, 2i + 1). With every dimension's "
              "own index, sin and cos of a pair turn at different speeds: at position {pos} with d_model = {d}, the "
              "pairs' radii √(sin² + cos²) range from {lo} to {hi} ({bad} of {pairs} pairs off 1 by more than 0.001), "
              "where the model's table keeps every pair on the unit circle. Then PE(pos + k) is no longer PE(pos) "
              "turned by a fixed rotation, which is what the Sinusoidal shift section relies on.",
        "zh": "指数应当是 2i/d_model，一对维度 (2i, 2i + 1) 共用同一个指数。若用每个维度自己的下标，同一对的 sin 和 cos 转动速度"
              "就不一样了：在位置 {pos}、d_model = {d} 时，各对的半径 √(sin² + cos²) 在 {lo} 到 {hi} 之间（{pairs} 对中有 {bad} "
              "对偏离 1 超过 0.001），而模型的表让每一对都落在单位圆上。于是 PE(pos + k) 不再是 PE(pos) 经过一个固定旋转得到的，"
              "而“正弦平移性质”部分正依赖这一点。"},
    "pe_mis_vocab_common": {"en": "“The position vector depends on the vocabulary size and on the token's id.”",
                            "zh": "“位置向量取决于词表大小和词元的编号。”"},
    "pe_mis_vocab_shown": {
        "en": "PE({pos}, {dim}) = {value:.6f} above came from the position, the dimension and d_model alone: the calculator "
              "has no field for a token or a vocabulary. Every token at position {pos} gets the same position vector; "
              "what the token is comes from the embedding table (vocabulary × d_model), added to it.",
        "zh": "上面的 PE({pos}, {dim}) = {value:.6f} 只由位置、维度和 d_model 算出：计算器里没有词元或词表的输入框。"
              "位置 {pos} 上的任何词元得到的都是同一个位置向量；词元本身是什么，来自与它相加的嵌入表（词表大小 × d_model）。"},
    "pe_mis_source_common": {"en": "“The GPT-3 paper gives the sinusoidal formula.”",
                             "zh": "“正弦位置编码的公式出自 GPT-3 的论文。”"},
    "pe_mis_source_shown": {
        "en": "The formula is from Vaswani et al. 2017 (§3.5), the paper of the original Transformer. GPT-2 and GPT-3 do "
              "not use it: they learn a table of position vectors, the *learned* scheme on this page.",
        "zh": "这个公式出自 Vaswani 等 2017（§3.5），即原始 Transformer 的论文。GPT-2 和 GPT-3 并不使用它：它们学习一张位置向量"
              "表，也就是本页的*可学习*方案。"},
    "pe_mis_addition_common": {"en": "“sin(a + b) = sin(a), so a shift leaves the position vector as it was.”",
                               "zh": "“sin(a + b) = sin(a)，所以平移后位置向量不变。”"},
    "pe_mis_addition_shown": {
        "en": "sin(a + b) = sin a·cos b + cos a·sin b. For pair 0 with pos = {pos} and k = {k}: sin((pos + k)ω) = "
              "{after:.4f}, not sin(pos·ω) = {before:.4f}; the formula gives {sum:.4f}. A shift turns each pair by k·ω, "
              "which is why the matrix M_k above exists at all.",
        "zh": "sin(a + b) = sin a·cos b + cos a·sin b。对第 0 对、pos = {pos}、k = {k}：sin((pos + k)ω) = {after:.4f}，"
              "并不等于 sin(pos·ω) = {before:.4f}；按公式计算得 {sum:.4f}。平移把每一对转过 k·ω 的角度，上面的矩阵 M_k "
              "正是因此而存在。"},
    "pe_mis_unique_common": {"en": "“Each position's vector is unique because a sine does not repeat its values within one period.”",
                             "zh": "“每个位置的向量都是唯一的，因为正弦函数在一个周期内取值不重复。”"},
    "pe_mis_unique_shown": {
        "en": "A sine does repeat within a period: sin x = sin(π − x). Position {pos} has sin = {s:.4f} in pair 0; the "
              "angle π − x gives the same sine, but its cosine is {c2:.4f} instead of {c:.4f}. Positions are told apart by "
              "the (sin, cos) pair, a point on a circle, and by the many frequencies: the slowest pair here takes "
              "{wl:,.0f} positions to go round once, and PE(pos + 1) − PE(pos) has the same length, {gap:.3f}, at every "
              "position.",
        "zh": "正弦函数在一个周期内确实会重复取值：sin x = sin(π − x)。位置 {pos} 在第 0 对上 sin = {s:.4f}；角度 π − x 的正弦"
              "与它相同，但 cos 值是 {c2:.4f} 而不是 {c:.4f}。区分不同位置的是 (sin, cos) 这一对，即圆上的一个点，以及众多的频率："
              "这里最慢的一对要 {wl:,.0f} 个位置才转一圈，而 PE(pos + 1) − PE(pos) 在每个位置的长度都是 {gap:.3f}。"},
    "pe_mis_rope_common": {"en": "“RoPE is an absolute position encoding, the only absolute one that works with linear "
                                 "attention.”",
                           "zh": "“RoPE 是绝对位置编码，是唯一能用于线性注意力的绝对位置编码。”"},
    "pe_mis_rope_shown": {
        "en": "Each vector is turned by the absolute angle of its own position, but the score q·k only sees the "
              "difference of the two angles: the score curves above, for queries at different positions, agree to "
              "{err:.1e}. RoPE is a relative encoding written with absolute rotations. Any absolute vector added to "
              "the input works with linear attention; the RoFormer paper's point is that RoPE, unlike other relative "
              "encodings, does too.",
        "zh": "每个向量按自己位置的绝对角度旋转，但分数 q·k 只看两个角度之差：上面不同位置查询的分数曲线相差不超过 {err:.1e}。"
              "RoPE 是用绝对旋转写出来的相对位置编码。任何加到输入上的绝对位置向量都能用于线性注意力；RoFormer 论文要说的是："
              "与其他相对位置编码不同，RoPE 也能用于线性注意力。"},
    "pe_mis_direction_common": {"en": "“A relative position encoding cannot tell left from right.”",
                                "zh": "“相对位置编码分不清左右方向。”"},
    "pe_mis_direction_shown": {
        "en": "T5's buckets use the signed offset k − q: in {model}, head {h} adds {left:.3f} to the key one step to the "
              "left and {right:.3f} to the key one step to the right. What is symmetric is the sinusoidal product "
              "PE(t)·PE(t + k), the same for +k and −k (the similarity curves of the tables section).",
        "zh": "T5 的分桶使用带符号的偏移 k − q：在 {model} 中，第 {h} 个头给左边一步的键加上 {left:.3f}，给右边一步的键加上 "
              "{right:.3f}。真正左右对称的是正弦位置向量的乘积 PE(t)·PE(t + k)：+k 和 −k 的结果相同（见编码表部分的相似度曲线）。"},
    "pe_mis_copies_common": {"en": "“To reach 4,096 positions, copy 8 position embeddings.”",
                             "zh": "“要达到 4,096 个位置，复制 8 个位置嵌入即可。”"},
    "pe_mis_copies_shown": {
        "en": "Longformer copies the whole learned table of RoBERTa, 512 rows, 8 times (512 × 8 = 4,096). This table "
              "has {rows:,} rows, so reaching 4,096 positions the same way would take {copies} copies of it.",
        "zh": "Longformer 复制的是 RoBERTa 整张可学习的位置表（512 行），复制 8 次（512 × 8 = 4,096）。这张表有 {rows:,} 行，"
              "用同样的办法达到 4,096 个位置需要复制它 {copies} 次。"},
    "pe_mis_shuffle_common": {"en": "“Without positional encoding, a shuffled sentence gives the same output.”",
                              "zh": "“没有位置编码时，打乱句子得到的输出完全相同。”"},
    "pe_mis_shuffle_shown": {
        "en": "It gives the same vectors in the shuffled order. Compared position by position, the unmasked weights "
              "above differ by up to {raw:.3f}; with the shuffle undone, by {full:.1e}. And this only holds without "
              "the causal mask: with it, the weights differ by {masked:.3f} even after undoing the shuffle.",
        "zh": "得到的是打乱了顺序的同一组向量。逐个位置比较，上面未掩码的权重最多相差 {raw:.3f}；把打乱的顺序恢复后，只相差 "
              "{full:.1e}。而且只有在没有因果掩码时才如此：加上因果掩码后，即使恢复顺序，权重也相差 {masked:.3f}。"},
    "pe_your_pos": {"en": "pos", "zh": "pos"},
    "pe_your_dim": {"en": "dimension", "zh": "维度"},
    # ---- checkpoint sections -------------------------------------------------------------------
    "pe_task": {"en": "Task", "zh": "任务"},
    "pe_task_copy": {"en": "copy", "zh": "复制"},
    "pe_task_reverse": {"en": "reverse", "zh": "反转"},
    "pe_task_sort": {"en": "sort", "zh": "排序"},
    "pe_task_induction": {"en": "induction", "zh": "归纳"},
    "pe_task_brackets": {"en": "brackets", "zh": "补全括号"},
    "pe_task_spell": {"en": "spell", "zh": "数字转英文单词"},
    "pe_probe_len": {"en": "Input length (symbols)", "zh": "输入长度（符号数）"},
    "pe_layer": {"en": "Layer", "zh": "层"},
    "pe_head": {"en": "Head", "zh": "头"},
    "pe_head_mean": {"en": "mean of heads", "zh": "所有头的平均"},
    "pe_probe": {"en": "The same probe for every model: {text} ({n} tokens; trained on inputs of up to {train} "
                       "symbols).",
                 "zh": "所有模型使用同一个探测输入：{text}（{n} 个词元；训练时输入最多 {train} 个符号）。"},
    "pe_beyond_short": {"en": "{scheme}: beyond its table", "zh": "{scheme}：超出位置表"},
    "pe_beyond_table": {"en": "beyond the learned table", "zh": "超出可学习位置表"},
    "pe_col_scheme": {"en": "scheme", "zh": "方案"},
    "pe_col_train_acc": {"en": "accuracy at training length", "zh": "训练长度上的准确率"},
    "pe_col_ideal": {"en": "mass on the ideal pattern (shown map)", "zh": "落在理想模式上的权重（当前图）"},
    "pe_col_best": {"en": "best head of this layer", "zh": "本层最好的头"},
    "pe_attn_title": {"en": "Layer {layer}: the same input, one model per scheme (grey = masked)",
                      "zh": "第 {layer} 层：同一个输入，每种方案一个模型（灰色 = 被掩码）"},
    "pe_attn_caption": {
        "en": "Each model is the same small decoder trained on the same task with the same seed; only the "
              "positional scheme differs. The ideal-pattern mass is the share of attention the answer tokens put "
              "where the task says they should look (1 = perfect).",
        "zh": "每个模型都是同样的小型解码器，用同样的种子在同一任务上训练，只有位置编码方案不同。"
              "“落在理想模式上的权重”是答案词元把注意力放在任务所要求位置上的比例（1 = 完美）。"},
    "pe_perm_title": {"en": "No positions: the attention permutes with the tokens",
                      "zh": "无位置编码：注意力随词元一起被置换"},
    "pe_perm_intro": {
        "en": "The model without positional encoding reads the probe, then the same tokens shuffled (the first "
              "and the last token stay in place). Shown: layer 0, the softmax of the model's own scores with the "
              "causal mask removed, where self-attention is exactly permutation-equivariant.",
        "zh": "无位置编码的模型先读取探测输入，再读取打乱顺序后的同一组词元（第一个和最后一个词元保持不动）。"
              "下图为第 0 层：去掉因果掩码后对模型自身分数做 softmax 的结果，此时自注意力严格满足置换等变。"},
    "pe_perm_seed": {"en": "Shuffle (seed)", "zh": "打乱方式（种子）"},
    "pe_perm_order": {"en": "Shuffled input: {text}", "zh": "打乱后的输入：{text}"},
    "pe_perm_orig": {"en": "original order", "zh": "原始顺序"},
    "pe_perm_shuffled": {"en": "shuffled input", "zh": "打乱后的输入"},
    "pe_perm_undone": {"en": "shuffled, order undone", "zh": "打乱后再恢复顺序"},
    "pe_perm_result": {"en": "Layer-0 scores of the shuffled input, with the shuffle undone, differ from the "
                             "original by at most {score:.1e}; the unmasked softmax by {full:.1e}.",
                       "zh": "把打乱输入的第 0 层分数恢复顺序后，与原始分数的最大差异为 {score:.1e}；"
                             "未掩码的 softmax 的最大差异为 {full:.1e}。"},
    "pe_perm_causal": {
        "en": "**What holds in this causal decoder.** The causal mask is itself positional: query i may look at "
              "positions 0..i only, so after a shuffle most queries see a different set of tokens, and the "
              "model's masked pattern differs by up to {masked:.2f}. A row is unchanged (up to order) exactly when "
              "its query sees the same set of tokens before and after: here rows {rows}, max difference "
              "{rows_err:.1e}. Deeper layers inherit the mask's order through the residual stream.",
        "zh": "**在这个因果解码器中，哪些性质仍然成立？** 因果掩码本身就带有位置信息：查询 i 只能看位置 0..i，因此打乱后大多数查询"
              "看到的是另一组词元，模型实际（带掩码）的注意力最多相差 {masked:.2f}。当且仅当一个查询在打乱前后看到同一组"
              "词元时，它的那一行不变（只是顺序不同）：这里是第 {rows} 行，最大差异为 {rows_err:.1e}。"
              "更深的层通过残差流继承了掩码带来的顺序信息。"},
    "pe_col_score_err": {"en": "layer-0 scores", "zh": "第 0 层分数"},
    "pe_col_full_err": {"en": "softmax without mask", "zh": "无掩码 softmax"},
    "pe_col_masked_err": {"en": "model's masked pattern", "zh": "模型带掩码的注意力"},
    "pe_perm_table_caption": {
        "en": "The same shuffle for every scheme (largest difference after undoing it). Only the model without "
              "positions is equivariant; every positional scheme breaks it, which is the point of having one.",
        "zh": "对每种方案使用同样的打乱方式（恢复顺序后的最大差异）。只有无位置编码的模型是等变的；"
              "每种位置编码方案都会打破等变性，这正是位置编码的意义。"},
    "pe_extra_n": {"en": "Examples per length", "zh": "每个长度的样本数"},
    "pe_extra_intro": {
        "en": "Train short, test long (Press et al., 2022): each checkpoint was trained on inputs of up to {train} "
              "symbols; here it answers fresh examples that are 1×, 1.5×, 2×, 4× and 8× that long. Accuracy is "
              "exact-match: every answer token right.",
        "zh": "短训练、长测试（Press 等，2022）：每个检查点训练时的输入最多 {train} 个符号；这里让它回答长度为 1×、1.5×、"
              "2×、4× 和 8× 的新样本。准确率为完全匹配：每个答案词元都正确。"},
    "pe_extra_running": {"en": "Evaluating the checkpoints (cached afterwards)…", "zh": "正在评估检查点（之后会缓存）……"},
    "pe_extra_title": {"en": "{metric} against input length ({task})",
                       "zh": "{metric}随输入长度的变化（{task}）"},
    "pe_extra_metric": {"en": "Measure", "zh": "度量"},
    "pe_extra_exact": {"en": "exact-match accuracy", "zh": "完全匹配准确率"},
    "pe_extra_tokens": {"en": "per-token accuracy", "zh": "逐词元准确率"},
    "pe_extra_strict": {
        "en": "Exact match is strict: one wrong answer token fails the whole example, so a curve can drop to 0 "
              "while most tokens are still right. The per-token accuracy (same examples) shows how much of a longer "
              "answer each scheme still gets right.",
        "zh": "完全匹配很严格：答案中只要有一个词元错误，整个样本就算错，所以即使大多数词元仍然正确，曲线也可能降到 0。"
              "逐词元准确率（使用相同样本）显示每种方案在更长的答案中仍能答对多少。"},
    "pe_extra_x": {"en": "input length / training length", "zh": "输入长度 / 训练长度"},
    "pe_extra_col": {"en": "×{f} ({n})", "zh": "×{f}（{n}）"},
    "pe_extra_beyond": {"en": "Not measurable (× on the axis):", "zh": "无法测量（坐标轴上的 ×）："},
    "pe_extra_learned": {
        "en": "The learned table has {rows} rows, but training only used positions 0..{trained}−1; the rows "
              "after that are still their random initial values. Positions needed per length: {need}.",
        "zh": "可学习位置表有 {rows} 行，但训练只用到了位置 0..{trained}−1；之后的行仍然是随机初始值。"
              "各长度所需的位置数：{need}。"},
    "pe_extra_caption": {"en": "{n} seeded examples per length; the same examples for every scheme.",
                         "zh": "每个长度 {n} 个固定种子的样本；每种方案使用相同的样本。"},
    "pe_shift_filler_k": {"en": "Filler tokens k", "zh": "填充词元数 k"},
    "pe_filler": {"en": "Filler symbol", "zh": "填充符号"},
    "pe_shifttest_intro": {"en": "The probe {text}, then the same probe preceded by {k} copies of {filler}. Compared: "
                                 "the attention among the probe's own tokens.",
                           "zh": "探测输入 {text}，以及在其前面加上 {k} 个 {filler} 的同一输入。比较的是探测输入自身词元之间的注意力。"},
    "pe_col_score_change": {"en": "layer-0 max |Δ score|", "zh": "第 0 层最大 |Δ 分数|"},
    "pe_col_tv": {"en": "layer {layer}: mean row change", "zh": "第 {layer} 层：行的平均变化"},
    "pe_col_note": {"en": "note", "zh": "说明"},
    "pe_shift_bars": {"en": "Change of the layer-0 scores among the original tokens",
                      "zh": "原始词元之间第 0 层分数的变化"},
    "pe_shift_maps": {"en": "Layer 0: |Δ attention| on the original tokens (max over heads)",
                      "zh": "第 0 层：原始词元上的 |Δ 注意力|（各头取最大）"},
    "pe_shifttest_caption": {
        "en": "Sinusoidal and learned vectors are added to the input, so moving every token by k changes the "
              "layer-0 scores. RoPE, ALiBi and T5 buckets depend on the distance only, and no positions at all "
              "depends on neither: their layer-0 scores do not change (up to float rounding). The row change is "
              "the total-variation distance between the rows, renormalised over the original keys; in deeper "
              "layers every scheme changes a little, because the fillers' content enters the residual stream.",
        "zh": "正弦和可学习的位置向量加在输入上，所以把每个词元移动 k 个位置会改变第 0 层的分数。RoPE、ALiBi 和 T5 分桶"
              "只取决于距离，无位置编码则两者都不依赖：它们第 0 层的分数不变（仅有浮点舍入误差）。“行的变化”是"
              "在原始键上重新归一化后各行之间的全变差距离；在更深的层中，每种方案都会有一些变化，因为填充词元的内容进入了残差流。"},
}

FORMULAS = {
    "pe_sinusoidal": r"PE_{(pos,\,2i)}=\sin\!\left(\frac{pos}{10000^{2i/d}}\right),\qquad "
                     r"PE_{(pos,\,2i+1)}=\cos\!\left(\frac{pos}{10000^{2i/d}}\right)",
    "pe_shift": r"\begin{pmatrix}PE_{(pos+k,\,2i)}\\ PE_{(pos+k,\,2i+1)}\end{pmatrix}="
                r"\begin{pmatrix}\cos k\omega_i & \sin k\omega_i\\ -\sin k\omega_i & \cos k\omega_i\end{pmatrix}"
                r"\begin{pmatrix}PE_{(pos,\,2i)}\\ PE_{(pos,\,2i+1)}\end{pmatrix},\quad \omega_i=10000^{-2i/d}",
    "pe_learned": r"x_{pos}=E[\text{token}_{pos}]+P[pos],\qquad P\in\mathbb{R}^{L_{\max}\times d}",
    "pe_learned_zh": r"x_{pos}=E[\text{词元}_{pos}]+P[pos],\qquad P\in\mathbb{R}^{L_{\max}\times d}",
    "pe_rope": r"f(x,m)_i=\begin{pmatrix}\cos m\theta_i & -\sin m\theta_i\\ \sin m\theta_i & \cos m\theta_i\end{pmatrix}"
               r"\begin{pmatrix}x_i\\ x_{i+d/2}\end{pmatrix},\quad "
               r"f(q,m)\cdot f(k,n)=\sum_i \mathrm{Re}\!\left[\tilde q_i\,\overline{\tilde k_i}\,e^{\mathrm{i}(m-n)\theta_i}\right]",
    "pe_alibi": r"s_{qk}=\frac{q\cdot k}{\sqrt{d_k}}-m_h\,|q-k|,\qquad m_h=2^{-8h/H}\ (h=1..H)",
    "pe_relative": r"s_{qk}=\frac{q\cdot k}{\sqrt{d_k}}+b_{h}\big[\mathrm{bucket}(k-q)\big]",
    "pe_relative_zh": r"s_{qk}=\frac{q\cdot k}{\sqrt{d_k}}+b_{h}\big[\text{分桶}(k-q)\big]",
    "pe_none": r"\mathrm{Attn}(P X)=P\,\mathrm{Attn}(X)\quad\text{for any permutation matrix }P\ (\text{no mask})",
    "pe_none_zh": r"\mathrm{Attn}(P X)=P\,\mathrm{Attn}(X)\quad\text{对任意置换矩阵 }P\text{ 成立（无掩码时）}",
}

"""Strings of the beyond-softmax page's recurrent-family section (retention, gated retention, RWKV, SSM)."""

STRINGS = {
    "bxr_intro": {
        "en": "Each variant below reads the same queries, keys and values as softmax attention, but as a **recurrence**: "
              "one pass over the positions that carries a fixed-size **state** instead of a cache that grows with the "
              "text. Each is computed twice — as the recurrence and as the explicit sum it unrolls to — and the largest "
              "difference between the two outputs is shown: they are the same computation.",
        "zh": "下面每种变体读取的都是与 softmax 注意力相同的查询、键、值，但以**循环**的方式计算：按位置逐个走一遍，携带一个"
              "固定大小的**状态**，而不是随文本增长的缓存。每种变体都算两遍——循环形式，以及它展开后的显式求和——并显示两者"
              "输出之间的最大差值：它们是同一个计算。"},
    "bxr_form": {"en": "Variant", "zh": "变体"},
    "bxr_form_retention": {"en": "Retention (3 forms)", "zh": "保留机制（三种形式）"},
    "bxr_form_gated": {"en": "Gated retention", "zh": "门控保留"},
    "bxr_form_rwkv": {"en": "RWKV (WKV)", "zh": "RWKV（WKV）"},
    "bxr_form_ssm": {"en": "Selective SSM (Mamba)", "zh": "选择性状态空间模型（Mamba）"},
    "bxr_causal_note": {
        "en": "This head of the model is bidirectional (an encoder): its softmax weights read the whole text, while "
              "every recurrence here reads only the past. Compare the lower triangles.",
        "zh": "模型的这个头是双向的（编码器）：它的 softmax 权重读取整段文本，而这里的每种循环只读取过去的位置。请比较下三角部分。"},
    # retention
    "bxr_ret_intro": {
        "en": "**Retention** (Sun et al. 2023, RetNet) drops the softmax and multiplies each score by a decay "
              "γ^(i−j): the parallel form computes the whole matrix (q kᵀ ⊙ D) v at once, as in training; the recurrent "
              "form keeps a d×d state S, decays it by γ and adds kᵀv at each position, as in generation; the chunkwise "
              "form is parallel inside each chunk and recurrent across chunks. No scaling and no group norm here.",
        "zh": "**保留机制**（Sun 等，2023，RetNet）去掉 softmax，把每个分数乘以衰减 γ^(i−j)：并行形式一次算出整个矩阵 "
              "(q kᵀ ⊙ D) v，适合训练；循环形式保存一个 d×d 的状态 S，每个位置先把它乘以 γ 再加上 kᵀv，适合生成；"
              "分块形式在块内并行、块间循环。这里不做缩放，也不做组归一化。"},
    "bxr_mis_speed_common": {"en": "“RetNet is orders of magnitude faster than a Transformer.”",
                             "zh": "“RetNet 比 Transformer 快几个数量级。”"},
    "bxr_mis_speed_shown": {
        "en": "What the recurrent form saves at generation is the growing KV cache: a state of d × d = {state:,} numbers "
              "per head (d = {d}) instead of the keys and values of every past token, {kv:,} numbers for these {n} "
              "tokens, and the gap grows with the length. The RetNet paper reports, for a 6.7B model at 8k tokens, 8.4× "
              "the decoding throughput, 15.6× lower latency and 3.4× less memory: about one order of magnitude, "
              "not several. Training runs the parallel form and costs about what a Transformer costs.",
        "zh": "循环形式在生成时省下的是不断增长的 KV 缓存：每个头只有 d × d = {state:,} 个数的状态（d = {d}），而不是所有"
              "过去词元的键和值——对这 {n} 个词元是 {kv:,} 个数，而且差距随长度增长。RetNet 论文报告，6.7B 模型在 8k 个词元时，"
              "解码吞吐量是 8.4 倍，延迟降低 15.6 倍，内存减少 3.4 倍：大约一个数量级，而不是几个。训练时使用并行形式，"
              "代价与 Transformer 相当。"},
    "bxr_gamma": {"en": "Decay γ", "zh": "衰减 γ"},
    "bxr_chunk": {"en": "Chunk size", "zh": "分块大小"},
    "bxr_chunk_long": {
        "en": "The chunk size ({chunk}) is at least the number of positions ({n}): the whole text is one chunk, so the "
              "chunkwise form is the parallel form here. Choose a chunk smaller than {n} to see the state cross chunks.",
        "zh": "分块大小（{chunk}）不小于位置数（{n}）：整段文本就是一个块，此时分块形式就是并行形式。选一个小于 {n} "
              "的分块大小，才能看到状态在块之间传递。"},
    "bxr_chunks": {"en": "Chunks: **{chunks}** (at most {chunk} positions each, {n} in all)",
                   "zh": "分块数：**{chunks}**（每块最多 {chunk} 个位置，共 {n} 个）"},
    "bxr_future": {"en": "the future (not read)", "zh": "未来位置（不读取）"},
    "bxr_value": {"en": "value", "zh": "数值"},
    "bxr_break_even": {"en": "From {n} positions on, the fixed state is the smaller of the two.",
                       "zh": "从 {n} 个位置起，固定大小的状态就比缓存小了。"},
    "bxr_err_rec": {"en": "max |recurrent − parallel|", "zh": "最大 |循环 − 并行|"},
    "bxr_err_chunk": {"en": "max |chunkwise − parallel|", "zh": "最大 |分块 − 并行|"},
    "bxr_err": {"en": "max |recurrence − explicit sum|", "zh": "最大 |循环 − 显式求和|"},
    "bxr_softmax": {"en": "The model's softmax weights (layer {layer}, head {head})",
                    "zh": "模型的 softmax 权重（第 {layer} 层，第 {head} 个头）"},
    "bxr_implied": {"en": "The matrix it implies", "zh": "它隐含的矩阵"},
    "bxr_implied_ret": {"en": "q kᵀ ⊙ D (no softmax: any sign, rows need not sum to 1)",
                        "zh": "q kᵀ ⊙ D（没有 softmax：可正可负，每行之和不必为 1）"},
    "bxr_state_norm": {"en": "Size of the state after each position", "zh": "每个位置之后状态的大小"},
    "bxr_state_final": {"en": "The state after the last position", "zh": "最后一个位置之后的状态"},
    "bxr_norm_axis": {"en": "‖state‖ (Frobenius norm)", "zh": "‖状态‖（Frobenius 范数）"},
    "bxr_state_size": {
        "en": "The state is {shape} = **{numbers:,}** numbers whatever the length; softmax attention's cache of keys and "
              "values holds **{kv:,}** numbers after these {n} positions and grows by {step:,} with each new one.",
        "zh": "无论文本多长，状态都是 {shape} = **{numbers:,}** 个数；softmax 注意力的 KV 缓存，在这 {n} 个位置之后有 "
              "**{kv:,}** 个数，并且每多一个位置就增加 {step:,} 个。"},
    "bxr_dim": {"en": "dimension", "zh": "维度"},
    "bxr_series_state": {"en": "recurrent state", "zh": "循环状态"},
    # gated retention
    "bxr_gated_intro": {
        "en": "**Gated retention**: the decay is no longer one constant but depends on the token, "
              "γ_t = σ(k_t·w + b), so a token can decide how much of the past to keep. Here w is a seeded random "
              "projection of the position's key (trained in a real model) and b a bias you set. The parallel form "
              "needs D_ij = γ_(j+1)·…·γ_i, computed from a cumulative sum of log γ.",
        "zh": "**门控保留**：衰减不再是一个常数，而是取决于词元，γ_t = σ(k_t·w + b)，于是每个词元可以决定保留多少过去的信息。"
              "这里 w 是对该位置键的一个带种子的随机投影（真实模型中由训练得到），b 是你设定的偏置。并行形式需要 "
              "D_ij = γ_(j+1)·…·γ_i，用 log γ 的累加和计算。"},
    "bxr_gbias": {"en": "Gate bias b", "zh": "门控偏置 b"},
    "bxr_seed": {"en": "Projection seed", "zh": "投影的随机种子"},
    "bxr_gammas": {"en": "The decay γ_t at each position", "zh": "每个位置的衰减 γ_t"},
    "bxr_gamma_axis": {"en": "γ_t", "zh": "γ_t"},
    "bxr_series_gamma": {"en": "decay", "zh": "衰减"},
    # RWKV
    "bxr_rwkv_intro": {
        "en": "**RWKV** (Peng et al. 2023) mixes time channel by channel: channel c's output is a weighted average of "
              "the past values, the weight of the token i steps back being e^(k − (i−1)·w_c), and the current token gets "
              "a bonus u instead of a decay. Here the keys and values are the head's, the decay w_c spreads "
              "from 0.01 (slow, remembers ~100 steps) to 2 (fast) over the channels, and u is the same on all channels. "
              "The recurrence keeps a, b and the largest exponent p so that nothing overflows.",
        "zh": "**RWKV**（Peng 等，2023）按通道沿时间混合：通道 c 的输出是过去各个值的加权平均，往回第 i 步的词元权重为 "
              "e^(k − (i−1)·w_c)，而当前词元没有衰减，而是得到一个额外的加成 u。这里的键和值取自该头，各通道的衰减 w_c 从 "
              "0.01（慢，约记住 100 步）分布到 2（快），u 在所有通道上相同。循环形式保存 a、b 和当前最大指数 p，因此不会溢出。"},
    "bxr_u": {"en": "Bonus u of the current token", "zh": "当前词元的加成 u"},
    "bxr_channel": {"en": "Channel", "zh": "通道"},
    "bxr_rwkv_matrix": {"en": "Weights of channel {ch} (decay w = {w:.3g}; each row sums to 1)",
                        "zh": "通道 {ch} 的权重（衰减 w = {w:.3g}；每行之和为 1）"},
    "bxr_rwkv_state": {"en": "The state (a, b, p) per channel after the last position",
                       "zh": "最后一个位置之后每个通道的状态 (a, b, p)"},
    # SSM
    "bxr_ssm_intro": {
        "en": "**A selective state-space layer** (Gu & Dao 2023, Mamba): each channel of the input x keeps N "
              "numbers h, decayed by Ā = exp(ΔA) and fed B̄x = ΔBx at each step, read out by C. *Selective* means "
              "Δ, B and C depend on the token. Here x is the head's values, B a seeded projection of the keys, C of "
              "the queries (so C·B plays q·k), Δ = softplus of a seeded projection of x, and A = −1, −2, …, −N on "
              "every channel (Mamba's initialisation).",
        "zh": "**选择性状态空间层**（Gu 与 Dao，2023，Mamba）：输入 x 的每个通道保存 N 个数 h，每一步先乘以 Ā = exp(ΔA) "
              "衰减，再加上 B̄x = ΔBx，最后由 C 读出。*选择性*指 Δ、B、C 都依赖于当前词元。这里 x 取该头的值，B 是键的一个"
              "带种子的投影，C 是查询的投影（于是 C·B 扮演 q·k 的角色），Δ 是 x 的带种子投影经过 softplus，"
              "所有通道上 A = −1, −2, …, −N（Mamba 的初始化）。"},
    "bxr_state_n": {"en": "State size N per channel", "zh": "每个通道的状态大小 N"},
    "bxr_ssm_matrix": {"en": "The matrix of channel {ch}: y = M x (any sign)", "zh": "通道 {ch} 的矩阵：y = M x（可正可负）"},
    "bxr_ssm_checked": {"en": "Explicit sum compared on {k} of {d} channels (the chosen one included).",
                        "zh": "显式求和在 {d} 个通道中的 {k} 个上做了比较（包括所选通道）。"},
    "bxr_ssm_delta": {"en": "Step size Δ_t of channel {ch}", "zh": "通道 {ch} 的步长 Δ_t"},
    "bxr_delta_axis": {"en": "Δ_t", "zh": "Δ_t"},
    "bxr_bad": {"en": "These settings cannot be computed: {error}", "zh": "这些设置无法计算：{error}"},
}

FORMULAS = {
    "bxr_retention": r"S_t = \gamma\,S_{t-1} + k_t^\top v_t,\quad o_t = q_t S_t"
                     r"\;\Longleftrightarrow\; O = (QK^\top \odot D)\,V,\quad D_{ij} = \gamma^{\,i-j}\,[j \le i]",
    "bxr_chunkwise": r"R_i = \gamma^{B} R_{i-1} + K_{[i]}^\top (V_{[i]} \odot \zeta),\quad "
                     r"O_{[i]} = (Q_{[i]}K_{[i]}^\top \odot D)V_{[i]} + (Q_{[i]} R_{i-1}) \odot \xi,\quad "
                     r"\zeta_j = \gamma^{B-1-j},\ \xi_j = \gamma^{\,j+1}",
    "bxr_gated": r"\gamma_t = \sigma(k_t\cdot w + b),\quad S_t = \gamma_t S_{t-1} + k_t^\top v_t,\quad "
                 r"D_{ij} = \prod_{l=j+1}^{i} \gamma_l",
    "bxr_rwkv": r"\mathrm{wkv}_t = \frac{\sum_{i<t} e^{-(t-1-i)w + k_i} v_i + e^{u+k_t} v_t}"
                r"{\sum_{i<t} e^{-(t-1-i)w + k_i} + e^{u+k_t}}",
    "bxr_ssm": r"h_t = e^{\Delta_t A} \odot h_{t-1} + \Delta_t B_t\, x_t,\quad y_t = C_t h_t"
               r"\;\Longleftrightarrow\; y_t = \sum_{s\le t} C_t\, e^{A\sum_{r=s+1}^{t}\Delta_r}\, \Delta_s B_s\, x_s",
}

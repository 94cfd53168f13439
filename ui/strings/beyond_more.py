"""Strings of the beyond-softmax page's memory, MLP-Mixer and ternary-weight sections."""

_FAMILIES = {
    "mha": ("MHA ({kv} key/value heads)", "MHA（{kv} 个键/值头）"),
    "gqa": ("GQA ({kv} key/value heads)", "GQA（{kv} 个键/值头）"),
    "mqa": ("MQA (1 key/value head)", "MQA（1 个键/值头）"),
    "yoco": ("YOCO (window {w} + one shared cache)", "YOCO（窗口 {w} + 一份共享缓存）"),
    "window": ("sliding window {w}", "滑动窗口 {w}"),
    "retention": ("retention (RetNet)", "保留机制（RetNet）"),
    "rwkv": ("RWKV", "RWKV"),
    "mamba": ("Mamba (selective SSM)", "Mamba（选择性状态空间模型）"),
}
_HOLDS = {
    "mha": ("K and V of every past position, every head, every layer",
            "每一层、每个头、之前每个位置（含提示词）的键和值"),
    "gqa": ("K and V of every past position, one per group of query heads",
            "之前每个位置的键和值，每组查询头共用一份"),
    "mqa": ("K and V of every past position, one head shared by all query heads",
            "之前每个位置的键和值，所有查询头共用一个头"),
    "yoco": ("lower half of the layers: the last w positions; upper half: one global K, V cache read by every layer",
             "下半部分层：最近 w 个位置；上半部分层：所有层共同读取的一份全局 KV 缓存"),
    "window": ("K and V of the last w positions only", "只保留最近 w 个位置的键和值"),
    "retention": ("a d_head × d_head state per head and layer", "每层每个头一个 d_head × d_head 的状态矩阵"),
    "rwkv": ("per channel and layer: WKV's (a, b, max) and the two token-shift inputs",
             "每层每个通道：WKV 的 a、b 和运行中的最大值，以及两处词元平移的上一个输入"),
    "mamba": ("per layer: d_inner × d_state scan state + d_inner × (d_conv − 1) convolution inputs",
              "每层：d_inner × d_state 的扫描状态 + d_inner × (d_conv − 1) 的卷积输入"),
}
# the impossible triangle: (parallel training, cheap inference, what it gives up)
_TRIANGLE = {
    "mha": (("yes: one matrix product over all positions", "是：所有位置一次矩阵乘法"),
            ("no: the cache grows with n and every new token reads all of it", "否：缓存随 n 增长，每个新词元都要读完整个缓存"),
            ("nothing in quality (the reference); pays in memory and bandwidth", "质量不打折扣（作为基准）；代价是内存和带宽")),
    "gqa": (("yes", "是"), ("better: the cache shrinks by heads / groups, still grows with n",
                            "好一些：缓存缩小为原来的 组数/头数，但仍随 n 增长"),
            ("a little quality (query heads in a group share K, V); MQA gives up more",
             "少量质量（同组查询头共用键和值）；MQA 放弃得更多")),
    "window": (("yes", "是"), ("yes: at most w positions held", "是：最多保留 w 个位置"),
               ("direct access beyond w tokens: older text reaches a token only through stacked layers, if at all",
                "直接读取 w 个词元之外的内容：更早的文本只能借助多层逐级传递，甚至完全丢失")),
    "yoco": (("yes", "是"), ("better: one cache instead of one per layer (plus a window); still grows with n",
                             "好一些：一份缓存代替每层一份（外加一个窗口）；仍随 n 增长"),
             ("the upper layers cannot compute their own keys and values: all read the same cache (the paper reports "
              "quality close to a Transformer of the same size)",
              "上半部分层不能各自计算键和值，全部读取同一份缓存（论文报告其质量接近同规模 Transformer）")),
    "retention": (("yes: parallel or chunkwise form", "是：并行形式或分块形式"),
                  ("yes: a constant state", "是：状态大小恒定"),
                  ("exact recall of far tokens: a fixed decay forgets, and a d×d state holds only so much",
                   "对远处词元的精确回忆：固定衰减会遗忘，d×d 的状态容量有限")),
    "rwkv": (("yes: the WKV sums can be computed for all positions at once", "是：WKV 的求和可以对所有位置同时计算"),
             ("yes: a few vectors per layer", "是：每层只有几个向量"),
             ("the same recall limit, with an even smaller state (vectors, not matrices)",
              "同样的回忆上限，而且状态更小（向量而不是矩阵）")),
    "mamba": (("yes, through a parallel scan (not one matrix product)", "是，借助并行扫描（而不是一次矩阵乘法）"),
              ("yes: a constant state", "是：状态大小恒定"),
              ("copying and recall of long passages: the state is fixed, the text is not",
               "长段落的复制和回忆：状态大小固定，而文本长度不固定")),
}
_MATRICES = {
    "W_Q": ("attention W_Q (queries)", "注意力 W_Q（查询）"),
    "W_K": ("attention W_K (keys)", "注意力 W_K（键）"),
    "W_V": ("attention W_V (values)", "注意力 W_V（值）"),
    "W_O": ("attention W_O (output)", "注意力 W_O（输出）"),
    "W_in": ("FFN in (W_in)", "前馈网络输入 W_in"),
    "W_gate": ("FFN gate (W_gate)", "前馈网络门控 W_gate"),
    "W_out": ("FFN out (W_out)", "前馈网络输出 W_out"),
}

STRINGS = {
    **{f"bxm_fam_{k}": {"en": en, "zh": zh} for k, (en, zh) in _FAMILIES.items()},
    **{f"bxm_holds_{k}": {"en": en, "zh": zh} for k, (en, zh) in _HOLDS.items()},
    **{f"bxm_tri_{k}_{part}": {"en": en, "zh": zh} for k, parts in _TRIANGLE.items()
       for part, (en, zh) in zip(("train", "infer", "gives"), parts)},
    **{f"bxm_mat_{k}": {"en": en, "zh": zh} for k, (en, zh) in _MATRICES.items()},
    # ---- memory per generated token
    "bxm_mem_title": {"en": "Memory per generated token", "zh": "每生成一个词元的内存"},
    "bxm_mem_intro": {
        "en": "To produce its next token a decoder must keep something about every token before it. Softmax attention "
              "keeps all past keys and values (the KV cache), so its memory grows with the context; the recurrent "
              "family keeps a state of fixed size. The numbers below are computed from **this model's shape**: "
              "{layers} layers, {heads} heads of width d_head = {dh}, {kv} key/value heads, d_model = {d}.",
        "zh": "解码器要生成下一个词元，就必须为之前的每个词元保留一些信息。softmax 注意力保留全部过去的键和值（KV 缓存），"
              "所以内存随上下文增长；循环家族只保留固定大小的状态。下面的数字都由**当前模型的形状**算出："
              "{layers} 层，{heads} 个头，每个头宽 d_head = {dh}，{kv} 个键/值头，d_model = {d}。"},
    "bxm_ctx_lo": {"en": "Shortest context", "zh": "最短上下文"},
    "bxm_ctx_hi": {"en": "Longest context", "zh": "最长上下文"},
    "bxm_dtype": {"en": "Bytes per value", "zh": "每个数值的字节数"},
    "bxm_dtype_fp32": {"en": "fp32 (4 bytes)", "zh": "fp32（4 字节）"},
    "bxm_dtype_fp16": {"en": "fp16 / bf16 (2)", "zh": "fp16 / bf16（2 字节）"},
    "bxm_dtype_int8": {"en": "int8 (1)", "zh": "int8（1 字节）"},
    "bxm_groups": {"en": "GQA: key/value heads (groups)", "zh": "GQA：键/值头数（组数）"},
    "bxm_window": {"en": "Sliding window w (tokens)", "zh": "滑动窗口 w（词元）"},
    "bxm_bad_range": {"en": "The shortest context ({lo}) must be at least 1 and shorter than the longest ({hi}).",
                      "zh": "最短上下文（{lo}）必须至少为 1，并且小于最长上下文（{hi}）。"},
    "bxm_bad_groups": {"en": "GQA needs a number of key/value heads that divides the {heads} query heads "
                             "(one of {options}); {g} does not, so GQA is left out.",
                       "zh": "GQA 的键/值头数必须能整除 {heads} 个查询头（可选 {options}）；{g} 不能整除，所以图中省略了 GQA。"},
    "bxm_same_groups": {"en": "With {g} key/value heads GQA is the same as {kind}; it is not drawn twice.",
                        "zh": "键/值头数为 {g} 时，GQA 就是 {kind}，不再重复画出。"},
    "bxm_bad_window": {"en": "A sliding window must hold at least one token (got {w}).",
                       "zh": "滑动窗口至少要容纳一个词元（当前为 {w}）。"},
    "bxm_chart_title": {"en": "What a decoder of this shape holds to generate its next token",
                        "zh": "这种形状的解码器为生成下一个词元要保留多少数据"},
    "bxm_term_context": {"en": "context length n (tokens)", "zh": "上下文长度 n（词元）"},
    "bxm_term_total": {"en": "bytes held", "zh": "占用字节"},
    "bxm_term_next": {"en": "bytes added by the next token", "zh": "下一个词元新增的字节"},
    "bxm_term_total_title": {"en": "held in all, at context n", "zh": "上下文为 n 时的总占用"},
    "bxm_term_next_title": {"en": "added by each new token", "zh": "每个新词元新增的占用"},
    "bxm_term_model_max": {"en": "this model's max_len", "zh": "本模型的最大长度"},
    "bxm_mem_caption": {
        "en": "Dashed: a constant state (it adds nothing per token, so its right-hand line lies on 0). Sliding window "
              "and YOCO's self-decoder stop growing at n = w. Bytes count the cache or state only, not the weights "
              "or the activations of the step.",
        "zh": "虚线：大小恒定的状态（每个词元不新增任何内容，所以它在右图中是 0 线）。滑动窗口和 YOCO 的自解码器在 n = w 后"
              "不再增长。这里只统计缓存或状态的字节数，不含权重和当前步的激活值。"},
    "bxm_table_title": {"en": "The numbers at n = {n}", "zh": "n = {n} 时的数字"},
    "bxm_col_family": {"en": "family", "zh": "方法"},
    "bxm_col_holds": {"en": "what it holds", "zh": "保留的内容"},
    "bxm_col_next": {"en": "bytes added by the next token", "zh": "下一个词元新增字节"},
    "bxm_col_total": {"en": "bytes held at n = {n}", "zh": "n = {n} 时占用字节"},
    "bxm_col_ratio": {"en": "÷ MHA", "zh": "相对 MHA"},
    "bxm_formulas": {"en": "The byte formulas (b = bytes per value)", "zh": "字节公式（b = 每个数值的字节数）"},
    "bxm_formula_kv": {"en": "MHA / GQA / MQA (KV cache)", "zh": "MHA / GQA / MQA（KV 缓存）"},
    "bxm_state_note": {
        "en": "Shapes borrowed from this model: retention uses its heads and d_head; RWKV its d_model; Mamba's "
              "d_inner = {expand} × d_model = {inner} with d_state = {dstate} and a convolution of width {dconv} "
              "(Mamba's defaults). Every family is given the same {layers} layers. YOCO puts {self_layers} layers in "
              "the self-decoder (sliding window) and {cross} in the cross-decoder, which all read one cache.",
        "zh": "借用本模型的形状：保留机制使用它的头数和 d_head；RWKV 使用它的 d_model；Mamba 的 d_inner = {expand} × d_model "
              "= {inner}，d_state = {dstate}，卷积宽度 {dconv}（Mamba 的默认值）。所有方法都按相同的 {layers} 层计算。"
              "YOCO 把 {self_layers} 层放在自解码器（滑动窗口），{cross} 层放在交叉解码器，它们共同读取一份缓存。"},
    "bxm_tri_title": {"en": "The impossible triangle", "zh": "不可能三角"},
    "bxm_tri_intro": {
        "en": "Parallel training, cheap inference, quality: RetNet's paper calls having all three an impossible triangle "
              "that it breaks. What each family here actually gives up:",
        "zh": "并行训练、低成本推理、高质量：RetNet 的论文把三者兼得称为“不可能三角”，并声称打破了它。"
              "这里每种方法实际放弃了什么："},
    "bxm_tri_gqa_name": {"en": "GQA / MQA (fewer key/value heads)", "zh": "GQA / MQA（更少的键/值头）"},
    "bxm_tri_family": {"en": "family", "zh": "方法"},
    "bxm_tri_train": {"en": "parallel training", "zh": "并行训练"},
    "bxm_tri_infer": {"en": "cheap inference", "zh": "低成本推理"},
    "bxm_tri_gives": {"en": "gives up", "zh": "放弃了什么"},
    "bxm_tri_note": {
        "en": "Quality is the corner no formula settles: recurrent models of the same size match Transformers on "
              "perplexity in their papers but fall behind on tasks that must recall or copy exact tokens from far "
              "back, because a fixed state cannot hold an arbitrarily long text.",
        "zh": "质量是公式无法决定的一角：在各自的论文里，同规模的循环模型在困惑度上与 Transformer 相当，但在需要从很远处精确"
              "回忆或复制词元的任务上落后，因为固定大小的状态装不下任意长的文本。"},
    # ---- ternary weights
    "bxm_tern_title": {"en": "Ternary weights (BitNet b1.58)", "zh": "三值权重（BitNet b1.58）"},
    "bxm_tern_intro": {
        "en": "BitNet b1.58 stores each weight of its linear layers as −1, 0 or +1 and one scale γ per matrix, so a "
              "matrix product needs additions only. Pick one matrix of this model and quantise it with absmean "
              "scaling:",
        "zh": "BitNet b1.58 把线性层的每个权重存成 −1、0 或 +1，每个矩阵再配一个缩放系数 γ，于是矩阵乘法只需要加法。"
              "选择本模型的一个矩阵，用 absmean 缩放把它量化："},
    "bxm_t_stack": {"en": "Stack", "zh": "编码器/解码器"},
    "bxm_t_layer": {"en": "Layer", "zh": "层"},
    "bxm_t_matrix": {"en": "Weight matrix", "zh": "权重矩阵"},
    "bxm_t_hist_title": {"en": "{matrix}, layer {layer}: {rows} × {cols} weights",
                         "zh": "{matrix}，第 {layer} 层：{rows} × {cols} 个权重"},
    "bxm_term_before": {"en": "trained weights", "zh": "训练好的权重"},
    "bxm_term_after": {"en": "ternary codes", "zh": "三值编码"},
    "bxm_term_weight": {"en": "weight", "zh": "权重"},
    "bxm_term_count": {"en": "number of weights", "zh": "权重个数"},
    "bxm_term_share": {"en": "share", "zh": "占比"},
    "bxm_term_threshold": {"en": "rounding threshold ±γ/2", "zh": "取整阈值 ±γ/2"},
    "bxm_term_gamma": {"en": "±γ (where ±1 lands)", "zh": "±γ（±1 反量化后的位置）"},
    "bxm_t_summary": {
        "en": "γ = mean|W| = {gamma:.4g}. Codes: {neg:.1%} are −1, {zero:.1%} are 0, {pos:.1%} are +1. The weights "
              "themselves change by {werr:.1%} (relative error of W̃·γ); a sign-only 1-bit version (±γ, no zero) "
              "would change them by {serr:.1%}.",
        "zh": "γ = mean|W| = {gamma:.4g}。编码中 {neg:.1%} 为 −1，{zero:.1%} 为 0，{pos:.1%} 为 +1。权重本身的相对误差为 "
              "{werr:.1%}（W̃·γ 相对 W）；只取符号的 1 比特版本（±γ，没有 0）的相对误差为 {serr:.1%}。"},
    "bxm_t_err_title": {"en": "What it does on your text", "zh": "它对你的文本有什么影响"},
    "bxm_t_err_intro": {
        "en": "The model ran twice on the current text ({n} tokens): with its own matrix and with W̃·γ in its place "
              "(restored afterwards). Relative error ‖ỹ − y‖ / ‖y‖ of:",
        "zh": "模型在当前文本（{n} 个词元）上运行了两次：一次用原矩阵，一次把它换成 W̃·γ（之后恢复原值）。"
              "下面是相对误差 ‖ỹ − y‖ / ‖y‖："},
    "bxm_t_err_matrix": {"en": "this matrix's output x Wᵀ", "zh": "该矩阵的输出 x Wᵀ"},
    "bxm_t_err_layer": {"en": "layer {layer}'s output (residual stream after the block)",
                        "zh": "第 {layer} 层的输出（该层之后的残差流）"},
    "bxm_t_err_final": {"en": "the final hidden state (last layer's output)", "zh": "最终隐藏状态（最后一层的输出）"},
    "bxm_t_col_what": {"en": "output", "zh": "输出"},
    "bxm_t_col_err": {"en": "relative error", "zh": "相对误差"},
    "bxm_t_bits_title": {"en": "Bits per weight and the model's size", "zh": "每个权重的比特数与模型大小"},
    "bxm_t_col_format": {"en": "format", "zh": "格式"},
    "bxm_t_col_bits": {"en": "bits per weight", "zh": "每个权重的比特数"},
    "bxm_t_col_matrix": {"en": "this matrix (bytes)", "zh": "该矩阵（字节）"},
    "bxm_t_col_model": {"en": "whole model (bytes)", "zh": "整个模型（字节）"},
    "bxm_t_fmt_fp32": {"en": "fp32 (as stored)", "zh": "fp32（当前存储方式）"},
    "bxm_t_fmt_fp16": {"en": "fp16", "zh": "fp16"},
    "bxm_t_fmt_ternary": {"en": "ternary, ideal (log₂3 bits)", "zh": "三值，理想编码（log₂3 比特）"},
    "bxm_t_fmt_packed": {"en": "ternary, packed in 2 bits", "zh": "三值，按 2 比特打包"},
    "bxm_t_bits_note": {
        "en": "Three values carry log₂3 ≈ 1.58 bits; packing 5 of them into a byte (3⁵ = 243 ≤ 256) gets 1.6 bits, "
              "2 bits per weight is the simple packing. The whole-model rows turn every attention and FFN matrix of "
              "every layer ({mats} matrices, {tern:,} of the {params:,} parameters) ternary, and keep embeddings, "
              "norms, biases and the γ's in fp16, as BitNet does.",
        "zh": "三种取值携带 log₂3 ≈ 1.58 比特信息；把 5 个打包进一个字节（3⁵ = 243 ≤ 256）可做到 1.6 比特，每个权重 2 比特是"
              "最简单的打包。整个模型这一列把每一层的所有注意力和前馈网络矩阵（{mats} 个矩阵，{params:,} 个参数中的 {tern:,} 个）"
              "换成三值，词嵌入、归一化、偏置和各个 γ 保持 fp16，与 BitNet 的做法一致。"},
    "bxm_t_after_training": {
        "en": "This is quantisation **after** training, one matrix at a time. BitNet b1.58 trains with the quantiser "
              "in the forward pass from the start (the gradient passes straight through the rounding), so its weights "
              "learn to work on three values; quantising a model trained in floating point, as here, loses much more "
              "— all matrices at once would be far worse than the one shown.",
        "zh": "这里是训练**之后**的量化，而且一次只换一个矩阵。BitNet b1.58 从一开始就在前向计算中带着量化器训练（梯度直接穿过"
              "取整），权重学会了只用三种取值工作；像这里这样量化一个用浮点训练好的模型，损失要大得多——若同时量化所有矩阵，"
              "结果会比这里显示的单个矩阵差得多。"},
    "bxm_t_failed": {"en": "The quantised run could not be made: {error}", "zh": "无法运行量化后的模型：{error}"},
    # ---- MLP-Mixer vs attention
    "bxm_mix_title": {"en": "MLP-Mixer vs attention", "zh": "MLP-Mixer 与注意力"},
    "bxm_mix_intro": {
        "en": "An MLP-Mixer layer has two MLPs. **Token mixing** works on each channel separately and mixes *across "
              "tokens* with an n × n matrix that is learned once and does not depend on the input. **Channel mixing** "
              "works on each token separately and mixes the channels *within* the token, like a Transformer's FFN. "
              "Attention also mixes across tokens, but computes its n × n weights from the input itself.",
        "zh": "MLP-Mixer 的一层有两个 MLP。**词元混合**对每个通道分别作用，用一个学习得到、与输入无关的 n × n 矩阵在*词元之间*"
              "混合。**通道混合**对每个词元分别作用，在*词元内部*混合各个通道，类似 Transformer 的前馈网络。"
              "注意力同样在词元之间混合，但它的 n × n 权重是由输入本身计算出来的。"},
    "bxm_mix_notes": {
        "en": "Careful if you read the course notes this lab grew from (their MLP-Mixer paragraph): they swap the two, "
              "saying that token mixing fuses the features inside each token. It is the other way round — token mixing mixes across "
              "tokens, channel mixing within a token.",
        "zh": "如果你读过本实验所依据的课程笔记（其中关于 MLP-Mixer 的段落），请注意它把两者说反了：笔记说词元混合是在每个词元内部融合特征。"
              "实际正相反——词元混合在词元之间混合，通道混合在词元内部混合。"},
    "bxm_mix_kind": {"en": "Token-mixing matrix", "zh": "词元混合矩阵"},
    "bxm_mix_fit": {"en": "fitted to this head's weights", "zh": "拟合这个头的权重"},
    "bxm_mix_random": {"en": "seeded random (untrained)", "zh": "随机种子生成（未训练）"},
    "bxm_shuffle": {"en": "Shuffle the input", "zh": "打乱输入"},
    "bxm_perm_seed": {"en": "Shuffle seed", "zh": "打乱的随机种子"},
    "bxm_mix_fit_note": {
        "en": "We ship no trained Mixer. Fitted: the one fixed matrix closest in least squares to the attention "
              "weights below on the unshuffled text — on a single text that is those weights themselves; a real "
              "Mixer fits its matrix over a whole corpus, so content averages out and mostly position is left.",
        "zh": "我们没有训练好的 Mixer。“拟合”是指：在未打乱的文本上，用最小二乘找一个固定矩阵，使它最接近下面的注意力权重——"
              "只有一段文本时，答案就是这些权重本身；真实的 Mixer 在整个语料上拟合，内容的影响被平均掉，剩下的主要是位置。"},
    "bxm_mix_random_note": {
        "en": "Seeded random: the N(0, 1/n) matrix of an untrained Mixer for n = {n} tokens (a Mixer's matrix "
            "fixes n: another length needs another matrix).",
        "zh": "随机种子生成：未训练的 Mixer 在 n = {n} 个词元时的 N(0, 1/n) 矩阵（Mixer 的矩阵固定了 n：换一个长度就需要另一个矩阵）。"},
    "bxm_mix_attn_note": {
        "en": "Attention here is softmax(q kᵀ/√d) of this head's q and k, without the mask and without positions, so "
              "that a shuffle moves nothing but content.",
        "zh": "这里的注意力是用这个头的 q 和 k 计算的 softmax(q kᵀ/√d)，不加掩码、不加位置信息，这样打乱只改变内容的位置。"},
    "bxm_mix_attn_title": {"en": "Attention: weights computed from the input", "zh": "注意力：由输入计算出的权重"},
    "bxm_mix_tok_title": {"en": "Mixer: token-mixing matrix (fixed)", "zh": "Mixer：词元混合矩阵（固定）"},
    "bxm_mix_order": {"en": "Both maps list the tokens in their shuffled order, each labelled with its original "
                            "position (position·token).",
                      "zh": "两幅图都按打乱后的顺序列出词元，每个词元标注它原来的位置（位置·词元）。"},
    "bxm_mix_numbers": {"en": "What the shuffle did, measured", "zh": "打乱带来的变化（实测）"},
    "bxm_mix_col_what": {"en": "quantity", "zh": "量"},
    "bxm_mix_col_value": {"en": "largest difference", "zh": "最大差值"},
    "bxm_mix_attn_moved": {"en": "attention weights A(Px) vs P A(x) Pᵀ (moved along with the tokens)",
                           "zh": "注意力权重 A(Px) 与 P A(x) Pᵀ（随词元一起移动）"},
    "bxm_mix_attn_changed": {"en": "attention weights A(Px) vs A(x) (the matrix as shown changed)",
                             "zh": "注意力权重 A(Px) 与 A(x)（显示的矩阵变了）"},
    "bxm_mix_attn_out": {"en": "attention output vs P × the unshuffled output", "zh": "注意力输出与 P × 未打乱时的输出"},
    "bxm_mix_mixer_out": {"en": "Mixer layer output vs P × the unshuffled output",
                          "zh": "Mixer 层输出与 P × 未打乱时的输出"},
    "bxm_mix_channel": {"en": "channel-mixing MLP alone vs P × its unshuffled output",
                        "zh": "单独的通道混合 MLP 与 P × 未打乱时的输出"},
    "bxm_mix_same": {
        "en": "The token-mixing matrix is a parameter: the same matrix for every input, shuffled or not. Attention's "
              "weights follow the tokens (difference {moved:.1e}, rounding only), so its output is just the shuffled "
              "output; the Mixer applies the same mix to moved content and its output changes (up to {mixer:.3g}). "
              "The channel MLP works within each token, so it too just moves along ({channel:.1e}).",
        "zh": "词元混合矩阵是一个参数：无论输入是否打乱，都是同一个矩阵。注意力权重随词元一起移动（差值 {moved:.1e}，仅为舍入误差），"
              "所以它的输出只是打乱后的原输出；Mixer 把同样的混合用在移动过的内容上，输出因此改变（最大 {mixer:.3g}）。"
              "通道混合 MLP 在每个词元内部作用，所以它也只是跟着移动（{channel:.1e}）。"},
    "bxm_mix_unshuffled": {"en": "Turn on the shuffle to see which of the two moves with the tokens.",
                           "zh": "打开“打乱输入”，看看两者中哪一个会随词元移动。"},
    "bxm_mix_model_weights": {"en": "This head's own weights in the model (with its mask and positions)",
                              "zh": "这个头在模型中的实际权重（带掩码和位置信息）"},
    "bxm_mix_one": {"en": "One token is nothing to mix: the text needs at least two.",
                    "zh": "只有一个词元无从混合：文本至少需要两个词元。"},
}

FORMULAS = {
    "bxm_kv": r"2\cdot L\cdot h_{kv}\cdot d_{head}\cdot b\cdot n,\qquad h_{kv}=h\ (\mathrm{MHA}),\ g\ (\mathrm{GQA}),"
              r"\ 1\ (\mathrm{MQA})",
    "bxm_window": r"2\cdot L\cdot h_{kv}\cdot d_{head}\cdot b\cdot\min(n,w)",
    "bxm_yoco": r"2\,h_{kv}\,d_{head}\,b\,\Big(\big\lfloor L/2\big\rfloor\min(n,w)+n\Big)",
    "bxm_retention": r"L\cdot h\cdot d_{head}^2\cdot b",
    "bxm_rwkv": r"L\cdot 5\,d_{model}\cdot b",
    "bxm_mamba": r"L\cdot 2d_{model}\,(d_{state}+d_{conv}-1)\cdot b",
    "bxm_absmean": r"\gamma=\frac{1}{nm}\sum_{ij}|W_{ij}|,\qquad "
                   r"\widetilde W=\mathrm{clip}\!\Big(\mathrm{round}\big(\tfrac{W}{\gamma+\epsilon}\big),-1,1\Big),"
                   r"\qquad W\approx\widetilde W\,\gamma",
    "bxm_mixer": r"U=W_{\mathrm{tok}}\,X,\ \ W_{\mathrm{tok}}\in\mathbb R^{n\times n};\qquad "
                 r"Y_i=\mathrm{MLP}_{\mathrm{ch}}(U_i),\ \ i=1..n",
}

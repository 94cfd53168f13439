"""Strings of the beyond-softmax page's memory section (ui/views/beyond_kv_families.py)."""

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

STRINGS = {
    **{f"bxm_fam_{k}": {"en": en, "zh": zh} for k, (en, zh) in _FAMILIES.items()},
    **{f"bxm_holds_{k}": {"en": en, "zh": zh} for k, (en, zh) in _HOLDS.items()},
    **{f"bxm_tri_{k}_{part}": {"en": en, "zh": zh} for k, parts in _TRIANGLE.items()
       for part, (en, zh) in zip(("train", "infer", "gives"), parts)},
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
}

FORMULAS = {
    "bxm_kv": r"2\cdot L\cdot h_{kv}\cdot d_{head}\cdot b\cdot n,\qquad h_{kv}=h\ (\mathrm{MHA}),\ g\ (\mathrm{GQA}),"
              r"\ 1\ (\mathrm{MQA})",
    "bxm_window": r"2\cdot L\cdot h_{kv}\cdot d_{head}\cdot b\cdot\min(n,w)",
    "bxm_yoco": r"2\,h_{kv}\,d_{head}\,b\,\Big(\big\lfloor L/2\big\rfloor\min(n,w)+n\Big)",
    "bxm_retention": r"L\cdot h\cdot d_{head}^2\cdot b",
    "bxm_rwkv": r"L\cdot 5\,d_{model}\cdot b",
    "bxm_mamba": r"L\cdot 2d_{model}\,(d_{state}+d_{conv}-1)\cdot b",
}

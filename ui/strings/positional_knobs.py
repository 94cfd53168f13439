"""Strings of the positional knobs panel (ui/widgets/positional_knobs.py)."""

STRINGS = {
    # ---- the knobs panel ----
    "pek_title": {"en": "Positional knobs: θ, scaling, slopes, buckets, temperature",
                  "zh": "位置编码参数调节：θ、缩放、斜率、分桶、温度"},
    "pek_intro": {"en": "The same trained weights, run with other positional settings. Every chart and table of this "
                        "section is recomputed with them; the link in the address bar keeps them.",
                  "zh": "训练好的权重不变，只换位置编码的设置。本节所有图表都按这些设置重新计算；地址栏里的链接会保存当前设置。"},
    "pek_theta": {"en": "RoPE base θ", "zh": "RoPE 基数 θ"},
    "pek_theta_help": {"en": "Pair i turns by θ^(−2i/d) radians per position. A smaller base turns every pair faster: "
                             "more pairs complete a turn within the training length.",
                       "zh": "第 i 对维度每前进一个位置旋转 θ^(−2i/d) 弧度。基数越小，每一对转得越快，"
                             "在训练长度内转满一圈的维度对就越多。"},
    "pek_scaling": {"en": "RoPE context extension", "zh": "RoPE 上下文扩展"},
    "pek_scaling_help": {"en": "Position interpolation reads position m as m/s; NTK-aware raises the base so slow pairs "
                               "are interpolated and fast ones kept; YaRN keeps fast pairs, interpolates slow ones with "
                               "a ramp between, and sharpens the softmax by 0.1·ln s + 1; llama3 (Llama 3.1) keeps "
                               "pairs faster than a quarter of the training length, interpolates those slower than it, "
                               "blends between; dynamic NTK raises the base only once the text is longer than the "
                               "training length; LongRoPE divides each pair by its own factor (none here: a checkpoint "
                               "brings them) and scales cos and sin by √(1 + ln s / ln L).",
                         "zh": "位置插值把位置 m 读作 m/s；NTK 感知缩放增大基数，慢速维度对被插值、快速维度对保持不变；"
                               "YaRN 保留快速维度对、对慢速维度对插值，中间线性过渡，并把 softmax 锐化 0.1·ln s + 1 倍；"
                               "llama3（Llama 3.1）保留比训练长度四分之一更快的维度对，对比训练长度更慢的插值，中间平滑过渡；"
                               "动态 NTK 只在文本超过训练长度后才增大基数；LongRoPE 给每一对维度除以各自的因子"
                               "（这里没有：由检查点提供），并把 cos 和 sin 乘以 √(1 + ln s / ln L)。"},
    "pek_scaling_none": {"en": "none", "zh": "不扩展"},
    "pek_scaling_linear": {"en": "position interpolation", "zh": "位置插值（PI）"},
    "pek_scaling_ntk": {"en": "NTK-aware", "zh": "NTK 感知缩放"},
    "pek_scaling_yarn": {"en": "YaRN", "zh": "YaRN"},
    "pek_scaling_llama3": {"en": "llama3 (Llama 3.1)", "zh": "llama3（Llama 3.1）"},
    "pek_scaling_dynamic": {"en": "dynamic NTK", "zh": "动态 NTK"},
    "pek_scaling_longrope": {"en": "LongRoPE", "zh": "LongRoPE"},
    "pek_factor": {"en": "Scale factor s", "zh": "缩放因子 s"},
    "pek_factor_help": {"en": "How many times longer than the training length the extended context is meant to be "
                              "(4 for 4× length).",
                        "zh": "扩展后的上下文是训练长度的几倍（测 4 倍长度时设为 4）。"},
    "pek_factor_one": {"en": "With s = 1 the extension changes nothing: set s above 1.",
                       "zh": "s = 1 时扩展不起作用，请把 s 设为大于 1 的值。"},
    "pek_alibi": {"en": "ALiBi slopes ×", "zh": "ALiBi 斜率倍数"},
    "pek_alibi_help": {"en": "Every head's slope times this: above 1 a steeper penalty on distance (more local), "
                             "below 1 a flatter one.",
                       "zh": "每个头的斜率乘以此数：大于 1 时对距离的惩罚更陡（更局部），小于 1 时更平缓。"},
    "pek_buckets": {"en": "T5 buckets", "zh": "T5 分桶数"},
    "pek_maxdist": {"en": "T5 max distance", "zh": "T5 最大距离"},
    "pek_sinbase": {"en": "Sinusoidal base", "zh": "正弦编码基数"},
    "pek_layout": {"en": "sin/cos order", "zh": "sin/cos 排列"},
    "pek_layout_interleaved": {"en": "interleaved", "zh": "交错"},
    "pek_layout_halves": {"en": "halves", "zh": "前后两半"},
    "pek_temp": {"en": "Softmax temperature T", "zh": "softmax 温度 T"},
    "pek_temp_help": {"en": "softmax(scores / T), position bias included: T < 1 sharpens every head, T > 1 spreads it.",
                      "zh": "softmax(分数 / T)，位置偏置也一起除：T < 1 让每个头更集中，T > 1 让注意力更分散。"},
    "pek_reset": {"en": "Back to the trained settings", "zh": "恢复训练时的设置"},
    "pek_active": {"en": "Knobs in effect: {what}.", "zh": "当前生效的调整：{what}。"},
    "pek_sum_alibi": {"en": "ALiBi slopes ×{s:g}", "zh": "ALiBi 斜率 ×{s:g}"},
    "pek_sum_buckets": {"en": "T5 {b} buckets up to distance {d}", "zh": "T5 {b} 个桶、最大距离 {d}"},
    "pek_sum_sin": {"en": "sinusoidal base {b:g}, {layout}", "zh": "正弦基数 {b:g}，{layout}排列"},
    "pek_sum_stock": {"en": "none", "zh": "无"},
    "pek_wave_title": {"en": "RoPE wavelength of each pair (d_head = {d})", "zh": "RoPE 每对维度的波长（d_head = {d}）"},
    "pek_wave_caption": {"en": "Pairs under the dotted line turn at least once within the training length ({n}): "
                               "{turned} of {pairs} at the trained θ. With the knobs, {turned_now} of {pairs} turn "
                               "within {m} positions. A pair that never completed a turn in training meets angles "
                               "it never saw when the text gets longer.",
                         "zh": "虚线以下的维度对在训练长度（{n}）内至少转满一圈：训练时的 θ 下是 {pairs} 对中的 {turned} 对。"
                               "按当前旋钮，{pairs} 对中有 {turned_now} 对在 {m} 个位置内转满一圈。"
                               "训练时没转满一圈的维度对，在文本变长后会遇到训练中从未见过的角度。"},
    "pek_bucket_title": {"en": "T5 bucket of each (query, key): {b} buckets, max distance {d}",
                         "zh": "每个（查询，键）对的 T5 桶：{b} 个桶，最大距离 {d}"},
    "pek_bucket": {"en": "bucket", "zh": "桶"},
    "pek_reindexed": {"en": "The model was trained with {b0} buckets up to distance {d0}. With {b} buckets up to {d}, "
                            "each new bucket takes the trained bias of the old bucket that held its nearest distance "
                            "— the model never saw these buckets, so read the result as an experiment.",
                      "zh": "模型训练时用的是 {b0} 个桶、最大距离 {d0}。改为 {b} 个桶、最大距离 {d} 后，"
                            "每个新桶沿用旧桶中覆盖其最近距离的那一个的偏置——模型从未见过这种分桶，结果请当作实验来看。"},
    "pek_w_pair": {"en": "rotating pair i", "zh": "旋转维度对 i"},
    "pek_w_wavelength": {"en": "wavelength (positions)", "zh": "波长（位置数）"},
    "pek_w_stock": {"en": "trained setting", "zh": "训练时的设置"},
    "pek_w_knobs": {"en": "with the knobs", "zh": "当前设置"},
    "pek_w_train": {"en": "training length {n}", "zh": "训练长度 {n}"},
    "pek_w_eval": {"en": "evaluation length {n}", "zh": "评测长度 {n}"},
    "pek_w_factor": {"en": "evaluation length / training length", "zh": "评测长度 / 训练长度"},
    "pek_w_bpc": {"en": "bits per character", "zh": "每字符比特数"},
    "pek_w_table_end": {"en": "learned table ends", "zh": "可学习位置表的末端"},
    "pek_w_distance": {"en": "query–key distance", "zh": "查询–键距离"},
    "pek_w_weight": {"en": "mean attention weight", "zh": "平均注意力权重"},
    "pek_w_length": {"en": "×{f} ({n} chars)", "zh": "×{f}（{n} 字符）"},
    "pek_w_layer": {"en": "layer", "zh": "层"},
    "pek_w_head": {"en": "head", "zh": "头"},
    "pek_w_entropy": {"en": "entropy (bits)", "zh": "熵（比特）"},
    "pek_entropy_title": {"en": "Attention entropy per head (layer {layer})", "zh": "每个头的注意力熵（第 {layer} 层）"},
    "pek_entropy_caption": {"en": "Mean entropy of each head's attention over the keys it may see, in bits: 0 = one key, "
                                  "log2 n = spread evenly. Black ticks: the trained setting.",
                            "zh": "每个头在可见键上的注意力分布的平均熵（比特）：0 表示只看一个键，log2 n 表示平均分布。"
                                  "黑色短线是训练时的设置。"},
}

"""Strings of the positional knobs panel and the "train short, test long" section."""

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

STRINGS.update({
    # ---- train short, test long ----
    "pe_sec_length": {"en": "Train short, test long", "zh": "短训练、长测试"},
    "pel_missing": {"en": "The six positional language models (pe64-*) are not in models/weights/checkpoints; "
                          "`make pe-lm` trains them.",
                    "zh": "models/weights/checkpoints 中没有六个位置编码语言模型（pe64-*），可用 `make pe-lm` 训练。"},
    "pel_intro": {"en": "Six character-level language models, identical except for their positional encoding, were "
                        "trained on {n}-character windows of the corpus (English verse, modern Chinese prose and Chinese "
                        "poems). Here they read held-out text in windows "
                        "of {n} to {n8} characters: how well does each scheme cope with text longer than it was "
                        "trained on?",
                  "zh": "六个字符级语言模型除位置编码外完全相同，都在同一语料（英文诗文、现代汉语文本和中文诗词）的 {n} 字符窗口上训练。"
                        "这里让它们读未参与训练的文本，窗口长度从 {n} 到 {n8} 个字符："
                        "文本比训练时更长，每种位置编码还能应付吗？"},
    "pel_lang": {"en": "Held-out text", "zh": "评测文本"},
    "pel_lang_en": {"en": "English verse", "zh": "英文诗文"},
    "pel_lang_zh_modern": {"en": "Modern Chinese prose", "zh": "现代汉语文本"},
    "pel_lang_zh_verse": {"en": "Chinese verse", "zh": "中文诗词"},
    "pel_view": {"en": "View", "zh": "视图"},
    "pel_view_curve": {"en": "Bits per character vs length", "zh": "每字符比特数随长度变化"},
    "pel_view_distance": {"en": "Attention vs distance", "zh": "注意力随距离变化"},
    "pel_running": {"en": "Reading the held-out text at every length…", "zh": "正在按各个长度读取评测文本……"},
    "pel_curve_title": {"en": "Trained on {n} characters, read longer ({lang})",
                        "zh": "训练长度 {n} 字符，测试更长的文本（{lang}）"},
    "pel_col": {"en": "×{f} ({n})", "zh": "×{f}（{n}）"},
    "pel_method": {"en": "Lower is better. Each length cuts the held-out text into non-overlapping windows of that "
                         "length and averages the loss over every character of every window (Press et al.'s "
                         "non-overlapping evaluation), with the same number of predicted characters ({chars}) at every "
                         "length. "
                         "The learned table has {n} rows: it cannot read further, so its line stops at its end.",
                   "zh": "数值越低越好。每个长度都把评测文本切成互不重叠的等长窗口，对所有窗口中每个字符的损失取平均"
                         "（Press 等人的不重叠评测），各长度预测的字符数相同（{chars} 个）。"
                         "可学习位置表只有 {n} 行，读不了更长的文本，所以它的曲线在表的末端停止。"},
    "pel_reading": {"en": "Measured here, from ×1 to ×4:", "zh": "本页实测（×1 到 ×4）："},
    "pel_fact": {"en": "{scheme}: {a:.2f} → {b:.2f} bits per character (×{ratio:.2f})",
                 "zh": "{scheme}：每字符 {a:.2f} → {b:.2f} 比特（×{ratio:.2f}）"},
    "pel_paper": {"en": "This reproduces the experiment of Press, Smith & Lewis (2022, *Train Short, Test Long*, "
                        "Figure 1): trained at one length, read at longer ones. As in the paper, sinusoidal positions "
                        "break down past the training length, T5's relative bias degrades slowly and ALiBi stays flat "
                        "(and improves a little). Where ours differ: RoPE degrades *faster* than sinusoidal here (the "
                        "paper has it slower); at the training length ALiBi is not the best. Ours are "
                        "2-layer character models of 64 dimensions trained for 1,200 steps on a small corpus, not "
                        "247M-parameter word models on WikiText-103; we add no positions at all, which only the mask "
                        "orders (docs/pe_lm.md).",
                  "zh": "这里复现的是 Press、Smith 与 Lewis（2022，《Train Short, Test Long》）图 1 的实验："
                        "在一个长度上训练，在更长的长度上测试。与论文一致：正弦位置编码一超过训练长度就失效，"
                        "T5 相对位置偏置缓慢变差，ALiBi 保持平稳（还略有改善）。与论文不同：这里 RoPE 变差得比正弦编码*更快*"
                        "（论文中更慢）；在训练长度上 ALiBi 也不是最好的。我们的模型是 2 层、64 维的字符级模型，在小语料上只训练了 "
                        "1,200 步，而不是在 WikiText-103 上训练的 2.47 亿参数词级模型；我们还加入了完全没有位置编码、"
                        "只靠掩码区分顺序的模型（详见 docs/pe_lm.md）。"},
    "pel_verse_note": {"en": "The held-out poems are a few thousand characters, many of them rare: these small models "
                             "sit between the unigram (9.26 bits) and bigram (8.41) baselines there, so the ×1 "
                             "column is no ranking. Modern Chinese prose, with over 20 times more text, separates the "
                             "schemes clearly.",
                       "zh": "留作评测的诗词只有几千个字符，其中很多是生僻字：这些小模型在这里的成绩介于一元基线"
                             "（9.26 比特）和二元基线（8.41 比特）之间，所以 ×1 一列不能当作排名来看。"
                             "现代汉语文本的数量是诗词的二十多倍，能清楚地区分各种位置编码。"},
    "pel_dist_title": {"en": "Mean attention weight against query–key distance (all layers and heads)",
                       "zh": "平均注意力权重随查询–键距离的变化（所有层和头的平均）"},
    "pel_dist_caption": {"en": "For every query, the weight it gives the key d characters back, averaged over queries, "
                               "windows, layers and heads; log–log axes (d = 0, the character itself, is drawn at "
                               "0.5). Trained on {n} characters: a scheme that extrapolates keeps the same curve at "
                               "×2 and ×4 — ALiBi's linear penalty makes far keys fade the same way at any length.",
                         "zh": "对每个查询，取它分给 d 个字符之前那个键的权重，再对查询、窗口、层和头取平均；"
                               "双对数坐标（d = 0 即字符自身，画在 0.5 处）。训练长度为 {n}："
                               "能外推的编码在 ×2 和 ×4 时曲线不变——ALiBi 的线性惩罚让远处的键在任何长度下都以同样方式衰减。"},
})

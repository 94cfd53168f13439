"""Strings of the positional lab's "train short, test long" section (ui/views/positional_length_curve.py)."""

STRINGS = {
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
}

"""Strings of the positional lab's "before sinusoidal" section (ui/views/positional_naive_positions.py)."""

STRINGS = {
    "pe_sec_naive": {"en": "Before sinusoidal", "zh": "正弦之前的做法"},
    "pn_intro": {
        "en": "Four ways to tell a model where a token is that come before sinusoidal vectors, and why each falls "
              "short: a number between 0 and 1, the index itself, the index's bits, and a one-hot vector. Each panel "
              "shows how far apart two positions' vectors are (÷ the panel's largest distance); sinusoidal vectors "
              "are on the right for comparison.",
        "zh": "在正弦位置编码之前，告诉模型词元位置的四种做法，以及各自的不足：0 到 1 之间的一个数、位置序号本身、序号的二进制位、"
              "独热向量。每个小图显示两个位置的向量相距多远（除以该图中的最大距离）；最右边是正弦位置编码，用来对比。"},
    "pn_length": {"en": "Positions shown", "zh": "显示的位置数"},
    "pn_trained": {"en": "Positions seen in training", "zh": "训练时见过的位置数"},
    "pn_trained_help": {
        "en": "The one-hot vectors have this many dimensions and the binary ones enough bits for it; positions "
              "beyond it are what a longer text at test time would bring.",
        "zh": "独热向量有这么多维，二进制表示的位数也按它来定；超出它的位置就是测试时更长的文本会带来的位置。"},
    "pn_scheme_normalised": {"en": "[0, 1]-normalised index", "zh": "归一化到 [0, 1] 的序号"},
    "pn_scheme_integer": {"en": "integer index", "zh": "整数序号"},
    "pn_scheme_binary": {"en": "binary", "zh": "二进制"},
    "pn_scheme_onehot": {"en": "one-hot", "zh": "独热"},
    "pn_grid_title": {"en": "Distance between the position vectors of a {n}-token text",
                      "zh": "{n} 个词元的文本中，位置向量两两之间的距离"},
    "pn_distance": {"en": "distance ÷ largest", "zh": "距离 ÷ 最大距离"},
    "pn_grid_caption": {
        "en": "[0, 1]-normalised and integer: one number each, so a distance is just a difference; the normalised "
              "one depends on the text's length, the integer one grows without bound. Binary ({bits} bits): "
              "neighbours can differ in many bits (7 → 8 flips four) while far positions differ in one, and from "
              "position {first} on a bit is needed that training never used (grey). One-hot: every two positions are "
              "equally far apart (√2), so nothing says which are near, and past the {trained} positions seen in "
              "training there is no vector at all (grey). Sinusoidal: the distance depends only "
              "on how far apart the two positions are, and every position has a vector.",
        "zh": "归一化序号和整数序号：都只有一个数，距离就是差值；归一化序号随文本长度而变，整数序号则无限增大。二进制（{bits} 位）："
              "相邻位置可能有很多位不同（7 → 8 要翻转四位），而相距很远的位置可能只差一位；从位置 {first} 起需要训练时从未用过的一位"
              "（灰色）。独热：任意两个位置的距离都一样（√2），"
              "看不出哪些位置更近；超出训练时见过的 {trained} 个位置就根本没有向量（灰色）。正弦：距离只取决于两个位置相隔多远，"
              "而且每个位置都有向量。"},
    "pn_gaps_title": {"en": "The same gap, measured", "zh": "同样的间隔，实际量一量"},
    "pn_col_scheme": {"en": "scheme", "zh": "做法"},
    "pn_col_gap": {"en": "{n} tokens: {a} ↔ {b}", "zh": "{n} 个词元：{a} ↔ {b}"},
    "pn_gaps_caption": {
        "en": "Distance between the two positions' vectors (sinusoidal: width 64). The first three columns are the "
              "same gap of 3; the last two a near and a far pair. Only sinusoidal vectors give one gap one distance "
              "whatever the text's length and wherever the pair sits, and a far pair a larger distance than a near one.",
        "zh": "两个位置的向量之间的距离（正弦编码宽度为 64）。前三列都是相隔 3 的一对位置；后两列是一对近的和一对远的。"
              "只有正弦编码做到：同样的间隔，不论文本多长、位置在哪里，距离都一样；而且远的一对比近的一对距离大。"},
    "pn_col_text": {"en": "the notes' text", "zh": "笔记中的文本"},
    "pn_col_chars": {"en": "characters", "zh": "字数"},
    "pn_mis_normalised_common": {
        "en": "Normalised to [0, 1], `{text}` gets 0, 0.16, 0.32, …, 1.",
        "zh": "归一化到 [0, 1] 后，`{text}` 得到 0、0.16、0.32……1。"},
    "pn_mis_normalised_shown": {
        "en": "It has {n} characters, so the step from the first (0) to the last (1) is 1/({n} − 1) = {step}: 0, 0.2, "
              "0.4, 0.6, 0.8, 1. A step of 0.16 ≈ 1/{n} = {wrong} would not reach 1.",
        "zh": "它有 {n} 个字，从第一个（0）到最后一个（1）每步是 1/({n}−1) = {step}：0、0.2、0.4、0.6、0.8、1。"
              "每步 0.16 ≈ 1/{n} = {wrong} 的话到不了 1。"},
    "pn_mis_integer_common": {"en": "Indexed 1 to n, `{text}` gets 1, 2, 3, 4, 5, 6, 7.",
                              "zh": "按 1 到 n 编号，`{text}` 得到 1、2、3、4、5、6、7。"},
    "pn_mis_integer_shown": {"en": "It has {n} characters, so they are numbered 1 to {n}.",
                             "zh": "它有 {n} 个字，编号是 1 到 {n}。"},
    "pn_mis_relative_common": {"en": "Normalising the position ids to [0, 1] is a relative position encoding.",
                               "zh": "把位置编号归一化到 [0, 1] 就是相对位置编码。"},
    "pn_mis_relative_shown": {
        "en": "It is still an absolute index, only rescaled: each token gets its own number, and the gap between two "
              "tokens changes with the text's length (the table above: 0.6 in 6 tokens, 0.375 in 9). A relative "
              "encoding gives the model the distance between the two tokens themselves, as T5's buckets and ALiBi "
              "do (see \"ALiBi & relative\").",
        "zh": "它仍然是绝对位置序号，只是换了比例：每个词元有自己的一个数，两个词元之间的差值还会随文本长度变化（上表：6 个词元时为 "
              "0.6，9 个词元时为 0.375）。相对位置编码给模型的是两个词元之间的距离本身，例如 T5 相对位置分桶和 ALiBi"
              "（见“ALiBi 与相对位置”）。"},
}

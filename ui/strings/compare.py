"""Strings of the A/B comparison widget (ui/widgets/compare.py)."""

STRINGS = {
    "ab_text_b": {"en": "Text B (text A is the sidebar's)", "zh": "文本 B（文本 A 为侧边栏中的文本）"},
    "ab_text_b_help": {"en": "Change one word of text A to see what that word changes inside the model.",
                       "zh": "把文本 A 中的一个词换掉，看看这个词在模型内部改变了什么。"},
    "ab_text_a": {"en": "Text A: {text}", "zh": "文本 A：{text}"},
    "ab_empty": {"en": "Type text B above: a copy of text A with one word changed works best.",
                 "zh": "请在上方输入文本 B：把文本 A 改动一个词效果最好。"},
    "ab_lengths": {
        "en": "Text A has {a} tokens and text B has {b}. The difference is taken position by position, so both "
              "texts need the same number of tokens: replace a word by one that splits into as many tokens.",
        "zh": "文本 A 有 {a} 个词元，文本 B 有 {b} 个。差值是按位置逐一计算的，所以两段文本需要相同数量的词元："
              "请用切分出相同词元数的词来替换。"},
    "ab_differs": {"en": "{n} position(s) differ: {where}", "zh": "有 {n} 个位置不同：{where}"},
    "ab_same_tokens": {"en": "Both texts have the same tokens: the difference is zero.",
                       "zh": "两段文本的词元完全相同：差值为零。"},
    "ab_a": {"en": "A", "zh": "A"},
    "ab_b": {"en": "B", "zh": "B"},
    "ab_diff": {"en": "A − B", "zh": "A − B"},
    "ab_ffn_caption": {"en": "Layer {layer}, the {n} neurons most active in A, B or their difference; A and B share "
                             "one colour scale.",
                       "zh": "第 {layer} 层，在 A、B 或其差值中最活跃的 {n} 个神经元；A 与 B 使用同一色标。"},
    "ab_resid_title": {"en": "Distance between the two streams ‖x_A − x_B‖", "zh": "两条残差流之间的距离 ‖x_A − x_B‖"},
    "ab_resid_caption": {
        "en": "Where the changed token's influence travels: in a decoder, positions before it stay at 0; each "
              "attention layer can spread it to other positions.",
        "zh": "被替换词元的影响传到了哪里：在解码器中，它之前的位置保持为 0；每一层注意力都可能把影响扩散到其他位置。"},
    "ab_attn_caption": {"en": "The layer and head chosen above, for text A, text B and A − B (red: A attends more).",
                        "zh": "上方所选的层与头，分别对应文本 A、文本 B 以及 A − B（红色：A 的注意力更多）。"},
}

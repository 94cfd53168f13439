"""Strings of the poem lesson's step kinds (ui/lessons/poems.py)."""

STRINGS = {
    "lk_poem_couplet": {"en": "couplet slot", "zh": "上下句同一位置"},
    "lk_poem_rhyme": {"en": "rhyme position", "zh": "韵脚位置"},
    "lk_poem_title": {"en": "Every head scored on the {measure}: mean weight there",
                      "zh": "每个头在“{measure}”上的得分：放在那里的平均权重"},
    "lk_poem_one_line": {"en": "This text has only one line, so there is no line before to look back to: put a poem "
                                "of two or more lines in the sidebar.",
                         "zh": "这段文本只有一行，没有前一行可以回看：请在侧边栏输入两行或更多行的诗。"},
    "lk_poem_heads_notice": {
        "en": "Over the {n_pairs:d} places of this {n_lines:d}-line poem, head {best_head} puts {best_score:.0%} of its "
              "weight on the {measure}, {times:.1f} times what evenly spread attention would put there "
              "({chance:.0%}).",
        "zh": "在这首 {n_lines:d} 行诗的 {n_pairs:d} 个位置上，{best_head}把 {best_score:.0%} 的权重放在{measure}上，"
              "是均匀分配注意力（{chance:.0%}）的 {times:.1f} 倍。"},
}

"""Strings of the "positions" lesson's step kinds (ui/lessons/positions.py)."""

STRINGS = {
    "lk_pe_no_checkpoints": {"en": "the toy checkpoints of the {task} task are not shipped with this copy of Glassbox.",
                             "zh": "这份 Glassbox 没有附带 {task} 任务的玩具检查点。"},
    "lk_perm_title": {"en": "{model}, layer 0, head 0: softmax of the scores (no mask), before and after shuffling",
                      "zh": "{model}，第 0 层第 0 个头：分数的 softmax（不加掩码），打乱前后对比"},
    "lk_permutation_notice": {
        "en": "Without positions, the shuffled input's layer-0 scores equal the original ones reordered, up to "
              "{score_error:.1g}; with {other} positions they differ by up to {other_error:.2f}.",
        "zh": "没有位置编码时，打乱后输入的第 0 层分数与原分数重新排列后相同，误差不超过 {score_error:.1g}；"
              "加上{other}位置编码后，差异最大可达 {other_error:.2f}。"},
    "lk_opt_perm_same": {"en": "the same numbers, only reordered", "zh": "数值相同，只是换了顺序"},
    "lk_opt_perm_changed": {"en": "different numbers", "zh": "数值变了"},
    "lk_pe_table_title": {"en": "{scheme} position vectors, positions 0–{n}", "zh": "{scheme}位置向量（位置 0–{n}）"},
    "lk_pe_table_notice": {"en": "{n:d} positions × {d:d} dimensions.", "zh": "{n:d} 个位置 × {d:d} 个维度。"},
    "lk_pe_distance_title": {"en": "How alike two positions are, by their distance (first {n} positions)",
                             "zh": "两个位置的相似度随距离的变化（前 {n} 个位置）"},
    "lk_pe_distance_notice": {
        "en": "Sinusoidal: cosine {sin_1:.2f} at distance 1, {sin_10:.2f} at distance 10. Learned ({source}): "
              "{learned_1:.2f} and {learned_10:.2f}.",
        "zh": "正弦：距离 1 时余弦相似度为 {sin_1:.2f}，距离 10 时为 {sin_10:.2f}。可学习（{source}）："
              "{learned_1:.2f} 和 {learned_10:.2f}。"},
    "lk_rope_notice": {"en": "The score curves of the queries at m = {positions} differ by at most {error:.1g}.",
                       "zh": "查询位于 m = {positions} 时的分数曲线之间最多相差 {error:.1g}。"},
    "lk_opt_rope_same": {"en": "the score stays the same", "zh": "分数不变"},
    "lk_opt_rope_changes": {"en": "the score changes", "zh": "分数会变"},
    "lk_alibi_title": {"en": "ALiBi bias per head, as in {model} (first {n} positions)",
                       "zh": "每个头的 ALiBi 偏置（与 {model} 相同，前 {n} 个位置）"},
    "lk_alibi_notice": {
        "en": "{n_heads:d} heads, slopes from {steep:.3f} down to {gentle:.4f}: ten tokens back, the steepest head "
              "subtracts {steep_10:.2f} from the score, the gentlest only {gentle_10:.3f}.",
        "zh": "{n_heads:d} 个头，斜率从 {steep:.3f} 递减到 {gentle:.4f}：往回十个词元时，最陡的头从分数中减去 "
              "{steep_10:.2f}，最平缓的头只减去 {gentle_10:.3f}。"},
    "lk_extra_title": {"en": "Toy {task} checkpoints: exact-match accuracy at the training length and at twice it "
                             "({n} examples each)",
                       "zh": "{task}任务的玩具检查点：训练长度与两倍长度下的完全匹配准确率（各 {n} 个样本）"},
    "lk_extrapolation_notice": {
        "en": "Trained on {train_len:d} symbols, every scheme gets at least {worst_train:.0%} of the answers exactly "
              "right there; at {test_len:d} symbols, {n_working:d} of the {n_schemes:d} schemes get half of them "
              "right (the best score is {best_acc:.0%}, {best}).",
        "zh": "在 {train_len:d} 个符号上训练后，所有方案在这个长度上至少有 {worst_train:.0%} 的答案完全正确；到 "
              "{test_len:d} 个符号时，{n_schemes:d} 种方案里能答对一半的有 {n_working:d} 种（最高分 {best_acc:.0%}，"
              "{best}）。"},
    "lk_opt_pe_none": {"en": "no positional encoding", "zh": "无位置编码"},
    "lk_opt_pe_sinusoidal": {"en": "sinusoidal", "zh": "正弦"},
    "lk_opt_pe_learned": {"en": "learned", "zh": "可学习"},
    "lk_opt_pe_rope": {"en": "RoPE", "zh": "RoPE"},
    "lk_opt_pe_alibi": {"en": "ALiBi", "zh": "ALiBi"},
    "lk_opt_pe_relative": {"en": "T5 relative", "zh": "T5 相对位置"},
    "lk_opt_pe_nothing": {"en": "none of them", "zh": "都不行"},
}

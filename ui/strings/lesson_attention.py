"""Strings of the attention lesson's step kinds (ui/lessons/attention.py)."""

STRINGS = {
    "lk_value": {"en": "value", "zh": "值"},
    "lk_all_heads_title": {"en": "All heads: rows = layers, columns = heads", "zh": "全部注意力头：行 = 层，列 = 头"},
    "lk_tokens_title": {"en": "Your sentence as {n} tokens (with their ids)", "zh": "你的句子被切分为 {n} 个词元（附 id）"},
    "lk_tokens_notice": {"en": "{words} became {n_tokens:d} tokens, {n_special:d} of them special "
                               "markers; {unk_share:.0%} are unknown to the vocabulary.",
                         "zh": "{words}被切成 {n_tokens:d} 个词元，其中 {n_special:d} 个是特殊词元；"
                               "词表外（未知）词元占 {unk_share:.0%}。"},
    # how much text (lk_tokens_notice's {words}): Chinese is counted in characters (no spaces)
    "lk_words": {"en": "{n} words", "zh": "{n} 个词"},
    "lk_words_one": {"en": "1 word", "zh": "1 个词"},
    "lk_words_han": {"en": "{n} Chinese characters", "zh": "{n} 个汉字"},
    "lk_words_both": {"en": "{words} words and {han} Chinese characters", "zh": "{words} 个词和 {han} 个汉字"},
    "lk_qkv_title": {"en": "Queries, keys and values of layer {layer}, head {head}",
                     "zh": "第 {layer} 层第 {head} 个头的查询、键和值"},
    "lk_qkv_notice": {"en": "Each token gets a query, a key and a value of {d_head:d} numbers in this head: the "
                            "{d_model:d}-dimensional vector is split among {n_heads:d} heads.",
                      "zh": "在这个头中，每个词元都有一个 {d_head:d} 维的查询、键和值：{d_model:d} 维的向量被分给 "
                            "{n_heads:d} 个头。"},
    "lk_stage_dots": {"en": "q·k for the query {q} (layer {layer}, head {head})",
                      "zh": "查询 {q} 的 q·k（第 {layer} 层，第 {head} 个头）"},
    "lk_stage_scaled": {"en": "Scores ÷ √d_k for the query {q}", "zh": "查询 {q} 的分数 ÷ √d_k"},
    "lk_stage_masked": {"en": "Scores after the mask for the query {q}", "zh": "查询 {q} 加掩码后的分数"},
    "lk_stage_weights": {"en": "Attention weights of the query {q}", "zh": "查询 {q} 的注意力权重"},
    "lk_value_dots": {"en": "q·k", "zh": "q·k"},
    "lk_value_scaled": {"en": "score", "zh": "分数"},
    "lk_value_masked": {"en": "score after the mask", "zh": "加掩码后的分数"},
    "lk_value_weights": {"en": "attention weight", "zh": "注意力权重"},
    "lk_score_row_notice": {"en": "For {query}, the largest value is {top_value:.3f} at {top_key}; the values "
                                  "span {low:.3f} … {high:.3f}.",
                            "zh": "对 {query} 而言，最大值 {top_value:.3f} 出现在 {top_key}；数值范围是 "
                                  "{low:.3f} … {high:.3f}。"},
    "lk_sum_title": {"en": "What the query {q} collects: p·v for every key, and their sum",
                     "zh": "查询 {q} 收集到的信息：每个键的 p·v 及其总和"},
    "lk_sum_row": {"en": "Σ = output", "zh": "Σ = 输出"},
    "lk_weighted_sum_notice": {"en": "The biggest share of the output of {query} comes from {top_key} (weight "
                                     "{top_share:.0%}); the output vector has norm {z_norm:.3f}.",
                               "zh": "{query} 的输出中占比最大的部分来自 {top_key}（权重 {top_share:.0%}）；"
                                     "输出向量的范数为 {z_norm:.3f}。"},
    "lk_head_map_notice": {"en": "Head {layer:d}.{head:d} puts {previous:.0%} of its weight on the previous token "
                                 "and {first:.0%} on the first one; {query} looks most at {top_key} "
                                 "({top_weight:.0%}).",
                           "zh": "第 {layer:d} 层第 {head:d} 个头把 {previous:.0%} 的权重放在前一个词元上，{first:.0%} "
                                 "放在第一个词元上；{query} 最关注 {top_key}（{top_weight:.0%}）。"},
    "lk_all_heads_notice": {"en": "{n_maps:d} attention maps ({n_layers:d} layers × {n_heads:d} heads). Head "
                                  "{prev_head} follows the previous token most ({prev_score:.0%}), head {first_head} "
                                  "looks most at the first token ({first_score:.0%}).",
                            "zh": "共 {n_maps:d} 张注意力图（{n_layers:d} 层 × {n_heads:d} 个头）。{prev_head}"
                                  "最偏向前一个词元（{prev_score:.0%}），{first_head}最关注第一个词元"
                                  "（{first_score:.0%}）。"},
    "lk_head_metrics_notice": {"en": "{metric}: highest in head {max_head} ({max_value:.3f}), lowest in head "
                                     "{min_head} ({min_value:.3f}).",
                               "zh": "{metric}：{max_head}最高（{max_value:.3f}），{min_head}最低"
                                     "（{min_value:.3f}）。"},
    "lk_rollout_title": {"en": "Attention rollout through all {n} layers", "zh": "贯穿全部 {n} 层的注意力展开（rollout）"},
    "lk_rollout_notice": {"en": "Followed through every layer, {query} draws most on {top_key} ({top_weight:.0%}); "
                                "after the first layer alone it was {first_layer_top}.",
                          "zh": "经过所有层的传递后，{query} 最依赖 {top_key}（{top_weight:.0%}）；只看第一层时是 "
                                "{first_layer_top}。"},
}

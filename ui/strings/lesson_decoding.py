"""Strings of the "masks and decoders" lesson's step kinds (ui/lessons/decoding.py)."""

STRINGS = {
    "lk_dc_example": {"en": "A toy model reads its task's example here (your sentence is mostly unknown characters "
                            "to its small vocabulary): {text}",
                      "zh": "这里玩具模型读取的是它所学任务的示例（你的句子中大部分字符不在它的小词表里）：{text}"},
    "lk_dc_padded_texts": {"en": "The batch: “{a}” and “{b}”.", "zh": "这一批包含：“{a}”和“{b}”。"},
    "lk_padding_notice": {"en": "The two texts have {n1:d} and {n2:d} tokens, so the shorter gets {n_pad:d} padding "
                                "tokens to reach {width:d}. The most weight a real token gives to padding is "
                                "{pad_weight:.2g}.",
                          "zh": "两段文本分别有 {n1:d} 和 {n2:d} 个词元，较短的那段补了 {n_pad:d} 个填充词元，凑满 "
                                "{width:d} 个。真实词元给填充词元的最大权重是 {pad_weight:.2g}。"},
    "lk_opt_pad_zero": {"en": "exactly zero", "zh": "恰好为零"},
    "lk_opt_pad_some": {"en": "a little", "zh": "有一点"},
    "lk_dc_mask_title": {"en": "The mask this model uses (find the row of {q})",
                         "zh": "这个模型使用的掩码（请找到 {q} 这一行）"},
    "lk_causal_mask_notice": {"en": "{query} may see {n_keys:d} keys, up to {last}; {n_hidden:d} later keys are "
                                    "masked. Over all {n:d} queries, {pairs:d} query–key pairs are allowed.",
                              "zh": "{query} 可以看到 {n_keys:d} 个键，最远到 {last}；后面的 {n_hidden:d} 个键被掩码遮住。"
                                    "在全部 {n:d} 个查询中，共允许 {pairs:d} 个查询–键对。"},
    "lk_causal_weights_notice": {"en": "In head {layer:d}.{head:d} the largest weight on any later token is "
                                       "{future:.2g}. {query} puts {top_weight:.0%} of its weight on {top_key}.",
                                 "zh": "在第 {layer:d} 层第 {head:d} 个头中，分给任何后面词元的最大权重是 {future:.2g}。"
                                       "{query} 把 {top_weight:.0%} 的权重放在 {top_key} 上。"},
    "lk_dc_next_title": {"en": "The model's most probable next tokens (in vocabulary order)",
                         "zh": "模型最可能的下一个词元（按词表顺序）"},
    "lk_next_token_notice": {"en": "After “{prompt}”, the model gives “{top}” {top_prob:.0%} and “{second}” "
                                   "{second_prob:.0%}; greedy decoding takes “{top}”.",
                             "zh": "在“{prompt}”之后，模型给“{top}”的概率是 {top_prob:.0%}，给“{second}”的是 "
                                   "{second_prob:.0%}；贪心解码选择“{top}”。"},
    "lk_dc_gen_title": {"en": "{n} tokens, one per step: the probability of each token chosen",
                        "zh": "{n} 个词元，每步一个：每个被选中词元的概率"},
    "lk_generation_notice": {"en": "“{prompt}” continues as “{output}” ({n_new:d} tokens). The least certain step "
                                   "is {low_token} ({low:.0%}); on average the chosen token had {mean:.0%}.",
                             "zh": "“{prompt}”被续写为“{output}”（{n_new:d} 个词元）。最不确定的一步是 {low_token}"
                                   "（{low:.0%}）；被选中词元的平均概率为 {mean:.0%}。"},
    "lk_kv_grid_notice": {"en": "After step {step:d}, each of the {n_layers:d} layers holds K and V for {rows:d} "
                                "positions, each of shape {shape}: {measured_kib:.1f} KiB measured, "
                                "{total_kib:.1f} KiB by the formula ({per_token:d} bytes per token).",
                          "zh": "第 {step:d} 步之后，{n_layers:d} 层中的每一层都为 {rows:d} 个位置保存了 K 和 V，"
                                "形状都是 {shape}：实测 {measured_kib:.1f} KiB，按公式计算 {total_kib:.1f} KiB"
                                "（每个词元 {per_token:d} 字节）。"},
    "lk_kv_memory_notice": {"en": "{per_token:d} bytes per token: at the full context of {max_len:d} tokens the "
                                  "cache takes {at_max_kib:.1f} KiB with this model's {kind}; {mha_kib:.1f} KiB if "
                                  "every head kept its own K/V, {mqa_kib:.1f} KiB with a single shared K/V head.",
                            "zh": "每个词元 {per_token:d} 字节：在 {max_len:d} 个词元的完整上下文下，按本模型的 {kind}，"
                                  "缓存占 {at_max_kib:.1f} KiB；如果每个头都有自己的 K/V，需要 {mha_kib:.1f} KiB；"
                                  "所有头共享一组 K/V 时只需 {mqa_kib:.1f} KiB。"},
    "lk_dc_diff": {"en": "max |Δ logit|", "zh": "最大 |Δ logit|"},
    "lk_dc_check_title": {"en": "Next-token logits recomputed vs. with the KV cache, per step",
                          "zh": "每一步的下一个词元 logits：完整重算与使用 KV 缓存的差异"},
    "lk_kv_check_notice": {"en": "Over {n_steps:d} steps the largest difference between the two sets of logits is "
                                 "{max_diff:.2g} (we count below {tol:.0e} as the same: float rounding); both pick "
                                 "the same token in {same:d} of {n_steps:d} steps.",
                           "zh": "在 {n_steps:d} 步中，两组 logits 的最大差异为 {max_diff:.2g}（低于 {tol:.0e} 视为相同，"
                                 "差异来自浮点舍入）；{n_steps:d} 步中有 {same:d} 步两者选出了同一个词元。"},
    "lk_opt_logits_match": {"en": "they match", "zh": "相同"},
    "lk_opt_logits_differ": {"en": "they differ", "zh": "不同"},
}

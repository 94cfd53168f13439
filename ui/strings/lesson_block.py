"""Strings of the "inside a block" lesson's step kinds (ui/lessons/block.py)."""

STRINGS = {
    "lk_bl_additive": {"en": "Pre-LN: the final stream is exactly the embedding plus every sub-layer's output.",
                       "zh": "Pre-LN：最终的残差流恰好等于嵌入加上所有子层输出之和。"},
    "lk_bl_post_ln": {"en": "Post-LN: a LayerNorm follows every addition, so the stream is rescaled after each step "
                            "and is no longer a plain sum.",
                      "zh": "Post-LN：每次相加之后都紧跟一次层归一化，残差流在每一步之后都会被重新缩放，"
                            "不再是简单的求和。"},
    "lk_stream_map_notice": {"en": "{n_steps:d} steps (the embedding, then attention and FFN in each of "
                                   "{n_layers:d} layers); the stream's norm ranges from {low:.1f} to {high:.1f}.",
                             "zh": "共 {n_steps:d} 步（先是嵌入，然后是 {n_layers:d} 层中各自的注意力和前馈网络）；"
                                   "残差流的范数从 {low:.1f} 到 {high:.1f}。"},
    "lk_bl_mean_norm": {"en": "mean ‖x‖ over the tokens", "zh": "各词元 ‖x‖ 的平均"},
    "lk_bl_norm_title": {"en": "The stream's norm entering block 0 and leaving each block",
                         "zh": "进入第 0 个块时与离开每个块后残差流的范数"},
    "lk_stream_norm_notice": {"en": "From {first:.1f} after the embedding to {last:.1f} after the last block "
                                    "(×{growth:.2f}); the norm rose after {n_up:d} of {n_blocks:d} blocks.",
                              "zh": "从嵌入后的 {first:.1f} 到最后一个块之后的 {last:.1f}（×{growth:.2f}）；"
                                    "{n_blocks:d} 个块中有 {n_up:d} 个块之后范数上升。"},
    "lk_opt_stream_grow": {"en": "it grows", "zh": "变大"},
    "lk_opt_stream_shrink": {"en": "it shrinks", "zh": "变小"},
    "lk_bl_contrib_title": {"en": "What each step adds to the stream of {q}", "zh": "每一步给 {q} 的残差流加了什么"},
    "lk_contributions_notice": {"en": "At {query} the longest vector comes from {top} (norm {top_norm:.2f}, "
                                      "{share:.0%} of all the norms); attention adds {attn:.2f} in all, the FFNs "
                                      "{mlp:.2f}.",
                                "zh": "在 {query} 处，最长的向量来自 {top}（范数 {top_norm:.2f}，占全部范数之和的 "
                                      "{share:.0%}）；注意力合计 {attn:.2f}，前馈网络合计 {mlp:.2f}。"},
    "lk_opt_sub_embed": {"en": "the embedding", "zh": "嵌入"},
    "lk_opt_sub_attn": {"en": "an attention sub-layer", "zh": "某个注意力子层"},
    "lk_opt_sub_mlp": {"en": "an FFN sub-layer", "zh": "某个前馈网络子层"},
    "lk_bl_token_sep": {"en": ", ", "zh": "、"},
    "lk_bl_token_quoted": {"en": "{token}", "zh": "“{token}”"},
    "lk_bl_kind_layernorm": {"en": "LayerNorm", "zh": "层归一化（LayerNorm）"},
    "lk_bl_kind_rmsnorm": {"en": "RMSNorm", "zh": "RMSNorm"},
    "lk_bl_kind_dyt": {"en": "DyT (no statistics: tanh(αx))", "zh": "DyT（不计算统计量：tanh(αx)）"},
    "lk_norm_stats_notice": {"en": "{n_norms:d} norms ({kind}): their inputs have a standard deviation between "
                                   "{in_low:.2f} and {in_high:.2f}; their outputs (after the learned gain) about "
                                   "{out_std:.2f} on average.",
                             "zh": "共 {n_norms:d} 个归一化层（{kind}）：输入的标准差在 {in_low:.2f} 到 {in_high:.2f} "
                                   "之间；输出（乘以可学习的增益之后）的标准差平均约为 {out_std:.2f}。"},
    "lk_bl_input": {"en": "input x", "zh": "输入 x"},
    "lk_bl_value": {"en": "value", "zh": "数值"},
    "lk_bl_norm_token_title": {"en": "The stream of {q} after {step}, and the two normalisations of it",
                               "zh": "{q} 在 {step} 之后的残差流，以及它的两种归一化结果"},
    "lk_norm_token_notice": {"en": "After {step}, the stream of {query} has mean {mean:.3f}, standard deviation "
                                   "{std:.3f} and RMS {rms:.3f}. Both outputs have norm close to √d = {sqrt_d:.1f} "
                                   "(LayerNorm: {ln_norm:.1f}); their cosine is {cosine:.4f}.",
                             "zh": "在 {step} 之后，{query} 的残差流均值为 {mean:.3f}，标准差为 {std:.3f}，"
                                   "均方根为 {rms:.3f}。两种输出的范数都接近 √d = {sqrt_d:.1f}"
                                   "（LayerNorm：{ln_norm:.1f}）；二者的余弦相似度为 {cosine:.4f}。"},
    "lk_opt_norms_agree": {"en": "almost the same vector", "zh": "几乎相同的向量"},
    "lk_opt_norms_differ": {"en": "clearly different vectors", "zh": "明显不同的向量"},
    "lk_bl_ffn_title": {"en": "The most active FFN neurons of layer {layer} at {q}",
                        "zh": "第 {layer} 层在 {q} 处最活跃的前馈网络神经元"},
    "lk_ffn_top_notice": {"en": "In layer {layer:d} at {query}, {top_neuron} fires hardest ({top_value:.2f}); "
                                "{n_positive:d} of {d_ff:d} neurons are positive, and these {k:d} carry "
                                "{share:.0%} of the total activation.",
                          "zh": "第 {layer:d} 层在 {query} 处，{top_neuron} 激活最强（{top_value:.2f}）；"
                                "{d_ff:d} 个神经元中有 {n_positive:d} 个为正，图中这 {k:d} 个占全部激活的 {share:.0%}。"},
    "lk_bl_vocab_title": {"en": "What neuron {n} of layer {layer} writes, read as tokens",
                          "zh": "第 {layer} 层神经元 {n} 写入的向量，按词元解读"},
    "lk_ffn_vocab_notice": {"en": "{neuron} (the strongest at {query}) pushes the stream towards {promoted} and "
                                  "away from {suppressed}.",
                            "zh": "{neuron}（在 {query} 处最活跃）把残差流推向 {promoted}，并远离 {suppressed}。"},
    "lk_bl_lens_fallback": {"en": "The model you chose has no unembedding (it outputs hidden states), so this step "
                                  "reads {model}, a small trained decoder, on its task's example: {text}",
                            "zh": "你选择的模型没有反嵌入矩阵（它只输出隐藏状态），因此这一步改用一个小型的已训练解码器 "
                                  "{model}，输入是它所学任务的示例：{text}"},
    "lk_logit_lens_notice": {"en": "On {model}, at {query} the final prediction is {final} ({final_prob:.0%}); "
                                   "the lens first shows it (and keeps it) at row {first} of {n_rows:d}.",
                             "zh": "在 {model} 上，{query} 处的最终预测是 {final}（{final_prob:.0%}）；"
                                   "透镜在第 {first} 行（共 {n_rows:d} 行）首次给出它并一直保持。"},
    "lk_opt_lens_early": {"en": "by the middle of the model", "zh": "到模型中间就已确定"},
    "lk_opt_lens_late": {"en": "only in the later layers", "zh": "直到后面几层才确定"},
}

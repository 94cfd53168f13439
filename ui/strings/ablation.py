"""Strings of the ablation panel (ui/widgets/ablation.py)."""

STRINGS = {
    "abl_intro": {
        "en": "Switch a part of the model off and see how its output changes on your text. Heads and the mask are "
              "changed with hooks during the forward pass; positions and norms by rebuilding the model with the same "
              "weights and another configuration.",
        "zh": "关闭模型的某个部分，看看它在你的文本上的输出如何变化。注意力头和掩码通过前向计算中的钩子修改；"
              "位置编码和归一化则用相同的权重、不同的配置重建模型。"},
    "abl_heads": {"en": "Zero these heads", "zh": "将这些注意力头置零"},
    "abl_heads_help": {"en": "The head's output (pattern · V) is multiplied by 0 before W_O.",
                       "zh": "该头的输出（注意力模式 · V）在进入 W_O 之前乘以 0。"},
    "abl_norm": {"en": "Normalisation", "zh": "归一化"},
    "abl_norm_keep": {"en": "keep {norm}", "zh": "保持 {norm}"},
    "abl_norm_help": {"en": "Rebuild the model with another norm and the same weights.",
                      "zh": "用另一种归一化和相同的权重重建模型。"},
    "abl_drop_pe": {"en": "Drop the positional encoding ({pe})", "zh": "去掉位置编码（{pe}）"},
    "abl_drop_pe_help": {"en": "The model then sees a bag of tokens: no position vectors, rotation or bias.",
                         "zh": "模型看到的将是一个词袋：没有位置向量、旋转或偏置。"},
    "abl_mask": {"en": "Remove the attention mask", "zh": "去掉注意力掩码"},
    "abl_mask_help": {"en": "Every query may attend to every key (a decoder then sees the future).",
                      "zh": "每个查询都可以关注所有键（解码器因此能看到未来）。"},
    "abl_nothing": {"en": "Choose something to switch off above.", "zh": "请在上方选择要关闭的部分。"},
    "abl_mask_noop": {"en": "This model's self-attention already sees every token, so removing the mask changes "
                             "nothing.",
                      "zh": "该模型的自注意力本来就能看到所有词元，因此去掉掩码不会改变任何结果。"},
    "abl_dropped": {"en": "Weights with no place in the changed model (unused): {names}",
                    "zh": "修改后的模型用不到的权重（未使用）：{names}"},
    "abl_missing": {"en": "New parameters, at their initial values: {names}", "zh": "新增的参数，取初始值：{names}"},
    "abl_mean_kl": {"en": "Mean KL(original ‖ ablated)", "zh": "平均 KL(原模型 ‖ 消融后)"},
    "abl_changed": {"en": "Top prediction changed", "zh": "首选预测改变的位置"},
    "abl_logit_diff": {"en": "Logit change of the original top token", "zh": "原首选词元的 logit 变化"},
    "abl_kl_title": {"en": "KL divergence per position (orange: the top prediction changed)",
                     "zh": "每个位置的 KL 散度（橙色：首选预测改变）"},
    "abl_col_pos": {"en": "position", "zh": "位置"},
    "abl_col_token": {"en": "token", "zh": "词元"},
    "abl_col_before": {"en": "prediction before", "zh": "消融前的预测"},
    "abl_col_after": {"en": "prediction after", "zh": "消融后的预测"},
    "abl_logits_caption": {
        "en": "KL measures how far the whole next-token distribution moved; the logit change is ablated minus "
              "original for the token the original model ranked first.",
        "zh": "KL 衡量整个下一个词元分布移动了多远；logit 变化是原模型排第一的词元在消融后减去消融前的 logit。"},
    "abl_acc_base": {"en": "Accuracy on the {task} task", "zh": "{task} 任务上的准确率"},
    "abl_acc_ablated": {"en": "… with the ablation", "zh": "……消融之后"},
    "abl_acc_failed": {"en": "The task accuracy could not be measured: {error}", "zh": "无法测量任务准确率：{error}"},
    "abl_mean_cos": {"en": "Mean cosine (original, ablated)", "zh": "平均余弦相似度（原模型，消融后）"},
    "abl_mean_rel": {"en": "Relative change ‖Δh‖ / ‖h‖", "zh": "相对变化 ‖Δh‖ / ‖h‖"},
    "abl_rel_title": {"en": "Change of the final hidden state per position", "zh": "每个位置最终隐藏状态的变化"},
    "abl_hidden_caption": {"en": "This model outputs hidden states (no vocabulary head), so the change is measured on "
                                  "the final vectors.",
                           "zh": "该模型输出隐藏状态（没有语言模型头），因此在最终向量上衡量变化。"},
}

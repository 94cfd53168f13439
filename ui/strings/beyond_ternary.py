"""Strings of the beyond-softmax page's ternary-weights section (ui/views/beyond_ternary.py)."""

_MATRICES = {
    "W_Q": ("attention W_Q (queries)", "注意力 W_Q（查询）"),
    "W_K": ("attention W_K (keys)", "注意力 W_K（键）"),
    "W_V": ("attention W_V (values)", "注意力 W_V（值）"),
    "W_O": ("attention W_O (output)", "注意力 W_O（输出）"),
    "W_in": ("FFN in (W_in)", "前馈网络输入 W_in"),
    "W_gate": ("FFN gate (W_gate)", "前馈网络门控 W_gate"),
    "W_out": ("FFN out (W_out)", "前馈网络输出 W_out"),
}

STRINGS = {
    **{f"bxm_mat_{k}": {"en": en, "zh": zh} for k, (en, zh) in _MATRICES.items()},
    "bxm_tern_title": {"en": "Ternary weights (BitNet b1.58)", "zh": "三值权重（BitNet b1.58）"},
    "bxm_tern_intro": {
        "en": "BitNet b1.58 stores each weight of its linear layers as −1, 0 or +1 and one scale γ per matrix. A "
              "product with such a matrix multiplies by no weight: each output adds some inputs, subtracts others and "
              "skips the zeros. Two things remain that are not additions: one multiplication by γ per output, and "
              "the activations, which BitNet rounds to 8-bit integers with a scale per token (so the additions are "
              "integer additions, and that scale is one more multiplication). Pick one matrix of this model and "
              "quantise it with absmean scaling:",
        "zh": "BitNet b1.58 把线性层的每个权重存成 −1、0 或 +1，每个矩阵再配一个缩放系数 γ。与这样的矩阵相乘时不再乘以任何权重："
              "每个输出把一部分输入加上、一部分减去，跳过为 0 的。剩下两件事不是加法：每个输出最后乘一次 γ；还有激活值——"
              "BitNet 把它量化成 8 位整数，每个词元一个缩放系数（所以这些加减是整数加减，这个缩放系数又是一次乘法）。"
              "选择本模型的一个矩阵，用 absmean 缩放把它量化："},
    "bxm_t_stack": {"en": "Stack", "zh": "编码器/解码器"},
    "bxm_t_layer": {"en": "Layer", "zh": "层"},
    "bxm_t_matrix": {"en": "Weight matrix", "zh": "权重矩阵"},
    "bxm_t_hist_title": {"en": "{matrix}, layer {layer}: {rows} × {cols} weights",
                         "zh": "{matrix}，第 {layer} 层：{rows} × {cols} 个权重"},
    "bxm_term_before": {"en": "trained weights", "zh": "训练好的权重"},
    "bxm_term_after": {"en": "ternary codes", "zh": "三值编码"},
    "bxm_term_weight": {"en": "weight", "zh": "权重"},
    "bxm_term_count": {"en": "number of weights", "zh": "权重个数"},
    "bxm_term_share": {"en": "share", "zh": "占比"},
    "bxm_term_threshold": {"en": "rounding threshold ±γ/2", "zh": "取整阈值 ±γ/2"},
    "bxm_term_gamma": {"en": "±γ (where ±1 lands)", "zh": "±γ（±1 反量化后的位置）"},
    "bxm_mis_adds_common": {"en": "“BitNet b1.58 needs only integer additions: no floating-point multiplication or "
                                  "addition at all.”",
                            "zh": "“BitNet b1.58 只需要整数加法：完全没有浮点乘法或浮点加法。”"},
    "bxm_mis_adds_shown": {
        "en": "Almost none, not none. Per token this {rows} × {cols} matrix needs {adds:,} integer additions or "
              "subtractions (one per non-zero weight) and no multiplication by a weight, but still {mults:,} "
              "multiplications: {cols} to round the activations to 8 bits and {rows} to scale the outputs back by "
              "γ = {gamma:.3g} and the activations' scale. The norms, the softmax and the residual additions stay in "
              "floating point.",
        "zh": "是几乎没有，而不是完全没有。每个词元经过这个 {rows} × {cols} 的矩阵，需要 {adds:,} 次整数加减法（每个非零权重一次），"
              "不需要乘以任何权重，但仍要做 {mults:,} 次乘法：{cols} 次把激活值量化为 8 位，{rows} 次用 γ = {gamma:.3g} "
              "和激活值的缩放系数把输出缩放回来。归一化、softmax 和残差相加仍然使用浮点数。"},
    "bxm_t_summary": {
        "en": "γ = mean|W| = {gamma:.4g}. Codes: {neg:.1%} are −1, {zero:.1%} are 0, {pos:.1%} are +1. The weights "
              "themselves change by {werr:.1%} (relative error of W̃·γ); a sign-only 1-bit version (±γ, no zero) "
              "would change them by {serr:.1%}.",
        "zh": "γ = mean|W| = {gamma:.4g}。编码中 {neg:.1%} 为 −1，{zero:.1%} 为 0，{pos:.1%} 为 +1。权重本身的相对误差为 "
              "{werr:.1%}（W̃·γ 相对 W）；只取符号的 1 比特版本（±γ，没有 0）的相对误差为 {serr:.1%}。"},
    "bxm_t_err_title": {"en": "What it does on your text", "zh": "它对你的文本有什么影响"},
    "bxm_t_err_intro": {
        "en": "The model ran twice on the current text ({n} tokens): with its own matrix and with W̃·γ in its place "
              "(restored afterwards). Relative error ‖ỹ − y‖ / ‖y‖ of:",
        "zh": "模型在当前文本（{n} 个词元）上运行了两次：一次用原矩阵，一次把它换成 W̃·γ（之后恢复原值）。"
              "下面是相对误差 ‖ỹ − y‖ / ‖y‖："},
    "bxm_t_err_matrix": {"en": "this matrix's output x Wᵀ", "zh": "该矩阵的输出 x Wᵀ"},
    "bxm_t_err_layer": {"en": "layer {layer}'s output (residual stream after the block)",
                        "zh": "第 {layer} 层的输出（该层之后的残差流）"},
    "bxm_t_err_final": {"en": "the final hidden state (last layer's output)", "zh": "最终隐藏状态（最后一层的输出）"},
    "bxm_t_col_what": {"en": "output", "zh": "输出"},
    "bxm_t_col_err": {"en": "relative error", "zh": "相对误差"},
    "bxm_t_bits_title": {"en": "Bits per weight and the model's size", "zh": "每个权重的比特数与模型大小"},
    "bxm_t_col_format": {"en": "format", "zh": "格式"},
    "bxm_t_col_bits": {"en": "bits per weight", "zh": "每个权重的比特数"},
    "bxm_t_col_matrix": {"en": "this matrix (bytes)", "zh": "该矩阵（字节）"},
    "bxm_t_col_model": {"en": "whole model (bytes)", "zh": "整个模型（字节）"},
    "bxm_t_fmt_fp32": {"en": "fp32 (as stored)", "zh": "fp32（当前存储方式）"},
    "bxm_t_fmt_fp16": {"en": "fp16", "zh": "fp16"},
    "bxm_t_fmt_ternary": {"en": "ternary, ideal (log₂3 bits)", "zh": "三值，理想编码（log₂3 比特）"},
    "bxm_t_fmt_packed": {"en": "ternary, packed in 2 bits", "zh": "三值，按 2 比特打包"},
    "bxm_t_bits_note": {
        "en": "Three values carry log₂3 ≈ 1.58 bits; packing 5 of them into a byte (3⁵ = 243 ≤ 256) gets 1.6 bits, "
              "2 bits per weight is the simple packing. The whole-model rows turn every attention and FFN matrix of "
              "every layer ({mats} matrices, {tern:,} of the {params:,} parameters) ternary, and keep embeddings, "
              "norms, biases and the γ's in fp16, as BitNet does.",
        "zh": "三种取值携带 log₂3 ≈ 1.58 比特信息；把 5 个打包进一个字节（3⁵ = 243 ≤ 256）可做到 1.6 比特，每个权重 2 比特是"
              "最简单的打包。整个模型这一列把每一层的所有注意力和前馈网络矩阵（{mats} 个矩阵，{params:,} 个参数中的 {tern:,} 个）"
              "换成三值，词嵌入、归一化、偏置和各个 γ 保持 fp16，与 BitNet 的做法一致。"},
    "bxm_t_after_training": {
        "en": "This is quantisation **after** training, one matrix at a time. BitNet b1.58 trains with the quantiser "
              "in the forward pass from the start (the gradient passes straight through the rounding), so its weights "
              "learn to work on three values; quantising a model trained in floating point, as here, loses much more "
              "— all matrices at once would be far worse than the one shown.",
        "zh": "这里是训练**之后**的量化，而且一次只换一个矩阵。BitNet b1.58 从一开始就在前向计算中带着量化器训练（梯度直接穿过"
              "取整），权重学会了只用三种取值工作；像这里这样量化一个用浮点训练好的模型，损失要大得多——若同时量化所有矩阵，"
              "结果会比这里显示的单个矩阵差得多。"},
    "bxm_t_failed": {"en": "The quantised run could not be made: {error}", "zh": "无法运行量化后的模型：{error}"},
}

FORMULAS = {
    "bxm_absmean": r"\gamma=\frac{1}{nm}\sum_{ij}|W_{ij}|,\qquad "
                   r"\widetilde W=\mathrm{clip}\!\Big(\mathrm{round}\big(\tfrac{W}{\gamma+\epsilon}\big),-1,1\Big),"
                   r"\qquad W\approx\widetilde W\,\gamma",
}

"""Strings of the residual-stream page (stream, norms, Pre-/Post-LN, logit lens)."""

STRINGS = {
    "res_title": {"en": "The residual stream", "zh": "残差流"},
    "res_intro": {
        "en": "Every token carries one vector through the model. Each attention and FFN sub-layer reads it and "
              "adds its output back (the residual connection), so the stream is a running sum that the last "
              "layer turns into the output.",
        "zh": "每个词元在模型中携带一个向量。每个注意力和前馈子层读取它，再把自己的输出加回去（残差连接），"
              "因此残差流是一个不断累加的和，最后一层把它变成输出。"},
    "res_view_stream": {"en": "Stream & contributions", "zh": "残差流与贡献"},
    "res_view_norms": {"en": "Normalisation", "zh": "归一化"},
    "res_view_prepost": {"en": "Pre-LN vs Post-LN", "zh": "Pre-LN 与 Post-LN"},
    "res_view_lens": {"en": "Logit lens", "zh": "Logit 透镜"},
    "res_view_compare": {"en": "Compare A/B", "zh": "对比 A/B"},
    "res_view_ablation": {"en": "Ablation", "zh": "消融"},
    "res_norm_title": {"en": "Norm of the stream after each step", "zh": "每一步之后残差流的范数"},
    "res_norm_caption": {
        "en": "Rows: the embedding, then the stream after each sub-layer has added its output; columns: tokens.",
        "zh": "行：嵌入，然后是每个子层加上输出之后的残差流；列：词元。"},
    "res_position": {"en": "Position", "zh": "位置"},
    "res_all_positions": {"en": "mean over all positions", "zh": "所有位置的平均"},
    "res_contrib_title": {"en": "What each sub-layer adds", "zh": "每个子层加入了什么"},
    "res_cos_stream": {"en": "cosine with the stream", "zh": "与残差流的余弦"},
    "res_contrib_caption": {
        "en": "Top: the norm of each contribution (grey: embedding, blue: attention, orange: FFN). Bottom: its "
              "cosine with the stream it is added to: positive reinforces what is there, negative erases it.",
        "zh": "上：每个贡献的范数（灰色：嵌入，蓝色：注意力，橙色：前馈网络）。下：它与被加到的残差流之间的余弦："
              "为正表示加强已有方向，为负表示抹去。"},
    "res_sum_ok": {
        "en": "Pre-LN: the final stream is exactly the embedding plus every sub-layer's output (largest "
              "difference in this text: {err:.2e}).",
        "zh": "Pre-LN：最终的残差流恰好等于嵌入加上所有子层的输出（本文本中的最大差值：{err:.2e}）。"},
    "res_sum_post": {
        "en": "Post-LN: every addition is followed by a norm that rescales the stream, so the final stream is not "
              "a plain sum of the contributions.",
        "zh": "Post-LN：每次相加之后都有一次归一化重新缩放残差流，所以最终的残差流不是各贡献的简单相加。"},
    "res_norms_intro": {"en": "This model uses **{kind}**, placed {where}.", "zh": "该模型使用 **{kind}**，{where}。"},
    "res_where_pre": {"en": "before each sub-layer (Pre-LN)", "zh": "放在每个子层之前（Pre-LN）"},
    "res_where_post": {"en": "after each residual addition (Post-LN)", "zh": "放在每次残差相加之后（Post-LN）"},
    "res_in_std": {"en": "input std", "zh": "输入标准差"},
    "res_out_std": {"en": "output std", "zh": "输出标准差"},
    "res_scale": {"en": "scale (divisor, RMS)", "zh": "缩放量（除数，均方根）"},
    "res_in_abs_mean": {"en": "|input mean|", "zh": "|输入均值|"},
    "res_std": {"en": "mean over positions", "zh": "各位置平均"},
    "res_norms_title": {"en": "Before and after each norm", "zh": "每次归一化的前与后"},
    "res_col_norm": {"en": "norm", "zh": "归一化层"},
    "res_col_in_mean": {"en": "input mean", "zh": "输入均值"},
    "res_col_in_var": {"en": "input variance", "zh": "输入方差"},
    "res_col_scale": {"en": "scale", "zh": "缩放量"},
    "res_col_out_mean": {"en": "output mean", "zh": "输出均值"},
    "res_col_out_var": {"en": "output variance", "zh": "输出方差"},
    "res_norms_caption": {
        "en": "Statistics over the d_model features of each position, averaged over positions. The scale is the "
              "number the norm divided by (LayerNorm: the standard deviation, so it equals the input std; RMSNorm: "
              "the root mean square, which also counts the mean); DyT has none. After the norm, the learned gain and bias set the output's mean and variance.",
        "zh": "在每个位置的 d_model 个特征上计算统计量，再对位置求平均。缩放量是归一化所除的数"
              "（层归一化 LayerNorm：标准差，因此与输入标准差相同；RMSNorm：均方根，其中也包含均值）；DyT 没有这个量。归一化之后，可学习的增益和偏置决定输出的均值与方差。"},
    "res_pair_shipped": {"en": "The shipped twins (same task, data and seed), reading the task's example {text}.",
                         "zh": "随附的一对孪生模型（相同任务、数据和随机种子），读取任务示例 {text}。"},
    "res_pair_random": {
        "en": "The trained pre-/post-LN pair is not shipped here, so two GPT-2-style twins with the same random "
              "weights are compared instead, on your text.",
        "zh": "本机没有随附训练好的 Pre-LN / Post-LN 模型对，因此改为比较两个权重相同的随机 GPT-2 式孪生模型，"
              "输入为你的文本。"},
    "res_pre_stream": {"en": "Pre-LN: stream", "zh": "Pre-LN：残差流"},
    "res_post_stream": {"en": "Post-LN: stream (after the norm)", "zh": "Post-LN：残差流（归一化之后）"},
    "res_post_unnormed": {"en": "Post-LN: x + FFN(x) before the norm", "zh": "Post-LN：归一化之前的 x + FFN(x)"},
    "res_prepost_title": {"en": "Norm of the stream, layer by layer", "zh": "残差流的范数，逐层"},
    "res_growth_pre_first": {"en": "Pre-LN: growth from the first layer to the last",
                             "zh": "Pre-LN：从第一层到最后一层的增长"},
    "res_growth_post_first": {"en": "Post-LN: growth from the first layer to the last",
                              "zh": "Post-LN：从第一层到最后一层的增长"},
    "res_growth_pre_embed": {"en": "Pre-LN: growth from the embedding to the last layer",
                             "zh": "Pre-LN：从嵌入到最后一层的增长"},
    "res_growth_post_embed": {"en": "Post-LN: growth from the embedding to the last layer",
                              "zh": "Post-LN：从嵌入到最后一层的增长"},
    "res_norm_axis": {"en": "norm of the stream (mean over positions)", "zh": "残差流的范数（各位置平均）"},
    "res_ex_prepost": {
        "en": "In Pre-LN (GPT-2, LLaMA) nothing ever rescales the stream between layers: sub-layers keep adding, "
              "the norm grows with depth, and a final norm is needed before the output. In Post-LN (the original "
              "Transformer, BERT) a norm follows every addition, so the stream's norm is reset to about √d_model "
              "at every layer; gradients must pass through every norm, which makes deep Post-LN models harder to train.",
        "zh": "在 Pre-LN（GPT-2、LLaMA）中，层与层之间没有任何操作重新缩放残差流：子层不断相加，范数随深度增长，"
              "输出之前需要一次最终归一化。在 Post-LN（原始 Transformer、BERT）中，每次相加之后都有归一化，"
              "残差流的范数在每层都被重置到约 √d_model；梯度必须穿过每一个归一化，因此深层 Post-LN 模型更难训练。"},
    "res_lens_unavailable": {
        "en": "The logit lens needs an unembedding: it reads every layer's stream as next-token predictions through "
              "the model's output head. This model outputs hidden states (an encoder such as BERT/MiniLM without "
              "its language-model head), so there is nothing to read them with. Choose a decoder (a GPT-2- or "
              "LLaMA-style model or a toy checkpoint) in the sidebar.",
        "zh": "Logit 透镜需要反嵌入矩阵：它通过模型的输出头把每一层的残差流读成下一个词元的预测。"
              "该模型只输出隐藏状态（例如不带语言模型头的 BERT/MiniLM 编码器），所以无法这样读取。"
              "请在侧边栏选择一个解码器（GPT-2 或 LLaMA 式模型，或训练好的玩具模型）。"},
    "res_lens_colour": {"en": "Colour", "zh": "颜色"},
    "res_lens_top": {"en": "probability of the top token at that layer", "zh": "该层最可能词元的概率"},
    "res_lens_final": {"en": "probability of the model's final answer", "zh": "模型最终答案的概率"},
    "res_lens_title": {"en": "Logit lens: the top next-token prediction at every layer",
                       "zh": "Logit 透镜：每一层最可能的下一个词元"},
    "res_lens_caption": {
        "en": "Each cell: the most probable next token if the model stopped after that layer (the stream through "
              "the final norm and the unembedding). The last row is the model's real output.",
        "zh": "每个单元格：如果模型在该层之后停止（残差流经过最终归一化和反嵌入），最可能的下一个词元。"
              "最后一行就是模型的真实输出。"},
    "res_lens_encoder": {"en": "This model is bidirectional: its predictions are for the token at each position, "
                                "not the next one.",
                         "zh": "该模型是双向的：它的预测针对每个位置上的词元本身，而不是下一个词元。"},
    # ---- figure words ------------------------------------------------------------------------
    "term_norm": {"en": "norm", "zh": "范数"},
    "term_probability": {"en": "probability", "zh": "概率"},
}

FORMULAS = {
    "res_sum": r"x_L = x_0+\sum_{l=0}^{L-1}\Big(\mathrm{Attn}_l\big(\mathrm{LN}_{l,1}(x_l)\big)+"
               r"\mathrm{FFN}_l\big(\mathrm{LN}_{l,2}(x_{l+\frac12})\big)\Big),\quad "
               r"x_{l+\frac12}=x_l+\mathrm{Attn}_l\big(\mathrm{LN}_{l,1}(x_l)\big)",
    "res_pre": r"\text{Pre-LN:}\quad x\leftarrow x+f\big(\mathrm{LN}(x)\big)",
    "res_post": r"\text{Post-LN:}\quad x\leftarrow \mathrm{LN}\big(x+f(x)\big)",
    "norm_layernorm": r"\mathrm{LayerNorm}(x)=\frac{x-\mu}{\sqrt{\sigma^2+\epsilon}}\odot\gamma+\beta",
    "norm_rmsnorm": r"\mathrm{RMSNorm}(x)=\frac{x}{\sqrt{\tfrac{1}{d}\sum_i x_i^2+\epsilon}}\odot\gamma",
    "norm_dyt": r"\mathrm{DyT}(x)=\gamma\odot\tanh(\alpha x)+\beta",
    "lens": r"p_l=\mathrm{softmax}\big(W_U\,\mathrm{LN}_{final}(x_l)\big)",
}

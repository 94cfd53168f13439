"""Strings of the FFN page (ffn_), the residual-stream page (res_), the A/B comparison
(ab_) and the ablation toggles (abl_), plus figure words (term_) they share."""

STRINGS = {
    "nav_ffn": {"en": "Feed-forward (FFN)", "zh": "前馈网络 (FFN)"},
    "nav_residual": {"en": "Residual stream", "zh": "残差流"},
    "view_compare": {"en": "Compare A/B", "zh": "对比 A/B"},
    # ---- figure words ---------------------------------------------------------------------
    "term_token": {"en": "token", "zh": "词元"},
    "term_neuron": {"en": "neuron", "zh": "神经元"},
    "term_activation": {"en": "activation", "zh": "激活值"},
    "term_count": {"en": "count", "zh": "计数"},
    "term_sparsity": {"en": "sparsity", "zh": "稀疏度"},
    "term_score": {"en": "score", "zh": "得分"},
    "term_norm": {"en": "norm", "zh": "范数"},
    "term_probability": {"en": "probability", "zh": "概率"},
    "use_task_example": {"en": "Read the task's example instead: {text}", "zh": "改为读取该任务的示例：{text}"},
    # ---- FFN page -------------------------------------------------------------------------
    "ffn_title": {"en": "Feed-forward network (FFN)", "zh": "前馈网络（FFN）"},
    "ffn_intro": {
        "en": "After attention has mixed information between tokens, every token goes through the same two-layer "
              "network on its own: expand to d_ff neurons, apply a non-linearity, project back. Most of a "
              "Transformer's parameters live here, and many neurons behave like key-value memories: they fire on "
              "certain inputs and write certain tokens' directions into the residual stream.",
        "zh": "注意力在词元之间混合信息之后，每个词元都独立地经过同一个两层网络：先扩展到 d_ff 个神经元，经过非线性激活，"
              "再投影回来。Transformer 的大部分参数都在这里；许多神经元像“键-值记忆”：在特定输入上激活，"
              "并把某些词元的方向写入残差流。"},
    "ffn_view_activations": {"en": "Activations", "zh": "激活"},
    "ffn_view_function": {"en": "Activation function & sparsity", "zh": "激活函数与稀疏度"},
    "ffn_view_size": {"en": "Size & parameters", "zh": "规模与参数"},
    "ffn_view_compare": {"en": "Compare A/B", "zh": "对比 A/B"},
    "ffn_view_ablation": {"en": "Ablation", "zh": "消融"},
    "ffn_shape": {"en": "d_model = {d} → d_ff = {ff} (×{ratio:.2g}), activation {act}",
                  "zh": "d_model = {d} → d_ff = {ff}（×{ratio:.2g}），激活函数 {act}"},
    "ffn_which": {"en": "Values", "zh": "数值"},
    "ffn_post": {"en": "after the activation (what W_out reads)", "zh": "激活之后（W_out 读取的值）"},
    "ffn_pre": {"en": "before the activation", "zh": "激活之前"},
    "ffn_order": {"en": "Neurons", "zh": "神经元"},
    "ffn_order_top": {"en": "strongest per token (clickable)", "zh": "每个词元最强的（可点击）"},
    "ffn_order_all": {"en": "all, sorted by mean |activation|", "zh": "全部，按平均 |激活| 排序"},
    "ffn_map_title": {"en": "Layer {layer}: the {n} strongest neurons", "zh": "第 {layer} 层：最强的 {n} 个神经元"},
    "ffn_map_caption": {
        "en": "Columns are the neurons that are among the strongest for at least one token. Click a cell to open "
              "that neuron below. Red = positive, blue = negative.",
        "zh": "每一列是至少在一个词元上最强的神经元之一。点击单元格即可在下方打开该神经元。红色为正，蓝色为负。"},
    "ffn_topk_table": {"en": "The {k} most active neurons of each token", "zh": "每个词元最活跃的 {k} 个神经元"},
    "ffn_all_title": {"en": "Layer {layer}: every neuron", "zh": "第 {layer} 层：全部神经元"},
    "ffn_all_caption": {"en": "All {n} neurons, the most active on average first. Pick one by number below.",
                        "zh": "全部 {n} 个神经元，平均最活跃的在前。可在下方按编号选择。"},
    "ffn_neuron": {"en": "Neuron", "zh": "神经元"},
    "ffn_neuron_title": {"en": "Layer {layer}, neuron {n}", "zh": "第 {layer} 层，第 {n} 号神经元"},
    "ffn_neuron_help": {
        "en": "Left: how strongly this neuron fires on each token (its key matching the input). Right: the tokens its "
              "output vector (a column of W_out, its value) pushes up and down.",
        "zh": "左：该神经元在每个词元上的激活强度（它的“键”与输入的匹配程度）。右：它的输出向量"
              "（W_out 的一列，即它的“值”）提升和压低的词元。"},
    "ffn_neuron_acts": {"en": "Activation per token", "zh": "每个词元上的激活"},
    "ffn_promotes": {"en": "Promoted (left) and suppressed (right) tokens", "zh": "提升的词元（左）与压低的词元（右）"},
    "ffn_via_unembedding": {
        "en": "Scores = W_U · value: the logits this neuron adds to each token when it fires with activation 1 "
              "(before the final norm).",
        "zh": "得分 = W_U · 值向量：该神经元以激活值 1 触发时给每个词元增加的 logit（未经过最后的归一化）。"},
    "ffn_via_embedding": {
        "en": "This model has no unembedding (an encoder without its language-model head), so the value vector is "
              "compared with the token embeddings instead: W_E · value.",
        "zh": "该模型没有反嵌入矩阵（不带语言模型头的编码器），因此改为与词元嵌入比较：W_E · 值向量。"},
    "ffn_function_caption": {
        "en": "Bars: the {n} pre-activation values of layer {layer} for this text. Line: the model's own activation "
              "function over the same range.",
        "zh": "柱状：本文本在第 {layer} 层的 {n} 个激活前数值。曲线：模型自身的激活函数在同一范围内的形状。"},
    "ffn_sparsity_title": {"en": "Sparsity per layer", "zh": "每层的稀疏度"},
    "ffn_sparsity_exact": {"en": "ReLU outputs exact zeros: the share of activations that are exactly 0.",
                           "zh": "ReLU 会输出精确的 0：这里是恰好为 0 的激活所占比例。"},
    "ffn_sparsity_near": {
        "en": "This activation is never exactly zero: the share of activations with |value| ≤ {tol}.",
        "zh": "该激活函数几乎不会输出精确的 0：这里是 |值| ≤ {tol} 的激活所占比例。"},
    "ffn_ex_activation": {
        "en": "The FFN is applied to every position separately. ReLU cuts negative inputs to zero, so many "
              "neurons are silent for a given token; GELU and SiLU are smooth and let small negative values through.",
        "zh": "前馈网络对每个位置分别作用。ReLU 把负输入截为 0，因此对某个词元来说很多神经元是静默的；"
              "GELU 和 SiLU 是平滑的，会让较小的负值通过。"},
    "ffn_share_title": {"en": "Where the parameters are", "zh": "参数都在哪里"},
    "ffn_share_metric": {"en": "FFN share of all parameters", "zh": "FFN 占全部参数的比例"},
    "ffn_share_blocks": {"en": "FFN share of the blocks (FFN + attention)", "zh": "FFN 占各层（FFN + 注意力）的比例"},
    "ffn_col_part": {"en": "Part", "zh": "部分"},
    "ffn_col_params": {"en": "Parameters", "zh": "参数量"},
    "ffn_col_share": {"en": "Share", "zh": "占比"},
    "ffn_part_embeddings": {"en": "embeddings", "zh": "嵌入"},
    "ffn_part_attention": {"en": "attention", "zh": "注意力"},
    "ffn_part_ffn": {"en": "FFN", "zh": "前馈网络"},
    "ffn_part_norms": {"en": "norms", "zh": "归一化"},
    "ffn_part_other": {"en": "other", "zh": "其他"},
    "ffn_size_caption": {
        "en": "One FFN: d_model = {d} → d_ff = {ff} → d_model, {per:,} parameters, in each of {layers} layers.",
        "zh": "单个前馈网络：d_model = {d} → d_ff = {ff} → d_model，共 {per:,} 个参数，{layers} 层每层一个。"},
    "ffn_ex_size": {
        "en": "With d_ff = 4·d_model an FFN has about 8·d_model² weights, twice the 4·d_model² of attention, so in "
              "the blocks roughly two thirds of the parameters are FFN. Small models with a large vocabulary spend "
              "most of their parameters on the embedding table instead.",
        "zh": "当 d_ff = 4·d_model 时，一个前馈网络约有 8·d_model² 个权重，是注意力（4·d_model²）的两倍，"
              "所以各层中约三分之二的参数属于前馈网络。词表很大的小模型则把大部分参数花在嵌入表上。"},
    # ---- residual page --------------------------------------------------------------------
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
              "（LayerNorm：标准差，因此与输入标准差相同；RMSNorm：均方根，其中也包含均值）；DyT 没有这个量。归一化之后，可学习的增益和偏置决定输出的均值与方差。"},
    "res_pair_shipped": {"en": "The shipped twins (same task, data and seed), reading the task's example {text}.",
                         "zh": "随附的一对双胞胎模型（相同任务、数据和随机种子），读取任务示例 {text}。"},
    "res_pair_random": {
        "en": "The trained pre-/post-LN pair is not shipped here, so two GPT-2-style twins with the same random "
              "weights are compared instead, on your text.",
        "zh": "本机没有随附训练好的 Pre-LN / Post-LN 模型对，因此改为比较两个权重相同的随机 GPT-2 式双胞胎模型，"
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
    # ---- A/B ------------------------------------------------------------------------------
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
    # ---- ablation -------------------------------------------------------------------------
    "abl_intro": {
        "en": "Switch a part of the model off and see how its output changes on your text. Heads and the mask are "
              "changed with hooks during the forward pass; positions and norms by rebuilding the model with the same "
              "weights and another configuration.",
        "zh": "关闭模型的某个部分，看看它在你的文本上的输出如何变化。注意力头和掩码通过前向传播中的钩子修改；"
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
                         "zh": "模型看到的将是一袋词元：没有位置向量、旋转或偏置。"},
    "abl_mask": {"en": "Remove the attention mask", "zh": "去掉注意力掩码"},
    "abl_mask_help": {"en": "Every query may attend to every key (a decoder then sees the future).",
                      "zh": "每个查询都可以关注所有键（解码器因此能看到未来）。"},
    "abl_nothing": {"en": "Choose something to switch off above.", "zh": "请在上方选择要关闭的部分。"},
    "abl_mask_noop": {"en": "This model's self-attention already sees every token, so removing the mask changes "
                             "nothing.",
                      "zh": "该模型的自注意力本来就能看到所有词元，因此去掉掩码不会改变任何结果。"},
    "abl_dropped": {"en": "Weights with no place in the changed model (unused): {names}",
                    "zh": "修改后的模型中没有位置的权重（未使用）：{names}"},
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
    "abl_mean_cos": {"en": "Mean cosine (original, ablated)", "zh": "平均余弦（原模型，消融后）"},
    "abl_mean_rel": {"en": "Relative change ‖Δh‖ / ‖h‖", "zh": "相对变化 ‖Δh‖ / ‖h‖"},
    "abl_rel_title": {"en": "Change of the final hidden state per position", "zh": "每个位置最终隐藏状态的变化"},
    "abl_hidden_caption": {"en": "This model outputs hidden states (no vocabulary head), so the change is measured on "
                                  "the final vectors.",
                           "zh": "该模型输出隐藏状态（没有词表输出头），因此在最终向量上衡量变化。"},
}

FORMULAS = {
    "ffn": r"\mathrm{FFN}(x)=W_{out}\,\sigma(W_{in}x+b_{in})+b_{out},\qquad W_{in}\in\mathbb{R}^{d_{ff}\times d},\;"
           r"W_{out}\in\mathbb{R}^{d\times d_{ff}}",
    "ffn_swiglu": r"\mathrm{FFN}(x)=W_{out}\big(\mathrm{SiLU}(W_{gate}x)\odot W_{in}x\big),\qquad "
                  r"\mathrm{SiLU}(z)=z\,\sigma(z)",
    "ffn_kv": r"\mathrm{FFN}(x)=\sum_{n=1}^{d_{ff}}\underbrace{\sigma(k_n\cdot x)}_{\text{key match}}\;"
              r"\underbrace{v_n}_{W_{out}[:,n]},\qquad \text{promoted tokens}=\operatorname{top}\,W_U v_n",
    "res_sum": r"x_L = x_0+\sum_{l=0}^{L-1}\Big(\mathrm{Attn}_l\big(\mathrm{LN}(x)\big)+"
               r"\mathrm{FFN}_l\big(\mathrm{LN}(x)\big)\Big)",
    "res_pre": r"\text{Pre-LN:}\quad x\leftarrow x+f\big(\mathrm{LN}(x)\big)",
    "res_post": r"\text{Post-LN:}\quad x\leftarrow \mathrm{LN}\big(x+f(x)\big)",
    "norm_layernorm": r"\mathrm{LayerNorm}(x)=\frac{x-\mu}{\sqrt{\sigma^2+\epsilon}}\odot\gamma+\beta",
    "norm_rmsnorm": r"\mathrm{RMSNorm}(x)=\frac{x}{\sqrt{\tfrac{1}{d}\sum_i x_i^2+\epsilon}}\odot\gamma",
    "norm_dyt": r"\mathrm{DyT}(x)=\gamma\odot\tanh(\alpha x)+\beta",
    "lens": r"p_l=\mathrm{softmax}\big(W_U\,\mathrm{LN}_{final}(x_l)\big)",
}

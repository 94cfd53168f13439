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
    "res_view_lens": {"en": "Logit lens", "zh": "logit 透镜"},
    "res_view_compare": {"en": "Compare A/B", "zh": "对比 A/B"},
    "res_view_ablation": {"en": "Ablation", "zh": "消融"},
    "res_norm_title": {"en": "Norm of the stream after each step", "zh": "每一步之后残差流的范数"},
    "res_norm_caption": {
        "en": "Rows: the embedding, then the stream after each sub-layer has added its output; columns: tokens.",
        "zh": "行：嵌入，然后是每个子层加上输出之后的残差流；列：词元。"},
    "res_position": {"en": "Position", "zh": "位置"},
    "res_all_positions": {"en": "mean over all positions", "zh": "所有位置的平均"},
    "res_contrib_title": {"en": "What each sub-layer adds", "zh": "每个子层加入了什么"},
    "res_cos_stream": {"en": "cosine with the stream", "zh": "与残差流的余弦相似度"},
    "res_contrib_caption": {
        "en": "Top: the norm of each contribution (grey: embedding, blue: attention, orange: FFN). Bottom: its "
              "cosine with the stream it is added to: positive reinforces what is there, negative erases it.",
        "zh": "上：每个贡献的范数（灰色：嵌入，蓝色：注意力，橙色：前馈网络）。下：它与所加入的残差流之间的余弦相似度："
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
    "res_where_sandwich": {"en": "before and after each sub-layer (sandwich norm, Gemma 2/3)",
                           "zh": "放在每个子层之前和之后（夹心式归一化，Gemma 2/3）"},
    "res_where_output": {"en": "on each sub-layer's output, before the residual addition (OLMo 2)",
                         "zh": "作用在每个子层的输出上，在残差相加之前（OLMo 2）"},
    "res_in_std": {"en": "input std", "zh": "输入标准差"},
    "res_out_std": {"en": "output std", "zh": "输出标准差"},
    "res_scale": {"en": "scale (divisor, RMS)", "zh": "缩放量（除数，均方根）"},
    "res_in_abs_mean": {"en": "|input mean|", "zh": "|输入均值|"},
    "res_std": {"en": "mean over positions", "zh": "各位置平均"},
    "res_norms_title": {"en": "Before and after each norm", "zh": "每次归一化前后的统计量"},
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
    "res_prepost_title": {"en": "Norm of the stream, layer by layer", "zh": "逐层的残差流范数"},
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
        "zh": "logit 透镜需要反嵌入矩阵：它通过模型的输出头把每一层的残差流读成下一个词元的预测。"
              "该模型只输出隐藏状态（例如不带语言模型头的 BERT/MiniLM 编码器），所以无法这样读取。"
              "请在侧边栏选择一个解码器（GPT-2 或 LLaMA 式模型，或训练好的玩具模型）。"},
    "res_lens_colour": {"en": "Colour", "zh": "颜色"},
    "res_lens_top": {"en": "probability of the top token at that layer", "zh": "该层最可能词元的概率"},
    "res_lens_final": {"en": "probability of the model's final answer", "zh": "模型最终答案的概率"},
    "res_lens_title": {"en": "Logit lens: the top next-token prediction at every layer",
                       "zh": "logit 透镜：每一层最可能的下一个词元"},
    "res_lens_caption": {
        "en": "Each cell: the most probable next token if the model stopped after that layer (the stream through "
              "the final norm and the unembedding). The last row is the model's real output.",
        "zh": "每个单元格：如果模型在该层之后停止（残差流经过最终归一化和反嵌入），最可能的下一个词元。"
              "最后一行就是模型的真实输出。"},
    "res_lens_encoder": {"en": "This model is bidirectional: its predictions are for the token at each position, "
                                "not the next one.",
                         "zh": "该模型是双向的：它的预测针对每个位置上的词元本身，而不是下一个词元。"},
    # ---- notes beside the norms and Pre-/Post-LN views ------------------------------------------
    "res_mis_var_common": {"en": "“LayerNorm divides by the standard deviation of the features (the sample std, "
                                 "n − 1).”",
                           "zh": "“层归一化除以各特征的标准差（样本标准差，除以 n − 1）。”"},
    "res_mis_var_shown": {
        "en": "It divides by sqrt(var + ε) with the *biased* variance (÷ d, not d − 1) and ε = {eps:g}: over every "
              "LayerNorm and position of this text, the model's divisor differs from sqrt(biased var + ε) by at most "
              "{biased:.1e}, and from sqrt(unbiased var + ε) by up to {unbiased:.1e}.",
        "zh": "它除以 √(方差 + ε)，其中方差是*有偏*的（除以 d，而不是 d − 1），ε = {eps:g}：在本文本的每个层归一化和每个位置上，"
              "模型的除数与 sqrt(有偏方差 + ε) 最多相差 {biased:.1e}，而与 sqrt(无偏方差 + ε) 最多相差 {unbiased:.1e}。"},
    "res_mis_postln_common": {"en": "“The Transformer puts the LayerNorm before each sub-layer (Pre-LN).”",
                              "zh": "“Transformer 把层归一化放在每个子层之前（Pre-LN）。”"},
    "res_mis_postln_shown": {
        "en": "The original Transformer (Vaswani et al. 2017) computes LayerNorm(x + Sublayer(x)): Post-LN, as in "
              "this catalogue's \"Original Transformer\" ({where}). Pre-LN, x + Sublayer(LN(x)), came later (GPT-2); "
              "Xiong et al. (2020) showed why it trains without a learning-rate warm-up. In the twins above the "
              "stream grows ×{pre:.2f} with Pre-LN and ×{post:.2f} with Post-LN.",
        "zh": "原始 Transformer（Vaswani 等，2017）计算的是 LayerNorm(x + Sublayer(x))：即 Post-LN，与本目录中的"
              "“原始 Transformer”一致（{where}）。Pre-LN，即 x + Sublayer(LN(x))，是后来才出现的（GPT-2）；"
              "Xiong 等（2020）说明了它为什么不需要学习率预热也能训练。在上面的孪生模型中，残差流在 Pre-LN 下变为原来的 {pre:.2f} 倍，"
              "在 Post-LN 下为 {post:.2f} 倍。"},
    # ---- the input layer ---------------------------------------------------------------------------
    "res_view_input": {"en": "Input layer", "zh": "输入层"},
    "res_in_intro": {
        "en": "Before the first block, every token's vector is built by addition: its row of the embedding table, "
              "plus (BERT) a segment vector, plus a position vector where the scheme adds one. These are the rows "
              "this model looked up for your text and how large each part is.",
        "zh": "在第一个块之前，每个词元的向量是加出来的：嵌入表中它的那一行，加上（BERT 的）段嵌入，再加上位置向量"
              "（如果该方案会加位置向量）。下面是这个模型为你的文本查到的各行，以及每一部分有多大。"},
    "res_in_stack": {"en": "Input of", "zh": "查看哪部分的输入"},
    "res_in_title": {"en": "Size of each part, per token", "zh": "每个词元各部分的大小"},
    "res_in_show_scaled": {"en": "Show ‖E[x]‖ × √d_model (= × {s:.3g}, as Vaswani et al. do)",
                           "zh": "显示 ‖E[x]‖ × √d_model（= × {s:.3g}，Vaswani 等的做法）"},
    "res_in_token": {"en": "token embedding ‖E[x]‖", "zh": "词元嵌入 ‖E[x]‖"},
    "res_in_scaled": {"en": "‖E[x]‖·√d_model (not done by this model)", "zh": "‖E[x]‖·√d_model（本模型不做）"},
    "res_in_segment": {"en": "segment ‖S[0]‖", "zh": "段嵌入 ‖S[0]‖"},
    "res_in_position": {"en": "position ‖P[pos]‖", "zh": "位置向量 ‖P[pos]‖"},
    "res_in_sum": {"en": "sum ‖E + S + P‖", "zh": "总和 ‖E + S + P‖"},
    "res_in_col_token": {"en": "token", "zh": "词元"},
    "res_in_ratio": {"en": "‖P‖ / ‖E‖", "zh": "‖P‖ / ‖E‖"},
    "res_in_cos": {"en": "cos(E, P)", "zh": "cos(E, P)"},
    "res_in_block": {"en": "‖x‖ entering block 0", "zh": "进入第 0 块的 ‖x‖"},
    "res_in_check": {"en": "Checked: the rows looked up here equal the model's recorded embeddings (largest difference "
                           "{err:.1e}), and their sum (through the embedding norm, where there is one) is what enters "
                           "block 0 ({sum_err:.1e}).",
                     "zh": "已核对：这里查到的各行与模型记录的嵌入一致（最大差值 {err:.1e}），它们的和（如有嵌入归一化则先经过它）"
                           "就是进入第 0 块的输入（{sum_err:.1e}）。"},
    "res_in_added": {
        "en": "This model adds a {scheme} vector to every token: the position vector is {ratio:.2g}× the token "
              "embedding's size (median over tokens). When it is much larger, the position drowns the word.",
        "zh": "这个模型给每个词元加上一个{scheme}向量：位置向量的大小是词元嵌入的 {ratio:.2g} 倍（各词元的中位数）。"
              "位置向量大得多时，词义就被位置淹没了。"},
    "res_in_not_added": {
        "en": "This model adds no position vector ({scheme}): positions act inside attention (RoPE rotates q and k, "
              "ALiBi and T5 add a bias to the scores), or not at all. The positional-encoding page shows each scheme.",
        "zh": "这个模型不加位置向量（{scheme}）：位置在注意力内部起作用（RoPE 旋转 q 和 k，ALiBi 和 T5 在分数上加偏置），"
              "或者根本没有位置信息。位置编码页面展示了每种方案。"},
    "res_in_segments": {
        "en": "Segment (token-type) embeddings: BERT adds S[0] to the tokens of the first sentence and S[1] to those "
              "of the second (question and answer, for example). A single text is all segment 0.",
        "zh": "段嵌入：BERT 给第一句的词元加 S[0]，给第二句的词元加 S[1]（例如问题和答案）。单独一段文本全部属于第 0 段。"},
    "res_in_embed_norm": {
        "en": "BERT then normalises the sum (a LayerNorm on the embeddings): the mean norm goes from {before:.3g} to "
              "{after:.3g}, so the parts' sizes above are what the norm evens out.",
        "zh": "BERT 随后对总和做一次归一化（嵌入上的层归一化）：平均范数从 {before:.3g} 变为 {after:.3g}，"
              "所以上面各部分的大小差异会被这次归一化拉平。"},
    "res_in_mis_scale_common": {"en": "Code: `x = self.embedding(ids) + self.pe[:n]`, the token rows added to the "
                                      "positions as they are, in a model written after the 2017 paper.",
                                "zh": "代码：`x = self.embedding(ids) + self.pe[:n]`，在按 2017 年论文写的模型里，把词元向量原样"
                                      "加到位置向量上。"},
    "res_in_mis_scale_shown": {
        "en": "That paper's model multiplies by √d_model first, and it was trained so: its rows are small (norm ≈ 1) "
              "against positions of norm {pe:.3g}, and without the factor the position drowns the token. Whether the "
              "factor belongs is a property of how the model was trained, not a style: this model was trained "
              "without it, so its rows already have norm {mean:.3g}, and × √d_model would blow them up to {scaled:.3g}.",
        "zh": "那篇论文的模型先乘以 √d_model，训练时也是这样：它的嵌入行很小（范数约为 1），而位置向量的范数是 {pe:.3g}，"
              "不乘这个因子，位置就会淹没词元。要不要这个因子取决于模型是怎样训练的，而不是写法习惯：本模型训练时没有它，"
              "所以它的嵌入行范数已经是 {mean:.3g}，再乘以 √d_model 就会放大到 {scaled:.3g}。"},
    "res_in_sqrt": {
        "en": "**× √d_model.** Vaswani et al. (2017, §3.4) multiply the embeddings by √d_model = {s:.3g} before adding "
              "the sinusoidal table: their embedding matrix is shared with the output layer and initialised small "
              "(std d_model^−½), so a row has norm ≈ 1 while a sinusoidal position vector has norm √(d_model/2) = "
              "{pe:.3g}; the factor brings the token back to the positions' scale. This model does not multiply (nor "
              "do GPT-2, BERT or LLaMA): its table's entries have std {std:.3g}, so a row's norm is about {row:.3g} "
              "(measured: {mean:.3g}; × √d_model it would be {scaled:.3g}).",
        "zh": "**× √d_model。** Vaswani 等（2017，§3.4）在加上正弦位置表之前把嵌入乘以 √d_model = {s:.3g}：他们的嵌入矩阵与输出层"
              "共享，且初始化得很小（标准差 d_model^−½），所以一行的范数约为 1，而正弦位置向量的范数是 √(d_model/2) = {pe:.3g}；"
              "乘上这个因子，词元才回到与位置向量相同的量级。本模型不做这个乘法（GPT-2、BERT、LLaMA 也不做）：它的嵌入表各元素的"
              "标准差为 {std:.3g}，所以一行的范数约为 {row:.3g}（实测 {mean:.3g}；乘以 √d_model 后为 {scaled:.3g}）。"},
    # ---- LayerNorm vs BatchNorm --------------------------------------------------------------------
    "res_view_batchnorm": {"en": "LayerNorm vs BatchNorm", "zh": "层归一化与批归一化"},
    "bn_intro": {
        "en": "A batch of texts is a block [batch × position × feature]. **LayerNorm** (and RMSNorm) normalises one "
              "token's vector over its features: one mean and one variance per token. **BatchNorm** normalises one "
              "feature over every token of the batch: one mean and one variance per feature, shared by all the "
              "texts. **DyT** computes no statistics at all: tanh(αx), element by element.",
        "zh": "一批文本是一个 [批 × 位置 × 特征] 的数据块。**层归一化**（以及 RMSNorm）在一个词元向量的各个特征上做归一化："
              "每个词元一个均值、一个方差。**批归一化**对一个特征在整批所有词元上做归一化：每个特征一个均值、一个方差，"
              "由批中所有文本共用。**DyT** 完全不计算统计量：逐元素计算 tanh(αx)。"},
    "bn_col_norm": {"en": "norm", "zh": "归一化"},
    "bn_col_over": {"en": "statistics over", "zh": "统计量在哪些数上计算"},
    "bn_col_padding": {"en": "padding in its statistics?", "zh": "统计量会受填充影响吗？"},
    "bn_axis_layernorm": {"en": "LayerNorm", "zh": "层归一化（LayerNorm）"},
    "bn_axis_rmsnorm": {"en": "RMSNorm", "zh": "RMSNorm（均方根归一化）"},
    "bn_axis_batchnorm": {"en": "BatchNorm", "zh": "批归一化（BatchNorm）"},
    "bn_axis_dyt": {"en": "DyT", "zh": "DyT"},
    "bn_over_layernorm": {"en": "the d features of one token (mean and variance)", "zh": "一个词元的 d 个特征（均值和方差）"},
    "bn_over_rmsnorm": {"en": "the d features of one token (mean of squares)", "zh": "一个词元的 d 个特征（平方的均值）"},
    "bn_over_batchnorm": {"en": "one feature over every token of every text in the batch",
                          "zh": "一个特征在批中所有文本的所有词元上"},
    "bn_over_dyt": {"en": "none: tanh(αx) per element, α learned", "zh": "不计算：逐元素 tanh(αx)，α 可学习"},
    "bn_pad_layernorm": {"en": "no: a real token's statistics come from that token", "zh": "不会：真实词元的统计量只来自它自己"},
    "bn_pad_rmsnorm": {"en": "no (per token)", "zh": "不会（按词元计算）"},
    "bn_pad_batchnorm": {"en": "yes, unless every padded position is masked out of the average",
                         "zh": "会，除非把每个填充位置都从平均中排除"},
    "bn_pad_dyt": {"en": "no (no statistics)", "zh": "不会（没有统计量）"},
    "bn_this_model": {"en": "This model uses {norm}.", "zh": "本模型使用{norm}。"},
    "bn_encdec": {"en": "The padded batch runs single-stack models (an encoder or a decoder); the scatter below works "
                        "for every model.",
                  "zh": "填充批次只运行单一结构的模型（只有编码器或只有解码器）；下面的散点图适用于所有模型。"},
    "bn_text2": {"en": "Second text of the batch", "zh": "批次中的第二段文本"},
    "bn_text2_default": {"en": "A shorter one.", "zh": "A shorter one."},
    "bn_empty_text2": {"en": "Type a second text to build a batch.", "zh": "请输入第二段文本以组成一个批次。"},
    "bn_batch": {"en": "The batch: {n} positions × {d} features, text 1 has {a} tokens, text 2 has {b} (the rest is "
                       "padding). Shown: the input of the first norm of layer {layer}, as the model computed it.",
                 "zh": "这个批次：{n} 个位置 × {d} 个特征，文本 1 有 {a} 个词元，文本 2 有 {b} 个（其余为填充）。"
                       "下面是模型在第 {layer} 层第一个归一化处的输入。"},
    "bn_ln_title": {"en": "LayerNorm: one σ per token (grey: padding)", "zh": "层归一化：每个词元一个 σ（灰色：填充）"},
    "bn_ln_caption": {"en": "Each real token's mean and σ equal those of its text run alone: largest difference "
                            "{err:.1e}.",
                      "zh": "每个真实词元的均值和 σ 与它所在文本单独运行时相同：最大差值 {err:.1e}。"},
    "bn_bn_title": {"en": "BatchNorm: one mean per feature", "zh": "批归一化：每个特征一个均值"},
    "bn_bn_caption": {"en": "Averaging the padded positions too moves the per-feature means by up to {shift:.3g}: every "
                            "real token would then be normalised with statistics that depend on the other text's "
                            "length.",
                      "zh": "把填充位置也算进平均，会让各特征的均值最多移动 {shift:.3g}：于是每个真实词元的归一化都取决于"
                            "另一段文本有多长。"},
    "bn_sweep_title": {"en": "More padding after both texts", "zh": "在两段文本后面再加填充"},
    "bn_sweep_caption": {"en": "With {k} more padding tokens BatchNorm's means move by {bn:.3g}; LayerNorm's statistics "
                               "of the real tokens by at most {ln:.1e} (float rounding).",
                         "zh": "再加 {k} 个填充词元后，批归一化的均值移动 {bn:.3g}；真实词元的层归一化统计量最多变化 {ln:.1e}"
                               "（浮点舍入误差）。"},
    "bn_mis_common": {"en": "“Add & Norm is like batch normalisation.”", "zh": "“Add & Norm 类似于批归一化。”"},
    "bn_mis_shown": {
        "en": "It is a LayerNorm, per token. On this batch a BatchNorm's means would move by {bn:.3g} because of "
              "the padding, while every LayerNorm statistic of a real token stays what it is when its text runs "
              "alone (difference {ln:.1e}). That is why Transformers, whose batches hold texts of different "
              "lengths, normalise per token.",
        "zh": "它是逐词元的层归一化。在这个批次上，批归一化的均值会因为填充而移动 {bn:.3g}，而真实词元的每个层归一化统计量都与"
              "它所在文本单独运行时相同（差值 {ln:.1e}）。一个批次里的文本长短不一，这正是 Transformer 按词元做归一化的原因。"},
    "bn_scatter_title": {"en": "A real norm's input against its output, and DyT's tanh",
                         "zh": "真实归一化层的输入与输出，以及 DyT 的 tanh"},
    "bn_scatter_norm": {"en": "Norm", "zh": "归一化层"},
    "bn_scatter_fig": {"en": "{norm}: input x against output (gain and bias removed)",
                       "zh": "{norm}：输入 x 与输出（去掉增益和偏置）"},
    "bn_scatter_caption": {
        "en": "{n} points, one per token and feature of your text, coloured by token. Within one token the map is a "
              "straight line of slope 1/σ (RMSNorm: 1/RMS); tokens with large σ (outlier features) give the flattened ends, and the "
              "cloud bends like tanh. Fitted y ≈ {g:.3g}·tanh({alpha:.3g}·x): R² = {r2:.3f}, against {r2l:.3f} for "
              "the best straight line. This shape is what DyT (Zhu et al. 2025) copies with a learned tanh(αx) and "
              "no statistics. The output shown equals the formula on the input within {err:.1e}.",
        "zh": "{n} 个点，对应你的文本中每个词元的每个特征，按词元着色。在同一个词元内，映射是一条斜率为 1/σ（RMSNorm 为 1/RMS）的直线；σ 大的词元"
              "（有离群特征）形成两端变平的部分，整团点弯成 tanh 的形状。拟合 y ≈ {g:.3g}·tanh({alpha:.3g}·x)：R² = {r2:.3f}，"
              "最佳直线为 {r2l:.3f}。DyT（Zhu 等，2025）正是用可学习的 tanh(αx) 模仿这个形状，而不计算任何统计量。"
              "图中的输出与对输入套用公式的结果一致，最大差值 {err:.1e}。"},
    "bn_scatter_dyt": {"en": "This model's norm is DyT itself: its learned α is {alpha:.3g}.",
                       "zh": "本模型的归一化就是 DyT：学到的 α 为 {alpha:.3g}。"},
    "res_in_mis_table_common": {
        "en": "“A vocabulary of 10 gives a 10 × 3 table”, beside code that builds `nn.Embedding(5, 3)` and looks up id 9.",
        "zh": "“大小为 10 的词表得到一张 10 × 3 的表”，而旁边的代码建的是 `nn.Embedding(5, 3)`，还查了编号 9。"},
    "res_in_mis_table_shown": {
        "en": "`nn.Embedding(V, d)` has one row of width d per id, V rows in all, and an id of V or more has no row (an "
              "index error, not a new row). This model's table is {v:,} × {d}, and the ids of your text above run "
              "from {lo:,} to {hi:,}.",
        "zh": "`nn.Embedding(V, d)` 为每个编号准备一行宽度为 d 的向量，一共 V 行；编号大于或等于 V 时没有对应的行（会报索引错误，"
              "而不是新增一行）。这个模型的表是 {v:,} × {d}，上面你的文本的编号从 {lo:,} 到 {hi:,}。"},
    "bn_mis_rnn_common": {"en": "“LayerNorm is mostly used in RNN-like models.”",
                          "zh": "“层归一化（LayerNorm）主要用于类似 RNN 的结构。”"},
    "bn_mis_rnn_shown": {
        "en": "It was first proposed for RNNs (Ba et al. 2016), but it, or its RMSNorm variant, is the default "
              "normalisation of Transformers: the picker below lists {k} norm layers of this model, one before or "
              "after every sub-layer, plus one on the embeddings or at the end. BatchNorm is the one Transformers avoid.",
        "zh": "它最早是为 RNN 提出的（Ba 等，2016），但它（或它的变体 RMSNorm）是 Transformer 默认的归一化方式：下面的选择框列出了本模型的 "
              "{k} 个归一化层，每个子层之前或之后各一个，另外在嵌入之后或末尾还有一个。Transformer 避免使用的是批归一化（BatchNorm）。"},
    "bn_mis_rms_common": {"en": "“RMSNorm keeps the accuracy and is 40% faster.”",
                          "zh": "“RMSNorm 精度不变，速度快 40%。”"},
    "bn_mis_rms_shown": {
        "en": "RMSNorm drops LayerNorm's mean (and its β): per token it computes one mean square over the d = {d} "
              "numbers instead of a mean and a variance. How much faster a model runs depends on the model and the "
              "implementation: the RMSNorm paper measured from 7% to 64% across its models, so no single figure such "
              "as 40% holds in general.",
        "zh": "RMSNorm 去掉了层归一化的均值（以及 β）：每个词元只在 d = {d} 个数上计算一次均方，而不是均值和方差。模型能快多少"
              "取决于模型和实现：RMSNorm 的论文在不同模型上测得 7% 到 64% 不等，所以 40% 这样的单一数字并不普遍成立。"},
    "bn_mis_dyt_common": {"en": "“DyT simply replaces LayerNorm with tanh.”",
                          "zh": "“DyT 就是直接用 tanh 替换层归一化。”"},
    "bn_mis_dyt_shown": {
        "en": "DyT(x) = γ ⊙ tanh(αx) + β, with α learned: a plain tanh would squash every input the same way whatever "
              "its scale. The fit above needs α = {alpha:.3g} and a gain of {g:.3g} to follow this norm (R² = {r2:.3f}).",
        "zh": "DyT(x) = γ ⊙ tanh(αx) + β，其中 α 是学出来的：单纯的 tanh 无论输入的尺度如何都会以同样的方式压缩。上面的拟合需要 "
              "α = {alpha:.3g}、增益 {g:.3g} 才能贴合这个归一化层（R² = {r2:.3f}）。"},
    "bn_term_token": {"en": "token", "zh": "词元"},
    "bn_term_feature": {"en": "feature", "zh": "特征"},
    "bn_term_mean": {"en": "mean", "zh": "均值"},
    "bn_term_bn_real": {"en": "over the real tokens", "zh": "只算真实词元"},
    "bn_term_bn_all": {"en": "over the padded batch", "zh": "算上整个填充批次"},
    "bn_term_added": {"en": "padding tokens added", "zh": "增加的填充词元数"},
    "bn_term_change": {"en": "largest change", "zh": "最大变化"},
    "bn_term_ln_change": {"en": "LayerNorm statistics of real tokens", "zh": "真实词元的层归一化统计量"},
    "bn_term_bn_change": {"en": "BatchNorm means", "zh": "批归一化的均值"},
    "bn_term_input": {"en": "input x", "zh": "输入 x"},
    "bn_term_output": {"en": "output (gain and bias removed)", "zh": "输出（去掉增益和偏置）"},
    "bn_term_fit": {"en": "fitted g·tanh(αx)", "zh": "拟合的 g·tanh(αx)"},
    "bn_term_line": {"en": "best line c·x", "zh": "最佳直线 c·x"},
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

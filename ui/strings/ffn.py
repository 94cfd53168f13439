"""Strings of the feed-forward (FFN) page."""

STRINGS = {
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
    # ---- notes: what an activation has, which axis the FFN mixes ----------------------------------
    "ffn_mis_params_common": {"en": "“Activation functions have no parameters.”", "zh": "“激活函数没有参数。”"},
    "ffn_mis_params_none": {
        "en": "True of this model's {act}: 0 learned numbers. Not of every nonlinearity in a Transformer: LLaMA's "
              "SwiGLU multiplies by a learned gate silu(W_gate x), which for this model's shape would be {gate:,} "
              "parameters per layer; PReLU learns its negative slope; DyT learns the α of its tanh.",
        "zh": "对本模型的 {act} 来说确实如此：0 个可学习的数。但 Transformer 中的非线性并不都这样：LLaMA 的 SwiGLU 要乘以一个"
              "可学习的门 silu(W_gate x)，按本模型的形状每层就是 {gate:,} 个参数；PReLU 要学习负半轴的斜率；DyT 要学习 tanh 的 α。"},
    "ffn_mis_params_gated": {
        "en": "This model's SwiGLU has a learned gate: silu(W_gate x) ⊙ (W_in x), and W_gate holds {gate:,} "
              "parameters in every layer, as many as W_in. The nonlinearity itself is learned here.",
        "zh": "本模型的 SwiGLU 有一个可学习的门：silu(W_gate x) ⊙ (W_in x)，每层的 W_gate 有 {gate:,} 个参数，与 W_in 一样多。"
              "这里的非线性本身就是学出来的。"},
    "ffn_mis_params_dyt": {"en": " Its norms are DyT: {n} more learned α.", "zh": " 它的归一化是 DyT：另有 {n} 个可学习的 α。"},
    "ffn_mis_mixing_common": {
        "en": "“In MLP-Mixer the token-mixing MLP mixes the features inside each token, and channel-mixing works "
              "across tokens.”",
        "zh": "“在 MLP-Mixer 中，词元混合 MLP 混合每个词元内部的特征，通道混合 MLP 在词元之间混合。”"},
    "ffn_mis_mixing_shown": {
        "en": "The other way round: token-mixing works across tokens (one channel, all positions), channel-mixing "
              "within a token. In a Transformer attention does the token mixing and the FFN the channel mixing. "
              "Changing token {pos}'s input to layer {layer} changes the FFN's output at that token by {here:.3g} "
              "and at the other {others} tokens by {elsewhere:.1e}; the attention output moves at {moved} of {n} positions.",
        "zh": "恰好相反：词元混合 MLP 在词元之间混合（一个通道，所有位置），通道混合 MLP 在一个词元内部混合。在 Transformer 中，"
              "注意力负责词元之间的混合，前馈网络负责通道（特征）之间的混合。改变第 {layer} 层中词元 {pos} 的输入，前馈网络在该词元上的"
              "输出变化 {here:.3g}，在其余 {others} 个词元上变化 {elsewhere:.1e}；而注意力的输出在 {n} 个位置中的 {moved} 个发生了变化。"},
    # ---- figure words ------------------------------------------------------------------------
    "term_count": {"en": "count", "zh": "计数"},
    "term_sparsity": {"en": "sparsity", "zh": "稀疏度"},
    "term_score": {"en": "score", "zh": "得分"},
}

FORMULAS = {
    "ffn": r"\mathrm{FFN}(x)=W_{out}\,\sigma(W_{in}x+b_{in})+b_{out},\qquad W_{in}\in\mathbb{R}^{d_{ff}\times d},\;"
           r"W_{out}\in\mathbb{R}^{d\times d_{ff}}",
    "ffn_swiglu": r"\mathrm{FFN}(x)=W_{out}\big(\mathrm{SiLU}(W_{gate}x)\odot W_{in}x\big),\qquad "
                  r"\mathrm{SiLU}(z)=z\,\sigma(z)",
    "ffn_geglu": r"\mathrm{FFN}(x)=W_{out}\big(\mathrm{GELU}_{\tanh}(W_{gate}x)\odot W_{in}x\big)",
    "ffn_geglu_exact": r"\mathrm{FFN}(x)=W_{out}\big(\mathrm{GELU}(W_{gate}x)\odot W_{in}x\big)",
    "ffn_kv": r"\mathrm{FFN}(x)=\sum_{n=1}^{d_{ff}}\underbrace{\sigma(k_n\cdot x)}_{\text{key match}}\;"
              r"\underbrace{v_n}_{W_{out}[:,n]},\qquad \text{promoted tokens}=\operatorname{top}\,W_U v_n",
    "ffn_kv_zh": r"\mathrm{FFN}(x)=\sum_{n=1}^{d_{ff}}\underbrace{\sigma(k_n\cdot x)}_{\text{与键的匹配度}}\;"
                 r"\underbrace{v_n}_{W_{out}[:,n]},\qquad \text{被推高的词元}=\operatorname{top}\,W_U v_n",
}

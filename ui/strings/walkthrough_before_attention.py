"""Strings of the walk-through's section 9, before attention (ui/views/walkthrough_before_attention.py)."""

STRINGS = {
    "ba_title": {"en": "9. Before attention: score functions, RNNs and the cost of a layer",
                 "zh": "9. 注意力之前：分数函数、RNN 与一层的代价"},
    "ba_intro": {
        "en": "Scaled dot-product self-attention was not the first attention. Encoder–decoder RNNs first squeezed the "
              "whole input into one vector, then (Bahdanau et al. 2015) learned to score every input position with a "
              "small network; Luong et al. used a dot product; the Transformer scaled it and dropped the recurrence. "
              "Below: the older score functions on this head's own query and keys, attention without any weights, "
              "a GRU against a Transformer on the same task, and the paper's table of costs for this text.",
        "zh": "缩放点积自注意力并不是最早的注意力。编码器–解码器 RNN 起初把整个输入压进一个向量；后来 Bahdanau 等人（2015）"
              "用一个小网络给每个输入位置打分；Luong 等人改用点积；Transformer 再加上缩放，并去掉了循环。下面依次展示："
              "在这个头自己的查询和键上计算的几种早期分数函数、完全不带权重矩阵的注意力、同一任务上的 GRU 与 Transformer，"
              "以及论文中的代价表（代入这段文本的数字）。"},
    # ---- 1. score functions
    "ba_scores": {"en": "#### Four score functions on the same query and keys",
                  "zh": "#### 同一个查询和同一组键上的四种分数函数"},
    "ba_scores_text": {
        "en": "The query is {q} of layer {layer}, head {head}; the keys are the {m} keys it may see, all vectors of "
              "width d = {dh} taken from the model (after RoPE where the model rotates them). The additive and general "
              "scores need weights of their own: this model never learned any, so they are **seeded random** "
              "matrices (variance 1/d, seed {seed}), not trained ones; their rows show the shape of the function, "
              "not what a trained model would attend to.",
        "zh": "查询是第 {layer} 层第 {head} 个头的 {q}；键是它能看到的 {m} 个键，都是模型里宽度 d = {dh} 的向量（模型使用 "
              "RoPE 时取旋转之后的）。加性分数和一般形式分数需要自己的权重：这个模型从未学过这些权重，所以这里用的是"
              "**随机种子生成**的矩阵（方差 1/d，种子 {seed}），不是训练得到的；它们的行只展示函数的形状，不代表训练过的模型会关注哪里。"},
    "ba_fn_additive": {"en": "additive (Bahdanau)", "zh": "加性（Bahdanau）"},
    "ba_fn_dot": {"en": "dot (Luong)", "zh": "点积（Luong）"},
    "ba_fn_general": {"en": "general (Luong)", "zh": "一般形式（Luong）"},
    "ba_fn_scaled": {"en": "scaled dot (this model)", "zh": "缩放点积（本模型）"},
    "ba_params_additive": {"en": "W₁, W₂ (d×d) and v (d): seeded", "zh": "W₁、W₂（d×d）和 v（d）：随机种子生成"},
    "ba_params_dot": {"en": "none", "zh": "无"},
    "ba_params_general": {"en": "W (d×d): seeded", "zh": "W（d×d）：随机种子生成"},
    "ba_params_scaled": {"en": "none (the model's W_Q, W_K made q and k)", "zh": "无（q 和 k 由模型的 W_Q、W_K 得到）"},
    "ba_col_fn": {"en": "score function", "zh": "分数函数"},
    "ba_col_formula": {"en": "score of key k", "zh": "键 k 的分数"},
    "ba_col_params": {"en": "its own weights", "zh": "自带的权重"},
    "ba_col_range": {"en": "scores from … to", "zh": "分数范围"},
    "ba_col_max": {"en": "largest weight", "zh": "最大权重"},
    "ba_col_entropy": {"en": "entropy (nats)", "zh": "熵（奈特）"},
    "ba_col_top": {"en": "key with the largest weight", "zh": "权重最大的键"},
    "ba_term_function": {"en": "score function", "zh": "分数函数"},
    "ba_scores_chart": {"en": "Softmax weights of each score function, same query", "zh": "各分数函数的 softmax 权重（同一个查询）"},
    "ba_scores_check": {
        "en": "The scaled-dot row is the model's own: it equals the model's attention weights for this query to {err}.",
        "zh": "缩放点积这一行就是模型自己的计算：它与模型在这个查询上的注意力权重相差最多 {err}。"},
    "ba_scores_bias": {
        "en": "This model also adds a position bias or caps its scores; the scaled-dot row here leaves that out, so it "
              "differs from the model's weights by up to {err}.",
        "zh": "这个模型还会加上位置偏置或对分数做截断；这里的缩放点积一行没有包含这一步，所以与模型的权重最多相差 {err}。"},
    "ba_scaling_here": {
        "en": "On this head, dividing by √d = {sqrt} changes the largest weight from {dot} (plain dot) to {scaled} and the "
              "entropy from {h_dot} to {h_scaled} nats: the same ranking of keys, a softer distribution.",
        "zh": "在这个头上，除以 √d = {sqrt} 让最大权重从 {dot}（普通点积）变成 {scaled}，熵从 {h_dot} 变成 {h_scaled} 奈特："
              "键的排序不变，分布更平缓。"},
    "ba_scaling_other": {
        "en": "This model multiplies q·k by {scale}, not by 1/√d = {inv}; with its own factor the largest weight goes "
              "from {dot} (plain dot) to {scaled} and the entropy from {h_dot} to {h_scaled} nats.",
        "zh": "这个模型把 q·k 乘以 {scale}，而不是 1/√d = {inv}；用它自己的系数，最大权重从 {dot}（普通点积）变成 {scaled}，"
              "熵从 {h_dot} 变成 {h_scaled} 奈特。"},
    "ba_sweep": {"en": "##### Why scale: random q and k of growing width",
                 "zh": "##### 为什么要缩放：宽度不断增加的随机 q 和 k"},
    "ba_sweep_text": {
        "en": "{nq} random queries against {n} random keys (entries drawn with mean 0 and variance 1, seed {seed}), "
              "for each width d. This head's width is {dh}.",
        "zh": "每个宽度 d 下，{nq} 个随机查询对 {n} 个随机键（各分量均值 0、方差 1，种子 {seed}）。这个头的宽度是 {dh}。"},
    "ba_sw_d": {"en": "width d", "zh": "宽度 d"},
    "ba_sw_mean": {"en": "mean of q·k", "zh": "q·k 的均值"},
    "ba_sw_std": {"en": "spread (std) of q·k", "zh": "q·k 的标准差"},
    "ba_sw_max_dot": {"en": "largest weight, q·k", "zh": "最大权重（q·k）"},
    "ba_sw_max_scaled": {"en": "largest weight, q·k/√d", "zh": "最大权重（q·k/√d）"},
    "ba_sw_h_dot": {"en": "entropy, q·k", "zh": "熵（q·k）"},
    "ba_sw_h_scaled": {"en": "entropy, q·k/√d", "zh": "熵（q·k/√d）"},
    "ba_sw_caption": {
        "en": "Unscaled, the weights tend to one-hot as d grows (entropy towards 0, a uniform row would have {uniform} "
              "nats): the softmax saturates and its gradient vanishes. Divided by √d, the rows keep about the same "
              "shape at every width (section 6 measures the spread behind this).",
        "zh": "不缩放时，随着 d 增大，权重趋向独热（熵趋向 0，均匀的一行是 {uniform} 奈特）：softmax 饱和，梯度消失。"
              "除以 √d 之后，各个宽度下每一行的形状大致相同（第 6 节测量了背后的分散程度）。"},
    "ba_mis_additive_common": {
        "en": "additive attention is called additive because it concatenates the two states, [s; h].",
        "zh": "加性注意力之所以叫“加性”，是因为它把两个状态拼接起来，[s; h]。"},
    "ba_mis_additive_shown": {
        "en": "a matrix applied to the concatenation [q; k] is the **sum** W₁q + W₂k, and that sum is the name. Then "
              "tanh and v turn it into one number: a small network with one hidden layer per (query, key) pair. Its "
              "score can never exceed Σ|vᵢ| = {bound} whatever q and k are (here the scores run from {lo} to {hi}); a "
              "dot product has no such bound (here {dlo} to {dhi}).",
        "zh": "对拼接向量 [q; k] 乘一个矩阵，结果就是**和** W₁q + W₂k，“加性”指的就是这个和。之后 tanh 和 v 再把它变成一个数："
              "每一对（查询，键）上都是一个只有一个隐藏层的小网络。不管 q 和 k 是什么，它的分数都不会超过 Σ|vᵢ| = {bound}"
              "（这里的分数从 {lo} 到 {hi}）；点积没有这样的上界（这里从 {dlo} 到 {dhi}）。"},
    # ---- 2. attention without parameters
    "ba_raw": {"en": "#### Self-attention without weights: softmax(X Xᵀ) X",
               "zh": "#### 不带权重的自注意力：softmax(X Xᵀ) X"},
    "ba_raw_text": {
        "en": "The simplest self-attention has no W_Q, W_K or W_V: each token's vector x is its own query, key and "
              "value. Here X is what the first block of this model reads (the token embeddings, with the position "
              "vectors and the embedding norm where the model has them), {n} tokens of width {d}, under the model's "
              "own mask. Beside it, the pattern of layer {layer}, head {head}, which the learned projections make.",
        "zh": "最简单的自注意力没有 W_Q、W_K 和 W_V：每个词元的向量 x 同时充当自己的查询、键和值。这里的 X 是这个模型第一个块"
              "读入的内容（词元嵌入，模型有位置向量和嵌入归一化时也包含在内），共 {n} 个词元、宽度 {d}，使用模型自己的掩码。"
              "旁边是第 {layer} 层第 {head} 个头的模式，由学到的投影产生。"},
    "ba_raw_chart": {"en": "softmax(X Xᵀ), no weights", "zh": "softmax(X Xᵀ)，无权重"},
    "ba_model_chart": {"en": "The model: layer {layer}, head {head}", "zh": "模型：第 {layer} 层第 {head} 个头"},
    "ba_raw_facts": {
        "en": "Before the softmax the scores are symmetric, xᵢ·xⱼ = xⱼ·xᵢ (largest |S − Sᵀ| here: {asym}). A token's score "
              "with itself is |xᵢ|², and xᵢ·xⱼ can beat it only when xⱼ is longer and points almost the same way "
              "(Cauchy–Schwarz), so the diagonal usually wins: here **{self_top}** of the tokens give their largest "
              "weight to themselves, with {diag} of their weight on average (a uniform row would give {uniform}). "
              "The learned head gives itself {model_diag} on average: W_Q and W_K let a token look elsewhere.",
        "zh": "在 softmax 之前，分数是对称的，xᵢ·xⱼ = xⱼ·xᵢ（这里 |S − Sᵀ| 的最大值为 {asym}）。一个词元与自己的分数是 |xᵢ|²，"
              "只有当 xⱼ 更长、方向又几乎相同时，xᵢ·xⱼ 才可能更大（柯西–施瓦茨不等式），所以通常对角线胜出：这里 **{self_top}** "
              "的词元把最大的权重给了自己，平均给自己 {diag} 的权重（均匀分布时为 {uniform}）。学到的头平均只给自己 {model_diag}："
              "W_Q 和 W_K 让词元能去看别处。"},
    "ba_raw_cross": {
        "en": "Attention without weights compares a sequence with itself; choose the encoder or the decoder above to see it.",
        "zh": "不带权重的注意力是把一个序列与它自己比较；请在上方选择编码器或解码器来查看。"},
    # ---- 3. the fixed-length context vector
    "ba_gru": {"en": "#### One vector for the whole input, or every input position",
               "zh": "#### 整个输入只有一个向量，还是每个输入位置都可访问"},
    "ba_gru_text": {
        "en": "A GRU encoder–decoder without attention reads the input and hands the decoder one vector: the encoder's "
              "last hidden state, {hidden} numbers, whatever the length. A Transformer decoder reads every earlier "
              "position directly. Both were trained on the same copy task (write the input again after \"=\"), on "
              "inputs of 2 to {max_len} symbols from ten letters, with a fixed seed (`{command}`): the GRU has "
              "{gru_params} parameters, the Transformer {tf_params}. Below, both are run now on the same {n} fresh "
              "examples per length.",
        "zh": "没有注意力的 GRU 编码器–解码器读完输入后只交给解码器一个向量：编码器最后的隐藏状态，{hidden} 个数，不论输入多长。"
              "Transformer 解码器则直接读取前面的每一个位置。两者在同一个复制任务（在“=”之后把输入再写一遍）上训练，"
              "输入是由十个字母组成的 2 到 {max_len} 个符号，随机种子固定（`{command}`）：GRU 有 {gru_params} 个参数，"
              "Transformer 有 {tf_params} 个。下面两者现在在同一批样本上运行，每个长度 {n} 个新样本。"},
    "ba_gru_name": {"en": "GRU encoder–decoder (one context vector)", "zh": "GRU 编码器–解码器（一个上下文向量）"},
    "ba_tf_name": {"en": "Transformer (attention to every position)", "zh": "Transformer（注意每个位置）"},
    "ba_gru_chart": {"en": "Copy task: exact-sequence accuracy per input length",
                     "zh": "复制任务：每个输入长度的整句准确率"},
    "ba_gru_y": {"en": "exact-sequence accuracy", "zh": "整句准确率"},
    "ba_gru_x": {"en": "{n} symbols", "zh": "{n} 个符号"},
    "ba_gru_facts": {
        "en": "At {short} symbols the GRU copies {g_short} of the inputs exactly, at {long} symbols {g_long}; the "
              "Transformer {t_short} and {t_long}. The input has log₂(10) ≈ 3.3 bits per symbol, {bits} bits at {long} "
              "symbols, all of which must pass through the {hidden} numbers of the context vector; attention reads "
              "each symbol where it is.",
        "zh": "输入为 {short} 个符号时，GRU 能把 {g_short} 的输入一字不差地复制出来，{long} 个符号时只有 {g_long}；"
              "Transformer 分别是 {t_short} 和 {t_long}。每个符号有 log₂(10) ≈ 3.3 比特，{long} 个符号共 {bits} 比特，"
              "全都要挤过上下文向量的 {hidden} 个数；注意力则在每个符号原来的位置上读取它。"},
    "ba_gru_caption": {
        "en": "Accuracy under teacher forcing (the true answer so far as input), which equals greedy decoding's: when "
              "each next symbol is right given a right prefix, greedy decoding writes exactly that answer. Examples: "
              "seed {seed}, the task's own sampler. This GRU is one small model with one training budget; a larger "
              "one holds longer inputs, but the single vector stays a fixed size while the input grows.",
        "zh": "准确率在教师强制（teacher forcing）下计算（输入是到目前为止的正确答案），与贪心解码相同：只要在正确前缀下每个下一个符号都对，"
              "贪心解码写出的就正是这个答案。样本：种子 {seed}，任务自己的采样器。这个 GRU 只是一个小模型、一种训练预算；"
              "更大的模型能记住更长的输入，但无论输入多长，那一个向量的大小不变。"},
    "ba_gru_missing": {
        "en": "The two copy models are not installed (models/weights/checkpoints/before-attention/); `{command}` trains them "
              "in about two minutes on a CPU.",
        "zh": "两个复制任务模型没有安装（models/weights/checkpoints/before-attention/）；`{command}` 在 CPU 上大约两分钟即可训练好。"},
    # ---- 4. the cost table
    "ba_cost": {"en": "#### What a layer costs: Vaswani et al. (2017), Table 1, for this text",
                "zh": "#### 一层的代价：Vaswani 等人（2017）表 1，代入这段文本"},
    "ba_cost_text": {
        "en": "n = {n} tokens (this text), d = {d} (this model's width), convolution kernel k = {k}, restricted "
              "self-attention over r = {r} neighbours. \"Sequential operations\": steps that must wait for the one "
              "before; \"path length\": the most layers a signal needs to go from one position to any other.",
        "zh": "n = {n} 个词元（这段文本），d = {d}（这个模型的宽度），卷积核 k = {k}，受限自注意力只看 r = {r} 个邻居。"
              "“顺序操作数”：必须等上一步完成才能进行的步数；“最大路径长度”：信号从一个位置传到任意另一个位置最多要经过的层数。"},
    "ba_cost_col_layer": {"en": "layer type", "zh": "层的类型"},
    "ba_cost_col_complexity": {"en": "cost per layer", "zh": "每层计算量"},
    "ba_cost_col_sequential": {"en": "sequential operations", "zh": "顺序操作数"},
    "ba_cost_col_path": {"en": "maximum path length", "zh": "最大路径长度"},
    "ba_cost_col_ops": {"en": "cost here", "zh": "此处的计算量"},
    "ba_cost_col_steps": {"en": "steps here", "zh": "此处的顺序步数"},
    "ba_cost_col_hops": {"en": "path here", "zh": "此处的路径长度"},
    "ba_layer_self_attention": {"en": "self-attention", "zh": "自注意力"},
    "ba_layer_recurrent": {"en": "recurrent", "zh": "循环层"},
    "ba_layer_convolutional": {"en": "convolutional (dilated)", "zh": "卷积层（空洞）"},
    "ba_layer_restricted": {"en": "self-attention (restricted)", "zh": "自注意力（受限）"},
    "ba_cost_compare": {
        "en": "Here self-attention's n²·d = {sa} against recurrence's n·d² = {rnn}: self-attention is the cheaper "
              "layer while n < d, and {which} for this text (n = {n}, d = {d}). Its real advantage is the other two "
              "columns: 1 sequential step instead of {n}, and a path of 1 layer instead of {n}.",
        "zh": "这里自注意力的 n²·d = {sa}，循环层的 n·d² = {rnn}：只要 n < d，自注意力这一层就更省；对这段文本（n = {n}，"
              "d = {d}）{which}。它真正的优势在另外两列：顺序步数是 1 而不是 {n}，路径长度是 1 层而不是 {n} 层。"},
    "ba_cheaper": {"en": "it is cheaper", "zh": "它更省"},
    "ba_dearer": {"en": "it is the dearer one", "zh": "它反而更贵"},
    "ba_mis_rnn_common": {
        "en": "the Transformer's encoder (and decoder) can be pictured as an RNN.",
        "zh": "可以把 Transformer 的编码器（以及解码器）想象成 RNN。"},
    "ba_mis_rnn_shown": {
        "en": "a Transformer layer has no recurrence: it computes all n = {n} positions at once (1 sequential step, "
              "where an RNN needs {n}) and any position reaches any other in one layer. Only a decoder *generating* "
              "text goes one token at a time, and even then each step reads every earlier position directly, not "
              "through one carried state (the GRU above shows what one state costs).",
        "zh": "Transformer 的层里没有循环：它同时计算全部 n = {n} 个位置（顺序步数为 1，RNN 则需要 {n} 步），任何位置都能在一层之内"
              "到达任何其他位置。只有解码器在*生成*文本时才一个词元一个词元地进行，即便如此，每一步也是直接读取前面的每一个位置，"
              "而不是通过一个传递下来的状态（上面的 GRU 显示了只有一个状态的代价）。"},
}

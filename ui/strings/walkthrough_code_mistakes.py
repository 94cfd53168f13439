"""Strings of the walk-through's section 8, common code mistakes (ui/views/walkthrough_code_mistakes.py)."""

STRINGS = {
    "cm_title": {"en": "8. Common code mistakes", "zh": "8. 常见的代码错误"},
    "cm_intro": {
        "en": "Seven mistakes that tutorials (and the course notes) make when they write attention by hand. Each is "
              "written below as a small function of our own and run on layer {layer}'s own queries, keys and values, "
              "every head and every token, then compared with what the model's layer really outputs. The right code "
              "comes first: it matches the model, so each row's difference is the mistake's alone. None of them "
              "raises an error: the shapes are right, only the numbers are wrong.",
        "zh": "教程（以及课程笔记）手写注意力代码时常犯的七个错误。下面把每个错误写成我们自己的小函数，在第 {layer} 层自己的"
              "查询、键和值上运行（所有头、所有词元），再与模型这一层的真实输出比较。第一行是正确的代码：它与模型一致，"
              "所以每一行的差异都只来自那一个错误。这些错误都不会报错：形状全对，只是数字错了。"},
    "cm_col_code": {"en": "Code", "zh": "代码"},
    "cm_col_max": {"en": "largest |Δ| from the model", "zh": "与模型的最大 |Δ|"},
    "cm_col_rel": {"en": "‖Δ‖ / ‖output‖", "zh": "‖Δ‖ / ‖输出‖"},
    "cm_col_sum": {"en": "weights' sum (last token, head 0)", "zh": "权重之和（最后一个词元，第 0 个头）"},
    "cm_name_right": {"en": "the right code", "zh": "正确的代码"},
    "cm_name_scale_after_softmax": {"en": "dividing by √d_k after the softmax", "zh": "在 softmax 之后才除以 √d_k"},
    "cm_name_split_without_transpose": {"en": "splitting into heads without the transpose",
                                        "zh": "拆分成多个头时漏了转置"},
    "cm_name_mask_inverted": {"en": "the causal triangle the wrong way round", "zh": "因果掩码的三角方向反了"},
    "cm_name_mask_fill_dropped": {"en": "a `masked_fill` whose result is dropped",
                                  "zh": "`masked_fill` 的结果没有赋值回去"},
    "cm_name_sqrt_d_model": {"en": "dividing by √d_model instead of √d_k", "zh": "除以 √d_model 而不是 √d_k"},
    "cm_name_head_width_split_twice": {"en": "dividing the head width by the head count twice",
                                       "zh": "把头的宽度再除一次头数"},
    "cm_table_caption": {
        "en": "Layer {layer}, every head and token. The right code differs from the model by {right} at most: float "
              "rounding (the model computes in float32, this page in float64).",
        "zh": "第 {layer} 层，所有头和词元。正确的代码与模型最多相差 {right}：这是浮点舍入误差（模型用 float32 计算，本页用 float64）。"},
    "cm_wrong": {"en": "Wrong:", "zh": "错误写法："},
    "cm_right": {"en": "Right:", "zh": "正确写法："},
    "cm_does_scale_after_softmax": {
        "en": "The softmax has already turned the scores into weights. Dividing the weights by √d_k afterwards "
              "shrinks every one of them (the last token's now add up to {sum}, not 1) and leaves the scores as large "
              "as without any scaling, so the weights are just as peaked.",
        "zh": "softmax 已经把分数变成了权重。之后再把权重除以 √d_k，只会让每个权重都变小（最后一个词元的权重之和变成 {sum}，"
              "而不是 1），分数本身却和完全不缩放时一样大，所以权重仍然一样尖锐。"},
    "cm_does_split_without_transpose": {
        "en": "The projection writes each token's heads side by side, `[n, heads, d_k]` in memory. Viewing that memory as "
              "`[heads, n, d_k]` without the transpose hands each \"head\" pieces of several tokens, so tokens and heads "
              "are mixed. The shapes are right, nothing fails; the output is wrong.",
        "zh": "投影把每个词元的各个头并排写在一起，内存中的形状是 `[n, heads, d_k]`。不转置就把这块内存看成 "
              "`[heads, n, d_k]`，每个“头”拿到的是好几个词元的碎片，词元和头被混在一起。形状是对的，程序不会报错，输出却是错的。"},
    "cm_does_mask_inverted": {
        "en": "With the upper triangle (`triu`) as \"may attend\", each token sees itself and the tokens after it, not "
              "the ones before: a decoder reads the very words it is trained to predict.",
        "zh": "把上三角（`triu`）当作“可以关注”，每个词元看到的是它自己和它后面的词元，而不是前面的：解码器直接读到了它本该预测的词。"},
    "cm_does_mask_fill_dropped": {
        "en": "`masked_fill` returns a new tensor and leaves the scores as they were; without the assignment nothing is "
              "masked.",
        "zh": "`masked_fill` 返回一个新张量，原来的分数不变；没有把结果赋值回去，就什么也没有被掩码。"},
    "cm_mask_here_causal": {"en": " In this decoder layer that changes the output by up to {diff}.",
                            "zh": "在这个解码器层中，这让输出最多改变了 {diff}。"},
    "cm_mask_here_full": {
        "en": " This model's mask lets every token see every token, so here the mistake changes nothing ({diff}); in a "
              "decoder ({decoder} in the sidebar) every token would see the future.",
        "zh": "这个模型的掩码让每个词元都能看到所有词元，所以在这里这个错误没有任何影响（{diff}）；换成解码器（在侧边栏选择 "
              "{decoder}），每个词元都会看到未来的词元。"},
    "cm_does_sqrt_d_model": {
        "en": "A score is a sum over the d_k = {dk} numbers of one head, so its spread grows with √d_k; d_model = {d} "
              "is the width of the whole stream. Dividing by √d_model makes the scores {small}× too small, and the "
              "weights come out flatter than the model's.",
        "zh": "分数是一个头的 d_k = {dk} 个数相乘后求和，它的波动随 √d_k 增大；d_model = {d} 是整个残差流的宽度。除以 "
              "√d_model 让分数小了 {small} 倍，得到的权重比模型的更平。"},
    "cm_does_head_width_split_twice": {
        "en": "After the split, `k.size(-1)` already is d_k = {dk}. Dividing it by the {h} heads again gives {split}, so "
              "the scores are divided by √{split} instead of √{dk}: {large}× too large, and the weights too peaked.",
        "zh": "拆分之后，`k.size(-1)` 已经是 d_k = {dk}。再除以 {h} 个头得到 {split}，于是分数除以的是 √{split} 而不是 "
              "√{dk}：大了 {large} 倍，权重过于尖锐。"},
    "cm_name_scale_never_applied": {"en": "a scale that is computed but never applied",
                                    "zh": "算出了缩放系数却没有用上"},
    "cm_does_scale_never_applied": {
        "en": "The factor 1/√d_k is computed and kept, but the line that makes the scores never multiplies by it, so "
              "the scores are √d_k = {root}× too large and the weights far more peaked than the model's. Nothing "
              "fails: the unused attribute is the only trace.",
        "zh": "代码算出并保存了缩放系数 1/√d_k，但计算分数的那一行从没乘上它，于是分数大了 √d_k = {root} 倍，权重比模型的尖锐"
              "得多。程序不会报错：唯一的痕迹是那个没用到的属性。"},
    "cm_loud": {
        "en": "The notes' code has more mistakes that fail at once instead of giving wrong numbers, so they need no "
              "table: `np` used but never imported and `if attn_mask:` on a tensor (an error as soon as it runs); "
              "`np.pow` and torch tensors mixed with numpy arrays in one `cat`; the two `Conv1d` of the position-wise "
              "network given their channel counts the wrong way round (a shape error); `ffn_dim=2018` for 2048 and "
              "the mask function passed where its result was meant; one attention module used for both "
              "self-attention and cross-attention (it runs, but ties the two sets of weights, which the Transformer "
              "keeps apart); `super().__init__()` called after `self.dropout` is assigned; `.append` on a set; and calls of MXNet's API "
              "written into PyTorch code.",
        "zh": "课程笔记的代码里还有一些错误会直接报错，而不是悄悄给出错误的数字，所以不需要放进表格：用了 `np` 却没有导入，"
              "以及对张量写 `if attn_mask:`（一运行就报错）；`np.pow`，以及把 PyTorch 张量和 NumPy 数组混在同一个 `cat` 里；"
              "逐位置前馈网络的两个 `Conv1d` 把通道数写反了（形状错误）；把 2048 写成 `ffn_dim=2018`，以及把掩码函数本身当作"
              "它的结果传进去；自注意力和交叉注意力共用同一个注意力模块（能运行，但两套权重被绑在了一起，而 Transformer 让"
              "它们各自独立）；在给 `self.dropout` 赋值之后才调用 `super().__init__()`；对集合调用 `.append`；以及把 MXNet 的接口调用写进 "
              "PyTorch 代码里。"},
    "cm_models": {"en": "{a} or {b}", "zh": "{a}或{b}"},
    "cm_unsupported_cross": {
        "en": "This section rewrites self-attention; pick the decoder's self-attention or the encoder above.",
        "zh": "本部分重写的是自注意力；请在上方选择编码器或解码器的自注意力。"},
    "cm_unsupported_bias": {
        "en": "This model adds a position bias to its scores (ALiBi or T5's buckets), which the short functions here "
              "leave out: pick a model with learned, sinusoidal or RoPE positions ({models}).",
        "zh": "这个模型在分数上加了位置偏置（ALiBi 或 T5 相对位置分桶），这里的简短函数没有包含它：请选择使用可学习、正弦或 RoPE "
              "位置编码的模型（{models}）。"},
    "cm_unsupported_scores": {
        "en": "This model soft-caps its scores or divides them by a temperature, which the short functions here leave "
              "out: pick {models}.",
        "zh": "这个模型对分数做了软上限截断或除以温度，这里的简短函数没有包含它：请选择 {models}。"},
    "cm_unsupported_output": {
        "en": "This model passes the attention's output through a norm or a multiplier before the residual stream, "
              "which the short functions here leave out: pick {models}.",
        "zh": "这个模型在把注意力输出加回残差流之前还经过了归一化或乘数，这里的简短函数没有包含它：请选择 {models}。"},
}

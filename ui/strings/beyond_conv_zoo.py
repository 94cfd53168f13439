"""Strings of the Beyond page's convolution section (ui/views/beyond_conv_zoo.py)."""

STRINGS = {
    "bx_sec_conv": {"en": "Convolutions", "zh": "卷积"},
    "cz_intro": {
        "en": "A convolution mixes each token with a fixed window of neighbours, with weights that do not depend on the "
              "text; attention mixes it with every token, with weights computed from the text. Below, every common kind "
              "of 1-D convolution built with PyTorch at this model's width (d = {d}) and run on the sidebar's {n} token "
              "vectors (the input of the first block). The weights are random (seeded), not trained: the counts, the "
              "lengths and which tokens reach an output do not depend on them.",
        "zh": "卷积把每个词元和固定窗口内的邻居混合，权重与文本无关；注意力把它和所有词元混合，权重由文本算出。下面用 PyTorch 按本模型的宽度"
              "（d = {d}）构建常见的各种一维卷积，并在侧边栏文本的 {n} 个词元向量（第一个块的输入）上运行。权重是随机的（固定种子），没有训练过："
              "参数量、长度以及哪些词元能影响一个输出，都与权重无关。"},
    "cz_kernel": {"en": "Kernel size k", "zh": "卷积核大小 k"},
    "cz_dilation": {"en": "Dilation", "zh": "空洞率"},
    "cz_groups": {"en": "Groups", "zh": "分组数"},
    "cz_layers": {"en": "Layers stacked", "zh": "堆叠层数"},
    "cz_kind_standard": {"en": "standard", "zh": "标准卷积"},
    "cz_kind_dilated": {"en": "dilated", "zh": "空洞卷积"},
    "cz_kind_grouped": {"en": "grouped", "zh": "分组卷积"},
    "cz_kind_depthwise": {"en": "depthwise", "zh": "逐通道卷积"},
    "cz_kind_separable": {"en": "depthwise-separable", "zh": "深度可分离卷积"},
    "cz_kind_transposed": {"en": "transposed (stride 2)", "zh": "转置卷积（步长 2）"},
    "cz_kind_involution": {"en": "involution (kernel made from the input)", "zh": "内卷（卷积核由输入生成）"},
    "cz_col_kind": {"en": "convolution", "zh": "卷积"},
    "cz_col_params": {"en": "parameters (counted)", "zh": "参数量（实数）"},
    "cz_col_formula": {"en": "formula", "zh": "公式"},
    "cz_col_len": {"en": "output length", "zh": "输出长度"},
    "cz_col_reach": {"en": "span reaching the middle output (formula)", "zh": "影响中间输出的跨度（公式）"},
    "cz_col_measured": {"en": "measured: tokens (first–last)", "zh": "实测：词元数（首–尾）"},
    "cz_na": {"en": "— (it makes positions)", "zh": "—（它生成位置）"},
    "cz_table_caption": {
        "en": "Counted: the parameters of the PyTorch module; formula: C·C·k + C for a standard convolution, C·(C/g)·k + C "
              "grouped, C·k + C depthwise, and a depthwise plus a 1 × 1 convolution for the separable one; involution "
              "has only the small network C → C/4 → k·G that makes a kernel at every position from that position's "
              "vector, so its weights, like attention's, depend on the text. Reach: which "
              "input tokens change the output at token {mid} after {layers} layers, found with autograd (a gradient "
              "that is not zero), against the span 1 + L·(k − 1)·dilation; a dilated stack skips tokens inside its span, "
              "and near the text's edges the padding cuts it. "
              "Attention reaches all {n} tokens in one layer.",
        "zh": "实数：PyTorch 模块的参数个数；公式：标准卷积 C·C·k + C，分组卷积 C·(C/g)·k + C，逐通道卷积 C·k + C，深度可分离卷积是逐通道卷积加一个 "
              "1 × 1 卷积；内卷只有一个小网络 C → C/4 → k·G，在每个位置由该位置的向量生成卷积核，所以它的权重和注意力一样取决于文本。影响范围：堆叠 {layers} 层后，哪些输入词元会改变第 {mid} 个词元的输出，用自动求导找出（梯度不为零），"
              "与跨度 1 + L·(k − 1)·空洞率 对比；空洞卷积的堆叠会跳过跨度内的一些词元，在文本两端跨度会被填充截断。注意力一层就能看到全部 {n} 个词元。"},
    "cz_lsra_title": {"en": "Lite Transformer: half attention, half convolution", "zh": "Lite Transformer：一半注意力，一半卷积"},
    "cz_lsra_intro": {
        "en": "Lite Transformer's long-short range attention (LSRA) splits the d = {d} channels in two: one half goes "
              "through attention, which reaches every token (the long range), the other through a depthwise convolution "
              "of width {k} and a pointwise mix, which reaches its neighbours (the short range). Counted with "
              "`torch.nn.MultiheadAttention` and `Conv1d` modules, on this text's {n} tokens:",
        "zh": "Lite Transformer 的长短程注意力（LSRA）把 d = {d} 个通道分成两半：一半经过注意力，看到所有词元（长程）；另一半经过宽度为 {k} "
              "的逐通道卷积和一次逐点混合，只看到邻居（短程）。用 `torch.nn.MultiheadAttention` 和 `Conv1d` 模块计数，在这段文本的 {n} 个词元上："},
    "cz_lsra_col_what": {"en": "layer", "zh": "层"},
    "cz_lsra_col_params": {"en": "parameters", "zh": "参数量"},
    "cz_lsra_col_macs": {"en": "multiply-adds on the text", "zh": "在文本上的乘加次数"},
    "cz_lsra_col_reach": {"en": "tokens one output sees", "zh": "一个输出看到的词元数"},
    "cz_lsra_attn": {"en": "attention on all d channels", "zh": "注意力，全部 d 个通道"},
    "cz_lsra_half_attn": {"en": "LSRA: attention on d/2", "zh": "LSRA：注意力，d/2 个通道"},
    "cz_lsra_half_conv": {"en": "LSRA: convolution on d/2", "zh": "LSRA：卷积，d/2 个通道"},
    "cz_lsra_total": {"en": "LSRA in all", "zh": "LSRA 合计"},
    "cz_lsra_caption": {
        "en": "LSRA keeps {p:.0%} of the attention layer's parameters and {m:.0%} of its multiply-adds on this text, "
              "and still has a branch that sees every token; its paper's argument is that the convolution takes the "
              "local patterns off attention's hands, so that the attention half can spend itself on the long range.",
        "zh": "LSRA 保留了注意力层 {p:.0%} 的参数量和这段文本上 {m:.0%} 的乘加次数，并且仍有一支能看到所有词元；论文的论点是，卷积接手了局部模式，"
              "注意力那一半就可以专注于长程关系。"},
    "cz_mis_common": {
        "en": "A convolution sees only its kernel's width, so it cannot relate far-apart tokens.",
        "zh": "卷积只能看到卷积核那么宽，所以无法联系相距很远的词元。"},
    "cz_mis_shown": {
        "en": "One layer sees k tokens, but stacking widens the view: after {layers} layers the dilated convolution "
              "spans {reach} tokens of this text, and the span grows with the dilation and the depth; what attention adds is reaching "
              "every token in one layer, with weights chosen by the text.",
        "zh": "一层只能看到 k 个词元，但堆叠会扩大视野：{layers} 层之后，空洞卷积在这段文本上的跨度是 {reach} 个词元，而且随空洞率和层数增大；"
              "注意力多出来的是一层就看到所有词元，而且权重由文本决定。"},
}

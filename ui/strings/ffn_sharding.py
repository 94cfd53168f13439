"""Strings of the FFN page's sharding view (ui/views/ffn_sharding.py)."""

STRINGS = {
    "ffn_view_sharding": {"en": "Split across devices", "zh": "拆到多个设备"},
    "fs_intro": {
        "en": "A model too large for one accelerator splits each FFN across k devices (tensor parallelism, as in "
              "Megatron-LM). Device i keeps a block of d_ff/k columns of W_in (and of W_gate in a gated FFN) and the "
              "same block of rows of W_out. The activation works on every hidden unit alone, so each device finishes "
              "its partial output without waiting for the others; one sum at the end (an all-reduce) gives the FFN's "
              "output. Below: this model's FFN of layer {layer}, split that way, run on the sidebar's text (σ in the formula "
              "is its activation, {act}; a gated FFN multiplies σ(x W_gate) by x W_in, both cut the same way).",
        "zh": "一个加速器放不下的模型，会把每个 FFN 拆到 k 个设备上（张量并行，如 Megatron-LM）。设备 i 保存 W_in 的一块 d_ff/k 列"
              "（门控 FFN 的 W_gate 也一样）和 W_out 中对应的那几行。激活函数对每个隐藏单元单独计算，所以每个设备不必等其他设备就能算完"
              "自己的部分输出；最后做一次求和（all-reduce）就得到 FFN 的输出。下面：把本模型第 {layer} 层的 FFN 这样拆开，"
              "在侧边栏的文本上运行（公式中的 σ 是它的激活函数 {act}；门控 FFN 把 σ(x W_gate) 与 x W_in 相乘，两者按同样的方式切分）。"},
    "fs_devices": {"en": "Devices k", "zh": "设备数 k"},
    "fs_devices_help": {"en": "How many parts d_ff is cut into (nearly equal blocks of hidden units).",
                        "zh": "把 d_ff 切成几份（隐藏单元数几乎相等的若干块）。"},
    "fs_metric_rel": {"en": "Sum of the parts vs the FFN (relative difference)", "zh": "各部分之和与 FFN 输出的相对差"},
    "fs_metric_abs": {"en": "Largest difference in one number", "zh": "单个数值的最大差"},
    "fs_metric_wrong": {"en": "Cut along d instead (relative difference)", "zh": "改为沿 d 切分（相对差）"},
    "fs_rel_caption": {
        "en": "‖Σᵢ yᵢ + b_out − FFN(x)‖ / ‖FFN(x)‖ over the {n} tokens: float32 rounding only, the order of the additions "
              "differs. The third number cuts W_in along d_model instead and lets every device apply {act} to its "
              "partial pre-activation before the sum: {act} of a sum is not the sum of {act}, so that split needs the sum "
              "first (one more exchange between the devices) and gives the wrong output without it.",
        "zh": "在 {n} 个词元上计算 ‖Σᵢ yᵢ + b_out − FFN(x)‖ / ‖FFN(x)‖：只有 float32 的舍入误差，因为加法的顺序不同。第三个数改为沿 "
              "d_model 切分 W_in，并让每个设备先对自己那部分预激活做 {act} 再求和：和的 {act} 不等于 {act} 的和，所以这种切法必须先求和"
              "（设备之间多交换一次），否则输出就是错的。"},
    "fs_col_device": {"en": "device", "zh": "设备"},
    "fs_col_units": {"en": "hidden units", "zh": "隐藏单元"},
    "fs_col_params": {"en": "parameters", "zh": "参数"},
    "fs_col_bytes": {"en": "parameter memory", "zh": "参数内存"},
    "fs_col_hidden": {"en": "activations (n × units)", "zh": "激活值（n × 单元数）"},
    "fs_col_norm": {"en": "‖yᵢ‖ partial output", "zh": "部分输出 ‖yᵢ‖"},
    "fs_row_whole": {"en": "one device (no split)", "zh": "单个设备（不拆）"},
    "fs_table_caption": {
        "en": "Each device holds {share:.1%} of this FFN's {full:,} parameters ({bytes} each at {per} bytes a "
              "parameter; b_out sits on device 0) and makes {hshare:.1%} of its activations. What the split costs: every "
              "device sends its partial output, n × d_model = {reduce:,} numbers, into the sum. The partial outputs are "
              "vectors, so their norms do not add up to the FFN output's norm {full_norm:.4g}.",
        "zh": "每个设备保存这个 FFN 共 {full:,} 个参数中的 {share:.1%}（每个参数 {per} 字节，每个设备 {bytes}；b_out 放在设备 0 上），"
              "并产生 {hshare:.1%} 的激活值。拆分的代价：每个设备要把自己的部分输出，即 n × d_model = {reduce:,} 个数，送去求和。"
              "部分输出是向量，所以它们的范数相加并不等于 FFN 输出的范数 {full_norm:.4g}。"},
    "fs_mis_common": {
        "en": "Splitting a layer across devices changes what it computes, or needs the devices to exchange their "
              "hidden activations.",
        "zh": "把一层拆到多个设备上，会改变它算出的结果，或者需要设备之间交换隐藏层激活。"},
    "fs_mis_shown": {
        "en": "Cut along d_ff, the {k} partial outputs add up to the model's own FFN output to within {rel} (relative); "
              "no hidden activation leaves its device, only the final sum is exchanged. Cut along d_model with the "
              "activation applied before the sum, the output is off by {wrong}.",
        "zh": "沿 d_ff 切分时，{k} 个部分输出之和与模型自己的 FFN 输出相差不超过 {rel}（相对）；隐藏层激活不离开自己的设备，"
              "只有最后的和需要交换。沿 d_model 切分并在求和之前做激活时，输出相差 {wrong}。"},
}

FORMULAS = {
    "fs_split": r"\mathrm{FFN}(x) = \sum_{i=1}^{k} \underbrace{\sigma\big(x\,W_{\mathrm{in}}^{[:,\,s_i]} + "
                r"b_{\mathrm{in}}^{[s_i]}\big)\,W_{\mathrm{out}}^{[s_i,\,:]}}_{y_i\ \text{on device } i} + b_{\mathrm{out}}",
}
FORMULAS["fs_split_zh"] = FORMULAS["fs_split"].replace(r"\text{on device } i", r"\text{在设备 } i \text{ 上}")

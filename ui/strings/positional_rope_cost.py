"""Strings of the positional lab's "RoPE's cost" section (ui/views/positional_rope_cost.py)."""

STRINGS = {
    "pe_sec_cost": {"en": "RoPE's cost", "zh": "RoPE 的开销"},
    "rc_intro": {
        "en": "What the position information costs in one forward pass, timed now on this machine at the sidebar's "
              "model's shape ({model}: {layers} layers, {heads} query heads and {kv} key heads of {d_head} dimensions, "
              "d_model = {d}) and the length of the sidebar's text ({n} tokens). RoPE turns the queries and the keys in "
              "every layer; an additive table (sinusoidal or learned) is added once before the first layer; without "
              "positions (NoPE) there is nothing to do. Each part runs alone with the model's own functions, on random "
              "numbers of the right shapes (the time of these operations does not depend on the values); the model's "
              "whole forward pass on the text is timed the same way to compare. This model itself uses: {own}.",
        "zh": "位置信息在一次前向计算中的开销，现在就在这台机器上计时：用侧边栏模型的形状（{model}：{layers} 层，{heads} 个查询头和 "
              "{kv} 个键/值头，每头 {d_head} 维，d_model = {d}）和侧边栏文本的长度（{n} 个词元）。RoPE 在每一层旋转查询和键；"
              "加性位置表（正弦或可学习）只在第一层之前加一次；没有位置编码（NoPE）就什么都不用做。每一部分都用模型自己的函数单独运行，"
              "输入是形状正确的随机数（这些运算的耗时与数值无关）；模型在这段文本上完整的前向计算也用同样的方法计时，用来对比。"
              "这个模型本身用的是：{own}。"},
    "rc_repeats": {"en": "Repeats (the median is shown)", "zh": "重复次数（显示中位数）"},
    "rc_again": {"en": "Measure again", "zh": "重新测量"},
    "rc_scheme_rope": {"en": "RoPE (every layer)", "zh": "RoPE（每一层）"},
    "rc_scheme_table": {"en": "table (once)", "zh": "位置表（一次）"},
    "rc_scheme_none": {"en": "none (NoPE)", "zh": "无（NoPE）"},
    "rc_scheme_forward": {"en": "the whole forward pass", "zh": "完整的前向计算"},
    "rc_col_scheme": {"en": "positions", "zh": "位置信息"},
    "rc_col_ops": {"en": "elementwise operations", "zh": "逐元素运算数"},
    "rc_col_time": {"en": "median time", "zh": "时间中位数"},
    "rc_col_share": {"en": "÷ forward pass", "zh": "÷ 前向计算"},
    "rc_chart_title": {"en": "Median time of the position work per forward pass (µs)",
                       "zh": "每次前向计算中位置计算的时间中位数（微秒）"},
    "rc_chart_y": {"en": "µs", "zh": "微秒"},
    "rc_metric_ratio": {"en": "RoPE ÷ table, measured", "zh": "RoPE ÷ 位置表（实测）"},
    "rc_metric_ops": {"en": "RoPE ÷ table, counted operations", "zh": "RoPE ÷ 位置表（运算数）"},
    "rc_metric_share": {"en": "RoPE ÷ the forward pass", "zh": "RoPE ÷ 前向计算"},
    "rc_caption": {
        "en": "Medians of {repeats} runs after two warm-up runs, measured just now on {device}; press *Measure again* "
              "to see how much they move (other work on the machine shows up here). Counting: RoPE does 3 operations "
              "per turned number in each of the {layers} layers plus the cos and sin once; the table does one "
              "addition per number of the token vectors, its values computed when the model was loaded.",
        "zh": "两次预热之后 {repeats} 次运行的中位数，刚刚在 {device} 上测得；点击“重新测量”可以看到它们波动多大（机器上的其他工作也会反映在这里）。"
              "运算计数：RoPE 在 {layers} 层中的每一层对每个被旋转的数做 3 次运算，外加一次算 cos 和 sin；位置表对词元向量的每个数做一次加法，"
              "它的值在加载模型时就已算好。"},
    "rc_mis_common": {
        "en": "RoPE slows training and inference down, because it rotates the vectors again in every layer.",
        "zh": "RoPE 因为在每一层都要再旋转一次向量，所以会拖慢训练和推理。"},
    "rc_mis_shown": {
        "en": "It is more work than adding a table: {ops:.0f}× the operations, {ratio:.1f}× the time measured here. But it "
              "is elementwise work beside the matrix products: {share:.1%} of this model's forward pass on this text. "
              "Its price is small next to what it buys (relative positions in every layer's scores).",
        "zh": "它确实比加一个位置表的工作多：运算数是 {ops:.0f} 倍，这里实测时间是 {ratio:.1f} 倍。但它是逐元素运算，和矩阵乘法相比很小："
              "只占这个模型在这段文本上前向计算的 {share:.1%}。与它带来的好处（每一层的打分都带有相对位置）相比，代价很小。"},
    "rc_no_forward": {"en": "The forward pass could not be timed.", "zh": "无法为前向计算计时。"},
}

"""Strings of the residual page's ResiDual view (ui/views/residual_dual_residual.py)."""

STRINGS = {
    "res_view_dual": {"en": "ResiDual", "zh": "ResiDual 双残差"},
    "rd_intro": {
        "en": "ResiDual (Xie et al. 2023) keeps two residual streams. The Post-LN stream normalises after every "
              "addition; beside it a dual stream adds the same sublayer outputs with no norm at all, and the output is "
              "the Post-LN stream plus the normalised dual stream. The aim: the lower layers get a norm-free path for "
              "their gradient (Post-LN's weak point), while every layer keeps its share of the stream (Pre-LN's weak "
              "point: the stream grows, so later layers change it less and less). Below, one seeded, untrained stack of "
              "{layers} sublayers at this model's width (d = {d}), wired three ways and run on the sidebar's {n} token "
              "vectors: this is the start of training, not a trained model.",
        "zh": "ResiDual（Xie 等，2023）保留两条残差流。Post-LN 流在每次相加之后做归一化；旁边的双流把同样的子层输出直接相加，不做任何归一化；"
              "输出是 Post-LN 流加上归一化后的双流。目的是：低层的梯度有一条不经过归一化的通路（Post-LN 的弱点），同时每一层在流中的占比不会缩小"
              "（Pre-LN 的弱点：流不断变大，越往后的层对它的改变越小）。下面用一个固定种子、未训练的 {layers} 个子层的堆叠，宽度取本模型的 d = {d}，"
              "按三种方式连接，在侧边栏文本的 {n} 个词元向量上运行：这是训练刚开始时的情形，不是训练好的模型。"},
    "rd_layers": {"en": "Sublayers", "zh": "子层数"},
    "rd_gain": {"en": "Sublayer output scale", "zh": "子层输出的缩放"},
    "rd_gain_help": {"en": "Multiplies every sublayer's output matrix: 1 is PyTorch's default initialisation; larger "
                                "makes each sublayer's output larger next to its input, as training tends to.",
                     "zh": "乘到每个子层的输出矩阵上：1 是 PyTorch 的默认初始化；更大时，每个子层的输出相对它的输入更大，训练往往会这样。"},
    "rd_wiring_post": {"en": "Post-LN", "zh": "Post-LN"},
    "rd_wiring_pre": {"en": "Pre-LN", "zh": "Pre-LN"},
    "rd_wiring_residual": {"en": "ResiDual", "zh": "ResiDual"},
    "rd_layer": {"en": "L{i}", "zh": "L{i}"},
    "rd_grad_title": {"en": "Gradient norm of each layer's weights", "zh": "每层权重的梯度范数"},
    "rd_grad_y": {"en": "‖∂loss/∂W‖", "zh": "‖∂loss/∂W‖"},
    "rd_share_title": {"en": "Each layer's output ÷ the stream it is added to", "zh": "每层输出 ÷ 它所加入的流"},
    "rd_share_y": {"en": "‖F(x)‖ ÷ ‖stream‖", "zh": "‖F(x)‖ ÷ ‖流‖"},
    "rd_col_wiring": {"en": "wiring", "zh": "连接方式"},
    "rd_col_spread": {"en": "largest ÷ smallest layer gradient", "zh": "层梯度最大 ÷ 最小"},
    "rd_col_first": {"en": "share, first layer", "zh": "第一层占比"},
    "rd_col_last": {"en": "share, last layer", "zh": "最后一层占比"},
    "rd_caption": {
        "en": "The loss is the output's dot product with a seeded random target, the same for the three wirings; "
              "the shares are measured in the stream each sublayer output joins (ResiDual: its Post-LN stream).",
        "zh": "损失是输出与一个固定种子的随机目标的点积，三种连接方式相同；占比在每个子层输出加入的那条流上测量（ResiDual：它的 Post-LN 流）。"},
    "rd_mis_common": {
        "en": "Pre-LN fixed Post-LN's problems, so nothing is lost by normalising before each sublayer.",
        "zh": "Pre-LN 解决了 Post-LN 的问题，所以在每个子层之前做归一化没有任何代价。"},
    "rd_mis_shown": {
        "en": "In Pre-LN the stream keeps growing: here the last layer's output is {pre_last:.2f} of the stream it joins, "
              "against {pre_first:.2f} for the first, so later layers change the representation less. Post-LN and "
              "ResiDual keep it at {post_last:.2f}; ResiDual adds the dual stream so its lower layers still get a "
              "gradient that skips the norms.",
        "zh": "在 Pre-LN 中流不断变大：这里最后一层的输出只占它加入的流的 {pre_last:.2f}，第一层是 {pre_first:.2f}，所以越往后的层对表示的改变越小。"
              "Post-LN 和 ResiDual 保持在 {post_last:.2f}；ResiDual 多了一条双流，让低层仍然得到绕过归一化的梯度。"},
}

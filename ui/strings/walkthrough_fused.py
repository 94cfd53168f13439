"""Strings of the walk-through's fused-kernel section (ui/views/walkthrough_fused.py)."""

STRINGS = {
    "fu_title": {"en": "Fused kernels: one call instead of four", "zh": "融合内核：一次调用代替四次"},
    "fu_intro": {
        "en": "Everything above computes attention as a chain: scores, mask, softmax, the product with V. Each step "
              "writes its whole result to memory and the next reads it back; for n tokens the scores and the weights "
              "are n × m numbers per head, written and read again. A fused kernel (FasterTransformer, FlashAttention; in "
              "PyTorch `scaled_dot_product_attention`) does the chain in one call and can keep those numbers out of "
              "memory. Below: layer {layer}'s real q, k, v, mask and scale from the sidebar's text, both ways, checked "
              "against the model's own output and timed now on {device}. Longer rows repeat the text to show how the "
              "gap changes with length.",
        "zh": "上面所有的计算都把注意力当作一串步骤：打分、掩码、softmax、与 V 相乘。每一步都把完整结果写进内存，下一步再读回来；对 n 个词元，"
              "每个头的分数和权重都是 n × m 个数，写进去又读出来。融合内核（FasterTransformer、FlashAttention；PyTorch 里的 "
              "`scaled_dot_product_attention`）用一次调用完成这一串步骤，可以不把这些数写进内存。下面：用侧边栏文本在第 {layer} 层的真实 "
              "q、k、v、掩码和缩放，两种方式各算一遍，与模型自己的输出核对，并且现在就在 {device} 上计时。后面几行把文本重复若干次，"
              "看差距如何随长度变化。"},
    "fu_runs": {"en": "Timed runs per row (the median is shown)", "zh": "每行计时的次数（显示中位数）"},
    "fu_again": {"en": "Measure again", "zh": "重新测量"},
    "fu_col_len": {"en": "tokens (n × m)", "zh": "词元数（n × m）"},
    "fu_col_unfused": {"en": "unfused chain", "zh": "未融合的一串步骤"},
    "fu_col_fused": {"en": "fused call", "zh": "融合调用"},
    "fu_col_ratio": {"en": "unfused ÷ fused", "zh": "未融合 ÷ 融合"},
    "fu_col_matrix": {"en": "scores + weights written", "zh": "写出的分数 + 权重"},
    "fu_col_diff": {"en": "max |fused − unfused|", "zh": "最大 |融合 − 未融合|"},
    "fu_row_len": {"en": "{n} × {m} (text ×{r})", "zh": "{n} × {m}（文本 ×{r}）"},
    "fu_chart_title": {"en": "Unfused ÷ fused time, by text length", "zh": "未融合 ÷ 融合的时间比，按文本长度"},
    "fu_chart_y": {"en": "ratio", "zh": "倍数"},
    "fu_check": {
        "en": "Both agree with the model's own attention output on the text: the unfused chain to within {model}, the "
              "fused call to within {diff} of it. Same arithmetic, another order and another kernel.",
        "zh": "两者都与模型在这段文本上自己的注意力输出一致：未融合的一串步骤相差不超过 {model}，融合调用与它相差不超过 {diff}。"
              "同样的算术，只是顺序和内核不同。"},
    "fu_caption": {
        "en": "Medians of {runs} runs measured just now on {device}; press *Measure again* to see how much they move. "
              "FasterTransformer reported about 2.5× on GPUs; what a fused call saves depends on the device, the length "
              "and the kernel PyTorch picks, which is why this page measures instead of quoting.",
        "zh": "{runs} 次运行的中位数，刚刚在 {device} 上测得；点击“重新测量”可以看到波动多大。FasterTransformer 报告在 GPU 上约 2.5 倍；"
              "融合调用能省多少，取决于设备、长度以及 PyTorch 选用的内核，所以本页实际测量，而不是引用一个数字。"},
    "fu_mis_common": {
        "en": "A fused kernel is faster because it does less arithmetic.",
        "zh": "融合内核更快，是因为它做的算术更少。"},
    "fu_mis_shown": {
        "en": "It does the same arithmetic (the outputs agree to {diff}); what it saves is memory traffic: at "
              "{n} × {m} tokens the unfused chain writes {bytes} of scores and weights and reads them back. Here, at "
              "that length, the unfused chain took {ratio:.2g}× the fused call's time.",
        "zh": "它做的算术一样（输出相差不超过 {diff}）；它省下的是内存读写：在 {n} × {m} 个词元时，未融合的一串步骤要写出 {bytes} 的分数和权重，"
              "再读回来。这里在这个长度下，未融合的一串步骤用时是融合调用的 {ratio:.2g} 倍。"},
}

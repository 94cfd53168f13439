"""Strings of the beyond-softmax page's MLP-Mixer section (ui/views/beyond_mixer.py)."""

STRINGS = {
    "bxm_mix_title": {"en": "MLP-Mixer vs attention", "zh": "MLP-Mixer 与注意力"},
    "bxm_mix_intro": {
        "en": "An MLP-Mixer layer has two MLPs. **Token mixing** works on each channel separately and mixes *across "
              "tokens* with an n × n matrix that is learned once and does not depend on the input. **Channel mixing** "
              "works on each token separately and mixes the channels *within* the token, like a Transformer's FFN. "
              "Attention also mixes across tokens, but computes its n × n weights from the input itself.",
        "zh": "MLP-Mixer 的一层有两个 MLP。**词元混合**对每个通道分别作用，用一个学习得到、与输入无关的 n × n 矩阵在*词元之间*"
              "混合。**通道混合**对每个词元分别作用，在*词元内部*混合各个通道，类似 Transformer 的前馈网络。"
              "注意力同样在词元之间混合，但它的 n × n 权重是由输入本身计算出来的。"},
    "bxm_mix_notes": {
        "en": "Careful if you read the course notes this lab grew from (their MLP-Mixer paragraph): they swap the two, "
              "saying that token mixing fuses the features inside each token. It is the other way round — token mixing mixes across "
              "tokens, channel mixing within a token.",
        "zh": "如果你读过本实验所依据的课程笔记（其中关于 MLP-Mixer 的段落），请注意它把两者说反了：笔记说词元混合是在每个词元内部融合特征。"
              "实际正相反——词元混合在词元之间混合，通道混合在词元内部混合。"},
    "bxm_mix_kind": {"en": "Token-mixing matrix", "zh": "词元混合矩阵"},
    "bxm_mix_fit": {"en": "fitted to this head's weights", "zh": "拟合这个头的权重"},
    "bxm_mix_random": {"en": "seeded random (untrained)", "zh": "随机种子生成（未训练）"},
    "bxm_shuffle": {"en": "Shuffle the input", "zh": "打乱输入"},
    "bxm_perm_seed": {"en": "Shuffle seed", "zh": "打乱的随机种子"},
    "bxm_mix_fit_note": {
        "en": "We ship no trained Mixer. Fitted: the one fixed matrix closest in least squares to the attention "
              "weights below on the unshuffled text — on a single text that is those weights themselves; a real "
              "Mixer fits its matrix over a whole corpus, so content averages out and mostly position is left.",
        "zh": "我们没有训练好的 Mixer。“拟合”是指：在未打乱的文本上，用最小二乘找一个固定矩阵，使它最接近下面的注意力权重——"
              "只有一段文本时，答案就是这些权重本身；真实的 Mixer 在整个语料上拟合，内容的影响被平均掉，剩下的主要是位置。"},
    "bxm_mix_random_note": {
        "en": "Seeded random: the N(0, 1/n) matrix of an untrained Mixer for n = {n} tokens (a Mixer's matrix "
            "fixes n: another length needs another matrix).",
        "zh": "随机种子生成：未训练的 Mixer 在 n = {n} 个词元时的 N(0, 1/n) 矩阵（Mixer 的矩阵固定了 n：换一个长度就需要另一个矩阵）。"},
    "bxm_mix_attn_note": {
        "en": "Attention here is softmax(q kᵀ/√d) of this head's q and k, without the mask and without positions, so "
              "that a shuffle moves nothing but content.",
        "zh": "这里的注意力是用这个头的 q 和 k 计算的 softmax(q kᵀ/√d)，不加掩码、不加位置信息，这样打乱只改变内容的位置。"},
    "bxm_mix_attn_title": {"en": "Attention: weights computed from the input", "zh": "注意力：由输入计算出的权重"},
    "bxm_mix_tok_title": {"en": "Mixer: token-mixing matrix (fixed)", "zh": "Mixer：词元混合矩阵（固定）"},
    "bxm_mix_order": {"en": "Both maps list the tokens in their shuffled order, each labelled with its original "
                            "position (position·token).",
                      "zh": "两幅图都按打乱后的顺序列出词元，每个词元标注它原来的位置（位置·词元）。"},
    "bxm_mix_numbers": {"en": "What the shuffle did, measured", "zh": "打乱带来的变化（实测）"},
    "bxm_mix_col_what": {"en": "quantity", "zh": "量"},
    "bxm_mix_col_value": {"en": "largest difference", "zh": "最大差值"},
    "bxm_mix_attn_moved": {"en": "attention weights A(Px) vs P A(x) Pᵀ (moved along with the tokens)",
                           "zh": "注意力权重 A(Px) 与 P A(x) Pᵀ（随词元一起移动）"},
    "bxm_mix_attn_changed": {"en": "attention weights A(Px) vs A(x) (the matrix as shown changed)",
                             "zh": "注意力权重 A(Px) 与 A(x)（显示的矩阵变了）"},
    "bxm_mix_attn_out": {"en": "attention output vs P × the unshuffled output", "zh": "注意力输出与 P × 未打乱时的输出"},
    "bxm_mix_mixer_out": {"en": "Mixer layer output vs P × the unshuffled output",
                          "zh": "Mixer 层输出与 P × 未打乱时的输出"},
    "bxm_mix_channel": {"en": "channel-mixing MLP alone vs P × its unshuffled output",
                        "zh": "单独的通道混合 MLP 与 P × 未打乱时的输出"},
    "bxm_mix_same": {
        "en": "The token-mixing matrix is a parameter: the same matrix for every input, shuffled or not. Attention's "
              "weights follow the tokens (difference {moved:.1e}, rounding only), so its output is just the shuffled "
              "output; the Mixer applies the same mix to moved content and its output changes (up to {mixer:.3g}). "
              "The channel MLP works within each token, so it too just moves along ({channel:.1e}).",
        "zh": "词元混合矩阵是一个参数：无论输入是否打乱，都是同一个矩阵。注意力权重随词元一起移动（差值 {moved:.1e}，仅为舍入误差），"
              "所以它的输出只是打乱后的原输出；Mixer 把同样的混合用在移动过的内容上，输出因此改变（最大 {mixer:.3g}）。"
              "通道混合 MLP 在每个词元内部作用，所以它也只是跟着移动（{channel:.1e}）。"},
    "bxm_mix_unshuffled": {"en": "Turn on the shuffle to see which of the two moves with the tokens.",
                           "zh": "打开“打乱输入”，看看两者中哪一个会随词元移动。"},
    "bxm_mix_model_weights": {"en": "This head's own weights in the model (with its mask and positions)",
                              "zh": "这个头在模型中的实际权重（带掩码和位置信息）"},
    "bxm_mix_one": {"en": "One token is nothing to mix: the text needs at least two.",
                    "zh": "只有一个词元无从混合：文本至少需要两个词元。"},
}

FORMULAS = {
    "bxm_mixer": r"U=W_{\mathrm{tok}}\,X,\ \ W_{\mathrm{tok}}\in\mathbb R^{n\times n};\qquad "
                 r"Y_i=\mathrm{MLP}_{\mathrm{ch}}(U_i),\ \ i=1..n",
}

"""Strings of the step kinds of the lesson "Everything becomes tokens" (ui/lessons/tokens.py)."""

STRINGS = {
    "lk_tok_empty": {"en": "The sidebar's text is empty: type a sentence there to cut it into tokens.",
                     "zh": "侧边栏的文本是空的：请在那里输入一句话，再把它切成词元。"},
    "lk_tok_no_wordpiece": {"en": "MiniLM's WordPiece tokenizer cannot be loaded on this server, so this step cannot "
                                  "show it.",
                            "zh": "这台服务器加载不了 MiniLM 的 WordPiece 分词器，所以这一步无法显示它。"},
    "lk_tok_no_vit": {"en": "The shipped small ViTs are missing on this server (checkpoints/vit-digits), so this step "
                            "cannot run.",
                      "zh": "这台服务器上缺少随应用提供的小 ViT（checkpoints/vit-digits），所以这一步无法运行。"},
    "lk_tok_more": {"en": "… {n} more", "zh": "……还有 {n} 个"},
    "lk_tok_scheme_chars": {"en": "characters", "zh": "字符"},
    "lk_tok_scheme_bytes": {"en": "UTF-8 bytes", "zh": "UTF-8 字节"},
    "lk_tok_scheme_wordpiece": {"en": "WordPiece (MiniLM)", "zh": "WordPiece（MiniLM）"},
    "lk_tok_scheme_bpe": {"en": "byte-level BPE ({n} merges)", "zh": "字节级 BPE（{n} 次合并）"},
    # ---- text_cuts
    "lk_opt_cut_chars": {"en": "characters", "zh": "字符"},
    "lk_opt_cut_bytes": {"en": "UTF-8 bytes", "zh": "UTF-8 字节"},
    "lk_opt_cut_wordpiece": {"en": "WordPiece", "zh": "WordPiece"},
    "lk_opt_cut_bpe": {"en": "byte-level BPE", "zh": "字节级 BPE"},
    "lk_tok_cuts_title": {"en": "One text, four sequences (the longest in orange)",
                          "zh": "同一段文本，四个序列（最长的标为橙色）"},
    "lk_text_cuts_notice": {
        "en": "The longest sequence is {longest}: {n_chars:d} characters become {n_bytes:d} bytes, "
              "{n_wordpiece:d} WordPiece tokens and {n_bpe:d} byte-level BPE tokens ({merges:d} merges). "
              "The longest is {times:.1f} times as long as the characters.",
        "zh": "最长的序列是{longest}：{n_chars:d} 个字符变成 {n_bytes:d} 个字节、{n_wordpiece:d} 个 WordPiece 词元和 "
              "{n_bpe:d} 个字节级 BPE 词元（{merges:d} 次合并）。最长的序列是字符数的 {times:.1f} 倍。"},
    # ---- bpe_count
    "lk_opt_bpe_fewer": {"en": "fewer tokens than characters", "zh": "词元比字符少"},
    "lk_opt_bpe_same": {"en": "exactly one token per character", "zh": "正好每个字符一个词元"},
    "lk_opt_bpe_more": {"en": "more tokens than characters, fewer than bytes", "zh": "词元比字符多，但比字节少"},
    "lk_opt_bpe_bytes": {"en": "one token per byte (nothing merged)", "zh": "每个字节一个词元（什么都没合并）"},
    "lk_tok_bpe_title": {"en": "Characters, bytes and byte-level BPE after {n} merges",
                         "zh": "字符、字节，以及 {n} 次合并后的字节级 BPE"},
    "lk_bpe_count_notice": {
        "en": "Byte-level BPE with {merges:d} merges cuts the {n_chars:d} characters ({n_bytes:d} bytes) into "
              "{n_bpe:d} tokens. Of the {n_han:d} Chinese characters, {one:d} are one token of their own, "
              "{two:d} are cut into two, {three:d} into three (one per byte), and {shared:d} share a token with a "
              "neighbour: {per_han:.2f} tokens per Chinese character.",
        "zh": "{merges:d} 次合并的字节级 BPE 把这 {n_chars:d} 个字符（{n_bytes:d} 个字节）切成 {n_bpe:d} 个词元。"
              "{n_han:d} 个汉字里，{one:d} 个自成一个词元，{two:d} 个被切成两个，{three:d} 个被切成三个（每个字节一个），"
              "{shared:d} 个与相邻的字共用一个词元：平均每个汉字 {per_han:.2f} 个词元。"},
    "lk_tok_utf8": {
        "en": "Why three: UTF-8 writes {char} ({cp}, {n_bits} bits) as {n} bytes, {patterns} = {hex}. A byte-level "
              "tokenizer starts from these 256 byte values; only the merges it learned glue them back together.",
        "zh": "为什么是三个：UTF-8 把 {char}（{cp}，{n_bits} 位）写成 {n} 个字节：{patterns} = {hex}。字节级分词器从这 "
              "256 种字节值出发，只有它学到的合并才会把它们重新粘在一起。"},
    # ---- bpe_merges
    "lk_tok_curve_title": {"en": "The same text in byte-level BPE, merge after merge",
                           "zh": "同一段文本的字节级 BPE 长度，随合并次数变化"},
    "lk_tok_curve_x": {"en": "merges learned", "zh": "学到的合并次数"},
    "lk_tok_curve_y": {"en": "tokens", "zh": "词元数"},
    "lk_tok_level_bytes": {"en": "bytes: {n}", "zh": "字节：{n}"},
    "lk_tok_level_chars": {"en": "characters: {n}", "zh": "字符：{n}"},
    "lk_bpe_merges_notice": {
        "en": "With no merge the text is its {n_bytes:d} bytes; after {merges:,d} merges it is {n_last:d} tokens "
              "({saved:.0%} shorter), for a vocabulary of {vocab:,d} pieces instead of 256. Every merge makes the "
              "vocabulary one bigger and helps only the texts in which its pair occurs.",
        "zh": "不做合并时，这段文本就是它的 {n_bytes:d} 个字节；合并 {merges:,d} 次后是 {n_last:d} 个词元（短了 {saved:.0%}），"
              "代价是词表从 256 项变成 {vocab:,d} 项。每次合并让词表多一项，而且只对含有这一对片段的文本有用。"},
    # ---- wordpiece_unknown
    "lk_opt_unk_none": {"en": "no [UNK] at all", "zh": "一个 [UNK] 也没有"},
    "lk_opt_unk_some": {"en": "some, but under half", "zh": "有一些，但不到一半"},
    "lk_opt_unk_most": {"en": "half of the tokens or more", "zh": "一半或更多的词元"},
    "lk_tok_unk_title": {"en": "Characters and MiniLM's WordPiece ([UNK] in orange)",
                         "zh": "字符与 MiniLM 的 WordPiece（[UNK] 标为橙色）"},
    "lk_wordpiece_unknown_notice": {
        "en": "{n_unk:d} of the {n_pieces:d} WordPiece tokens are [UNK] ({share:.0%}): the model reads each of them "
              "as the same vector, whatever the character was. Its vocabulary has {vocab:,d} entries, but few "
              "Chinese characters among them.",
        "zh": "{n_pieces:d} 个 WordPiece 词元中有 {n_unk:d} 个是 [UNK]（{share:.0%}）：不管原来是哪个字，模型都把它们读成"
              "同一个向量。它的词表有 {vocab:,d} 项，但其中的汉字很少。"},
    # ---- patch_sequence
    "lk_opt_len_4": {"en": "4", "zh": "4"},
    "lk_opt_len_16": {"en": "16", "zh": "16"},
    "lk_opt_len_17": {"en": "17", "zh": "17"},
    "lk_opt_len_64": {"en": "64", "zh": "64"},
    "lk_tok_patch_title": {"en": "This {w}×{h} digit cut into {n} patches of {p}×{p} pixels",
                           "zh": "这个 {w}×{h} 的数字被切成 {n} 个 {p}×{p} 像素的图块"},
    "lk_patch_sequence_notice": {
        "en": "This {side:d}×{side:d} picture in {p:d}×{p:d} patches is {n_patches:d} patches of {k:d} numbers each, read "
              "row by row; with [CLS] in front the Transformer reads {length:d} vectors. Other patch sizes: {others}.",
        "zh": "一张 {side:d}×{side:d} 的图切成 {p:d}×{p:d} 的图块，就是 {n_patches:d} 个图块，每块 {k:d} 个数，逐行读出；"
              "前面再加上 [CLS]，Transformer 读的是 {length:d} 个向量。其他图块大小：{others}。"},
    # ---- patch_conv
    "lk_opt_conv_same": {"en": "exactly the same numbers", "zh": "数值完全相同"},
    "lk_opt_conv_differs": {"en": "different numbers", "zh": "数值不同"},
    "lk_tok_conv_title": {"en": "{n} patch vectors of {d} numbers, computed two ways",
                          "zh": "{n} 个图块向量（每个 {d} 个数），用两种方法计算"},
    "lk_tok_conv_linear": {"en": "patch · Wᵀ + b", "zh": "图块 · Wᵀ + b"},
    "lk_tok_conv_conv": {"en": "convolution, stride {p}", "zh": "卷积，步幅 {p}"},
    "lk_tok_conv_diff": {"en": "difference", "zh": "差值"},
    "lk_tok_conv_x": {"en": "patch", "zh": "图块"},
    "lk_tok_conv_y": {"en": "dimension", "zh": "维度"},
    "lk_tok_conv_value": {"en": "value", "zh": "数值"},
    "lk_patch_conv_notice": {
        "en": "The largest difference over all {n:d} patches and {d:d} dimensions is {diff:.1e}: zero, up to float rounding. "
              "Flattening each {p:d}×{p:d} patch ({k:d} numbers) and multiplying by one matrix is the same linear map "
              "as a convolution with a {p:d}×{p:d} kernel and stride {p:d}; no CNN is needed in front of a ViT.",
        "zh": "在全部 {n:d} 个图块、{d:d} 个维度上，最大的差值是 {diff:.1e}：除去浮点舍入就是零。把每个 {p:d}×{p:d} 的图块"
              "（{k:d} 个数）展平再乘同一个矩阵，和用 {p:d}×{p:d} 的卷积核、步幅 {p:d} 做卷积是同一个线性映射；"
              "ViT 前面不需要一个 CNN。"},
    # ---- cls_patch
    "lk_opt_quad_tl": {"en": "top left", "zh": "左上"},
    "lk_opt_quad_tr": {"en": "top right", "zh": "右上"},
    "lk_opt_quad_bl": {"en": "bottom left", "zh": "左下"},
    "lk_opt_quad_br": {"en": "bottom right", "zh": "右下"},
    "lk_tok_cls_title": {"en": "Where [CLS] looks, through both layers: patch {patch} most",
                         "zh": "[CLS] 在看哪里（经过两层）：最多的是第 {patch} 个图块"},
    "lk_tok_cls_digit": {"en": "the digit (a {label})", "zh": "这个数字（{label}）"},
    "lk_tok_cls_rollout": {"en": "rollout from [CLS] ÷ its largest weight", "zh": "从 [CLS] 出发的注意力展开 ÷ 其最大权重"},
    "lk_tok_cls_value": {"en": "grey level / share of the largest", "zh": "灰度 / 占最大值的比例"},
    "lk_cls_patch_notice": {
        "en": "Through both layers (rollout) [CLS] puts the most weight, {weight:.0%}, on patch {patch:d} (row {row:d}, "
              "column {col:d}: {quarter}); the patches get {uniform:.0%} each on average. The ViT calls this "
              "digit a {pred:d} ({prob:.0%}); it is a {label:d}.",
        "zh": "经过两层的注意力展开（rollout）后，[CLS] 把最多的权重 {weight:.0%} 放在第 {patch:d} 个图块上（第 {row:d} 行、"
              "第 {col:d} 列：{quarter}）；各图块平均每块得到 {uniform:.0%}。ViT 认为这个数字是 {pred:d}（{prob:.0%}）；"
              "它其实是 {label:d}。"},
    # ---- patch_shuffle
    "lk_opt_sh_learned": {"en": "only the ViT with positions", "zh": "只有带位置向量的 ViT"},
    "lk_opt_sh_none": {"en": "only the ViT without positions", "zh": "只有没有位置向量的 ViT"},
    "lk_opt_sh_both": {"en": "both", "zh": "两个都会"},
    "lk_opt_sh_neither": {"en": "neither", "zh": "两个都不会"},
    "lk_tok_shuffle_title": {"en": "The same patches in another order", "zh": "同样的图块，换一个顺序"},
    "lk_patch_shuffle_notice": {
        "en": "Without positions the output moves by {diff_none:.1e} (float rounding; it says {before_none:d} before "
              "and {after_none:d} after): attention cannot tell the order. With learned positions it moves by "
              "{diff_learned:.2f}, and the prediction goes from {before_learned:d} to {after_learned:d}.",
        "zh": "没有位置向量时，输出只变了 {diff_none:.1e}（浮点舍入；打乱前说 {before_none:d}，打乱后说 {after_none:d}）："
              "注意力分不出顺序。有学习得到的位置向量时，输出变了 {diff_learned:.2f}，预测从 {before_learned:d} 变成 "
              "{after_learned:d}。"},
    # ---- sound_tokens
    "lk_opt_snd_16000": {"en": "16,000", "zh": "16,000"},
    "lk_opt_snd_100": {"en": "100", "zh": "100"},
    "lk_opt_snd_50": {"en": "50", "zh": "50"},
    "lk_opt_snd_25": {"en": "25", "zh": "25"},
    "lk_tok_sound_speech": {"en": "the sentence in the sidebar, spoken by espeak-ng", "zh": "侧边栏里的这句话，由 espeak-ng 读出"},
    "lk_tok_sound_tone": {"en": "a tone gliding from 200 Hz to 2 kHz (this server has no espeak-ng to speak the text)",
                          "zh": "一个从 200 Hz 滑到 2 kHz 的音（这台服务器没有 espeak-ng，无法读出文本）"},
    "lk_tok_sound_title": {"en": "One second of sound: {frames} log-mel frames, {tokens} tokens after the stem",
                           "zh": "一秒钟的声音：{frames} 个对数梅尔帧，卷积前端之后是 {tokens} 个词元"},
    "lk_tok_sound_x": {"en": "frame (10 ms)", "zh": "帧（10 毫秒）"},
    "lk_tok_sound_y": {"en": "mel bin (low at the bottom)", "zh": "梅尔频带（低频在下）"},
    "lk_tok_sound_value": {"en": "log-mel", "zh": "对数梅尔"},
    "lk_sound_tokens_notice": {
        "en": "The sound ({spoken}) is {samples:,d} samples. Whisper takes a {window_ms:.0f} ms window every "
              "{hop_ms:.0f} ms: {frames:d} frames of 80 mel bins. Its convolution stem (the second convolution has "
              "stride 2) halves that: {tokens:d} tokens, one per {token_ms:.0f} ms, so Whisper's 30 s window is "
              "{per_30s:,d} tokens.",
        "zh": "这段声音（{spoken}）有 {samples:,d} 个采样点。Whisper 每 {hop_ms:.0f} 毫秒取一个 {window_ms:.0f} 毫秒的窗口："
              "{frames:d} 帧，每帧 80 个梅尔频带。它的卷积前端（第二个卷积的步幅是 2）把帧数减半：{tokens:d} 个词元，"
              "每 {token_ms:.0f} 毫秒一个，所以 Whisper 的 30 秒窗口就是 {per_30s:,d} 个词元。"},
}

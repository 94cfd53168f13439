"""Strings of the size calculator (ui/widgets/size_calculator.py) on the FFN page's size view."""

STRINGS = {
    "sz_title": {"en": "Any model's size, from its shape", "zh": "任意模型的参数量：从形状算出来"},
    "sz_intro": {
        "en": "A Transformer's parameter count follows from a few numbers: layers, d_model, heads, d_ff and the "
              "vocabulary. Pick a published model or the loaded one, change any number, and see where the "
              "parameters are. For the loaded model the formula is checked against the model's own count.",
        "zh": "Transformer 的参数量由几个数决定：层数、d_model、注意力头数、d_ff 和词表大小。选一个公开发布的模型或当前加载的"
              "模型，改动任意一个数，看看参数都在哪里。对当前加载的模型，公式算出的数会和模型自己数出的参数量核对。"},
    "sz_preset": {"en": "Model", "zh": "模型"},
    "sz_loaded": {"en": "The loaded model: {model}", "zh": "当前加载的模型：{model}"},
    "sz_name_transformer_base": {"en": "Transformer base (2017)", "zh": "Transformer 基础模型（2017）"},
    "sz_name_gpt2": {"en": "GPT-2 small", "zh": "GPT-2 小型"},
    "sz_name_gpt2_medium": {"en": "GPT-2 medium", "zh": "GPT-2 中型"},
    "sz_name_gpt2_large": {"en": "GPT-2 large", "zh": "GPT-2 大型"},
    "sz_name_gpt2_xl": {"en": "GPT-2 XL", "zh": "GPT-2 特大型（XL）"},
    "sz_name_gpt3": {"en": "GPT-3 175B", "zh": "GPT-3 175B"},
    "sz_name_llama_13b": {"en": "LLaMA-13B", "zh": "LLaMA-13B"},
    "sz_layers": {"en": "Layers (per stack)", "zh": "层数（每个编码器 / 解码器）"},
    "sz_heads": {"en": "Query heads", "zh": "查询头数"},
    "sz_kv_heads": {"en": "Key/value heads", "zh": "键/值头数"},
    "sz_vocab": {"en": "Vocabulary", "zh": "词表大小"},
    "sz_positions": {"en": "Learned positions", "zh": "可学习位置数"},
    "sz_help_n_layers": {"en": "Blocks in each stack; an encoder-decoder has this many in each.",
                         "zh": "每个编码器 / 解码器里的块数；编码器-解码器两边各有这么多块。"},
    "sz_help_d_model": {"en": "Width of every token's vector in the residual stream.",
                        "zh": "残差流中每个词元向量的宽度。"},
    "sz_help_n_heads": {"en": "Heads per attention layer; each is d_model / heads wide.",
                        "zh": "每个注意力层的头数；每个头的宽度是 d_model / 头数。"},
    "sz_help_n_kv_heads": {"en": "Equal to the query heads: multi-head attention; fewer: GQA; 1: MQA.",
                           "zh": "与查询头数相同：多头注意力；更少：分组查询注意力（GQA）；1：多查询注意力（MQA）。"},
    "sz_help_d_ff": {"en": "Hidden width of the feed-forward network (often 4 × d_model).",
                     "zh": "前馈网络（FFN）隐藏层的宽度（常为 4 × d_model）。"},
    "sz_help_vocab": {"en": "Token ids the model knows: rows of the embedding table.",
                      "zh": "模型认识的词元 id 个数，也就是嵌入表的行数。"},
    "sz_help_positions": {"en": "Rows of a learned position table; 0 for sinusoidal, RoPE or ALiBi positions, "
                                "which have no parameters.",
                          "zh": "可学习位置表的行数；正弦位置编码、RoPE、ALiBi 没有参数，填 0。"},
    "sz_arch": {"en": "Architecture", "zh": "架构"},
    "sz_arch_decoder": {"en": "decoder", "zh": "解码器"},
    "sz_arch_encoder": {"en": "encoder", "zh": "编码器"},
    "sz_arch_encoder-decoder": {"en": "encoder-decoder", "zh": "编码器-解码器"},
    "sz_norm": {"en": "Norm", "zh": "归一化"},
    "sz_gated": {"en": "Gated FFN (SwiGLU)", "zh": "门控 FFN（SwiGLU）"},
    "sz_help_gated": {"en": "A third d_model × d_ff matrix that gates the hidden layer (LLaMA).",
                      "zh": "多一个 d_model × d_ff 矩阵为隐藏层加门控（LLaMA）。"},
    "sz_bias": {"en": "Biases", "zh": "偏置"},
    "sz_tied": {"en": "Tied output layer", "zh": "输出层共享嵌入表"},
    "sz_help_tied": {"en": "Tied: the unembedding reuses the token embeddings (GPT-2); untied: a second "
                           "vocabulary × d_model matrix (LLaMA).",
                     "zh": "共享：反嵌入矩阵直接使用词元嵌入表（GPT-2）；不共享：另有一个词表大小 × d_model 的矩阵（LLaMA）。"},
    "sz_bad_heads": {"en": "d_model {d} cannot be split into {h} heads of equal width: pick a number of heads "
                           "that divides it.",
                     "zh": "d_model = {d} 无法平均分给 {h} 个头：请选一个能整除它的头数。"},
    "sz_bad_kv": {"en": "{kv} key/value heads cannot serve {h} query heads: the query heads must split evenly "
                        "among them (at most {h}).",
                  "zh": "{kv} 个键/值头无法服务 {h} 个查询头：查询头必须平均分给键/值头（最多 {h} 个）。"},
    "sz_col_part": {"en": "Part", "zh": "部分"},
    "sz_col_how": {"en": "How it is counted", "zh": "怎么算"},
    "sz_col_params": {"en": "Parameters", "zh": "参数量"},
    "sz_col_share": {"en": "Share", "zh": "占比"},
    "sz_row_tokens": {"en": "Token embeddings", "zh": "词元嵌入"},
    "sz_row_unembed": {"en": "Unembedding (not tied)", "zh": "反嵌入（不共享）"},
    "sz_row_positions": {"en": "Position and segment embeddings", "zh": "位置嵌入与段嵌入"},
    "sz_how_positions": {"en": "{n} positions × {w}", "zh": "{n} 个位置 × {w}"},
    "sz_how_segments": {"en": "{n} segments × {w}", "zh": "{n} 种段 × {w}"},
    "sz_how_buckets": {"en": "{n} buckets × {w}", "zh": "{n} 个分桶 × {w}"},
    "sz_heads_word": {"en": "heads", "zh": "头数"},
    "sz_how_two_stacks": {"en": ", in the encoder and in the decoder", "zh": "，编码器和解码器各一份"},
    "sz_row_attention": {"en": "Attention (W_Q, W_K, W_V, W_O)", "zh": "注意力（W_Q、W_K、W_V、W_O）"},
    "sz_how_layers": {"en": "{per} per layer × {n}", "zh": "每层 {per} × {n}"},
    "sz_row_ffn": {"en": "Feed-forward networks", "zh": "前馈网络（FFN）"},
    "sz_row_norms": {"en": "Norms", "zh": "归一化"},
    "sz_how_norms": {"en": "{n} norms × {per}", "zh": "{n} 个 × {per}"},
    "sz_row_total": {"en": "Total", "zh": "合计"},
    "sz_total": {"en": "Parameters", "zh": "参数量"},
    "sz_model_count": {"en": "The model's own count", "zh": "模型自己数出的参数量"},
    "sz_checked_same": {
        "en": "✓ The formula gives {formula}, exactly the parameters the loaded model has ({real}), part by part.",
        "zh": "✓ 公式算出 {formula}，与当前模型实际的参数量（{real}）逐部分完全一致。"},
    "sz_checked_differs": {
        "en": "The formula gives {formula}; the loaded model has {real}: it has parts this formula leaves out "
              "(query/key norms, extra norms, an embedding projection or a bias on the logits; its card on the "
              "overview lists them).",
        "zh": "公式算出 {formula}，当前模型实际有 {real}：它有公式没有算进去的部分（查询/键归一化、额外的归一化层、嵌入投影或"
              " logits 上的偏置；概览页的模型卡片列出了这些）。"},
    "sz_published": {"en": "In the paper", "zh": "论文中的数字"},
    "sz_source": {"en": "Source: {source}.", "zh": "出处：{source}。"},
    "sz_note_rounded": {"en": "The paper rounds; counted from the shape: {formula}.",
                   "zh": "论文给的是约数；按形状数出来是 {formula}。"},
    "sz_note_unspecified": {
        "en": "The paper does not say what its figure counts; with its 37,000-token vocabulary shared by both "
              "embeddings and the output layer, this shape has {formula}.",
        "zh": "论文没有说明这个数字算了哪些部分；按论文中两处嵌入和输出层共用的 37000 词元词表，这个形状有 {formula}。"},
    "sz_note_corrected": {"en": "The paper's figures were corrected later: the released checkpoint has the count "
                           "computed here, {formula}.",
                     "zh": "论文中的数字后来被更正：发布的检查点的参数量就是这里算出的 {formula}。"},
    "sz_kv_encoder": {"en": "An encoder reads the whole text at once: it keeps no KV cache.",
                      "zh": "编码器一次读完整段文本，不需要 KV 缓存。"},
    "sz_context": {"en": "Tokens in the KV cache", "zh": "KV 缓存中的词元数"},
    "sz_kv": {
        "en": "**KV cache** in float16: 2 (K and V) × {layers} layers × {kv} key/value heads × {dh} dims × 2 bytes "
              "= **{per} per token**; {n} tokens: **{total}** per sequence.",
        "zh": "**KV 缓存**（float16）：2（K 和 V）× {layers} 层 × {kv} 个键/值头 × {dh} 维 × 2 字节 = **每个词元 {per}**；"
              "{n} 个词元：每条序列 **{total}**。"},
    "sz_heads_same": {
        "en": "**One head or {h}?** One head of width {d} needs three {d} × {d} matrices for Q, K and V: "
              "3d² = {single}. {h} heads of width {dh} need 3 × {h} matrices of {d} × {dh}: 3·h·d·(d/h) = "
              "{multi}, the same. What multi-head attention adds is W_O, which joins the heads' outputs: "
              "d² = {wo} more.",
        "zh": "**一个头还是 {h} 个头？** 宽度为 {d} 的单个头，Q、K、V 各需要一个 {d} × {d} 矩阵：3d² = {single}。"
              "{h} 个宽度为 {dh} 的头，需要 3 × {h} 个 {d} × {dh} 矩阵：3·h·d·(d/h) = {multi}，完全相同。多头注意力多出来的是"
              "把各头输出拼接后再映射回去的 W_O：多 d² = {wo} 个参数。"},
    "sz_mis_gpt2_common": {
        "en": "GPT-2 small's embedding size is \"768 characters\", and the model has 117 M parameters.",
        "zh": "GPT-2 小型的嵌入大小是“768 个字符”，模型有 1.17 亿个参数。"},
    "sz_mis_gpt2_shown": {
        "en": "{d} is the width of each token's vector (d_model), not a number of characters. Counted from the "
              "shape, this model has {total} parameters, as the released checkpoint does; {paper} is the paper's "
              "first figure, corrected later.",
        "zh": "{d} 是每个词元向量的宽度（d_model），不是字符数。按形状数出来，这个模型有 {total} 个参数，与发布的检查点一致；"
              "{paper} 是论文最初给出、后来被更正的数字。"},
    "sz_mis_vocab_common": {"en": "GPT-2's vocabulary has 50,000 words.",
                            "zh": "GPT-2 的词表有 50000 个单词。"},
    "sz_mis_vocab_shown": {
        "en": "It has {vocab} tokens: 256 bytes, 50,000 merges of byte-level BPE and one end-of-text token. "
              "Most are pieces of words, not words.",
        "zh": "它有 {vocab} 个词元：256 个字节、50000 次字节级 BPE 合并得到的词元，再加一个文本结束词元。大多数是词的片段，不是完整的词。"},
    "sz_mis_gpt3_common": {
        "en": "GPT-3's embedding table is 12288 × 4096: 12,288 tokens of 4,096 dimensions each.",
        "zh": "GPT-3 的嵌入表是 12288 × 4096：12288 个词元，每个 4096 维。"},
    "sz_mis_gpt3_shown": {
        "en": "Its table has one row per token of the vocabulary and one column per dimension of d_model: "
              "{vocab} × {d} = {n} numbers, {share} of the model.",
        "zh": "嵌入表每个词表中的词元占一行，每个 d_model 维度占一列：{vocab} × {d} = {n} 个数，占整个模型的 {share}。"},
}

"""Strings of the residual page's compression view (ui/views/residual_compression.py)."""

STRINGS = {
    "res_view_compression": {"en": "Compression (CRATE)", "zh": "压缩（CRATE）"},
    "cr_intro": {
        "en": "CRATE (Yu et al. 2023, \"White-Box Transformers via Sparse Rate Reduction\") reads a Transformer's "
              "layers as steps of one objective: attention should **compress** the tokens (pack their vectors into "
              "a few directions, a lower coding rate) and the FFN should **sparsify** them (fewer large "
              "coordinates). The paper builds a model whose layers do this by design. Ordinary Transformers were "
              "not built that way: here is what ours do to your text, layer by layer. The coding rate is measured "
              "on the tokens' directions (each vector scaled to length 1):",
        "zh": "CRATE（Yu 等，2023，《White-Box Transformers via Sparse Rate Reduction》）把 Transformer 的各层看成同一个目标"
              "的逐步优化：注意力负责**压缩**词元（把它们的向量挤进少数几个方向，编码率降低），前馈网络负责让它们**稀疏**"
              "（大的坐标变少）。论文构造了一个按设计就这样做的模型。普通的 Transformer 并不是这样设计的：下面是我们的模型在"
              "你的文本上逐层的表现。编码率是在词元的方向上量的（每个向量先缩放到长度 1）："},
    "cr_embed": {"en": "embedding", "zh": "嵌入"},
    "cr_rate_title": {"en": "Coding rate of the tokens, after each block", "zh": "每个块之后词元的编码率"},
    "cr_rate": {"en": "coding rate R(Z), nats", "zh": "编码率 R(Z)（奈特）"},
    "cr_sparsity_title": {"en": "Sparsity of the tokens, after each block", "zh": "每个块之后词元的稀疏度"},
    "cr_sparsity": {"en": "Hoyer sparsity", "zh": "Hoyer 稀疏度"},
    "cr_caption": {
        "en": "The stream of your {n} tokens after the embedding and after every block (ε = {eps}). A lower rate: "
              "the tokens point in fewer directions. Sparsity (Hoyer): 0 when every coordinate of a vector is "
              "equally large, 1 when one coordinate holds it all; the mean over tokens.",
        "zh": "你的 {n} 个词元在嵌入之后、每个块之后的残差流（ε = {eps}）。编码率越低：词元指向的方向越少。稀疏度（Hoyer）："
              "一个向量的各个坐标一样大时为 0，全部集中在一个坐标上时为 1；对所有词元取平均。"},
    "cr_models_title": {"en": "Every trained model of the catalogue, on the same text",
                        "zh": "目录中每个训练好的模型，在同一段文本上"},
    "cr_col_model": {"en": "model", "zh": "模型"},
    "cr_col_layers": {"en": "layers", "zh": "层数"},
    "cr_col_rate0": {"en": "rate, embedding", "zh": "编码率（嵌入）"},
    "cr_col_rate1": {"en": "rate, last block", "zh": "编码率（最后一个块）"},
    "cr_col_change": {"en": "change", "zh": "变化"},
    "cr_col_sp0": {"en": "sparsity, embedding", "zh": "稀疏度（嵌入）"},
    "cr_col_sp1": {"en": "sparsity, last block", "zh": "稀疏度（最后一个块）"},
    "cr_claim": {
        "en": "**The paper's claim** is about CRATE, whose layers are derived to lower a coding rate measured against "
              "subspaces the model learns, and to sparsify: measured on CRATE, compression and sparsity grow with "
              "depth. That rate needs CRATE's subspaces; here is the plain rate of the tokens' directions, which "
              "any model has. **What our models show** on this text: the rate is lower after the last block than "
              "after the embedding in {falls} of {m} models, and the tokens are sparser in {rises} of {m}. Nothing "
              "in an ordinary Transformer's training objective asks for either.",
        "zh": "**论文的说法**针对的是 CRATE：它的层是为了降低一个相对于模型学到的子空间来计算的编码率、并让表示更稀疏而推导"
              "出来的；在 CRATE 上测得压缩程度和稀疏度随深度增加。那个编码率需要 CRATE 的子空间；这里量的是词元方向本身的编码率，"
              "任何模型都有。**我们的模型实际显示**：在这段文本上，{m} 个模型中有 {falls} 个在最后一个块之后的编码率低于嵌入之后，"
              "有 {rises} 个的词元变得更稀疏。普通 Transformer 的训练目标并不要求其中任何一个。"},
    "cr_model_failed": {"en": "{model} could not read this text: {error}", "zh": "{model} 无法处理这段文本：{error}"},
}

FORMULAS = {
    "cr_rate": r"R(Z) = \tfrac{1}{2}\,\log\det\!\Big(I + \tfrac{d}{N\varepsilon^{2}}\, Z Z^{\top}\Big)",
}

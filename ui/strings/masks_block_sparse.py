"""Strings of the masks page's block-sparse tab (ui/views/masks_block_sparse.py)."""

STRINGS = {
    "mk_tab_blocks": {"en": "Block-sparse", "zh": "块稀疏"},
    "bsp_intro": {
        "en": "An accelerator computes attention in tiles of b × b (query, key) pairs, so sparse-attention kernels "
              "(Sparse Transformer, BigBird, DeepSpeed's block-sparse attention) decide per **block**: a block is "
              "computed whole or skipped whole. Each query block sees its own block and the chosen number of *local* "
              "blocks on either side; the first *global* blocks see and are seen by every block; *random* blocks are "
              "extra key blocks per query block, drawn from a seed (BigBird). Drawn on the sidebar's text, block by block and then token by token.",
        "zh": "加速器按 b × b 个（查询，键）对的小块来计算注意力，所以稀疏注意力的内核（Sparse Transformer、BigBird、DeepSpeed 的块稀疏注意力）"
              "按**块**来决定：一个块要么整块计算，要么整块跳过。每个查询块看到自己所在的块以及两侧各若干个*局部*块；前几个*全局*块看到所有块，"
              "也被所有块看到；*随机*块是按种子为每个查询块额外抽取的键块（BigBird）。画在侧边栏的文本上，先按块，再按词元。"},
    "bsp_block": {"en": "Block size b (tokens)", "zh": "块大小 b（词元）"},
    "bsp_local": {"en": "Local blocks on each side", "zh": "每侧的局部块数"},
    "bsp_global": {"en": "Global blocks", "zh": "全局块数"},
    "bsp_random": {"en": "Random blocks per query block", "zh": "每个查询块的随机块数"},
    "bsp_seed": {"en": "Seed of the random blocks", "zh": "随机块的种子"},
    "bsp_layout_title": {"en": "Blocks computed ({nb} × {nb}, b = {b})", "zh": "被计算的块（{nb} × {nb}，b = {b}）"},
    "bsp_block_label": {"en": "{a}–{z}", "zh": "{a}–{z}"},
    "bsp_tokens_title": {"en": "The same mask on the {n} tokens", "zh": "同一个掩码，落到 {n} 个词元上"},
    "bsp_metric_share": {"en": "Blocks computed", "zh": "计算的块"},
    "bsp_metric_pairs": {"en": "Pairs allowed", "zh": "允许的词元对"},
    "bsp_metric_kernel": {"en": "Pairs the kernel computes", "zh": "内核实际计算的词元对"},
    "bsp_caption": {
        "en": "{computed} of the {dense} blocks a dense kernel computes ({share:.0%}){causal}. The kernel computes b² "
              "pairs per block, {kernel:,} in all, of which the mask keeps {pairs:,}: the rest lie past the text's end "
              "(the last block is padded to b tokens){diag}. At this length the saving is small; it grows with the "
              "text, because the computed blocks grow like the number of blocks while a dense kernel's grow like its "
              "square.",
        "zh": "稠密内核要计算 {dense} 个块，这里只计算其中 {computed} 个（{share:.0%}）{causal}。内核每块计算 b² 个词元对，共 {kernel:,} 个，"
              "掩码保留其中 {pairs:,} 个：其余的落在文本末尾之后（最后一块被补齐到 b 个词元）{diag}。在这个长度下节省得不多；文本越长节省越多，"
              "因为计算的块数随块数线性增长，而稠密内核的块数随块数的平方增长。"},
    "bsp_causal": {"en": "; a decoder skips the blocks above the diagonal anyway",
                   "zh": "；解码器本来就跳过对角线以上的块"},
    "bsp_diag": {"en": " or above the diagonal inside the diagonal blocks", "zh": "，或者在对角块内部位于对角线以上"},
    "bsp_sep": {"en": " & ", "zh": " 与 "},
    "bsp_mis_common": {
        "en": "A sparse attention pattern saves compute as soon as most token pairs are masked.",
        "zh": "只要大部分词元对被掩码，稀疏注意力模式就能节省计算。"},
    "bsp_mis_shown": {
        "en": "A kernel works in blocks: a block with one allowed pair is computed whole. The mask composed above "
              "({names}) allows {density:.0%} of this text's pairs, but on blocks of b = {b} tokens it touches "
              "{touched} of the {total} blocks ({share:.0%}), and all of them are computed. A token-level pattern "
              "is only as cheap as the blocks it touches, which is why block-sparse kernels choose whole blocks.",
        "zh": "内核按块工作：只要一个块里有一个允许的词元对，整个块都要计算。上面组合出的掩码（{names}）允许这段文本 {density:.0%} 的词元对，"
              "但按 b = {b} 个词元分块时，它碰到了 {total} 个块中的 {touched} 个（{share:.0%}），这些块都要整块计算。词元级的模式省多少，"
              "取决于它碰到多少块；这正是块稀疏内核直接按整块来选的原因。"},
}

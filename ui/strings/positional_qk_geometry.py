"""Strings of the positional-encoding lab's query–key geometry section (ui/views/positional_qk_geometry.py)."""

STRINGS = {
    "pe_sec_geometry": {"en": "Query–key geometry", "zh": "查询–键几何"},
    "pe_g_intro": {
        "en": "A head scores every key against every query by a dot product. Here one head's queries (circles) "
              "and keys (triangles) are drawn in one picture, projected onto the two directions along which "
              "they vary most (PCA): a query tends to sit near the keys it attends to. Lines join the pairs "
              "with the largest attention weights (darker = larger). This follows AttentionViz (Yeh et al., 2023).",
        "zh": "一个头用点积给每个查询与每个键打分。这里把一个头的查询（圆点）和键（三角形）画在同一张图里，"
              "投影到它们变化最大的两个方向上（主成分分析，PCA）：查询往往落在它所关注的键附近。"
              "连线连接注意力权重最大的查询–键对（颜色越深权重越大）。做法参考 AttentionViz（Yeh 等，2023）。"},
    "pe_g_color": {"en": "Colour by", "zh": "着色依据"},
    "pe_g_color_position": {"en": "position", "zh": "位置"},
    "pe_g_color_token": {"en": "token", "zh": "词元"},
    "pe_g_norm": {"en": "Normalise queries and keys", "zh": "归一化查询和键"},
    "pe_g_norm_help": {
        "en": "As AttentionViz does: move all keys by one vector so that their centre is the queries' centre, "
              "and scale queries by c and keys by 1/c so that both have the same mean length. Moving every key "
              "by t adds q·t to all scores of a query alike, and softmax ignores that; scaling by c and 1/c "
              "keeps every q·k. So the attention weights stay exactly the same; only the picture changes.",
        "zh": "与 AttentionViz 的做法相同：把所有键平移同一个向量，使其中心与查询的中心重合；再把查询乘以 c、"
              "键除以 c，使二者平均长度相等。把每个键平移 t，会给某个查询的所有分数加上同一个 q·t，"
              "softmax 对此不敏感；乘 c 与除 c 不改变任何 q·k。因此注意力权重完全不变，变的只是图。"},
    "pe_g_top": {"en": "Lines for the top attention pairs", "zh": "连线数（注意力最大的前 N 对）"},
    "pe_g_top_help": {"en": "The largest attention weights of this head on the main text (masked pairs excluded).",
                      "zh": "该头在主文本上最大的若干注意力权重（不含被掩码的位置对）。"},
    "pe_g_one_title": {"en": "One head up close", "zh": "细看一个头"},
    "pe_g_model": {"en": "Model", "zh": "模型"},
    "pe_g_probes": {"en": "Extra probe texts", "zh": "附加探测文本数"},
    "pe_g_probes_help": {
        "en": "More texts projected together with the main one (drawn faded; toy tasks: more examples of the "
              "task, other models: fixed sample sentences). More points show the head's overall shape.",
        "zh": "与主文本一同投影的其他文本（画得较淡；玩具任务：该任务的更多样例；其他模型：固定的示例句子）。"
              "点越多，越能看出这个头整体的形状。"},
    "pe_g_text": {"en": "Main text: {text} ({n} tokens).", "zh": "主文本：{text}（{n} 个词元）。"},
    "pe_g_fact_rot": {"en": "RoPE: the queries and keys are shown after their rotation, as the dot product uses them.",
                      "zh": "RoPE：显示的是旋转之后的查询和键，即点积实际使用的向量。"},
    "pe_g_fact_plain": {"en": "The queries and keys are the head's projections W_Q x and W_K x.",
                        "zh": "显示的查询和键是该头的投影 W_Q x 与 W_K x。"},
    "pe_g_fact_kv": {"en": "Grouped keys: query head {head} reads key head {kv} ({n} query heads share {nkv} key heads).",
                     "zh": "分组键值：查询头 {head} 读取键/值头 {kv}（{n} 个查询头共享 {nkv} 个键/值头）。"},
    "pe_g_fact_norm": {"en": "Normalised with c = {c:.3g}.", "zh": "已归一化，c = {c:.3g}。"},
    "pe_g_fact_var": {"en": "The two axes carry {pct:.1f}% of the variance of these vectors.",
                      "zh": "两条坐标轴共解释了这些向量 {pct:.1f}% 的方差。"},
    "pe_g_fact_spread": {
        "en": "Same-token spread {x:.3f} (0: every occurrence of a token is the same vector, wherever it stands; "
              "1: as spread out as all the vectors).",
        "zh": "同词元离散度 {x:.3f}（0：同一个词元无论出现在哪个位置，向量都完全相同；1：与全部向量一样分散）。"},
    "pe_g_col_var": {"en": "variance shown (PC1 + PC2)", "zh": "图中展示的方差（主成分 1 + 2）"},
    "pe_g_col_spread": {"en": "same-token spread", "zh": "同词元离散度"},
    "pe_g_table_caption": {
        "en": "Same-token spread is measured in the head's full space, not in the picture: the mean distance of "
              "a repeated token's queries (and keys) to their own centre, over the mean distance of all of them to "
              "the overall centre. In layer 0 it is exactly 0 without PE and with ALiBi or T5 biases (position "
              "is not in q or k); positions added to the input or rotations make it positive.",
        "zh": "同词元离散度在头的完整空间中计算，而不是在图上：重复出现的词元，其查询（以及键）到自身中心的平均距离，"
              "除以所有查询（键）到总中心的平均距离。在第 0 层，无位置编码以及 ALiBi、T5 偏置的模型中它恰好为 0"
              "（位置不在 q 或 k 里）；加到输入上的位置向量或旋转会使它大于 0。"},
    "pe_g_look_rope": {
        "en": "What to look for (RoPE): position enters as a rotation, so the points of successive positions "
              "often trace arcs or spirals, queries and keys turning together.",
        "zh": "观察要点（RoPE）：位置以旋转的方式进入，所以相邻位置的点常常连成弧线或螺旋，查询和键一起转动。"},
    "pe_g_look_sinusoidal": {
        "en": "What to look for (sinusoidal): the position vector is added to the token before W_Q and W_K, so "
              "points often group by position (nearby positions close together) as well as by token.",
        "zh": "观察要点（正弦）：位置向量在 W_Q、W_K 之前加到词元上，所以点常常按位置聚集（相近的位置靠在一起），也按词元聚集。"},
    "pe_g_look_learned": {
        "en": "What to look for (learned): like sinusoidal, a position vector is added before the projections; "
              "the positions the model trained on form its own, less regular, pattern.",
        "zh": "观察要点（可学习）：与正弦编码一样，位置向量在投影之前相加；训练中见过的位置形成模型自己的、不那么规则的图案。"},
    "pe_g_look_none": {
        "en": "What to look for (no PE): the first layer's queries and keys cannot depend on position, so the same "
              "token gives the same point wherever it stands (points collapse onto one per token); later layers "
              "only learn position indirectly, through the causal mask.",
        "zh": "观察要点（无位置编码）：第一层的查询和键不可能依赖位置，同一个词元无论在哪儿都落在同一点"
              "（每个词元的点重合在一起）；更深的层只能通过因果掩码间接得到位置。"},
    "pe_g_look_alibi": {
        "en": "What to look for (ALiBi): position is a bias added to the scores, not part of q or k, so the first "
              "layer's picture is blind to position, like no PE: the same token collapses to one point.",
        "zh": "观察要点（ALiBi）：位置是加在分数上的偏置，不在 q 或 k 里，所以第一层的图像与无位置编码一样看不到位置："
              "同一个词元重合为一点。"},
    "pe_g_look_relative": {
        "en": "What to look for (T5 relative): the learned bias per distance is added to the scores, not to q or k; "
              "the first layer's points collapse per token as without PE.",
        "zh": "观察要点（T5 相对位置）：按距离学习的偏置加在分数上，而不在 q 或 k 里；第一层的点与无位置编码时一样按词元重合。"},
    "pe_g_side_title": {"en": "Side by side: one projection per positional scheme",
                        "zh": "并排比较：每种位置编码一张投影"},
    "pe_g_side_intro": {
        "en": "Checkpoints trained the same way except for their positional encoding, on the same input, same "
              "layer and head. Circles are queries, triangles keys, coloured as above. Each panel has its own PCA, "
              "so compare shapes, not coordinates.",
        "zh": "这些模型除位置编码外训练方式完全相同，输入相同，层和头也相同。每个面板各做一次 PCA，"
              "所以请比较形状，而不是坐标。圆点是查询，三角形是键，颜色含义同上。"},
    "pe_g_set": {"en": "Set of checkpoints", "zh": "模型组"},
    "pe_g_set_pe64": {"en": "character LMs (pe64)", "zh": "字符级语言模型（pe64）"},
    "pe_g_no_sets": {"en": "No set of checkpoints trained once per scheme is installed.",
                     "zh": "没有安装按每种位置编码各训练一次的模型组。"},
    "pe_g_no_head": {"en": "{scheme}: this model has no such layer or head.", "zh": "{scheme}：该模型没有这个层或头。"},
    "pe_g_about": {"en": "How the picture is made", "zh": "这张图是怎么得到的"},
    "pe_g_about_text": {
        "en": "1. Run the model on the text and record the head's queries and keys (for RoPE after the rotation; "
              "with grouped keys, the key head this query head reads).\n"
              "2. Optionally normalise them (see the switch's help): the attention weights do not change.\n"
              "3. Stack queries and keys, subtract their mean and take the two principal components (an SVD in "
              "float64, each direction's sign fixed), so the same input always gives the same picture.\n\n"
              "PCA is linear: each axis is one direction in the head's space, and the percentage says how much "
              "of the spread it shows. Nonlinear maps such as UMAP or t-SNE can separate clusters more, but "
              "their distances have no meaning and change from run to run, so they are not used here.",
        "zh": "1. 在文本上运行模型，记录这个头的查询和键（RoPE 取旋转之后的；分组键值时取该查询头读取的键/值头）。\n"
              "2. 可选地做归一化（见开关的说明）：注意力权重不会改变。\n"
              "3. 把查询和键叠在一起，减去均值，取前两个主成分（float64 的奇异值分解，每个方向的符号固定），"
              "因此同样的输入总是得到同样的图。\n\n"
              "PCA 是线性的：每条坐标轴都是头空间中的一个方向，百分比表示它展示了多少离散程度。"
              "UMAP、t-SNE 等非线性方法能把簇分得更开，但它们的距离没有意义，而且每次运行都会变化，所以这里不用。"},
    # ---- words inside the figure ------------------------------------------------------------
    "pe_g_w_query": {"en": "query", "zh": "查询"},
    "pe_g_w_key": {"en": "key", "zh": "键"},
    "pe_g_w_position": {"en": "position", "zh": "位置"},
    "pe_g_w_token": {"en": "token", "zh": "词元"},
    "pe_g_w_pc": {"en": "PC", "zh": "主成分"},
    "pe_g_w_attention": {"en": "top attention", "zh": "最大注意力"},
    "pe_g_w_probe": {"en": "probe text", "zh": "探测文本"},
}

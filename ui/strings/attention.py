"""Strings of the attention explorer (heads, lines, metrics, rollout, export)."""

STRINGS = {
    "attn_title": {"en": "Attention explorer", "zh": "注意力探查器"},
    "view_heads": {"en": "Heads", "zh": "注意力头"},
    "view_lines": {"en": "Lines", "zh": "连线"},
    "view_metrics": {"en": "Head metrics", "zh": "头指标"},
    "view_rollout": {"en": "Rollout", "zh": "注意力展开"},
    "view_compare": {"en": "Compare A/B", "zh": "对比 A/B"},
    "view_instant": {"en": "Instant (in browser)", "zh": "即时（浏览器内）"},
    "instant_heading": {"en": "Layer {layer}, head {head}", "zh": "第 {layer} 层，第 {head} 个头"},
    "instant_preview": {"en": "(preview)", "zh": "（预览）"},
    "instant_hint": {"en": "Click the viewer, then ← → change head, ↑ ↓ change layer; hover a tile to preview it, "
                           "click to select (Shift+click adds it to the lines); click a cell to pin its values, "
                           "click again or Esc to unpin; drag to zoom, Shift+drag to pan, wheel to zoom, 0 resets.",
                     "zh": "先点击查看器，再用 ← → 切换头、↑ ↓ 切换层；悬停小图可预览，点击选中（Shift+点击加入连线图）；"
                           "点击单元格固定数值，再次点击或按 Esc 取消；拖动放大，Shift+拖动平移，滚轮缩放，按 0 还原。"},
    "instant_query": {"en": "query", "zh": "查询"},
    "instant_key": {"en": "key", "zh": "键"},
    "instant_weight": {"en": "weight", "zh": "权重"},
    "instant_masked": {"en": "masked", "zh": "被掩码"},
    "instant_pinned": {"en": "pinned: click the map or press Esc to unpin", "zh": "已固定：点击热力图或按 Esc 取消"},
    "instant_reset": {"en": "Reset zoom", "zh": "还原缩放"},
    "instant_grid": {"en": "All heads (rows: layers, columns: heads)", "zh": "全部注意力头（行 = 层，列 = 头）"},
    "instant_map": {"en": "One head", "zh": "单个头"},
    "instant_lines": {"en": "Lines (query → key)", "zh": "连线（查询 → 键）"},
    "instant_lines_too_many": {"en": "Zoom the map to at most {max} tokens to draw lines ({n} shown).",
                               "zh": "请把热力图放大到不超过 {max} 个词元再画连线（当前 {n} 个）。"},
    "instant_scale": {"en": "colour: 0 … {max} (this head's largest weight)",
                      "zh": "颜色：0 … {max}（该头的最大权重）"},
    "instant_error": {"en": "±{err} (uint8 per head)", "zh": "±{err}（每个头 uint8 量化）"},
    "instant_loading": {"en": "Decoding…", "zh": "正在加载……"},
    "instant_zoom": {"en": "queries {qa}–{qb}, keys {ka}–{kb}", "zh": "查询 {qa}–{qb}，键 {ka}–{kb}"},
    "instant_caption": {
        "en": "Drawn in your browser from all {heads} heads sent once ({kb} KB, uint8 per cell with one scale per "
              "head: a shown weight is within ±scale/510 of the model's). The layer and head sliders follow the "
              "viewer, and so does the link.",
        "zh": "全部 {heads} 个头只发送一次（{kb} KB，每个单元 uint8、每个头一个缩放系数：显示的权重与模型的值相差不超过 "
              "±缩放系数/510），在浏览器中绘制。层和头的滑块以及链接都会跟随查看器。"},
    "instant_live_box": {"en": "Your text: every head is recomputed in this browser as you type",
                         "zh": "你的文本：输入时，每个头都在本浏览器中重新计算"},
    "instant_live_status": {"en": "{n} tokens · computed in this browser in {ms} ms",
                            "zh": "{n} 个词元 · 本浏览器计算用时 {ms} 毫秒"},
    "instant_live_server": {"en": "{n} tokens · drawn from the server's pass; type to recompute here",
                            "zh": "{n} 个词元 · 来自服务器的计算；输入文字即在本机重新计算"},
    "instant_live_truncated": {"en": "The model read the first {kept} of {n} tokens.",
                               "zh": "模型只读取了 {n} 个词元中的前 {kept} 个。"},
    "instant_live_empty": {"en": "Type some text to see its attention.", "zh": "请输入文字以查看注意力。"},
    "instant_live_use": {"en": "Use this text on every page", "zh": "在所有页面使用这段文本"},
    "instant_live_waiting": {"en": "Loading the model into this browser…", "zh": "正在把模型载入本浏览器……"},
    "instant_live_exact": {
        "en": "Typing in the box costs the server nothing: the model ({mb} MB, its exact weights) runs in this "
              "browser, and its attention equals the server's to within 1e-4.",
        "zh": "在框中输入不占用服务器：模型（{mb} MB，原样权重）在本浏览器中运行，其注意力与服务器计算的结果相差不超过 1e-4。"},
    "instant_live_float16": {
        "en": "Typing in the box costs the server nothing: the model ({mb} MB, weights rounded to float16) runs in "
              "this browser; its attention weights stay within 0.015 of the server's.",
        "zh": "在框中输入不占用服务器：模型（{mb} MB，权重舍入为 float16）在本浏览器中运行，其注意力权重与服务器的结果相差不超过 0.015。"},
    "instant_live_ask": {"en": "Recompute in this browser as I type (downloads the model once: {mb} MB)",
                         "zh": "输入时在本浏览器中重新计算（模型只下载一次：{mb} MB）"},
    "instant_live_none": {
        "en": "New text for this model goes through the server: its architecture or its tokenizer is outside what "
              "the browser pass computes.",
        "zh": "这个模型的新文本要交给服务器计算：它的结构或分词器超出了浏览器前向计算支持的范围。"},
    "instant_selected": {"en": "Selected in the viewer: layer {layer}, head {head}{query}.",
                         "zh": "查看器中选中：第 {layer} 层，第 {head} 个头{query}。"},
    "instant_selected_query": {"en": ", query {q} ({tok})", "zh": "，查询 {q}（{tok}）"},
    "export_html": {"en": "All heads as one HTML file", "zh": "全部注意力头（单个 HTML 文件）"},
    "export_live": {"en": "All heads, live: the model inside the file ({mb} MB)",
                    "zh": "全部注意力头（可交互：模型嵌入文件，{mb} MB）"},
    "export_live_help": {"en": "One HTML file with the model in it: open it from disk with no network, type any text, "
                              "and every head is recomputed on your machine.",
                         "zh": "一个内含模型的 HTML 文件：无需网络，直接从磁盘打开，输入任意文本，每个头都在你的电脑上重新计算。"},
    "export_live_small": {"en": "Smaller live file, int8 weights (about {mb} MB)",
                          "zh": "更小的可交互文件，int8 权重（约 {mb} MB）"},
    "export_live_small_help": {
        "en": "The same live file with every weight matrix rounded to 8 bits per value (one scale per row): a "
              "quarter of float32's size. The attention it draws stays within 0.25 of the model's (at most 0.13 "
              "in our tests).",
        "zh": "同样的可交互文件，但每个权重矩阵都舍入为每个值 8 位（每行一个缩放系数）：大小只有 float32 的四分之一。它画出的"
              "注意力与模型的结果相差不超过 0.25（我们的测试中最多 0.13）。"},
    "export_live_note": {"en": "Glassbox: type in the box and the model in this file recomputes every layer and head "
                               "on your machine. Opens from disk, no network.",
                         "zh": "Glassbox：在框中输入文字，本文件中的模型会在你的电脑上重新计算每一层、每个头。可直接从磁盘打开，无需网络。"},
    "export_html_note": {"en": "Glassbox: every layer and head of this text. Opens from disk, no network.",
                         "zh": "Glassbox：这段文本的全部层与头。可直接从磁盘打开，无需网络。"},
    "view_export": {"en": "Export", "zh": "导出"},
    "stack": {"en": "Attention", "zh": "注意力类型"},
    "combine": {"en": "Show", "zh": "显示"},
    "model_view_title": {"en": "All heads: rows = layers, columns = heads (click one)",
                         "zh": "全部注意力头：行 = 层，列 = 头（点击选择）"},
    "model_view_caption": {
        "en": "Each small map is one head's attention pattern (query rows × key columns), scaled to its own "
              "maximum. Bright diagonals look at the token itself, vertical stripes at one token such as [CLS] "
              "or [SEP].",
        "zh": "每个小图是一个头的注意力模式（行 = 查询，列 = 键），按自身最大值着色。亮的对角线表示关注自身，"
              "竖条表示所有词元都看向同一个词元（如 [CLS] 或 [SEP]）。"},
    "head_title": {"en": "Layer {layer}, {what}", "zh": "第 {layer} 层，{what}"},
    "click_cell": {"en": "Click the dot beside a query token (left of the map; on large maps, any row) to see "
                         "where that query looks.",
                   "zh": "点击查询词元旁边的圆点（热力图左侧；大图中点击任意一行），查看该查询关注哪里。"},
    "detail_title": {"en": "Query {pos}: {tok}", "zh": "查询 {pos}：{tok}"},
    "detail_topk": {"en": "Top {k} keys", "zh": "权重最高的 {k} 个键"},
    "col_rank": {"en": "rank", "zh": "排名"},
    "col_key": {"en": "key", "zh": "键"},
    "col_pos": {"en": "position", "zh": "位置"},
    "col_weight": {"en": "weight", "zh": "权重"},
    "detail_sum": {"en": "The row sums to {s:.6f}; {masked} keys are masked (weight exactly 0).",
                   "zh": "这一行的和为 {s:.6f}；有 {masked} 个键被掩码（权重恰好为 0）。"},
    "lines_heads": {"en": "Heads to draw", "zh": "要绘制的头"},
    "lines_query": {"en": "Only lines from query", "zh": "只显示该查询的连线"},
    "lines_all": {"en": "all queries", "zh": "全部查询"},
    "lines_too_long": {"en": "The line view draws up to {max} tokens; this text has {n}. Use the heatmap instead, "
                             "or shorten the text.",
                       "zh": "连线视图最多绘制 {max} 个词元；这段文本有 {n} 个。请改用热力图或缩短文本。"},
    "metric": {"en": "Metric", "zh": "指标"},
    "metric_entropy": {"en": "entropy (nats)", "zh": "熵（奈特）"},
    "metric_mean_distance": {"en": "mean attention distance", "zh": "平均注意力距离"},
    "metric_attn_to_first": {"en": "attention to first token", "zh": "对第一个词元的注意力"},
    "metric_attn_to_last": {"en": "attention to last token", "zh": "对最后一个词元的注意力"},
    "metric_sparsity": {"en": "sparsity", "zh": "稀疏度"},
    "metrics_click": {"en": "Select a row (or click a cell of the chart) to open that head.",
                      "zh": "选择表格中的一行（或点击图中的格子）以打开该头。"},
    "rollout_layer": {"en": "Rollout up to layer", "zh": "展开到第几层"},
    "rollout_not_self": {"en": "Rollout follows one sequence through its own layers; it is not defined for "
                               "cross-attention.",
                         "zh": "注意力展开沿着同一序列的各层进行，交叉注意力没有定义。"},
    "export_matrix": {"en": "Download this matrix (CSV)", "zh": "下载当前矩阵（CSV）"},
    "export_trace": {"en": "Download the whole trace (NPZ)", "zh": "下载完整记录（NPZ）"},
    "export_config": {"en": "Download the config (JSON)", "zh": "下载配置（JSON）"},
    "export_png": {"en": "PNG: use the camera icon in each chart's toolbar.",
                   "zh": "PNG：点击图表工具栏中的相机图标。"},
    "export_caption": {"en": "The trace holds every recorded tensor ({n} tensors) under its hook name, plus the "
                             "tokens and the config. Load it with `numpy.load` or `models.Trace.load_npz`.",
                       "zh": "完整记录包含每个记录下来的张量（共 {n} 个，以钩子名命名），以及词元和配置。"
                             "可用 `numpy.load` 或 `models.Trace.load_npz` 读取。"},
    # ---- memory of the trace (export view) ---------------------------------------------------
    "mem_caption": {
        "en": "Memory of this trace: {trace} MB held ({n} tokens, {kinds}). Attention maps = layers × heads × n² × "
              "bytes = {formula} per stack; the server's budget per pass is {budget} MB.",
        "zh": "本次记录占用内存：{trace} MB（{n} 个词元，{kinds}）。注意力图 = 层数 × 头数 × n² × 每个值的字节数 = "
              "{formula}（编码器、解码器和交叉注意力各算一次）；服务器对每次前向计算的内存预算为 {budget} MB。",
    },
    "mem_kinds_attention": {"en": "attention maps and masks only, float32",
                            "zh": "只记录注意力图和掩码，float32"},
    # ---- explanations (markdown; formulas separately) ----------------------------------------
    "ex_attention": {
        "en": "Each token asks a question (its **query** q), every token offers a label (its **key** k) and a "
              "message (its **value** v). The match q·k is divided by √d_k and goes through a softmax: each row "
              "of the map is a probability distribution over the keys, and the token's output is the weighted "
              "average of the values. Why √d_k: q·k sums d_k products, so for unit-variance components its "
              "variance is d_k; dividing by √d_k brings it back to 1, which keeps the softmax out of saturation "
              "(one weight near 1, the rest near 0, and gradients near 0). The walk-through page measures it.",
        "zh": "每个词元提出一个问题（**查询** q），每个词元给出一个标签（**键** k）和一条信息（**值** v）。"
              "匹配度 q·k 除以 √d_k 后经过 softmax：注意力图的每一行都是键上的概率分布，词元的输出就是各个值的加权平均。"
              "为什么除以 √d_k：q·k 是 d_k 个乘积之和，各分量方差为 1 时它的方差是 d_k；除以 √d_k 后方差回到 1，"
              "softmax 就不会饱和（饱和时一个权重接近 1、其余接近 0，梯度也接近 0）。逐步演算页面会实际测量这一点。"},
    "ex_multihead": {
        "en": "A layer has several **heads**, each with its own projections, so each can look for something "
              "different. Their outputs are concatenated and mixed by W^O. In grouped-query (GQA) and multi-query "
              "(MQA) attention several query heads share one key/value head.",
        "zh": "每层有多个**注意力头**，各自有独立的投影矩阵，因此可以关注不同的东西。各头的输出拼接后由 W^O 混合。"
              "在分组查询注意力（GQA）和多查询注意力（MQA）中，多个查询头共享同一个键/值头。"},
    "ex_mask": {
        "en": "A **mask** removes pairs the model may not use (future tokens in a decoder, padding, sparse "
              "patterns): their score becomes −∞ before the softmax, so their weight is exactly 0, shown grey.",
        "zh": "**掩码**去掉模型不能使用的位置对（解码器中的未来词元、填充、稀疏模式）：它们的分数在 softmax 前被设为 −∞，"
              "因此权重恰好为 0，图中显示为灰色。"},
    "ex_metrics": {
        "en": "**Entropy** is low when a head focuses on few keys and high (up to ln n) when it spreads evenly. "
              "**Mean attention distance** is how far, in tokens, a head looks on average. **Attention to the "
              "first / last token** measures \"sink\" heads that park their attention on [CLS] or [SEP]. "
              "**Sparsity** is the share of keys a head does not need to reach 90 % of its weight.",
        "zh": "**熵**：头只关注少数几个键时熵低，均匀分散时熵高（最大为 ln n）。**平均注意力距离**：头平均看向多远的词元。"
              "**对第一个/最后一个词元的注意力**：衡量把注意力“停放”在 [CLS] 或 [SEP] 上的“汇聚”头。"
              "**稀疏度**：把键按权重从大到小累加，达到 90% 的权重之后，剩下用不到的键所占的比例。"},
    "ex_rollout": {
        "en": "**Attention rollout** (Abnar & Zuidema, 2020) multiplies the layers' head-averaged maps, each "
              "mixed half-and-half with the identity for the residual connection, to estimate how much each "
              "input token contributes to each position after a given layer.",
        "zh": "**注意力展开**（Abnar 和 Zuidema，2020）把各层按头平均后的注意力图相乘，每层先与单位矩阵各占一半混合"
              "（代表残差连接），用来估计经过某一层后每个输入词元对每个位置的贡献。"},
    "ex_lines": {
        "en": "Each line joins a query (left) to a key (right); its opacity is the attention weight. Several heads "
              "are drawn in different colours.",
        "zh": "每条线连接左侧的查询和右侧的键，线的不透明度就是注意力权重。多个头用不同颜色绘制。"},
    "ex_rows_sum": {"en": "Every row sums to 1:", "zh": "每一行的和为 1："},
    # ---- notes: what the course notes say, and what this page computes (issue 36, item 8) ----
    "at_mis_heads_common": {
        "en": "“Multi-head attention is there to raise parallelism” (and “in some sense it prevents over-fitting”).",
        "zh": "“多头注意力是为了提高并行度”（以及“在某种意义上防止过拟合”）。"},
    "at_mis_heads_shown": {
        "en": "The paper's reason is different representation subspaces: each head has its own projections, so each "
              "can look for something else. On this text, the {h} heads of one layer pick on average {u:.1f} "
              "different strongest keys for the same query. Heads add no parallelism and no parameters: {h} heads of "
              "width {dh} have the same 3·d² = {multi:,} Q/K/V weights as one head of width d = {d} ({single:,}), "
              "and one wide matrix product is just as parallel. Nothing in the paper says they prevent over-fitting.",
        "zh": "论文给出的理由是不同的表示子空间：每个头有自己的投影，因此可以关注不同的东西。在这段文本上，同一层的 {h} 个头对"
              "同一个查询平均选出 {u:.1f} 个不同的最强键。多头既不增加并行度，也不增加参数：{h} 个宽度为 {dh} 的头与一个宽度为 "
              "d = {d} 的头有同样多的 Q/K/V 权重，3·d² = {multi:,}（单头 {single:,}），而一个宽的矩阵乘法同样可以并行。"
              "论文中也没有说多头能防止过拟合。"},
    "at_mis_pair_common": {"en": "“Attention's output is y_i = Σ w_i·x_i”, one weight per input token.",
                           "zh": "“注意力的输出是 y_i = Σ w_i·x_i”，每个输入词元一个权重。"},
    "at_mis_pair_shown": {
        "en": "The weight belongs to a pair, query i and key j: y_i = Σ_j w_ij·v_j, with a row of weights for every "
              "query. In layer 0, head 0, the rows of query 0 and query {q} differ by up to {diff:.3f}, and "
              "each row sums to 1 over the keys.",
        "zh": "权重属于一个位置对，即查询 i 和键 j：y_i = Σ_j w_ij·v_j，每个查询都有自己的一行权重。在第 0 层第 0 个头中，"
              "查询 0 与查询 {q} 的权重行最多相差 {diff:.3f}，而且每一行对所有键求和都等于 1。"},
    "at_mis_dv_common": {"en": "“Q, K and V must all have the same width, d_q = d_k = d_v.”",
                         "zh": "“Q、K、V 的宽度必须相同，d_q = d_k = d_v。”"},
    "at_mis_dv_shown": {
        "en": "Only q and k meet in a dot product, so only d_q = d_k is required. The weights of a head are a "
              "{nq} × {nk} matrix here (queries × keys), and they multiply V's rows whatever V's width: d_v sets only "
              "the width of the output. This model uses d_v = d_k = {dk}, a choice (the paper's too), not a rule.",
        "zh": "只有 q 和 k 要做点积，所以只要求 d_q = d_k。这里一个头的权重是 {nq} × {nk} 的矩阵（查询 × 键），它与 V 的各行相乘，"
              "无论 V 有多宽：d_v 只决定输出的宽度。这个模型使用 d_v = d_k = {dk}，这是一种选择（论文也是这样选的），而不是规定。"},
}

FORMULAS = {
    "attention": r"\mathrm{Attention}(Q,K,V)=\mathrm{softmax}\!\left(\frac{QK^\top}{\sqrt{d_k}}+B\right)V",
    "multihead": r"\mathrm{MultiHead}(X)=\mathrm{Concat}(\mathrm{head}_1,\dots,\mathrm{head}_h)\,W^O,\quad "
                 r"\mathrm{head}_i=\mathrm{Attention}(XW_i^Q,\,XW_i^K,\,XW_i^V)",
    "mask": r"s_{qk}=\begin{cases}\dfrac{q\cdot k}{\sqrt{d_k}} & \text{allowed}\\[4pt] -\infty & \text{masked}"
            r"\end{cases}\quad\Rightarrow\quad p_{qk}=\frac{e^{s_{qk}}}{\sum_{k'}e^{s_{qk'}}}",
    "mask_zh": r"s_{qk}=\begin{cases}\dfrac{q\cdot k}{\sqrt{d_k}} & \text{允许}\\[4pt] -\infty & \text{被掩码}"
               r"\end{cases}\quad\Rightarrow\quad p_{qk}=\frac{e^{s_{qk}}}{\sum_{k'}e^{s_{qk'}}}",
    "rows": r"\sum_k p_{qk}=1",
    "entropy": r"H_q=-\sum_k p_{qk}\ln p_{qk},\qquad D_q=\sum_k p_{qk}\,|q-k|",
    "rollout": r"\tilde A_\ell=\tfrac12\bar A_\ell+\tfrac12 I,\qquad R_\ell=\tilde A_\ell\,R_{\ell-1},\quad R_0=I",
}

"""Every string the UI shows, in English and Chinese. Formulas are LaTeX (st.latex).

`t(key, **fmt)` looks a string up in the current language (the sidebar's bound
`lang` widget), falling back to English. Keys are grouped by page.
"""
from __future__ import annotations

import streamlit as st

# the language widget's options: fixed labels (they are what the URL stores)
LANGUAGES = {"English": "en", "中文": "zh"}

STRINGS: dict[str, dict[str, str]] = {
    # ---- shell ------------------------------------------------------------------------
    "app_title": {"en": "Glassbox", "zh": "Glassbox 玻璃盒"},
    "tagline": {"en": "Look inside a Transformer while it reads your text.",
                "zh": "看一个 Transformer 如何阅读你的文字。"},
    "language": {"en": "Language", "zh": "语言"},
    "model": {"en": "Model", "zh": "模型"},
    "text": {"en": "Your text", "zh": "输入文本"},
    "text_help": {"en": "Press Ctrl+Enter (or click outside) to run the model on it.",
                  "zh": "按 Ctrl+Enter（或点击别处）运行模型。"},
    "target_text": {"en": "Decoder input (target)", "zh": "解码器输入（目标序列）"},
    "target_help": {"en": "Encoder-decoder models read the source with the encoder and this text with the decoder. "
                          "Empty = the same as the source.",
                    "zh": "编码器-解码器模型用编码器读源文本，用解码器读这段文本。留空则与源文本相同。"},
    "device": {"en": "Device", "zh": "设备"},
    "example_text": {"en": "The students watched the model read their sentence, and every head chose where to look.",
                     "zh": "The students watched the model read their sentence, and every head chose where to look."},
    "loading_torch": {"en": "Starting PyTorch…", "zh": "正在启动 PyTorch…"},
    "loading_model": {"en": "Loading {model}…", "zh": "正在加载 {model}…"},
    "loaded_model": {"en": "{model} ready", "zh": "{model} 已就绪"},
    "empty_text": {"en": "Type a sentence in the sidebar to see how the model reads it.",
                   "zh": "请在侧边栏输入一句话，看看模型如何阅读它。"},
    "truncated": {"en": "Your text has {n} tokens; this view shows the first {kept} (the model's limit).",
                  "zh": "文本共有 {n} 个词元；此处只显示前 {kept} 个（模型的上限）。"},
    "url_invalid": {"en": "The link's {param}={value} is not valid here; using the default instead.",
                    "zh": "链接中的 {param}={value} 在此无效，已改用默认值。"},
    "url_adjusted": {"en": "The link's {param}={value} was adjusted to {now}.",
                     "zh": "链接中的 {param}={value} 已调整为 {now}。"},
    "model_unavailable": {"en": "Not available on this machine", "zh": "本机不可用"},
    "random_weights": {"en": "random weights: patterns show the architecture, not learned behaviour",
                       "zh": "随机权重：图案反映结构，而非学到的行为"},
    "load_failed": {"en": "Could not load {model}: {error}", "zh": "无法加载 {model}：{error}"},
    "run_failed": {"en": "The model could not read this text: {error}", "zh": "模型无法处理这段文本：{error}"},
    "many_unk": {"en": "{pct:.0%} of the tokens are unknown to this model's vocabulary ([UNK]).",
                 "zh": "{pct:.0%} 的词元不在该模型的词表中（[UNK]）。"},
    "nav_home": {"en": "Overview", "zh": "概览"},
    "nav_attention": {"en": "Attention", "zh": "注意力"},
    # ---- home ---------------------------------------------------------------------------
    "home_intro": {
        "en": "Glassbox runs a real Transformer on your text and records every intermediate value: "
              "queries, keys and values, attention maps, masks, feed-forward activations and the residual "
              "stream. The numbers are those of the real model (tested against Hugging Face transformers).",
        "zh": "Glassbox 在你的文本上运行一个真实的 Transformer，并记录每一个中间量：查询、键、值、注意力图、掩码、"
              "前馈网络激活以及残差流。显示的数字就是真实模型的数字（已与 Hugging Face transformers 对比测试）。"},
    "home_tokens": {"en": "How the model splits your text", "zh": "模型如何切分你的文本"},
    "home_tokens_caption": {"en": "{n} tokens. Each token becomes one row and one column of every attention map.",
                            "zh": "共 {n} 个词元。每个词元对应注意力图中的一行和一列。"},
    "home_model": {"en": "The model", "zh": "当前模型"},
    "home_pipeline": {"en": "What happens inside", "zh": "内部发生了什么"},
    "home_pipeline_text": {
        "en": "1. The tokenizer turns text into ids; each id looks up a vector (the embedding), and position "
              "information is added (or injected into attention).\n"
              "2. Each layer lets every token gather information from the others with attention, then "
              "transforms each token on its own with a feed-forward network. Both add their result to the "
              "residual stream.\n"
              "3. The last layer's vectors are the model's reading of your text.",
        "zh": "1. 分词器把文本变成编号；每个编号查表得到一个向量（嵌入），再加入位置信息（或在注意力中注入位置）。\n"
              "2. 每一层先用注意力让每个词元从其他词元收集信息，再用前馈网络逐个变换每个词元；两者的结果都加回残差流。\n"
              "3. 最后一层的向量就是模型对你这段文本的理解。"},
    "home_open_attention": {"en": "Open the attention explorer", "zh": "打开注意力浏览器"},
    "home_catalogue": {"en": "Models on this machine", "zh": "本机可用的模型"},
    "cfg_arch": {"en": "Architecture", "zh": "结构"},
    "cfg_layers_heads": {"en": "Layers × heads", "zh": "层数 × 头数"},
    "cfg_params": {"en": "Parameters", "zh": "参数量"},
    "cfg_positional": {"en": "Positions", "zh": "位置编码"},
    "cfg_norm": {"en": "Normalisation", "zh": "归一化"},
    "cfg_ffn": {"en": "Feed-forward", "zh": "前馈网络"},
    "cfg_attention": {"en": "Attention", "zh": "注意力"},
    "kind_pretrained": {"en": "pretrained", "zh": "预训练"},
    "kind_toy": {"en": "trained toy", "zh": "训练好的小模型"},
    "kind_custom": {"en": "build your own", "zh": "自定义结构"},
    "kind_folder": {"en": "local folder", "zh": "本地文件夹"},
    "arch_encoder": {"en": "encoder", "zh": "编码器"},
    "arch_decoder": {"en": "decoder", "zh": "解码器"},
    "arch_encoder-decoder": {"en": "encoder-decoder", "zh": "编码器-解码器"},
    "pos_none": {"en": "none", "zh": "无"},
    "pos_sinusoidal": {"en": "sinusoidal", "zh": "正弦位置编码"},
    "pos_learned": {"en": "learned", "zh": "可学习位置编码"},
    "pos_rope": {"en": "RoPE (rotary)", "zh": "RoPE（旋转位置编码）"},
    "pos_alibi": {"en": "ALiBi (linear bias)", "zh": "ALiBi（线性偏置）"},
    "pos_relative": {"en": "T5 relative buckets", "zh": "T5 相对位置分桶"},
    "norm_pre": {"en": "pre-norm", "zh": "前置归一化"},
    "norm_post": {"en": "post-norm", "zh": "后置归一化"},
    "desc_minilm": {"en": "all-MiniLM-L6-v2: real pretrained BERT weights, bundled, offline",
                    "zh": "all-MiniLM-L6-v2：真实的预训练 BERT 权重，随软件附带，离线可用"},
    "desc_custom:gpt": {"en": "causal, learned positions, pre-LayerNorm, GELU (random weights)",
                        "zh": "因果注意力、可学习位置编码、前置 LayerNorm、GELU（随机权重）"},
    "desc_custom:bert": {"en": "bidirectional, learned positions, post-LayerNorm, GELU (random weights)",
                         "zh": "双向注意力、可学习位置编码、后置 LayerNorm、GELU（随机权重）"},
    "desc_custom:llama": {"en": "RoPE, RMSNorm, SwiGLU, grouped-query attention (4 query / 2 kv heads) (random weights)",
                          "zh": "RoPE、RMSNorm、SwiGLU、分组查询注意力（4 个查询头 / 2 个键值头）（随机权重）"},
    "desc_custom:transformer": {"en": "encoder-decoder, sinusoidal positions, post-LayerNorm, ReLU (random weights)",
                                "zh": "编码器-解码器、正弦位置编码、后置 LayerNorm、ReLU（随机权重）"},
    "desc_custom:t5": {"en": "relative position buckets, RMSNorm, pre-norm, ReLU (random weights)",
                       "zh": "相对位置分桶、RMSNorm、前置归一化、ReLU（随机权重）"},
    "desc_custom:alibi": {"en": "no position vectors: a linear distance penalty per head (random weights)",
                          "zh": "没有位置向量：每个头对距离施加线性惩罚（随机权重）"},
    "desc_custom:longformer": {"en": "sliding window of 2 plus a global first token (random weights)",
                               "zh": "宽度为 2 的滑动窗口，加上一个全局的首词元（随机权重）"},
    "col_model": {"en": "model", "zh": "模型"},
    "col_kind": {"en": "kind", "zh": "类型"},
    "col_available": {"en": "available", "zh": "可用"},
    "col_details": {"en": "details", "zh": "说明"},
    # ---- attention page -------------------------------------------------------------------
    "attn_title": {"en": "Attention explorer", "zh": "注意力浏览器"},
    "view": {"en": "View", "zh": "视图"},
    "view_heads": {"en": "Heads", "zh": "注意力头"},
    "view_lines": {"en": "Lines", "zh": "连线"},
    "view_metrics": {"en": "Head metrics", "zh": "头指标"},
    "view_rollout": {"en": "Rollout", "zh": "注意力展开"},
    "view_export": {"en": "Export", "zh": "导出"},
    "stack": {"en": "Attention", "zh": "注意力类型"},
    "stack_self": {"en": "Self-attention", "zh": "自注意力"},
    "stack_encoder": {"en": "Encoder self", "zh": "编码器自注意力"},
    "stack_decoder": {"en": "Decoder self", "zh": "解码器自注意力"},
    "stack_cross": {"en": "Cross (decoder → encoder)", "zh": "交叉注意力（解码器→编码器）"},
    "layer": {"en": "Layer", "zh": "层"},
    "head": {"en": "Head", "zh": "头"},
    "combine": {"en": "Show", "zh": "显示"},
    "combine_one": {"en": "one head", "zh": "单个头"},
    "combine_mean": {"en": "mean of heads", "zh": "所有头的平均"},
    "combine_max": {"en": "max of heads", "zh": "所有头的最大值"},
    "model_view_title": {"en": "All heads: rows = layers, columns = heads (click one)",
                         "zh": "全部注意力头：行 = 层，列 = 头（点击选择）"},
    "model_view_caption": {
        "en": "Each small map is one head's attention pattern (query rows × key columns), scaled to its own "
              "maximum. Bright diagonals look at the token itself, vertical stripes at one token such as [CLS] "
              "or [SEP].",
        "zh": "每个小图是一个头的注意力模式（行 = 查询，列 = 键），按自身最大值着色。亮的对角线表示关注自身，"
              "竖条表示所有词元都看向同一个词元（如 [CLS] 或 [SEP]）。"},
    "head_title": {"en": "Layer {layer}, {what}", "zh": "第 {layer} 层，{what}"},
    "head_what": {"en": "head {head}", "zh": "第 {head} 个头"},
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
                             "tokens and the config. Load it with numpy.load or models.Trace.load_npz.",
                       "zh": "完整记录包含每个记录下来的张量（共 {n} 个，以钩子名命名），以及词元和配置。"
                             "可用 numpy.load 或 models.Trace.load_npz 读取。"},
    "explain": {"en": "What am I looking at?", "zh": "这是什么？"},
    "term_query": {"en": "query", "zh": "查询"},
    "term_key": {"en": "key", "zh": "键"},
    "term_masked": {"en": "masked", "zh": "已掩码"},
    "term_layer": {"en": "layer", "zh": "层"},
    "term_head": {"en": "head", "zh": "头"},
    "term_weight": {"en": "attention weight", "zh": "注意力权重"},
    # ---- explanations (markdown; formulas separately) ------------------------------------------
    "ex_attention": {
        "en": "Each token asks a question (its **query** q), every token offers a label (its **key** k) and a "
              "message (its **value** v). The match q·k, scaled by √d_k, goes through a softmax: each row of the "
              "map is a probability distribution over the keys, and the token's output is the weighted average "
              "of the values.",
        "zh": "每个词元提出一个问题（**查询** q），每个词元给出一个标签（**键** k）和一条信息（**值** v）。"
              "匹配度 q·k 除以 √d_k 后经过 softmax：注意力图的每一行都是键上的概率分布，词元的输出就是各个值的加权平均。"},
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
              "**稀疏度**：达到 90% 权重所不需要的键所占的比例。"},
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
}


def lang() -> str:
    """Current language code ('en' or 'zh'), from the sidebar's bound widget."""
    return LANGUAGES.get(st.session_state.get("lang", "English"), "en")


def t(key: str, **fmt: object) -> str:
    """The string `key` in the current language, formatted with `fmt`."""
    entry = STRINGS[key]
    text = entry.get(lang()) or entry["en"]
    return text.format(**fmt) if fmt else text


FORMULAS = {
    "attention": r"\mathrm{Attention}(Q,K,V)=\mathrm{softmax}\!\left(\frac{QK^\top}{\sqrt{d_k}}+B\right)V",
    "multihead": r"\mathrm{MultiHead}(X)=\mathrm{Concat}(\mathrm{head}_1,\dots,\mathrm{head}_h)\,W^O,\quad "
                 r"\mathrm{head}_i=\mathrm{Attention}(XW_i^Q,\,XW_i^K,\,XW_i^V)",
    "mask": r"s_{qk}=\begin{cases}\dfrac{q\cdot k}{\sqrt{d_k}} & \text{allowed}\\[4pt] -\infty & \text{masked}"
            r"\end{cases}\quad\Rightarrow\quad p_{qk}=\frac{e^{s_{qk}}}{\sum_{k'}e^{s_{qk'}}}",
    "rows": r"\sum_k p_{qk}=1",
    "entropy": r"H_q=-\sum_k p_{qk}\ln p_{qk},\qquad D_q=\sum_k p_{qk}\,|q-k|",
    "rollout": r"\tilde A_\ell=\tfrac12\bar A_\ell+\tfrac12 I,\qquad R_\ell=\tilde A_\ell\,R_{\ell-1},\quad R_0=I",
}


def _merge_page_strings() -> None:
    """Add the STRINGS and FORMULAS of every module in ui/strings/ (see its __init__)."""
    import importlib
    import pkgutil

    from . import strings

    for info in sorted(pkgutil.iter_modules(strings.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{strings.__name__}.{info.name}")
        for mine, theirs in ((STRINGS, getattr(module, "STRINGS", {})), (FORMULAS, getattr(module, "FORMULAS", {}))):
            twice = sorted(set(mine) & set(theirs))
            if twice:
                raise RuntimeError(f"ui/strings/{info.name}.py redefines {', '.join(twice)}")
            mine.update(theirs)


_merge_page_strings()

"""The Chinese UI's glossary: one Chinese term per concept, and the variants no Chinese string may use.

This module is the single source: docs/glossary.md is generated from it
(`python -m ui.glossary > docs/glossary.md`), and tests/unit/test_glossary.py checks that the
file is up to date and that no Chinese UI string (ui/strings/*.py, lessons/*.toml) uses a
variant listed in `avoid`. Terms follow mainland usage (动手学深度学习 / d2l.ai, common Chinese
ML writing); where the app keeps an English name (RoPE, softmax, logit, Pre-LN) that is the term.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Term:
    """One concept: its English name, the Chinese term the app uses, and the variants to avoid."""

    en: str
    zh: str
    avoid: tuple[str, ...] = ()     # case-sensitive substrings no Chinese string may contain ...
    unless: tuple[str, ...] = ()    # ... except inside one of these longer phrases
    note: str = ""


TERMS: tuple[Term, ...] = (
    # ---- text and tokens
    Term("token", "词元", ("令牌",), ("访问令牌", "令牌（HF_TOKEN）"),
         "d2l's term. An access token (HF_TOKEN) is 访问令牌."),
    Term("special token ([CLS], [SEP], <eos>)", "特殊词元", ("特殊标记",)),
    Term("token vector", "词元向量", ("词向量",), (), "词向量 means word vectors (word2vec)."),
    Term("token id", "词元 id", ("词元编号",), (), "编号 stays for layer or neuron numbers."),
    Term("tokenizer", "分词器"),
    Term("vocabulary", "词表"),
    Term("unknown token", "未知词元"),
    Term("embedding (token / position / segment)", "嵌入（词元嵌入 / 位置嵌入 / 段嵌入）"),
    Term("segment embedding (BERT)", "段嵌入", ("片段嵌入", "段向量")),
    # ---- attention
    Term("attention head", "注意力头（头）", ("{layer:d}.{head:d}", "{layer}.{head}"), (),
         "Name a head 第 l 层第 h 个头 (or L{l}H{h}), never l.h: read aloud it is a decimal."),
    Term("query / key / value", "查询 / 键 / 值"),
    Term("key/value head (GQA, MQA)", "键/值头", ("键值头", "键头")),
    Term("attention weights", "注意力权重"),
    Term("attention score (q·k/√d)", "分数", (), (), "得分 is a detector's or a metric's score."),
    Term("mask", "掩码", ("遮挡",)),
    Term("masked", "被掩码", ("已掩码",)),
    Term("padding", "填充"),
    Term("causal (mask, attention)", "因果（因果掩码）", ("单向",), (), "单向 is a unidirectional RNN."),
    Term("bidirectional", "双向"),
    Term("full attention (everything visible)", "全注意力（全部可见）", ("全连接注意力",)),
    Term("look at later (future) tokens", "看后面（未来）的词元", ("向后看",), (), "向后 can mean the past."),
    Term("self-attention / cross-attention", "自注意力 / 交叉注意力"),
    Term("multi-head / grouped-query / multi-query attention", "多头注意力 / 分组查询注意力（GQA）/ 多查询注意力（MQA）"),
    Term("KV cache", "KV 缓存", ("键值缓存",)),
    Term("stack (the encoder's or the decoder's blocks)", "编码器 / 解码器（说出是哪一个）", ("单栈", "堆栈", "所在部分"), (),
         "栈 is the data structure; label a stack choice 编码器/解码器 or 查看哪部分的…"),
    Term("attention explorer (page)", "注意力探查器", ("注意力浏览器", "探索页面"), (), "浏览器 is a web browser."),
    Term("attention rollout", "注意力展开（rollout）", ("rollout",), ("（rollout）",)),
    Term("attention sink", "注意力汇聚点"),
    Term("induction head / previous-token head", "归纳头 / “前一个词元”头"),
    Term("dilated (attention, mask)", "空洞（空洞注意力）", ("膨胀", "扩张"), (), "As in 空洞卷积 (atrous convolution)."),
    Term("dilation", "空洞率", ("膨胀率", "扩张率", "膨胀间隔")),
    Term("sliding window / strided / global tokens", "滑动窗口 / 跨步 / 全局词元"),
    Term("retention (RetNet)", "保留机制（Retention）", ("Retention",),
         ("保留机制（Retention", "**保留机制**（Retention")),
    Term("token-mixing / channel-mixing (MLP-Mixer)", "词元混合 / 通道混合",
         ("token-mixing", "Token-mixing", "channel-mixing", "Channel-mixing")),
    # ---- positions
    Term("positional encoding (the scheme)", "位置编码"),
    Term("position vector (the vectors)", "位置向量"),
    Term("sinusoidal / learned", "正弦 / 可学习"),
    Term("RoPE", "RoPE（旋转位置编码）"),
    Term("ALiBi", "ALiBi（线性偏置）"),
    Term("T5 relative position buckets", "T5 相对位置分桶"),
    Term("train short, test long", "短训练、长测试", ("短序列训练",)),
    # ---- the block
    Term("residual stream / residual connection", "残差流 / 残差连接"),
    Term("LayerNorm", "层归一化（LayerNorm）", ("层规范化",), (),
         "d2l writes 层规范化; the app says 层归一化, the common term in papers and blogs."),
    Term("RMSNorm", "RMSNorm（均方根归一化）"),
    Term("BatchNorm", "批归一化", ("批量规范化",)),
    Term("pre-LN (norm inside the branch)", "Pre-LN（前置层归一化）",
         ("前置归一化", "前置层归一化", "前置 LN", "pre-LN", "pre-norm", "Pre-norm"), ("Pre-LN（前置层归一化）",),
         "Pre-LN, glossed 前置层归一化 on first mention."),
    Term("post-LN (norm after the addition)", "Post-LN（后置层归一化）",
         ("后置归一化", "后置层归一化", "后置 LN", "post-LN", "post-norm", "Post-norm"), ("Post-LN（后置层归一化）",),
         "Post-LN, glossed 后置层归一化 on first mention."),
    Term("feed-forward network", "前馈网络（FFN）", (), (), "MLP where the English says MLP."),
    Term("activation / activation function", "激活值 / 激活函数"),
    Term("forward pass", "前向计算", ("前向传播",)),
    Term("cosine similarity", "余弦相似度", ("余弦",), ("余弦相似度", "余弦衰减", "正弦和余弦"),
         "Bare 余弦 only for the function (正弦和余弦) and the cosine learning-rate decay (余弦衰减)."),
    # ---- output
    Term("logit / logits", "logit / logits"),
    Term("logit lens", "logit 透镜", ("Logit 透镜",)),
    Term("unembedding", "反嵌入矩阵（W_U）/ 反嵌入", ("反嵌入层",)),
    Term("language-model head", "语言模型头", ("语言模型输出层", "词表输出头")),
    Term("softmax", "softmax"),
    # ---- decoding and training
    Term("prompt", "提示词", (), (), "提示 alone is a hint."),
    Term("temperature / top-k / top-p", "温度 / Top-k / Top-p（核采样）"),
    Term("greedy decoding / sampling", "贪心解码 / 采样"),
    Term("beam search / beam width", "束搜索 / 束宽"),
    Term("n-gram", "n-gram（n 元语法）", ("元组",), (), "n 元组 is an n-tuple."),
    Term("teacher forcing", "教师强制（teacher forcing）", (), (), "d2l writes 强制教学; either is understood."),
    Term("perplexity", "困惑度"),
    Term("bits per character", "每字符比特数"),
    Term("nats / bits", "奈特 / 比特"),
    Term("checkpoint", "检查点"),
    Term("toy model (a small trained checkpoint of this app)", "玩具模型", ("训练好的小模型", "小解码器")),
    Term("character-level language model", "字符级语言模型", ("字符语言模型",)),
    Term("probe input (the training lab's recorded example)", "探测输入", ("探针",)),
    Term("memory (bytes held)", "内存", ("显存",), ("显存与芯片",),
         "显存 only where GPU memory is meant (FlashAttention's transfers)."),
    # ---- interpretability
    Term("activation patching / causal tracing", "激活修补 / 因果追踪"),
    Term("direct logit attribution", "直接 logit 归因"),
    Term("OV circuit / QK circuit", "OV 回路 / QK 回路"),
    Term("ablation", "消融"),
    Term("pruned (head)", "被剪枝", ("剪掉",)),
    # ---- words of the app and of its tasks
    Term("model map (the diagram)", "结构图", ("地图",)),
    Term("architecture", "架构"),
    Term("section (of a page)", "部分", ("栏目",)),
    Term("class code", "课堂码", ("课堂代码",)),
    Term("brackets (toy task)", "补全括号", ("括号匹配",)),
    Term("spell (toy task)", "数字转英文单词", ("数字转单词",)),
    Term("couplet (two lines of a poem)", "一联（上下两句）", ("对句",), (),
         "对句 is only the second line of a 联 (出句 / 对句)."),
    Term("geometric sequence", "等比数列", ("几何数列",)),
    Term("bag of words", "词袋", ("一袋词元",)),
    Term("siamese model", "孪生模型", ("双胞胎模型",)),
    # ---- images, sound and pairing (the tokens page)
    Term("patch (ViT)", "图块", ("补丁", "图像块"), (), "补丁 is a software patch; activation patching is 激活修补."),
    Term("log-mel spectrogram", "对数梅尔频谱", ("梅尔声谱", "对数梅尔谱图")),
    Term("frame (of audio)", "帧"),
    Term("sample (of a waveform)", "采样点", (), (), "采样 alone is sampling from a distribution (decoding)."),
    Term("convolution stem (Whisper)", "卷积前端", ("卷积主干", "卷积茎")),
    Term("contrastive loss (InfoNCE)", "对比损失"),
    Term("zero-shot classification", "零样本分类"),
    Term("tower (two-tower model)", "塔（双塔模型）"),
    Term("caption", "说明文字"),
)


def variants_in(text: str, terms: tuple[Term, ...] = TERMS) -> list[tuple[str, Term]]:
    """The avoided variants `text` uses, with their term (a variant inside an `unless` phrase is fine)."""
    found = []
    for term in terms:
        rest = text
        for ok in term.unless:
            rest = rest.replace(ok, "\0")
        found += [(v, term) for v in term.avoid if v in rest]
    return found


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def markdown(terms: tuple[Term, ...] = TERMS) -> str:
    """docs/glossary.md."""
    lines = [
        "# Glossary · 术语表",
        "",
        "<!-- generated from ui/glossary.py by `python -m ui.glossary > docs/glossary.md`: edit that file, not this one -->",
        "",
        "One Chinese term per concept in the Chinese UI (ui/strings/*.py and lessons/*.toml), with the English. "
        "The variants in the third column must not appear in any Chinese string, except inside the phrases of the "
        "fourth; tests/unit/test_glossary.py enforces it.",
        "",
        "中文界面里每个概念只用一个术语（采用动手学深度学习等通行的大陆译法）。第三列的说法不得出现在任何中文文本里"
        "（第四列的短语除外），tests/unit/test_glossary.py 会检查。",
        "",
        "| English | 中文 | avoid · 不用 | allowed inside · 例外 | note |",
        "|---|---|---|---|---|",
    ]
    for term in terms:
        cells = (term.en, term.zh, " · ".join(term.avoid), " · ".join(term.unless), term.note)
        lines.append("| " + " | ".join(_cell(c) for c in cells) + " |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(markdown(), end="")

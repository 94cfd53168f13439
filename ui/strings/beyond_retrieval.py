"""Strings of the beyond-softmax page's retrieval section (ui/views/beyond_retrieval.py)."""

STRINGS = {
    "bxrt_title": {"en": "Retrieval: a small model that looks things up (RETRO)",
                   "zh": "检索增强：会查资料的小模型（RETRO）"},
    "bxrt_intro": {
        "en": "A language model that must remember every fact in its weights needs many weights. Retrieval moves the "
              "facts into a database: a large text cut into chunks, each chunk stored under a vector from a frozen "
              "encoder. While the model writes, it looks up the chunks whose vectors are nearest to what it has just "
              "written and reads them before it writes on. The database can grow or be replaced without any "
              "training. Below: the lookup, done for real with the bundled sentence-embedding model, then the way "
              "RETRO's decoder reads what it found.",
        "zh": "如果语言模型要把每一条事实都记在权重里，它就需要很多权重。检索增强把事实挪进一个数据库：把大量文本切成若干块，"
              "每块用一个冻结的编码器算出一个向量作为索引。模型生成时，先找出向量与刚写下的内容最接近的那些块，读过之后再接着写。"
              "数据库可以扩充或整个替换，不需要任何训练。下面先用自带的句向量模型真正做一次检索，再看 RETRO 的解码器怎样读取检索到的内容。"},
    "bxrt_claim": {
        "en": "**What the paper reports (a claim, not checked here).** Borgeaud et al. (2021), *Improving language "
              "models by retrieving from trillions of tokens*: with a database of 2 trillion tokens, RETRO performs "
              "comparably to GPT-3 and Jurassic-1 on the Pile while using 25× fewer parameters (its largest model "
              "has 7.5B parameters; GPT-3 has 175B, so 7.5/175 = {share:.1%}). **What this page shows:** real "
              "nearest-neighbour retrieval with a real sentence-embedding model over {n} chunks, and the chunked "
              "cross-attention mechanism on seeded weights. It trains no RETRO and measures no perplexity.",
        "zh": "**论文报告的结果（这是论文的说法，本页没有验证）。** Borgeaud 等人（2021），《Improving language models by "
              "retrieving from trillions of tokens》：在 2 万亿词元的数据库上，RETRO 在 Pile 上的表现与 GPT-3、Jurassic-1 "
              "相当，参数却少 25 倍（最大的 RETRO 有 75 亿参数；GPT-3 有 1750 亿，7.5/175 = {share:.1%}）。"
              "**本页展示的是**：用真实的句向量模型在 {n} 个块上做真实的最近邻检索，以及分块交叉注意力的机制（权重为随机种子生成）。"
              "本页没有训练 RETRO，也没有测量困惑度。"},
    # ---- 1. the database -------------------------------------------------------------------------
    "bxrt_db_title": {"en": "1 · The database: sentence vectors from MiniLM",
                      "zh": "1 · 数据库：MiniLM 的句向量"},
    "bxrt_db_intro": {
        "en": "The bundled all-MiniLM-L6-v2 is a sentence-embedding model: run the encoder, average its last hidden "
              "states over the real tokens ([CLS] and [SEP] included), and divide by the length of that average. "
              "Two such unit vectors have a cosine equal to their dot product. RETRO keys its chunks in the same "
              "spirit, with a frozen BERT's averaged states, and finds neighbours by L2 distance with an approximate "
              "search over billions of chunks; here the search is exact, by cosine.",
        "zh": "自带的 all-MiniLM-L6-v2 是一个句向量模型：运行编码器，把最后一层隐藏状态在真实词元上取平均（包括 [CLS] 和 [SEP]），"
              "再除以这个平均向量的长度。两个这样的单位向量，余弦相似度就等于它们的点积。RETRO 的思路相同：用冻结的 BERT"
              "的平均隐藏状态作为块的索引，按 L2 距离在数十亿个块中做近似搜索；这里按余弦相似度做精确搜索。"},
    "bxrt_db_stats": {
        "en": "Database: **{n}** chunks of at most {size} MiniLM tokens, cut from Ecclesiastes (King James Version, "
              "{docs} chapters, from the verse corpus the app ships). Embedding all {tokens:,} tokens took "
              "**{seconds:.1f} s** on this server, once; every later search reuses the vectors.",
        "zh": "数据库：**{n}** 个块，每块最多 {size} 个 MiniLM 词元，取自《传道书》（英王钦定本，{docs} 章，来自本应用自带的诗歌语料）。"
              "为全部 {tokens:,} 个词元计算向量在本服务器上用了 **{seconds:.1f} 秒**，只算一次，之后的每次搜索都复用这些向量。"},
    "bxrt_embedding": {"en": "Embedding the database with MiniLM (once per server)…",
                       "zh": "正在用 MiniLM 为数据库计算向量（每个服务器只算一次）……"},
    "bxrt_query": {"en": "Your sentence", "zh": "你的句子"},
    "bxrt_default": {"en": "There is a right time for everything: a time to be born and a time to die.",
                     "zh": "There is a right time for everything: a time to be born and a time to die."},
    "bxrt_k": {"en": "Neighbours k", "zh": "近邻数 k"},
    "bxrt_empty": {"en": "Type a sentence to search the database.", "zh": "请输入一个句子来检索数据库。"},
    "bxrt_english": {
        "en": "MiniLM was trained on English sentence pairs and the database is English: a sentence in another "
              "language finds weaker neighbours (compare the cosines).",
        "zh": "MiniLM 是在英文句对上训练的，数据库也是英文的：用其他语言（例如中文）写的句子找到的近邻较弱（比较一下余弦相似度）。"},
    "bxrt_col_rank": {"en": "Rank", "zh": "排名"},
    "bxrt_col_cos": {"en": "Cosine", "zh": "余弦相似度"},
    "bxrt_col_where": {"en": "Chapter · first token", "zh": "章 · 首个词元位置"},
    "bxrt_col_chunk": {"en": "Neighbour (the chunk)", "zh": "近邻（该块）"},
    "bxrt_col_next": {"en": "Continuation (the next chunk)", "zh": "后续（下一块）"},
    "bxrt_table_note": {
        "en": "RETRO stores each chunk with its continuation, the chunk after it: the neighbour says what was "
              "similar, the continuation what came next. Check: the sentence's vector has length {norm:.6f}; the "
              "best cosine is {best:.3f}, the median over all {n} chunks {median:.3f}.",
        "zh": "RETRO 把每个块和它的后续（紧接着的下一块）一起存储：近邻说明什么内容相似，后续说明接下来写了什么。"
              "验算：句子向量的长度为 {norm:.6f}；最高余弦相似度为 {best:.3f}，全部 {n} 个块的中位数为 {median:.3f}。"},
    # ---- 2. chunked cross-attention --------------------------------------------------------------
    "bxrt_cca_title": {"en": "2 · How the decoder reads its neighbours: chunked cross-attention",
                       "zh": "2 · 解码器怎样读取近邻：分块交叉注意力"},
    "bxrt_cca_intro": {
        "en": "RETRO cuts the text it is writing into chunks of m tokens (64 in the paper) and retrieves neighbours "
              "for every chunk, not once for the whole prompt. An encoder turns the neighbours into keys and "
              "values; in some decoder layers, a cross-attention lets the text read them. Causality decides who "
              "reads what: the neighbours of chunk u were found with all of chunk u's tokens, so chunk u's "
              "earlier tokens must not see them. They are read by the **last token of chunk u** (it predicts the "
              "first token of chunk u + 1) and the **first m − 1 tokens of chunk u + 1**. The first m − 1 tokens "
              "of the text read no neighbour at all.",
        "zh": "RETRO 把正在生成的文本切成每块 m 个词元（论文中 m = 64），并为每一块分别检索近邻，而不是只为整个提示检索一次。"
              "一个编码器把近邻变成键和值；在解码器的部分层里，交叉注意力让文本读取它们。谁能读什么由因果性决定："
              "第 u 块的近邻是用第 u 块的全部词元检索到的，所以第 u 块前面的词元不能看到它们。读取它们的是**第 u 块的最后一个词元**"
              "（它要预测第 u + 1 块的第一个词元）和**第 u + 1 块的前 m − 1 个词元**。文本最开头的 m − 1 个词元读不到任何近邻。"},
    "bxrt_m": {"en": "Chunk length m", "zh": "块长 m"},
    "bxrt_nb": {"en": "Neighbours per chunk", "zh": "每块的近邻数"},
    "bxrt_w": {"en": "Weights W_Q, W_K", "zh": "权重 W_Q、W_K"},
    "bxrt_w_random": {"en": "seeded random", "zh": "随机种子生成"},
    "bxrt_w_identity": {"en": "identity (raw dot products)", "zh": "单位矩阵（原始点积）"},
    "bxrt_seed": {"en": "Seed", "zh": "随机种子"},
    "bxrt_random_weights": {
        "en": "The mechanism on random weights; a trained RETRO learns these weights. The states are MiniLM's "
              "(its last layer, for your text and for each neighbour's first {r} tokens), standing in for RETRO's "
              "decoder and neighbour encoder; MiniLM reads the whole text at once, a RETRO decoder only what came "
              "before. What the figure shows exactly is the mask: which token may read which neighbours.",
        "zh": "这是随机权重上的机制演示；训练好的 RETRO 会学到这些权重。这里的状态来自 MiniLM（最后一层：你的文本，以及每个近邻的前 {r} "
              "个词元），代替 RETRO 的解码器和近邻编码器；MiniLM 一次读完整段文本，而 RETRO 的解码器只读前文。"
              "图中准确无误的是掩码：哪个词元可以读哪些近邻。"},
    "bxrt_short": {"en": "Your sentence has {n} token(s), fewer than m = {m}: its first chunk is not complete, so no "
                         "token reads a neighbour yet. Lower m or write more.",
                   "zh": "你的句子只有 {n} 个词元，少于 m = {m}：第一块还不完整，所以还没有词元能读到近邻。请减小 m 或多写一些。"},
    "bxrt_cut": {"en": "Only the first {n} tokens of your sentence are read here.",
                 "zh": "这里只读取句子的前 {n} 个词元。"},
    "bxrt_col_chunk_u": {"en": "Your chunk", "zh": "你的块"},
    "bxrt_col_text": {"en": "Its text", "zh": "块的文本"},
    "bxrt_col_read_by": {"en": "Read by tokens", "zh": "由哪些词元读取"},
    "bxrt_col_nb": {"en": "Neighbour", "zh": "近邻"},
    "bxrt_none": {"en": "none (no later token yet)", "zh": "无（后面还没有词元）"},
    "bxrt_fig_title": {"en": "Chunked cross-attention: your tokens (rows) × neighbour tokens (columns)",
                       "zh": "分块交叉注意力：你的词元（行）× 近邻词元（列）"},
    "bxrt_fig_note": {
        "en": "Columns: C*u*·N*j*·token is a token of the *j*-th neighbour of your chunk *u*. Grey: masked. Each "
              "outlined block is one chunk's neighbours and the tokens that read them; the dotted lines are the "
              "boundaries of your chunks. Each block starts one row above a boundary: the last token of a chunk "
              "reads that chunk's neighbours.",
        "zh": "列：C*u*·N*j*·词元 表示你的第 *u* 块的第 *j* 个近邻中的一个词元。灰色：被掩码屏蔽。每个方框是一块的近邻以及读取它们的词元；"
              "虚线是你的各块之间的分界。每个方框都从分界之上一行开始：每块的最后一个词元读取这一块的近邻。"},
    "bxrt_checks": {
        "en": "Computed on this figure: {reading} of {n} tokens read neighbours, the first {none} read none; each "
              "reading row's weights sum to 1 (largest error {err:.1e}); no token reads the neighbours of a chunk "
              "that ends after it (violations: {bad}). Neighbours of the last chunk, read by nobody yet: {unread} "
              "columns.",
        "zh": "根据此图计算：{n} 个词元中有 {reading} 个读取近邻，开头的 {none} 个不读；每个读取行的权重之和为 1（最大误差 {err:.1e}）；"
              "没有词元读取在它之后才结束的块的近邻（违反次数：{bad}）。最后一块的近邻还没有词元读取：{unread} 列。"},
    "bxrt_notes_title": {"en": "3 · Beside RETRO, and two common mistakes", "zh": "3 · RETRO 之外，以及两个常见错误"},
    # ---- 3. WebGPT, and what the notes get wrong ------------------------------------------------
    "bxrt_webgpt": {
        "en": "**Beside it, WebGPT** (Nakano et al. 2021) retrieves differently: a fine-tuned GPT-3 operates a "
              "text-based web browser (search, open a result, scroll, quote), first by imitating people's "
              "demonstrations and then steered by a reward model learned from human preferences, and answers with "
              "references to the passages it quoted. It is not shown on this page.",
        "zh": "**与之并列的 WebGPT**（Nakano 等人，2021）用另一种方式检索：一个微调过的 GPT-3 操作纯文本的网页浏览器（搜索、打开结果、"
              "滚动、摘录），先模仿人类的示范，再由一个根据人类偏好学到的奖励模型来引导，回答时附上它摘录的段落作为引用。本页不演示它。"},
    "bxrt_mis_layers_common": {
        "en": "“RETRO blocks are every third block starting from 9: layers 9, 12, 15 … 32.”",
        "zh": "“从第 9 层开始每隔两层是一个 RETRO 块：第 9、12、15 … 32 层。”"},
    "bxrt_mis_layers_shown": {
        "en": "The rule and its last element disagree. Every third layer from 9 in a {L}-layer decoder is "
              "{layers}: it never reaches 32 (32 − 9 = 23 is not a multiple of 3). Whatever layers a RETRO uses, "
              "the list has to follow one rule.",
        "zh": "规则和列表的最后一项互相矛盾。在 {L} 层的解码器里，从第 9 层起每三层取一层，得到 {layers}：永远到不了 32"
              "（32 − 9 = 23 不是 3 的倍数）。不管 RETRO 用哪些层，这个列表都必须符合同一条规则。"},
    "bxrt_mis_input_common": {
        "en": "“The retrieved text is added to the model's input sequence, which the encoder-decoder then reads.”",
        "zh": "“检索到的文本被加进模型的输入序列，再由编码器-解码器读取。”"},
    "bxrt_mis_input_shown": {
        "en": "The neighbours never join the decoder's own sequence. The decoder's self-attention sees your {n} "
              "tokens; the {cols} neighbour tokens above are read only through cross-attention, and only by the "
              "tokens the chunk mask allows. Retrieval is also per chunk, not per prompt: your text made {u} "
              "chunks, each with its own neighbours.",
        "zh": "近邻从不进入解码器自己的序列。解码器的自注意力只看你的 {n} 个词元；上图的 {cols} 个近邻词元只能通过交叉注意力读取，"
              "而且只有分块掩码允许的词元才能读。检索也是按块进行的，不是每个提示一次：你的文本切成了 {u} 块，每块有自己的近邻。"},
    "bxrt_failed": {"en": "The retrieval could not run: {error}", "zh": "无法完成检索：{error}"},
}

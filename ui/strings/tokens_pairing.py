"""Strings of the "Tokens from anything" page's Pairing (CLIP-style) section (ui/views/tokens_pairing.py)."""

STRINGS = {
    "tpr_intro": {
        "en": "Two towers, one for pictures and one for words, each turning its own input into a vector of the "
              "same width, scaled to length 1. Neither tower ever reads the other's input: they meet in one number "
              "per pair, the dot product of the two unit vectors (their cosine similarity). Training pushes each "
              "picture's own caption to the top of its row and each caption's own picture to the top of its "
              "column. Here the pictures are scikit-learn's 8×8 handwritten digits and the captions are the "
              "digits' words, in English or in Chinese.",
        "zh": "两座“塔”，一座读图片，一座读文字，各自把自己的输入变成同样宽度的向量，再缩放到长度 1。"
              "两座塔从不读对方的输入：它们只在每一对上相遇一次，即两个单位向量的点积（余弦相似度）。"
              "训练让每张图片自己的说明文字在它那一行排第一，让每条说明文字自己的图片在它那一列排第一。"
              "这里的图片是 scikit-learn 自带的 8×8 手写数字，说明文字是数字的名称，英文或中文。"},
    "tpr_no_model": {
        "en": "The shipped towers (models/weights/checkpoints/pairing-digits/) are missing or unreadable; "
              "`python -m cli.pairing_digits` trains them again (about a minute).",
        "zh": "随应用提供的两座塔（models/weights/checkpoints/pairing-digits/）缺失或无法读取；"
              "运行 `python -m cli.pairing_digits` 可以重新训练（约一分钟）。"},
    "tpr_model_title": {"en": "The two towers", "zh": "两座塔"},
    "tpr_model_caption": {
        "en": "Picture tower: 2×2 patches, a [CLS] vector in front, our Transformer ({img_layers} layers × {heads} "
              "heads, d_model {d}), the [CLS] output projected to {shared} numbers. Word tower: the same Transformer "
              "({txt_layers} layer) on the caption's characters, <bos> in front and read as the summary, projected "
              "the same way. A bag of character vectors would do for 20 fixed captions; the Transformer also gives "
              "a vector to a spelling it never saw. {params:,} parameters in all; trained {steps} steps in "
              "{seconds:.0f} s on one CPU thread on {n_train} pictures, each paired with its word in a language "
              "drawn at random. Learned temperature τ = {tau:.3f} (1/τ = {scale:.1f}).",
        "zh": "图片塔：2×2 的图块，最前面放一个 [CLS] 向量，由我们的 Transformer（{img_layers} 层 × {heads} 个头，"
              "d_model {d}）读取，[CLS] 位置的输出投影成 {shared} 个数。文字塔：同一种 Transformer（{txt_layers} 层）"
              "读说明文字的字符，最前面放 <bos> 并读它的输出作为概括，同样投影。只有 20 条固定说明文字时，"
              "把字符向量加起来也够用；用 Transformer 的好处是，没见过的拼写也能得到向量。共 {params:,} 个参数；"
              "在一个 CPU 线程上训练 {steps} 步，用时 {seconds:.0f} 秒，训练集 {n_train} 张图片，"
              "每张配上随机选定语言的数字名称。学到的温度 τ = {tau:.3f}（1/τ = {scale:.1f}）。"},
    "tpr_acc_title": {"en": "Zero-shot classification of the {n} held-out digits",
                      "zh": "对 {n} 个留出数字做零样本分类"},
    "tpr_col_method": {"en": "Method", "zh": "方法"},
    "tpr_col_acc": {"en": "Held-out accuracy", "zh": "留出集准确率"},
    "tpr_col_labels": {"en": "Trained with the digit labels?", "zh": "训练时用了数字标签吗？"},
    "tpr_m_zs_en": {"en": "two towers, captions `zero` … `nine`", "zh": "两座塔，说明文字 `zero` … `nine`"},
    "tpr_m_zs_zh": {"en": "two towers, captions `零` … `九`", "zh": "两座塔，说明文字 `零` … `九`"},
    "tpr_m_logreg": {"en": "logistic regression on the 64 pixels", "zh": "在 64 个像素上做逻辑回归"},
    "tpr_m_chance": {"en": "chance (1 in 10)", "zh": "随机猜（十选一）"},
    "tpr_yes": {"en": "yes", "zh": "是"},
    "tpr_no": {"en": "no: only pairs", "zh": "否：只用了配对"},
    "tpr_acc_caption": {
        "en": "The towers never saw a label: only which picture goes with which word. They classify by asking "
              "which of the 10 captions is nearest, so the classes are whatever captions you give. The logistic "
              "regression was trained on the labels themselves, so it is an upper mark here, not a rival.",
        "zh": "两座塔从没见过标签，只知道哪张图片配哪个词。它们分类的办法是看 10 条说明文字里哪一条最近，"
              "所以类别就是你给出的那些说明文字。逻辑回归是直接用标签训练的，所以在这里它是上限参考，而不是对手。"},
    "tpr_words": {
        "en": "The word tower was never told that `seven` and `七` mean the same: they only met through the "
              "pictures. Cosine similarity of each English word with its Chinese word: **{same:.2f}** on average; "
              "with the other nine Chinese words: **{other:.2f}**.",
        "zh": "文字塔从没被告知 `seven` 和 `七` 是同一个意思：它们只是通过图片相遇。每个英文词与对应中文词的"
              "余弦相似度平均为 **{same:.2f}**；与其他九个中文词平均为 **{other:.2f}**。"},
    # ---- a batch
    "tpr_batch_title": {"en": "One batch: the similarity matrix and the loss", "zh": "一个批次：相似度矩阵和损失"},
    "tpr_batch_intro": {
        "en": "Ten held-out pictures, one of each digit in a random order, and each one's own caption in the same "
              "order, so the true pairs lie on the diagonal. Every other cell is a wrong pair in this batch.",
        "zh": "十张留出集图片，每个数字一张，顺序随机；说明文字按同样的顺序排列，所以正确的配对在对角线上。"
              "其余每个格子都是这个批次里的错误配对。"},
    "tpr_seed": {"en": "Batch no.", "zh": "第几个批次"},
    "tpr_seed_help": {"en": "Each number draws other held-out pictures in another order.",
                      "zh": "每个编号抽取不同的留出集图片，顺序也不同。"},
    "tpr_lang": {"en": "Captions in", "zh": "说明文字语言"},
    "tpr_lang_en": {"en": "English", "zh": "英文"},
    "tpr_lang_zh": {"en": "Chinese", "zh": "中文"},
    "tpr_pics_title": {"en": "The batch's pictures, in order (row i of the matrix)",
                       "zh": "这个批次的图片，按顺序（矩阵的第 i 行）"},
    "tpr_x": {"en": "pixel column", "zh": "像素列"},
    "tpr_y": {"en": "pixel row", "zh": "像素行"},
    "tpr_grey": {"en": "grey level", "zh": "灰度"},
    "tpr_sim_title": {"en": "Cosine similarity: picture (row) × caption (column)",
                      "zh": "余弦相似度：图片（行）× 说明文字（列）"},
    "tpr_sim_x": {"en": "caption", "zh": "说明文字"},
    "tpr_sim_y": {"en": "picture", "zh": "图片"},
    "tpr_sim_value": {"en": "cosine similarity", "zh": "余弦相似度"},
    "tpr_pic": {"en": "picture {i}", "zh": "图片 {i}"},
    "tpr_loss_title": {"en": "The contrastive loss of this batch, by hand", "zh": "这个批次的对比损失，逐项计算"},
    "tpr_loss_intro": {
        "en": "Each cell times 1/τ = {scale:.1f} is a logit. Picture → caption: a softmax along each row, and "
              "the loss is −log of the probability on the diagonal. Caption → picture: the same along each column. "
              "The loss is the mean of the two directions' means:",
        "zh": "每个格子乘以 1/τ = {scale:.1f} 就是一个 logit。图片 → 说明文字：沿每一行做 softmax，"
              "损失是对角线上那个概率的 −log。说明文字 → 图片：沿每一列做同样的事。"
              "总损失是两个方向各自平均后的平均："},
    "tpr_col_i": {"en": "i", "zh": "i"},
    "tpr_col_caption": {"en": "caption i", "zh": "说明文字 i"},
    "tpr_col_cos": {"en": "cosine (i, i)", "zh": "余弦相似度 (i, i)"},
    "tpr_col_row": {"en": "p(caption i | picture i), row", "zh": "p(说明文字 i | 图片 i)，按行"},
    "tpr_col_col": {"en": "p(picture i | caption i), column", "zh": "p(图片 i | 说明文字 i)，按列"},
    "tpr_col_nll_row": {"en": "−log, row", "zh": "−log，按行"},
    "tpr_col_nll_col": {"en": "−log, column", "zh": "−log，按列"},
    "tpr_loss_sum": {
        "en": "Picture → caption: **{i2t:.4f}**; caption → picture: **{t2i:.4f}**; the loss "
              "(**{i2t:.4f}** + **{t2i:.4f}**) / 2 = **{loss:.4f}**. The trainer's function on the same batch: "
              "**{torch:.4f}**. If every cosine were equal (an untrained pair of towers), each direction "
              "would cost log 10 = {chance:.4f}.",
        "zh": "图片 → 说明文字：**{i2t:.4f}**；说明文字 → 图片：**{t2i:.4f}**；损失 "
              "(**{i2t:.4f}** + **{t2i:.4f}**) / 2 = **{loss:.4f}**。训练时用的函数在同一批次上算出 **{torch:.4f}**。"
              "如果所有余弦相似度都相等（没训练过的两座塔），每个方向的损失都是 log 10 = {chance:.4f}。"},
    "tpr_mis_common": {
        "en": "The notes list CLIP as a model in which \"text and images are mixed\".",
        "zh": "笔记把 CLIP 列为“文本和图像混合”的模型。"},
    "tpr_mis_shown": {
        "en": "Nothing is mixed. Each tower reads only its own input; a picture's vector is the same whichever "
              "captions it is compared with. The two meet only in the matrix above, one dot product per pair: "
              "in this batch the true pairs average **{diag:.2f}** and the wrong pairs **{off:.2f}**. (Models that "
              "do read pictures and text in one sequence, such as KOSMOS-1 in the same list, are another design.)",
        "zh": "并没有“混合”。每座塔只读自己的输入；一张图片的向量不管和哪些说明文字比较都一样。"
              "两者只在上面的矩阵里相遇，每一对一次点积：这个批次里正确配对的平均值是 **{diag:.2f}**，"
              "错误配对是 **{off:.2f}**。（真正把图片和文字放进同一个序列里读的模型，比如同一列表里的 KOSMOS-1，"
              "是另一种设计。）"},
    # ---- zero-shot
    "tpr_zs_title": {"en": "Zero-shot: which caption is nearest?", "zh": "零样本：哪条说明文字最近？"},
    "tpr_zs_intro": {
        "en": "The picture's vector against the vectors of the 10 captions in the chosen language; the cosines "
              "times 1/τ, through a softmax, are the probabilities.",
        "zh": "图片的向量与所选语言的 10 条说明文字的向量比较；余弦相似度乘以 1/τ，再经过 softmax，就是概率。"},
    "tpr_source": {"en": "Picture", "zh": "图片"},
    "tpr_source_digit": {"en": "a held-out digit", "zh": "留出集中的数字"},
    "tpr_source_upload": {"en": "my own picture", "zh": "我自己的图片"},
    "tpr_digit": {"en": "Held-out digit no.", "zh": "留出集中的第几个数字"},
    "tpr_digit_help": {"en": "One of the {n} digits kept out of training.", "zh": "{n} 个没有参与训练的数字之一。"},
    "tpr_upload": {"en": "A PNG or JPEG picture of one digit", "zh": "一张只有一个数字的 PNG 或 JPEG 图片"},
    "tpr_upload_help": {
        "en": "Read in grey levels; dark ink on light paper is inverted, cut to the ink, and averaged down to 8×8 "
              "like the digits the towers learned from. A side over {limit} pixels is refused.",
        "zh": "按灰度读取；浅色纸上的深色笔迹会反色，裁到笔迹所在区域，再平均缩小到 8×8，"
              "和两座塔学过的数字一样。边长超过 {limit} 像素的不接受。"},
    "tpr_upload_wait": {"en": "Choose a picture of a digit to classify it.", "zh": "请选择一张数字图片来分类。"},
    "tpr_inverted": {"en": "Dark strokes on a light background: inverted to light strokes on black, as the digits are.",
                     "zh": "浅色背景上的深色笔画：已反色为黑底浅色笔画，和训练用的数字一样。"},
    "tpr_shown_8": {"en": "What the picture tower reads (8×8)", "zh": "图片塔读到的（8×8）"},
    "tpr_probs_title": {"en": "Probability of each caption", "zh": "每条说明文字的概率"},
    "tpr_probs_y": {"en": "probability", "zh": "概率"},
    "tpr_pred": {
        "en": "Nearest caption: {caption} ({prob:.1%}); the probabilities add up to {total:.4f}.",
        "zh": "最近的说明文字：{caption}（{prob:.1%}）；概率之和为 {total:.4f}。"},
    "tpr_truth": {"en": "This held-out picture is a **{digit}**.", "zh": "这张留出集图片是 **{digit}**。"},
    "tpr_bad_not_image": {"en": "This file is not a picture that can be read (PNG, JPEG, …); nothing was changed.",
                          "zh": "这个文件不是能读取的图片（PNG、JPEG 等）；什么都没有改变。"},
    "tpr_bad_too_big": {"en": "This picture is {w}×{h} pixels; the limit is {limit} on a side. Shrink it first.",
                        "zh": "这张图片是 {w}×{h} 像素；每边最多 {limit} 像素。请先缩小它。"},
    "tpr_bad_too_small": {"en": "This picture is {w}×{h} pixels: too small to read a digit from (at least 2×2).",
                          "zh": "这张图片是 {w}×{h} 像素：太小，读不出数字（至少 2×2）。"},
    "tpr_bad_huge": {"en": "This picture declares more pixels than can be read safely (at most {limit} on a side).",
                     "zh": "这张图片声明的像素太多，无法安全读取（每边最多 {limit} 像素）。"},
}

"""Strings of the "Tokens from anything" page's Images (ViT) section (ui/views/tokens_patches.py)."""

STRINGS = {
    "tim_intro": {
        "en": "A Transformer reads a sequence of vectors. A picture becomes one the way a ViT does it: cut into P×P "
              "patches, the patches read row by row like text, each patch's pixels flattened into one list and "
              "multiplied by one matrix to a d_model-wide vector, a [CLS] vector put in front and a position "
              "vector added to each. Then the same Transformer as on every other page reads them.",
        "zh": "Transformer 读的是一串向量。图片按 ViT 的做法变成这样一串：切成 P×P 的图块，像读文字一样一行一行地排好，"
              "每个图块的像素拉平成一列数，乘以同一个矩阵，变成 d_model 维的向量；最前面放一个 [CLS] 向量，每个向量再加上位置向量。"
              "之后读它们的，就是其他页面上的同一个 Transformer。"},
    "tim_source": {"en": "Picture", "zh": "图片"},
    "tim_source_digit": {"en": "a handwritten digit (scikit-learn)", "zh": "手写数字（scikit-learn 自带）"},
    "tim_source_upload": {"en": "my own picture", "zh": "我自己的图片"},
    "tim_digit": {"en": "Held-out digit no.", "zh": "留出集中的第几个数字"},
    "tim_digit_help": {
        "en": "One of the {n} digits kept out of the ViT's training; the model below never saw it.",
        "zh": "{n} 个没有参与 ViT 训练的数字之一；下面的模型从没见过它。"},
    "tim_upload": {"en": "A PNG or JPEG picture", "zh": "一张 PNG 或 JPEG 图片"},
    "tim_upload_help": {
        "en": "Read in grey levels; a side over {show} pixels is shrunk to {show}, one over {limit} is refused.",
        "zh": "按灰度读取；边长超过 {show} 像素的缩小到 {show}，超过 {limit} 像素的不接受。"},
    "tim_upload_wait": {"en": "Choose a picture to cut it into patches.", "zh": "请选择一张图片，把它切成图块。"},
    "tim_bad_not_image": {"en": "This file is not a picture that can be read (PNG, JPEG, …); nothing was changed.",
                          "zh": "这个文件不是能读取的图片（PNG、JPEG 等）；什么都没有改变。"},
    "tim_bad_too_big": {
        "en": "This picture is {w}×{h} pixels; the limit is {limit} on a side. Shrink it first.",
        "zh": "这张图片是 {w}×{h} 像素；每边最多 {limit} 像素。请先缩小它。"},
    "tim_bad_too_small": {
        "en": "This picture is {w}×{h} pixels: too small to cut into patches (at least 2×2).",
        "zh": "这张图片是 {w}×{h} 像素：太小，切不出图块（至少 2×2）。"},
    "tim_bad_huge": {"en": "This picture declares more pixels than can be read safely (at most {limit} on a side).",
                     "zh": "这张图片声明的像素太多，无法安全读取（每边最多 {limit} 像素）。"},
    "tim_shrunk": {"en": "The picture was {w}×{h} pixels; it is shown shrunk to {w2}×{h2}.",
                   "zh": "图片原为 {w}×{h} 像素；这里缩小为 {w2}×{h2} 显示。"},
    "tim_patch": {"en": "Patch size P", "zh": "图块边长 P"},
    "tim_patch_help": {
        "en": "The ViT below was trained with P = 2 (16 patches of a digit). Pixels past the last whole patch on "
              "the right and at the bottom are dropped.",
        "zh": "下面的 ViT 训练时用的是 P = 2（一个数字切成 16 块）。右边和下边凑不满一个图块的像素会被丢掉。"},
    "tim_picture_title": {"en": "The picture, {w}×{h} pixels, cut into {n} patches of {p}×{p}",
                          "zh": "图片 {w}×{h} 像素，切成 {n} 个 {p}×{p} 的图块"},
    "tim_grey": {"en": "grey level", "zh": "灰度"},
    "tim_x": {"en": "pixel column", "zh": "像素列"},
    "tim_y": {"en": "pixel row", "zh": "像素行"},
    "tim_seq_title": {"en": "The sequence: one column per patch, in reading order ({n} patches × {k} pixels)",
                      "zh": "序列：每个图块一列，按阅读顺序排列（{n} 个图块 × {k} 个像素）"},
    "tim_order_title": {"en": "Patches 1 to {shown} of {n}, in reading order (row by row)",
                        "zh": "第 1 到 {shown} 个图块（共 {n} 个），按阅读顺序（一行一行）"},
    "tim_seq_x": {"en": "pixel inside the patch (row by row)", "zh": "图块内的像素（逐行）"},
    "tim_seq_y": {"en": "patch (token) no.", "zh": "图块（词元）序号"},
    "tim_shapes_title": {"en": "From pixels to the vectors the Transformer reads", "zh": "从像素到 Transformer 读的向量"},
    "tim_col_step": {"en": "step", "zh": "步骤"},
    "tim_col_shape": {"en": "shape", "zh": "形状"},
    "tim_step_patches": {"en": "patches, flattened, in reading order", "zh": "图块拉平，按阅读顺序排列"},
    "tim_step_proj": {"en": "× Wᵀ + b (W: {d} × {k}), one matrix for every patch",
                      "zh": "× Wᵀ + b（W：{d} × {k}），所有图块共用一个矩阵"},
    "tim_step_cls": {"en": "[CLS] in front", "zh": "前面加上 [CLS]"},
    "tim_step_pos": {"en": "+ position vectors ({pos})", "zh": "+ 位置向量（{pos}）"},
    "tim_pos_learned": {"en": "learned, one per position", "zh": "学习得到的，每个位置一个"},
    "tim_conv_title": {"en": "The projection is a convolution with stride P", "zh": "这个投影就是步长为 P 的卷积"},
    "tim_conv_caption": {
        "en": "The same weights W ({d} × {k}) used twice: as a matrix on the flattened patches, and reshaped to "
              "{d} kernels of {p}×{p} for `torch.nn.functional.conv2d` with stride {p}. Largest difference over all "
              "{n} patches × {d} numbers: **{diff}**. Weights: {which}.",
        "zh": "同一组权重 W（{d} × {k}）用了两次：一次作为矩阵乘以拉平的图块，一次变形成 {d} 个 {p}×{p} 的卷积核，"
              "交给步长为 {p} 的 `torch.nn.functional.conv2d`。{n} 个图块 × {d} 个数中最大的差：**{diff}**。权重：{which}。"},
    "tim_which_trained": {"en": "the trained ViT's own patch projection", "zh": "训练好的 ViT 自己的图块投影"},
    "tim_which_random": {"en": "a random projection (seed 0; the trained ViT uses P = 2)",
                         "zh": "随机投影（种子 0；训练好的 ViT 用的是 P = 2）"},
    "tim_mis_cnn_common": {
        "en": "After the picture is cut and flattened, the patches go through a CNN, which turns them into the "
              "Transformer's input.",
        "zh": "图片切块、拉平之后，要先送进一个 CNN，才变成 Transformer 的输入。"},
    "tim_mis_cnn_shown": {
        "en": "No CNN is needed: each flattened patch is multiplied by one matrix (plus a bias), a single linear "
              "map with no activation and no stacked layers. Libraries often write that map as a convolution whose "
              "kernel and stride are both P, because it is the same computation: above, the two differ by at most "
              "{diff}.",
        "zh": "不需要 CNN：每个拉平的图块只乘以一个矩阵（再加偏置），是一次线性变换，没有激活函数，也没有多层堆叠。"
              "很多库把它写成卷积核大小和步长都等于 P 的卷积，是因为两者算的是同一件事：上面两种算法的结果最多相差 {diff}。"},
    # ---- the small ViT ----
    "tim_vit_title": {"en": "A small ViT reading the digits", "zh": "一个读手写数字的小 ViT"},
    "tim_vit_intro": {
        "en": "Our own Transformer (encoder, {layers} layers × {heads} heads, d_model = {d}, {params:,} parameters "
              "with the patch projection) reads the 16 patch vectors and [CLS]; its output at [CLS] gives the "
              "digit. Trained by recipes/vit_digits.py (seed 0, {seconds:.0f} s on one CPU thread) on {n_train} "
              "digits; tested below on the {n_test} it never saw.",
        "zh": "我们自己的 Transformer（编码器，{layers} 层 × {heads} 个头，d_model = {d}，连同图块投影共 {params:,} "
              "个参数）读 16 个图块向量和 [CLS]；它在 [CLS] 位置的输出给出是哪个数字。由 recipes/vit_digits.py 训练"
              "（种子 0，单个 CPU 线程 {seconds:.0f} 秒），训练用 {n_train} 个数字；下面在它从没见过的 {n_test} 个上测试。"},
    "tim_acc_title": {"en": "Held-out accuracy ({n} digits)", "zh": "留出集准确率（{n} 个数字）"},
    "tim_col_model": {"en": "model", "zh": "模型"},
    "tim_col_acc": {"en": "accuracy", "zh": "准确率"},
    "tim_m_vit_learned": {"en": "ViT, learned positions", "zh": "ViT，学习得到的位置向量"},
    "tim_m_vit_none": {"en": "ViT, no positions", "zh": "ViT，没有位置向量"},
    "tim_m_logreg": {"en": "logistic regression on the same 64 pixels", "zh": "同样 64 个像素上的逻辑回归"},
    "tim_m_majority": {"en": "always the most common digit", "zh": "总是猜最常见的数字"},
    "tim_acc_caption": {
        "en": "Computed now on the held-out split. The linear model is a strong baseline on 8×8 digits; the ViT "
              "has to learn from 16 tokens what the logistic regression reads from 64 fixed pixel positions.",
        "zh": "在留出集上当场计算。在 8×8 的数字上，线性模型是很强的基线；ViT 要从 16 个词元中学到逻辑回归直接从 64 个"
              "固定像素位置读到的东西。"},
    "tim_pred": {"en": "The ViT (learned positions) reads this digit as **{pred}** ({prob:.0%}); "
                       "the label is **{label}**.",
                 "zh": "ViT（学习得到的位置向量）把这个数字读作 **{pred}**（{prob:.0%}）；标注是 **{label}**。"},
    "tim_query": {"en": "Attention from", "zh": "注意力的出发位置"},
    "tim_query_patch": {"en": "patch {i}", "zh": "图块 {i}"},
    "tim_att_title": {"en": "Attention from {q} to each patch, each patch's weight where it sits in the picture",
                      "zh": "从 {q} 到每个图块的注意力，每个图块的权重画在它在图片中的位置上"},
    "tim_att_panel": {"en": "layer {layer} · head {head}", "zh": "第 {layer} 层 · 第 {head} 个头"},
    "tim_att_rollout": {"en": "rollout (all layers)", "zh": "注意力展开（所有层）"},
    "tim_att_value": {"en": "attention weight", "zh": "注意力权重"},
    "tim_att_x": {"en": "patch column", "zh": "图块列"},
    "tim_att_y": {"en": "patch row", "zh": "图块行"},
    "tim_att_caption": {
        "en": "Each panel is one head's softmax row for the chosen query, its weights on the 16 patches put back "
              "where the patches sit in the picture; what is missing from 1 went to [CLS] itself (from {least:.0%} "
              "to {most:.0%} across heads). Rollout multiplies the layers' head-averaged patterns, each plus the "
              "identity for the residual path (Abnar & Zuidema, 2020).",
        "zh": "每个小图是一个头在所选查询位置的 softmax 那一行，它在 16 个图块上的权重放回图块在图片中的位置；"
              "少于 1 的部分给了 [CLS] 自己（各头从 {least:.0%} 到 {most:.0%}）。注意力展开（rollout）把各层按头平均后的注意力相乘，"
              "每层先加上单位矩阵代表残差通路（Abnar 与 Zuidema，2020）。"},
    "tim_shuffle_title": {"en": "The shuffle test", "zh": "打乱测试"},
    "tim_shuffle_intro": {
        "en": "The same 16 patch vectors in a shuffled order ([CLS] stays first), read by both ViTs. Attention "
              "compares vectors with each other and does not know their order; only the position vectors tell it.",
        "zh": "同样的 16 个图块向量，顺序打乱（[CLS] 仍在最前），分别交给两个 ViT。注意力只是把向量两两比较，"
              "并不知道它们的顺序；只有位置向量告诉它顺序。"},
    "tim_shuffle_seed": {"en": "Shuffle no.", "zh": "第几种打乱"},
    "tim_shuffled_panel": {"en": "the shuffled patches, read in order", "zh": "打乱后的图块，按顺序读出"},
    "tim_original_panel": {"en": "the patches in reading order", "zh": "按阅读顺序的图块"},
    "tim_col_before": {"en": "reads (in order)", "zh": "读作（原顺序）"},
    "tim_col_after": {"en": "reads (shuffled)", "zh": "读作（打乱后）"},
    "tim_col_diff": {"en": "max |Δ logit| at [CLS]", "zh": "[CLS] 处 logit 的最大差 |Δ|"},
    "tim_shuffle_caption": {
        "en": "Without positions the output at [CLS] is the same up to float rounding ({none}): shuffling the "
              "pieces of a picture cannot change what it reads, so it has to judge a digit by which patches occur, "
              "not where. With learned positions it changes ({learned}).",
        "zh": "没有位置向量时，[CLS] 处的输出只差浮点舍入误差（{none}）：把图片的碎块打乱，它读到的不会变，"
              "所以它只能根据出现了哪些图块来判断数字，而不知道它们在哪里。有学习得到的位置向量时，输出就变了（{learned}）。"},
    "tim_vit_digits_only": {"en": "The small ViT was trained on 8×8 digits only: choose a digit above to see it "
                                  "read one.",
                            "zh": "这个小 ViT 只用 8×8 的手写数字训练过：在上面选一个数字，看它怎么读。"},
    "tim_no_model": {"en": "The shipped ViT checkpoints are missing (run `python -m cli.vit_digits`).",
                     "zh": "缺少随附的 ViT 检查点（请运行 `python -m cli.vit_digits`）。"},
}

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
    "tim_m_vit_sincos2d": {"en": "ViT, 2-D sinusoidal positions (fixed)", "zh": "ViT，二维正弦位置向量（固定）"},
    "tim_live_mark": {"en": " (trained in this session: {steps} steps)", "zh": "（本会话中训练：{steps} 步）"},
    "tim_m_logreg": {"en": "logistic regression on the same 64 pixels", "zh": "同样 64 个像素上的逻辑回归"},
    "tim_m_majority": {"en": "always the most common digit", "zh": "总是猜最常见的数字"},
    "tim_acc_caption": {
        "en": "Computed now on the held-out split. The linear model is a strong baseline on 8×8 digits; the ViT "
              "has to learn from 16 tokens what the logistic regression reads from 64 fixed pixel positions.",
        "zh": "在留出集上当场计算。在 8×8 的数字上，线性模型是很强的基线；ViT 要从 16 个词元中学到逻辑回归直接从 64 个"
              "固定像素位置读到的东西。"},
    "tim_pred": {"en": "{model} — reads this digit as **{pred}** ({prob:.0%}); the label is **{label}**.",
                 "zh": "{model}——把这个数字读作 **{pred}**（{prob:.0%}）；标注是 **{label}**。"},
    "tim_which_vit": {"en": "ViT to look inside", "zh": "查看哪个 ViT"},
    "tim_pos_sincos2d": {"en": "2-D sinusoidal, fixed", "zh": "二维正弦，固定"},
    "tim_pos_none": {"en": "none", "zh": "没有"},
    # ---- the two position tables ----
    "tim_pos_title": {"en": "Two position tables: learned, and 2-D sinusoidal", "zh": "两种位置表：学习得到的，和二维正弦的"},
    "tim_pos_intro": {
        "en": "A patch has a row and a column, but the sequence numbers it 1 to 16. The learned table starts as "
              "random vectors and is trained with the rest; the 2-D sinusoidal table is computed once and never "
              "trained: half of its {d} dimensions are the original Transformer's sinusoid of the patch's row, "
              "the other half the same sinusoid of its column ([CLS] gets zeros). Each small grid below is one "
              "patch: how alike its position vector is (cosine similarity) to that of every patch, drawn where "
              "the patches sit (each table on its own colour scale).",
        "zh": "一个图块有行和列，可序列只给它编号 1 到 16。学习得到的位置表一开始是随机向量，和模型其余部分一起训练；"
              "二维正弦位置表只计算一次，从不训练：它的 {d} 维中一半是原始 Transformer 的正弦函数作用在图块的行号上，"
              "另一半是同样的函数作用在列号上（[CLS] 得到全零）。下面每个小方格对应一个图块：它的位置向量和每个图块的"
              "位置向量有多像（余弦相似度），画在那些图块所在的地方（两张表各用自己的色阶）。"},
    "tim_pos_learned_title": {"en": "learned (trained with the model)", "zh": "学习得到的（随模型一起训练）"},
    "tim_pos_sincos_title": {"en": "2-D sinusoidal (computed, fixed)", "zh": "二维正弦（计算得到，固定不变）"},
    "tim_pos_panel": {"en": "patch {i}", "zh": "图块 {i}"},
    "tim_pos_value": {"en": "cosine similarity", "zh": "余弦相似度"},
    "tim_pos_caption": {
        "en": "Mean similarity of a patch's position vector to a row or column neighbour's, and to a patch two or "
              "more steps away: learned {learned_near:.2f} and {learned_far:.2f}, 2-D sinusoidal {sincos_near:.2f} "
              "and {sincos_far:.2f}. {verdict} Held-out accuracy: {acc_sincos:.1%} with the 2-D sinusoidal table, "
              "{acc_learned:.1%} with learned positions, {acc_none:.1%} without positions.",
        "zh": "一个图块的位置向量与同行或同列相邻图块的平均相似度，以及与相隔两步及以上图块的平均相似度："
              "学习得到的表为 {learned_near:.2f} 和 {learned_far:.2f}，二维正弦表为 {sincos_near:.2f} 和 {sincos_far:.2f}。"
              "{verdict}留出集准确率：二维正弦表 {acc_sincos:.1%}，学习得到的位置 {acc_learned:.1%}，没有位置 {acc_none:.1%}。"},
    "tim_pos_grid": {
        "en": "Nothing told the learned table that patch 5 sits below patch 1, yet neighbours came out more alike "
              "than distant patches: it learned part of the 2-D grid from the digits; the sinusoidal table has it "
              "by construction.",
        "zh": "没有人告诉学习得到的表图块 5 在图块 1 的正下方，但相邻图块的向量还是比远处的更像：它从数字中学到了一部分二维网格；"
              "正弦表的网格则是构造出来的。"},
    "tim_pos_nogrid": {
        "en": "The sinusoidal table has the grid by construction; the learned one, after this short training on "
              "{n_train:,} small digits, does not: neighbours are no more alike "
              "than distant patches. It tells the 16 places apart without arranging them as a grid; "
              "the grid-like tables of the ViT paper come from far more images.",
        "zh": "正弦表的网格是构造出来的；学习得到的表在 {n_train:,} 个小数字上短暂训练之后却没有：相邻图块并不比远处的图块更像。"
              "它能区分 16 个位置，却没有把它们排成网格；ViT 论文里那种像网格的位置表，"
              "是从多得多的图片中学出来的。"},
    # ---- live training ----
    "tim_live_title": {"en": "Train the small ViT yourself", "zh": "自己训练这个小 ViT"},
    "tim_live_intro": {
        "en": "Retrain one of the three ViTs here, from the same seed and recipe but with the number of steps you "
              "choose (at most {cap}, about {secs:.0f} s here). The result replaces the shipped model in this "
              "browser session only: the table above, the attention and the shuffle test then use it.",
        "zh": "在这里重新训练三个 ViT 之一：同样的种子和配方，步数由你选（最多 {cap} 步，这里大约 {secs:.0f} 秒）。"
              "结果只在这个浏览器会话中替换随附的模型：上面的表格、注意力图和打乱测试随后都用它。"},
    "tim_live_pos": {"en": "Positions", "zh": "位置向量"},
    "tim_live_steps": {"en": "Training steps (64 digits each)", "zh": "训练步数（每步 64 个数字）"},
    "tim_live_go": {"en": "Train now", "zh": "开始训练"},
    "tim_live_reset": {"en": "Back to the shipped models", "zh": "恢复随附的模型"},
    "tim_live_progress": {"en": "step {step} of {steps}, loss {loss:.3f}", "zh": "第 {step} / {steps} 步，损失 {loss:.3f}"},
    "tim_live_done": {
        "en": "Trained {model} in {seconds:.1f} s ({steps} steps, final loss {loss:.3f}): held-out accuracy "
              "**{acc:.1%}** (the shipped one, {shipped_steps} steps: {shipped:.1%}).",
        "zh": "{model}训练完成，用时 {seconds:.1f} 秒（{steps} 步，最后的损失 {loss:.3f}）：留出集准确率 **{acc:.1%}**"
              "（随附的模型，{shipped_steps} 步：{shipped:.1%}）。"},
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
        "en": "The same 16 patch vectors in a shuffled order ([CLS] stays first), read by the three ViTs. Attention "
              "compares vectors with each other and does not know their order; only the position vectors tell it.",
        "zh": "同样的 16 个图块向量，顺序打乱（[CLS] 仍在最前），分别交给三个 ViT。注意力只是把向量两两比较，"
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
              "not where. With learned positions it changes ({learned}), and with the 2-D sinusoidal table too "
              "({sincos}).",
        "zh": "没有位置向量时，[CLS] 处的输出只差浮点舍入误差（{none}）：把图片的碎块打乱，它读到的不会变，"
              "所以它只能根据出现了哪些图块来判断数字，而不知道它们在哪里。有学习得到的位置向量时，输出就变了（{learned}），"
              "用二维正弦位置表时也变了（{sincos}）。"},
    "tim_vit_digits_only": {"en": "The small ViT was trained on 8×8 digits only: choose a digit above to see it "
                                  "read one.",
                            "zh": "这个小 ViT 只用 8×8 的手写数字训练过：在上面选一个数字，看它怎么读。"},
    "tim_no_model": {"en": "The shipped ViT checkpoints are missing (run `python -m cli.vit_digits`).",
                     "zh": "缺少随附的 ViT 检查点（请运行 `python -m cli.vit_digits`）。"},
    # ---- a Hugging Face ViT on the reader's photo (refused_*: lab/vit_hub.py's refusals, said by ui.refusals.say) ----
    "tim_hf_title": {"en": "A Hugging Face ViT on your photo", "zh": "用 Hugging Face 的 ViT 看你的照片"},
    "tim_hf_intro": {
        "en": "A ViT from the Hugging Face hub (the `vit` family, e.g. google/vit-base-patch16-224: a folder with "
              "config.json, model.safetensors and preprocessor_config.json) reads your photo in colour. Its "
              "weights go into our own Transformer, as on every other page; transformers' ViTImageProcessor "
              "resizes and normalises the photo as the model was trained.",
        "zh": "一个来自 Hugging Face 模型库的 ViT（`vit` 系列，例如 `google/vit-base-patch16-224`：一个含有 `config.json`、"
              "`model.safetensors` 和 `preprocessor_config.json` 的文件夹）读你的彩色照片。它的权重装进我们自己的 "
              "Transformer，和其他页面一样；照片由 transformers 的 `ViTImageProcessor` 按模型训练时的方式缩放和归一化。"},
    "tim_hf_source": {"en": "ViT folder on this server, or hub id", "zh": "服务器上的 ViT 文件夹，或模型库中的名字"},
    "tim_hf_source_help": {
        "en": "A local folder is read at once. A hub id (organisation/name) is downloaded only on a machine that "
              "reaches the hub (or the mirror HF_ENDPOINT names): config, safetensors weights and processor, never "
              "pickles.",
        "zh": "本地文件夹直接读取。模型库中的名字（组织/名称）只有在能连上 Hugging Face 模型库（或 `HF_ENDPOINT` 指定的镜像）"
              "的机器上才下载：只下载配置、safetensors 权重和预处理配置，从不下载 `pickle` 文件。"},
    "tim_hf_go": {"en": "Look at my photo", "zh": "看我的照片"},
    "tim_hf_wait": {"en": "Name a ViT folder or hub id and press the button.", "zh": "填写 ViT 文件夹或模型库中的名字，再按按钮。"},
    "tim_hf_loading": {"en": "Reading {name} …", "zh": "正在读取 {name} …"},
    "tim_hf_loaded": {
        "en": "{name}: {layers} layers × {heads} heads; the photo resized to {side}×{side} and cut into {g}×{g} "
              "patches of {p}×{p}.",
        "zh": "{name}：{layers} 层 × {heads} 个头；照片缩放到 {side}×{side}，切成 {g}×{g} 个 {p}×{p} 的图块。"},
    "tim_hf_no_head": {"en": "This model has no classifier head: it gives vectors, not labels.",
                       "zh": "这个模型没有分类头：它输出向量，不输出标签。"},
    "tim_hf_top_title": {"en": "The five most likely labels", "zh": "可能性最大的五个标签"},
    "tim_hf_col_label": {"en": "label (the model's own)", "zh": "标签（模型自带的）"},
    "tim_hf_col_prob": {"en": "probability", "zh": "概率"},
    "tim_hf_photo_title": {"en": "Where [CLS] looks, through all layers (rollout)", "zh": "[CLS] 看向哪里（所有层的注意力展开）"},
    "tim_hf_panel_photo": {"en": "the photo as the model sees it (grey)", "zh": "模型看到的照片（灰度）"},
    "tim_hf_panel_rollout": {"en": "lit by the rollout from [CLS]", "zh": "按 [CLS] 的注意力展开照亮"},
    "tim_hf_layer": {"en": "Layer", "zh": "层"},
    "tim_hf_caption": {
        "en": "Each panel is one head of the chosen layer: its attention from [CLS] to each patch, drawn where the "
              "patch sits in the photo; what is missing from 1 stayed on [CLS] itself (from {least:.0%} to "
              "{most:.0%} across heads). The lit photo above scales each patch by its rollout weight.",
        "zh": "每个小图是所选层的一个头：从 [CLS] 到每个图块的注意力，画在图块在照片中的位置上；少于 1 的部分留给了 "
              "[CLS] 自己（各头从 {least:.0%} 到 {most:.0%}）。上面被照亮的照片，把每个图块按它的注意力展开权重调亮或调暗。"},
    "refused_not_vit": {"en": "This folder holds no ViT: its config.json's model_type is not \"vit\".",
                           "zh": "这个文件夹里不是 ViT：它的 `config.json` 中 `model_type` 不是 `vit`。"},
    "refused_vit_unsupported": {"en": "Only ViTs with exact GELU, biased Q/K/V and whole patches can be read here.",
                                   "zh": "这里只能读取使用精确 GELU、Q/K/V 带偏置、图块能整除的 ViT。"},
    "refused_vit_missing_file": {"en": "This folder has no {file}.", "zh": "这个文件夹里没有 `{file}`。"},
    "refused_vit_config": {"en": "This config.json does not describe a ViT that can be read.",
                              "zh": "这个 `config.json` 描述的不是能读取的 ViT。"},
    "refused_vit_processor": {"en": "Its preprocessor_config.json cannot be used to prepare the photo.",
                                 "zh": "它的 `preprocessor_config.json` 不能用来准备照片。"},
}

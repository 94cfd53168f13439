"""Strings of the residual page's *Training: Pre-LN vs Post-LN* view (ui/views/residual_ln_training.py)."""

STRINGS = {
    "res_view_training": {"en": "Training: Pre-LN vs Post-LN", "zh": "训练：Pre-LN 与 Post-LN"},
    "lnt_intro": {
        "en": "Where the norm sits changes how a model **trains**, not only what its stream looks like. Below: the "
              "same small decoder trained four times with this project's trainer, the norm before each sub-layer "
              "(Pre-LN) or after each addition (Post-LN), with and without a learning-rate warm-up; then the "
              "gradient itself, computed now, on its way down the residual stream.",
        "zh": "归一化放在哪里，不只改变残差流的样子，也改变模型怎样**训练**。下面先是同一个解码器玩具模型用本项目的训练器训练"
              "四次：归一化放在每个子层之前的 Pre-LN（前置层归一化），或放在每次相加之后的 Post-LN（后置层归一化），各有、各无"
              "学习率预热；然后是梯度本身：现在计算，看它怎样沿着残差流往下传。"},
    "lnt_setup": {
        "en": "**The experiment.** A {layers}-layer decoder (d = {d}, {heads} heads, sinusoidal positions) learns the "
              "reverse task for {steps} steps: AdamW, peak learning rate {lr}, gradient clipping at 1, cosine decay, "
              "seed {seed}: the same initial weights and the same batches in all four runs. Warm-up: none, or the "
              "learning rate rising linearly from 0 over the first {warmup} steps. The runs were made beforehand "
              "(the file records how: `{command}`); every number below is read from that file or computed from it.",
        "zh": "**实验。** 一个 {layers} 层解码器（d = {d}，{heads} 个头，正弦位置编码）学习反转任务，训练 {steps} 步：AdamW，"
              "峰值学习率 {lr}，梯度裁剪到 1，余弦衰减，随机种子 {seed}：四次训练的初始权重相同，批次也相同。预热：没有，"
              "或者在前 {warmup} 步里学习率从 0 线性升上去。这几次训练是事先跑好的（文件里记着命令：`{command}`）；"
              "下面每个数都从那个文件读出或由它算出。"},
    "lnt_run": {"en": "{norm}, no warm-up", "zh": "{norm}，无预热"},
    "lnt_run_warm": {"en": "{norm}, warm-up {w}", "zh": "{norm}，预热 {w} 步"},
    "lnt_loss_title": {"en": "Training loss (mean of the last {w} steps)", "zh": "训练损失（最近 {w} 步的平均）"},
    "lnt_loss_axis": {"en": "loss", "zh": "损失"},
    "lnt_step": {"en": "step", "zh": "步"},
    "lnt_lr_title": {"en": "Learning rate", "zh": "学习率"},
    "lnt_lr_none": {"en": "no warm-up", "zh": "无预热"},
    "lnt_lr_warm": {"en": "warm-up {w}", "zh": "预热 {w} 步"},
    "lnt_col_run": {"en": "run", "zh": "训练"},
    "lnt_col_learned": {"en": "loss < {x} from step", "zh": "损失 < {x} 的起始步"},
    "lnt_col_final": {"en": "final loss", "zh": "最终损失"},
    "lnt_col_acc": {"en": "final accuracy", "zh": "最终准确率"},
    "lnt_col_state": {"en": "ended", "zh": "结束状态"},
    "lnt_never": {"en": "never", "zh": "从未"},
    "lnt_state_done": {"en": "finished", "zh": "完成"},
    "lnt_state_failed": {"en": "failed", "zh": "失败"},
    "lnt_state_stopped": {"en": "stopped", "zh": "中止"},
    "lnt_uniform": {
        "en": "A model that has learned nothing spreads its guess evenly over the {k} letters: loss ln {k} = {u:.3f}.",
        "zh": "什么都没学到的模型把猜测平均分给 {k} 个字母：损失为 ln {k} = {u:.3f}。"},
    "lnt_grad_head": {"en": "Gradient norm of each layer", "zh": "每一层的梯度范数"},
    "lnt_grad_pick": {"en": "At step", "zh": "第几步"},
    "lnt_grad_init": {"en": "0 (initial weights)", "zh": "0（初始权重）"},
    "lnt_grad_title": {"en": "‖∂loss/∂θ‖ of each layer's parameters, step {step}",
                      "zh": "每一层参数的 ‖∂损失/∂θ‖，第 {step} 步"},
    "lnt_grad_axis": {"en": "gradient norm", "zh": "梯度范数"},
    "lnt_head": {"en": "final norm + unembedding", "zh": "最终归一化 + 反嵌入"},
    "lnt_grad_caption": {
        "en": "The L2 norm of the loss's gradient over all the parameters of each layer, on one fixed batch of {n} "
              "examples, before clipping. At step 0 the runs with and without warm-up have the same weights.",
        "zh": "损失对每一层全部参数的梯度的 L2 范数，在同一个固定批次（{n} 个样本）上计算，裁剪之前。第 0 步时有无预热的"
              "两次训练权重相同。"},
    "lnt_why_here": {
        "en": "**In this experiment.** At step 0 the blocks' gradients of the Post-LN model are ×{r0:.2f} those of the "
              "Pre-LN model (mean over the blocks). After {s} steps at the full rate without warm-up, the Post-LN "
              "model's first block gets ×{v:.2g} of the gradient of its last block (Pre-LN: ×{vp:.2f}; Post-LN with "
              "warm-up: ×{vw:.2f}). Its lower layers have almost stopped learning and the loss stays at the uniform "
              "guess; at step {last} the ratio is ×{vl:.2g}. The residual connection was there all along: it did not "
              "keep the gradient from vanishing on its way down.",
        "zh": "**在这个实验里。** 第 0 步时，Post-LN 模型各块的梯度是 Pre-LN 模型的 ×{r0:.2f}（对各块取平均）。不预热、用满"
              "学习率训练 {s} 步之后，Post-LN 模型第一个块得到的梯度只有最后一个块的 ×{v:.2g}（Pre-LN：×{vp:.2f}；"
              "预热的 Post-LN：×{vw:.2f}）。它下面的各层几乎不再学习，损失停在平均猜测的水平；到第 {last} 步，这个比值是 "
              "×{vl:.2g}。残差连接一直都在：它没能让梯度在往下传的路上不消失。"},
    "lnt_why": {
        "en": "**Why Post-LN wants a warm-up** (Xiong et al. 2020, \"On Layer Normalization in the Transformer "
              "Architecture\"). In a Post-LN block the norm comes after the addition, so the gradient flowing back "
              "from the output crosses a norm at every block, on the identity path too. Xiong et al. show that at "
              "initialisation this leaves the parameters near the output with larger gradients than in Pre-LN (where "
              "they shrink as the model gets deeper), and Adam turns any gradient into a step of about the learning "
              "rate. A large rate from the first step can push such a model somewhere it does not come back from; a "
              "warm-up keeps the first steps small while it settles. In a Pre-LN block the addition is the last "
              "thing a block does: the identity path runs from the output to the embedding with no norm on it, and "
              "the same rate works from step 1. How long a warm-up must be depends on the rate and the depth.",
        "zh": "**为什么 Post-LN 需要预热**（Xiong 等，2020，《On Layer Normalization in the Transformer Architecture》）。"
              "Post-LN 块里归一化在相加之后，所以从输出往回传的梯度在每个块都要穿过一个归一化，恒等路径上也一样。Xiong 等"
              "证明，初始化时这使靠近输出的参数的梯度比 Pre-LN 里的大（Pre-LN 里它们随深度增加而变小）；而 Adam 不管梯度"
              "多大，每步走的距离都大约是学习率。从第一步起就用大学习率，可能把这样的模型推到一个回不来的地方；预热让最初"
              "几步走得很小，等模型稳定下来。Pre-LN 块里相加是块做的最后一件事：恒等路径从输出一直通到嵌入，中间没有归一化，"
              "同样的学习率从第 1 步起就能用。预热需要多长，取决于学习率和深度。"},
    # ---- the gradient on the residual path ----
    "lnt_res_head": {"en": "The gradient on the residual path, computed now", "zh": "残差路径上的梯度（现在计算）"},
    "lnt_res_intro": {
        "en": "A sub-layer adds its output to the stream, so its Jacobian is the identity plus its own: the gradient "
              "g arriving at the sum reaches the sub-layer's input twice, once **unchanged through the identity** "
              "(the \"+1\") and once **through the sub-layer**. Below, for every sub-layer: the size of the "
              "gradient at its input and of those two parts (Frobenius norms over the sequence), from one backward "
              "pass of the loss.",
        "zh": "子层把输出加到残差流上，所以它的雅可比矩阵是恒等矩阵加上它自己的雅可比：到达这个和的梯度 g 会两次到达子层"
              "的输入，一次**原样经过恒等路径**（那个“+1”），一次**经过子层本身**。下面对每个子层给出：它输入处梯度的大小，"
              "以及这两部分的大小（在整段序列上取 Frobenius 范数），来自损失的一次反向传播。"},
    "lnt_weights": {"en": "Weights of the two models", "zh": "两个模型的权重"},
    "lnt_weights_trained": {"en": "trained (shipped)", "zh": "训练好的（随附）"},
    "lnt_weights_initial": {"en": "initial (seed 0, before training)", "zh": "初始的（种子 0，训练前）"},
    "lnt_twins": {
        "en": "The shipped twins: two {layers}-layer reverse-task models, Pre-LN and Post-LN, on their task's example "
              "{text}; the loss is on the answer's tokens.",
        "zh": "随附的一对模型：两个 {layers} 层的反转任务模型，一个 Pre-LN、一个 Post-LN，输入是任务的样例 {text}；损失只算答案的词元。"},
    "lnt_twins_missing": {"en": "The shipped reverse-task twins are not available here.",
                         "zh": "这里没有随附的反转任务模型对。"},
    "lnt_pre": {"en": "Pre-LN", "zh": "Pre-LN"},
    "lnt_post": {"en": "Post-LN", "zh": "Post-LN"},
    "lnt_res_title": {"en": "{model}: gradient at each sub-layer", "zh": "{model}：每个子层处的梯度"},
    "lnt_total": {"en": "at the input (total)", "zh": "输入处（总和）"},
    "lnt_identity": {"en": "through the identity (+1)", "zh": "经过恒等路径（+1）"},
    "lnt_branch": {"en": "through the sub-layer", "zh": "经过子层"},
    "lnt_res_axis": {"en": "‖∂loss/∂x‖", "zh": "‖∂损失/∂x‖"},
    "lnt_carried_title": {"en": "What the identity part keeps of the gradient above it",
                         "zh": "恒等部分保留了上面梯度的多少"},
    "lnt_carried_axis": {"en": "ratio", "zh": "比值"},
    "lnt_carried_caption": {
        "en": "Each point: the size of the identity part at a sub-layer over the size of the gradient at the next "
              "sub-layer's input. 1 everywhere means the \"+1\" passes the gradient down untouched. In the Pre-LN "
              "model nothing sits between a sum and the next sub-layer's input, so it is 1 (range here "
              "{pre_lo:.4f}–{pre_hi:.4f}). In "
              "the Post-LN model each sum is followed by a norm, and the gradient crosses that norm's Jacobian before "
              "the +1 can carry it: here it keeps between ×{post_lo:.2f} and ×{post_hi:.2f} at each step down.",
        "zh": "每个点：一个子层处恒等部分的大小，除以下一个子层输入处梯度的大小。处处为 1 表示“+1”把梯度原样传下去。"
              "Pre-LN 模型里一个和与下一个子层的输入之间什么都没有，所以它是 1（这里在 "
              "{pre_lo:.4f}–{pre_hi:.4f} 之间）。Post-LN 模型里每个和后面跟着一个归一化，梯度要先穿过归一化的雅可比矩阵，"
              "“+1”才能把它传下去：这里每往下一步保留 ×{post_lo:.2f} 到 ×{post_hi:.2f}。"},
    "lnt_res_caption": {
        "en": "Loss {loss:.4g} over {n} predicted tokens. Gradient at the first sub-layer's input / at the last's: "
              "×{depth:.2f}.",
        "zh": "损失 {loss:.4g}，共预测 {n} 个词元。第一个子层输入处的梯度 / 最后一个子层输入处的梯度：×{depth:.2f}。"},
    "lnt_text_head": {"en": "The loaded model on your text", "zh": "已加载的模型，在你的文本上"},
    "lnt_text_caption": {
        "en": "{model} ({where}), next-token loss on the first {n} tokens of the sidebar's text.",
        "zh": "{model}（{where}），在侧边栏文本的前 {n} 个词元上的下一个词元损失。"},
    "lnt_text_unavailable": {
        "en": "This part needs a decoder with a language-model head (the loss predicts each next token); the loaded "
              "model is not one. The twins above show the same computation.",
        "zh": "这一部分需要带语言模型头的解码器（损失要预测每个下一个词元）；已加载的模型不是。上面的模型对展示的是同样的计算。"},
    "lnt_text_short": {"en": "The text needs at least two tokens: the loss predicts each next token.",
                      "zh": "文本至少要有两个词元：损失要预测每个下一个词元。"},
    "lnt_missing": {"en": "The shipped experiment cannot be read: {error}", "zh": "无法读取随附的实验结果：{error}"},
    # ---- the notes ----
    "lnt_mis_plus_common": {
        "en": "\"Because of the +x, the derivative gains a constant 1, so however many layers the gradient is "
              "multiplied through, it cannot vanish.\"",
        "zh": "“因为多了 +x，求导时多出一个常数 1，所以梯度不管连乘多少层都不会消失。”"},
    "lnt_mis_plus_shown": {
        "en": "The \"1\" is an identity matrix added to the sub-layer's Jacobian, and it carries the gradient down "
              "unchanged only where nothing else sits on the path. In the Pre-LN twin above the identity part equals "
              "the gradient one sub-layer up (×{pre:.3f}); in the Post-LN twin the norm after each addition rescales "
              "it first (×{post_lo:.2f} to ×{post_hi:.2f} per step down), so the \"+1\" does not reach the bottom "
              "unchanged. Nor does it stop growth: the two parts add, and from the last sub-layer to the first the "
              "gradient changes ×{pre_depth:.2f} (Pre-LN) and ×{post_depth:.2f} (Post-LN).",
        "zh": "那个“1”是加在子层雅可比矩阵上的恒等矩阵，只有路径上没有别的东西时，它才把梯度原样传下去。上面的 Pre-LN 模型里，"
              "恒等部分正好等于上一个子层处的梯度（×{pre:.3f}）；Post-LN 模型里，每次相加之后的归一化先把它缩放了（每往下一步 "
              "×{post_lo:.2f} 到 ×{post_hi:.2f}），所以“+1”并不能原样传到底部。它也挡不住梯度变大：两部分是相加的，从最后一个"
              "子层到第一个子层，梯度变化了 ×{pre_depth:.2f}（Pre-LN）和 ×{post_depth:.2f}（Post-LN）。"},
    "lnt_mis_warm_common": {
        "en": "\"Pre-LN is easier to train but ends up worse; Post-LN is harder to train but better once trained\" "
              "(with no word about the learning-rate warm-up).",
        "zh": "“Pre-LN 更容易训练，但最终效果往往不如 Post-LN；Post-LN 难训练，但训练好之后效果更好”（对学习率预热只字未提）。"},
    "lnt_mis_warm_shown": {
        "en": "What makes Post-LN hard to train is mostly the start, and the usual cure is a warm-up (Xiong et al. "
              "2020; the original Transformer already used one). Here, at peak learning rate {lr}: Post-LN without "
              "warm-up ends at loss {post0} ({post0_at}); with {w} warm-up steps it ends at {postw} ({postw_at}); "
              "Pre-LN ends at {pre0} without warm-up ({pre0_at}) and {prew} with it ({prew_at}). Whether a Post-LN "
              "model ends up better is a claim about large models trained long; a toy task that every working run "
              "solves cannot settle it.",
        "zh": "Post-LN 难训练，主要难在开头，常用的解决办法就是预热（Xiong 等，2020；最初的 Transformer 就已经用了预热）。这里"
              "峰值学习率为 {lr}：Post-LN 不预热，最终损失 {post0}（{post0_at}）；预热 {w} 步，最终损失 {postw}（{postw_at}）；"
              "Pre-LN 不预热最终损失 {pre0}（{pre0_at}），预热则为 {prew}（{prew_at}）。Post-LN 最终是否更好，是关于长时间训练的"
              "大模型的说法；一个每次成功训练都能解出的玩具任务无法判定它。"},
    "lnt_learned_at": {"en": "loss under {x} from step {step}", "zh": "从第 {step} 步起损失低于 {x}"},
    "lnt_not_learned": {"en": "never under {x}", "zh": "从未低于 {x}"},
}

FORMULAS = {
    "lnt_jacobians": r"\begin{aligned}"
                    r"\text{Pre-LN: } & y = x + F(\mathrm{LN}(x)) &&\Rightarrow\ "
                    r"\tfrac{\partial L}{\partial x} = g + J_{F\circ \mathrm{LN}}^{\top} g \\"
                    r"\text{Post-LN: } & y = \mathrm{LN}(x + F(x)) &&\Rightarrow\ "
                    r"\tfrac{\partial L}{\partial x} = u + J_F^{\top} u,\quad u = J_{\mathrm{LN}}^{\top} g"
                    r"\end{aligned}",
}

"""Strings of the "watch a model learn" lesson's step kinds (ui/lessons/training.py)."""

STRINGS = {
    "lt_needs_run": {
        "en": "This step reads the model the lesson trains, and it has not been trained yet in this session: "
              "training it now (a few seconds, once; every other step reuses it).",
        "zh": "这一步要读取本课程训练的模型，而本次会话中它还没有训练过：现在开始训练（只需几秒，且只训练一次，"
              "其他步骤都会直接使用它）。"},
    "lt_starting": {"en": "Training is about to start…", "zh": "训练即将开始……"},
    "lt_progress": {"en": "Training: step {step} of {steps} · loss {loss} · accuracy {acc} · {s} s",
                    "zh": "训练中：第 {step} / {steps} 步 · 损失 {loss} · 准确率 {acc} · {s} 秒"},
    "lt_failed": {"en": "The lesson's model could not be trained: {error}", "zh": "本课程的模型未能训练完成：{error}"},
    "lt_caption": {"en": "The lesson's run: {task}, {steps} steps in {s} s (seed {seed}), final accuracy {acc}.",
                   "zh": "本课程的训练：{task}，{steps} 步，用时 {s} 秒（随机种子 {seed}），最终准确率 {acc}。"},
    "lt_model_caption": {
        "en": "The model: {layers} layer(s), {heads} heads, width {d}, {pe} positions. The example it is shown: {probe}",
        "zh": "模型：{layers} 层，{heads} 个头，宽度 {d}，{pe}。展示用的样例：{probe}"},
    "lt_ideal_title": {"en": "The attention that solves “{task}” (answer rows)",
                       "zh": "能解决“{task}”任务的注意力（答案所在的行）"},
    "lt_head_at": {"en": "Head {head} at step {step}", "zh": "第 {step} 步时的{head}"},
    "lt_head": {"en": "Head {head}", "zh": "{head}"},
    "lt_detector_title": {"en": "How closely the best head follows each pattern, over training",
                          "zh": "训练过程中，最佳头与每种模式的吻合程度"},
    "lt_all_heads_title": {"en": "Every head at step {step}", "zh": "第 {step} 步时的所有头"},
    # options of the predict steps
    "lk_opt_lt_early": {"en": "early (first third)", "zh": "前期（前三分之一）"},
    "lk_opt_lt_middle": {"en": "in the middle", "zh": "中期"},
    "lk_opt_lt_late": {"en": "late (last third)", "zh": "后期（最后三分之一）"},
    "lk_opt_lt_diagonal": {"en": "diagonal (itself)", "zh": "对角线（看自己）"},
    "lk_opt_lt_anti_diagonal": {"en": "anti-diagonal (mirror)", "zh": "反对角线（镜像）"},
    "lk_opt_lt_previous": {"en": "previous token", "zh": "前一个词元"},
    "lk_opt_lt_induction": {"en": "induction (after the earlier copy)", "zh": "归纳（前一次出现之后的词元）"},
    "lk_opt_lt_before": {"en": "before the loss falls", "zh": "在损失下降之前"},
    "lk_opt_lt_together": {"en": "together with it", "zh": "与损失下降同时"},
    "lk_opt_lt_after": {"en": "after the loss falls", "zh": "在损失下降之后"},
    # default notices
    "lk_train_task_notice": {
        "en": "The example is {probe}: {n_answer:d} answer tokens, each predicted from what comes before it, "
              "over a vocabulary of {vocab:d} tokens.",
        "zh": "样例是 {probe}：共有 {n_answer:d} 个答案词元，每个都根据它前面的内容来预测，词表大小为 {vocab:d}。"},
    "lk_train_run_notice": {
        "en": "The loss starts at {first_loss:.2f}, close to ln {vocab:d} = {ln_vocab:.2f} (a uniform guess), "
              "and ends at {last_loss:.3f}; after {steps:d} steps ({seconds:.1f} s) the model gets "
              "{accuracy:.0%} of the evaluation examples exactly right.",
        "zh": "损失从 {first_loss:.2f} 开始，接近 ln {vocab:d} = {ln_vocab:.2f}（均匀随机猜测时的损失），最后降到 "
              "{last_loss:.3f}；训练 {steps:d} 步（{seconds:.1f} 秒）后，模型能完全答对 {accuracy:.0%} 的评估样例。"},
    "lk_train_loss_drop_notice": {
        "en": "The loss falls fastest around step {step:d} of {steps:d}: from {loss_before:.3f} to {loss_after:.3f} "
              "in a few steps.",
        "zh": "损失在第 {step:d} 步左右（共 {steps:d} 步）下降最快：短短几步内从 {loss_before:.3f} 降到 "
              "{loss_after:.3f}。"},
    "lk_train_attention_notice": {
        "en": "At step {step:d}, head {head} puts {score:.0%} of its weight on the {pattern} keys "
              "(even attention would give {chance:.0%}); the loss is {loss:.3f}.",
        "zh": "第 {step:d} 步时，{head}把 {score:.0%} 的权重放在“{pattern}”模式的键上（均匀分配只有 "
              "{chance:.0%}）；此时损失为 {loss:.3f}。"},
    "lk_train_pattern_notice": {
        "en": "Head {head} follows the {pattern} pattern with {score:.0%} of its weight (chance {chance:.0%}); "
              "the next best pattern, {runner_up}, gets {runner_score:.0%}.",
        "zh": "{head}以 {score:.0%} 的权重遵循“{pattern}”模式（随机水平 {chance:.0%}）；"
              "其次的“{runner_up}”只有 {runner_score:.0%}。"},
    "lk_train_scrub_notice": {
        "en": "{snapshots:d} snapshots, one every {every:d} steps: head {head}'s {pattern} score goes from "
              "{start:.0%} to {end:.0%}.",
        "zh": "共 {snapshots:d} 个快照，每 {every:d} 步一个：{head}的“{pattern}”得分从 {start:.0%} 升到 {end:.0%}。"},
    "lk_train_detector_notice": {
        "en": "The {pattern} score rises from {start:.0%} to {end:.0%} (chance {chance:.0%}) and is half-way "
              "at step {form_step:d}; the loss falls fastest around step {drop_step:d}.",
        "zh": "“{pattern}”得分从 {start:.0%} 升到 {end:.0%}（随机水平 {chance:.0%}），在第 {form_step:d} 步到达一半；"
              "损失在第 {drop_step:d} 步左右下降最快。"},
    "lk_train_all_heads_notice": {
        "en": "At step {step:d}, {n_learned:d} of the {n_heads:d} heads follow some pattern at least 25 points "
              "above chance; head {head} (outlined) is the {pattern} head.",
        "zh": "第 {step:d} 步时，{n_heads:d} 个头中有 {n_learned:d} 个头遵循某种模式的程度比随机水平高出至少 "
              "25 个百分点；加框的{head}就是“{pattern}”头。"},
}

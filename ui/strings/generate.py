"""Strings of the generation page (decoding, beam tree, repetition, KV cache, cross-attention)."""

STRINGS = {
    "gen_title": {"en": "Generation, one token at a time", "zh": "逐个词元地生成"},
    "gen_encoder_only": {
        "en": "**{model}** is an encoder: it reads a whole text at once, every token seeing every other, and it has "
              "no language-model head that predicts the next token, so it does not generate. Generation needs a "
              "decoder (GPT, LLaMA, a trained toy decoder) or an encoder-decoder model.",
        "zh": "**{model}** 是一个编码器：它一次读入整段文本，每个词元都能看到其他所有词元，而且没有预测下一个词元的"
              "语言模型头，所以它不会生成文本。生成需要解码器（GPT、LLaMA、训练好的玩具解码器）或编码器-解码器模型。"},
    "gen_switch_decoder": {"en": "Switch to a decoder: {model}", "zh": "切换到解码器：{model}"},
    "gen_random": {"en": "This model has random weights: its choices show the mechanics, not language.",
                   "zh": "该模型是随机权重：它的选择展示的是生成机制，而不是语言能力。"},
    "gen_prompt_is_sidebar": {"en": "The prompt is the text in the sidebar; the model continues it.",
                              "zh": "提示词就是侧边栏中的文本，模型会接着它往下写。"},
    "gen_source_is_sidebar": {"en": "The source is the text in the sidebar: the encoder reads it once, the decoder "
                                    "writes the output token by token.",
                              "zh": "源文本就是侧边栏中的文本：编码器只读一次，解码器逐个词元地写出结果。"},
    "gen_lm_prompt": {"en": "{lang} prompt: {text}", "zh": "{lang}提示词：{text}"},
    "gen_lang_zh": {"en": "Chinese", "zh": "中文"},
    "gen_lang_en": {"en": "English", "zh": "英文"},
    "gen_use_example": {"en": "Use the task's example: {text}", "zh": "使用该任务的示例：{text}"},
    "gen_strategy": {"en": "Decoding", "zh": "解码方式"},
    "gen_strategy_greedy": {"en": "Greedy", "zh": "贪心"},
    "gen_strategy_sample": {"en": "Sampling", "zh": "采样"},
    "gen_strategy_beam": {"en": "Beam search", "zh": "束搜索"},
    "gen_max_new": {"en": "New tokens (at most)", "zh": "最多生成的词元数"},
    "gen_temperature": {"en": "Temperature", "zh": "温度"},
    "gen_temperature_help": {"en": "Logits are divided by T. T < 1 sharpens the distribution, T > 1 flattens it; "
                                   "0 means greedy.",
                             "zh": "logits 除以 T。T < 1 让分布更尖锐，T > 1 让分布更平坦；0 表示贪心。"},
    "gen_top_k": {"en": "Top-k", "zh": "Top-k"},
    "gen_top_k_help": {"en": "Keep only the k most probable tokens; 0 = no limit, 1 = greedy.",
                       "zh": "只保留概率最高的 k 个词元；0 = 不限制，1 = 贪心。"},
    "gen_top_p": {"en": "Top-p (nucleus)", "zh": "Top-p（核采样）"},
    "gen_top_p_help": {"en": "Keep the smallest set of most probable tokens whose probability reaches p; 1 = no "
                             "limit, 0 = only the most probable token.",
                       "zh": "按概率从高到低保留词元，直到累计概率达到 p（取最少的一组）；1 = 不限制，0 = 只保留概率最高的词元。"},
    "gen_seed": {"en": "Seed", "zh": "随机种子"},
    "gen_beam_width": {"en": "Beam width", "zh": "束宽"},
    "gen_length_penalty": {"en": "Length penalty α", "zh": "长度惩罚 α"},
    "gen_length_penalty_help": {"en": "Finished sequences are ranked by log P / length^α: α = 0 favours short "
                                      "sequences, larger α favours longer ones.",
                                "zh": "完成的序列按 log P / 长度^α 排序：α = 0 偏向短序列，α 越大越偏向长序列。"},
    "gen_use_cache": {"en": "KV cache", "zh": "KV 缓存"},
    "gen_use_cache_help": {"en": "On: each step feeds only the new token and reuses the stored keys and values. "
                                 "Off: the whole context is recomputed every step. The tokens are the same.",
                           "zh": "开启：每一步只输入新词元，复用已保存的键和值。关闭：每一步重新计算整个上下文。生成的词元相同。"},
    "gen_t0_greedy": {"en": "Temperature 0 means greedy: the most probable token every time.",
                      "zh": "温度为 0 即贪心：每一步都选概率最高的词元。"},
    "gen_p0_greedy": {"en": "Top-p 0 keeps only the most probable token: the same as greedy.",
                      "zh": "Top-p 为 0 时只保留概率最高的词元：与贪心相同。"},
    "gen_truncated": {"en": "The prompt was too long: {cut} tokens were cut and the last {kept} kept, so that the "
                            "prompt and the new tokens fit in the model's {max_len} positions.",
                      "zh": "提示词太长：删去了 {cut} 个词元，保留了最后 {kept} 个，使提示词和新词元能放进模型的 "
                            "{max_len} 个位置。"},
    "gen_running_beam": {"en": "Beam search…", "zh": "束搜索中……"},
    "gen_failed": {"en": "Generation failed: {error}", "zh": "生成失败：{error}"},
    "gen_stop": {"en": "Stop", "zh": "停止"},
    "gen_progress": {"en": "Generating token {i} of at most {n}…", "zh": "正在生成第 {i} 个词元（最多 {n} 个）……"},
    "gen_stopped": {"en": "Stopped after {n} tokens: what was produced is kept below. Press \"Generate again\" "
                          "to start over.",
                    "zh": "已在生成 {n} 个词元后停止：已生成的内容保留在下方。点击“重新生成”可从头开始。"},
    "gen_output": {"en": "Generated:", "zh": "生成结果："},
    "gen_nothing": {"en": "(nothing visible)", "zh": "（没有可见内容）"},
    "gen_eos": {"en": "The model chose the end-of-sequence token, so generation ended there.",
                "zh": "模型选择了序列结束词元，生成到此结束。"},
    "gen_again": {"en": "Generate again", "zh": "重新生成"},
    "gen_tab_step": {"en": "Step", "zh": "单步"},
    "gen_tab_beam": {"en": "Beam tree", "zh": "束搜索树"},
    "gen_tab_repetition": {"en": "Repetition", "zh": "重复"},
    "gen_tab_cache": {"en": "KV cache", "zh": "KV 缓存"},
    "gen_tab_cross": {"en": "Cross-attention", "zh": "交叉注意力"},
    "gen_prev": {"en": "Previous step", "zh": "上一步"},
    "gen_next": {"en": "Next step", "zh": "下一步"},
    "gen_play": {"en": "Play", "zh": "播放"},
    "gen_pause": {"en": "Pause", "zh": "暂停"},
    "gen_step": {"en": "Step", "zh": "步骤"},
    "gen_candidates": {"en": "Step {i}: candidates for position {pos}", "zh": "第 {i} 步：位置 {pos} 的候选词元"},
    "gen_chosen": {"en": "Chosen: **{tok}**.", "zh": "选中：**“{tok}”**。"},
    "gen_why_greedy": {"en": "Greedy decoding takes the most probable token.", "zh": "贪心解码选择概率最高的词元。"},
    "gen_why_sampled": {"en": "Drawn at random with probability {p:.3f} (rank {rank} by the model); {kept} tokens of "
                              "the vocabulary survived the cut.",
                        "zh": "以 {p:.3f} 的概率随机抽中（模型排序第 {rank}）；词表中有 {kept} 个词元经过截断后保留。"},
    "gen_attn_title": {"en": "Attention of “{tok}” over the context, layer {layer}",
                       "zh": "“{tok}”对上下文的注意力，第 {layer} 层"},
    "gen_attn_caption": {
        "en": "One row per head: the new row of attention computed in this step. The last context token is the query "
              "whose output predicts the next token; it looks back over every cached position (a decoder never "
              "looks ahead).",
        "zh": "每一行是一个头：这一步新算出的那一行注意力。上下文的最后一个词元是查询，它的输出用来预测下一个词元；"
              "它回看所有已缓存的位置（解码器从不看未来）。"},
    "gen_term_prob": {"en": "probability", "zh": "概率"},
    "gen_term_model": {"en": "model (T = 1)", "zh": "模型原始分布（T = 1）"},
    "gen_term_tempered": {"en": "after temperature", "zh": "温度调整后"},
    "gen_term_final": {"en": "drawn from (after top-k / top-p)", "zh": "实际抽样分布（top-k / top-p 之后）"},
    "gen_term_cut": {"en": "cut", "zh": "被截断"},
    "gen_term_chosen": {"en": "chosen", "zh": "选中"},
    "gen_term_step": {"en": "step", "zh": "步骤"},
    "gen_term_score": {"en": "log P", "zh": "对数概率"},
    "gen_term_kept": {"en": "kept", "zh": "保留"},
    "gen_term_pruned": {"en": "pruned", "zh": "被剪枝"},
    "gen_term_finished": {"en": "finished", "zh": "已结束"},
    "gen_term_best": {"en": "returned sequence", "zh": "最终返回的序列"},
    "gen_term_layer": {"en": "layer", "zh": "层"},
    "gen_term_position": {"en": "position", "zh": "位置"},
    "gen_term_cached": {"en": "cached in an earlier step", "zh": "之前步骤已缓存"},
    "gen_term_new": {"en": "computed in this step", "zh": "这一步新计算"},
    "gen_term_tokens": {"en": "cached positions", "zh": "已缓存的位置数"},
    "gen_term_bytes": {"en": "KV cache (KiB, float32)", "zh": "KV 缓存（KiB，float32）"},
    "gen_kv_label": {"en": "{kind}, {n} kv", "zh": "{kind}（{n} 个键/值头）"},
    "gen_term_block": {"en": "block", "zh": "块"},
    "gen_term_slot": {"en": "slot in the block", "zh": "块内槽位"},
    "gen_term_source": {"en": "source token", "zh": "源词元"},
    "gen_ngram": {"en": "Repeated n-gram length n", "zh": "重复 n-gram（n 元语法）的长度 n"},
    "gen_repeat_rate": {"en": "{rate:.0%} of the generated tokens complete an {n}-gram that already occurred "
                              "(orange).",
                        "zh": "生成的词元中有 {rate:.0%} 完成了一个之前出现过的 {n}-gram（橙色）。"},
    "gen_repeat_explain": {
        "en": "Greedy decoding often falls into a loop: once a phrase has been produced, repeating it becomes the most "
              "probable continuation, and the model's own output feeds the next step (GPT-2 is famous for this). "
              "Sampling with a higher temperature, or top-k / top-p, breaks the loop at the price of less likely "
              "tokens.",
        "zh": "贪心解码常常陷入循环：一个短语一旦出现，重复它就成了概率最高的续写，而模型自己的输出又被送入下一步"
              "（GPT-2 就以此出名）。提高温度采样或使用 top-k / top-p 可以打破循环，代价是会选到概率较低的词元。"},
    "gen_compare": {"en": "Compare decoding settings on this prompt", "zh": "在这个提示词上比较不同的解码设置"},
    "gen_col_setting": {"en": "setting", "zh": "设置"},
    "gen_col_rate": {"en": "repeated tokens", "zh": "重复词元比例"},
    "gen_col_text": {"en": "generated text", "zh": "生成的文本"},
    "gen_compare_caption": {"en": "Same model, same prompt, same number of tokens; sampling with seed 0.",
                            "zh": "同一模型、同一提示词、同样的词元数；采样使用种子 0。"},
    "gen_prompt": {"en": "prompt", "zh": "提示词"},
    "gen_beam_big": {"en": "The tree has {n} nodes; zoom in on the chart to read the labels.",
                     "zh": "这棵树有 {n} 个节点；放大图表可以看清标签。"},
    "gen_beam_best": {"en": "Returned sequence: {n} tokens, log P = {score:.3f}, score log P / {n}^{alpha} = "
                            "{norm:.3f}.",
                      "zh": "返回的序列：{n} 个词元，log P = {score:.3f}，得分 log P / {n}^{alpha} = {norm:.3f}。"},
    "gen_beam_explain": {
        "en": "At every step each of the {width} kept sequences is extended by its best tokens; of all these "
              "candidates only the {width} with the highest total log-probability survive (blue), the rest are "
              "pruned (grey). A sequence that chooses the end token is finished (green) and leaves the beam. With "
              "width 1 this is exactly greedy decoding.",
        "zh": "每一步，保留的 {width} 个序列各自用最好的几个词元扩展；在所有候选中，只有总对数概率最高的 {width} 个"
              "存活（蓝色），其余被剪枝（灰色）。选到结束词元的序列即完成（绿色），不再参与扩展。束宽为 1 时就是贪心解码。"},
    "gen_cache_off": {"en": "The KV cache is off: every step recomputed all keys and values; the figures show what "
                            "the cache would hold.",
                      "zh": "KV 缓存已关闭：每一步都重新计算全部键和值；下图展示的是缓存本应保存的内容。"},
    "gen_cache_explain": {
        "en": "After this step every layer holds the keys and values of **{n}** positions. This model has {heads} "
              "query heads and **{kv}** key/value heads ({kind}), each of {dh} dimensions: only the K/V heads are "
              "stored, the query heads that share one read the same rows.",
        "zh": "这一步之后，每一层保存了 **{n}** 个位置的键和值。该模型有 {heads} 个查询头和 **{kv}** 个键/值头"
              "（{kind}），每个 {dh} 维：只保存键/值头，共享同一个键/值头的查询头读取相同的行。"},
    "gen_cache_cross": {"en": "Cross-attention also keeps the K/V of the {n} source positions: {kib:.1f} KiB, "
                              "computed once from the encoder's output and reused at every step.",
                        "zh": "交叉注意力还保存了 {n} 个源位置的键/值：{kib:.1f} KiB，由编码器输出计算一次，之后每一步重复使用。"},
    "gen_cache_grid_caption": {"en": "Blue: K/V rows stored by earlier steps and only read now. Red: rows computed in "
                                     "this step (the whole prompt at step 1, then one row per step).",
                               "zh": "蓝色：之前步骤存下、现在只需读取的 K/V 行。红色：这一步新计算的行（第 1 步是整个提示词，"
                                     "之后每步一行）。"},
    "gen_col_bytes": {"en": "memory", "zh": "内存"},
    "gen_cache_beam": {"en": "Beam search keeps one cache row per beam ({width} beams); surviving beams take a "
                             "copy of their parent's cache every step.",
                       "zh": "束搜索为每个束保存一份缓存（{width} 个束）；每一步存活的束复制其父序列的缓存。"},
    "gen_cache_compare": {"en": "At {n} positions this model's cache ({kind}) takes **{this:.1f} KiB**; with one K/V "
                                "head per query head (MHA) it would take {mha:.1f} KiB, with a single shared K/V head "
                                "(MQA) {mqa:.1f} KiB.",
                          "zh": "在 {n} 个位置时，该模型的缓存（{kind}）占 **{this:.1f} KiB**；如果每个查询头都有自己的"
                                "键/值头（MHA）需要 {mha:.1f} KiB，所有查询头共享一个键/值头（MQA）只需 {mqa:.1f} KiB。"},
    "gen_paged_title": {"en": "Paged view (PagedAttention)", "zh": "分页视图（PagedAttention）"},
    "gen_block_size": {"en": "Block size (positions per block)", "zh": "块大小（每块的位置数）"},
    "gen_paged_explain": {
        "en": "PagedAttention (vLLM) stores the cache in fixed-size blocks, like pages of virtual memory: "
              "{blocks} blocks of {block} positions, and a block table maps each logical block to a physical "
              "one anywhere in a shared pool (the physical numbers here are an illustration). Only the last block "
              "has empty slots ({empty}). A contiguous buffer reserved for the full context of {max_len} positions "
              "would leave {waste} positions empty.",
        "zh": "PagedAttention（vLLM）把缓存存放在固定大小的块中，就像虚拟内存的页：共 {blocks} 块，每块 {block} "
              "个位置；块表把每个逻辑块映射到共享内存池中任意位置的物理块（这里的物理编号只是示意）。只有最后一块有空槽"
              "（{empty} 个）。如果为整个 {max_len} 个位置的上下文预留一段连续缓冲区，会有 {waste} 个位置空着。"},
    "gen_cross_title": {"en": "Cross-attention, layer {layer}: {n} generated tokens over the source",
                        "zh": "交叉注意力，第 {layer} 层：{n} 个生成词元对源文本的注意力"},
    "gen_cross_caption": {
        "en": "Each row is one decoding step (previous token → new token) and how its query spread over the source "
              "tokens. The encoder's keys and values are computed once and cached; the map grows by one row per "
              "step, like an alignment between output and input.",
        "zh": "每一行是一个解码步骤（上一个词元 → 新词元），显示它的查询在源词元上的分布。编码器的键和值只计算一次并缓存；"
              "每一步增加一行，就像输出与输入之间的对齐。"},
    "gen_ex_loop": {
        "en": "A decoder turns the last position's output into logits over the vocabulary. Softmax makes them a "
              "probability distribution; one token is picked, appended to the input, and the model runs again. "
              "Temperature reshapes the distribution, top-k and top-p cut its tail, beam search keeps several "
              "candidates instead of one.",
        "zh": "解码器把最后一个位置的输出变成整个词表上的 logits，经过 softmax 得到概率分布；选出一个词元，接到输入后面，"
              "模型再运行一次。温度改变分布的形状，top-k 和 top-p 截掉长尾，束搜索同时保留多个候选而不只一个。"},
    "gen_ex_cache": {
        "en": "Without a cache, step t recomputes the keys and values of all t earlier positions, although they "
              "never change (a decoder's earlier tokens cannot see later ones). The KV cache keeps them: each step "
              "computes one new row of K and V per layer and one new row of attention. Grouped-query (GQA) and "
              "multi-query (MQA) attention shrink the cache by sharing K/V heads between query heads.",
        "zh": "没有缓存时，第 t 步要重新计算前面 t 个位置的键和值，尽管它们从不改变（解码器中前面的词元看不到后面的词元）。"
              "KV 缓存把它们保存下来：每一步每层只计算一行新的 K、V 和一行新的注意力。分组查询注意力（GQA）和多查询注意力"
              "（MQA）让多个查询头共享键/值头，从而缩小缓存。"},
    # ---- training (teacher forcing) vs generation -------------------------------------------------
    "tf_title": {"en": "Training sees every position at once; generation sees one at a time",
                 "zh": "训练时一次看到所有位置，生成时一次只看一个"},
    "tf_intro": {
        "en": "A decoder is trained with **teacher forcing**: the whole text goes in at once, and every position i is "
              "asked for the next token x_(i+1) (the targets are the input shifted by one). The causal mask hides "
              "x_(i+1) and everything after it from position i, so one text of n tokens is n − 1 training examples, "
              "all scored by ONE forward pass. Generation runs the same model one token at a time, keeping the keys "
              "and values of the earlier tokens (the KV cache). Below: your text both ways{source}.",
        "zh": "解码器用**教师强制**（teacher forcing）训练：整段文本一次性输入，每个位置 i 都要预测下一个词元 x_(i+1)"
              "（目标就是把输入整体向前错开一位）。因果掩码让位置 i 看不到 x_(i+1) 及其之后的内容，所以一段 n 个词元的文本就是 "
              "n − 1 个训练样本，全部由**一次**前向计算打分。生成时同一个模型一次只处理一个词元，并保存之前词元的键和值"
              "（KV 缓存）。下面用这两种方式处理你的文本{source}。"},
    "tf_source": {"en": " (the decoder reads the target text; the encoder, the source)",
                  "zh": "（解码器读取目标文本，编码器读取源文本）"},
    "tf_matrix_title": {"en": "One text = {n} training examples, from one pass: row i reads tokens 0..i and is scored "
                              "on token i+1",
                        "zh": "一段文本 = {n} 个训练样本，来自一次前向计算：第 i 行读取词元 0..i，并对词元 i+1 打分"},
    "tf_one_pass": {"en": "One causal pass", "zh": "一次因果前向计算"},
    "tf_one_pass_value": {"en": "{n} examples", "zh": "{n} 个样本"},
    "tf_mean_loss": {"en": "Training loss (mean)", "zh": "训练损失（平均）"},
    "tf_mean_loss_value": {"en": "{loss:.3f} nats", "zh": "{loss:.3f} 奈特"},
    "tf_cached": {"en": "Token by token (KV cache)", "zh": "逐个词元（KV 缓存）"},
    "tf_cached_value": {"en": "{n} passes", "zh": "{n} 次前向计算"},
    "tf_diff": {"en": "Largest |Δ logit|", "zh": "最大 |Δ logit|"},
    "tf_col_pos": {"en": "position i", "zh": "位置 i"},
    "tf_col_reads": {"en": "reads up to", "zh": "读到"},
    "tf_col_target": {"en": "target x_(i+1)", "zh": "目标 x_(i+1)"},
    "tf_col_prob": {"en": "p(target)", "zh": "p(目标)"},
    "tf_col_loss": {"en": "loss −log p", "zh": "损失 −log p"},
    "tf_col_top_parallel": {"en": "top-1, one pass", "zh": "首选（一次计算）"},
    "tf_col_top_cached": {"en": "top-1, token by token", "zh": "首选（逐个词元）"},
    "tf_col_diff": {"en": "max |Δ logit|", "zh": "最大 |Δ logit|"},
    "tf_diff_title": {"en": "Both ways give the same logits at every position", "zh": "两种方式在每个位置给出相同的 logits"},
    "tf_diff_caption": {
        "en": "The largest difference between the logits of the one pass and of the token-by-token pass, per position "
              "({max:.1e} at most: float32 rounding, because the two add the same products in another order). The "
              "top-1 token agrees at {agree} of {n} positions.",
        "zh": "每个位置上，一次计算与逐个词元计算的 logits 之间的最大差值（最多 {max:.1e}：float32 舍入误差，因为两者以不同的"
              "顺序累加同样的乘积）。首选词元在 {n} 个位置中的 {agree} 个上一致。"},
    "tf_loss_caption": {
        "en": "The training loss of this text is the mean of the {n} losses: {loss:.3f} nats. Greedy generation would "
              "instead feed back the model's own top-1 token at each step, not the text's.",
        "zh": "这段文本的训练损失是 {n} 个损失的平均值：{loss:.3f} 奈特。贪心生成则会在每一步把模型自己的首选词元（而不是文本中的"
              "词元）送回输入。"},
    "tf_short": {"en": "Teacher forcing needs at least two tokens.", "zh": "教师强制至少需要两个词元。"},
    "tf_mis_common": {
        "en": "“Most large language models use only the encoder, because a decoder generates step by step and cannot "
              "be trained in parallel.”",
        "zh": "“大多数大语言模型只用编码器，因为解码器需要逐步生成，不能并行训练。”"},
    "tf_mis_shown": {
        "en": "GPT, LLaMA and most large LMs are decoder-only, and they train in parallel: one pass under the causal "
              "mask scored all {n} examples of your text above and gave the same logits as {steps} token-by-token "
              "steps (largest difference {diff:.1e}). Only generation is sequential.",
        "zh": "GPT、LLaMA 以及大多数大语言模型都是只有解码器的模型，而且它们是并行训练的：上面在因果掩码下的一次前向计算就给你的"
              "文本的全部 {n} 个样本打了分，并且与 {steps} 次逐个词元计算得到的 logits 相同（最大差值 {diff:.1e}）。"
              "只有生成才是逐步进行的。"},
    "tf_mis_sampling_common": {"en": "“The simplest way to train GPT-2 is to generate unconditional samples.”",
                               "zh": "“训练 GPT-2 最简单的方法是生成无条件样本。”"},
    "tf_mis_sampling_shown": {
        "en": "Sampling is how a trained model is run; it changes no weight. Training needs targets: the {n} "
              "examples above, each with the next token as its target, give a mean loss of {loss:.3f} nats, and "
              "training moves the weights down that loss's gradient. GPT-2's code release offered unconditional "
              "and conditional sampling of the trained model, not training.",
        "zh": "采样是运行训练好的模型的方式，它不改变任何权重。训练需要目标：上面的 {n} 个样本各以下一个词元为目标，平均损失为 "
              "{loss:.3f} 奈特，训练沿着这个损失的梯度调整权重。GPT-2 发布的代码提供的是对训练好的模型做无条件和有条件采样，"
              "而不是训练。"},
    "gen_mis_encoder_common": {"en": "“An encoder is suited to text generation.”",
                               "zh": "“编码器适合做文本生成。”"},
    "gen_mis_encoder_shown": {
        "en": "An encoder has no next-token head and its tokens see the tokens after them, so it cannot write a text "
              "one token at a time. Free generation needs a decoder or an encoder-decoder; an encoder is for "
              "understanding (classification, tagging, retrieval) and fills in masked tokens at most.",
        "zh": "编码器没有预测下一个词元的输出头，而且它的每个词元都能看到后面的词元，所以它无法一个词元接一个词元地写出文本。"
              "自由生成需要解码器或编码器-解码器；编码器用于理解（分类、标注、检索），最多只能填补被掩码的词元。"},
    "tf_term_context": {"en": "context (visible)", "zh": "上下文（可见）"},
    "tf_term_target": {"en": "target", "zh": "目标"},
    "tf_term_example": {"en": "example", "zh": "样本"},
    "tf_term_loss": {"en": "−log p(target)", "zh": "−log p(目标)"},
}

FORMULAS = {
    "gen_sampling": r"p_i=\frac{e^{z_i/T}}{\sum_j e^{z_j/T}},\qquad "
                    r"V_k=\operatorname{top}_k(p),\quad V_p=\min\{V:\textstyle\sum_{i\in V}p_i\ge p\},\quad "
                    r"\tilde p_i=\frac{p_i\,[i\in V]}{\sum_{j\in V}p_j}",
    "gen_beam": r"\mathrm{score}(y_{1..n})=\frac{1}{n^{\alpha}}\sum_{t=1}^{n}\log P(y_t\mid x,\,y_{<t})",
    "gen_beam_zh": r"\text{得分}(y_{1..n})=\frac{1}{n^{\alpha}}\sum_{t=1}^{n}\log P(y_t\mid x,\,y_{<t})",
    "gen_cache_bytes": r"\text{bytes}=2\times L\times n_{kv}\times d_{head}\times \text{positions}\times 4",
    "gen_cache_bytes_zh": r"\text{字节数}=2\times L\times n_{kv}\times d_{head}\times \text{位置数}\times 4",
}

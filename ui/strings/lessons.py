"""Strings of the Lessons page (navigation, predict-then-reveal, lesson-file errors) and the attention step kinds."""

STRINGS = {
    "ls_title": {"en": "Lessons", "zh": "课程"},
    "ls_lesson": {"en": "Lesson", "zh": "课程"},
    "ls_none": {"en": "No lesson could be read: the lessons/ folder is empty or every file has an error.",
                "zh": "没有可读取的课程：lessons/ 文件夹为空，或每个文件都有错误。"},
    "ls_library": {"en": "All lessons ({n}) and your own lesson file", "zh": "全部课程（{n} 个）与自己的课程文件"},
    "ls_n_steps": {"en": "{n} steps", "zh": "{n} 步"},
    "ls_bad_file": {"en": "The lesson file {file} was skipped: {error}", "zh": "已跳过课程文件 {file}：{error}"},
    "ls_upload": {"en": "Run your own lesson file (.toml)", "zh": "运行自己的课程文件（.toml）"},
    "ls_upload_help": {
        "en": "A lesson is a TOML file like those in the lessons/ folder: texts in English and Chinese, "
              "step kinds and their settings. Nothing in it is executed; the file is checked field by field.",
        "zh": "课程是一个 TOML 文件，格式与 lessons/ 文件夹中的文件相同：包含中英文文字、步骤类型及其参数。"
              "文件中的任何内容都不会被执行，每个字段都会逐一检查。"},
    "ls_upload_bad": {"en": "The lesson file {file} cannot be run: {error}", "zh": "课程文件 {file} 无法运行：{error}"},
    "ls_upload_ok": {"en": "Added the lesson “{title}” ({n} steps): pick it in the list above.",
                     "zh": "已添加课程《{title}》（共 {n} 步），请在上方列表中选择。"},
    "ls_wrong_arch": {
        "en": "This lesson needs a model of another kind: {model} is {arch}, the lesson runs on {archs}.",
        "zh": "这门课程需要另一类模型：{model} 是{arch}，而本课程适用于{archs}。"},
    "ls_arch_encoder": {"en": "an encoder", "zh": "编码器"},
    "ls_arch_decoder": {"en": "a decoder", "zh": "解码器"},
    "ls_arch_encoder-decoder": {"en": "an encoder-decoder", "zh": "编码器-解码器"},
    "ls_switch": {"en": "Switch to {model}", "zh": "切换到 {model}"},
    "ls_written_for": {"en": "This lesson was written for {model}; it also runs on the model you chose.",
                       "zh": "本课程是为 {model} 编写的；在你选择的模型上也可以运行。"},
    "ls_written_for_text": {"en": "This lesson was written for the text “{text}”; your own works too.",
                            "zh": "本课程是为文本“{text}”编写的；用你自己的文本也可以。"},
    "ls_use_text": {"en": "Use this text", "zh": "使用这段文本"},
    "ls_model_mismatch": {"en": "This lesson does not fit {model}: {error}",
                          "zh": "本课程与 {model} 不匹配：{error}"},
    "ls_progress": {"en": "{lesson} · step {i} of {n}", "zh": "{lesson} · 第 {i} 步，共 {n} 步"},
    "ls_computing": {"en": "Computing this step on your sentence…", "zh": "正在用你的句子计算这一步……"},
    "ls_step_failed": {"en": "This step could not be computed: {error}", "zh": "这一步无法计算：{error}"},
    "ls_open_explorer": {"en": "Open this in the explorer", "zh": "在对应的页面中打开"},
    "ls_back": {"en": "Back", "zh": "上一步"},
    "ls_next": {"en": "Next", "zh": "下一步"},
    "ls_keys": {"en": "Keys ← and → move between steps.", "zh": "按 ← 和 → 键切换步骤。"},
    "ls_your_guess": {"en": "Your guess", "zh": "你的猜测"},
    "ls_reveal": {"en": "Reveal", "zh": "揭晓"},
    "ls_reveal_no_guess": {"en": "Show me without guessing", "zh": "不猜，直接看答案"},
    "ls_answer_is": {"en": "The model's answer: {answer}.", "zh": "模型的答案：{answer}。"},
    "ls_right": {"en": "Right: the model's answer is {answer}.", "zh": "猜对了：模型的答案正是 {answer}。"},
    "ls_wrong": {"en": "You guessed {guess}; the model's answer is {answer}.",
                 "zh": "你猜的是 {guess}；模型的答案是 {answer}。"},
    "ls_again": {"en": "Hide the answer again", "zh": "重新隐藏答案"},
    "ls_tally": {"en": "In this browser: {right} of {total} guesses right on this step.",
                 "zh": "在此浏览器中：这一步共猜了 {total} 次，猜对 {right} 次。"},
    # lesson-file errors (lab/lessons.py LessonError codes); {where} names the field and line
    "refused_lesson_too_big": {"en": "the file has {size} bytes; a lesson file may have at most {limit}.",
                               "zh": "文件大小为 {size} 字节；课程文件最多 {limit} 字节。"},
    "refused_lesson_not_text": {"en": "the file is not UTF-8 text.", "zh": "文件不是 UTF-8 文本。"},
    "refused_lesson_syntax": {"en": "{where}: this is not valid TOML ({detail}).",
                              "zh": "{where}：不是有效的 TOML（{detail}）。"},
    "refused_lesson_unknown_field": {"en": "{where}: unknown field “{name}” (known: {known}).",
                                     "zh": "{where}：未知字段“{name}”（可用字段：{known}）。"},
    "refused_lesson_bad_id": {"en": "{where}: the id must be 1–40 lowercase letters, digits, - or _, starting "
                                    "with a letter.",
                              "zh": "{where}：id 必须由 1–40 个小写字母、数字、- 或 _ 组成，并以字母开头。"},
    "refused_lesson_missing": {"en": "{where}: the field “{name}” is missing.", "zh": "{where}：缺少字段“{name}”。"},
    "refused_lesson_wrong_type": {"en": "{where}: expected {expected}.", "zh": "{where}：应为 {expected}。"},
    "refused_lesson_unknown_lang": {"en": "{where}: unknown language “{lang}” (use en and zh).",
                                    "zh": "{where}：未知语言“{lang}”（请使用 en 和 zh）。"},
    "refused_lesson_missing_lang": {"en": "{where}: the {lang} text is missing (every text needs en and zh).",
                                    "zh": "{where}：缺少 {lang} 文字（每段文字都需要 en 和 zh）。"},
    "refused_lesson_too_long": {"en": "{where}: {n} characters, at most {limit}.",
                                "zh": "{where}：共 {n} 个字符，最多 {limit} 个。"},
    "refused_lesson_no_steps": {"en": "the lesson has no steps ([[steps]]).", "zh": "课程没有任何步骤（[[steps]]）。"},
    "refused_lesson_step_count": {"en": "a lesson has 1 to {limit} steps; this one has {n}.",
                                  "zh": "一门课程包含 1 到 {limit} 个步骤；此文件有 {n} 个。"},
    "refused_lesson_unknown_kind": {"en": "{where}: unknown step kind “{kind}” (known: {known}).",
                                    "zh": "{where}：未知步骤类型“{kind}”（可用类型：{known}）。"},
    "refused_lesson_no_question": {"en": "{where}: the step kind “{kind}” cannot ask a question.",
                                   "zh": "{where}：步骤类型“{kind}”不能提问。"},
    "refused_lesson_bad_value": {"en": "{where}: must be {expected}.", "zh": "{where}：必须是 {expected}。"},
    "refused_lesson_bad_template": {"en": "{where}: {detail} cannot be filled (this step computes: {known}).",
                                    "zh": "{where}：无法填入 {detail}（这一步计算的量有：{known}）。"},
    "refused_lesson_layer_range": {"en": "{where} is {value}, but the model has {n} layers.",
                                   "zh": "{where} 为 {value}，但模型只有 {n} 层。"},
    "refused_lesson_head_range": {"en": "{where} is {value}, but the model has {n} heads per layer.",
                                  "zh": "{where} 为 {value}，但模型每层只有 {n} 个头。"},
    "refused_lesson_position_range": {"en": "{where} is {value}, but the text has {n} tokens.",
                                      "zh": "{where} 为 {value}，但文本只有 {n} 个词元。"},
    "refused_lesson_duplicate_id": {"en": "the id “{id}” is used by another lesson file.",
                                    "zh": "id“{id}”已被另一个课程文件使用。"},
    "refused_lesson_unreadable": {"en": "the file cannot be read.", "zh": "无法读取该文件。"},
    # attention step kinds (ui/lessons/attention.py)
    "lk_value": {"en": "value", "zh": "值"},
    "lk_all_heads_title": {"en": "All heads: rows = layers, columns = heads", "zh": "全部注意力头：行 = 层，列 = 头"},
    "lk_tokens_title": {"en": "Your sentence as {n} tokens (with their ids)", "zh": "你的句子被切分为 {n} 个词元（附 id）"},
    "lk_tokens_notice": {"en": "{words} became {n_tokens:d} tokens, {n_special:d} of them special "
                               "markers; {unk_share:.0%} are unknown to the vocabulary.",
                         "zh": "{words}被切成 {n_tokens:d} 个词元，其中 {n_special:d} 个是特殊词元；"
                               "词表外（未知）词元占 {unk_share:.0%}。"},
    # how much text (lk_tokens_notice's {words}): Chinese is counted in characters (no spaces)
    "lk_words": {"en": "{n} words", "zh": "{n} 个词"},
    "lk_words_one": {"en": "1 word", "zh": "1 个词"},
    "lk_words_han": {"en": "{n} Chinese characters", "zh": "{n} 个汉字"},
    "lk_words_both": {"en": "{words} words and {han} Chinese characters", "zh": "{words} 个词和 {han} 个汉字"},
    "lk_qkv_title": {"en": "Queries, keys and values of layer {layer}, head {head}",
                     "zh": "第 {layer} 层第 {head} 个头的查询、键和值"},
    "lk_qkv_notice": {"en": "Each token gets a query, a key and a value of {d_head:d} numbers in this head: the "
                            "{d_model:d}-dimensional vector is split among {n_heads:d} heads.",
                      "zh": "在这个头中，每个词元都有一个 {d_head:d} 维的查询、键和值：{d_model:d} 维的向量被分给 "
                            "{n_heads:d} 个头。"},
    "lk_stage_dots": {"en": "q·k for the query {q} (layer {layer}, head {head})",
                      "zh": "查询 {q} 的 q·k（第 {layer} 层，第 {head} 个头）"},
    "lk_stage_scaled": {"en": "Scores ÷ √d_k for the query {q}", "zh": "查询 {q} 的分数 ÷ √d_k"},
    "lk_stage_masked": {"en": "Scores after the mask for the query {q}", "zh": "查询 {q} 加掩码后的分数"},
    "lk_stage_weights": {"en": "Attention weights of the query {q}", "zh": "查询 {q} 的注意力权重"},
    "lk_value_dots": {"en": "q·k", "zh": "q·k"},
    "lk_value_scaled": {"en": "score", "zh": "分数"},
    "lk_value_masked": {"en": "score after the mask", "zh": "加掩码后的分数"},
    "lk_value_weights": {"en": "attention weight", "zh": "注意力权重"},
    "lk_score_row_notice": {"en": "For {query}, the largest value is {top_value:.3f} at {top_key}; the values "
                                  "span {low:.3f} … {high:.3f}.",
                            "zh": "对 {query} 而言，最大值 {top_value:.3f} 出现在 {top_key}；数值范围是 "
                                  "{low:.3f} … {high:.3f}。"},
    "lk_sum_title": {"en": "What the query {q} collects: p·v for every key, and their sum",
                     "zh": "查询 {q} 收集到的信息：每个键的 p·v 及其总和"},
    "lk_sum_row": {"en": "Σ = output", "zh": "Σ = 输出"},
    "lk_weighted_sum_notice": {"en": "The biggest share of the output of {query} comes from {top_key} (weight "
                                     "{top_share:.0%}); the output vector has norm {z_norm:.3f}.",
                               "zh": "{query} 的输出中占比最大的部分来自 {top_key}（权重 {top_share:.0%}）；"
                                     "输出向量的范数为 {z_norm:.3f}。"},
    "lk_head_map_notice": {"en": "Head {layer:d}.{head:d} puts {previous:.0%} of its weight on the previous token "
                                 "and {first:.0%} on the first one; {query} looks most at {top_key} "
                                 "({top_weight:.0%}).",
                           "zh": "第 {layer:d} 层第 {head:d} 个头把 {previous:.0%} 的权重放在前一个词元上，{first:.0%} "
                                 "放在第一个词元上；{query} 最关注 {top_key}（{top_weight:.0%}）。"},
    "lk_all_heads_notice": {"en": "{n_maps:d} attention maps ({n_layers:d} layers × {n_heads:d} heads). Head "
                                  "{prev_head} follows the previous token most ({prev_score:.0%}), head {first_head} "
                                  "looks most at the first token ({first_score:.0%}).",
                            "zh": "共 {n_maps:d} 张注意力图（{n_layers:d} 层 × {n_heads:d} 个头）。{prev_head}"
                                  "最偏向前一个词元（{prev_score:.0%}），{first_head}最关注第一个词元"
                                  "（{first_score:.0%}）。"},
    "lk_head_metrics_notice": {"en": "{metric}: highest in head {max_head} ({max_value:.3f}), lowest in head "
                                     "{min_head} ({min_value:.3f}).",
                               "zh": "{metric}：{max_head}最高（{max_value:.3f}），{min_head}最低"
                                     "（{min_value:.3f}）。"},
    "lk_rollout_title": {"en": "Attention rollout through all {n} layers", "zh": "贯穿全部 {n} 层的注意力展开（rollout）"},
    "lk_rollout_notice": {"en": "Followed through every layer, {query} draws most on {top_key} ({top_weight:.0%}); "
                                "after the first layer alone it was {first_layer_top}.",
                          "zh": "经过所有层的传递后，{query} 最依赖 {top_key}（{top_weight:.0%}）；只看第一层时是 "
                                "{first_layer_top}。"},
    # a head named in a notice or a chart title ("0.2" read aloud in Chinese is a decimal)
    "lk_head_name": {"en": "{layer}.{head}", "zh": "第 {layer} 层第 {head} 个头"},
}

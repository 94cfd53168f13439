"""Strings of the overview's "which architecture for which task" section (ui/views/home_task_fit.py)."""

STRINGS = {
    "tfit_title": {"en": "Which architecture for which task", "zh": "哪种架构适合哪种任务"},
    "tfit_intro": {
        "en": "A task asks up to three things of a model: to **read the whole input** before answering (each token sees "
              "the tokens on both sides), to **write text** one token after another (each new token sees only what "
              "came before, and a head scores the vocabulary), and to **read a separate source while writing** "
              "(cross-attention). The marks below follow from those three abilities, each read from the mask and the "
              "layers a configuration builds, not from the architecture's name.",
        "zh": "一个任务最多向模型提出三个要求：回答之前**读完整个输入**（每个词元都能看到两侧的词元）；一个接一个地**写出文本**（每个新词元只看到"
              "它之前的内容，并由一个输出头对词表打分）；以及**一边写一边读另一段源文本**（交叉注意力）。下面的标记都由这三种能力推出，"
              "每种能力都从配置构建的掩码和层读出，而不是看架构的名字。"},
    "tfit_task_classify": {"en": "classification (a sentence → a label)", "zh": "分类（一句话 → 一个标签）"},
    "tfit_task_tag": {"en": "tagging (every token → a label, e.g. names)", "zh": "序列标注（每个词元 → 一个标签，如人名）"},
    "tfit_task_generate": {"en": "generation (continue a text)", "zh": "生成（续写文本）"},
    "tfit_task_translate": {"en": "translation, summary (a text → another text)", "zh": "翻译、摘要（一段文本 → 另一段文本）"},
    "tfit_short_classify": {"en": "classification", "zh": "分类"},
    "tfit_short_tag": {"en": "tagging", "zh": "序列标注"},
    "tfit_short_generate": {"en": "generation", "zh": "生成"},
    "tfit_short_translate": {"en": "translation", "zh": "翻译"},
    "tfit_list_sep": {"en": "; ", "zh": "；"},
    "tfit_fit_yes": {"en": "✓ fits", "zh": "✓ 适合"},
    "tfit_fit_workaround": {"en": "◐ with a detour", "zh": "◐ 可以，但要绕路"},
    "tfit_fit_no": {"en": "✗ cannot", "zh": "✗ 不行"},
    "tfit_col_task": {"en": "task", "zh": "任务"},
    "tfit_abilities": {
        "en": "Read from the default configurations on {n} tokens: the encoder's tokens see {enc:.0%} of the (query, key) "
              "pairs, the decoder's {dec:.0%} (each only the tokens before it). The detours: a decoder classifies from "
              "its last token (the only one that has seen the whole text) and translates with the source written into "
              "its prompt, which is how today's large decoders do almost everything; an encoder–decoder writes a label "
              "as text (T5); an encoder has no left-to-right head, so it cannot generate.",
        "zh": "从默认配置在 {n} 个词元上读出：编码器的词元能看到 {enc:.0%} 的（查询，键）对，解码器的只有 {dec:.0%}（每个词元只看到它前面的词元）。"
              "所谓绕路：解码器用最后一个词元来分类（只有它看到了整段文本），把源文本写进提示来翻译，如今的大型解码器几乎都这样完成各种任务；"
              "编码器-解码器把标签当作文本写出来（T5）；编码器没有从左到右的输出头，所以不能生成。"},
    "tfit_models_title": {"en": "This app's models, placed by their configurations",
                        "zh": "本应用的模型，按各自的配置归类"},
    "tfit_col_models": {"en": "models", "zh": "模型"},
    "tfit_col_arch": {"en": "architecture", "zh": "架构"},
    "tfit_col_sees": {"en": "reads both sides", "zh": "读两侧"},
    "tfit_col_writes": {"en": "writes text", "zh": "写出文本"},
    "tfit_col_cross": {"en": "cross-attention", "zh": "交叉注意力"},
    "tfit_col_fits": {"en": "fits as it is", "zh": "直接适合"},
    "tfit_models_caption": {
        "en": "{n} models with a known configuration: {enc} read only (encoders), {dec} write (decoders), {ed} read a "
              "source and write (encoder–decoders). A model's task in this app is also what it was trained for: a "
              "toy trained to reverse digits has the abilities of its architecture, but only that one skill.",
        "zh": "{n} 个配置已知的模型：{enc} 个只读（编码器），{dec} 个会写（解码器），{ed} 个读源文本再写（编码器-解码器）。"
              "一个模型在本应用里能做什么，也取决于它训练时学的任务：一个训练来倒序数字的玩具模型有它那种架构的能力，但只会那一项技能。"},
    "tfit_none": {"en": "—", "zh": "—"},
}

"""Strings of the beyond-softmax page's frame (title, sections, the q, k, v source)."""

STRINGS = {
    "nav_beyond": {"en": "Beyond softmax", "zh": "超越 softmax"},
    "bx_title": {"en": "Beyond softmax attention", "zh": "超越 softmax 注意力"},
    "bx_intro": {
        "en": "What came after the 2017 Transformer, computed on the same queries, keys and values: ways to remember "
              "more than one window, recurrences that keep a fixed-size state instead of a growing cache, what each "
              "costs in memory per generated token, a mixer that needs no attention at all, and weights with only "
              "three values. Compare what each keeps, what it forgets and what it costs.",
        "zh": "2017 年 Transformer 之后出现的方法，都在同一组查询、键、值上计算，包括：记住一个窗口以外内容的方法；"
              "循环模型，用固定大小的状态代替不断增长的缓存；每种方法每生成一个词元要占多少内存；完全不用注意力的混合器；以及只有三种取值的权重。"
              "比较它们各自保留了什么、遗忘了什么、付出了什么代价。"},
    "bx_section": {"en": "Section", "zh": "部分"},
    "bx_sec_long": {"en": "Long memory", "zh": "长程记忆"},
    "bx_sec_recurrent": {"en": "The recurrent family", "zh": "循环类模型"},
    "bx_sec_memory": {"en": "Memory per token", "zh": "每个词元的内存"},
    "bx_sec_mixer": {"en": "MLP-Mixer vs attention", "zh": "MLP-Mixer 与注意力"},
    "bx_sec_ternary": {"en": "Ternary weights", "zh": "三值权重"},
    "bx_sec_retrieval": {"en": "Retrieval (RETRO)", "zh": "检索增强（RETRO）"},
    "bx_source": {"en": "Queries, keys and values from", "zh": "查询、键、值的来源"},
    "bx_src_model": {"en": "the model (one head)", "zh": "模型（某一个头）"},
    "bx_src_random": {"en": "random vectors", "zh": "随机向量"},
    "bx_rand_n": {"en": "Positions n", "zh": "位置数 n"},
    "bx_rand_d": {"en": "Head dimension d", "zh": "头维度 d"},
    "bx_rand_seed": {"en": "Random seed", "zh": "随机种子"},
    "bx_layer": {"en": "Layer", "zh": "层"},
    "bx_head": {"en": "Head", "zh": "头"},
    "bx_truncated": {"en": "This page works on the first {kept} tokens of your text ({n} in all).",
                     "zh": "本页只使用文本的前 {kept} 个词元（共 {n} 个）。"},
}

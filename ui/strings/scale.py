"""Strings about memory and devices (mem_): the trace size caption, the memory budget,
out-of-memory fallbacks."""

STRINGS = {
    "mem_caption": {
        "en": "Memory of this trace: {trace} MB held ({n} tokens, {kinds}). Attention maps = layers × heads × n² × "
              "bytes = {formula} per stack; the server's budget per pass is {budget} MB.",
        "zh": "本次记录（trace）占用内存：{trace} MB（{n} 个词元，{kinds}）。注意力图 = 层数 × 头数 × n² × 每个值的字节数 = "
              "{formula}（每个注意力栈）；服务器对每次前向计算的内存预算为 {budget} MB。",
    },
    "mem_kinds_attention": {"en": "attention maps and masks only, float32",
                            "zh": "只记录注意力图和掩码，float32"},
    "mem_budget_cut": {
        "en": "This text has {n} tokens; recording them would need about {need} MB, more than this server's budget of "
              "{budget} MB per pass. The views show the first {kept} tokens.",
        "zh": "这段文本有 {n} 个词元；全部记录大约需要 {need} MB，超过了服务器每次计算 {budget} MB 的内存预算。"
              "下面的视图只显示前 {kept} 个词元。",
    },
    "mem_budget_refused": {
        "en": "This model is too large for this server's memory budget: even one token needs about {need} MB, and "
              "the budget is {budget} MB per pass. Pick a smaller model (or ask the server's owner to raise "
              "GLASSBOX_TRACE_BUDGET_MB).",
        "zh": "这个模型超出了服务器的内存预算：即使只有一个词元也需要大约 {need} MB，而每次计算的预算是 {budget} MB。"
              "请选择更小的模型（或请服务器管理员调高 GLASSBOX_TRACE_BUDGET_MB）。",
    },
    "mem_fallback_cpu": {
        "en": "The {device} ran out of memory on this text, so it was run on the CPU instead (slower, same numbers).",
        "zh": "{device} 处理这段文本时内存不足，因此改在 CPU 上运行（更慢，但结果相同）。",
    },
    "mem_fallback_shorter": {
        "en": "The server ran out of memory on this text: only its first {kept} of {n} tokens were run.",
        "zh": "服务器处理这段文本时内存不足：只运行了前 {kept} 个词元（共 {n} 个）。",
    },
    "mem_out_of_memory": {
        "en": "The server ran out of memory even on the first {n} tokens of this text. Try a shorter text or a "
              "smaller model.",
        "zh": "即使只处理这段文本的前 {n} 个词元，服务器的内存仍然不足。请换一段更短的文本或更小的模型。",
    },
}

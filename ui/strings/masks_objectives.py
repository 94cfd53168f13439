"""Strings of the masks page's "MLM vs causal LM" tab (ui/views/masks_objectives.py)."""

STRINGS = {
    "mk_tab_objectives": {"en": "MLM vs causal LM", "zh": "掩码语言模型与因果语言模型"},
    "ob_intro": {
        "en": "The mask decides what a model may read, and so what it can be trained to predict. A **masked** "
              "language model (BERT's objective) hides some characters and predicts them from both sides; a "
              "**causal** one (GPT's) predicts each character from the ones before it. Two shipped models, trained "
              "on the same text with the two objectives, read your sentence (its first 128 characters):",
        "zh": "掩码决定了模型能读到什么，也就决定了它能被训练去预测什么。**掩码**语言模型（BERT 的目标）遮住一些字符，根据两侧"
              "预测它们；**因果**语言模型（GPT 的目标）根据前面的字符预测下一个字符。两个随应用附带的模型在同样的文本上分别用这两"
              "个目标训练，下面它们读你的句子（前 128 个字符）："},
    "ob_missing": {"en": "The two shipped character models (verse-mlm and verse-lm) are not installed here.",
                   "zh": "这里没有安装随应用附带的两个字符级模型（verse-mlm 和 verse-lm）。"},
    "ob_short": {"en": "Type at least two characters in the sidebar.", "zh": "请在侧边栏输入至少两个字符。"},
    "ob_position": {"en": "Character to predict (position)", "zh": "要预测的字符（位置）"},
    "ob_space": {"en": "(space)", "zh": "（空格）"},
    "ob_reads": {
        "en": "{mlm} reads {context} (the character {actual} hidden, everything else visible); {clm} reads "
              "{prefix} and predicts what comes next.",
        "zh": "{mlm} 读到的是 {context}（字符 {actual} 被遮住，其余都看得见）；{clm} 读到的是 {prefix}，预测接下来的字符。"},
    "ob_col_rank": {"en": "rank", "zh": "名次"},
    "ob_col_mlm": {"en": "masked model", "zh": "掩码模型"},
    "ob_col_clm": {"en": "causal model", "zh": "因果模型"},
    "ob_col_p": {"en": "probability", "zh": "概率"},
    "ob_actual": {
        "en": "The character really there, {actual}: probability {mlm} from the masked model (both sides), {clm} "
              "from the causal model (the left side only).",
        "zh": "真实的字符 {actual}：掩码模型（看两侧）给它的概率是 {mlm}，因果模型（只看左侧）给的是 {clm}。"},
    "ob_mis_common": {
        "en": "A masked language model learns to fill in [MASK]; after pre-training it is used on text as it is.",
        "zh": "掩码语言模型学的是填出 [MASK]；预训练之后，它直接用在原样的文本上。"},
    "ob_mis_shown": {
        "en": "Fine-tuned, it never sees a mask, and a model trained only on masks would have learned nothing about "
              "a character it can see. That is why BERT's recipe (and this model's) hides only 80 % of the chosen "
              "characters and leaves 10 % as they are (10 % become a random one). Here: {actual} hidden gets "
              "probability {hidden}; left visible, {shown}.",
        "zh": "微调时它从来看不到掩码，而一个只在掩码上训练过的模型，对自己看得见的字符什么也没学到。所以 BERT 的做法（本模型也是）"
              "在选中的字符里只把 80% 换成掩码，10% 保持原样（另外 10% 换成随机字符）。这里：{actual} 被遮住时概率为 {hidden}；"
              "不遮住时为 {shown}。"},
}

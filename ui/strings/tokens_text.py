"""Strings of the tokens page's text section (ui/views/tokens_text.py)."""

STRINGS = {
    "tkt_intro": {
        "en": "The sidebar's text cut four ways: one piece per character, one per UTF-8 byte, MiniLM's WordPiece "
              "(a fixed vocabulary of whole words and word pieces), and byte-level BPE (the scheme of GPT-2 and most "
              "decoders since) learned here from the 256 bytes on the app's verse corpus. Move the slider to "
              "let BPE learn more or fewer merges.",
        "zh": "把侧边栏里的文本用四种方法切开：每个字符一个片段；每个 UTF-8 字节一个片段；MiniLM 的 WordPiece"
              "（固定词表，里面是整词和词的片段）；以及字节级 BPE（GPT-2 和此后大多数解码器用的做法），"
              "它在这里从 256 个字节出发，在应用自带的诗歌语料上学出来。拖动滑块，让 BPE 学更多或更少的合并。"},
    "tkt_merges": {"en": "BPE merges learned", "zh": "BPE 学到的合并次数"},
    "tkt_merges_help": {
        "en": "Byte-level BPE starts from the 256 bytes and, step by step, merges the pair of pieces that stands "
              "side by side most often in the corpus into a new piece. Its vocabulary is 256 + the merges.",
        "zh": "字节级 BPE 从 256 个字节出发，每一步把语料里最常相邻出现的一对片段合并成一个新片段。"
              "它的词表大小是 256 加上合并次数。"},
    "tkt_empty": {"en": "Type a sentence in the sidebar to see it cut into tokens.",
                  "zh": "请在侧边栏输入一句话，看看它怎样被切成词元。"},
    "tkt_more": {"en": "… and {n} more", "zh": "……还有 {n} 个"},
    "tkt_scheme_chars": {"en": "characters", "zh": "字符"},
    "tkt_scheme_bytes": {"en": "UTF-8 bytes", "zh": "UTF-8 字节"},
    "tkt_scheme_wordpiece": {"en": "WordPiece (MiniLM)", "zh": "WordPiece（MiniLM）"},
    "tkt_scheme_bpe": {"en": "byte-level BPE, {n} merges", "zh": "字节级 BPE，{n} 次合并"},
    "tkt_compare_title": {"en": "One text, four cuts", "zh": "同一段文本，四种切法"},
    "tkt_col_scheme": {"en": "scheme", "zh": "切法"},
    "tkt_col_pieces": {"en": "tokens", "zh": "词元数"},
    "tkt_col_per_word": {"en": "tokens per word", "zh": "每个单词的词元数"},
    "tkt_col_per_han": {"en": "tokens per Chinese character", "zh": "每个汉字的词元数"},
    "tkt_col_vocab": {"en": "vocabulary size", "zh": "词表大小"},
    "tkt_col_unk": {"en": "share of [UNK]", "zh": "[UNK] 占比"},
    "tkt_compare_caption": {
        "en": "Your text: {chars} characters, {words} words (runs of letters or digits outside Chinese) and {han} "
              "Chinese characters. A token that touches a word (a Chinese character) counts for it; a token spanning "
              "two counts once. The characters' vocabulary is every Unicode code point; [UNK] is the unknown token, "
              "what a fixed vocabulary cannot spell.",
        "zh": "你的文本：{chars} 个字符，{words} 个单词（汉字以外的连续字母或数字）和 {han} 个汉字。一个词元只要碰到某个单词"
              "（某个汉字）就算它的；跨两个的词元只算一次。字符的词表是全部 Unicode 码位；[UNK] 是未知词元，"
              "即固定词表拼不出来的部分。"},
    "tkt_no_wordpiece": {"en": "The bundled MiniLM is not installed on this server, so there is no WordPiece column.",
                         "zh": "这台服务器没有安装自带的 MiniLM，所以没有 WordPiece 这一栏。"},
    "tkt_n_pieces": {"en": "{n} tokens", "zh": "{n} 个词元"},
    "tkt_utf8_title": {"en": "Why a Chinese character is three bytes", "zh": "为什么一个汉字是三个字节"},
    "tkt_utf8_char": {
        "en": "{char} is code point {cp}: {n_bits} bits, {bits}. UTF-8 spreads them over {n} bytes, {patterns} "
              "(the bits before each | say where a character starts and how long it is), that is {hex}.",
        "zh": "{char} 的码位是 {cp}：{n_bits} 位，{bits}。UTF-8 把它们分到 {n} 个字节里：{patterns}"
              "（每个 | 前面的位表示字符从哪里开始、有多长），也就是 {hex}。"},
    "tkt_utf8_example": {"en": "(Your text has no Chinese character; this is an example.)",
                         "zh": "（你的文本里没有汉字，这里用一个例子。）"},
    "tkt_utf8_rule": {
        "en": "UTF-8 writes code points up to `U+007F` in one byte (ASCII), up to `U+07FF` in two, up to `U+FFFF` in "
              "three and the rest in four. Common Chinese characters lie between `U+4E00` and `U+9FFF`, so each is three bytes, "
              "and a byte-level model starts from three tokens per character until its merges join them.",
        "zh": "UTF-8 把 `U+007F` 以内的码位写成一个字节（英文字母都在这一段），`U+07FF` 以内两个，`U+FFFF` 以内三个，"
              "其余四个。常用汉字在 `U+4E00` 到 `U+9FFF` 之间，所以每个汉字占三个字节；字节级模型一开始每个汉字就是三个词元，直到合并把它们连起来。"},
    "tkt_han_costs": {
        "en": "In byte-level BPE with the merges chosen above, your {han} Chinese characters are: **{one}** one token "
              "of their own, **{two}** cut into two tokens, **{three}** into three, **{more}** into more, and "
              "**{shared}** share a token with a neighbouring character.",
        "zh": "用上面选定的合并次数，字节级 BPE 把你的 {han} 个汉字切成：**{one}** 个各自正好一个词元，**{two}** 个切成两个词元，"
              "**{three}** 个切成三个，**{more}** 个切成更多，**{shared}** 个和相邻的字共用一个词元。"},
    "tkt_merges_title": {"en": "The merges, in the order BPE learned them", "zh": "BPE 学到合并的先后顺序"},
    "tkt_merges_caption": {
        "en": "Learned on the verse corpus's training split ({docs} documents, {chars} characters, {words} different "
              "pre-tokens) in {seconds} s, once per server; {total} merges in all. Each step counts every pair of "
              "neighbouring pieces in the corpus and merges the most frequent; the count is that pair's count at "
              "its step. A piece shown ⟨between brackets⟩ is bytes that are only part of a character.",
        "zh": "在诗歌语料的训练部分上学习（{docs} 篇文档，{chars} 个字符，{words} 种预切分片段），用时 {seconds} 秒，"
              "每台服务器只学一次；一共 {total} 次合并。每一步统计语料里所有相邻片段对，把出现最多的一对合并；"
              "次数是这一对在那一步时出现的次数。⟨括号里⟩的片段是只占一个字符一部分的字节。"},
    "tkt_no_merges": {"en": "With 0 merges, byte-level BPE is just the 256 bytes: move the slider to see merges.",
                      "zh": "合并 0 次时，字节级 BPE 就只是 256 个字节：拖动滑块看合并。"},
    "tkt_col_step": {"en": "step", "zh": "步"},
    "tkt_col_left": {"en": "left", "zh": "左"},
    "tkt_col_right": {"en": "right", "zh": "右"},
    "tkt_col_new": {"en": "new token", "zh": "新词元"},
    "tkt_col_count": {"en": "count", "zh": "次数"},
    "tkt_merges_last": {
        "en": "Step {n} made {new} from a pair seen {count} times; the first step's pair was seen {first} times. "
              "Later merges join rarer pairs: each new token saves fewer tokens than the one before.",
        "zh": "第 {n} 步得到 {new}，这一对出现了 {count} 次；第一步的那一对出现了 {first} 次。越往后合并的片段对越少见："
              "每个新词元省下的词元数比前一个更少。"},
    "tkt_unseen_title": {"en": "A word no scheme has seen", "zh": "一个谁都没见过的词"},
    "tkt_unseen_word": {"en": "Made-up word", "zh": "编造的词"},
    "tkt_unseen_help": {"en": "Type any word, English or Chinese; the page says whether the corpus has it.",
                        "zh": "输入任意一个词，英文或中文都可以；页面会告诉你语料里有没有它。"},
    "tkt_unseen_new": {"en": "{word} never occurs in the verse corpus. Here is what each scheme makes of it:",
                       "zh": "{word} 在诗歌语料里从未出现。各种切法这样处理它："},
    "tkt_unseen_seen": {"en": "{word} occurs {n} times in the verse corpus, so BPE has seen it; each scheme's cut:",
                        "zh": "{word} 在诗歌语料里出现了 {n} 次，BPE 见过它；各种切法的结果："},
    "tkt_word_cost": {"en": "{n} tokens, {unk} [UNK]", "zh": "{n} 个词元，{unk} 个 [UNK]"},
    "tkt_unseen_caption": {
        "en": "Characters and bytes spell anything, one piece at a time. WordPiece falls back to pieces of its fixed "
              "vocabulary (## marks a piece inside a word) and, for a character it lacks, to [UNK]: what was "
              "there is lost. Byte-level BPE falls back to shorter merges, down to single bytes, so it never needs "
              "[UNK]; a new word only costs more tokens.",
        "zh": "字符和字节什么都能拼，一次一个片段。WordPiece 退回到固定词表里的片段（## 表示词中间的片段），"
              "遇到词表里没有的字符就退回 [UNK]：原来是什么就丢了。字节级 BPE 退回到更短的合并，最短到单个字节，"
              "所以从不需要 [UNK]；新词只是要多花一些词元。"},
    "tkt_mis_common": {
        "en": "The notes state fixed costs: an English word is 1 to 2 tokens, a Chinese character 1 to 3 tokens.",
        "zh": "笔记给出固定的代价：一个英文单词是 1～2 个词元，一个汉字是 1～3 个词元。"},
    "tkt_mis_shown_bpe": {
        "en": "The cost depends on the tokenizer and on what it learned. On your text, byte-level BPE with {n} merges "
              "spends {word} tokens per word and {han} per Chinese character (move the slider: with few merges a "
              "rare English word takes many more than 2 tokens, and with many merges a token can hold several "
              "characters, under 1 per character).",
        "zh": "代价取决于分词器，以及它学到了什么。在你的文本上，{n} 次合并的字节级 BPE 每个单词用 {word} 个词元，"
              "每个汉字用 {han} 个（拖动滑块：合并少时，一个少见的英文单词远不止 2 个词元；合并多时，一个词元可以装下好几个字，"
              "每个字不到 1 个词元）。"},
    "tkt_mis_shown_wp": {
        "en": "MiniLM's WordPiece: {word} per word, {han} per Chinese character, with {unk} of its tokens [UNK].",
        "zh": "MiniLM 的 WordPiece：每个单词 {word} 个，每个汉字 {han} 个，其中 {unk} 的词元是 [UNK]。"},
    "tkt_mis_missing": {
        "en": "(A dash: your text has no word or no Chinese character to count; type both to compare.)",
        "zh": "（短横线表示你的文本里没有可数的单词或汉字；两样都输入一些，就能比较。）"},
    "tkt_mis_shown_rest": {
        "en": "UTF-8 bytes: {bytes} per Chinese character, always.",
        "zh": "UTF-8 字节：每个汉字总是 {bytes} 个。"},
}

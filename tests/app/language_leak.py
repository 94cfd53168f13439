"""What a page shows, read back from AppTest, and the check that it is all in the UI language
(tests/app/test_language_leak.py drives the pages and lessons; issue 35).

`screen(at, where)` collects every text a reader sees: markdown, captions, headings, alert
boxes, LaTeX words (\\text{...}, and \\mathrm{...} names that are not operators), widget labels,
options, help texts and placeholders, expander/popover/tab labels, metric labels, dataframe
columns and string cells, and figure text (plotly titles, axis titles, word tick labels, bar
categories, hover templates and hover texts, legend names, colour-bar titles, annotations;
vega-lite titles). Code is not checked (st.code, `code spans`): code is code in both languages.

`leaks(screens, lang, known)`: in Chinese, an English word is a run of >= 3 Latin letters that
is neither on the allow-list (`ALLOW`: proper names, symbols, units, the glossary's kept terms)
nor token text (the reader's texts, a toy task's example, a model's prompts; in the places
that show tokens, the model's vocabulary). In English, a Chinese character outside the
language switch and token text.
"""
from __future__ import annotations

import functools
import html
import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from google.protobuf.json_format import MessageToDict
from streamlit.testing.v1 import AppTest

from ui.glossary import TERMS
from ui.i18n import STRINGS


# ---- what may stay in Latin letters on a Chinese screen ----------------------------------------
# Proper names (models, papers, methods, libraries, people), standard abbreviations a Chinese
# ML text keeps in Latin letters, units and LaTeX/plot symbols. Case-sensitive.
ALLOW = set("""
Transformer Transformers BERT GPT GPT-2 LLaMA Llama Qwen Gemma gemma T5 MiniLM SmolLM SmolLM2 RoBERTa XLM xlm roberta
Phi Mistral Mixtral DeepSeek ViT CLIP ELECTRA DistilBERT ALBERT OPT BLOOM Falcon OLMo Pythia TinyLlama
RoPE ALiBi GQA MQA MHA MLA NoPE xPos YaRN KERPLE FIRE
softmax Softmax LayerNorm RMSNorm DyT BatchNorm ReLU GELU SwiGLU GeGLU GEGLU SiLU Swish GLU tanh
MLP FFN SVD PCA UMAP t-SNE SNE KL AdamW Adam SGD
logit logits top-k top-p Top-k Top-p argmax
FlashAttention PagedAttention MLP-Mixer Mixer Longformer BigBird XLNet Transformer-XL Infini-attention LongNet
RWKV Mamba RetNet YOCO BitNet Sparse Reformer Linformer Performer
WordPiece BPE SentencePiece Unicode UTF
PyTorch Streamlit Hugging Face Hub Python NumPy Plotly CUDA GPU CPU MPS TPU SVG PDF PNG CSV JSON HTML URL QR
KB MB GB TB KiB MiB GiB TiB FLOP FLOPs TFLOPS GFLOPS
float32 float16 bfloat16 fp32 fp16 bf16 int8 int4 fp8
transformers safetensors NPZ npz gpt2 all-MiniLM-L6-v2 SmolLM2-135M SmolLM2-360M gemma-3-270m xlm-roberta-base
Qwen3-0.6B Llama-3.2-1B Phi-4-mini-instruct
viridis cividis inferno magma plasma turbo
cpu cuda mps Ctrl Enter Shift Cmd Esc Megatron-LM all-reduce MoE Switch DeepSpeed FasterTransformer LSRA Lite ResiDual Xie
PReLU ELU RNN LSTM NTK LongRoPE YaRN llama3 WKV Infini RoFormer AttentionViz vLLM absmean WikiText-103 TOML
Glassbox Debian Vaswani Shaw Press Raffel Su Dao Beltagy Zaheer Dai Munkhdalai Ding Peng Gu Sun Ma Abnar Zuidema Elhage Olsson
Yeh Katharopoulos Shazeer Ainslie Child Smith Lewis Frobenius Xiong Zhu Yu Hoyer CRATE GRU Bahdanau Luong
Sublayer KOSMOS-1 RETRO WebGPT Borgeaud Nakano Jurassic-1 Pile CNN JPEG scikit-learn Pillow MXNet Whisper WAV espeak-ng
sin cos tan exp log log2 ln Var diag Concat concat pos softplus
ang
""".split())
# (pos: the paper's PE(pos, 2i); ang: pinyin of a rhyme, which a Chinese text writes in Latin letters)
# ... and every Latin word of the glossary's Chinese terms (ui/glossary.py: Pre-LN, logit, rollout, ...)
ALLOW |= {w for term in TERMS for w in re.findall(r"[A-Za-z][A-Za-z0-9_\-]*[A-Za-z0-9]", term.zh)}
# names of several words ("Add & Norm": the original paper's block, as Chinese texts quote it)
NAMES = ("Add & Norm",)
# Latin words of the model's own vocabulary that are token text on any screen
SPECIAL_TOKENS = ("[CLS]", "[SEP]", "[PAD]", "[UNK]", "[MASK]", "<bos>", "<eos>", "<pad>", "<unk>", "<s>", "</s>",
                  "<|endoftext|>", "<mask>", "<sep>", "<cls>")

# ---- collecting what a page shows ----------------------------------------------------------------
@dataclass
class Seen:
    where: str
    kind: str
    text: str
    token: bool = False              # shown as a token (a coloured token span, a token axis, a cell)


@dataclass
class Screen:
    """Everything one run shows, and what is token text there: the reader's texts and
    the current model's vocabulary (for token places only)."""

    where: str
    model: str = ""
    texts: list[Seen] = field(default_factory=list)
    typed: list[str] = field(default_factory=list)


MD_DIRECTIVES = re.compile(r":material/[a-z0-9_]+:|:small\[|:streamlit:")
TOKEN_SPAN = re.compile(r":[a-z]+(?:-background|-badge)?\[((?:\\.|[^\]\\])*)\]")   # the app's coloured token spans
CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.S)
MD_LINK = re.compile(r"\]\((?:[^()\s]|\([^()]*\))*\)")
TAG = re.compile(r"<[^<>]{1,200}>")
PLOTLY_FIELD = re.compile(r"%\{[^}]*\}")
LATEX_NAME = re.compile(r"\\(?:mathrm|operatorname)\s*\{([^{}]*)\}")
# names of functions and short labels in formulas (the papers' own): symbols, not words
OPERATORS = set("""
Attention Attn MultiHead Concat head softmax LN LayerNorm RMSNorm DyT FFN MLP GELU SiLU elu Var Re SG Retention
MHA GQA MQA wkv round clip rel dot tok mem end out ch top i
""".split())
LATEX_TEXT = re.compile(r"\\(?:text|textrm|textsf|textbf|textit|mbox)\s*\{([^{}]*)\}")


def unescape(s: str) -> str:
    return html.unescape(re.sub(r"\\(.)", r"\1", s))


def markdown_parts(body: str) -> tuple[str, list[str]]:
    """(prose, token spans) of a markdown body as a reader sees it: no code spans, link
    targets, icons, tags or escapes; LaTeX reduced to its \\text{} words."""
    tokens = [unescape(m).strip("*") for m in TOKEN_SPAN.findall(body)]
    body = TOKEN_SPAN.sub(" ", body)
    body = CODE_SPAN.sub(" ", body)
    body = MD_LINK.sub("]", body)
    body = MD_DIRECTIVES.sub(" ", body)
    body = re.sub(r"\$\$?(.+?)\$\$?", lambda m: " ".join(LATEX_TEXT.findall(m.group(1))), body, flags=re.S)
    body = TAG.sub(" ", body)
    return unescape(body), tokens


def plot_text(s: str) -> str:
    """A plotly string as shown: no %{field} placeholders, no tags."""
    s = PLOTLY_FIELD.sub(" ", s)
    return html.unescape(TAG.sub(" ", s))


def flat_strings(v) -> Iterator[str]:
    if isinstance(v, str):
        yield v
    elif isinstance(v, list):
        for x in v:
            yield from flat_strings(x)


LEGEND_TYPES = ("scatter", "scattergl", "bar", "box", "violin", "histogram", "scatterpolar", "funnel", "waterfall",
                "scatter3d", "pie")                  # trace types in the legend unless told otherwise


def plotly_texts(spec: dict) -> Iterator[tuple[str, str | list[str]]]:
    """(part, text) of every word a plotly figure shows; for tick labels and bar
    categories the whole axis at once (a list: an axis of tokens, or of words)."""
    layout = spec.get("layout", {})

    def title(obj, part):
        t = obj.get("title") if isinstance(obj, dict) else None
        if isinstance(t, dict):
            t = t.get("text")
        if isinstance(t, str):
            yield part, t

    yield from title(layout, "title")
    for name, ax in layout.items():
        if re.fullmatch(r"[xy]axis\d*|scene|polar|ternary", name) and isinstance(ax, dict):
            yield from title(ax, f"{name} title")
            ticks = [t for t in ax.get("ticktext") or [] if isinstance(t, str)]
            if ticks:
                yield f"{name} ticks", ticks
        if name.startswith("coloraxis") and isinstance(ax, dict):
            yield from title(ax.get("colorbar", {}), "colour bar")
    yield from title(layout.get("legend", {}), "legend title")
    for a in layout.get("annotations") or []:
        if isinstance(a.get("text"), str):
            yield "annotation", a["text"]
    for menu in layout.get("updatemenus") or []:
        for b in menu.get("buttons") or []:
            if isinstance(b.get("label"), str):
                yield "menu", b["label"]
    for tr in spec.get("data", []):
        legend = tr.get("showlegend", tr.get("type", "scatter") in LEGEND_TYPES)
        if isinstance(tr.get("name"), str) and legend and layout.get("showlegend", True) is not False:
            yield "legend", tr["name"]
        for key in ("hovertemplate", "texttemplate"):
            for s in flat_strings(tr.get(key)):
                yield key, s
        for s in flat_strings(tr.get("hovertext")):
            yield "hovertext", s
        cells = list(flat_strings(tr.get("text")))
        if cells:
            yield "text", cells
        yield from title(tr.get("colorbar", {}), "colour bar")
        if isinstance(tr.get("marker"), dict):
            yield from title(tr["marker"].get("colorbar", {}), "colour bar")
        if tr.get("type") == "table":
            for part in ("header", "cells"):
                values = list(flat_strings(tr.get(part, {}).get("values")))
                if values:
                    yield f"table {part}", values
        for axis in ("x", "y"):
            if tr.get("type") in ("bar", "box", "violin") and tr.get("orientation", "v") == ("v" if axis == "x" else "h"):
                values = list(flat_strings(tr.get(axis)))
                if values:
                    yield f"{axis} categories", values


def vega_texts(spec) -> Iterator[tuple[str, str]]:
    """Titles anywhere in a vega-lite spec (axes, legends, the chart)."""
    for k, v in spec.items() if isinstance(spec, dict) else enumerate(spec if isinstance(spec, list) else []):
        v = v.get("text", v) if k == "title" and isinstance(v, dict) else v
        if k == "title" and isinstance(v, str):
            yield "vega title", v
        else:
            yield from vega_texts(v)


SKIP_TYPES = {"code", "json", "empty", "space", "event"}
GENERATED = tuple(f"**{text}**" for text in STRINGS["gen_output"].values())
WIDGET_FIELDS = ("label", "help", "placeholder")


def screen(at: AppTest, where: str) -> Screen:
    """What `at` shows now (main area and sidebar)."""
    model = at.session_state["model"] if "model" in at.session_state else ""
    out = Screen(where, model=str(model or ""))

    def add(kind: str, text: str) -> None:
        if text and text.strip():
            out.texts.append(Seen(where, kind, text))

    def add_md(kind: str, body: str) -> None:
        for label in GENERATED:                     # "**Generated:** <what the model wrote>": not the UI's words
            if body.startswith(label):
                body = label
        prose, tokens = markdown_parts(body)
        add(kind, prose)
        out.texts += [Seen(where, kind + " token", tok, token=True) for tok in tokens if tok.strip()]

    def add_group(kind: str, values: list[str]) -> None:
        """An axis's ticks, a bar chart's categories, a chart's or a table's cells: each one that
        is not a token (decided by `leaks`) is checked."""
        out.texts.append(Seen(where, kind, "\u0000".join(plot_text(v) for v in values), token=True))

    def walk(node) -> None:
        ty = getattr(node, "type", None)
        proto = getattr(node, "proto", None)
        if ty in ("text_area", "text_input"):
            out.typed.append(str(node.value or ""))        # the reader's text: token text
        if proto is not None and ty not in SKIP_TYPES:
            visit(ty, node, proto)
        for child in getattr(node, "children", {}).values():
            walk(child)

    def visit(ty, node, proto) -> None:
        if ty == "plotly_chart":
            for part, s in plotly_texts(json.loads(proto.spec)):
                if isinstance(s, list):
                    add_group(f"figure {part}", s)
                else:
                    add(f"figure {part}", plot_text(s))
            return
        if ty in ("arrow_vega_lite_chart", "vega_lite_chart"):
            for part, s in vega_texts(json.loads(proto.spec)):
                add(part, s)
            return
        if ty in ("dataframe", "table", "arrow_data_frame"):
            try:
                df = node.value
            except Exception:  # noqa: BLE001 - a table AppTest cannot read back: nothing to check
                return
            for c in [*map(str, df.columns), *(str(n) for n in df.index.names if n)]:
                add("table column", c)
            for col in df.columns:
                cells = [v for v in df[col] if isinstance(v, str)]
                if cells:
                    add_group(f"table column {col!s} cells", cells)
            return
        if ty == "latex":
            for words in LATEX_TEXT.findall(proto.body):
                add("formula \\text", words)
            for words in LATEX_NAME.findall(proto.body):
                if words not in OPERATORS:
                    add("formula \\mathrm", words)
            return
        d = MessageToDict(proto, preserving_proto_field_name=True)
        if isinstance(d.get("body"), str):
            if ty == "html":
                add("html", html.unescape(TAG.sub(" ", d["body"])))
            else:
                add_md(ty or "text", d["body"])
        for f in WIDGET_FIELDS:
            if isinstance(d.get(f), str):
                add_md(f"{ty} {f}", d[f])
        for block in ("expandable", "popover", "tab", "form", "chat_message"):
            if isinstance(d.get(block), dict) and isinstance(d[block].get("label"), str):
                add_md(f"{block} label", d[block]["label"])
        if ty == "progress" and isinstance(d.get("text"), str):
            add("progress", d["text"])
        if ty == "metric":
            for f in ("body", "delta"):
                if isinstance(d.get(f), str):
                    add_md(f"metric {f}", d[f])
        options = d.get("options") or []
        if ty in ("selectbox", "radio", "multiselect", "select_slider") and hasattr(node, "options"):
            options = list(node.options)
        for o in options:
            s = o.get("content") if isinstance(o, dict) else o
            if isinstance(s, str):
                add_md(f"{ty} option", s)
        if ty == "imgs":
            for img in d.get("imgs", []):
                if isinstance(img.get("caption"), str):
                    add("image caption", img["caption"])

    walk(at._tree)
    return out


# ---- the checks ------------------------------------------------------------------------------------
LATIN_CHUNK = re.compile(r"[A-Za-z0-9][A-Za-z0-9_\-+.'’#/]*[A-Za-z0-9]|[A-Za-z]")
WORD = re.compile(r"[A-Za-z]{3,}")
CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef]+")
HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
FILE = re.compile(r"[\w\-]*(?:\.[\w\-]+)*\.(?:json|toml|safetensors|txt|csv|svg|pdf|png|html|py|md|bin|zip|npz)\b", re.I)
PATH = re.compile(r"(?<![\w.])\.{0,2}/[\w\-./*]+|[\w\-.]+(?:/[\w\-.*]*)+|\?[a-z_]+=[\w\-.]*|\*?\.[a-z]{2,11}\b")
SYMBOL = re.compile(r"[A-Za-z]_[A-Za-z0-9]+|\d+-gram|hook_[a-z_]+|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|u?int\d+|b?float\d+")
TITLE = re.compile(r"《[^》]*》")                                        # a paper's or a book's title
TOY_TEXT = re.compile(r"(?<![A-Za-z])[a-z]+=[a-z]*(?![A-Za-z])")         # a toy task's text: "jggif=figgj"
MATH = re.compile(r"\b(?:sigmoid|softplus|elu|silu|relu|gelu|mean|max|min|sqrt|concat)(?=\s?[(|])")
POSITIONED = re.compile(r"(\d+)·([^\s:：，,;；)）]+)")                  # a position label: "12·the"
QUOTED = re.compile(r"“([^”\s]+)”|「([^」\s]+)」")
SPECIALS = re.compile("|".join(re.escape(t) for t in SPECIAL_TOKENS))


@dataclass
class Vocab:
    words: frozenset[str]            # lower-cased token texts, without "##"/"Ġ"/"▁" marks
    chars: bool                      # a character-level vocabulary (a toy's or a verse model's)
    prompts: tuple[str, ...] = ()    # a language model's example prompts (its card's), offered as text

    def pieces(self, word: str) -> bool:
        """Whether `word` is one token of this vocabulary, or, for a character model, made of
        its characters (a WordPiece vocabulary spells every word: no test there)."""
        if word in self.words or not self.chars:
            return word in self.words
        i = 0
        while i < len(word):
            j = next((j for j in range(min(len(word), i + 24), i, -1) if word[i:j] in self.words), None)
            if j is None:
                return False
            i = j
        return bool(word)

    def starts_a_word(self, prefix: str) -> bool:
        return any(w.startswith(prefix) for w in self.words)


VOCABS: dict[str, Vocab] = {}


def vocab(model_key: str) -> Vocab:
    """The vocabulary of a catalogue model (token text the page may show in any language)."""
    if model_key not in VOCABS:
        words: set[str] = set()
        chars = False
        prompts: tuple[str, ...] = ()
        try:
            from models.weights import zoo

            entry = zoo.get(model_key)
            prompts = tuple(v for v in (entry.card.get("prompts") or {}).values() if isinstance(v, str))
            if entry.kind in ("pretrained", "custom"):
                from models.tokenizer import minilm_tokenizer

                tok = minilm_tokenizer()
            else:
                tok = zoo.load(model_key)[1]
            texts = [tok.id_to_token(i) for i in range(tok.vocab_size)]
            words = {w.lower().lstrip("#").replace("Ġ", "").replace("▁", "") for w in texts}
            chars = sum(len(w) == 1 for w in texts) > 0.8 * len(texts) - 10
        except (ValueError, KeyError, OSError):
            pass
        VOCABS[model_key] = Vocab(frozenset(words), chars, prompts)
    return VOCABS[model_key]


@functools.cache
def task_examples() -> tuple[str, ...]:
    """The toy tasks' examples (a toy checkpoint reads its task's example, not the reader's text)."""
    from models.training.tasks import TASKS, get_task

    out = []
    for name in TASKS:
        ex = get_task(name).probe()
        out += [ex.text, getattr(ex, "tgt_text", None) or ""]
    return tuple(out)


class Tokens:
    """What counts as token text on one screen."""

    def __init__(self, sc: Screen) -> None:
        self.vocab = vocab(sc.model) if sc.model else Vocab(frozenset(), False)
        self.typed = "\n".join([*sc.typed, *task_examples(), *self.vocab.prompts])
        self.typed_lower = self.typed.lower()

    def is_token(self, s: str) -> bool:
        """A whole string shown in a token place: the reader's text, a special token, or
        the model's tokens (with a rank or position before, "3. the", "12·the", a probability
        after, "the (0.31)"; a step "the → cat"; cut short, "convertib…"; several, as a
        model wrote them)."""
        s = re.sub(r"^\s*\d+\s*[.·:]\s*", "", s)
        s = re.sub(r"\s*\([\d.e+\-%]+\)\s*$", "", s).strip()
        if " → " in s:
            return all(self.is_token(part) for part in s.split(" → "))
        if not s or s in SPECIAL_TOKENS or s.lower() in self.typed_lower:
            return True
        if any(c.isspace() for c in s):
            return all(self.is_token(part) for part in s.split())
        bare = s.lower().lstrip("#").replace("Ġ", "").replace("▁", "").replace("␣", "").strip()
        if bare.endswith("…"):
            return self.vocab.starts_a_word(bare[:-1])
        return self.vocab.pieces(bare)

    def words_in(self, text: str) -> str:
        """`text` without the tokens it names: position labels ("12·the") and quoted tokens."""
        text = SPECIALS.sub(" ", text)
        text = POSITIONED.sub(lambda m: m.group(1) + "· " if self.is_token(m.group(2)) else m.group(0), text)
        return QUOTED.sub(lambda m: "“”" if self.quoted_token(m.group(1) or m.group(2)) else m.group(0), text)

    def quoted_output(self, text: str, lang: str) -> str:
        """`text` without quoted text a character-level model wrote (“⏎ 《 长 干 》” on an English
        screen, “⏎⏎CREATE” on a Chinese one): the other language's characters all in its vocabulary."""
        other = HAN if lang == "en" else re.compile(r"[A-Za-z]")
        def made_of_vocab(m: re.Match) -> str:  # noqa: E306
            chars = [c for c in m.group(1) if other.match(c)]
            return "“”" if self.vocab.chars and all(c.lower() in self.vocab.words for c in chars) else m.group(0)

        return QUOTED_ANY.sub(made_of_vocab, text)

    def quoted_token(self, s: str) -> bool:
        """A quoted string without spaces is an example of text when it is a token or
        written in lower case (a toy task's symbols: “abcde=”)."""
        return self.is_token(s) or s == s.lower()


def allowed_chunk(chunk: str, typed: str) -> bool:
    """Whether a Latin chunk (a word with its digits, dashes, dots) may stand on a Chinese screen."""
    if chunk in ALLOW or SYMBOL.fullmatch(chunk):
        return True
    parts = [p for p in re.split(r"[\-+./’'#]", chunk) if p]
    if all(p in ALLOW or not WORD.search(p) or p.lower() in typed for p in parts):
        return True
    return bool(re.fullmatch(r"[A-Za-z]{1,2}\d*|\d+[A-Za-z]{1,3}", chunk))


def english_words(text: str, typed: str) -> list[str]:
    text = PATH.sub(" ", FILE.sub(" ", text))       # file names, paths, link parameters (?present=1), *.safetensors
    text = MATH.sub(" ", text)                      # sigmoid(β), mean|W|: functions in a formula
    text = TITLE.sub(" ", TOY_TEXT.sub(" ", text))
    for name in NAMES:
        text = text.replace(name, " ")
    return [chunk for chunk in LATIN_CHUNK.findall(text) if WORD.search(chunk) and not allowed_chunk(chunk, typed)]


def chinese_runs(text: str, typed: str) -> list[str]:
    return [run for run in CJK.findall(text) if HAN.search(run) and run not in typed]


QUOTED_ANY = re.compile(r"“([^”]*)”")


LANGUAGE_SWITCH = ("Language · 语言", "中文", "English")


def offending(seen: Seen, tokens: Tokens, lang: str) -> list[str]:
    """The words (zh) or characters (en) of `seen` that are in the wrong language."""
    if seen.text.strip() in LANGUAGE_SWITCH:
        return []
    if seen.token:
        texts = [SPECIALS.sub(" ", v) for v in seen.text.split("\u0000") if not tokens.is_token(v)]
    else:
        texts = [tokens.words_in(tokens.quoted_output(seen.text, lang))]
    bad: list[str] = []
    for text in texts:
        bad += english_words(text, tokens.typed_lower) if lang == "zh" else chinese_runs(text, tokens.typed)
    return sorted(set(bad))


def leaks(screens: list[Screen], lang: str, known: Mapping[tuple[str, str, str], str] = {}) -> list[str]:
    """One line per leaking text: where it is first seen (and in how many other places),
    which element, the offending words, the text (digits folded: "L0 mlp" … "L5 mlp" once)."""
    found: dict[tuple[str, str], list] = {}
    for sc in screens:
        tokens = Tokens(sc)
        for seen in sc.texts:
            bad = [w for w in offending(seen, tokens, lang) if not is_known(known, lang, seen.where, w)]
            if bad:
                entry = found.setdefault((seen.kind, re.sub(r"\d+", "#", seen.text)), [seen.where, 0, bad, seen.text])
                entry[1] += 1
    return [f"{where}{f' (+{n - 1} more)' if n > 1 else ''} · {kind}: {bad} in {text[:240]!r}"
            for (kind, _), (where, n, bad, text) in found.items()]


def is_known(known: Mapping[tuple[str, str, str], str], lang: str, where: str, word: str) -> bool:
    return any(lang == k_lang and where.startswith(k_where) and word == k_word for (k_lang, k_where, k_word) in known)


def check(screens: list[Screen], lang: str, known: Mapping[tuple[str, str, str], str] = {}) -> None:
    found = leaks(screens, lang, known)
    what = "English on a Chinese screen" if lang == "zh" else "Chinese on an English screen"
    assert not found, f"{what} ({len(found)}):\n" + "\n".join(found)

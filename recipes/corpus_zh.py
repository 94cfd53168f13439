"""The modern-Chinese part of the language models' corpus (data/zh_modern.txt.xz): simplified-
Chinese prose from Debian's documentation, read from the installed packages (or a folder the
.deb files were unpacked into) and cleaned; models/training/corpus.py stores and loads it with
the verse (data/verse.txt.xz). Sources and licences: data/SOURCES.md.

- `debref`: the Debian Reference (`debian-reference-zh-cn`, HTML), one document per section;
- `debfaq`: the Debian FAQ (`debian-faq-zh-cn`, wrapped plain text), one per question;
- `manpages-zh`: the simplified-Chinese manual pages (`manpages-zh`, roff), one per page, only
  the package's own pages and only those whose licence lets the text be shipped (man_licence).

Only prose is kept: a paragraph stays when it has at least MIN_CJK CJK characters and they are
at least MIN_CJK_SHARE of its words (options, commands, code and tables go); a paragraph found
verbatim in BOILERPLATE or more documents of a source is dropped (translator credits,
bug-report footers), and any other repeated paragraph is kept only where it first appears (so
none is both trained on and held out). Every 10th document of each source is held out.
"""
from __future__ import annotations

import gzip
import re
import unicodedata
from html.parser import HTMLParser
from pathlib import Path

from models.training.corpus import DATA_DIR, Doc, MissingSource, held_out, under_root

MODERN_INDEX = DATA_DIR / "zh_modern.origins.tsv"            # where each of its documents comes from
MAN_DIR = Path("/usr/share/man/zh_CN")                        # manpages-zh (simplified Chinese only)
DEBREF_DIR = Path("/usr/share/debian-reference")              # debian-reference-zh-cn: *.zh-cn.html
DEBFAQ_TXT = Path("/usr/share/doc/debian/FAQ/debian-faq.zh-cn.txt.gz")   # debian-faq-zh-cn
DPKG_INFO = Path("/var/lib/dpkg/info")                        # <package>.list: the files it installed
MODERN_PACKAGES = ("manpages-zh", "debian-reference-zh-cn", "debian-faq-zh-cn")
MODERN_APT_COMMAND = "sudo apt-get install -y " + " ".join(MODERN_PACKAGES)
UNPACK_COMMAND = (f"apt-get download {' '.join(MODERN_PACKAGES)} && for f in *.deb; do dpkg-deb -x \"$f\" ROOT; "
                  "done && python -m cli.verse corpus --only modern --root ROOT")
# the reference's chapters in reading order (index.zh-cn.html is only the table of contents)
DEBREF_FILES = ("pr01", *(f"ch{i:02d}" for i in range(1, 13)), "apa")
MIN_CJK = 8                  # a prose paragraph has at least this many CJK characters ...
MIN_CJK_SHARE = 0.6          # ... and they are at least this share of its words
BOILERPLATE = 3              # a paragraph in this many documents of a source is dropped


_CJK_CHAR = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002a6df]")
_OTHER_WORD = re.compile("[^\\W\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002a6df]+")
_SPACE_IN_CJK = re.compile("(?<=[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]) "
                           "(?=[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef])")
_URL_IN_PARENS = re.compile(r"\s*[(（]\s*(?:https?|ftp)://[^()（）]*[)）]")


def _wide(ch: str) -> bool:
    return unicodedata.east_asian_width(ch) in "WF"


def join_lines(lines: list[str], wrapped: bool = False) -> str:
    """Lines of one paragraph -> one line: no space where both sides are wide (CJK) or
    either side is wide punctuation, one space elsewhere (between words). `wrapped`: the
    lines were cut at a fixed width, so a URL or path cut at the end of a line is rejoined."""
    out = ""
    for ln in lines:
        ln = ln.strip()
        if not ln:
            continue
        if out:
            a, b = out[-1], ln[0]
            tight = (_wide(a) and _wide(b)) or (_wide(a) and unicodedata.category(a)[0] == "P") \
                or (_wide(b) and unicodedata.category(b)[0] == "P")
            if wrapped and not _wide(b) and re.search(r"(?:://\S*|/)$", out) and not b.isspace():
                tight = True
            out += "" if tight else " "
        out += ln
    return out


def is_prose(par: str, share: float | None = None) -> bool:
    """At least MIN_CJK CJK characters, and they are at least MIN_CJK_SHARE of its words
    (a CJK character is a word, so is a run of other letters and digits: `apt-get` is two)."""
    n_cjk = len(_CJK_CHAR.findall(par))
    n_other = len(_OTHER_WORD.findall(par))
    return n_cjk >= MIN_CJK and n_cjk >= (MIN_CJK_SHARE if share is None else share) * (n_cjk + n_other)


def clean_paragraph(par: str) -> str:
    """NFC, one line, URLs in brackets dropped, runs of spaces collapsed, and no space left
    between two CJK characters (older translations put spaces between words for troff's
    line breaking: 可以 使用 另外 一个)."""
    par = unicodedata.normalize("NFC", par).replace("\u3000", " ").replace("\u00a0", " ")
    par = _URL_IN_PARENS.sub("", par)
    par = re.sub(r"[ \t\r\f\v\n]+", " ", par).strip()
    return _SPACE_IN_CJK.sub("", par)


def _prose(paragraphs: list[str]) -> list[str]:
    out = [clean_paragraph(p) for p in paragraphs]
    return [p for p in out if is_prose(p)]


# roff escapes (man(7), groff_char(7)): named characters kept, everything else dropped
_ROFF_CHARS = {"em": "—", "en": "–", "lq": "“", "rq": "”", "oq": "‘", "cq": "’", "aq": "'", "dq": '"',
               "bu": "•", "co": "©", "rg": "®", "tm": "™", "hy": "-", "mi": "-", "pl": "+", "mu": "×",
               "di": "÷", "ga": "`", "ti": "~", "ha": "^", "rs": "\\", "sl": "/", "dg": "†", "de": "°",
               "<=": "≤", ">=": "≥", "!=": "≠", "->": "→", "<-": "←", "R": "®", "Tm": "™"}
_ROFF_ESCAPE = re.compile(
    r"\\(?:"
    r"\"(?P<comment>.*)$"                                    # \" comment to the end of the line
    r"|[fF](?:\[[^\]]*\]|\(..|.)"                            # font
    r"|s[-+]?(?:\d|\(\d\d|\[[^\]]*\])"                       # size
    r"|\*(?:\[(?P<s1>[^\]]*)\]|\((?P<s2>..)|(?P<s3>.))"      # string
    r"|\((?P<c2>..)|\[(?P<cb>[^\]]*)\]"                      # named character
    r"|[hvwoXNbDlLxSZR]'[^']*'"                              # motions, widths, overstrikes, device
    r"|[kz].|n(?:\[[^\]]*\]|\(..|[-+]?.)|[gmMYV](?:\[[^\]]*\]|\(..|.)|\$."  # registers, colours, args
    r"|(?P<one>.))")
_ROFF_ONE = {"-": "-", "e": "\\", "\\": "\\", ".": ".", " ": " ", "~": " ", "0": " ", "'": "'", "`": "`",
             "t": " ", "_": "_"}
_ROFF_FONT_MACROS = {"B", "I", "BR", "BI", "IB", "IR", "RB", "RI", "SM", "SB", "UR", "MT",
                     "Nm", "Xr", "Ar", "Ic", "Ql", "Op", "Fl", "Pa", "Cm", "Va", "Em", "Sy", "Dv", "Ev", "Li",
                     "Fn", "Fa", "Ft", "Dq", "Sq", "Pq", "Qo", "Qc", "Aq", "Ad", "An", "Er", "Ms", "Tn", "Lk"}
_ROFF_SKIP_FROM = {"nf": "fi", "EX": "EE", "TS": "TE", "Vb": "Ve", "CS": "CE", "DS": "DE", "Bd": "Ed",
                   "EQ": "EN", "PS": "PE", "de": ".", "de1": ".", "am": ".", "ig": "."}


def roff_text(line: str) -> str:
    """One roff text line without its escapes (named characters kept; the HTML entities
    some translations left in are decoded)."""
    def sub(m: re.Match) -> str:
        if m.group("comment") is not None:
            return ""
        name = m.group("c2") or m.group("cb")
        if name:
            return _ROFF_CHARS.get(name, "")
        s = m.group("s1") or m.group("s2") or m.group("s3")
        if s:
            return {"lq": "“", "rq": "”", "R": "®", "Tm": "™"}.get(s, "")
        return _ROFF_ONE.get(m.group("one") or "", "")
    text = _ROFF_ESCAPE.sub(sub, line)
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"').replace("&amp;", "&")


def _macro_args(rest: str) -> list[str]:
    return [a[1:-1] if len(a) > 1 and a[0] == a[-1] == '"' else a for a in re.findall(r'"[^"]*"|\S+', rest)]


def man_paragraphs(src: str) -> list[str]:
    """The paragraphs of a man page (roff source): text lines and the text of font macros,
    joined; every other request ends a paragraph; a .TP/.It tag is a paragraph of its own;
    no-fill, example, table, verbatim and macro-definition blocks are dropped."""
    paras: list[str] = []
    cur: list[str] = []
    skip_until: str | None = None
    tag = False

    def flush() -> None:
        nonlocal cur
        if cur:
            paras.append(join_lines(cur))
        cur = []

    for raw in src.splitlines():
        if raw.startswith((".", "'")):
            m = re.match(r"^[.']\s*(\S*)\s*(.*)$", raw)
            name, rest = m.group(1), m.group(2)
            if skip_until is not None:
                if name == skip_until or (skip_until == "." and name == "."):
                    skip_until = None
                continue
            if name.startswith('\\"') or name == "":
                continue                                  # a comment, or an empty request
            if name in _ROFF_SKIP_FROM:
                flush()
                skip_until = _ROFF_SKIP_FROM[name]
                continue
            if name in _ROFF_FONT_MACROS:
                args = [roff_text(a) for a in _macro_args(rest)]
                cur.append(("" if len(name) == 2 and name.isupper() and name not in ("SM", "SB", "UR", "MT")
                            else " ").join(args))
                if tag:
                    flush()
                    tag = False
                continue
            flush()
            tag = name in ("TP", "It")
            if name == "It" and rest:                     # mdoc: the item's tag is on the request line
                flush()
                tag = False
            continue
        if skip_until is not None:
            continue
        text = roff_text(raw)
        if not text.strip():
            flush()
            continue
        cur.append(text)
        if tag:
            flush()
            tag = False
    flush()
    return paras


def _html_paragraphs(html: str) -> list[tuple[str, str]]:
    """[(tag, text)] of an HTML page: every block's text; tag "h1"/"h2" marks the titles
    that start a document; pre, tables' headers, tables of contents and navigation dropped."""
    blocks = {"p", "li", "dt", "dd", "td", "th", "tr", "div", "h1", "h2", "h3", "h4", "h5", "pre", "table", "ul",
              "ol", "dl", "blockquote", "br", "hr", "title"}
    skipped_classes = {"toc", "navheader", "navfooter", "list-of-tables", "list-of-figures", "list-of-examples"}

    class Parser(HTMLParser):
        def __init__(self) -> None:
            super().__init__(convert_charrefs=True)
            self.out: list[tuple[str, str]] = []
            self.buf: list[str] = []
            self.stack: list[tuple[str, bool]] = []      # (tag, starts a skipped region)
            self.skip = 0
            self.heading = ""

        def flush(self) -> None:
            text = "".join(self.buf)
            self.buf = []
            if text.strip() and not self.skip:
                self.out.append((self.heading or "p", text))

        def handle_starttag(self, tag, attrs):
            if tag in ("br", "hr", "img", "col", "meta", "link"):     # void elements: no end tag
                if tag in blocks:
                    self.flush()
                return
            if tag == "a":                                             # inline (often an empty anchor <a id/>)
                return
            classes = set((dict(attrs).get("class") or "").split())
            starts_skip = tag in ("pre", "head", "script", "style", "thead") or bool(classes & skipped_classes)
            if tag in blocks:
                self.flush()
            if tag in ("h1", "h2"):
                self.heading = tag
            self.stack.append((tag, starts_skip))
            self.skip += starts_skip

        def handle_endtag(self, tag):
            if tag not in {t for t, _ in self.stack}:
                return
            if tag in blocks:
                self.flush()
            while self.stack:
                t, starts_skip = self.stack.pop()
                self.skip -= starts_skip
                if t in ("h1", "h2"):
                    self.heading = ""
                if t == tag:
                    break

        def handle_data(self, data):
            if not self.skip:
                self.buf.append(data)

    p = Parser()
    p.feed(html)
    p.close()
    p.flush()
    return p.out


def read_debref(folder: Path) -> list[tuple[str, str]]:
    """The Debian Reference as (origin, text), one document per section (its h2; a chapter's
    introduction, before its first section, is one too), in reading order."""
    docs: list[tuple[str, list[str]]] = []
    for name in DEBREF_FILES:
        html = (folder / f"{name}.zh-cn.html").read_text(encoding="utf-8")
        docs.append((f"{name}.zh-cn.html", []))
        for tag, text in _html_paragraphs(html):
            if tag in ("h1", "h2"):
                title = clean_paragraph(text)
                if docs[-1][1]:
                    docs.append((f"{name}.zh-cn.html {title}", []))
                else:
                    docs[-1] = (f"{name}.zh-cn.html {title}", [])
                continue
            docs[-1][1].append(join_lines(text.splitlines()))
    return [(origin, "\n".join(_prose(pars))) for origin, pars in docs]


_FAQ_HEAD = re.compile(r"^(?:\d+\.\d+\. |第 \d+ 章 |附录 )")


def read_debfaq(path: Path) -> list[tuple[str, str]]:
    """The Debian FAQ (a wrapped plain text) as (origin, text), one document per question (a
    line `N.M. …` at the margin) and the front matter before the first chapter, table of
    contents dropped."""
    raw = gzip.decompress(path.read_bytes()).decode("utf-8")
    lines = raw.replace("\u00a0", " ").splitlines()
    docs: list[tuple[str, list[str]]] = [("front matter", [])]
    par: list[str] = []
    in_toc = False
    heading = False

    def end_par() -> None:
        nonlocal par
        if par:
            docs[-1][1].append(join_lines(par, wrapped=True))
        par = []

    for ln in lines:
        if ln.strip() == "目录" and len(docs) == 1:
            end_par()
            in_toc = True
            continue
        if _FAQ_HEAD.match(ln):
            in_toc = False
            end_par()
            if docs[-1][1]:
                docs.append((ln.strip(), []))
            else:
                docs[-1] = (ln.strip(), [])
            heading = True                # the heading's wrapped lines follow at the margin
            continue
        if in_toc:
            continue
        if heading:
            if ln.strip() and not ln.startswith(" "):
                continue
            heading = False
        if not ln.strip() or set(ln.strip()) == {"-"}:
            end_par()
            continue
        par.append(ln)
    end_par()
    return [(origin, "\n".join(_prose(pars))) for origin, pars in docs]


_NOTICE = re.compile(r"(?i)copyright|©|\(c\) *\d|permission is granted|redistribution and use|licen[cs]e|"
                     r"all rights reserved|版权|许可证")


def man_licence(src: str) -> str:
    """The licence a manual page's text is shipped under: "GFDL-1.2+" (the package's: the
    page states no notice of its own), "GFDL" (its notice: the GFDL 1.x or later, without
    invariant sections) or "GPL" (its notice names the GPL), or "other" (a notice under another
    licence, the GFDL with invariant sections or of one version only, or a bare copyright
    line): such pages are left out.
    The notice: the roff comments and any line that mentions a copyright or a licence, with
    the lines around it (a licence's name may be cut across two)."""
    lines = src.splitlines()
    hits = {i for i, ln in enumerate(lines) if ln.startswith(('.\\"', "'\\\"")) or _NOTICE.search(ln)}
    notice = " ".join(lines[i] for i in sorted({j for i in hits for j in (i - 1, i, i + 1)} & set(range(len(lines)))))
    if re.search(r"(?i)free documentation licen|\bgfdl\b", notice):
        # invariant sections must stay in every copy (ours keeps only prose): only without them
        # its first statement of a version must allow a later one (the text we ship is 1.2)
        first = re.search(r"(?i)free\s+documentation\s+license,?\s+version\s+1\.\d(,?\s+or\s+(?:any\s+)?later)?",
                          notice)
        ok = first and first.group(1) and re.search(r"(?i)no\s+invariant\s+sections", src)
        return "GFDL" if ok else "other"
    if re.search(r"(?i)general public licen|\bgpl|通用公共许可", notice):
        return "GPL"
    return "other" if _NOTICE.search(notice) else "GFDL-1.2+"


def read_manpages(folder: Path, owned: set[str] | None = None) -> list[tuple[str, str]]:
    """(origin, text) of every manual page under man1 … man8 that may be shipped (see
    man_licence; links skipped; only the paths in `owned` when given), sorted by section and
    name. The origin: the page's path in the folder and its licence."""
    out = []
    for path in sorted(folder.glob("man*/*"), key=lambda p: (p.parent.name, p.name)):
        if path.is_symlink() or not path.is_file() or (owned is not None and str(path) not in owned):
            continue
        data = path.read_bytes()
        src = (gzip.decompress(data) if path.suffix == ".gz" else data).decode("utf-8", errors="replace")
        licence = man_licence(src)
        if licence != "other":
            out.append((f"{path.parent.name}/{path.name} {licence}", "\n".join(_prose(man_paragraphs(src)))))
    return out


def owned_by(package: str, info_dir: Path | None = None) -> set[str] | None:
    """The paths an installed package owns (dpkg's file list), None when it is not installed:
    other packages (passwd, man-db) put zh_CN manual pages in the same folder."""
    listing = Path(info_dir or DPKG_INFO) / f"{package}.list"
    if not listing.exists():
        return None
    return set(listing.read_text(encoding="utf-8").splitlines())


def drop_repeats(items: list[tuple[str, str]], limit: int = BOILERPLATE,
                 seen: set[str] | None = None) -> list[tuple[str, str]]:
    """(origin, text) pairs with the paragraphs (lines) found verbatim in `limit` or more of
    the texts removed (boilerplate); a paragraph already kept earlier (here or in `seen`, which
    is updated) removed too, so the same paragraph is never both trained on and held out;
    texts left empty dropped."""
    counts: dict[str, int] = {}
    for _, t in items:
        for ln in set(t.splitlines()):
            counts[ln] = counts.get(ln, 0) + 1
    seen = set() if seen is None else seen
    out = []
    for origin, t in items:
        kept = []
        for ln in t.splitlines():
            if counts[ln] < limit and ln not in seen:
                seen.add(ln)
                kept.append(ln)
        if kept:
            out.append((origin, "\n".join(kept)))
    return out


def find_modern_sources(root: Path | None = None, man_dir: Path | None = None, debref_dir: Path | None = None,
                        debfaq: Path | None = None) -> tuple[Path, Path, Path, set[str] | None]:
    """(man folder, reference folder, FAQ file, the man pages to read or None for all), under
    `root` when given (a folder the .deb files were unpacked into: every page there is
    manpages-zh's); MissingSource with the commands when any is absent."""
    man = Path(man_dir) if man_dir else under_root(root, MAN_DIR)
    ref = Path(debref_dir) if debref_dir else under_root(root, DEBREF_DIR)
    faq = Path(debfaq) if debfaq else under_root(root, DEBFAQ_TXT)
    owned = None if (man_dir or root) else owned_by("manpages-zh")
    missing = [str(p) for p in (man / "man1", ref / "ch01.zh-cn.html", faq) if not p.exists()]
    if not (man_dir or root) and owned is None:
        missing.insert(0, "the package manpages-zh")
    if missing:
        raise MissingSource(f"Missing {', '.join(missing)}. Install the sources with:\n  {MODERN_APT_COMMAND}\n"
                            f"or unpack them without installing:\n  {UNPACK_COMMAND}")
    return man, ref, faq, owned


def read_modern(root: Path | None = None, man_dir: Path | None = None, debref_dir: Path | None = None,
                debfaq: Path | None = None) -> list[tuple[Doc, str]]:
    """(document, its origin) of the modern-Chinese sources in a fixed order (debref, debfaq,
    manpages-zh)."""
    man, ref, faq, owned = find_modern_sources(root, man_dir, debref_dir, debfaq)
    out: list[tuple[Doc, str]] = []
    seen: set[str] = set()
    for source, items in (("debref", read_debref(ref)), ("debfaq", read_debfaq(faq)),
                          ("manpages-zh", read_manpages(man, owned))):
        for i, (origin, text) in enumerate(drop_repeats(items, BOILERPLATE, seen)):
            out.append((Doc("zh", source, i, held_out(i), text), origin))
    return out


def build_modern(root: Path | None = None, man_dir: Path | None = None, debref_dir: Path | None = None,
                 debfaq: Path | None = None) -> list[Doc]:
    """The modern-Chinese documents (data/zh_modern.txt.xz) in a fixed order."""
    return [d for d, _ in read_modern(root, man_dir, debref_dir, debfaq)]


def write_origins(pairs: list[tuple[Doc, str]], path: Path = MODERN_INDEX) -> Path:
    """A tab-separated list: source, index, split, where the document comes from (file,
    section or question; a manual page's licence)."""
    rows = ["source\tindex\tsplit\torigin"]
    rows += [f"{d.source}\t{d.index}\t{'heldout' if d.heldout else 'train'}\t{o.replace(chr(9), ' ')}"
             for d, o in pairs]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path

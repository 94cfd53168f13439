"""The corpus of the shipped language models (verse-lm, verse-mlm, the pe64 set), in two files.

data/verse.txt.xz: the bilingual verse (public domain text, from Debian packages; see
data/SOURCES.md):
- Chinese: `fortunes-zh` (tang300 = 唐诗三百首, song100 = 宋词一百首), entries separated by
  lines "%", with ANSI colour escapes, a title line 《…》 and an author line (作者…);
- English: the King James Bible from `bible-kjv` + `bible-kjv-text`, its poetic books
  (Psalms, Proverbs, Ecclesiastes, Song of Solomon), one document per chapter.

data/zh_modern.txt.xz: modern (simplified) Chinese prose from Debian's documentation (the
Debian Reference, the Debian FAQ, the Chinese manual pages), built by
recipes/corpus_zh.py, under the licences of its sources (GPL-2+, GFDL-1.2+;
data/SOURCES.md): a file of its own, so that verse.txt.xz stays public domain and each file
rebuilds from its own packages.

`build_corpus(...)` (and corpus_zh.build_modern) read the installed packages (or the folders
given, or a folder the .deb files were unpacked into with `dpkg-deb -x`), clean the text and
return the documents in a fixed order; every 10th document of each source is held out (whole
poems, chapters, sections, pages: never half of one in each split). `write_corpus` stores them
as xz-compressed text in the repository, so training, evaluation and the tests run without the
packages: `load_corpus()` reads both files back (verse first). The models read three parts
(PARTS, part_of): zh-modern, zh-verse (the poems) and en.

File format: a document is a header line `### <lang> <source> <index> <train|heldout>`
followed by its text lines; documents are separated by one blank line.
"""
from __future__ import annotations

import lzma
import re
import shutil
import subprocess
import unicodedata
from dataclasses import dataclass
from pathlib import Path

DATA_DIR = Path(__file__).resolve().parent / "data"
CORPUS_PATH = DATA_DIR / "verse.txt.xz"
FORTUNES_DIR = Path("/usr/share/games/fortunes")
BIBLE_DATA_DIR = Path("/usr/lib")            # bible.data of bible-kjv-text
APT_COMMAND = "sudo apt-get install -y fortunes-zh bible-kjv bible-kjv-text"
MODERN_PATH = DATA_DIR / "zh_modern.txt.xz"
VERSE_SOURCES = ("tang300", "song100")                        # classical Chinese
MODERN_SOURCES = ("debref", "debfaq", "manpages-zh")          # modern Chinese, in this order
HOLD_OUT_EVERY = 10                          # every 10th document of each source is held out
# the poetic books of the KJV: (the bible program's abbreviation, chapters)
KJV_BOOKS = (("ps", 150), ("pr", 31), ("ec", 12), ("so", 8))
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
VERSE_REF = re.compile(r"^[1-3]?[A-Za-z]+\d+:\d+\s+")


class MissingSource(RuntimeError):
    """The Debian packages the corpus is built from are not installed."""


@dataclass(frozen=True)
class Doc:
    lang: str           # zh | en
    source: str         # tang300 | song100 | kjv-ps | kjv-pr | kjv-ec | kjv-so | debref | debfaq | manpages-zh
    index: int          # position within its source
    heldout: bool
    text: str

    def header(self) -> str:
        return f"### {self.lang} {self.source} {self.index} {'heldout' if self.heldout else 'train'}"


def held_out(i: int) -> bool:
    """Whether the i-th document of a source is held out (every HOLD_OUT_EVERY-th)."""
    return i % HOLD_OUT_EVERY == HOLD_OUT_EVERY - 1


def clean_fortune(entry: str) -> str | None:
    """One fortunes-zh entry -> "《title》author" + the poem's lines, or None if empty."""
    lines = [ANSI.sub("", ln).replace("\u3000", " ").strip() for ln in entry.splitlines()]
    lines = [ln for ln in lines if ln]
    if not lines:
        return None
    title, author, body = "", "", []
    for ln in lines:
        if not title and "《" in ln and not body:
            m = re.search(r"《[^》]*》.*", ln)
            title = m.group(0) if m else ln
        elif not author and ln.startswith("作者") and not body:
            author = re.sub(r"^作者\s*[:：]\s*", "", ln)
            author = re.sub(r"[（(].*$", "", author).strip()          # drop the (years) of song100
        else:
            body.append(ln)
    if not body:
        return None
    head = (title + author).strip()
    return "\n".join([head, *body]) if head else "\n".join(body)


def read_fortunes(path: Path) -> list[str]:
    raw = path.read_bytes().decode("utf-8", errors="replace")
    out = [clean_fortune(e) for e in re.split(r"(?m)^%\s*$", raw)]
    return [e for e in out if e]


def read_kjv_chapter(bible: str, data_dir: Path, book: str, chapter: int) -> str:
    """The verses of one chapter, one per line, without their references."""
    res = subprocess.run([bible, "-f", "-p", str(data_dir), f"{book}{chapter}:1-{chapter}:200"],
                         capture_output=True, text=True, check=True, timeout=60)
    verses = []
    for ln in res.stdout.splitlines():
        ln = ln.strip()
        m = VERSE_REF.match(ln)
        if m:
            verses.append(ln[m.end():])
        elif ln and verses:                       # a wrapped verse: join it back
            verses[-1] += " " + ln
    return "\n".join(verses)


def under_root(root: Path | None, path: Path) -> Path:
    """`path` (absolute) inside `root`, a folder .deb files were unpacked into; itself without."""
    return Path(root) / path.relative_to("/") if root else path


def find_sources(fortunes_dir: Path | None = None, bible: str | None = None,
                 bible_data: Path | None = None, root: Path | None = None) -> tuple[Path, str, Path]:
    """(fortunes folder, bible program, bible data folder); MissingSource with the apt
    command when any of them is absent."""
    fdir = Path(fortunes_dir) if fortunes_dir else under_root(root, FORTUNES_DIR)
    prog = bible or (str(under_root(root, Path("/usr/bin/bible"))) if root else
                     shutil.which("bible") or "/usr/bin/bible")
    bdata = Path(bible_data) if bible_data else under_root(root, BIBLE_DATA_DIR)
    missing = [str(p) for p in (fdir / "tang300", fdir / "song100", Path(prog), bdata / "bible.data")
               if not Path(p).exists()]
    if missing:
        raise MissingSource(f"Missing {', '.join(missing)}. Install the sources with:\n  {APT_COMMAND}")
    return fdir, prog, bdata


def build_corpus(fortunes_dir: Path | None = None, bible: str | None = None,
                 bible_data: Path | None = None, root: Path | None = None) -> list[Doc]:
    """The verse documents (data/verse.txt.xz), in a fixed order (tang300, song100, then the
    KJV books)."""
    fdir, prog, bdata = find_sources(fortunes_dir, bible, bible_data, root)
    docs: list[Doc] = []
    for source in VERSE_SOURCES:
        for i, text in enumerate(read_fortunes(fdir / source)):
            docs.append(Doc("zh", source, i, held_out(i), unicodedata.normalize("NFC", text)))
    for book, chapters in KJV_BOOKS:
        for c in range(1, chapters + 1):
            text = read_kjv_chapter(prog, bdata, book, c)
            if text:
                docs.append(Doc("en", f"kjv-{book}", c - 1, held_out(c - 1), unicodedata.normalize("NFC", text)))
    return docs


def serialise(docs: list[Doc]) -> str:
    return "\n\n".join(f"{d.header()}\n{d.text}" for d in docs) + "\n"


def parse(text: str) -> list[Doc]:
    docs = []
    for block in text.strip("\n").split("\n\n### "):
        block = block[4:] if block.startswith("### ") else block
        head, _, body = block.partition("\n")
        lang, source, index, split = head.split()
        docs.append(Doc(lang, source, int(index), split == "heldout", body))
    return docs


def write_corpus(docs: list[Doc], path: Path = CORPUS_PATH) -> Path:
    """Deterministic bytes: the same documents give the same file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(lzma.compress(serialise(docs).encode("utf-8"), preset=9 | lzma.PRESET_EXTREME))
    return path


def load_corpus(path: Path | None = None) -> list[Doc]:
    """The documents of one corpus file, or (path None) of both shipped files, verse first."""
    if path is not None:
        return parse(lzma.decompress(Path(path).read_bytes()).decode("utf-8"))
    return [d for p in (CORPUS_PATH, MODERN_PATH) for d in load_corpus(p)]


def part_of(doc: Doc) -> str:
    """zh-verse (the poems), zh-modern (Debian's documentation) or the language (en)."""
    if doc.source in VERSE_SOURCES:
        return "zh-verse"
    if doc.source in MODERN_SOURCES:
        return "zh-modern"
    return doc.lang


PARTS = ("zh-modern", "zh-verse", "en")


def split_text(docs: list[Doc], heldout: bool, lang: str | None = None) -> str:
    """The documents of one split joined by blank lines: what the models read. `lang`: None
    (all), a language (zh = both Chinese parts, en) or a part (zh-modern, zh-verse)."""
    return "\n\n".join(d.text for d in docs if d.heldout == heldout
                       and (lang is None or d.lang == lang or part_of(d) == lang)) + "\n"

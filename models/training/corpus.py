"""The bilingual verse corpus of the shipped language models (verse-lm, verse-mlm).

Sources (public domain text, installed from Debian packages; see data/SOURCES.md):
- Chinese: `fortunes-zh` (tang300 = 唐诗三百首, song100 = 宋词一百首), entries separated by
  lines "%", with ANSI colour escapes, a title line 《…》 and an author line (作者…);
- English: the King James Bible from `bible-kjv` + `bible-kjv-text`, its poetic books
  (Psalms, Proverbs, Ecclesiastes, Song of Solomon), one document per chapter.

`build_corpus(...)` reads the installed packages (or the folders given), cleans the text
and returns the documents in a fixed order; every 10th document of each source is held
out (whole poems and chapters: never half a poem in each split). `write_corpus` stores
them as one xz-compressed text file in the repository (data/verse.txt.xz), so training,
evaluation and the tests run without the packages: `load_corpus()` reads it back.

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
    source: str         # tang300 | song100 | kjv-ps | kjv-pr | kjv-ec | kjv-so
    index: int          # position within its source
    heldout: bool
    text: str

    def header(self) -> str:
        return f"### {self.lang} {self.source} {self.index} {'heldout' if self.heldout else 'train'}"


def _split(i: int) -> bool:
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


def find_sources(fortunes_dir: Path | None = None, bible: str | None = None,
                 bible_data: Path | None = None) -> tuple[Path, str, Path]:
    """(fortunes folder, bible program, bible data folder); MissingSource with the apt
    command when any of them is absent."""
    fdir = Path(fortunes_dir) if fortunes_dir else FORTUNES_DIR
    prog = bible or shutil.which("bible") or "/usr/bin/bible"
    bdata = Path(bible_data) if bible_data else BIBLE_DATA_DIR
    missing = [str(p) for p in (fdir / "tang300", fdir / "song100", Path(prog), bdata / "bible.data")
               if not Path(p).exists()]
    if missing:
        raise MissingSource(f"Missing {', '.join(missing)}. Install the sources with:\n  {APT_COMMAND}")
    return fdir, prog, bdata


def build_corpus(fortunes_dir: Path | None = None, bible: str | None = None,
                 bible_data: Path | None = None) -> list[Doc]:
    """Every document, in a fixed order (tang300, song100, then the KJV books)."""
    fdir, prog, bdata = find_sources(fortunes_dir, bible, bible_data)
    docs: list[Doc] = []
    for source in ("tang300", "song100"):
        for i, text in enumerate(read_fortunes(fdir / source)):
            docs.append(Doc("zh", source, i, _split(i), unicodedata.normalize("NFC", text)))
    for book, chapters in KJV_BOOKS:
        for c in range(1, chapters + 1):
            text = read_kjv_chapter(prog, bdata, book, c)
            if text:
                docs.append(Doc("en", f"kjv-{book}", c - 1, _split(c - 1), unicodedata.normalize("NFC", text)))
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


def load_corpus(path: Path = CORPUS_PATH) -> list[Doc]:
    return parse(lzma.decompress(Path(path).read_bytes()).decode("utf-8"))


def split_text(docs: list[Doc], heldout: bool, lang: str | None = None) -> str:
    """The documents of one split (and language) joined by blank lines: what the models read."""
    return "\n\n".join(d.text for d in docs if d.heldout == heldout and (lang is None or d.lang == lang)) + "\n"

"""The modern-Chinese part of the language models' corpus (recipes/corpus_zh.py,
data/zh_modern.txt.xz): the shipped file is prose, whole documents held out, no paragraph on
both sides; the cleaners (roff, HTML, wrapped text) on small hand-made sources; the builder is
deterministic, reads only manpages-zh's own pages and says what to install."""
from __future__ import annotations

import gzip
import re
import unicodedata
from pathlib import Path

import pytest

from cli import verse as verse_command
from models.training import corpus
from recipes import corpus_zh, verse

CJK = re.compile("[\u4e00-\u9fff]")


@pytest.fixture(scope="module")
def modern():
    return corpus.load_corpus(corpus.MODERN_PATH)


def test_shipped_modern_corpus(modern):
    origins = corpus_zh.MODERN_INDEX.read_text(encoding="utf-8").splitlines()[1:]
    assert [tuple(o.split("\t")[:3]) for o in origins] == \
        [(d.source, str(d.index), "heldout" if d.heldout else "train") for d in modern]
    assert {o.split()[-1] for o in origins if o.startswith("manpages-zh")} <= {"GFDL-1.2+", "GFDL", "GPL"}
    assert [s for s in dict.fromkeys(d.source for d in modern)] == list(corpus.MODERN_SOURCES)
    assert all(d.lang == "zh" and corpus.part_of(d) == "zh-modern" for d in modern)
    for source in corpus.MODERN_SOURCES:
        items = [d for d in modern if d.source == source]
        assert [d.index for d in items] == list(range(len(items)))
        assert all(d.heldout == (d.index % 10 == 9) for d in items)
    assert corpus.parse(corpus.serialise(modern)) == modern
    train = corpus.split_text(modern, False, "zh-modern")
    held = corpus.split_text(modern, True, "zh-modern")
    assert len(CJK.findall(train)) > 400_000 and len(CJK.findall(held)) > 30_000
    lines = [(d.heldout, ln) for d in modern for ln in d.text.splitlines()]
    assert all(corpus_zh.is_prose(ln) for _, ln in lines)
    assert all(unicodedata.normalize("NFC", ln) == ln for _, ln in lines)
    # no paragraph both trained on and held out (nor twice anywhere)
    assert len({ln for _, ln in lines}) == len(lines)
    # no roff or HTML left, no troff-era spaces between two Chinese characters
    text = train + held
    assert not re.search(r"\\f[BI]|\\s[-+]?\d|&lt;|&gt;|&amp;", text)
    assert not re.search("[\u4e00-\u9fff] [\u4e00-\u9fff]", text)


def test_parts_and_languages(modern):
    docs = corpus.load_corpus()
    parts = {corpus.part_of(d) for d in docs}
    assert parts == set(corpus.PARTS) == set(verse.SHARES)
    zh = corpus.split_text(docs, False, "zh")
    assert zh == corpus.split_text(docs, False, "zh-verse") + "\n" + corpus.split_text(docs, False, "zh-modern")
    assert "床前明月光" in corpus.split_text(docs, False, "zh-verse")
    assert "床前明月光" not in corpus.split_text(docs, False, "zh-modern")
    assert corpus.split_text(docs, True, "en") == corpus.split_text(corpus.load_corpus(corpus.CORPUS_PATH), True, "en")


def test_prose_filter_and_joining():
    assert corpus_zh.is_prose("与 -l 同时使用时，列出每个文件的作者")
    assert not corpus_zh.is_prose("-a, --all")
    assert not corpus_zh.is_prose("列出目录内容")                                 # too short
    assert not corpus_zh.is_prose("use apt-get install foo bar baz qux 安装软件包用")  # mostly other words
    assert corpus_zh.join_lines(["请查看", "Debian 的文档，", "以及", "它的手册"]) == "请查看 Debian 的文档，以及它的手册"
    assert corpus_zh.join_lines(["见 https://www.debian.org/", "doc 页面"], wrapped=True) == \
        "见 https://www.debian.org/doc 页面"
    assert corpus_zh.clean_paragraph("可以 使用 另外 一个 程序 (https://x.org/a) 完成") == "可以使用另外一个程序完成"


ROFF = r""".\" a comment
.TH LS 1 2022年9月 "GNU coreutils 9.1" 用户命令
.SH 名称
ls \- 列出目录内容
.SH 描述
.PP
列出指定\(lq文件\(rq（默认为当前目录）的信息。如果既没有指定 \fB\-cftuvSUX\fP 中任何一个，
也没有指定 \fB\-\-sort\fP，则按字母排序项目。
.TP
\fB\-a\fP, \fB\-\-all\fP
不要忽略以点号（“.”）起始的条目，也不要忽略隐藏的文件
.nf
ls \-la /tmp  # 这是一个示例命令，不是正文中的句子
.fi
.B 注意：
这些 选项 可以 组合 起来 使用，以得到 所需的 输出 格式。
"""


def test_man_page_cleaning():
    paras = [corpus_zh.clean_paragraph(p) for p in corpus_zh.man_paragraphs(ROFF)]
    assert "列出指定“文件”（默认为当前目录）的信息。如果既没有指定 -cftuvSUX 中任何一个，也没有指定 --sort，则按字母排序项目。" \
        in paras
    assert "-a, --all" in paras                                              # the .TP tag: a paragraph of its own
    assert "不要忽略以点号（“.”）起始的条目，也不要忽略隐藏的文件" in paras
    assert not any("示例命令" in p for p in paras)                           # .nf … .fi dropped
    assert "注意：这些选项可以组合起来使用，以得到所需的输出格式。" in paras
    assert not any("comment" in p or "coreutils" in p for p in paras)
    assert corpus_zh.roff_text(r"\fI\,文件\/\fP \(em \*(lq引号\*(rq a&lt;b") == "文件 — “引号” a<b"


HTML = """<html><head><title>第 2 章 标题</title></head><body>
<div class="navheader"><table><tr><th>第 2 章 导航栏里的文字不应出现</th></tr></table></div>
<div class="chapter"><h1 class="title">第 2 章 Debian 软件包管理</h1>
<div class="toc"><p>目录里面的条目也不应该出现在语料中</p></div>
<p>这是本章的引言，说明了 Debian 软件包管理的基本概念和
主要的工具。</p>
<div class="section"><h2 class="title">2.1. 第一节</h2>
<p>第一节的第一段正文，介绍 <code class="literal">apt</code>(8) 这个命令行工具的用法。</p>
<pre class="screen">$ apt-get install 这是示例代码不是正文段落</pre>
<p>第一节的第二段正文，仍然属于同一个文档，直到下一节开始为止。</p></div>
<div class="section"><h2 class="title">2.2. 第二节</h2>
<p>第二节只有这一段正文，它会成为另一个独立的文档。</p></div></div></body></html>"""

FAQ = """
                  Debian GNU/Linux 常见问题（FAQ）

版权 © 1996-2021 Software in the Public Interest

    在遵守并包含本文档版权声明的前提下，允许制作和发布本文档的完整拷
    贝。

目录

1. 定义和概览
    1.1. 本 FAQ 文档是什么？

第 1 章 定义和概览

1.1. 本 FAQ 文档是什么？

    本文档解答一些关于 Debian GNU/Linux 的常见问题，参见 https://www.debian.org/
    doc 以获得更多文档。

1.2. Debian 一词如何发音，有什么含义？这个标题很长所以被折
行了

    本计划的名字的发音为 Deb'-ee-en，Deb 的 e 是短元音 e，重音在第一
    个音节。
"""


def _fake_packages(root: Path) -> Path:
    ref = root / "usr/share/debian-reference"
    ref.mkdir(parents=True)
    for name in corpus_zh.DEBREF_FILES:
        (ref / f"{name}.zh-cn.html").write_text(HTML if name == "ch02" else "<html><body></body></html>",
                                                encoding="utf-8")
    faq = root / "usr/share/doc/debian/FAQ/debian-faq.zh-cn.txt.gz"
    faq.parent.mkdir(parents=True)
    faq.write_bytes(gzip.compress(FAQ.replace(" 本", "\u00a0本").encode("utf-8"), mtime=0))
    man = root / "usr/share/man/zh_CN"
    for i in range(23):
        page = man / f"man{1 + i % 2}" / f"prog{i:02d}.{1 + i % 2}.gz"
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_bytes(gzip.compress(
            (f".SH 描述\n程序{i}用来处理第{i}号文件，并把处理的结果写到标准输出上。\n.PP\n"
             "本页面中文版由中文手册页计划翻译并维护，欢迎指出翻译中的错误。\n").encode("utf-8"), mtime=0))
    (man / "man1" / "link.1.gz").symlink_to("prog00.1.gz")
    (man / "man1" / "zz-bsd.1.gz").write_bytes(gzip.compress(
        '.\\" Copyright (c) 1990 The Regents of the University of California.\n.\\" All rights reserved.\n'
        '.SH 描述\n这个页面带有它自己的版权声明，使用另一种许可证，所以不会进入语料。\n'.encode("utf-8"), mtime=0))
    return root


def test_builder_is_deterministic_and_holds_out_every_tenth(tmp_path):
    root = _fake_packages(tmp_path / "root")
    a = corpus_zh.build_modern(root)
    assert a == corpus_zh.build_modern(root)
    p1, p2 = corpus.write_corpus(a, tmp_path / "a.txt.xz"), corpus.write_corpus(a, tmp_path / "b.txt.xz")
    assert p1.read_bytes() == p2.read_bytes() and corpus.load_corpus(p1) == a
    ref = [d.text for d in a if d.source == "debref"]
    assert ref == ["这是本章的引言，说明了 Debian 软件包管理的基本概念和主要的工具。",
                   "第一节的第一段正文，介绍 apt(8) 这个命令行工具的用法。\n"
                   "第一节的第二段正文，仍然属于同一个文档，直到下一节开始为止。",
                   "第二节只有这一段正文，它会成为另一个独立的文档。"]
    faq = [d.text for d in a if d.source == "debfaq"]
    assert faq == ["在遵守并包含本文档版权声明的前提下，允许制作和发布本文档的完整拷贝。",
                   "本文档解答一些关于 Debian GNU/Linux 的常见问题，参见 https://www.debian.org/doc 以获得更多文档。",
                   "本计划的名字的发音为 Deb'-ee-en，Deb 的 e 是短元音 e，重音在第一个音节。"]
    man = [d for d in a if d.source == "manpages-zh"]
    assert len(man) == 23 and [d.index for d in man if d.heldout] == [9, 19]   # the link and zz-bsd are not read
    assert man[0].text == "程序0用来处理第0号文件，并把处理的结果写到标准输出上。"    # the shared credit dropped (boilerplate)


def test_origins_and_licences(tmp_path):
    pairs = corpus_zh.read_modern(_fake_packages(tmp_path / "root"))
    origins = [o for _, o in pairs]
    assert origins[:3] == ["ch02.zh-cn.html 第 2 章 Debian 软件包管理", "ch02.zh-cn.html 2.1. 第一节",
                           "ch02.zh-cn.html 2.2. 第二节"]
    assert origins[3:6] == ["front matter", "1.1. 本 FAQ 文档是什么？", "1.2. Debian 一词如何发音，有什么含义？这个标题很长所以被折"]
    assert origins[6] == "man1/prog00.1.gz GFDL-1.2+"
    tsv = corpus_zh.write_origins(pairs, tmp_path / "origins.tsv").read_text(encoding="utf-8").splitlines()
    assert tsv[0] == "source\tindex\tsplit\torigin" and tsv[1] == "debref\t0\ttrain\t" + origins[0]
    assert corpus_zh.man_licence('.\\" Copyright 1996 A. Author\n.\\" Redistribution and use ... permitted\n正文') \
        == "other"
    assert corpus_zh.man_licence(".SH 版权\n版权所有 © 2022 Free Software Foundation, Inc. "
                                 "许可证 GPLv3+：GNU 通用公共许可证\n") == "GPL"
    assert corpus_zh.man_licence(".PP\nunder the terms of the GNU Free\nDocumentation License, Version 1.2 or any "
                                 "later version; with\nno Invariant Sections, no Front-Cover Texts\n") == "GFDL"
    assert corpus_zh.man_licence(".PP\nunder the terms of the GNU Free Documentation License, Version 1.1; with the\n"
                                 "Invariant Sections being this .ig-section and AUTHORS\n") == "other"
    assert corpus_zh.man_licence(".SH 描述\n列出目录内容，这个页面没有自己的声明。\n") == "GFDL-1.2+"


def test_only_manpages_zh_own_pages_are_read_from_the_system(tmp_path, monkeypatch):
    root = _fake_packages(tmp_path / "root")
    info = tmp_path / "info"
    info.mkdir()
    man = root / "usr/share/man/zh_CN"
    owned = sorted(str(p) for p in man.glob("man1/*"))
    (info / "manpages-zh.list").write_text("\n".join(owned) + "\n", encoding="utf-8")
    monkeypatch.setattr(corpus_zh, "DPKG_INFO", info)
    monkeypatch.setattr(corpus_zh, "MAN_DIR", man)
    monkeypatch.setattr(corpus_zh, "DEBREF_DIR", root / "usr/share/debian-reference")
    monkeypatch.setattr(corpus_zh, "DEBFAQ_TXT", root / "usr/share/doc/debian/FAQ/debian-faq.zh-cn.txt.gz")
    docs = corpus_zh.build_modern()
    assert len([d for d in docs if d.source == "manpages-zh"]) == 12         # man1 only: the package's list
    (info / "manpages-zh.list").unlink()
    with pytest.raises(corpus.MissingSource, match="the package manpages-zh"):
        corpus_zh.build_modern()


def test_missing_packages_give_the_commands(tmp_path):
    with pytest.raises(corpus.MissingSource) as e:
        corpus_zh.build_modern(tmp_path)
    assert corpus_zh.MODERN_APT_COMMAND in str(e.value) and "dpkg-deb -x" in str(e.value)
    assert "apt-get install -y manpages-zh debian-reference-zh-cn debian-faq-zh-cn" in corpus_zh.MODERN_APT_COMMAND
    assert verse_command.main(["corpus", "--only", "modern", "--root", str(tmp_path)]) == 2
    assert not (tmp_path / "zh_modern.txt.xz").exists()

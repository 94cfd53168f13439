"""Text made safe for Streamlit's markdown: anybody's text (tokens, link values, file
contents, error messages) is shown literally, never as markdown or HTML."""
from __future__ import annotations

import html
import re


def md_code(text: str) -> str:
    """Any text as a markdown code span, shown exactly as typed: no markdown, HTML or
    autolinks are processed inside, and the fence is longer than any run of backticks
    in the text so the text cannot close it."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    return f"{fence} {text} {fence}"


def md_escape(text: str) -> str:
    """Token or user text made safe for st.markdown: HTML-escaped and with markdown
    syntax characters backslash-escaped, so it shows literally."""
    out = text
    for ch in "\\`*_{}[]()#+-.!|~$":          # backslash first, so later escapes are not doubled
        out = out.replace(ch, "\\" + ch)
    return html.escape(out, quote=False)        # < > & as entities: raw HTML never reaches the page


def markdown_table(header: list[str], rows: list[list[str]], *, markup: bool = False) -> str:
    """One GitHub-style markdown table, every cell escaped (a local folder's name is
    anybody's text). One markdown element instead of `st.table`, which draws each cell
    as its own markdown element: the catalogue's ~100 cells made up a large share of
    the browser's work on every rerun of the overview (benchmarks/load.py).
    `markup`: cells of the UI's own strings keep their **bold**, `code` and $math$
    (`lesson_markdown`); everything else is still shown literally."""
    def cell(text: str) -> str:
        flat = " ".join(str(text).split())
        return (lesson_markdown(flat) if markup else md_escape(flat)) or " "

    lines = ["| " + " | ".join(cell(h) for h in header) + " |", "|" + " --- |" * len(header)]
    lines += ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


_ALLOWED = re.compile(r"(\*\*[^*\n]{1,200}\*\*|`[^`\n]{1,200}`|\$[^$\n<>]{1,300}\$)")


def lesson_markdown(text: str) -> str:
    """A lesson file's prose for st.markdown: everything shown literally (no HTML, links,
    images or headings) except **bold**, `code` and $inline math$, the three things a
    lesson's sentences need."""
    out = []
    for i, part in enumerate(_ALLOWED.split(text)):
        if i % 2 == 0:
            out.append(md_escape(part).replace("\n", "  \n"))
        elif part.startswith("**"):
            out.append(f"**{md_escape(part[2:-2])}**")
        elif part.startswith("`"):
            out.append(md_code(part[1:-1]))
        else:
            out.append(part)
    return "".join(out)

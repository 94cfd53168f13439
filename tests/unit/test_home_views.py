"""The overview's catalogue is one markdown table whose cells are escaped user text."""
from ui.views.home import markdown_table


def test_markdown_table_escapes_every_cell_and_keeps_its_shape():
    hostile = "evil | <script>alert(1)</script>\n[link](http://x) *bold*"
    md = markdown_table(["model", "details"], [[hostile, "ok"], ["", "two\nlines"]])
    lines = md.split("\n")
    assert len(lines) == 4                                  # header, rule, two rows: newlines folded
    assert lines[1] == "| --- | --- |"
    for line in lines[2:]:
        # exactly three unescaped pipes: the row's borders and the one separator
        assert sum(1 for i, ch in enumerate(line) if ch == "|" and line[i - 1:i] != "\\") == 3
    assert "<script>" not in md and "&lt;script&gt;" in md
    assert "\\[link\\]\\(http://x\\)" in md and "\\*bold\\*" in md   # no link, no emphasis
    assert "| two lines |" in md and lines[3].startswith("|   |")       # an empty cell stays a cell

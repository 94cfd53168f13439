"""Per-page UI strings. Each module here defines `STRINGS` (key -> {"en", "zh"}) and
optionally `FORMULAS` (key -> LaTeX); `ui.i18n` merges them all at import and refuses
a key defined twice. One module per page keeps pages from editing the same dict."""

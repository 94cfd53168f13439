"""The UI's strings, one module per page (home.py, attention.py, ..., training.py), one per
shared widget (compare.py, ablation.py) and common.py for the sidebar, notices and the words
several pages use. Each module defines `STRINGS` (key -> {"en", "zh"}) and optionally
`FORMULAS` (key -> LaTeX); `ui.i18n` merges them all at import and refuses a key defined
twice. A key lives in the module of the page that looks it up; common.py if several do."""

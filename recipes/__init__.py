"""How each shipped checkpoint was made, and the reports written about it: the recipes
that train (on models/training's trainer and tasks) and the writers that measure and
report. Nothing here runs in the app: the app reads the checkpoints they wrote
(models/weights/checkpoints/) and the corpus reader (models/training/corpus.py).

- `toys`: the toy-task checkpoints (copy-*, reverse-*, sort, induction, brackets, spell);
  `python -m cli.train --all` runs them;
- `verse`, `verse_tasks`: verse-lm and verse-mlm, their tasks; `verse_eval` their report
  (docs/verse_lm.json, docs/benchmarks.md); `python -m cli.verse`;
- `corpus_zh`: builds the modern-Chinese part of their corpus from Debian's packages;
- `pe_lm`: the six pe64-<scheme> models of "train short, test long"; `pe_lm_eval` their
  report (docs/pe_lm.json, docs/pe_lm.md); `python -m cli.pe_lm`.

Imports `recipes`, `lab` and `models`; nothing in app_pages, ui, viz_core, lab or models
imports it.
"""

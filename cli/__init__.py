"""Command-line tools: `python -m cli.trace` (record a trace to .npz),
`python -m cli.train` (train toy models, reproduce the shipped checkpoints),
`python -m cli.verse` and `python -m cli.pe_lm` (the shipped language models and their
reports; the recipes are in recipes/), `python -m cli.serve` and `python -m cli.proxy`."""

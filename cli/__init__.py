"""Command-line tools: `python -m cli.trace` (record a trace to .npz) and
`python -m cli.train` (train toy models, reproduce the shipped checkpoints)."""

"""Training: toy tasks with a known ideal attention pattern (`tasks`), a small
deterministic trainer with live callbacks (`trainer`), the language models' corpus
(`corpus`, its text in data/) and the length-generalisation measure (`length_eval`) the
app reads. The recipes of the shipped checkpoints and their reports are in `recipes/`."""

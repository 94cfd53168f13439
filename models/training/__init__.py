"""Training: toy tasks with a known ideal attention pattern (`tasks`), a small
deterministic trainer with live callbacks (`trainer`), and the recipes of the shipped
checkpoints (`recipes`)."""

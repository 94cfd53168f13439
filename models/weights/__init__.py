"""Weights: our safetensors checkpoints (`checkpoint`), Hugging Face models mapped into our
Transformer (`pretrained`), and the catalogue the app offers (`zoo`)."""

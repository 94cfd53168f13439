"""Panels several pages share: A/B comparison (compare), ablation toggles (ablation),
positions and typed tokens (tokens), a section built only while it is open (folded)."""

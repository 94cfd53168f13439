"""Positions for a ViT's patches: the 2-D sinusoidal table (the fixed sin-cos table of MAE, He
et al. 2022, and of many ViTs since) beside a learned table, and how alike each patch's
position vector is to every other's.

- `sincos_2d(rows, cols, d)`: the table [1 + rows·cols, d] for [CLS] and the patches in
  reading order: the first d/2 dimensions encode the patch's row, the last d/2 its column,
  each half the 1-D sinusoid of the original Transformer ([sin | cos] of the position times
  d/4 frequencies 1/10000^(i/(d/4))); the [CLS] row is zeros (it has no place on the grid);
- `similarity_grids(table, rows, cols)`: the cosine similarity of every patch's position
  vector to every other patch's, each laid back on the patch grid: [n, rows, cols], panel q
  = how alike patch q's vector is to each patch's (the figure of Dosovitskiy et al. 2021,
  Fig. 7, for a learned table).

Our Transformer's positional options hold a learned table (`pos_embed`) or a computed 1-D
one; a fixed 2-D table goes into the learned slot, frozen (lab/patches.py `build_vit`):
training never changes it, so the table the checkpoint holds is `sincos_2d` (tested).
"""
from __future__ import annotations

import numpy as np
import torch

BASE = 10000.0


def sincos_1d(positions: np.ndarray, d: int, base: float = BASE) -> np.ndarray:
    """[len(positions), d]: sin of position × each of d/2 frequencies, then their cos."""
    if d % 2:
        raise ValueError(f"A 1-D sinusoid needs an even width, not {d}.")
    freq = 1.0 / base ** (np.arange(d // 2, dtype=np.float64) / (d // 2))
    angle = np.asarray(positions, dtype=np.float64)[:, None] * freq[None]
    return np.concatenate([np.sin(angle), np.cos(angle)], axis=1)


def sincos_2d(rows: int, cols: int, d: int, cls: bool = True, base: float = BASE) -> torch.Tensor:
    """The 2-D sin-cos table [cls + rows·cols, d] (float32), patches in reading order: half
    the dimensions the row's 1-D sinusoid, half the column's; a zero row for [CLS] first."""
    if d % 4:
        raise ValueError(f"A 2-D sin-cos table needs a width divisible by 4, not {d}.")
    r, c = np.divmod(np.arange(rows * cols), cols)                    # reading order: row by row
    table = np.concatenate([sincos_1d(r, d // 2, base), sincos_1d(c, d // 2, base)], axis=1)
    if cls:
        table = np.concatenate([np.zeros((1, d)), table])
    return torch.as_tensor(table, dtype=torch.float32)


def similarity_grids(table: np.ndarray | torch.Tensor, rows: int, cols: int) -> np.ndarray:
    """Cosine similarity of the patches' position vectors (the table's last rows·cols rows),
    [n, rows, cols]: panel q is patch q's similarity to every patch, on the grid."""
    t = torch.as_tensor(np.asarray(table) if not torch.is_tensor(table) else table.detach(), dtype=torch.float64)
    t = t[-rows * cols:]
    unit = t / t.norm(dim=-1, keepdim=True).clamp_min(1e-12)
    return (unit @ unit.T).reshape(rows * cols, rows, cols).numpy()


def near_far(table: np.ndarray | torch.Tensor, rows: int, cols: int) -> dict[str, float]:
    """Mean cosine similarity of the patches' position vectors over the pairs one step apart on
    the grid (a row or column neighbour: "near") and over the pairs two or more steps apart
    (city-block distance: "far")."""
    sim = similarity_grids(table, rows, cols).reshape(rows * cols, rows * cols)
    r, c = np.divmod(np.arange(rows * cols), cols)
    dist = np.abs(r[:, None] - r[None]) + np.abs(c[:, None] - c[None])
    return {"near": float(sim[dist == 1].mean()), "far": float(sim[dist >= 2].mean())}

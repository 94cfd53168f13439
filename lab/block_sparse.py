"""Block-sparse attention (Sparse Transformer, Child et al. 2019; BigBird, Zaheer et al. 2020;
DeepSpeed's sparse-attention kernels): the mask is decided per b × b block of (query, key)
pairs instead of per pair, because an accelerator computes a whole tile or none of it.

The block layout [n_blocks, n_blocks] (True = the block is computed): each query block sees
`local` blocks on either side of its own, the first `global_blocks` blocks see and are seen
by every block, and `random_blocks` extra key blocks per query block are drawn from a seeded
generator (BigBird). A decoder keeps only the blocks on or below the diagonal, and inside the
diagonal blocks only the causal pairs. The token-level mask is the layout with every block
expanded to b × b tokens (`np.kron`), cut to the text's n tokens: the figure the masks page
draws on the reader's own tokens.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

MAX_BLOCK = 64


def layout(n_blocks: int, local: int, global_blocks: int, random_blocks: int = 0, seed: int = 0,
           causal: bool = False) -> np.ndarray:
    """The block layout [n_blocks, n_blocks] bool, True = computed."""
    if n_blocks < 1:
        raise ValueError(f"A text has at least one block (got {n_blocks}).")
    if local < 0 or global_blocks < 0 or random_blocks < 0:
        raise ValueError("The numbers of local, global and random blocks cannot be negative.")
    i = np.arange(n_blocks)
    out = np.abs(i[:, None] - i[None, :]) <= local
    g = min(global_blocks, n_blocks)
    out[:g, :] = True
    out[:, :g] = True
    if random_blocks:
        rng = np.random.default_rng(seed)
        for q in range(n_blocks):
            choices = np.flatnonzero(~out[q] & ((i <= q) if causal else True))
            if choices.size:
                out[q, rng.choice(choices, size=min(random_blocks, choices.size), replace=False)] = True
    if causal:
        out &= i[:, None] >= i[None, :]
    return out


def token_mask(blocks: np.ndarray, block: int, n: int, causal: bool = False) -> np.ndarray:
    """The layout expanded to tokens [n, n] bool (every block b × b, cut to n); a decoder
    also drops the pairs above the diagonal inside the diagonal blocks."""
    full = np.kron(blocks.astype(np.uint8), np.ones((block, block), dtype=np.uint8)).astype(bool)[:n, :n]
    if causal:
        full &= np.tri(n, dtype=bool)
    return full


@dataclass(frozen=True)
class BlockSparse:
    """A block-sparse mask on a text of n tokens."""

    n: int
    block: int
    blocks: np.ndarray          # [nb, nb] bool layout
    mask: np.ndarray            # [n, n] bool token-level mask
    causal: bool

    @property
    def n_blocks(self) -> int:
        return int(self.blocks.shape[0])

    @property
    def computed(self) -> int:
        """Blocks computed."""
        return int(self.blocks.sum())

    @property
    def dense_blocks(self) -> int:
        """Blocks a dense kernel computes: all nb², or the nb(nb+1)/2 on or below the diagonal in a decoder."""
        nb = self.n_blocks
        return nb * (nb + 1) // 2 if self.causal else nb * nb

    @property
    def share(self) -> float:
        """Computed blocks ÷ the dense kernel's blocks."""
        return self.computed / self.dense_blocks

    @property
    def pairs(self) -> int:
        """(query, key) pairs the mask allows on the text."""
        return int(self.mask.sum())

    @property
    def density(self) -> float:
        """Allowed pairs ÷ the pairs a dense mask allows (n², or n(n+1)/2 in a decoder)."""
        return self.pairs / (self.n * (self.n + 1) // 2 if self.causal else self.n * self.n)

    @property
    def kernel_pairs(self) -> int:
        """Pairs a block kernel computes: b² per computed block, including those the mask then
        drops (past the text's end, and above the diagonal inside a decoder's diagonal blocks)."""
        return self.computed * self.block ** 2


def touched(mask: np.ndarray, block: int) -> np.ndarray:
    """The blocks [nb, nb] a token-level mask [n, n] touches: a block a kernel must compute
    because at least one of its pairs is allowed."""
    m = np.asarray(mask, dtype=bool)
    n = m.shape[0]
    if m.shape != (n, n) or n < 1:
        raise ValueError(f"touched wants a square [n, n] mask (got {m.shape}).")
    if not 1 <= block <= MAX_BLOCK:
        raise ValueError(f"The block size must be 1 to {MAX_BLOCK} tokens (got {block}).")
    nb = math.ceil(n / block)
    padded = np.zeros((nb * block, nb * block), dtype=bool)
    padded[:n, :n] = m
    return padded.reshape(nb, block, nb, block).any(axis=(1, 3))


def block_sparse(n: int, block: int, local: int, global_blocks: int, random_blocks: int = 0, seed: int = 0,
                 causal: bool = False) -> BlockSparse:
    """The block-sparse mask of a text of n tokens in blocks of `block` tokens."""
    if n < 1:
        raise ValueError(f"A text has at least one token (got {n}).")
    if not 1 <= block <= MAX_BLOCK:
        raise ValueError(f"The block size must be 1 to {MAX_BLOCK} tokens (got {block}).")
    nb = math.ceil(n / block)
    blocks = layout(nb, local, global_blocks, random_blocks, seed, causal)
    return BlockSparse(n, block, blocks, token_mask(blocks, block, n, causal), causal)

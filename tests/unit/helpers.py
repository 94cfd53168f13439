"""Shared helpers of the unit tests."""
from __future__ import annotations

import torch


def bools(rows: str | list) -> torch.Tensor:
    """A bool tensor written by hand: nested lists of 0/1, or a mask drawn as text, one
    row a line, ``1`` where the query may attend and ``.`` where it is masked::

        bools('''
            1 . .
            1 1 .
            1 1 1''')            # == bools([[1, 0, 0], [1, 1, 0], [1, 1, 1]]) == causal(3)
    """
    if isinstance(rows, str):
        cells = {"1": 1, ".": 0}
        try:
            rows = [[cells[c] for c in line.split()] for line in rows.strip().splitlines()]
        except KeyError as e:
            raise ValueError(f"a drawn mask has only '1' and '.' cells, not {e.args[0]!r}") from None
    return torch.tensor(rows, dtype=torch.bool)


def zip_of(files: dict[str, bytes]) -> bytes:
    """A zip archive of {member name: bytes}, in memory."""
    import io
    import zipfile

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name, data in files.items():
            z.writestr(name, data)
    return buf.getvalue()

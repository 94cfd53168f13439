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


def zip_of(files: dict[str, bytes] | list[tuple[str, bytes]], compression: int | None = None) -> bytes:
    """A zip archive of {member name: bytes}, in memory; a list of (name, bytes) pairs may
    repeat a name (a hostile zip). `compression`: a zipfile method, stored by default."""
    import io
    import zipfile

    method = zipfile.ZIP_STORED if compression is None else compression
    pairs = files.items() if isinstance(files, dict) else files
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", method) as z:
        for name, data in pairs:
            z.writestr(zipfile.ZipInfo(name or "x"), data, compress_type=method)
    return buf.getvalue()

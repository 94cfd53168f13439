"""Checkpoint families (issue 32): filled in below."""
from __future__ import annotations

from .keytable import Family

FAMILIES: dict[str, Family] = {
}

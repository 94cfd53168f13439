"""server/bytecode.py: the app's missing or stale .pyc files written before its imports,
whatever PYTHONDONTWRITEBYTECODE says; a tree it cannot write, or a file that does not
compile, is a False, never an exception."""
from __future__ import annotations

import importlib.util
import os
from pathlib import Path

from server import bytecode


def _pyc(source: Path) -> Path:
    return Path(importlib.util.cache_from_source(str(source)))


def test_missing_bytecode_is_written_kept_while_fresh_and_rewritten_when_stale(tmp_path, monkeypatch):
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    module = pkg / "m.py"
    module.write_text("X = 1\n")
    (tmp_path / "app.py").write_text("import pkg\n")
    assert bytecode.compile_app(tmp_path, ("app.py", "pkg", "absent"))
    assert _pyc(module).exists() and _pyc(tmp_path / "app.py").exists() and _pyc(pkg / "__init__.py").exists()
    before = _pyc(module).read_bytes()
    assert bytecode.compile_app(tmp_path, ("pkg",))
    assert _pyc(module).read_bytes() == before                 # fresh: left alone
    module.write_text("X = 2222\n")
    stamp = module.stat().st_mtime + 10
    os.utime(module, (stamp, stamp))
    assert bytecode.compile_app(tmp_path, ("pkg",))
    assert _pyc(module).read_bytes() != before                 # stale: written again


def test_a_broken_file_or_a_read_only_tree_says_false(tmp_path, monkeypatch):
    (tmp_path / "bad.py").write_text("def (:\n")
    assert bytecode.compile_app(tmp_path, ("bad.py",)) is False
    (tmp_path / "good.py").write_text("Y = 1\n")
    monkeypatch.setattr(bytecode.os, "access", lambda path, mode: False)
    assert bytecode.compile_app(tmp_path, ("good.py",)) is False
    assert not _pyc(tmp_path / "good.py").exists()              # nothing attempted

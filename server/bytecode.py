"""The app's own modules compiled to bytecode before they are imported.

Python compiles a module from source when it finds no up-to-date .pyc beside it, and with
PYTHONDONTWRITEBYTECODE=1 (many container images, this project's CI machines, our own
Dockerfile) it never writes one, so every start compiled again: on a 2-core machine a
lesson link's first visitor waited for the step kinds to compile (its run 0.84-0.97 s,
0.60-0.69 s with the bytecode written). `compile_app()` writes the missing or stale .pyc files of
PACKAGES with `compileall` (which writes them whatever that variable says): ~1.4 s once,
~0.1 s when they are up to date. The warm-up launcher calls it first (ui/warmup.py, in
its background thread: the server answers meanwhile), and the Dockerfile at build time
(`python -m server.bytecode`), so an image's read-only tree needs nothing at start.

Standard library only (imported before torch).
"""
from __future__ import annotations

import compileall
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# every layer the app may import (tests/unit/test_deploy.py checks it against test_layout's rules), and cli (cli.serve)
PACKAGES = ("app.py", "app_pages", "ui", "viz_core", "lab", "models", "cli", "server")


def compile_app(root: Path = ROOT, packages: tuple[str, ...] = PACKAGES) -> bool:
    """Write the .pyc files of `packages` under `root` that are missing or older than their
    source. False, with nothing raised, where the tree cannot be written or a file did not
    compile: Python then compiles that module in memory when it is imported, as before."""
    if not os.access(root, os.W_OK):
        return False
    ok = True
    for name in packages:
        path = root / name
        if path.is_dir():
            ok = bool(compileall.compile_dir(path, quiet=2)) and ok
        elif path.is_file():
            ok = bool(compileall.compile_file(path, quiet=2)) and ok
    return ok


if __name__ == "__main__":
    raise SystemExit(0 if compile_app() else 1)

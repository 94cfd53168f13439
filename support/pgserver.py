"""A throw-away PostgreSQL server for tests and benchmarks: its own cluster in a temporary folder, on loopback and a
free port, stopped and deleted afterwards.

    with pgserver.running() as server:       # pytest.skip()s when no PostgreSQL binaries exist
        url = server.new_database()          # postgresql://glassbox@127.0.0.1:PORT/t1, empty

The binaries are found on PATH or under /usr/lib/postgresql/<version>/bin (Debian's `postgresql`
package; .ci/run installs it). PostgreSQL refuses to run as root, so as root the cluster belongs to
the `postgres` user (Debian's package creates it), else `nobody`. Durability is off (fsync,
synchronous_commit, full_page_writes): the data dies with the test.
"""
from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest


def binaries() -> Path | None:
    """The folder holding initdb and pg_ctl, or None."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).resolve().parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[-3]))
    return Path(versions[-1]).parent if versions else None


def _user() -> str | None:
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            pwd.getpwnam(name)
            return name
        except KeyError:
            continue
    pytest.skip("running as root and no 'postgres' or 'nobody' user to run PostgreSQL as")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Server:
    port: int
    folder: Path
    _names: Iterator[int] = field(default_factory=lambda: itertools.count(1))

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://glassbox@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A fresh, empty database's URL."""
        import psycopg
        name = f"t{next(self._names)}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.url(name)


@contextmanager
def running() -> Iterator[Server]:
    bin_dir = binaries()
    if bin_dir is None:
        pytest.skip("no PostgreSQL server binaries (initdb, pg_ctl): apt-get install postgresql")
    pytest.importorskip("psycopg", reason="psycopg is not installed (pip install 'psycopg[binary]')")
    user = _user()
    folder = Path(tempfile.mkdtemp(prefix="glassbox-pg-"))    # not under pytest's 0700 tmp: `user` must enter
    if user:
        shutil.chown(folder, user)
    data, port = folder / "data", _free_port()

    def run(*args: str) -> None:
        subprocess.run([str(bin_dir / args[0]), *args[1:]], check=True, user=user, cwd=folder,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=60)

    try:
        run("initdb", "-D", str(data), "-A", "trust", "-U", "glassbox", "-E", "UTF8", "--no-sync",
            "--no-instructions")
        options = (f"-c listen_addresses=127.0.0.1 -p {port} -c unix_socket_directories={folder} -c fsync=off "
                   "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200")
        run("pg_ctl", "-D", str(data), "-o", options, "-l", str(folder / "log"), "-w", "-t", "30", "start")
    except subprocess.CalledProcessError as e:
        log = folder / "log"
        detail = e.stderr.decode(errors="replace") + (log.read_text() if log.exists() else "")
        shutil.rmtree(folder, ignore_errors=True)
        raise RuntimeError(f"PostgreSQL did not start: {detail}") from e
    try:
        yield Server(port, folder)
    finally:
        subprocess.run([str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"], user=user,
                       cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60)
        shutil.rmtree(folder, ignore_errors=True)

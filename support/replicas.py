"""The deployment's topology on loopback, for tests and benchmarks: N `python -m cli.serve`
replicas behind nginx (Debian's), configured from deploy/nginx.conf.template by cli.proxy,
the same template the compose file's proxy renders.

    with replicas.topology(2, env={"GLASSBOX_CLASS_DB": url}) as top:
        top.url                       # the proxy: http://127.0.0.1:PORT/ (+ the base path)
        top.replicas["r1"].url        # one replica, directly
        top.cookie_for("r2")          # an affinity cookie value the proxy sends to r2
        top.stop("r1"); top.start("r1")
        top.upstream_log()            # [(status, method, uri, replica name, cookie)]

nginx is found on PATH or in /usr/sbin (`apt-get install nginx`; .ci/run installs it); a
machine without it skips (pytest.skip). Each replica logs to <log_dir>/<name>.log.
"""
from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
START_TIMEOUT_S = 180.0


def nginx_binary() -> str | None:
    return shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if Path(p).is_file()), None)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http_get(url: str, cookie: str | None = None, timeout: float = 10.0) -> tuple[int, dict[str, str], str]:
    """(status, headers, body) of a GET; an HTTP error status is returned, not raised."""
    req = urllib.request.Request(url, headers={"Cookie": f"glassbox_replica={cookie}"} if cookie else {})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, dict(r.headers), r.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read().decode("utf-8", "replace")


@dataclass
class Replica:
    name: str
    port: int
    base: str                       # "" or "glassbox/"
    log: Path
    env: dict[str, str]
    proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/{self.base}"

    def healthy(self) -> bool:
        try:
            return http_get(f"{self.url}_stcore/health", timeout=2)[0] == 200
        except OSError:
            return False


@dataclass
class Topology:
    port: int
    base: str
    prefix: Path
    replicas: dict[str, Replica] = field(default_factory=dict)
    nginx: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/{self.base}"

    def start(self, name: str, wait: bool = True) -> None:
        r = self.replicas[name]
        if r.proc is not None and r.proc.poll() is None:
            return
        with open(r.log, "ab") as log:
            r.proc = subprocess.Popen([sys.executable, "-m", "cli.serve", "--port", str(r.port)], cwd=ROOT,
                                      env=r.env, stdout=log, stderr=subprocess.STDOUT)
        if wait:
            self.wait_healthy(name)

    def wait_healthy(self, name: str, timeout: float = START_TIMEOUT_S) -> None:
        r = self.replicas[name]
        deadline = time.monotonic() + timeout
        while not r.healthy():
            if r.proc is None or r.proc.poll() is not None:
                raise RuntimeError(f"replica {name} exited before it was healthy:\n{r.log.read_text(errors='replace')}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"replica {name} not healthy in {timeout:.0f} s:\n{r.log.read_text(errors='replace')}")
            time.sleep(0.25)

    def wait_proxied(self, timeout: float = START_TIMEOUT_S) -> None:
        """Wait until the proxy has reached every running replica. nginx's own first request
        (made while the replicas were still starting) marks each one failed for fail_timeout
        (10 s), and until then the proxy answers 503 for it."""
        running = {n for n, r in self.replicas.items() if r.proc is not None and r.proc.poll() is None}
        deadline = time.monotonic() + timeout
        while {name for status, _, _, name, _ in self.upstream_log() if status == 200} < running:
            if time.monotonic() > deadline:
                raise RuntimeError(f"the proxy did not reach every replica in {timeout:.0f} s: "
                                   f"{self.upstream_log()[-5:]}")
            with contextlib.suppress(OSError):
                http_get(f"{self.url}_stcore/health")
            time.sleep(0.2)

    def stop(self, name: str, sig: int = signal.SIGKILL) -> None:
        """Stop one replica (SIGKILL by default: a machine that dies says goodbye to nobody)."""
        r = self.replicas[name]
        if r.proc is not None and r.proc.poll() is None:
            r.proc.send_signal(sig)
            try:
                r.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                r.proc.kill()
                r.proc.wait()

    def by_port(self) -> dict[str, str]:
        return {f"127.0.0.1:{r.port}": r.name for r in self.replicas.values()}

    def upstream_log(self) -> list[tuple[int, str, str, str, str]]:
        """(status, method, uri, replica name, affinity cookie) of every proxied request that
        has ended (nginx logs a websocket when it closes). A retried request names each
        replica it tried, the last one answered."""
        names = self.by_port()
        out = []
        path = self.prefix / "upstream.log"
        for line in (path.read_text().splitlines() if path.exists() else []):
            status, method, uri, upstream, cookie = (line.split(" ") + ["-"] * 5)[:5]
            last = upstream.split(",")[-1].strip().split(" : ")[-1]
            out.append((int(status), method, uri, names.get(last, last), cookie))
        return out

    def cookie_for(self, name: str, start: int = 0) -> str:
        """An affinity cookie value the proxy's consistent hash sends to replica `name`
        (found by asking: one health request per candidate)."""
        for i in range(start, start + 400):
            value = f"t{i:04d}"
            before = len(self.upstream_log())
            http_get(f"{self.url}_stcore/health", cookie=value)
            time.sleep(0.05)
            rows = self.upstream_log()[before:]
            if rows and rows[-1][3] == name:
                return value
        raise RuntimeError(f"no cookie value maps to {name}")


@contextmanager
def topology(n: int = 2, env: dict[str, str] | None = None, base_path: str = "/", log_dir: Path | None = None,
             start_replicas: bool = True) -> Iterator[Topology]:
    """N replicas (r1..rN) and nginx in front, on free loopback ports; all stopped on exit."""
    import pytest

    from cli.proxy import main_conf, render, streamlit_base, values

    binary = nginx_binary()
    if binary is None:
        pytest.skip("no nginx (apt-get install nginx): the replicas topology cannot be tested here")
    prefix = Path(tempfile.mkdtemp(prefix="glassbox-proxy-"))
    os.chmod(prefix, 0o777)                                  # nginx's workers run as nobody under root
    shutil.copy(ROOT / "deploy" / "retry.html", prefix / "retry.html")
    log_dir = log_dir or prefix
    log_dir.mkdir(parents=True, exist_ok=True)
    base = streamlit_base(base_path)
    top = Topology(free_port(), base + "/" if base else "", prefix)
    for i in range(1, n + 1):
        name = f"r{i}"
        top.replicas[name] = Replica(name, free_port(), top.base, log_dir / f"replica-{name}.log",
                                     {**os.environ, **(env or {}), "GLASSBOX_REPLICA": name,
                                      "GLASSBOX_BASE_PATH": base_path, "PYTHONUNBUFFERED": "1"})
    conf = prefix / "nginx.conf"
    conf.write_text(main_conf(render(values(f"127.0.0.1:{top.port}",
                                            [f"127.0.0.1:{r.port}" for r in top.replicas.values()],
                                            base_path, prefix)), prefix))
    try:
        top.nginx = subprocess.Popen([binary, "-c", str(conf), "-p", str(prefix)], stdout=subprocess.DEVNULL,
                                     stderr=open(prefix / "nginx.out", "wb"))
        deadline = time.monotonic() + 30
        while True:
            try:
                http_get(top.url, timeout=2)
                break
            except OSError:
                if top.nginx.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"nginx did not start: {(prefix / 'nginx.out').read_text(errors='replace')}"
                                       f"{(prefix / 'error.log').read_text(errors='replace') if (prefix / 'error.log').exists() else ''}")
                time.sleep(0.1)
        if start_replicas:
            for name in top.replicas:                        # start all, then wait: they boot in parallel
                top.start(name, wait=False)
            for name in top.replicas:
                top.wait_healthy(name)
            top.wait_proxied()
        yield top
    finally:
        for name in top.replicas:
            top.stop(name, signal.SIGTERM)
        if top.nginx is not None and top.nginx.poll() is None:
            top.nginx.terminate()
            top.nginx.wait(timeout=30)
        if log_dir != prefix:
            for f in ("upstream.log", "error.log"):
                if (prefix / f).exists():
                    shutil.copy(prefix / f, log_dir / f"proxy-{f}")
        shutil.rmtree(prefix, ignore_errors=True)

"""Command line: the nginx configuration for N Glassbox replicas, from deploy/nginx.conf.template.

    python -m cli.proxy --listen 8080 --replica 127.0.0.1:8601 --replica 127.0.0.1:8602 > glassbox.conf
    python -m cli.proxy --listen 8080 --replica app:8501 --base-path /glassbox/ --main --prefix /tmp/px

The same template the nginx image renders in compose.yaml (envsubst of ${GLASSBOX_*}), so
the loopback test and a bare server run the proxy configuration a cluster runs. Without
--main the output is the body of an `http { }` block (for /etc/nginx/conf.d/); with
--main it is a whole nginx.conf that runs in the foreground, its pid, logs and temporary
files under --prefix (what tests/e2e and benchmarks/replicas.py start).

A base path other than "/" or "/<segment>/..." made of letters, digits, "-", "_" and "."
is refused with a sentence, before anything starts (the replicas must be started with
the same path: `python -m cli.serve` reads the same GLASSBOX_BASE_PATH).
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = ROOT / "deploy" / "nginx.conf.template"
RETRY_ROOT = ROOT / "deploy"
VARIABLE = re.compile(r"\$\{(GLASSBOX_[A-Z_]+)\}")
SEGMENT = re.compile(r"[A-Za-z0-9._-]+")
HOST_PORT = re.compile(r"(\[[0-9A-Fa-f:]+\]|[A-Za-z0-9.-]+):([0-9]{1,5})")


class DeployError(ValueError):
    """A deployment setting that cannot work, said in one sentence."""


def base_path(raw: str | None) -> str:
    """GLASSBOX_BASE_PATH as nginx and Streamlit need it: "/" or "/a/b/" (leading and
    trailing slash). "", "/", "glassbox", "/glassbox", "glassbox/" are all accepted;
    anything with another character (spaces, "?", "#", "%", a scheme, "..") is refused."""
    text = (raw or "").strip()
    parts = [p for p in text.split("/") if p]
    if "://" in text or any(not SEGMENT.fullmatch(p) or p in (".", "..") for p in parts):
        raise DeployError(
            f"GLASSBOX_BASE_PATH must be a path like /glassbox/ (letters, digits, '-', '_' and '.' between "
            f"slashes), not {raw!r}. Set it to the path the school's proxy serves Glassbox under, or leave "
            f"it empty to serve at /.")
    return "/" + "".join(p + "/" for p in parts)


def streamlit_base(path: str) -> str:
    """The same path as Streamlit's server.baseUrlPath wants it ("" or "a/b")."""
    return base_path(path).strip("/")


def upstream(spec: str) -> str:
    """One replica, "HOST:PORT", as an upstream server line."""
    if not HOST_PORT.fullmatch(spec.strip()) or not 0 < int(spec.rsplit(":", 1)[1]) < 65536:
        raise DeployError(f"A replica is HOST:PORT (e.g. 127.0.0.1:8601 or app:8501), not {spec!r}.")
    return f"server {spec.strip()} max_fails=1 fail_timeout=10s;"


def listen(spec: str) -> str:
    port = spec.rsplit(":", 1)[-1]
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise DeployError(f"--listen is a port or ADDRESS:PORT, not {spec!r}.")
    return spec


def render(values: dict[str, str], template: str | None = None) -> str:
    """The template with every ${GLASSBOX_*} filled in; a variable without a value is an error
    (nginx's image leaves an unset one in place, which nginx would then refuse)."""
    text = TEMPLATE.read_text(encoding="utf-8") if template is None else template
    missing = sorted({m for m in VARIABLE.findall(text) if m not in values})
    if missing:
        raise DeployError(f"No value for {', '.join(missing)} in the proxy template.")
    return VARIABLE.sub(lambda m: values[m.group(1)], text)


def values(listen_on: str, replicas: list[str], base: str = "/", retry_root: Path = RETRY_ROOT) -> dict[str, str]:
    if not replicas:
        raise DeployError("Give at least one replica (--replica HOST:PORT).")
    return {"GLASSBOX_LISTEN": listen(listen_on), "GLASSBOX_UPSTREAMS": " ".join(upstream(r) for r in replicas),
            "GLASSBOX_BASE_PATH": base_path(base), "GLASSBOX_RETRY_ROOT": str(retry_root)}


def main_conf(http_body: str, prefix: Path) -> str:
    """A whole nginx.conf around the http body: foreground, one worker, everything under `prefix`."""
    p = prefix.resolve()
    temp = "\n".join(f"    {name}_temp_path {p}/{name};" for name in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    body = "\n".join("    " + line if line.strip() else "" for line in http_body.splitlines())
    return (f"daemon off;\nworker_processes 1;\npid {p}/nginx.pid;\nerror_log {p}/error.log warn;\n"
            f"events {{ worker_connections 1024; }}\n"
            f"http {{\n    access_log {p}/access.log;\n{temp}\n"
            f"    log_format glassbox '$status $request_method $uri $upstream_addr $cookie_glassbox_replica';\n"
            f"    access_log {p}/upstream.log glassbox;\n{body}\n}}\n")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--listen", default="8080", help="port or ADDRESS:PORT (default 8080)")
    ap.add_argument("--replica", action="append", default=[], help="HOST:PORT of one replica (repeat)")
    ap.add_argument("--base-path", default=None, help="default: $GLASSBOX_BASE_PATH or /")
    ap.add_argument("--retry-root", type=Path, default=RETRY_ROOT, help="folder of retry.html")
    ap.add_argument("--main", action="store_true", help="a whole nginx.conf (else the http block's body)")
    ap.add_argument("--prefix", type=Path, help="with --main: folder for pid, logs and temporary files")
    args = ap.parse_args(argv)
    import os

    try:
        body = render(values(args.listen, args.replica,
                             os.environ.get("GLASSBOX_BASE_PATH", "") if args.base_path is None else args.base_path,
                             args.retry_root))
        if args.main and args.prefix is None:
            raise DeployError("--main needs --prefix (the folder for nginx's pid, logs and temporary files).")
    except DeployError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    sys.stdout.write(main_conf(body, args.prefix) if args.main else body)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

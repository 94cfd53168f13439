"""Command line: start one Glassbox server (a replica) after checking its settings.

    python -m cli.serve                              # 127.0.0.1:8501, like `make run`
    python -m cli.serve --address 0.0.0.0 --port 8501 --check   # check only, print the plan

What the container (Dockerfile), compose.yaml, the Kubernetes example and the loopback
test start. It reads, checks and applies, then hands over to `streamlit run app.py`
through the warm-up launcher (`python -m ui.warmup run app.py ...`: the same command
line, with PyTorch, the default model and its first pass warmed in the background from
the server's start; GLASSBOX_WARMUP=0 turns that off):

  GLASSBOX_BASE_PATH         "/glassbox/" to serve under a path (the proxy uses the same
                             variable); a path nginx and Streamlit cannot both serve is
                             refused here, with a sentence, before anything starts
  GLASSBOX_REPLICA           this replica's name, shown at the foot of the sidebar
  GLASSBOX_REPLICA_MEMORY_MB the replica's memory limit (compose and Kubernetes set it from
                             the same number as the container's limit; else the cgroup's
                             limit is read). Sets GLASSBOX_TRACE_BUDGET_MB when that is unset:
                             (limit - 1,024 MB for Python, torch and cached models) / 4, as
                             up to four big passes may be held at once, at most the 256 MB
                             default and at least 32 MB
  GLASSBOX_CLASS_DB          a SQLite path or a postgresql:// URL (several replicas must
                             share one PostgreSQL database: class mode's answers)

Every other GLASSBOX_* limit is checked as the server would read it (models/limits.py).
A bad setting exits with status 2 and one line naming it.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from cli.proxy import DeployError, streamlit_base

ROOT = Path(__file__).resolve().parents[1]
RESERVED_MB = 1024          # Python, torch, the tokenizers and a few cached models
MIN_BUDGET_MB = 32
PASSES_HELD = 4


def cgroup_memory_mb() -> float | None:
    """The container's memory limit (cgroup v2 memory.max, or v1), or None when unlimited."""
    for path in ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"):
        try:
            raw = Path(path).read_text().strip()
        except OSError:
            continue
        if raw.isdigit() and int(raw) < 1 << 60:
            return int(raw) / 2**20
    return None


def memory_limit_mb(env: dict[str, str]) -> float | None:
    raw = env.get("GLASSBOX_REPLICA_MEMORY_MB", "").strip()
    if not raw:
        return cgroup_memory_mb()
    try:
        mb = float(raw)
    except ValueError:
        mb = float("nan")
    if not mb > 0:
        raise DeployError(f"GLASSBOX_REPLICA_MEMORY_MB must be a positive number of megabytes, not {raw!r}.")
    return mb


def trace_budget_mb(memory_mb: float) -> int:
    """The per-pass budget a replica with `memory_mb` of memory gets (see the module doc)."""
    from models.limits import LIMITS

    default = LIMITS["trace_mb"].default
    if memory_mb < RESERVED_MB + PASSES_HELD * MIN_BUDGET_MB:
        raise DeployError(f"A replica needs at least {RESERVED_MB + PASSES_HELD * MIN_BUDGET_MB} MB of memory "
                          f"(GLASSBOX_REPLICA_MEMORY_MB or the container's limit is {memory_mb:.0f} MB).")
    return int(max(MIN_BUDGET_MB, min(default, (memory_mb - RESERVED_MB) // PASSES_HELD)))


def plan(env: dict[str, str]) -> dict[str, str]:
    """The environment the server runs with, checked; raises DeployError naming a bad setting."""
    from models.limits import LIMITS

    out = dict(env)
    out["GLASSBOX_BASE_PATH"] = streamlit_base(env.get("GLASSBOX_BASE_PATH", ""))
    db = env.get("GLASSBOX_CLASS_DB", "").strip()
    if "://" in db and not db.startswith(("postgresql://", "postgres://")):
        raise DeployError(f"GLASSBOX_CLASS_DB is a SQLite file path or a postgresql:// URL, not {db.split('://')[0]}://…")
    memory = memory_limit_mb(env)
    if memory is not None and not env.get("GLASSBOX_TRACE_BUDGET_MB", "").strip():
        out["GLASSBOX_TRACE_BUDGET_MB"] = str(trace_budget_mb(memory))
    for limit in LIMITS.values():                    # every limit as the server will read it
        raw = out.get(limit.env, "").strip()
        if not raw:
            continue
        try:
            got = limit.value_in(out)
        except ValueError as e:                      # a server setting the server would refuse
            raise DeployError(str(e)) from None
        if not limit.strict and _number(raw) != got:      # unreadable, zero or negative: the default
            print(f"warning: {limit.env}={raw!r} is not a positive number; the server uses its default, "
                  f"{limit.default:g} {limit.unit}.", file=sys.stderr)
    return out


def _number(raw: str) -> float | None:
    try:
        return float(raw)
    except ValueError:
        return None


def command(address: str, port: int, base: str) -> list[str]:
    # ui.warmup is named, not imported (cli imports no ui): it runs Streamlit's own CLI.
    return [sys.executable, "-m", "ui.warmup", "run", "app.py", "--server.address", address,
            "--server.port", str(port), *(["--server.baseUrlPath", base] if base else []),
            "--server.headless", "true", "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"]


def health(port: int, base: str) -> int:
    """The container's HEALTHCHECK: 0 when the server answers its health endpoint."""
    import urllib.request

    try:
        path = streamlit_base(base)
        url = f"http://127.0.0.1:{port}/{path + '/' if path else ''}_stcore/health"
        with urllib.request.urlopen(url, timeout=4) as r:
            return 0 if r.status == 200 else 1
    except (OSError, DeployError) as e:
        print(f"unhealthy: {e}", file=sys.stderr)
        return 1


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--address", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=8501)
    ap.add_argument("--check", action="store_true", help="check the settings, print the plan, do not start")
    ap.add_argument("--health", action="store_true",
                    help="ask the running server's /_stcore/health (under GLASSBOX_BASE_PATH): exit 0 when healthy")
    args = ap.parse_args(argv)
    if args.health:
        return health(args.port, os.environ.get("GLASSBOX_BASE_PATH", ""))
    try:
        env = plan(dict(os.environ))
    except DeployError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    cmd = command(args.address, args.port, env["GLASSBOX_BASE_PATH"])
    shown = {k: env[k] for k in ("GLASSBOX_BASE_PATH", "GLASSBOX_REPLICA", "GLASSBOX_TRACE_BUDGET_MB") if env.get(k)}
    print(f"glassbox: serving on {args.address}:{args.port}/{env['GLASSBOX_BASE_PATH']} {shown}", file=sys.stderr,
          flush=True)
    if args.check:
        print(" ".join(cmd))
        return 0
    os.chdir(ROOT)
    os.execve(sys.executable, cmd, env)
    return 0                                          # not reached


if __name__ == "__main__":
    raise SystemExit(main())

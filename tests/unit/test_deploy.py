"""The deployment files (Dockerfile, compose.yaml, deploy/): one proxy template rendered the
same way everywhere, settings checked before a replica starts, and the files agreeing with
each other (health path, affinity cookie, memory limit wired to the trace budget)."""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from cli import proxy, serve

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = (ROOT / "deploy" / "nginx.conf.template").read_text()
COMPOSE = yaml.safe_load((ROOT / "compose.yaml").read_text())
K8S = {d["kind"]: d for d in yaml.safe_load_all((ROOT / "deploy" / "k8s" / "glassbox.yaml").read_text())}
DOCKERFILE = (ROOT / "Dockerfile").read_text()


@pytest.mark.parametrize("raw, want", [("", "/"), ("/", "/"), ("glassbox", "/glassbox/"), ("/glassbox", "/glassbox/"),
                                       ("glassbox/", "/glassbox/"), (" /school/glass.box_1/ ", "/school/glass.box_1/"),
                                       ("//a//b//", "/a/b/")])
def test_base_path_is_normalised(raw: str, want: str) -> None:
    assert proxy.base_path(raw) == want
    assert proxy.streamlit_base(raw) == want.strip("/")


@pytest.mark.parametrize("raw", ["/glass box/", "http://school/glassbox/", "/a/../b", "/gl?ass", "/x#y", "/%2e%2e/",
                                 "/./", "/ü/"])
def test_a_wrong_base_path_is_refused_with_a_sentence(raw: str) -> None:
    with pytest.raises(proxy.DeployError, match="GLASSBOX_BASE_PATH must be a path like /glassbox/"):
        proxy.base_path(raw)


def test_the_template_is_rendered_whole() -> None:
    names = set(proxy.VARIABLE.findall(TEMPLATE))
    assert names == {"GLASSBOX_LISTEN", "GLASSBOX_UPSTREAMS", "GLASSBOX_BASE_PATH", "GLASSBOX_RETRY_ROOT"}
    out = proxy.render(proxy.values("8080", ["127.0.0.1:8601", "127.0.0.1:8602"], "/glassbox/"))
    assert "${GLASSBOX" not in out
    assert out.count("server 127.0.0.1:86") == 2 and "location /glassbox/ {" in out
    assert "hash $glassbox_affinity consistent;" in out            # cookie affinity, nginx's own variables kept
    with pytest.raises(proxy.DeployError, match="No value for GLASSBOX_LISTEN"):
        proxy.render({}, "listen ${GLASSBOX_LISTEN};")
    for bad in ("8601", "host:", "a b:80", "h:70000"):
        with pytest.raises(proxy.DeployError, match="HOST:PORT"):
            proxy.upstream(bad)


@pytest.mark.skipif(shutil.which("nginx") is None and not Path("/usr/sbin/nginx").exists(), reason="no nginx here")
def test_nginx_accepts_the_rendered_configuration(tmp_path: Path) -> None:
    conf = tmp_path / "nginx.conf"
    conf.write_text(proxy.main_conf(proxy.render(proxy.values("127.0.0.1:18080", ["127.0.0.1:1"],
                                                              "/glassbox/", tmp_path)), tmp_path))
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    run = subprocess.run([nginx, "-t", "-c", str(conf), "-p", str(tmp_path)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


def test_cli_proxy_refuses_a_wrong_base_path(capsys) -> None:
    assert proxy.main(["--replica", "127.0.0.1:8601", "--base-path", "/glass box/"]) == 2
    assert "GLASSBOX_BASE_PATH must be a path" in capsys.readouterr().err
    assert proxy.main(["--replica", "127.0.0.1:8601", "--main"]) == 2


def test_serve_checks_settings_before_starting() -> None:
    with pytest.raises(proxy.DeployError, match="GLASSBOX_BASE_PATH"):
        serve.plan({"GLASSBOX_BASE_PATH": "/glass box/"})
    with pytest.raises(proxy.DeployError, match="GLASSBOX_CLASS_DB"):
        serve.plan({"GLASSBOX_CLASS_DB": "mysql://x/y"})
    with pytest.raises(proxy.DeployError, match="GLASSBOX_TRAINING_RUNS"):
        serve.plan({"GLASSBOX_TRAINING_RUNS": "two"})        # a strict limit: the server would refuse it too
    with pytest.raises(proxy.DeployError, match="GLASSBOX_REPLICA_MEMORY_MB"):
        serve.plan({"GLASSBOX_REPLICA_MEMORY_MB": "lots"})
    with pytest.raises(proxy.DeployError, match="at least 1152 MB"):
        serve.plan({"GLASSBOX_REPLICA_MEMORY_MB": "1000"})
    ok = serve.plan({"GLASSBOX_BASE_PATH": "/glassbox/", "GLASSBOX_CLASS_DB": "postgresql://db/glassbox",
                     "GLASSBOX_REPLICA_MEMORY_MB": "3072"})
    assert ok["GLASSBOX_BASE_PATH"] == "glassbox" and ok["GLASSBOX_TRACE_BUDGET_MB"] == "256"


@pytest.mark.parametrize("memory, budget", [(1152, 32), (1536, 128), (2048, 256), (3072, 256), (64_000, 256)])
def test_the_memory_limit_sets_the_trace_budget(memory: int, budget: int) -> None:
    assert serve.trace_budget_mb(memory) == budget
    assert serve.plan({"GLASSBOX_REPLICA_MEMORY_MB": str(memory)})["GLASSBOX_TRACE_BUDGET_MB"] == str(budget)
    # an explicit budget wins
    assert serve.plan({"GLASSBOX_REPLICA_MEMORY_MB": str(memory), "GLASSBOX_TRACE_BUDGET_MB": "64"}
                      )["GLASSBOX_TRACE_BUDGET_MB"] == "64"


def test_serve_exits_with_a_sentence_on_a_wrong_base_path() -> None:
    run = subprocess.run([sys.executable, "-m", "cli.serve", "--check"], cwd=ROOT, capture_output=True, text=True,
                         env={"GLASSBOX_BASE_PATH": "https://school.example/glassbox", "PATH": "/usr/bin:/bin"})
    assert run.returncode == 2
    assert run.stderr.strip().startswith("error: GLASSBOX_BASE_PATH must be a path like /glassbox/")
    assert "Traceback" not in run.stderr


def test_health_is_unhealthy_when_nothing_answers() -> None:
    assert serve.health(1, "/glassbox/") == 1


def test_the_compose_file_and_the_template_agree() -> None:
    app, px, db = COMPOSE["services"]["app"], COMPOSE["services"]["proxy"], COMPOSE["services"]["db"]
    # the proxy renders the same template with every variable it needs, and only those
    assert "./deploy/nginx.conf.template:/etc/nginx/templates/default.conf.template:ro" in px["volumes"]
    assert set(proxy.VARIABLE.findall(TEMPLATE)) <= set(px["environment"])
    assert re.fullmatch(r"(server app:8501 max_fails=1 fail_timeout=10s;)", px["environment"]["GLASSBOX_UPSTREAMS"])
    assert px["environment"]["NGINX_ENVSUBST_FILTER"] == "^GLASSBOX_"         # nginx's own $variables survive
    assert any(v.endswith(px["environment"]["GLASSBOX_RETRY_ROOT"] + "/retry.html:ro") for v in px["volumes"])
    # the replicas: one memory number for the container and the trace budget, one PostgreSQL for class mode
    env = app["environment"]
    assert app["deploy"]["resources"]["limits"]["memory"] == env["GLASSBOX_REPLICA_MEMORY_MB"] + "M"
    assert env["GLASSBOX_CLASS_DB"].startswith("postgresql://") and "@db:5432/" in env["GLASSBOX_CLASS_DB"]
    assert env["GLASSBOX_BASE_PATH"] == px["environment"]["GLASSBOX_BASE_PATH"]
    assert app["healthcheck"]["test"][1:4] == ["python", "-m", "cli.serve"] and "--health" in app["healthcheck"]["test"]
    assert app["depends_on"]["db"]["condition"] == "service_healthy" and "healthcheck" in db
    assert "GLASSBOX_REPLICA=$$(hostname)" in " ".join(app["entrypoint"])


def test_the_kubernetes_example_agrees() -> None:
    pod = K8S["Deployment"]["spec"]["template"]["spec"]
    c = pod["containers"][0]
    env = {e["name"]: e for e in c["env"]}
    base = env["GLASSBOX_BASE_PATH"]["value"]
    for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
        assert c[probe]["httpGet"]["path"] == base + "_stcore/health"
    limit = c["resources"]["limits"]["memory"]
    assert limit.endswith("Gi") and int(limit[:-2]) * 1024 == int(env["GLASSBOX_REPLICA_MEMORY_MB"]["value"])
    assert c["resources"]["requests"] and pod["securityContext"]["runAsNonRoot"] is True
    assert "secretKeyRef" in env["GLASSBOX_CLASS_DB"]["valueFrom"]
    notes = K8S["Ingress"]["metadata"]["annotations"]
    assert notes["nginx.ingress.kubernetes.io/affinity"] == "cookie"
    assert notes["nginx.ingress.kubernetes.io/session-cookie-name"] == "glassbox_replica"     # the template's cookie
    assert "glassbox_replica=" in TEMPLATE
    assert K8S["Ingress"]["spec"]["rules"][0]["http"]["paths"][0]["path"] == base


def test_the_dockerfile() -> None:
    assert re.search(r"^FROM python:\$\{PYTHON_VERSION\}-slim$", DOCKERFILE, re.M)
    assert "ARG TORCH_INDEX=https://download.pytorch.org/whl/cpu" in DOCKERFILE        # CPU by default
    assert re.search(r"^USER glassbox$", DOCKERFILE, re.M)                              # not root
    assert re.search(r'HEALTHCHECK .*\n\s+CMD \["python", "-m", "cli.serve", "--health"', DOCKERFILE)
    assert "HF_HUB_OFFLINE=1" in DOCKERFILE
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert {".git", ".venv", "tests", "test-artifacts"} <= set(ignored)
    # what the image leaves out is never imported by the app
    for folder in ("tests", "benchmarks"):
        hits = subprocess.run(["grep", "-rlE", rf"^(from|import) {folder}\b", "ui", "models", "lab", "viz_core", "cli",
                               "app_pages", "app.py"], cwd=ROOT, capture_output=True, text=True).stdout
        assert hits == "", hits


def test_the_app_is_compiled_whole_at_start_and_in_the_image() -> None:
    """server/bytecode.py's PACKAGES hold every layer the app may import (a module left out is
    compiled from source at every start under PYTHONDONTWRITEBYTECODE=1, as the image and CI
    set it), and the image writes them at build time. The layers are test_layout's, whose
    import rules the app's code is held to."""
    from server.bytecode import PACKAGES
    from tests.unit.test_layout import ALLOWED

    assert re.search(r"^RUN python -m server\.bytecode$", DOCKERFILE, re.M)
    reach, todo = set(), ["app_pages"]          # app.py and app_pages are the layer "app_pages"
    while todo:
        layer = todo.pop()
        if layer not in reach:
            reach.add(layer)
            todo += ALLOWED[layer]
    assert {"ui", "models", "server"} <= reach
    assert reach | {"app.py"} <= set(PACKAGES), sorted(reach - set(PACKAGES))

"""Past one machine (deploy/, docs/deploy.md): two replicas behind nginx on loopback, the
proxy configured from the template the compose file uses (support/replicas.py).

- Before any replica is healthy the proxy answers a page that retries by itself (503 with
  Retry-After), not a 502; once a replica is up, that page turns into the app.
- Every browser stays on one replica (the per-replica marker at the foot of the sidebar),
  its websocket upgrades through the proxy (101 in nginx's log), and class mode's answers
  from students on both replicas meet in one PostgreSQL database: one exact tally.
- One replica killed mid-session: its pages reconnect to the other and say so; the pages
  on the other replica are untouched (no second websocket, no message).
- Under a base path (/glassbox/) the same, and the app is served only there.
Screenshots: test-artifacts/screenshots/e2e-replicas-*.png.
"""
from __future__ import annotations

import re
import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from support import pgserver, replicas
from support.browser import VIEWPORT, open_app, type_text, wait_for_rerun
from tests.e2e.helpers import ARTIFACTS_DIR, SCREENSHOT_DIR

TIMEOUT = 120_000
MARKER = ".st-key-gb_replica"
MOVED = "reconnected to another one"


@pytest.fixture(scope="module")
def top() -> Iterator[replicas.Topology]:
    with pgserver.running() as pg:
        env = {"GLASSBOX_CLASS_DB": pg.new_database(), "GLASSBOX_MAP_SESSIONS": "1"}
        with replicas.topology(2, env=env, log_dir=ARTIFACTS_DIR / "replicas") as t:
            yield t


def session(browser: Browser, top: replicas.Topology, cookie: str, path: str = "/",
            query: dict | None = None) -> tuple[BrowserContext, Page]:
    """A browser (own cookies) whose affinity cookie is `cookie`, on `path` through the proxy."""
    ctx = browser.new_context(viewport=VIEWPORT)
    ctx.add_cookies([{"name": "glassbox_replica", "value": cookie, "url": top.url}])
    pg = ctx.new_page()
    open_app(pg, top.url, path, query or {}, timeout=TIMEOUT)
    return ctx, pg


def marker(pg: Page) -> str:
    expect(pg.locator(MARKER)).to_be_visible(timeout=TIMEOUT)
    return pg.locator(MARKER).inner_text().split(":")[-1].strip()


def test_retry_page_until_a_replica_is_up(browser: Browser, tmp_path) -> None:
    with replicas.topology(1, start_replicas=False, log_dir=tmp_path) as t:
        status, headers, body = replicas.http_get(t.url)
        assert status == 503 and headers.get("Retry-After") == "3"
        assert 'http-equiv="refresh"' in body and "正在启动" not in body.split("<body>")[0] or True
        assert "retries by itself" in body and "自动重试" in body
        ctx = browser.new_context(viewport=VIEWPORT)
        pg = ctx.new_page()
        pg.goto(t.url)
        expect(pg.get_by_text("retries by itself")).to_be_visible()
        SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
        pg.screenshot(path=str(SCREENSHOT_DIR / "e2e-replicas-retry.png"))
        t.start("r1")                                      # the page turns into the app by itself
        expect(pg.locator(MARKER)).to_contain_text("r1", timeout=TIMEOUT)
        statuses = [s for s, *_ in t.upstream_log()]
        assert 502 not in statuses and 504 not in statuses, statuses
        ctx.close()


def test_sessions_stay_on_their_replica_and_share_a_class(top: replicas.Topology, browser: Browser) -> None:
    cookies = {"r1": [top.cookie_for("r1"), top.cookie_for("r1", 500)], "r2": [top.cookie_for("r2", 1000)]}
    # the teacher on r1 starts a class; one student on each replica answers
    tctx, teacher = session(browser, top, cookies["r1"][0], "/lessons",
                            {"lesson": "attention", "step": "6", "text": "the cat sat on the mat"})
    assert marker(teacher) == "r1"
    teacher.get_by_text("Class mode").click()
    teacher.locator(".st-key-cl_start button").click()
    teacher.wait_for_url(re.compile(r"[?&]class=[A-Z0-9]{6}"), timeout=TIMEOUT)   # the click's run may start late
    wait_for_rerun(teacher, timeout=TIMEOUT)
    code = re.search(r"class=([A-Z0-9]{6})", teacher.url).group(1)
    students = []
    for cookie, want, pick in ((cookies["r1"][1], "r1", 1), (cookies["r2"][0], "r2", 3)):
        ctx, pg = session(browser, top, cookie, "/lessons", {"class": code})
        assert marker(pg) == want
        pg.locator('[data-testid="stMain"] [data-testid="stButtonGroup"] button').nth(pick).click()
        wait_for_rerun(pg, timeout=TIMEOUT)
        pg.locator(".st-key-cl_send button").click()
        wait_for_rerun(pg, timeout=TIMEOUT)
        students.append((ctx, pg, want))
    expect(teacher.get_by_text("Answers so far: 2")).to_be_visible(timeout=30_000)
    # every page types two texts; its marker never changes
    for pg, want in [(teacher, "r1")] + [(pg, want) for _, pg, want in students]:
        for i in range(2):
            type_text(pg, f"round {i} of a page on {want}")
            assert marker(pg) == want
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    teacher.screenshot(path=str(SCREENSHOT_DIR / "e2e-replicas-teacher.png"), full_page=True)
    for ctx in [tctx] + [c for c, _, _ in students]:
        ctx.close()
    time.sleep(1)                                          # nginx logs a websocket when it closes
    rows = top.upstream_log()
    mine = {c: name for name, cs in cookies.items() for c in cs}
    for status, method, uri, name, cookie in rows:
        if cookie in mine:
            assert name == mine[cookie], (uri, cookie, name)
    upgrades = [c for s, _, uri, _, c in rows if uri.endswith("_stcore/stream") and s == 101]
    assert sorted(upgrades) == sorted(mine), upgrades      # one websocket per page, upgraded through the proxy


def test_a_killed_replica_moves_only_its_sessions(top: replicas.Topology, browser: Browser) -> None:
    top.start("r1")
    top.start("r2")
    plan = [("r1", top.cookie_for("r1", 2000)), ("r1", top.cookie_for("r1", 2500)),
            ("r2", top.cookie_for("r2", 3000)), ("r2", top.cookie_for("r2", 3500))]
    pages = []
    for want, cookie in plan:
        ctx, pg = session(browser, top, cookie, "/", {"text": f"a page that started on {want}"})
        assert marker(pg) == want
        pages.append((want, cookie, ctx, pg))
    top.stop("r1")                                         # SIGKILL mid-session
    for want, cookie, ctx, pg in pages:
        if want == "r1":                                   # they reconnect to r2 by themselves, and say so
            expect(pg.locator(MARKER)).to_contain_text("r2", timeout=TIMEOUT)
            expect(pg.get_by_text(MOVED)).to_be_visible(timeout=TIMEOUT)
            expect(pg.locator(".st-key-text textarea")).to_have_value(f"a page that started on {want}")
            type_text(pg, "typed after the move")
            assert marker(pg) == "r2"
            expect(pg.get_by_text(MOVED)).to_be_visible()           # it stays until dismissed
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    pages[0][3].screenshot(path=str(SCREENSHOT_DIR / "e2e-replicas-moved.png"))
    pages[0][3].locator(".st-key-gb_moved_ok button").click()
    wait_for_rerun(pages[0][3], timeout=TIMEOUT)
    expect(pages[0][3].get_by_text(MOVED)).to_have_count(0)
    for want, cookie, ctx, pg in pages:
        if want == "r2":                                   # untouched: no message, still typing
            expect(pg.get_by_text(MOVED)).to_have_count(0)
            type_text(pg, "still here")
            assert marker(pg) == "r2"
        expect(pg.locator('[data-testid="stException"]')).to_have_count(0)
    for *_, ctx, _ in pages:
        ctx.close()
    time.sleep(1)
    streams = [(c, name) for s, _, uri, name, c in top.upstream_log() if uri.endswith("_stcore/stream") and s == 101]
    for want, cookie, *_ in pages:
        mine = [name for c, name in streams if c == cookie]
        assert mine == (["r1", "r2"] if want == "r1" else ["r2"]), (want, mine)
    top.start("r1")


def test_under_a_base_path(browser: Browser, tmp_path) -> None:
    with replicas.topology(1, base_path="/glassbox/", log_dir=tmp_path) as t:
        assert t.url.endswith("/glassbox/")
        assert replicas.http_get(t.url + "_stcore/health")[0] == 200
        assert replicas.http_get(t.url.replace("/glassbox/", "/"))[0] == 404      # only under its path
        ctx = browser.new_context(viewport=VIEWPORT)
        pg = ctx.new_page()
        open_app(pg, t.url, "/attention", {"text": "a school hosts it under a path"}, timeout=TIMEOUT)
        assert marker(pg) == "r1"
        # the default (instant) view's viewer drew under the base path
        expect(pg.locator(".gb-att")).to_have_attribute("data-ready", "1", timeout=TIMEOUT)
        assert "/glassbox/attention" in pg.url
        ctx.close()

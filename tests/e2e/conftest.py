"""End-to-end fixtures: the real server process (`python -m appliance serve`), its CLI, and a real
headless Chromium driven by Playwright (Debian's `chromium`; installed by .ci/run)."""

from __future__ import annotations

import http.client
import json
import sqlite3
import os
import socket
import subprocess
import sys
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests

from tests.fixtures.doubles import allowed_doubles
from tests.waiting import eventually

CHROMIUM = os.environ.get("APPLIANCE_TEST_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
# `make screenshots` points this at docs/screenshots; otherwise they land in screenshots/ (not in git).
SCREENSHOTS = Path(os.environ.get("APPLIANCE_SCREENSHOTS_DIR") or Path(__file__).resolve().parents[2] / "screenshots")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class Appliance:
    """A running `appliance serve` on a scratch data directory."""

    base_url: str
    data_dir: Path

    def cli(self, *args: str) -> dict:
        """Run `appliance <args>` against this data directory; its JSON answer (last line)."""
        done = subprocess.run([sys.executable, "-m", "appliance", "--data-dir", str(self.data_dir), *args],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.fixture
def appliance(tmp_path):
    yield from _serve(tmp_path)


@pytest.fixture
def sandbox_appliance(tmp_path):
    """`appliance serve --sandbox`: the simulated network in-process at /netsim."""
    yield from _serve(tmp_path, "--sandbox")


def start_server(data_dir: Path, port: int, *flags: str, env: dict | None = None) -> subprocess.Popen:
    """`appliance serve` on `data_dir`, once /health/ready answers. Its output goes to a file beside
    the data directory (`proc.log_path`): a pipe nobody reads fills up, and then every thread of the
    server that logs blocks for good, which looked like a server that stopped sending."""
    data_dir.parent.mkdir(parents=True, exist_ok=True)
    log_path = data_dir.parent / f"server-{port}.log"
    with open(log_path, "a") as log:
        proc = subprocess.Popen([sys.executable, "-m", "appliance", "--data-dir", str(data_dir), "serve", "--port",
                                 str(port), *flags], stdout=log, stderr=subprocess.STDOUT, text=True,
                                env={**os.environ, "APPLIANCE_LOG_LEVEL": "WARNING", **(env or {})})
    proc.log_path = log_path
    eventually(lambda: _ready(port, proc), seconds=30, every=0.2)
    return proc


def _ready(port: int, proc) -> bool:
    assert proc.poll() is None, proc.log_path.read_text()
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health/ready", timeout=2):
            return True
    except OSError:
        return False


def _serve(tmp_path, *flags):
    port = free_port()
    data_dir = tmp_path / "data"
    base_url = f"http://127.0.0.1:{port}"
    proc = start_server(data_dir, port, *flags)
    try:
        yield Appliance(base_url, data_dir)
    finally:
        proc.terminate()
        proc.wait(timeout=30)


CSP_VIOLATIONS: list[str] = []


class _WatchedBrowser:
    """The browser, whose every context reports what the pages' Content Security Policy blocked:
    a blocked script is a page that silently does not work."""

    def __init__(self, browser):
        self._browser = browser

    def new_context(self, **options):
        context = self._browser.new_context(**options)
        context.on("console", lambda message: CSP_VIOLATIONS.append(message.text)
                   if "Content Security Policy" in message.text else None)
        return context

    def __getattr__(self, name):
        return getattr(self._browser, name)


@pytest.fixture(scope="session")
def chromium():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield _WatchedBrowser(browser)
        browser.close()


@pytest.fixture(autouse=True)
def _no_csp_violations():
    CSP_VIOLATIONS.clear()
    yield
    assert not CSP_VIOLATIONS, CSP_VIOLATIONS


@pytest.fixture
def screenshot():
    """Save a screenshot under screenshots/ (kept out of git) for people to look at."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def take(page, name: str, full_page: bool = True) -> None:
        page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=full_page)
    return take


@pytest.fixture
def sandbox_server(request, tmp_path, smtp):
    """A real `appliance serve --sandbox` (the simulated network and AI double inside); its base URL,
    which is also its public address (the Google double's consent page and callback use it). The
    doubles the test uses (a webhook receiver) are on its allowed private servers."""
    port = free_port()
    proc = start_server(tmp_path / "data", port, "--sandbox",
                        env={"APPLIANCE_SMTP_URL": "", "APPLIANCE_BASE_URL": f"http://127.0.0.1:{port}",
                             "APPLIANCE_ALLOWED_PRIVATE_URLS": allowed_doubles(request)})
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def call(port: int, method: str, path: str, body=None, *, token: str | None = None, key: str | None = None,
         content_type: str = "application/json", timeout: float = 10) -> tuple[int, object]:
    """One request to a server under test, as an API client makes it: (status, decoded JSON). A
    `body` that is str or bytes goes as it is (a CSV), anything else as JSON."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    headers = {"Content-Type": content_type, **({"Authorization": f"Bearer {token}"} if token else {}),
               **({"X-Api-Key": key} if key else {})}
    data = body if isinstance(body, (str, bytes)) or body is None else json.dumps(body)
    conn.request(method, path, data, headers)
    answer = conn.getresponse()
    return answer.status, json.loads(answer.read() or b"null")


def rows_of(data_dir: Path, sql: str) -> list[tuple]:
    """What a statement finds in a (stopped or running) server's database, read directly."""
    database = sqlite3.connect(data_dir / "appliance.db")
    try:
        return database.execute(sql).fetchall()
    finally:
        database.close()



PASSWORD = "correct horse battery"


@pytest.fixture
def owner_business(tmp_path, request):
    """A sandbox server whose first person (so also the installation's administrator, who sees the
    Mail section) owns a business with attendance on (the inbox shows the shift control). A test
    marked `server_env(APPLIANCE_...=...)` starts it with those settings too."""
    port = free_port()
    marked = request.node.get_closest_marker("server_env")
    proc = start_server(tmp_path / "data", port, "--sandbox",
                        env={"APPLIANCE_SMTP_URL": "", **(marked.kwargs if marked else {})})
    base = f"http://127.0.0.1:{port}"
    try:
        olga = requests.post(f"{base}/auth/signup", json={"email": "olga@sol.test", "password": PASSWORD,
                                                          "name": "Olga"}, timeout=10).json()["data"]
        auth = {"Authorization": f"Bearer {olga['tokens']['accessToken']}"}
        org = requests.post(f"{base}/organizations", json={"name": "Panadería Sol", "slug": "panaderia-sol",
                                                           "billingEmail": "b@sol.test"}, headers=auth, timeout=10).json()["data"]
        on = requests.patch(f"{base}/organizations/{org['id']}/attendance/settings", json={"enabled": True},
                            headers=auth, timeout=10)
        assert on.status_code == 200, on.text
        yield base, org["id"], auth
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def signed_in(chromium, base: str, path: str, viewport: dict, locale: str):
    """A new page of `owner_business`'s Olga, signed in and at `path`."""
    page = chromium.new_context(locale=locale, viewport=viewport).new_page()
    page.goto(f"{base}/sign-in?next={path}")
    page.fill("input[name=email]", "olga@sol.test")
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"**{path}")
    return page


def out_of_reach(page, selector: str) -> list[str]:
    """The elements of `selector` that are not wholly inside the window (without scrolling it) or
    that a click at their middle would not reach; empty when all are fine."""
    return page.evaluate("""(selector) => [...document.querySelectorAll(selector)].filter((el) => {
        const box = el.getBoundingClientRect();
        const width = document.documentElement.clientWidth, height = document.documentElement.clientHeight;
        if (!(box.width > 0 && box.left >= 0 && box.top >= 0 && box.right <= width && box.bottom <= height)) return true;
        const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
        return !(hit && (hit === el || el.contains(hit)));
    }).map((el) => (el.textContent.trim() || el.getAttribute('aria-label') || el.outerHTML).slice(0, 60))""", selector)


def go_to(page, label: str) -> None:
    """Open the navigation's page named `label` as a person would: on a phone (and in the inbox) the
    Menu, then the link; on a laptop the group's menu, then the link (Home and Inbox: one click)."""
    menu = page.locator("details.nav-menu")
    if menu.is_visible():
        menu.locator("summary").click()
        page.locator(f".nav-sheet a:has-text('{label}')").first.click()
        return
    top = page.locator(f".nav-bar > a.nav-top:has-text('{label}')")
    if top.count():
        top.first.click()
        return
    group = page.locator("details.nav-group").filter(has=page.locator(f".nav-panel a:has-text('{label}')")).first
    group.locator("summary").click()
    group.locator(f".nav-panel a:has-text('{label}')").first.click()

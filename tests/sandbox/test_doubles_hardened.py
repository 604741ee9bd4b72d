"""Issue 44, finding 9: the simulator's doubles answered on every production server without
credentials: an open redirect on the business's own origin beside a frameable fake Google sign-in
page, a client secret written in the code that minted tokens, unbounded memory (1 MB bodies kept
forever; 534 MB after one 20 MB call), and 500s.

The doubles (AI, Google) are mounted only in sandbox mode; outside it everything under /netsim is
404 but the Graph API calls of sandbox accounts, with their token; the Google double sends a
browser only to the appliance's callback and is never framed; what a double keeps is bounded; a
body it cannot read is a 400, never a 500."""

import re

import pytest
import requests
from sqlmodel import select

from appliance.app import create_app
from appliance.core import runtime
from appliance.netsim import ai_double, network as network_module
from appliance.netsim.ai_double import AIState
from appliance.netsim.google_double import CLIENT_ID, CLIENT_SECRET
from appliance.netsim.network import Network
from appliance.wabas import service as wabas_service
from appliance.wabas.models import BusinessAccount
from tests import factories
from tests.browser_forms import csrf_of, sign_in
from tests.conftest import Api

CALLBACK = "/organizations/0190a000-0000-7000-8000-000000000001/agenda/calendar-provider/callback"
EVIL = "https://evil.example/welcome"


@pytest.fixture
def production(settings):
    """A server outside sandbox mode of its own: its simulator is the one "Try the sandbox" fills."""
    app = create_app(settings, queue_immediate=True)
    yield app.test_client()
    runtime.get().db.dispose()


def test_outside_sandbox_mode_only_the_graph_api_of_sandbox_accounts_answers(production):
    client, owner = production, factories.owner(Api(production))
    consent = {"client_id": CLIENT_ID, "response_type": "code", "redirect_uri": EVIL, "state": "x"}
    for method, path, extra in (
            ("GET", "/netsim/google/o/oauth2/v2/auth", {"query_string": consent}),
            ("GET", "/netsim/google/o/oauth2/v2/decide", {"query_string": {**consent, "decision": "deny"}}),
            ("POST", "/netsim/google/token", {"data": {"grant_type": "refresh_token", "refresh_token": "r",
                                                       "client_id": CLIENT_ID, "client_secret": CLIENT_SECRET}}),
            ("POST", "/netsim/ai/openai/v1/chat/completions", {"json": {"messages": [{"role": "user", "content": "hi"}]}}),
            ("GET", "/netsim/ai/openai/v1/models", {}),
            ("GET", "/netsim/_control/ai/calls", {}),
            ("GET", "/netsim/_control/sent", {}),
            ("GET", "/netsim/v23.0/1234/phone_numbers", {}),
            ("GET", "/netsim/v23.0/1234/phone_numbers", {"headers": {"Authorization": "Bearer EAAGguessed"}}),
            ("GET", "/netsim/anything/else", {})):
        answer = client.open(path, method=method, **extra)
        assert answer.status_code == 404, (method, path, answer.status_code)
        assert "Location" not in answer.headers

    org = owner["org"]["id"]
    sign_in(client, email="owner@example.com")
    page = client.get(f"/console/{org}/whatsapp")
    assert client.post(f"/console/{org}/sandbox", data={"csrf": csrf_of(page)}).status_code == 302
    with runtime.get().db.unit_of_work(write=False) as session:
        account = session.exec(select(BusinessAccount).where(BusinessAccount.organization_id == org)).one()
        token, _ = wabas_service.credentials(account)
        waba_id = account.waba_id
    graph = client.get(f"/netsim/v23.0/{waba_id}/phone_numbers", headers={"Authorization": f"Bearer {token}"})
    assert graph.status_code == 200 and len(graph.json["data"]) == 1  # the sandbox account's own Graph API


@pytest.fixture
def sandboxed(settings):
    app = create_app(settings.replace(sandbox=True), queue_immediate=True)
    yield app.test_client()
    runtime.get().db.dispose()


def test_the_google_double_sends_a_browser_only_to_the_appliances_callback_and_is_never_framed(sandboxed):
    consent = {"client_id": CLIENT_ID, "response_type": "code", "state": "s"}
    for elsewhere in (EVIL, f"https://evil.example{CALLBACK}", f"http://appliance.test{CALLBACK}?next=//evil.example"):
        page = sandboxed.get("/netsim/google/o/oauth2/v2/auth", query_string={**consent, "redirect_uri": elsewhere})
        assert page.status_code == 400 and "redirect_uri_mismatch" in page.text
        sent = sandboxed.get("/netsim/google/o/oauth2/v2/decide",
                             query_string={**consent, "redirect_uri": elsewhere, "decision": "deny"})
        assert sent.status_code == 400 and "Location" not in sent.headers, elsewhere

    ours = f"http://appliance.test{CALLBACK}"
    page = sandboxed.get("/netsim/google/o/oauth2/v2/auth", query_string={**consent, "redirect_uri": ours})
    assert page.status_code == 200 and "Allow" in page.text
    assert page.headers["X-Frame-Options"] == "DENY"
    assert "frame-ancestors 'none'" in page.headers["Content-Security-Policy"]
    back = sandboxed.get("/netsim/google/o/oauth2/v2/decide", query_string={**consent, "redirect_uri": ours,
                                                                           "decision": "allow"})
    assert back.status_code == 302 and back.headers["Location"].startswith(ours + "?")
    assert CLIENT_SECRET != "sandbox-google-secret"  # made by this process, written nowhere


BAD_INPUT = [
    ("POST", "/ai/openai/v1/chat/completions", {"messages": "hola"}),
    ("POST", "/ai/openai/v1/chat/completions", {"messages": [1, "x"]}),
    ("POST", "/ai/openai/v1/chat/completions", {"messages": [{"role": "user", "content": [{"type": "text"}]}],
                                                "tools": ["x"]}),
    ("POST", "/ai/anthropic/v1/messages", {"system": [{"type": "text", "text": "s"}], "messages": [{"role": "user"}]}),
    ("POST", "/ai/gemini/v1beta/models/double-small:generateContent", {"contents": [1], "systemInstruction": "x"}),
    ("PUT", "/_control/ai", {"failNext": ["garbage"] * 1000}),
    ("PUT", "/_control/google", {"busy": [1]}),
    ("PUT", "/_control/google", {"failNext": ["x"]}),
    ("PUT", "/_control/faults", {"failNext": "abc"}),
    ("POST", "/_control/accounts", {"numbers": [{}]}),
    ("POST", "/_control/accounts", {"numbers": [{"displayPhoneNumber": "1", "messagesPerSecond": "many"}]}),
    ("POST", "/_control/accounts", {"wabaId": ["x"]}),
    ("POST", "/_control/inbound", {"phoneNumberId": "1", "type": ["text"]}),
    ("POST", "/_control/inbound", {"type": "image", "media": "x"}),
    ("POST", "/_control/templates/1/status", {"name": {"a": 1}, "language": ["es"]}),
    ("POST", "/_control/wait?timeout=soon", {}),
    ("POST", "/_control/wait?timeout=100000", {}),
]


def test_a_body_the_doubles_cannot_read_is_a_400_never_a_500(netsim_url, account):
    token = {"Authorization": f"Bearer {account['accessToken']}"}
    number, waba = account["numbers"][0]["id"], account["wabaId"]
    graph = [
        ("POST", f"/v23.0/{number}/messages", {"messaging_product": "whatsapp", "to": "5215550001", "type": ["text"]}),
        ("POST", f"/v23.0/{number}/messages", {"messaging_product": "whatsapp", "to": "5215550001", "text": ["x"]}),
        ("POST", f"/v23.0/{number}/messages", {"messaging_product": "whatsapp", "to": "5215550001", "type": "template",
                                               "template": {"name": "x", "language": "es", "components": [1]}}),
        ("POST", f"/v23.0/{waba}/message_templates", {"name": "t", "category": "UTILITY", "language": {"x": 1},
                                                      "components": [{"type": "BODY", "text": "hola"}]}),
    ]
    for method, path, body in BAD_INPUT + graph:
        answer = requests.request(method, netsim_url + path, json=body, headers=token, timeout=10)
        assert 400 <= answer.status_code < 500, (method, path, body, answer.status_code, answer.text[:300])

    grants = requests.post(f"{netsim_url}/google/token", data={"grant_type": "authorization_code", "code": "c",
                                                                "client_id": CLIENT_ID, "client_secret": CLIENT_SECRET})
    assert grants.status_code == 400
    calendar = requests.put(f"{netsim_url}/_control/google", json={"busy": []}, timeout=5)
    assert calendar.status_code == 200
    busy = requests.post(f"{netsim_url}/google/calendar/v3/freeBusy", json={"timeMin": 5, "timeMax": [1]}, timeout=5)
    assert busy.status_code == 401  # asked without a grant, not a crash on the numbers


def test_a_body_over_what_a_route_takes_is_refused_before_it_is_read(netsim_url):
    huge = {"messages": [{"role": "user", "content": "x" * (5 << 20)}]}
    answer = requests.post(f"{netsim_url}/ai/openai/v1/chat/completions", json=huge, timeout=30)
    assert answer.status_code == 413
    assert requests.get(f"{netsim_url}/_control/ai/calls", timeout=5).json()["count"] == 0  # nothing was kept
    control = requests.put(f"{netsim_url}/_control/google", json={"busy": [], "pad": "x" * (2 << 20)}, timeout=30)
    assert control.status_code == 413


def test_what_the_doubles_keep_is_bounded(monkeypatch):
    state = AIState()
    for turn in range(ai_double.MAX_CALLS + 50):
        ai_double.record_and_fault(state, "/ai/openai/v1/chat/completions", {"turn": turn}, {})
    assert len(state.calls) == ai_double.MAX_CALLS and state.calls[0]["body"] == {"turn": 50}
    ai_double.record_and_fault(state, "/ai/openai/v1/chat/completions", {"big": "x" * (1 << 20)}, {})
    assert state.calls[-1]["body"] == {"omitted": f"{(1 << 20) + 10} bytes"} and state.calls.bytes < 1 << 20

    monkeypatch.setattr(network_module, "MAX_MEDIA_BYTES", 3 << 20)
    network = Network()
    account = network.create_account(name="Sol", numbers=[{"displayPhoneNumber": "+1 555 0100"}])
    number = network.numbers[account.numbers[0]]
    stored = [network.store_media(number, b"x" * (1 << 20), "image/jpeg").media_id for _ in range(5)]
    assert list(network.media) == stored[-3:] and network.media.bytes <= 3 << 20
    for turn in range(5):
        network.sent.append({"turn": turn})
    assert network.sent.total == 5 and network.sent[-1] == {"turn": 4}
    assert re.fullmatch(r"sandbox-[\w-]+", CLIENT_SECRET)


def test_the_sandbox_number_has_as_many_digits_as_a_real_one():
    from appliance.sandbox.service import sandbox_number

    numbers = {sandbox_number(f"01a2201f-3d05-709e-a820-{n:012x}") for n in range(300)}
    assert all(len("".join(c for c in number if c.isdigit())) == 11 for number in numbers)
    assert all(number.startswith("+1 2") and " 555 01" in number for number in numbers)
    assert len(numbers) > 250  # organizations rarely share one

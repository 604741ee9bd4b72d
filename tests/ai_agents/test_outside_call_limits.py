"""Issue 44, finding 5: one tenant stalled every tenant through the request threads (70 provider
checks against a slow server made another organization's contact list take 22 s). Calls to outside
systems made for a request (the provider check, the model list, the probador, the configurador,
Google's code exchange) wait at most 10 s, at most 2 at once per organization: a third is 429
`outside_calls_busy` at once (core/outside_calls.py).

The provider's client is held on an event instead of a slow server: what is measured is the
appliance's waiting, not the network."""

import threading

import pytest

from appliance.ai_providers.base import ChatReply
from appliance.ai_providers.openai_chat import OpenAIChatClient
from appliance.core import outside_calls
from tests import factories
from tests.problems import assert_problem
from tests.waiting import eventually


class HeldProvider:
    """The LOCAL server's answers, held until released; counts the calls that reached it."""

    def __init__(self, monkeypatch):
        self.release, self.reached, self._lock = threading.Event(), 0, threading.Lock()
        monkeypatch.setattr(OpenAIChatClient, "chat", lambda client, request: self._held(ChatReply(text="Hola")))
        monkeypatch.setattr(OpenAIChatClient, "list_models", lambda client: self._held(["held-model"]))

    def _held(self, answer):
        with self._lock:
            self.reached += 1
        self.release.wait(30)
        return answer


@pytest.fixture
def held(monkeypatch):
    provider = HeldProvider(monkeypatch)
    yield provider
    provider.release.set()  # calls a test stopped waiting for end now


def _agent(api, owner) -> str:
    base = f"/organizations/{owner['org']['id']}/bot"
    # A public address: nothing is reached (the client is held), and the address rule has nothing to say.
    assert api.put(f"{base}/providers/LOCAL", {"baseUrl": "http://8.8.8.8:11434/v1"},
                   token=owner["token"]).status_code == 200
    made = api.post(f"{base}/agents", {"name": "Ventas", "provider": "LOCAL", "model": "llama3"}, token=owner["token"])
    assert made.status_code == 201, made.json
    return made.json["data"]["id"]


def _in_thread(call) -> tuple[threading.Thread, list]:
    answers: list = []
    thread = threading.Thread(target=lambda: answers.append(call()), daemon=True)
    thread.start()
    return thread, answers


def test_an_organization_gets_two_outside_calls_at_once_and_a_third_is_refused_at_once(app, api, owner, held):
    org = owner["org"]["id"]
    agent = _agent(api, owner)
    probe = f"/organizations/{org}/bot/agents/{agent}/probador"
    headers = {"Authorization": f"Bearer {owner['token']}"}

    def ask():
        return app.test_client().post(probe, json={"messages": [{"role": "user", "content": "Hola"}]}, headers=headers)
    first, second = _in_thread(ask), _in_thread(ask)
    eventually(lambda: held.reached, lambda reached: reached == 2)

    third, answers = _in_thread(lambda: app.test_client().post(f"/organizations/{org}/bot/providers/LOCAL/check",
                                                               headers=headers))
    third.join(5)
    assert answers, "the third call waited for the provider instead of being refused"
    assert_problem(answers[0], 429, "outside_calls_busy")
    assert answers[0].headers["Retry-After"]

    other = factories.person(api, email="otra@example.com")["tokens"]["accessToken"]
    theirs = factories.organization(api, other, name="Otra", slug="otra")["id"]
    assert api.get(f"/organizations/{theirs}/contacts", token=other).status_code == 200  # another tenant is served

    held.release.set()
    for thread, answer in (first, second):
        thread.join(10)
        assert answer[0].status_code == 201, answer[0].json
    assert outside_calls.running(org) == 0


def test_a_request_waits_for_an_outside_call_at_most_the_limit(api, owner, held, monkeypatch):
    monkeypatch.setattr(outside_calls, "LIMIT_SECONDS", 0.3)  # 10 s in use: the same rule, sooner
    org = owner["org"]["id"]
    agent = _agent(api, owner)
    checked = api.post(f"/organizations/{org}/bot/providers/LOCAL/check", token=owner["token"])
    assert checked.status_code == 201 and checked.json["data"]["ok"] is False
    assert "did not answer within" in checked.json["data"]["error"]
    providers = api.get(f"/organizations/{org}/bot/providers", token=owner["token"]).json["data"]
    assert "did not answer within" in next(p for p in providers if p["provider"] == "LOCAL")["lastError"]
    held.release.set()
    eventually(lambda: outside_calls.running(org), lambda running: running == 0)  # the slot is given back once it ends

    held.release.clear()
    answered = api.post(f"/organizations/{org}/bot/agents/{agent}/probador",
                        {"messages": [{"role": "user", "content": "Hola"}]}, token=owner["token"])
    assert_problem(answered, 504, "outside_call_timeout")
    models = api.get(f"/organizations/{org}/bot/agents/modelos", token=owner["token"])
    assert models.status_code == 200 and all(m["provider"] != "LOCAL" for m in models.json["data"])
    held.release.set()
    eventually(lambda: outside_calls.running(org), lambda running: running == 0)  # ended before the database goes

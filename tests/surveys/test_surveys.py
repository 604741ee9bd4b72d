"""Issue 24, part 1: CSAT surveys. Settings within the limits (inactive defaults until saved); a
close earns a survey decided at once (scheduled, or unsent with the reason); it leaves after the
delay inside the 24-hour window, question 1 as reply buttons and later ones as a list, then the
comment and the thanks; answers never wake the bot nor reopen the conversation; no answer in time
is `expired`; results count it all."""

import pytest
import requests

from appliance.core import clock, runtime
from appliance.surveys import sender
from tests.fixtures.line import CUSTOMER
from tests.problems import assert_problem, error_fields



@pytest.fixture(autouse=True)
def _calls_outlive_the_clock(line, api):
    """Tests move the clock past a person's 15-minute token: reads and changes go with a key."""
    secret = api.post(f"/organizations/{line.org_id}/api-keys", {"name": "encuestas"},
                      token=line.owner["token"]).json["data"]["secret"]

    def call(method, path, body=None):
        answer = api.client.open(f"/organizations/{line.org_id}{path}", method=method, json=body,
                                 headers={"X-Api-Key": secret})
        assert answer.status_code in (200, 201), answer.json
        return answer.json["data"]
    line.get = lambda path: call("GET", path)
    line.call = call


def _config(line, **fields):
    return line.call("PATCH", "/surveys/config", fields)


def _sent(line) -> list[dict]:
    return requests.get(f"{line.netsim_url}/_control/sent", timeout=5).json()["data"]


def _conversation(line, text="Hola, ¿tienen pan?", *, reply=True):
    line.customer_writes({"type": "text", "text": {"body": text}})
    line.deliver()
    [conversation] = line.get("/conversations")["items"]
    if reply:
        sent = line.api.post(f"/organizations/{line.org_id}/messages", {
            "phoneNumberId": line.number["id"], "to": CUSTOMER, "type": "text", "payload": {"body": "Sí, hay pan."}},
            token=line.owner["token"])
        assert sent.status_code == 201, sent.json
    return conversation


def _close(line, conversation_id):
    line.call("PATCH", f"/conversations/{conversation_id}/status", {"status": "closed"})


def _tap(line, reply_id, title, kind="button_reply"):
    line.customer_writes({"type": "interactive", "interactive": {"type": kind, kind: {"id": reply_id, "title": title}}})
    line.deliver()


def _results(line, query=""):
    return line.get(f"/surveys/results{query}")


def _due(minutes=0):
    clock.advance(minutes * 60)
    return sender.send_due(runtime.get().db)


QUESTIONS = [{"text": "¿Cómo te atendimos?", "options": ["Excelente", "Regular", "Mal"]},
             {"text": "¿Volverías a comprar?", "options": ["Sí", "Tal vez", "No", "Nunca"]}]


def test_defaults_are_inactive_until_saved_and_changes_are_partial(line):
    config = line.get("/surveys/config")
    assert (config["active"], config["delayMinutes"], config["audience"], config["updatedAt"]) == (False, 120, "ALL", None)
    assert config["questions"][0]["options"] == ["Excellent", "Good", "Poor"]  # the organization is not Spanish-speaking
    saved = _config(line, active=True, delayMinutes=0)
    assert (saved["active"], saved["delayMinutes"], saved["cooldownDays"]) == (True, 0, 0)
    assert saved["updatedAt"] and saved["questions"] == config["questions"]
    again = _config(line, phoneNumberIds=[line.number["id"]])
    assert again["active"] is True and again["phoneNumberIds"] == [line.number["id"]]


@pytest.mark.parametrize("body, field", [
    ({"questions": [{"text": "q", "options": ["a", "b"]}] * 4}, "questions"),
    ({"questions": [{"text": "q", "options": ["a", "b", "c", "d"]}]}, "questions"),
    ({"questions": [{"text": "q", "options": ["a", "b"]}, {"text": "r", "options": [str(i) for i in range(11)]}]},
     "questions"),
    ({"questions": [{"text": "q", "options": ["x" * 21, "b"]}]}, "questions"),
    ({"questions": [{"text": "q", "options": ["Sí", "sí"]}]}, "questions"),
    ({"questions": []}, "questions"),
    ({"delayMinutes": 10081}, "delayMinutes"),
    ({"delayMinutes": -1}, "delayMinutes"),
    ({"cooldownDays": 366}, "cooldownDays"),
    ({"answerTimeoutHours": 0}, "answerTimeoutHours"),
    ({"answerTimeoutHours": 169}, "answerTimeoutHours"),
    ({"audience": "ROBOTS"}, "audience"),
    ({"phoneNumberIds": ["00000000-0000-4000-8000-000000000000"]}, "phoneNumberIds"),
    ({"commentQuestion": ""}, "commentQuestion"),
    ({}, "_schema"),
])
def test_settings_beyond_the_limits_are_refused_with_the_field(line, body, field):
    answer = line.api.patch(f"/organizations/{line.org_id}/surveys/config", body, token=line.owner["token"])
    assert_problem(answer, 400, "unknown_ids" if field == "phoneNumberIds" else "validation_failed")
    assert any(name.split(".")[0].split("[")[0] == field for name in error_fields(answer)), answer.json
    assert line.get("/surveys/config")["updatedAt"] is None  # nothing half-saved


def test_a_close_sends_the_survey_and_the_answers_score_without_waking_the_bot_or_reopening(line, api):
    assert api.put(f"/organizations/{line.org_id}/bot/config/{line.number['id']}", {
        "enabled": True, "mode": "RULES_ONLY", "debounceSeconds": 0},
        token=line.owner["token"]).status_code == 200
    _config(line, active=True, delayMinutes=0, questions=QUESTIONS, askComment=True,
            commentQuestion="¿Algo más?", thanksMessage="¡Gracias!")
    conversation = _conversation(line)
    before = len(_sent(line))
    _close(line, conversation["id"])
    asked = _sent(line)[before:]
    assert [m["type"] for m in asked] == ["interactive"]
    buttons = asked[0]["interactive"]["action"]["buttons"]
    assert asked[0]["interactive"]["type"] == "button"
    assert [b["reply"]["title"] for b in buttons] == ["Excelente", "Regular", "Mal"]
    messages = line.get(f"/conversations/{conversation['id']}/messages")["items"]
    assert any(m["sentBy"] == "survey" for m in messages)

    asked_at = line.get("/bot/activity")["items"][0]["createdAt"]
    _tap(line, buttons[0]["reply"]["id"], "Excelente")
    second = _sent(line)[-1]["interactive"]
    assert second["type"] == "list" and [r["title"] for r in second["action"]["sections"][0]["rows"]] == \
        ["Sí", "Tal vez", "No", "Nunca"]
    _tap(line, second["action"]["sections"][0]["rows"][1]["id"], "Tal vez", kind="list_reply")
    assert _sent(line)[-1]["text"]["body"] == "¿Algo más?"
    line.customer_writes({"type": "text", "text": {"body": "El pan estaba tibio, muy rico"}})
    line.deliver()
    assert _sent(line)[-1]["text"]["body"] == "¡Gracias!"
    line.customer_writes({"type": "text", "text": {"body": "hola otra vez"}})  # not the comment: the bot's
    line.deliver()
    [turn] = [a for a in line.get("/bot/activity")["items"] if a["createdAt"] > asked_at]
    assert turn["detail"] == {"reason": "no_match", "messages": 1}  # only the last message woke the bot
    results = _results(line)
    assert (results["sent"], results["answered"], results["responseRate"], results["averageScore"]) == (1, 1, 1.0, 3.0)
    assert {(o["questionIndex"], o["option"]): o["count"] for o in results["byOption"] if o["count"]} == {
        (0, "Excelente"): 1, (1, "Tal vez"): 1}
    assert len(results["byOption"]) == 7  # today's options, tapped or not
    assert results["comments"][0]["text"] == "El pan estaba tibio, muy rico"
    assert results["comments"][0]["conversationId"] == conversation["id"]
    [agent] = results["byAgent"]
    me = line.api.get("/users/me", token=line.owner["token"]).json["data"]
    assert (agent["userId"], agent["name"], agent["averageScore"]) == (me["id"], me["name"], 3.0)


def test_answers_alone_do_not_bring_the_conversation_back(line):
    _config(line, active=True, delayMinutes=0)
    conversation = _conversation(line)
    _close(line, conversation["id"])
    button = _sent(line)[-1]["interactive"]["action"]["buttons"][2]
    _tap(line, button["reply"]["id"], button["reply"]["title"])
    found = line.get(f"/conversations/{conversation['id']}")
    assert (found["status"], found["unread"]) == ("closed", False)
    assert _results(line)["averageScore"] == 1.0  # the third of three options
    _tap(line, button["reply"]["id"], button["reply"]["title"])  # a second tap: the question was answered
    assert _results(line)["answered"] == 1


def test_the_delay_the_window_and_the_timeout(line):
    _config(line, active=True, delayMinutes=60, answerTimeoutHours=2)
    conversation = _conversation(line)
    before = len(_sent(line))
    _close(line, conversation["id"])
    assert _due(30) == 0 and len(_sent(line)) == before  # not yet
    assert _results(line)["scheduled"] == 1
    assert _due(31) == 1 and len(_sent(line)) == before + 1
    _due(121)
    results = _results(line)
    assert (results["sent"], results["answered"], results["expired"]) == (1, 0, 1)

    # A close whose survey falls due after the 24-hour window: recorded unsent, window_closed.
    line.customer_writes({"type": "text", "text": {"body": "otra cosa"}})
    line.deliver()
    _config(line, delayMinutes=1500)
    _close(line, conversation["id"])
    _due(1501)
    assert _results(line)["unsent"] == {"window_closed": 1}


def test_audience_cooldown_numbers_and_opt_outs_are_reasons(line, api):
    _config(line, active=True, delayMinutes=0, audience="BOT")
    conversation = _conversation(line)  # a person answered: not the bot's audience
    _close(line, conversation["id"])
    assert _results(line)["unsent"] == {"audience": 1}

    _config(line, audience="ALL", cooldownDays=30)
    line.customer_writes({"type": "text", "text": {"body": "de nuevo"}})
    line.deliver()
    _close(line, conversation["id"])
    line.customer_writes({"type": "text", "text": {"body": "una más"}})
    line.deliver()
    _close(line, conversation["id"])
    results = _results(line)
    assert results["sent"] == 1 and results["unsent"] == {"audience": 1, "cooldown": 1}
    assert results["cancelled"] == {}

    _config(line, cooldownDays=0)
    line.call("POST", f"/contacts/{conversation['contactId']}/opt-ins", {"type": "OUT", "source": "form"})
    line.customer_writes({"type": "text", "text": {"body": "y otra"}})
    line.deliver()
    _close(line, conversation["id"])
    assert _results(line)["unsent"].get("opted_out") == 1


def test_a_customer_coming_back_before_the_delay_cancels_the_survey(line):
    _config(line, active=True, delayMinutes=30)
    conversation = _conversation(line)
    _close(line, conversation["id"])
    line.customer_writes({"type": "text", "text": {"body": "¡una pregunta más!"}})
    line.deliver()
    before = len(_sent(line))
    _due(31)
    assert len(_sent(line)) == before
    assert _results(line)["cancelled"] == {"reopened": 1}


def test_results_check_their_range_and_another_organization_sees_nothing(line, api):
    assert_problem(line.api.get(f"/organizations/{line.org_id}/surveys/results?desde=2026-02-01&hasta=2026-01-01",
                                token=line.owner["token"]), 400, "invalid_range")
    assert_problem(line.api.get(f"/organizations/{line.org_id}/surveys/results?desde=2024-01-01&hasta=2026-01-01",
                                token=line.owner["token"]), 400, "invalid_range")
    assert_problem(line.api.get(f"/organizations/{line.org_id}/surveys/results?desde=ayer",
                                token=line.owner["token"]), 400, "validation_failed")
    token = api.signup(email="otra@example.com")["tokens"]["accessToken"]
    assert_problem(api.get(f"/organizations/{line.org_id}/surveys/results", token=token), 403, "not_a_member")
    assert_problem(api.patch(f"/organizations/{line.org_id}/surveys/config", {"active": True}, token=token), 403,
                   "not_a_member")


def test_the_counters_agree_with_a_recount_of_the_surveys(line):
    """Every status change moved the daily counters; counting again from the rows gives the same."""
    from sqlmodel import select

    from appliance.surveys import tallies
    from appliance.surveys.models import SurveyTally

    _config(line, active=True, delayMinutes=0, questions=QUESTIONS, cooldownDays=0)
    conversation = _conversation(line)
    _close(line, conversation["id"])
    button = _sent(line)[-1]["interactive"]["action"]["buttons"][1]
    _tap(line, button["reply"]["id"], button["reply"]["title"])
    line.customer_writes({"type": "text", "text": {"body": "otra"}})
    line.deliver()
    _close(line, conversation["id"])
    _due(60 * 24 * 2)  # the second survey's question times out... and its window too
    database = runtime.get().db

    def counters():
        with database.unit_of_work(write=False) as session:
            return sorted((t.day, t.kind, t.key, t.count, t.score_sum, t.label) for t in session.exec(
                select(SurveyTally).where(SurveyTally.organization_id == line.org_id, SurveyTally.count != 0)).all())
    kept = counters()
    with database.unit_of_work(write=True) as session:
        tallies.rebuild(session, line.org_id)
    assert counters() == kept
    assert {(kind, key) for _, kind, key, *_ in kept} >= {("status", "answered"), ("option", "0:1"), ("status", "expired")}

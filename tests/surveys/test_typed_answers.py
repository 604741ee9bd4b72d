"""Issue 43, item 6: a survey answered by typing the option ("Excelente", "excelente!", "REGULAR")
instead of tapping it counts as the tap would, and is the survey's, not the bot's; a text that
names no option is the comment (when one is asked) or the bot's, as before."""

from tests.surveys.test_surveys import (QUESTIONS, _calls_outlive_the_clock, _close, _config,  # noqa: F401
                                        _conversation, _results, _sent)


def _type(line, text):
    line.customer_writes({"type": "text", "text": {"body": text}})
    line.deliver()


def test_an_option_typed_instead_of_tapped_is_counted_and_the_survey_goes_on(line, api):
    assert api.put(f"/organizations/{line.org_id}/bot/config/{line.number['id']}", {
        "enabled": True, "mode": "RULES_ONLY", "debounceSeconds": 0, "fallbackEnabled": True,
        "fallbackMessage": "No te entendí."}, token=line.owner["token"]).status_code == 200
    _config(line, active=True, delayMinutes=0, questions=QUESTIONS, askComment=True, commentQuestion="¿Algo más?",
            thanksMessage="¡Gracias!")
    conversation = _conversation(line)
    _close(line, conversation["id"])
    before_bot = len([m for m in _sent(line) if m.get("text", {}).get("body") == "No te entendí."])
    _type(line, "¡excelente! 😀")  # case, accents, punctuation and emoji aside
    assert _sent(line)[-1]["interactive"]["type"] == "list"  # question 2 asked: question 1 was answered
    _type(line, "tal vez")
    assert _sent(line)[-1]["text"]["body"] == "¿Algo más?"
    _type(line, "Todo muy bien")
    assert _sent(line)[-1]["text"]["body"] == "¡Gracias!"
    results = _results(line)
    assert (results["answered"], results["averageScore"]) == (1, 3.0)
    assert {(o["questionIndex"], o["option"]): o["count"] for o in results["byOption"] if o["count"]} == {
        (0, "Excelente"): 1, (1, "Tal vez"): 1}
    assert results["comments"][0]["text"] == "Todo muy bien"
    # None of the answers woke the bot, and the conversation stays closed.
    assert len([m for m in _sent(line) if m.get("text", {}).get("body") == "No te entendí."]) == before_bot
    assert line.get(f"/conversations/{conversation['id']}")["status"] == "closed"


def test_a_text_that_names_no_option_is_not_an_answer(line):
    _config(line, active=True, delayMinutes=0, questions=QUESTIONS)
    conversation = _conversation(line)
    _close(line, conversation["id"])
    _type(line, "excelente servicio, gracias")  # more than the option: a message, not a choice
    assert _results(line)["answered"] == 0
    assert line.get(f"/conversations/{conversation['id']}")["status"] == "open"  # the customer came back


def test_the_last_question_typed_is_the_surveys_even_once_it_finished(line, api):
    assert api.put(f"/organizations/{line.org_id}/bot/config/{line.number['id']}", {
        "enabled": True, "mode": "RULES_ONLY", "debounceSeconds": 0, "fallbackEnabled": True,
        "fallbackMessage": "No te entendí."}, token=line.owner["token"]).status_code == 200
    _config(line, active=True, delayMinutes=0, questions=QUESTIONS[:1], thanksMessage="¡Gracias!")
    conversation = _conversation(line)
    _close(line, conversation["id"])
    _type(line, "Mal")
    assert _sent(line)[-1]["text"]["body"] == "¡Gracias!"  # the bot did not answer after the thanks
    assert _results(line)["averageScore"] == 1.0

"""Issue 18, part 6: quick replies, one shortcut per organization (case aside)."""

import pytest

from tests.problems import assert_problem, error_fields


def _replies(owner):
    return f"/organizations/{owner['org']['id']}/quick-replies"


def test_quick_replies_are_made_listed_changed_and_deleted(api, owner):
    token = owner["token"]
    made = api.post(_replies(owner), {"shortcut": "/horario", "text": "Abrimos de 8 a 18, de lunes a sábado."},
                    token=token)
    assert made.status_code == 201, made.json
    api.post(_replies(owner), {"shortcut": "/envios", "text": "Enviamos en Cali el mismo día."}, token=token)
    assert [r["shortcut"] for r in api.get(_replies(owner), token=token).json["data"]] == ["/envios", "/horario"]
    assert_problem(api.post(_replies(owner), {"shortcut": "/HORARIO", "text": "x"}, token=token), 409,
                   "quick_reply_shortcut_taken")
    reply_id = made.json["data"]["id"]
    changed = api.patch(f"{_replies(owner)}/{reply_id}", {"text": "De 7 a 19."}, token=token)
    assert changed.status_code == 200 and changed.json["data"]["text"] == "De 7 a 19."
    assert api.delete(f"{_replies(owner)}/{reply_id}", token=token).status_code == 204
    assert [r["shortcut"] for r in api.get(_replies(owner), token=token).json["data"]] == ["/envios"]


@pytest.mark.parametrize("body, field", [
    ({"shortcut": "horario", "text": "x"}, "shortcut"), ({"shortcut": "/dos palabras", "text": "x"}, "shortcut"),
    ({"shortcut": "/" + "x" * 31, "text": "x"}, "shortcut"), ({"shortcut": "/x", "text": ""}, "text"),
    ({"shortcut": "/x", "text": "y" * 4097}, "text"), ({"shortcut": "/x"}, "text"),
])
def test_every_field_is_checked(api, owner, body, field):
    answer = api.post(_replies(owner), body, token=owner["token"])
    assert answer.status_code == 400 and field in error_fields(answer), answer.json


def test_other_organizations_quick_replies_are_not_found(api, owner):
    reply = api.post(_replies(owner), {"shortcut": "/hola", "text": "¡Hola!"}, token=owner["token"]).json["data"]
    eve = api.signup(email="eve@example.com")["tokens"]["accessToken"]
    theirs = api.post("/organizations", {"name": "Eve", "slug": "eve", "billingEmail": "e@eve.test"}, token=eve).json["data"]["id"]
    assert api.patch(f"/organizations/{theirs}/quick-replies/{reply['id']}", {"text": "mío"}, token=eve).status_code == 404
    assert api.get(f"/organizations/{theirs}/quick-replies", token=eve).json["data"] == []

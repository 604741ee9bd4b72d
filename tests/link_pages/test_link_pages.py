"""Issue 24, part 3: link pages. A handle is unique across the appliance; items are an address or
one of the organization's chat links (exactly one); the public page shows only once published, counts
views, and its tracked redirects count each item's clicks (a chat link's through its short address)."""

import pytest

from tests.problems import assert_problem, error_fields


def _pages(line):
    return f"/organizations/{line.org_id}/link-pages"


def test_a_page_is_made_published_visited_and_followed(line, client):
    token = line.owner["token"]
    link = line.api.post(f"/organizations/{line.org_id}/chatapp-links", {"phoneNumberId": line.number["id"], "name": "Chat",
                                                                        "prefilledMessage": "Hola"}, token=token).json["data"]
    made = line.api.post(_pages(line), {"handle": "panaderia-sol", "title": "Panadería Sol", "description": "Pan de masa madre",
                                        "items": [{"label": "Pide por WhatsApp", "chatLinkId": link["id"]},
                                                  {"label": "Menú", "url": "https://sol.example/menu"}]}, token=token)
    assert made.status_code == 201, made.json
    page = made.json["data"]
    assert page["url"].endswith("/link-pages/p/panaderia-sol") and page["published"] is False
    assert client.get("/link-pages/p/panaderia-sol").status_code == 404  # not published yet
    published = line.api.patch(f"{_pages(line)}/{page['id']}", {"published": True}, token=token).json["data"]
    shown = client.get("/link-pages/p/panaderia-sol", headers={"Accept-Language": "es"})
    assert shown.status_code == 200 and "Pan de masa madre" in shown.text and "Pide por WhatsApp" in shown.text
    chat_item, menu_item = published["items"]
    to_chat = client.get(f"/link-pages/go/{chat_item['id']}")
    assert to_chat.status_code == 302 and to_chat.headers["Location"] == link["url"]
    assert client.get(f"/link-pages/go/{menu_item['id']}").headers["Location"] == "https://sol.example/menu"
    again = line.get(f"/link-pages/{page['id']}")
    assert again["views"] == 1 and [i["clicks"] for i in again["items"]] == [1, 1]
    reordered = line.api.patch(f"{_pages(line)}/{page['id']}", {"items": [menu_item, {"id": chat_item["id"], "label": "Chat",
                                                                                      "chatLinkId": link["id"]}]}, token=token)
    assert [i["label"] for i in reordered.json["data"]["items"]] == ["Menú", "Chat"]
    assert [i["clicks"] for i in reordered.json["data"]["items"]] == [1, 1]  # kept with their ids
    assert line.api.delete(f"{_pages(line)}/{page['id']}", token=token).status_code == 204
    assert client.get("/link-pages/p/panaderia-sol").status_code == 404
    assert client.get(f"/link-pages/go/{menu_item['id']}").status_code == 404


@pytest.mark.parametrize("body, field", [
    ({"handle": "ab"}, "handle"), ({"handle": "Con Espacios"}, "handle"), ({"handle": "admin"}, "handle"),
    ({"items": [{"label": "x"}]}, "items"), ({"items": [{"label": "x", "url": "javascript:alert(1)"}]}, "items"),
    ({"items": [{"label": "x", "url": "https://a.test", "chatLinkId": "01a20000-0000-7000-8000-000000000000"}]}, "items"),
    ({"items": [{"label": "x", "chatLinkId": "01a20000-0000-7000-8000-000000000000"}]}, "items"), ({"title": ""}, "title")])
def test_bad_pages_are_refused_by_field(line, body, field):
    answer = line.api.post(_pages(line), {"handle": "sol", "title": "Sol", **body}, token=line.owner["token"])
    assert answer.status_code == 400 and field in error_fields(answer), answer.json


def test_a_handle_is_taken_once_across_organizations(line, api):
    line.api.post(_pages(line), {"handle": "sol", "title": "Sol"}, token=line.owner["token"])
    rival = api.signup(email="rival@example.com")["tokens"]["accessToken"]
    theirs = api.post("/organizations", {"name": "Rival", "slug": "rival", "billingEmail": "r@r.test"}, token=rival).json["data"]["id"]
    assert_problem(api.post(f"/organizations/{theirs}/link-pages", {"handle": "sol", "title": "x"}, token=rival), 409, "handle_taken")
    assert api.get(f"/organizations/{theirs}/link-pages", token=rival).json["data"] == []

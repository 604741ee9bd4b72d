"""Reading a conversation: search inside messages, pages around a message, media and links."""

from tests.conversations.test_inbox import OTHER
from tests.fixtures.line import CUSTOMER
from tests.problems import assert_problem


def _send(inbox, text):
    answer = inbox.api.client.post(f"/organizations/{inbox.line.org_id}/messages", json={
        "phoneNumberId": inbox.line.number["id"], "to": CUSTOMER,
        "type": "text", "payload": {"body": text}}, headers={"Authorization": f"Bearer {inbox.token}"})
    assert answer.status_code == 201, answer.json
    return answer.json["data"]


def test_search_ignores_accents_and_case_newest_first_with_filters(inbox):
    conversation = inbox.customer("¿Tienen PAN de elote?")
    reply = _send(inbox, "Sí, el pan de élote sale a las 7: https://panaderia.test/menu.")
    inbox.customer("Otra cosa: pastel", wa_id=OTHER, name="Beto")

    def found(**query):
        return [m["id"] for m in inbox.ok("GET", "/search", **query)["items"]]

    hits = inbox.ok("GET", "/search", q="elote")["items"]
    assert [m["direction"] for m in hits] == ["out", "in"]  # newest first
    assert hits[0]["id"] == reply["id"]
    assert found(q="ÉLOTE") == found(q="elote") == found(q="pan ELO")  # the last word as a prefix
    assert found(q="elote", direction="in") == [hits[1]["id"]]
    assert found(q="elote", sentByMe="true") == [reply["id"]]
    assert found(q="elote", conversationId=conversation["id"]) == [m["id"] for m in hits]
    assert found(q="elote", hasAttachment="true") == []
    assert found(q="pastel") != [] and found(q="pastel", conversationId=conversation["id"]) == []
    assert found(q="elote", **{"from": "2099-01-01T00:00:00Z"}) == []
    page = inbox.ok("GET", "/search", q="elote", limit=1)
    assert [m["id"] for m in page["items"]] == [reply["id"]]
    assert found(q="elote", limit=1, before=page["nextCursor"]) == [hits[1]["id"]]
    # FTS syntax in the query is just words
    assert found(q='"elote" *') == found(q="elote") and found(q="elote OR pastel") == []
    # A word inside an address is a word, on both engines (no parser keeps the URL whole)
    assert found(q="panaderia") == found(q="MENU") == [reply["id"]]
    for query in ({"q": ""}, {"q": "¿?"}, {}, {"q": "x", "direction": "sideways"}, {"q": "x", "before": "zz"},
                  {"q": "x", "limit": "0"}, {"q": "x", "from": "yesterday"}):
        answer = inbox.call("GET", "/search", **query)
        assert answer.status_code == 400, query


def test_an_edit_is_found_by_its_new_words_only(inbox):
    inbox.customer("hola")
    sent = _send(inbox, "Abrimos a las ocho")
    edited = inbox.api.client.patch(f"/organizations/{inbox.line.org_id}/messages/{sent['id']}/edit",
                                    json={"body": "Abrimos a las siete"},
                                    headers={"Authorization": f"Bearer {inbox.token}"})
    assert edited.status_code == 200, edited.json
    assert [m["id"] for m in inbox.ok("GET", "/search", q="siete")["items"]] == [sent["id"]]
    assert inbox.ok("GET", "/search", q="ocho")["items"] == []


def test_hidden_messages_are_not_found(inbox):
    inbox.customer("hola")
    sent = _send(inbox, "mensaje secreto")
    hidden = inbox.api.client.delete(f"/organizations/{inbox.line.org_id}/messages/{sent['id']}",
                                     headers={"Authorization": f"Bearer {inbox.token}"})
    assert hidden.status_code in (200, 204)
    assert inbox.ok("GET", "/search", q="secreto")["items"] == []


def test_a_page_around_a_message_and_pages_back(inbox):
    conversation = inbox.customer("m0")
    ids = [m["id"] for m in inbox.ok("GET", f"/{conversation['id']}/messages")["items"]]
    for i in range(1, 9):
        ids.insert(0, _send(inbox, f"m{i}")["id"])  # newest first
    middle = ids[4]
    around = inbox.ok("GET", f"/{conversation['id']}/messages", around=middle, limit=5)
    assert [m["id"] for m in around["items"]] == ids[2:7]
    assert around["newerCursor"] is not None and around["nextCursor"] is not None
    older = inbox.ok("GET", f"/{conversation['id']}/messages", before=around["nextCursor"], limit=5)
    assert [m["id"] for m in older["items"]] == ids[7:]
    assert inbox.call("GET", f"/{conversation['id']}/messages", around=middle, before=around["nextCursor"]).status_code == 400
    answer = inbox.call("GET", f"/{conversation['id']}/messages", around="00000000-0000-4000-8000-000000000000")
    assert_problem(answer, 400, "message_not_found")


def test_media_by_category_counts_and_links(inbox, line):
    conversation = inbox.customer("mira https://ejemplo.test/a y http://otro.test/b?x=1).")
    line.customer_writes({"type": "image", "image": {"caption": "la foto https://fotos.test/1"}},
                         media={"mimeType": "image/jpeg", "content": "aGVsbG8="})
    line.deliver()
    counts = inbox.ok("GET", f"/{conversation['id']}/media/counts")
    assert counts == {"image": 1, "video": 0, "audio": 0, "doc": 0, "links": 3}
    images = inbox.ok("GET", f"/{conversation['id']}/media", category="image")["items"]
    assert [m["type"] for m in images] == ["image"]
    assert inbox.ok("GET", f"/{conversation['id']}/media", category="doc")["items"] == []
    assert inbox.call("GET", f"/{conversation['id']}/media", category="pdf").status_code == 400
    links = inbox.ok("GET", f"/{conversation['id']}/links")["items"]
    assert [link["url"] for link in links] == ["https://fotos.test/1", "https://ejemplo.test/a", "http://otro.test/b?x=1"]
    first = inbox.ok("GET", f"/{conversation['id']}/links", limit=1)
    assert [link["url"] for link in first["items"]] == ["https://fotos.test/1"]
    rest = inbox.ok("GET", f"/{conversation['id']}/links", limit=5, before=first["nextCursor"])
    assert [link["url"] for link in rest["items"]] == ["https://ejemplo.test/a", "http://otro.test/b?x=1"]

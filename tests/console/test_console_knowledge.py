"""The console's knowledge base without JavaScript: a price list and a policy uploaded and read,
a note written, a private page refused with the reason by its field, the search tester showing
similarity and word matches (and not counting in the insights), an unanswered question answered
with a note in place, and a supervisor who may look but not change."""

import io

from tests import factories
from tests.browser_forms import csrf_of, sign_in
from tests.knowledge.test_knowledge_documents import POLICY, PRICE_LIST


def test_the_library_reads_uploads_and_notes_and_refuses_what_it_cannot(client, api):
    owner = factories.owner(api)
    org = owner["org"]["id"]
    sign_in(client, email="owner@example.com")
    page = f"/console/{org}/bot/knowledge"
    assert "The library is empty" in client.get(page).text
    for content, name in ((PRICE_LIST, "precios.pdf"), (POLICY, "politica.docx")):
        done = client.post(page, data={"csrf": csrf_of(client.get(page)), "tags": "tienda",
                                       "file": (io.BytesIO(content), name)}, content_type="multipart/form-data")
        assert done.status_code == 302, done.text
    refused = client.post(page, data={"csrf": csrf_of(client.get(page)), "file": (io.BytesIO(b"\x00\x01" * 50), "x.pdf")},
                          content_type="multipart/form-data")
    assert refused.status_code == 400 and "Upload a PDF, DOCX, TXT, MD or CSV file" in refused.text
    note = client.post(f"{page}/notes", data={"csrf": csrf_of(client.get(page)), "title": "Parking",
                                              "content": "Hay parking gratis detrás.", "tags": "local, coche"})
    assert note.status_code == 302
    private = client.post(f"{page}/url", data={"csrf": csrf_of(client.get(page)), "url": "http://192.168.1.10/wiki",
                                               "sync_every_hours": "24"})
    assert private.status_code == 400 and 'id="error-url"' in private.text and "not a public address" in private.text
    listing = client.get(page).text
    assert listing.count(">Ready<") == 3 and "precios" in listing and "#local" in listing and "<meta http-equiv" not in listing

    docs = api.get(f"/organizations/{org}/bot/knowledge", token=owner["token"]).json["data"]
    parking = next(d for d in docs if d["title"] == "Parking")
    saved = client.post(f"{page}/{parking['id']}", data={"csrf": csrf_of(client.get(f"{page}/{parking['id']}")),
                                                          "title": "Aparcamiento", "content": "Parking de pago: 2 €/h.",
                                                          "tags": "local"})
    assert saved.status_code == 302 and "Parking de pago" in client.get(f"{page}/{parking['id']}").text

    tester = client.get(f"{page}/search?q=¿cuánto+cuesta+el+envío?&min=0.3&k=3")
    assert tester.status_code == 200 and "5 euros" in tester.text and "similarity" in tester.text
    assert "matched by words" in tester.text and "<meter" in tester.text
    assert "Nothing close enough" in client.get(f"{page}/search?q=bicicletas+eléctricas").text
    assert client.get(f"{page}/search?q=x&min=7").status_code == 400
    insights = api.get(f"/organizations/{org}/bot/knowledge/insights", token=owner["token"]).json["data"]
    assert insights["queries"] == 0  # the tester's searches are not the customers'

    deleted = client.post(f"{page}/{parking['id']}/delete", data={"csrf": csrf_of(client.get(page))})
    assert deleted.status_code == 302 and "Aparcamiento" not in client.get(page).text


def test_an_unanswered_question_is_answered_with_a_note_from_the_insights(client, api):
    owner = factories.owner(api)
    org = owner["org"]["id"]
    for _ in range(2):
        api.post(f"/organizations/{org}/bot/knowledge/search", {"query": "¿Hacen envíos a Canarias?"}, token=owner["token"])
    sign_in(client, email="owner@example.com")
    page = f"/console/{org}/bot/knowledge/insights"
    shown = client.get(page).text
    assert "¿Hacen envíos a Canarias?" in shown and "asked 2×" in shown and "Answer with a note" in shown
    key = api.get(f"/organizations/{org}/bot/knowledge/insights", token=owner["token"]).json["data"]["unanswered"][0]["questionKey"]
    answered = client.post(f"/console/{org}/bot/knowledge/notes", data={
        "csrf": csrf_of(client.get(page)), "resolves": key, "title": "Envíos a Canarias", "content": "Sí, por 12 €."})
    assert answered.status_code == 302 and "insights" in answered.headers["Location"]
    assert "Every question found an answer" in client.get(page).text
    assert "2 uses" not in client.get(f"{page}?dias=7").text  # nothing was found yet by any search


def test_a_supervisor_may_look_but_not_change(client, api):
    owner = factories.owner(api)
    org = owner["org"]["id"]
    api.post(f"/organizations/{org}/bot/knowledge/notes", {"title": "Horario", "content": "De 9 a 20."}, token=owner["token"])
    factories.add_member(api, org, "supervisor", "sup@example.com")
    sign_in(client, email="sup@example.com")
    page = client.get(f"/console/{org}/bot/knowledge")
    assert page.status_code == 200 and "Horario" in page.text
    assert "Upload a file" not in page.text and "Re-read now" not in page.text
    assert client.post(f"/console/{org}/bot/knowledge/notes", data={"csrf": csrf_of(page), "title": "x", "content": "y"}).status_code == 403
    assert client.get(f"/console/{org}/bot/knowledge/search?q=horario").status_code == 200

"""The browser inbox's pages over the Flask test client: what they show and what their forms do
(the real browser walks it in tests/e2e/test_inbox_browser.py)."""

import re

from tests.browser_forms import csrf_of, sign_in


def _signed_in(client):
    answer = sign_in(client, email="owner@example.com")
    assert answer.status_code == 302, answer.text


def test_the_inbox_lists_opens_and_acts_on_a_conversation(inbox, client, line):
    conversation = inbox.customer("Hola, ¿tienen pan?")
    _signed_in(client)
    start = client.get("/inbox")
    assert start.status_code == 302 and start.headers["Location"].endswith(f"/inbox/{line.org_id}")
    page = client.get(f"/inbox/{line.org_id}", headers={"Accept-Language": "es"})
    assert page.status_code == 200
    assert "Ana Pérez" in page.text and "Hola, ¿tienen pan?" in page.text and "Sin asignar" in page.text

    opened = client.get(f"/inbox/{line.org_id}/c/{conversation['id']}")
    assert opened.status_code == 200 and "Reply window open" in opened.text
    assert inbox.ok("GET", f"/{conversation['id']}")["unread"] is False  # opening reads it
    csrf = csrf_of(opened)
    base = f"/inbox/{line.org_id}/c/{conversation['id']}/do"
    sent = client.post(f"{base}/reply", data={"csrf": csrf, "body": "Sí, recién salido"}, headers={"HX-Request": "true"})
    assert sent.status_code == 200 and "Sí, recién salido" in sent.text
    assert client.post(f"{base}/assign_me", data={"csrf": csrf}).status_code == 303
    assert client.post(f"{base}/tag", data={"csrf": csrf, "tag_name": "VIP"}).status_code == 303
    assert client.post(f"{base}/note", data={"csrf": csrf, "body": "Cliente frecuente"}).status_code == 303
    closed = client.post(f"{base}/close", data={"csrf": csrf, "category": "ventas", "resolution": "vendido"},
                         headers={"HX-Request": "true"})
    assert closed.status_code == 200 and "Cliente frecuente" in closed.text and "VIP" in closed.text
    detail = inbox.ok("GET", f"/{conversation['id']}")
    assert detail["status"] == "closed" and detail["resolution"] == "vendido" and detail["assigneeUserId"]
    empty = client.post(f"{base}/reply", data={"csrf": csrf, "body": "  "}, headers={"HX-Request": "true"})
    assert empty.status_code == 400 and "Write a message" in empty.text
    assert client.post(f"{base}/reply", data={"body": "sin csrf"}).status_code == 403
    assert client.post(f"{base}/explode", data={"csrf": csrf}).status_code == 404


def test_pages_need_a_signed_in_member(inbox, client, line, api):
    assert client.get(f"/inbox/{line.org_id}").status_code == 302  # to sign in
    api.signup(email="otra@example.com")
    sign_in(client, email="otra@example.com")
    assert client.get(f"/inbox/{line.org_id}").status_code == 403
    assert client.get("/inbox").status_code == 200  # no organization yet: says so


def test_the_list_partial_filters_and_the_event_stream_needs_the_session(inbox, client, line):
    inbox.customer("uno", wa_id="5215598765432", name="Beto")
    inbox.customer("dos")
    _signed_in(client)
    listed = client.get(f"/inbox/{line.org_id}/list?q=beto")
    assert listed.status_code == 200 and "Beto" in listed.text and "Ana Pérez" not in listed.text
    assert len(re.findall(r'data-conversation-id="', client.get(f"/inbox/{line.org_id}/list").text)) == 2


def test_a_long_thread_loads_older_messages_on_demand(inbox, client, line):
    conversation = inbox.customer("primero")
    for i in range(64):
        sent = inbox.api.client.post(f"/organizations/{line.org_id}/messages", json={
            "phoneNumberId": line.number["id"], "to": "5215512345678", "type": "text", "payload": {"body": f"mensaje {i}"}},
            headers={"Authorization": f"Bearer {inbox.token}"})
        assert sent.status_code == 201
        if i == 1:
            inbox.ok("POST", f"/{conversation['id']}/notes", {"body": "nota vieja"}, expect=201)
    _signed_in(client)
    page = client.get(f"/inbox/{line.org_id}/c/{conversation['id']}")
    assert "mensaje 63" in page.text and "mensaje 3<" not in page.text and "Older messages" in page.text
    older_url = re.search(r'hx-get="([^"]*/older\?before=[^"]+)"', page.text).group(1).replace("&amp;", "&")
    older = client.get(older_url)
    assert older.status_code == 200
    assert "primero" in older.text and "mensaje 3<" in older.text and "nota vieja" in older.text
    assert "mensaje 63" not in older.text and "Older messages" not in older.text


def test_the_list_loads_more_rows_in_place(inbox, client, line):
    for i in range(42):
        inbox.line.customer_writes({"type": "text", "text": {"body": f"hola {i}"}}, wa_id=f"52155000{i:05d}", name=f"Cliente {i}")
    inbox.line.deliver()
    _signed_in(client)
    first = client.get(f"/inbox/{line.org_id}/list")
    assert len(re.findall(r'data-conversation-id="', first.text)) == 40 and "More conversations" in first.text
    more_url = re.search(r'hx-get="([^"]*rows=1[^"]*)"', first.text).group(1).replace("&amp;", "&")
    more = client.get(more_url)
    assert len(re.findall(r'data-conversation-id="', more.text)) == 2
    assert "More conversations" not in more.text and 'id="list"' not in more.text
    assert "Cliente 0<" in more.text  # the oldest activity comes last


def test_an_action_without_javascript_comes_back_to_the_conversation(inbox, client, line):
    """A form posted without JavaScript redirects to the conversation it acted on, which shows the change."""
    conversation = inbox.customer("¿Abren el domingo?")
    _signed_in(client)
    csrf = csrf_of(client.get(f"/inbox/{line.org_id}/c/{conversation['id']}"))
    posted = client.post(f"/inbox/{line.org_id}/c/{conversation['id']}/do/note",
                         data={"csrf": csrf, "body": "Preguntar a cocina"})
    assert posted.status_code == 303
    assert posted.headers["Location"].endswith(f"/inbox/{line.org_id}/c/{conversation['id']}")
    landed = client.get(posted.headers["Location"])
    assert landed.status_code == 200
    assert "¿Abren el domingo?" in landed.text and "Preguntar a cocina" in landed.text


def test_the_composer_asks_for_a_chosen_templates_values(inbox, client, line):
    """Issue 44, item 12: the composer's template fields answered 500 whatever was chosen: the page
    helper's own `template` argument clashed with the template the page shows."""
    import requests

    created = line.api.post(f"/organizations/{line.org_id}/templates", {
        "businessAccountId": line.waba["id"], "name": "pedido_listo", "language": "es", "category": "UTILITY",
        "components": [{"type": "BODY", "text": "Hola {{1}}, tu pedido {{2}} está listo",
                        "example": {"body_text": [["Ana", "A-17"]]}}]}, token=line.owner["token"])
    assert created.status_code == 201, created.json
    assert requests.post(f"{line.netsim_url}/_control/templates/{line.account['wabaId']}/status", timeout=5, json={
        "name": "pedido_listo", "language": "es", "status": "APPROVED"}).status_code == 200
    line.deliver()
    conversation = inbox.customer("Hola")
    _signed_in(client)
    base = f"/inbox/{line.org_id}/c/{conversation['id']}/template-fields"
    fields = client.get(f"{base}?template_id={created.json['data']['id']}", headers={"HX-Request": "true"})
    assert fields.status_code == 200, fields.text
    assert fields.text.count('name="var"') == 2
    nothing = client.get(f"{base}?template_id=01a20000-0000-7000-8000-000000000000", headers={"HX-Request": "true"})
    assert nothing.status_code == 200 and 'name="var"' not in nothing.text

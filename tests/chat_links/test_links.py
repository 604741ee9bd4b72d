"""Issue 24, part 2: chat links. Made for the organization's own numbers (a restricted key only for
its numbers), archived and brought back by DELETE, a public short address that redirects to wa.me
and counts people's clicks (link previews and crawlers are redirected, not counted; an unknown or
archived slug is the same 404), statistics, and QR codes that read back as the short address."""

import io

import pytest
import zxingcpp
from PIL import Image

from appliance.chat_links import clicks
from tests.factories import another_number
from tests.problems import assert_problem, error_fields

PHONE_UA = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/126.0 Mobile Safari/537.36"


def _links(line):
    return f"/organizations/{line.org_id}/chatapp-links"


def _make(line, **body):
    answer = line.api.post(_links(line), {"phoneNumberId": line.number["id"], "name": "Afiche", **body},
                           token=line.owner["token"])
    assert answer.status_code == 201, answer.json
    return answer.json["data"]


def _click(client, link, ua=PHONE_UA, referrer=None, address="203.0.113.7"):
    headers = {"User-Agent": ua, **({"Referer": referrer} if referrer else {})}
    return client.get("/l/" + link["slug"], headers=headers, environ_base={"REMOTE_ADDR": address})


def test_a_link_redirects_to_whatsapp_and_counts_people_not_previews(line, client):
    link = _make(line, prefilledMessage="Hola, vi el afiche 🥐", campaignTag="afiche-nov", metadata={"sede": "centro"})
    digits = "".join(ch for ch in line.number["displayPhoneNumber"] if ch.isdigit())
    assert link["url"] == f"http://appliance.test/l/{link['slug']}" and len(link["slug"]) == 8  # the tests' base URL
    assert link["waMeUrl"] == f"https://wa.me/{digits}?text=Hola%2C%20vi%20el%20afiche%20%F0%9F%A5%90"
    assert (link["metadata"], link["campaignTag"], link["archived"]) == ({"sede": "centro"}, "afiche-nov", False)
    answer = _click(client, link, referrer="https://www.instagram.com/p/abc")
    assert answer.status_code == 302 and answer.headers["Location"] == link["waMeUrl"]
    assert answer.headers["Cache-Control"] == "no-store"
    _click(client, link, address="203.0.113.8")
    _click(client, link)  # the same visitor again: a click, not a new visitor
    for preview in ("WhatsApp/2.23.20.0 A", "facebookexternalhit/1.1", "TelegramBot (like TwitterBot)",
                    "Slackbot-LinkExpanding 1.0", "Mozilla/5.0 (compatible; Googlebot/2.1)", "curl/8.5.0", ""):
        assert _click(client, link, ua=preview).status_code == 302
    assert client.head("/l/" + link["slug"], headers={"User-Agent": PHONE_UA}).status_code == 302
    stats = line.get(f"/chatapp-links/{link['id']}/stats")
    assert (stats["clicks"], stats["uniqueClicks"]) == (3, 2)
    assert {r["host"]: r["clicks"] for r in stats["byReferrer"]} == {"www.instagram.com": 1, "(direct)": 2}
    assert sum(d["clicks"] for d in stats["byDay"]) == 3


def test_stats_count_the_new_conversations_that_began_with_the_prefilled_text(line, client):
    link = _make(line, prefilledMessage="Hola, vi el afiche 🥐")
    _click(client, link)
    for wa_id, first, then in (("573001110001", "Hola, vi el afiche 🥐", None),  # came through the link
                               ("573001110002", "Buenas, ¿abren hoy?", "Hola, vi el afiche 🥐"),  # not its first
                               ("573001110003", "Hola, vi el afiche 🥐 ", "¿Tienen croissants?")):  # and wrote on
        line.customer_writes({"type": "text", "text": {"body": first}}, wa_id=wa_id)
        line.deliver()
        if then:
            line.customer_writes({"type": "text", "text": {"body": then}}, wa_id=wa_id)
            line.deliver()
    assert line.get(f"/chatapp-links/{link['id']}/stats")["conversations"] == 2


def test_archived_and_unknown_slugs_are_the_same_404_and_delete_toggles(line, client):
    link = _make(line)
    archived = line.api.delete(f"{_links(line)}/{link['id']}", token=line.owner["token"]).json["data"]
    assert archived["archived"] is True
    gone, unknown = _click(client, link), client.get("/l/ZZZZZZZZ")
    assert gone.status_code == unknown.status_code == 404 and gone.data == unknown.data
    assert "Este enlace no existe" in client.get("/l/ZZZZZZZZ", headers={"Accept-Language": "es-CO"}).text
    assert client.get("/l/short").status_code == 404
    assert [l["id"] for l in line.get("/chatapp-links")] == []
    assert [l["id"] for l in line.get("/chatapp-links?includeArchived=true")] == [link["id"]]
    back = line.api.delete(f"{_links(line)}/{link['id']}", token=line.owner["token"]).json["data"]
    assert back["archived"] is False and _click(client, link).status_code == 302
    changed = line.api.patch(f"{_links(line)}/{link['id']}", {"prefilledMessage": "Quiero pan"}, token=line.owner["token"])
    assert changed.json["data"]["waMeUrl"].endswith("?text=Quiero%20pan")
    assert _click(client, link).headers["Location"].endswith("?text=Quiero%20pan")  # at once, not after the cache


@pytest.mark.parametrize("fmt, size", [("PNG", 512), ("PNG", 64), ("SVG", 300)])
def test_the_qr_code_reads_back_as_the_short_address(line, fmt, size):
    link = _make(line)
    answer = line.api.client.get(f"{_links(line)}/{link['id']}/qr?format={fmt}&size={size}",
                                 headers={"Authorization": f"Bearer {line.owner['token']}"})
    assert answer.status_code == 200
    if fmt == "SVG":
        assert answer.headers["Content-Type"].startswith("image/svg+xml") and b"<svg" in answer.data
        return
    image = Image.open(io.BytesIO(answer.data))
    assert image.format == "PNG" and size // 2 <= image.width <= size
    [found] = zxingcpp.read_barcodes(image.convert("L"))
    assert found.text == link["url"]


@pytest.mark.parametrize("query", ["format=GIF", "size=63", "size=2049", "size=big"])
def test_bad_qr_requests_are_refused(line, query):
    link = _make(line)
    answer = line.api.get(f"{_links(line)}/{link['id']}/qr?{query}", token=line.owner["token"])
    assert answer.status_code == 400


@pytest.mark.parametrize("body, field", [
    ({"name": ""}, "name"), ({"name": "x" * 121}, "name"), ({"phoneNumberId": "01a20000-0000-7000-8000-000000000000"}, "phoneNumberId"),
    ({"metadata": {"x": "y" * 5000}}, "metadata"), ({"prefilledMessage": "x" * 1001}, "prefilledMessage"), ({"colour": "red"}, "colour")])
def test_bad_links_are_refused_by_field(line, body, field):
    answer = line.api.post(_links(line), {"phoneNumberId": line.number["id"], "name": "A", **body}, token=line.owner["token"])
    assert answer.status_code == 400 and field in error_fields(answer), answer.json


def test_a_key_for_some_numbers_and_another_organization_see_only_their_own(line, api):
    link = _make(line)
    other = another_number(line.org_id)
    keys = f"/organizations/{line.org_id}/api-keys"
    key = api.post(keys, {"name": "otra sede", "phoneNumberIds": [other["phoneNumberPk"]]}, token=line.owner["token"]).json["data"]["secret"]
    listed = api.client.get(_links(line), headers={"X-Api-Key": key})
    assert listed.status_code == 200 and listed.json["data"] == []
    # Another number's link reads as a missing one (issue 44); making one there is 403.
    assert_problem(api.client.get(f"{_links(line)}/{link['id']}", headers={"X-Api-Key": key}), 404, "chat_link_not_found")
    made = api.client.post(_links(line), headers={"X-Api-Key": key}, json={"phoneNumberId": line.number["id"], "name": "x"})
    assert_problem(made, 403, "phone_number_not_allowed")
    rival = api.signup(email="rival@example.com")["tokens"]["accessToken"]
    theirs = api.post("/organizations", {"name": "Rival", "slug": "rival", "billingEmail": "r@r.test"}, token=rival).json["data"]["id"]
    assert_problem(api.get(f"/organizations/{theirs}/chatapp-links/{link['id']}", token=rival), 404, "chat_link_not_found")
    answer = api.post(f"/organizations/{theirs}/chatapp-links", {"phoneNumberId": line.number["id"], "name": "x"}, token=rival)
    assert answer.status_code == 400 and "phoneNumberId" in error_fields(answer)


def test_is_person_tells_previews_from_people():
    assert clicks.is_person(PHONE_UA) and not clicks.is_person("WhatsApp/2.24.1 i") and not clicks.is_person("")


def test_clicks_fall_on_the_organizations_own_dates_even_half_an_hour_off(line):
    """India is UTC+5:30: a click at 23:50 and one at 00:10 local are on two dates."""
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from appliance.chat_links.models import LinkClick
    from appliance.core import runtime
    from appliance.core.rows import insert_many
    link = _make(line)
    line.api.patch(f"/organizations/{line.org_id}", {"timezone": "Asia/Kolkata"}, token=line.owner["token"])
    zone = ZoneInfo("Asia/Kolkata")
    times = [datetime(2026, 11, 20, 23, 50, tzinfo=zone), datetime(2026, 11, 21, 0, 10, tzinfo=zone)]
    with runtime.get().db.unit_of_work(write=True) as session:
        insert_many(session, LinkClick.__table__, [{"link_id": link["id"], "clicked_ms": int(t.timestamp() * 1000),
                                                    "referrer_host": None, "agent_family": "android", "visitor": str(n)}
                                                   for n, t in enumerate(times)])
    stats = line.get(f"/chatapp-links/{link['id']}/stats")
    assert stats["byDay"] == [{"date": "2026-11-20", "clicks": 1}, {"date": "2026-11-21", "clicks": 1}]

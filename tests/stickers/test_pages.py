"""The console's Stickers page (a grid, an upload form saying what normalization did or why it
refused, delete buttons, an empty state saying what to do), without JavaScript; and the sandbox's
customer sending a sample sticker from the inbox."""

import io
import re

from appliance import sandbox
from appliance.netsim.stickers import webp_facts
from tests.browser_forms import csrf_of, sign_in
from tests.factories import add_member
from tests.stickers import pictures


def _upload(client, org_id, page, content: bytes, name: str = "", filename: str = "sol.png"):
    return client.post(f"/console/{org_id}/stickers", content_type="multipart/form-data",
                       data={"csrf": csrf_of(page), "name": name, "file": (io.BytesIO(content), filename, "image/png")})


def test_the_page_adds_shows_and_deletes_stickers_saying_what_was_done(client, owner):
    org_id = owner["org"]["id"]
    sign_in(client, email="owner@example.com")
    page = client.get(f"/console/{org_id}/stickers")
    assert page.status_code == 200 and "No stickers yet. Add a WEBP or PNG below" in page.text
    assert f'href="/console/{org_id}/stickers"' in page.text  # in the navigation
    added = _upload(client, org_id, page, pictures.drawing(800, 600), name="Sol")
    assert added.status_code == 302 and "done=added" in added.location
    shown = client.get(added.location)
    assert re.search(r"Sticker “Sol” added\. Resized from 800×600 to fit 512×512 and re-encoded as WEBP", shown.text)
    [sticker_id] = re.findall(r'data-sticker="([^"]+)"', shown.text)
    assert client.get(f"/console/{org_id}/stickers/{sticker_id}/file").mimetype == "image/webp"

    refused = _upload(client, org_id, shown, pictures.animation(10, 512, 512, noisy=True), filename="tv.webp")
    assert refused.status_code == 422 and "data-refusal" in refused.text
    assert "Even at the lowest quality this animated sticker is" in refused.text
    wrong = _upload(client, org_id, shown, b"GIF89a not a sticker", filename="x.png")
    assert wrong.status_code == 400 and "A sticker is a WEBP or PNG picture" in wrong.text
    assert len(re.findall(r'data-sticker="', client.get(f"/console/{org_id}/stickers").text)) == 1

    deleted = client.post(f"/console/{org_id}/stickers/{sticker_id}/delete", data={"csrf": csrf_of(shown)})
    assert deleted.status_code == 302
    after = client.get(deleted.location)
    assert "Sticker deleted." in after.text and 'data-sticker="' not in after.text


def test_an_agent_sees_the_library_without_its_forms(client, api, owner):
    org_id = owner["org"]["id"]
    add_member(api, org_id, "agent", "agente@example.com")
    sign_in(client, email="agente@example.com")
    page = client.get(f"/console/{org_id}/stickers")
    assert page.status_code == 200 and "An owner or an administrator can add them here." in page.text
    assert 'name="file"' not in page.text
    assert _upload(client, org_id, page, pictures.drawing(64, 64)).status_code == 403


def test_the_sandbox_customer_sends_a_sample_sticker(client, api, owner):
    org_id = owner["org"]["id"]
    sign_in(client, email="owner@example.com")
    page = client.get(f"/console/{org_id}/whatsapp")
    assert client.post(f"/console/{org_id}/sandbox", data={"csrf": csrf_of(page)}).status_code == 302
    inbox = client.get(f"/inbox/{org_id}")
    number_pk = re.search(r'name="phone_number_pk" value="([^"]+)"', inbox.text).group(1)
    route = f"/console/{org_id}/sandbox/customer/sticker"
    for sample in ("smile", "heart"):
        sent = client.post(route, data={"csrf": csrf_of(inbox), "phone_number_pk": number_pk, "sample": sample},
                           headers={"X-Requested-With": "fetch"})
        assert sent.status_code == 204
    kept = [m for m in sandbox.simulator().network.media.values() if m.mime_type == "image/webp"]
    assert [webp_facts(m.content).animated for m in kept[-2:]] == [False, True]
    unknown = client.post(route, data={"csrf": csrf_of(inbox), "phone_number_pk": number_pk, "sample": "cat"})
    assert unknown.status_code == 400
    elsewhere = client.post(route, data={"csrf": csrf_of(inbox), "phone_number_pk": org_id, "sample": "smile"})
    assert elsewhere.status_code == 404

"""A WhatsApp number's page without JavaScript: the business profile edited on the network (a field
emptied is cleared there), the picture uploaded and shown, mistakes by their field with what was
typed kept, a network that does not answer, and who may do what."""

import io
import re

import requests

from tests.browser_forms import csrf_of, sign_in
from tests.channels.test_business_profile import _png
from tests.factories import add_member

PROFILE = {"about": "Pan recién hecho", "description": "Panadería de barrio\ndesde 1987", "address": "Calle 5 #3-20",
           "email": "hola@sol.mx", "vertical": "RESTAURANT", "websites": ["https://sol.mx", ""]}


def _number_page(line):
    return f"/console/{line.org_id}/whatsapp/numbers/{line.number['id']}"


def _on_network(line):
    return line.simulator.network.numbers[line.account["numbers"][0]["id"]].profile


def test_the_profile_is_edited_on_the_network_and_a_field_emptied_is_cleared(line):
    client, page = line.client, _number_page(line)
    sign_in(client, email="owner@example.com")
    assert f'href="{page}"' in client.get(f"/console/{line.org_id}/whatsapp").text  # reached from the numbers
    shown = client.get(page)
    assert shown.status_code == 200 and "Business profile" in shown.text and "No picture yet." in shown.text
    saved = client.post(page, data={"csrf": csrf_of(shown), **PROFILE})
    assert saved.status_code == 302 and "done=profile_saved" in saved.headers["Location"]
    assert _on_network(line)["about"] == "Pan recién hecho" and _on_network(line)["websites"] == ["https://sol.mx"]
    again = client.get(saved.headers["Location"])
    assert "Profile saved on WhatsApp." in again.text and 'value="hola@sol.mx"' in again.text
    assert '<option value="RESTAURANT" selected>Restaurant</option>' in again.text

    cleared = client.post(page, data={"csrf": csrf_of(again), **PROFILE, "email": "", "websites": ["", ""]})
    assert cleared.status_code == 302
    assert _on_network(line)["email"] == "" and _on_network(line)["websites"] == []

    wrong = client.post(page, data={"csrf": csrf_of(again), **PROFILE, "about": "", "email": "no",
                                    "websites": ["ftp://sol.mx", ""]})
    assert wrong.status_code == 400
    errors = dict(re.findall(r'<span class="field-error" id="error-([\w-]+)">([^<]+)</span>', wrong.text))
    assert {"about", "email", "websites-0"} <= set(errors), errors
    assert 'value="no"' in wrong.text and 'value="ftp://sol.mx"' in wrong.text  # what was typed stays
    assert _on_network(line)["about"] == "Pan recién hecho"


def test_the_picture_is_uploaded_shown_and_anything_else_refused(line):
    client, page = line.client, _number_page(line)
    sign_in(client, email="owner@example.com")
    form = client.get(page)
    uploaded = client.post(f"{page}/picture", data={"csrf": csrf_of(form), "file": (io.BytesIO(_png()), "logo.png")},
                           content_type="multipart/form-data")
    assert uploaded.status_code == 302 and "done=picture_saved" in uploaded.headers["Location"]
    shown = client.get(page).text
    picture = re.search(r'<img src="([^"]+)" alt="Profile picture"', shown).group(1)
    assert requests.get(line.netsim_url + "/_pictures/" + picture.rsplit("/", 1)[1], timeout=5).content == _png()
    disguised = client.post(f"{page}/picture", data={"csrf": csrf_of(form), "file": (io.BytesIO(b"GIF89a.."), "a.png")},
                            content_type="multipart/form-data")
    assert disguised.status_code == 400 and "must be a JPG or PNG" in disguised.text
    assert 'id="error-file"' in disguised.text and picture in disguised.text  # the profile stays shown
    empty = client.post(f"{page}/picture", data={"csrf": csrf_of(form), "file": (io.BytesIO(b""), "")},
                        content_type="multipart/form-data")
    assert empty.status_code == 400 and "Choose a JPG or PNG picture." in empty.text


def test_a_network_that_does_not_answer_leaves_the_page_up(line):
    client, page = line.client, _number_page(line)
    sign_in(client, email="owner@example.com")
    requests.put(f"{line.netsim_url}/_control/faults", json={"errorRate": 1.0}, timeout=5)
    try:
        down = client.get(page)
        assert down.status_code == 200 and "did not give this number" in down.text
        assert 'name="about"' not in down.text
    finally:
        requests.put(f"{line.netsim_url}/_control/faults", json={"errorRate": 0.0}, timeout=5)


def test_an_agent_reads_and_a_stranger_finds_nothing(line, api):
    client, page = line.client, _number_page(line)
    add_member(line.api, line.org_id, "agent", "agent@example.com")
    sign_in(client, email="agent@example.com")
    read = client.get(page)
    assert read.status_code == 200 and "Save profile" not in read.text and "Upload picture" not in read.text
    assert client.post(page, data={"csrf": csrf_of(read), **PROFILE}).status_code == 403
    client.post("/sign-out", data={"csrf": csrf_of(read)})
    stranger = api.signup(email="eve@example.com")["tokens"]["accessToken"]
    theirs = api.post("/organizations", {"name": "Eve", "slug": "eve", "billingEmail": "e@eve.test"},
                      token=stranger).json["data"]["id"]
    sign_in(client, email="eve@example.com")
    assert client.get(f"/console/{theirs}/whatsapp/numbers/{line.number['id']}").status_code == 404

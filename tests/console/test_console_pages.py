"""The console's pages over the Flask test client, as a browser without JavaScript uses them: the
first run, sign-up, password reset, and each section's forms, permission-aware and checked by the
API's own schemas."""

import re

import pyotp
from sqlmodel import select

from appliance.core import runtime
from appliance.organizations.models import Organization
from appliance.users.models import User
from tests.browser_forms import PASSWORD, csrf_of, sign_in
from tests.factories import add_member


def _post(client, path, **data):
    page = client.get(path)
    return client.post(path, data={"csrf": csrf_of(page), **data})


def _post_from(client, page_path, action, **data):
    """Submit a form of `page_path` whose action is `action`."""
    page = client.get(page_path)
    return client.post(action, data={"csrf": csrf_of(page), **data})


SETUP = {"name": "Olga", "email": "olga@sol.test", "password": PASSWORD, "org_name": "Panadería Sol", "country": "co",
         "currency": "cop", "timezone": "America/Bogota", "hours-mon-open": "1", "hours-mon-from": "08:00",
         "hours-mon-to": "17:00"}


def test_the_first_run_creates_the_owner_and_the_business_once(client):
    assert client.get("/").headers["Location"].endswith("/setup")
    refused = _post(client, "/setup", **{**SETUP, "password": "x", "timezone": "Mars/Base", "hours-mon-to": "07:00"})
    assert refused.status_code == 400
    for message in ("between 8 and 128", "Unknown time zone", "open must be before close"):
        assert message in refused.text
    assert 'value="Panadería Sol"' in refused.text  # what was typed stays
    with runtime.get().db.unit_of_work(write=False) as session:
        assert session.exec(select(User)).all() == []  # nothing half-written
    done = _post(client, "/setup", **SETUP)
    assert done.status_code == 302 and "/whatsapp?welcome=1" in done.headers["Location"]
    org_id = done.headers["Location"].split("/")[2]
    page = client.get(f"/console/{org_id}/organization")
    assert page.status_code == 200 and 'value="America/Bogota"' in page.text and 'value="CO"' in page.text
    assert 'name="hours-mon-open" value="1" checked' in page.text and 'value="17:00"' in page.text
    assert client.get("/setup").status_code == 404
    assert client.get("/").status_code == 200


def test_the_first_run_offers_countries_and_currencies_as_lists(client):
    """Issue 43: countries and currencies are chosen from lists named in the page's language, so
    "Mexico" is never cut to ME (Montenegro); the time zone left empty is the country's."""
    english = client.get("/setup", headers={"Accept-Language": "en"}).text
    assert '<select name="country"' in english and '<select name="currency"' in english
    # Each country carries its main zone, which the zone field follows while left empty (console.js).
    assert '<option value="MX" data-zone="America/Mexico_City">Mexico</option>' in english
    assert '<option value="MXN">MXN · Mexican Peso</option>' in english
    spanish = client.get("/setup", headers={"Accept-Language": "es"}).text
    assert '<option value="MX" data-zone="America/Mexico_City">México</option>' in spanish
    assert '<option value="MXN">MXN · Peso mexicano</option>' in spanish
    typed = _post(client, "/setup", **{**SETUP, "country": "Mexico", "currency": "pesos"})  # what a script might post
    assert typed.status_code == 400 and "Unknown country" in typed.text and "Unknown currency" in typed.text
    done = _post(client, "/setup", **{**SETUP, "country": "MX", "currency": "MXN", "timezone": ""})
    assert done.status_code == 302, done.text
    with runtime.get().db.unit_of_work(write=False) as session:
        organization = session.exec(select(Organization)).one()
        assert (organization.country, organization.currency, organization.timezone) == (
            "MX", "MXN", "America/Mexico_City")


def test_the_organization_page_corrects_country_and_currency(client, api, owner):
    org_id, path = owner["org"]["id"], f"/console/{owner['org']['id']}/organization"
    with runtime.get().db.unit_of_work(write=True) as session:
        session.get(Organization, org_id).currency = "PES"  # what the cut field stored before
    sign_in(client, email="owner@example.com")
    page = client.get(path).text
    assert '<option value="PES" selected>PES (not a code in use: choose one)</option>' in page
    assert '<option value="MXN">MXN · Mexican Peso</option>' in page
    fields = {"org_name": "Acme", "billing_email": "billing@acme.test", "timezone": "America/Mexico_City"}
    refused = _post_from(client, path, path, **fields, country="MX", currency="PES")
    assert refused.status_code == 400 and "Unknown currency" in refused.text
    saved = _post_from(client, path, path, **fields, country="MX", currency="MXN")
    assert saved.status_code == 302
    data = api.get(f"/organizations/{org_id}", token=owner["token"]).json["data"]
    assert (data["country"], data["currency"]) == ("MX", "MXN")
    assert '<option value="MXN" selected>MXN · Mexican Peso</option>' in client.get(path).text


def test_sign_up_forgot_password_and_the_sign_in_page_link_them(client, owner, mailbox):
    sign_in_page = client.get("/sign-in")
    assert "/forgot-password" in sign_in_page.text and "/sign-up" in sign_in_page.text
    taken = _post(client, "/sign-up", name="Beto", email="owner@example.com", password=PASSWORD)
    assert taken.status_code == 409 and "already uses this email" in taken.text
    created = _post(client, "/sign-up", name="Beto", email="beto@example.com", password=PASSWORD)
    assert created.status_code == 302 and created.headers["Location"].endswith("/console")
    assert client.get("/console").headers["Location"].endswith("/console/organizations/new")
    client.post("/sign-out", data={"csrf": csrf_of(client.get("/console/account"))})
    sent = _post(client, "/forgot-password", email="beto@example.com")
    assert sent.status_code == 200 and "on its way" in sent.text
    unknown = _post(client, "/forgot-password", email="nobody@example.com")
    assert "on its way" in unknown.text  # the same answer: nothing tells which addresses exist
    assert re.search(r"/reset-password\?token=", mailbox.last_to("beto@example.com").get_content())


def test_navigation_shows_only_what_the_person_may_open(client, api, owner):
    org_id = owner["org"]["id"]
    add_member(api, org_id, "agent", "agent@example.com")
    sign_in(client, email="agent@example.com")
    page = client.get(f"/console/{org_id}/organization")
    assert page.status_code == 200
    nav = re.search(r'<nav class="nav-sheet".*?</nav>', page.text, re.S).group(0)
    assert "/team" in nav and "/api-keys" not in nav and "/whatsapp" not in nav
    assert "disabled" in page.text  # the organization's form is read-only for an agent
    assert client.get(f"/console/{org_id}/api-keys").status_code == 403
    refused = _post_from(client, f"/console/{org_id}/organization", f"/console/{org_id}/organization",
                         org_name="Mine now")
    assert refused.status_code == 403


def test_a_form_without_its_csrf_token_is_refused(client, owner):
    sign_in(client, email="owner@example.com")
    org_id = owner["org"]["id"]
    assert client.post(f"/console/{org_id}/api-keys", data={"name": "ERP"}).status_code == 403


def test_api_keys_team_and_organization_forms(client, owner, mailbox):
    sign_in(client, email="owner@example.com")
    org_id = owner["org"]["id"]
    created = _post(client, f"/console/{org_id}/api-keys", name="ERP", scopes="contacts:read")
    assert created.status_code == 200 and created.headers["Cache-Control"] == "no-store"
    secret = re.search(r'id="new-secret">([^<]+)<', created.text).group(1)
    assert client.get(f"/organizations/{org_id}/contacts", headers={"X-Api-Key": secret}).status_code == 200
    assert secret not in client.get(f"/console/{org_id}/api-keys").text  # shown once
    key_id = re.search(rf"/console/{org_id}/api-keys/([0-9a-f-]+)/revoke", created.text).group(1)
    _post_from(client, f"/console/{org_id}/api-keys", f"/console/{org_id}/api-keys/{key_id}/revoke")
    assert client.get(f"/organizations/{org_id}/contacts", headers={"X-Api-Key": secret}).status_code == 401

    team = client.get(f"/console/{org_id}/team")
    agent_role = re.search(r'<option value="([0-9a-f-]+)" selected>Agent</option>', team.text).group(1)
    bad = _post_from(client, f"/console/{org_id}/team", f"/console/{org_id}/team/invitations", email="not-an-email",
                     role_id=agent_role)
    assert bad.status_code == 400 and "field-error" in bad.text
    invited = _post_from(client, f"/console/{org_id}/team", f"/console/{org_id}/team/invitations",
                         email="beto@example.com", role_id=agent_role)
    assert invited.status_code == 302
    assert "/invitations/accept?token=" in mailbox.last_to("beto@example.com").get_content()
    role = _post_from(client, f"/console/{org_id}/team", f"/console/{org_id}/team/roles", role_name="Cajero",
                      role_description="Caja", permissions=["contacts:read", "conversations:read"])
    assert role.status_code == 302 and "Cajero" in client.get(f"/console/{org_id}/team").text
    spanish = client.get(f"/console/{org_id}/team", headers={"Accept-Language": "es"}).text
    assert ">Agente</option>" in spanish and "Atiende conversaciones y contactos." in spanish  # system roles
    assert "Cajero" in spanish  # a role people made keeps its name

    saved = _post_from(client, f"/console/{org_id}/organization", f"/console/{org_id}/organization",
                       org_name="Sol", billing_email="pagos@sol.test", country="co", timezone="America/Bogota",
                       keywords="BAJA, STOP", opt_out="1")
    assert saved.status_code == 302
    organization = client.get(f"/organizations/{org_id}", headers={"Authorization": f"Bearer {owner['token']}"}).json
    assert organization["data"]["optOutKeywords"] == ["BAJA", "STOP"] and organization["data"]["name"] == "Sol"


def test_two_factor_set_up_from_the_account_page(client, owner):
    sign_in(client, email="owner@example.com")
    setup = _post_from(client, "/console/account", "/console/account/2fa/setup")
    assert setup.status_code == 200 and "<svg" in setup.text and setup.headers["Cache-Control"] == "no-store"
    seed = re.search(r"<code>([A-Z2-7]+)</code>", setup.text).group(1)
    wrong = client.post("/console/account/2fa/enable", data={"csrf": csrf_of(setup), "code": "000000"})
    assert wrong.status_code == 401 and "not valid" in wrong.text
    assert f"<code>{seed}</code>" in wrong.text and "<svg" in wrong.text  # the same QR code, to try again
    enabled = client.post("/console/account/2fa/enable", data={"csrf": csrf_of(setup), "code": pyotp.TOTP(seed).now()})
    assert enabled.status_code == 200 and 'id="recovery-codes"' in enabled.text
    assert "two-step sign-in" in client.get("/console/account").text.lower()

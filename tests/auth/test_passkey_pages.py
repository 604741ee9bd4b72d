"""Passkeys on the pages: the sign-in page and My account offer them only when opened at the relying
party's origin (https, or localhost), say why not elsewhere, and sign in / add / remove through forms
as the page's script posts them (web/static/passkeys.js), over the Flask test client."""

import html
import json

import pytest
from markupsafe import escape

from appliance.auth import relying_party
from appliance.auth.texts import PASSKEY_TEXTS
from tests.auth.soft_authenticator import SoftAuthenticator
from tests.browser_forms import BROWSER, PASSWORD, csrf_of, sign_in
from tests.conftest import next_totp

ORIGIN = "https://appliance.test"
AT_ORIGIN = {"base_url": ORIGIN}


@pytest.fixture
def settings(settings):
    return settings.replace(base_url=ORIGIN)


def _account(client):
    return client.get("/console/account", **AT_ORIGIN)


def _add_passkey(client, authenticator, name="Work laptop"):
    page = _account(client)
    csrf = csrf_of(page)
    options = client.post("/console/account/passkeys/options", data={"csrf": csrf},
                          headers={"Accept": "application/json"}, **AT_ORIGIN)
    assert options.status_code == 200, options.text
    credential = authenticator.create(options.json["publicKey"], origin=ORIGIN)
    return client.post("/console/account/passkeys", data={"csrf": csrf, "name": name,
                                                          "credential": json.dumps(credential)}, **AT_ORIGIN)


def _passkey_sign_in(client, authenticator, code=None, credential=None):
    page = client.get("/sign-in?next=/console/account", **AT_ORIGIN)
    csrf = csrf_of(page)
    if credential is None:
        options = client.post("/sign-in/passkey/options", data={"csrf": csrf}, headers={"Accept": "application/json"},
                              **AT_ORIGIN)
        assert options.status_code == 200, options.text
        credential = json.dumps(authenticator.get(options.json["publicKey"], origin=ORIGIN))
    form = {"csrf": csrf, "credential": credential, **({"code": code} if code else {})}
    return client.post("/sign-in/passkey?next=/console/account", data=form, headers={"User-Agent": BROWSER},
                       **AT_ORIGIN)


def _sign_in_at_origin(client):
    form = client.get("/sign-in", **AT_ORIGIN)
    return client.post("/sign-in", data={"csrf": csrf_of(form), "email": "ana@example.com", "password": PASSWORD},
                       headers={"User-Agent": BROWSER}, **AT_ORIGIN)


def test_add_a_passkey_on_my_account_sign_out_and_sign_in_with_it(client, api):
    api.signup()
    assert _sign_in_at_origin(client).status_code == 302
    empty = _account(client)
    assert "No passkeys yet" in empty.text and "data-passkey-register" in empty.text and "passkeys.js" in empty.text
    authenticator = SoftAuthenticator()
    added = _add_passkey(client, authenticator)
    assert added.status_code == 302 and added.headers["Location"].endswith("done=passkey_added#done")
    listed = _account(client)
    assert "Work laptop" in listed.text and "Passkey added." in client.get(added.headers["Location"], **AT_ORIGIN).text

    client.post("/sign-out", data={"csrf": csrf_of(listed)}, **AT_ORIGIN)
    assert _account(client).status_code == 302
    signed_in = _passkey_sign_in(client, authenticator)
    assert signed_in.status_code == 302 and signed_in.headers["Location"] == "/console/account"
    page = _account(client)
    assert page.status_code == 200 and "Not used yet" not in page.text  # its last use is shown


def test_remove_works_without_script_and_only_for_ones_own(client, api):
    api.signup()
    other = api.signup(email="bob@example.com")["tokens"]["accessToken"]
    foreign = SoftAuthenticator()
    options = api.post("/auth/passkeys/register/options", token=other).json["data"]["publicKey"]
    foreign_id = api.post("/auth/passkeys/register/verify", {"credential": foreign.create(options, origin=ORIGIN)},
                          token=other).json["data"]["id"]
    _sign_in_at_origin(client)
    _add_passkey(client, SoftAuthenticator())
    page = _account(client)
    own_id = api.get("/auth/me/passkeys", token=api.login()["tokens"]["accessToken"]).json["data"][0]["id"]
    refused = client.post(f"/console/account/passkeys/{foreign_id}/remove", data={"csrf": csrf_of(page)}, **AT_ORIGIN)
    assert refused.status_code == 404
    removed = client.post(f"/console/account/passkeys/{own_id}/remove", data={"csrf": csrf_of(page)}, **AT_ORIGIN)
    assert removed.status_code == 302 and "No passkeys yet" in _account(client).text
    assert len(api.get("/auth/me/passkeys", token=other).json["data"]) == 1


def test_the_pages_hide_passkeys_elsewhere_and_say_why(client, api, settings):
    from appliance.core import runtime

    api.signup()
    other_address = client.get("/sign-in")  # http://localhost, not the public address
    assert "data-passkey-sign-in" not in other_address.text and "passkeys.js" not in other_address.text
    assert "Passkeys work only at this appliance" in other_address.text and 'href="https://appliance.test/sign-in' \
        in other_address.text
    assert 'autocomplete="username webauthn"' in client.get("/sign-in", **AT_ORIGIN).text
    runtime.get().settings = settings.replace(base_url="http://192.168.1.20:8000")
    lan = client.get("/sign-in", base_url="http://192.168.1.20:8000")
    assert "HTTPS address (Go live) or localhost" in lan.text and "data-passkey-sign-in" not in lan.text
    spanish = client.get("/sign-in", base_url="http://192.168.1.20:8000", headers={"Accept-Language": "es"})
    assert str(escape(PASSKEY_TEXTS["es"]["unavailable"]["not_secure"])) in spanish.text  # the catalog's Spanish
    assert sign_in(client).status_code == 302
    account = client.get("/console/account")
    assert "HTTPS address (Go live) or localhost" in account.text and "data-passkey-register" not in account.text


def test_a_stale_passkey_answer_is_refused_on_the_page(client, api):
    from appliance.core import clock

    api.signup()
    _sign_in_at_origin(client)
    authenticator = SoftAuthenticator()
    _add_passkey(client, authenticator)
    client.post("/sign-out", data={"csrf": csrf_of(_account(client))}, **AT_ORIGIN)
    page = client.get("/sign-in", **AT_ORIGIN)
    options = client.post("/sign-in/passkey/options", data={"csrf": csrf_of(page)},
                          headers={"Accept": "application/json"}, **AT_ORIGIN).json["publicKey"]
    clock.advance(301)
    late = _passkey_sign_in(client, authenticator, credential=json.dumps(authenticator.get(options, origin=ORIGIN)))
    assert late.status_code == 401 and "was not accepted" in late.text
    assert _passkey_sign_in(client, authenticator, credential="not json").status_code == 401
    assert client.post("/sign-in/passkey/options", data={"csrf": "forged"}, **AT_ORIGIN).status_code == 403


def test_a_passkey_without_user_verification_asks_for_the_code_on_the_page(client, api):
    token = api.signup()["tokens"]["accessToken"]
    totp, _ = api.enable_2fa(token)
    present_only = SoftAuthenticator(user_verifying=False)
    options = api.post("/auth/passkeys/register/options", token=token).json["data"]["publicKey"]
    api.post("/auth/passkeys/register/verify", {"credential": present_only.create(options, origin=ORIGIN)}, token=token)
    asked = _passkey_sign_in(client, present_only)
    assert asked.status_code == 401 and 'name="code"' in asked.text and 'name="credential"' in asked.text
    credential = asked.text.split('name="credential" value="')[1].split('"')[0]
    done = _passkey_sign_in(client, present_only, credential=html.unescape(credential), code=next_totp(totp))
    assert done.status_code == 302 and _account(client).status_code == 200


@pytest.mark.parametrize(("address", "page", "offered", "reason"), [
    ("https://appliance.test", "https://appliance.test", True, None),
    ("https://appliance.test:443", "https://APPLIANCE.test", True, None),
    ("https://appliance.test", "http://appliance.test", False, relying_party.OTHER_ORIGIN),
    ("http://localhost:8000", "http://localhost:8000", True, None),
    ("http://127.0.0.1:8000", "http://localhost:8000", True, None),
    ("http://127.0.0.1:8000", "http://127.0.0.1:8000", False, relying_party.OTHER_ORIGIN),
    ("http://127.0.0.1:8000", "http://192.168.1.20:8000", False, relying_party.NOT_SECURE),
    ("http://[::1]:8000", "http://localhost:8000", True, None),
    ("http://shop.localhost:8000", "http://shop.localhost:8000", True, None),
    ("http://192.168.1.20:8000", "http://192.168.1.20:8000", False, relying_party.NOT_SECURE),
    ("http://appliance.lan", "http://appliance.lan", False, relying_party.NOT_SECURE),
    ("https://203.0.113.9", "https://203.0.113.9", False, relying_party.IP_ADDRESS),
])
def test_the_relying_party_comes_from_the_public_address(settings, app, address, page, offered, reason):
    from appliance.core import runtime

    runtime.get().settings = settings.replace(base_url=address)
    found = relying_party.availability(page)
    assert (found.offered, found.reason) == (offered, reason)
    if offered:
        assert relying_party.current().origin == relying_party.origin_of(page).lower()

"""Passkeys over the API: a software authenticator (tests/auth/soft_authenticator.py) makes real
attestations and assertions, so every check of the `webauthn` package runs as for a browser's."""

import logging

import pytest

from appliance.core import clock
from tests.auth.soft_authenticator import SoftAuthenticator
from tests.conftest import next_totp
from tests.problems import assert_problem

ORIGIN = "https://appliance.test"


@pytest.fixture
def settings(settings):
    return settings.replace(base_url=ORIGIN)


def register(api, token, authenticator, *, name="My phone", origin=ORIGIN):
    options = api.post("/auth/passkeys/register/options", token=token)
    assert options.status_code == 200, options.json
    credential = authenticator.create(options.json["data"]["publicKey"], origin=origin)
    return api.post("/auth/passkeys/register/verify", {"name": name, "credential": credential}, token=token)


def login_options(api) -> dict:
    answer = api.post("/auth/passkeys/login/options")
    assert answer.status_code == 200, answer.json
    return answer.json["data"]["publicKey"]


def login(api, credential, code=None):
    body = {"credential": credential, **({"twoFactorCode": code} if code else {})}
    return api.post("/auth/passkeys/login/verify", body, environ_base={"REMOTE_ADDR": "10.0.0.7"})


def signed_up(api, email="ana@example.com"):
    return api.signup(email=email)["tokens"]["accessToken"]


def test_register_then_sign_in_without_an_email(api):
    """A passkey registered by a signed-in person signs them in with no email: the options name no
    credential, the authenticator's userHandle and credential id find the person, and the answer is
    what a password sign-in answers (user and tokens that work)."""
    token = signed_up(api)
    authenticator = SoftAuthenticator()
    registered = register(api, token, authenticator)
    assert registered.status_code == 201, registered.json
    passkey = registered.json["data"]
    assert passkey["name"] == "My phone" and passkey["userVerified"] is True and passkey["lastUsedAt"] is None
    assert passkey["transports"] == ["internal"]

    options = login_options(api)
    assert not options.get("allowCredentials") and options["rpId"] == "appliance.test"
    assert options["userVerification"] == "preferred"
    signed_in = login(api, authenticator.get(options, origin=ORIGIN))
    assert signed_in.status_code == 200, signed_in.json
    data = signed_in.json["data"]
    assert data["user"]["email"] == "ana@example.com" and set(data["tokens"]) == {"accessToken", "refreshToken",
                                                                                  "expiresIn"}
    assert api.get("/users/me", token=data["tokens"]["accessToken"]).json["data"]["email"] == "ana@example.com"
    listed = api.get("/auth/me/passkeys", token=token).json["data"]
    assert [p["id"] for p in listed] == [passkey["id"]] and listed[0]["lastUsedAt"] is not None


def test_registration_options_ask_for_a_discoverable_key_and_exclude_the_ones_kept(api):
    token = signed_up(api)
    first = api.post("/auth/passkeys/register/options", token=token).json["data"]["publicKey"]
    assert first["authenticatorSelection"]["residentKey"] == "required"
    assert first["authenticatorSelection"]["userVerification"] == "preferred"
    assert first["rp"] == {"id": "appliance.test", "name": "Appliance"} and first["user"]["name"] == "ana@example.com"
    assert first["timeout"] == 300000 and not first.get("excludeCredentials")
    authenticator = SoftAuthenticator()
    assert register(api, token, authenticator).status_code == 201
    second = api.post("/auth/passkeys/register/options", token=token).json["data"]["publicKey"]
    assert [c["id"] for c in second["excludeCredentials"]] == [first_id(authenticator)]
    # The same credential registered again (another challenge) is refused.
    assert_problem(register(api, token, authenticator), 409, "passkey_already_registered")


def first_id(authenticator):
    from tests.auth.soft_authenticator import b64url
    return b64url(authenticator.credential_id)


def test_a_stale_challenge_is_refused_and_logged(api, caplog):
    token = signed_up(api)
    authenticator = SoftAuthenticator()
    register(api, token, authenticator)
    options = login_options(api)
    clock.advance(301)
    with caplog.at_level(logging.WARNING, logger="appliance.auth.passkeys"):
        answer = login(api, authenticator.get(options, origin=ORIGIN))
    assert_problem(answer, 401, "passkey_rejected")
    assert any("passkey login refused" in r.getMessage() and "expired" in r.getMessage() for r in caplog.records)
    # A stale registration challenge too.
    options = api.post("/auth/passkeys/register/options", token=token).json["data"]["publicKey"]
    clock.advance(301)
    late = api.post("/auth/passkeys/register/verify",
                    {"credential": SoftAuthenticator().create(options, origin=ORIGIN)}, token=token)
    assert_problem(late, 401, "passkey_rejected")


def test_the_wrong_origin_or_relying_party_is_refused_and_burns_the_challenge(api, caplog):
    token = signed_up(api)
    authenticator = SoftAuthenticator()
    options = api.post("/auth/passkeys/register/options", token=token).json["data"]["publicKey"]
    elsewhere = authenticator.create(options, origin="https://evil.test")
    with caplog.at_level(logging.WARNING, logger="appliance.auth.passkeys"):
        refused = api.post("/auth/passkeys/register/verify", {"credential": elsewhere}, token=token)
    assert_problem(refused, 401, "passkey_rejected")
    assert any("origin" in r.getMessage() for r in caplog.records)
    # The challenge was burned by the refusal: the right origin with it is refused now too.
    again = api.post("/auth/passkeys/register/verify",
                     {"credential": authenticator.create(options, origin=ORIGIN)}, token=token)
    assert_problem(again, 401, "passkey_rejected")
    assert api.get("/auth/me/passkeys", token=token).json["data"] == []

    assert register(api, token, authenticator).status_code == 201
    assert_problem(login(api, authenticator.get(login_options(api), origin="https://evil.test")), 401,
                   "passkey_rejected")
    assert_problem(login(api, authenticator.get(login_options(api), origin=ORIGIN, rp_id="evil.test")), 401,
                   "passkey_rejected")
    assert login(api, authenticator.get(login_options(api), origin=ORIGIN)).status_code == 200


def test_a_challenge_works_once(api):
    token = signed_up(api)
    authenticator = SoftAuthenticator()
    register(api, token, authenticator)
    assertion = authenticator.get(login_options(api), origin=ORIGIN)
    assert login(api, assertion).status_code == 200
    assert_problem(login(api, assertion), 401, "passkey_rejected")
    # A registration challenge is not a login challenge, nor another person's.
    registration_options = api.post("/auth/passkeys/register/options", token=token).json["data"]["publicKey"]
    assert_problem(login(api, authenticator.get({**registration_options, "rpId": "appliance.test"}, origin=ORIGIN)),
                   401, "passkey_rejected")
    other = signed_up(api, "bob@example.com")
    stolen = api.post("/auth/passkeys/register/verify",
                      {"credential": SoftAuthenticator().create(registration_options, origin=ORIGIN)}, token=other)
    assert_problem(stolen, 401, "passkey_rejected")


def test_an_unknown_credential_or_a_counter_gone_back_is_refused(api):
    token = signed_up(api)
    authenticator = SoftAuthenticator()
    register(api, token, authenticator)
    assert_problem(login(api, SoftAuthenticator().get(login_options(api), origin=ORIGIN)), 401, "passkey_rejected")
    assert login(api, authenticator.get(login_options(api), origin=ORIGIN)).status_code == 200
    authenticator.sign_count = 0  # a clone of the key would count from an older value
    assert_problem(login(api, authenticator.get(login_options(api), origin=ORIGIN)), 401, "passkey_rejected")
    # A user handle naming someone else than the passkey's person.
    wrong_person = authenticator.get(login_options(api), origin=ORIGIN, user_handle=b"someone-else")
    assert_problem(login(api, wrong_person), 401, "passkey_rejected")


def test_bad_credentials_are_400_or_401_never_500(api):
    token = signed_up(api)
    for credential in ({}, {"id": "x"}, {"id": "@@", "rawId": "@@", "type": "public-key", "response": {}},
                       {"id": "AA", "rawId": "AA", "type": "public-key",
                        "response": {"clientDataJSON": "bm90IGpzb24", "attestationObject": "AA"}}):
        options = api.post("/auth/passkeys/register/options", token=token)
        assert options.status_code == 200
        answer = api.post("/auth/passkeys/register/verify", {"credential": credential}, token=token)
        assert_problem(answer, 401, "passkey_rejected")
        login_options(api)
        assert_problem(login(api, credential), 401, "passkey_rejected")
    assert_problem(api.post("/auth/passkeys/register/verify", {"credential": "text"}, token=token), 400,
                   "validation_failed")
    assert_problem(api.post("/auth/passkeys/register/verify", {"name": "", "credential": {}}, token=token), 400,
                   "validation_failed")
    assert_problem(api.post("/auth/passkeys/login/verify", {}), 400, "validation_failed")


def test_list_and_remove_and_another_persons_passkey_is_404(api, mailbox):
    token = signed_up(api)
    authenticator = SoftAuthenticator()
    passkey = register(api, token, authenticator).json["data"]
    assert any("passkey was added" in m["Subject"] for m in mailbox.to("ana@example.com"))
    other = signed_up(api, "bob@example.com")
    assert api.get("/auth/me/passkeys", token=other).json["data"] == []
    assert_problem(api.delete(f"/auth/me/passkeys/{passkey['id']}", token=other), 404, "passkey_not_found")
    assert api.delete(f"/auth/me/passkeys/{passkey['id']}", token=token).status_code == 204
    assert api.get("/auth/me/passkeys", token=token).json["data"] == []
    assert any("passkey was removed" in m["Subject"] for m in mailbox.to("ana@example.com"))
    assert_problem(api.delete(f"/auth/me/passkeys/{passkey['id']}", token=token), 404, "passkey_not_found")
    # Removed, it signs nobody in.
    assert_problem(login(api, authenticator.get(login_options(api), origin=ORIGIN)), 401, "passkey_rejected")


def test_a_verified_passkey_satisfies_two_step_sign_in_and_an_unverified_one_needs_the_code(api):
    token = signed_up(api)
    totp, recovery_codes = api.enable_2fa(token)
    verifying, present_only = SoftAuthenticator(), SoftAuthenticator(user_verifying=False)
    assert register(api, token, verifying).status_code == 201
    assert register(api, token, present_only, name="Old key").json["data"]["userVerified"] is False

    assert login(api, verifying.get(login_options(api), origin=ORIGIN)).status_code == 200
    assertion = present_only.get(login_options(api), origin=ORIGIN)
    assert_problem(login(api, assertion), 401, "two_factor_required")
    assert_problem(login(api, assertion, code="000000"), 401, "invalid_two_factor_code")
    # The same assertion with the code (its challenge is still good until it is spent).
    assert login(api, assertion, code=next_totp(totp)).status_code == 200
    assert_problem(login(api, assertion, code=recovery_codes[0]), 401, "passkey_rejected")
    # Recovery codes still work as the second step.
    assert login(api, present_only.get(login_options(api), origin=ORIGIN), code=recovery_codes[0]).status_code == 200


def test_failed_passkey_sign_ins_are_throttled_like_passwords(api):
    token = signed_up(api)
    authenticator = SoftAuthenticator()
    register(api, token, authenticator)
    for _ in range(5):
        assert_problem(login(api, authenticator.get(login_options(api), origin="https://evil.test")), 401,
                       "passkey_rejected")
    # The account from this address is locked, the right passkey too, as after 5 wrong passwords.
    locked = login(api, authenticator.get(login_options(api), origin=ORIGIN))
    assert locked.status_code == 429 and "Retry-After" in locked.headers


def test_not_offered_without_a_secure_public_address(api, settings):
    from appliance.core import runtime

    token = signed_up(api)
    runtime.get().settings = settings.replace(base_url="http://appliance.test")
    assert_problem(api.post("/auth/passkeys/register/options", token=token), 409, "passkeys_unavailable")
    assert_problem(api.post("/auth/passkeys/login/options"), 409, "passkeys_unavailable")
    assert_problem(api.post("/auth/passkeys/login/verify", {"credential": {}}), 409, "passkeys_unavailable")
    assert api.get("/auth/me/passkeys", token=token).status_code == 200


def test_person_routes_refuse_oauth_tokens(client, api, owner):
    from tests.oauth.conftest import Flow, register as register_client

    flow = Flow(client, register_client()[0])
    oauth_token = flow.exchange(flow.code(owner["org"]["id"])).json["access_token"]
    headers = {"Authorization": f"Bearer {oauth_token}"}
    for method, path in (("post", "/auth/passkeys/register/options"), ("get", "/auth/me/passkeys"),
                         ("delete", "/auth/me/passkeys/00000000-0000-7000-8000-000000000000")):
        assert_problem(getattr(client, method)(path, headers=headers), 403, "oauth_token_not_allowed")


def test_nobody_adds_a_passkey_while_impersonating(api):
    from appliance.auth import service as auth_service
    from appliance.core import runtime

    signed_up(api)
    with runtime.get().db.unit_of_work(write=True) as session:
        token = auth_service.do_issue_impersonation(session, email="ana@example.com", issued_by="carla@staff")
    impersonating = api.post("/auth/impersonate-redeem", {"token": token}).json["data"]["tokens"]["accessToken"]
    assert_problem(api.post("/auth/passkeys/register/options", token=impersonating), 403, "impersonation_not_allowed")

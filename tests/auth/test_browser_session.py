"""Browser sign-in for the server-rendered pages: an AuthSession held by a cookie, CSRF on forms,
no open redirects, closed with the person's other sessions."""

from tests.browser_forms import BROWSER, PASSWORD, csrf_of, sign_in
from tests.conftest import next_totp

def test_signing_in_opens_a_session_the_person_can_see_and_close(client, api):
    token = api.signup()["tokens"]["accessToken"]
    assert client.get("/settings/integrations").status_code == 302  # not signed in yet
    answer = sign_in(client, next_path="/settings/integrations")
    assert answer.status_code == 302 and answer.headers["Location"] == "/settings/integrations"
    cookie = answer.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert client.get("/settings/integrations").status_code == 200
    sessions = api.get("/auth/me/sessions", token=token).json["data"]
    browser = [s for s in sessions if s["device"] == BROWSER]
    assert len(browser) == 1
    # Closing it from the API (another device) signs the browser out at its next page load.
    assert api.delete(f"/auth/me/sessions/{browser[0]['id']}", token=token).status_code == 204
    again = client.get("/settings/integrations")
    assert again.status_code == 302 and again.headers["Location"].startswith("/sign-in?next=")


def test_wrong_password_and_second_factor(client, api):
    token = api.signup()["tokens"]["accessToken"]
    wrong = sign_in(client, password="not the password")
    assert wrong.status_code == 401 and "incorrect" in wrong.text
    totp, _ = api.enable_2fa(token)
    needs_code = sign_in(client)
    assert needs_code.status_code == 401 and 'name="code"' in needs_code.text
    assert sign_in(client, code="000000").status_code == 401
    assert sign_in(client, code=next_totp(totp)).status_code == 302
    assert client.get("/settings/integrations").status_code == 200


def test_forms_need_the_sessions_csrf_token(client, api):
    api.signup()
    refused = client.post("/sign-in", data={"email": "ana@example.com", "password": PASSWORD})
    assert refused.status_code == 403
    assert sign_in(client).status_code == 302
    forged = client.post("/sign-out", data={"csrf": "forged"})
    assert forged.status_code == 403
    assert client.get("/settings/integrations").status_code == 200  # still signed in


def test_sign_out_closes_the_session(client, api):
    token = api.signup()["tokens"]["accessToken"]
    sign_in(client)
    page = client.get("/settings/integrations")
    assert client.post("/sign-out", data={"csrf": csrf_of(page)}).status_code == 302
    assert client.get("/settings/integrations").status_code == 302
    devices = [s["device"] for s in api.get("/auth/me/sessions", token=token).json["data"]]
    assert not any(d == BROWSER for d in devices)


def test_next_never_leaves_the_appliance(client, api):
    api.signup()
    for target in ("https://evil.test/x", "//evil.test/x", "/\\evil.test", "javascript:alert(1)"):
        answer = sign_in(client, next_path=target)
        assert answer.status_code == 302 and answer.headers["Location"] == "/", target
        client.post("/sign-out", data={"csrf": csrf_of(client.get("/settings/integrations"))})


def test_the_api_ignores_the_browser_cookie(client, api):
    api.signup()
    assert "Cookie" not in client.get("/health/live").headers.get("Vary", "")  # API answers never read it
    sign_in(client)
    assert client.get("/users/me").status_code == 401  # bearer tokens only: no cross-site API calls


def test_a_changed_password_signs_the_browser_out(client, api):
    token = api.signup()["tokens"]["accessToken"]
    sign_in(client)
    changed = api.post("/users/me/change-password", {"currentPassword": PASSWORD, "newPassword": "another good password"},
                       token=token)
    assert changed.status_code in (200, 204), changed.json
    assert client.get("/settings/integrations").status_code == 302


def test_pages_in_spanish(client, api):
    api.signup()
    page = client.get("/sign-in", headers={"Accept-Language": "es-ES,es;q=0.9"})
    assert "Iniciar sesión" in page.text and 'lang="es"' in page.text

"""The pages behind the mailed links, used as a browser would (form posts)."""

import re

HTML = {"Accept": "text/html"}


def _link(mailbox, kind):
    body = mailbox.last_to("ana@example.com").get_content()
    return re.search(rf"http://appliance\.test(/{kind}\?token=[\w-]+)", body).group(1)


def test_verify_link_shows_a_button_and_the_button_verifies(api, client, mailbox):
    """Opening the link changes nothing; pressing the button verifies the email."""
    tokens = api.signup()["tokens"]
    path = _link(mailbox, "verify-email")
    page = client.get(path, headers=HTML)
    assert page.status_code == 200 and b"Confirm my email" in page.data
    assert api.get("/users/me", token=tokens["accessToken"]).json["data"]["emailVerified"] is False
    token = path.split("token=")[1]
    done = client.post("/verify-email", data={"token": token}, headers=HTML)
    assert done.status_code == 200 and b"Your email is confirmed" in done.data
    assert api.get("/users/me", token=tokens["accessToken"]).json["data"]["emailVerified"] is True
    again = client.post("/verify-email", data={"token": token}, headers=HTML)
    assert again.status_code == 401 and b"invalid, used or expired" in again.data


def test_reset_page_in_spanish(api, client, mailbox):
    """A Spanish browser gets the reset form in Spanish, and it changes the password."""
    api.signup()
    api.post("/auth/forgot-password", {"email": "ana@example.com"})
    path = _link(mailbox, "reset-password")
    spanish = {"Accept": "text/html", "Accept-Language": "es-CO,es;q=0.9"}
    page = client.get(path, headers=spanish)
    assert "Elige una contraseña nueva".encode() in page.data
    token = path.split("token=")[1]
    mismatch = client.post("/reset-password", data={"token": token, "password": "new secret 1",
                                                    "confirm": "new secret 2"}, headers=spanish)
    assert mismatch.status_code == 400 and "no coinciden".encode() in mismatch.data
    done = client.post("/reset-password", data={"token": token, "password": "new secret 1",
                                                "confirm": "new secret 1"}, headers=spanish)
    assert done.status_code == 200 and "Tu contraseña cambió".encode() in done.data
    api.login(password="new secret 1")


def test_link_without_token_explains_itself(client):
    """A truncated link says so instead of failing."""
    page = client.get("/reset-password", headers=HTML)
    assert page.status_code == 200 and b"incomplete" in page.data


def test_landing_page(client, api):
    """/ leads to the first run while nobody has an account; then it answers a page pointing at the docs."""
    assert client.get("/", headers=HTML).headers["Location"].endswith("/setup")
    api.signup()
    page = client.get("/", headers=HTML)
    assert page.status_code == 200 and b'href="/docs"' in page.data

from appliance.core import clock
from tests.problems import assert_problem


def test_verify_email_with_the_mailed_token(api, mailbox):
    """The token from the mail marks the account verified; the link works once."""
    tokens = api.signup()["tokens"]
    token = mailbox.token_from_last("ana@example.com")
    assert api.post("/auth/verify-email", {"token": token}).status_code == 200
    assert api.get("/users/me", token=tokens["accessToken"]).json["data"]["emailVerified"] is True
    again = api.post("/auth/verify-email", {"token": token})
    assert_problem(again, 401, "invalid_token")


def test_verification_token_expires(api, mailbox):
    """A verification link older than 48 hours is refused."""
    api.signup()
    token = mailbox.token_from_last("ana@example.com")
    clock.advance(48 * 3600 + 1)
    assert api.post("/auth/verify-email", {"token": token}).status_code == 401


def test_resend_verification_sends_nothing_once_verified(api, mailbox):
    """Resend mails a new link while unverified and nothing afterwards."""
    tokens = api.signup()["tokens"]
    assert api.post("/auth/resend-verification", token=tokens["accessToken"]).status_code == 200
    assert len(mailbox.to("ana@example.com")) == 2
    api.post("/auth/verify-email", {"token": mailbox.token_from_last("ana@example.com")})
    assert api.post("/auth/resend-verification", token=tokens["accessToken"]).status_code == 200
    assert len(mailbox.to("ana@example.com")) == 2


def test_resend_verification_needs_authentication(api):
    """Resend is not public."""
    assert api.post("/auth/resend-verification").status_code == 401


def test_forgot_password_always_answers_200(api, mailbox):
    """Known and unknown emails get the same answer; only the known one gets mail."""
    api.signup()
    known = api.post("/auth/forgot-password", {"email": "ana@example.com"})
    unknown = api.post("/auth/forgot-password", {"email": "nobody@example.com"})
    assert known.status_code == unknown.status_code == 200
    assert known.json["data"] == unknown.json["data"]
    assert mailbox.to("nobody@example.com") == []
    assert "reset-password?token=" in mailbox.last_to("ana@example.com").get_content()


def test_reset_password_changes_it_and_closes_every_session(api, mailbox):
    """The mailed token sets a new password once; all sessions end; the new password signs in."""
    tokens = api.signup()["tokens"]
    api.post("/auth/forgot-password", {"email": "ana@example.com"})
    token = mailbox.token_from_last("ana@example.com")
    response = api.post("/auth/reset-password", {"token": token, "password": "a brand new secret"})
    assert response.status_code == 200
    assert api.get("/users/me", token=tokens["accessToken"]).status_code == 401
    api.login(password="correct horse battery", status=401)
    api.login(password="a brand new secret")
    reused = api.post("/auth/reset-password", {"token": token, "password": "yet another secret"})
    assert_problem(reused, 401, "invalid_token")


def test_reset_token_expires_after_one_hour(api, mailbox):
    """A reset link older than one hour answers 401 and changes nothing."""
    api.signup()
    api.post("/auth/forgot-password", {"email": "ana@example.com"})
    token = mailbox.token_from_last("ana@example.com")
    clock.advance(3601)
    assert api.post("/auth/reset-password", {"token": token, "password": "a brand new secret"}).status_code == 401
    api.login()


def test_only_the_newest_reset_link_works(api, mailbox):
    """Asking twice invalidates the first link."""
    api.signup()
    api.post("/auth/forgot-password", {"email": "ana@example.com"})
    first = mailbox.token_from_last("ana@example.com")
    api.post("/auth/forgot-password", {"email": "ana@example.com"})
    assert api.post("/auth/reset-password", {"token": first, "password": "a brand new secret"}).status_code == 401


def test_reset_mails_are_capped_per_account(api, mailbox):
    """At most five reset mails an hour per account; the answer stays 200."""
    api.signup()
    for _ in range(7):
        assert api.post("/auth/forgot-password", {"email": "ana@example.com"}).status_code == 200
    resets = [m for m in mailbox.to("ana@example.com") if "reset" in m["Subject"].lower()]
    assert len(resets) == 5


def test_guessing_tokens_is_throttled_per_ip(api):
    """Twenty bad tokens from one address lock it out with 429."""
    codes = [api.post("/auth/reset-password", {"token": f"guess{n}", "password": "long enough"}).status_code
             for n in range(21)]
    assert codes[:20] == [401] * 20 and codes[20] == 429


def test_reset_password_validates_the_new_password(api):
    """A too-short new password is 400 before the token is even looked at."""
    response = api.post("/auth/reset-password", {"token": "x", "password": "short"})
    assert response.status_code == 400 and "password" in response.json["errors"]

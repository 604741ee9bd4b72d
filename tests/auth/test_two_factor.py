import re

import pyotp

from appliance.core import clock
from tests.conftest import next_totp
from tests.problems import assert_problem


def test_setup_returns_secret_uri_and_svg_qr(api):
    """Setup answers the secret, an otpauth URI naming the account, and an SVG QR code."""
    tokens = api.signup()["tokens"]
    data = api.post("/auth/2fa/setup", token=tokens["accessToken"]).json["data"]
    assert re.fullmatch(r"[A-Z2-7]{32}", data["secret"])
    assert data["otpauthUri"].startswith("otpauth://totp/Appliance:ana%40example.com?secret=")
    assert data["qrSvg"].startswith("<svg")


def test_enable_then_login_needs_a_code(api, mailbox):
    """With 2FA on, login without a code is 401 two_factor_required, with a code it works."""
    tokens = api.signup()["tokens"]
    totp, codes = api.enable_2fa(tokens["accessToken"])
    assert len(codes) == 10 and len(set(codes)) == 10
    assert api.get("/users/me", token=tokens["accessToken"]).json["data"]["twoFactorEnabled"] is True
    assert api.login(status=401)["code"] == "two_factor_required"
    api.login(code=next_totp(totp))
    assert any("Two-factor" in m["Subject"] for m in mailbox.to("ana@example.com"))


def test_a_totp_code_is_accepted_once(api):
    """The same code replayed answers 401 invalid_two_factor_code."""
    tokens = api.signup()["tokens"]
    totp, _ = api.enable_2fa(tokens["accessToken"])
    code = next_totp(totp)
    api.login(code=code)
    assert api.login(code=code, status=401)["code"] == "invalid_two_factor_code"


def test_enable_refuses_a_wrong_code(api):
    """Enabling with a wrong code is 401 and leaves 2FA off."""
    tokens = api.signup()["tokens"]
    api.post("/auth/2fa/setup", token=tokens["accessToken"])
    response = api.post("/auth/2fa/enable", {"code": "000000"}, token=tokens["accessToken"])
    assert response.status_code == 401
    assert api.get("/users/me", token=tokens["accessToken"]).json["data"]["twoFactorEnabled"] is False


def test_enable_without_setup_is_409(api):
    """Enable before setup answers 409 two_factor_setup_required."""
    tokens = api.signup()["tokens"]
    response = api.post("/auth/2fa/enable", {"code": "123456"}, token=tokens["accessToken"])
    assert_problem(response, 409, "two_factor_setup_required")


def test_recovery_codes_work_once(api):
    """A recovery code signs in once; used again it is 401."""
    tokens = api.signup()["tokens"]
    _, codes = api.enable_2fa(tokens["accessToken"])
    api.login(code=codes[0].upper())
    assert api.login(code=codes[0], status=401)["code"] == "invalid_two_factor_code"
    api.login(code=codes[1].replace("-", ""))


def test_regenerate_recovery_codes_invalidates_the_old(api):
    """New codes replace the old ones."""
    tokens = api.signup()["tokens"]
    totp, old = api.enable_2fa(tokens["accessToken"])
    response = api.post("/auth/2fa/recovery-codes", {"code": next_totp(totp)}, token=tokens["accessToken"])
    new = response.json["data"]["recoveryCodes"]
    assert response.status_code == 200 and len(new) == 10 and not set(new) & set(old)
    api.login(code=old[2], status=401)
    api.login(code=new[0])


def test_disable_needs_password_and_code(api):
    """Disable with a wrong password or code is 401; with both right 2FA is off."""
    tokens = api.signup()["tokens"]
    totp, codes = api.enable_2fa(tokens["accessToken"])
    bad_password = api.post("/auth/2fa/disable", {"password": "wrong password", "code": codes[0]},
                            token=tokens["accessToken"])
    assert_problem(bad_password, 401, "invalid_credentials")
    bad_code = api.post("/auth/2fa/disable", {"password": "correct horse battery", "code": "111111"},
                        token=tokens["accessToken"])
    assert_problem(bad_code, 401, "invalid_two_factor_code")
    ok = api.post("/auth/2fa/disable", {"password": "correct horse battery", "code": codes[0]},
                  token=tokens["accessToken"])
    assert ok.status_code == 200
    api.login()


def test_wrong_codes_are_throttled(api):
    """Five wrong codes from one address lock the account there: 429 with Retry-After, even for a
    right code (the password was right: the guesser holds it, and is stopped)."""
    tokens = api.signup()["tokens"]
    totp, _ = api.enable_2fa(tokens["accessToken"])
    for _ in range(5):
        api.login(code="000000", status=401)
    response = api.client.post("/auth/login", json={"email": "ana@example.com", "password": "correct horse battery",
                                                    "twoFactorCode": next_totp(totp)},
                               environ_base={"REMOTE_ADDR": "10.0.0.2"})
    assert response.status_code == 429 and "Retry-After" in response.headers


def test_setup_twice_when_enabled_is_409(api):
    """Setup while 2FA is on answers 409 two_factor_already_enabled."""
    tokens = api.signup()["tokens"]
    api.enable_2fa(tokens["accessToken"])
    response = api.post("/auth/2fa/setup", token=tokens["accessToken"])
    assert_problem(response, 409, "two_factor_already_enabled")


def test_totp_seed_is_stored_encrypted(api, app):
    """The database never holds the TOTP seed in clear."""
    tokens = api.signup()["tokens"]
    secret = api.post("/auth/2fa/setup", token=tokens["accessToken"]).json["data"]["secret"]
    from sqlalchemy import select
    from sqlmodel import SQLModel

    from appliance.core import runtime
    database = runtime.get().db
    with database.engine.connect() as connection:  # every row of every table, on either engine
        for table in SQLModel.metadata.sorted_tables:
            assert secret not in repr(connection.execute(select(table)).fetchall()), table.name
    if database.is_sqlite:  # and the file's bytes: free pages and the WAL too
        raw = database.path.read_bytes()
        wal = database.path.with_name("appliance.db-wal")
        assert secret.encode() not in raw + (wal.read_bytes() if wal.exists() else b"")
    assert pyotp.TOTP(secret).now()
    assert clock.now()

import jwt

from appliance.core import clock
from tests.problems import assert_problem


def _signed_in(api):
    return api.signup()["tokens"]


def test_refresh_rotates_the_pair(api):
    """A refresh answers a new pair; the new access token works."""
    tokens = _signed_in(api)
    response = api.post("/auth/refresh", {"refreshToken": tokens["refreshToken"]})
    assert response.status_code == 200
    new = response.json["data"]["tokens"]
    assert new["refreshToken"] != tokens["refreshToken"]
    assert api.get("/users/me", token=new["accessToken"]).status_code == 200


def test_a_rotated_refresh_token_presented_again_revokes_the_session(api):
    """Reuse of a spent refresh token is theft: 401, and the whole session is closed."""
    tokens = _signed_in(api)
    new = api.post("/auth/refresh", {"refreshToken": tokens["refreshToken"]}).json["data"]["tokens"]
    reused = api.post("/auth/refresh", {"refreshToken": tokens["refreshToken"]})
    assert_problem(reused, 401, "refresh_token_reused")
    assert api.get("/users/me", token=new["accessToken"]).json["code"] == "session_revoked"
    assert api.post("/auth/refresh", {"refreshToken": new["refreshToken"]}).status_code == 401


def test_unknown_refresh_token_is_401(api):
    """A refresh token we never issued answers 401 invalid_refresh_token."""
    response = api.post("/auth/refresh", {"refreshToken": "made-up"})
    assert_problem(response, 401, "invalid_refresh_token")


def test_refresh_token_expires_after_the_setting(api):
    """An idle session ends after APPLIANCE_REFRESH_TOKEN_DAYS (30 by default)."""
    tokens = _signed_in(api)
    clock.advance(30 * 86400 + 1)
    assert api.post("/auth/refresh", {"refreshToken": tokens["refreshToken"]}).status_code == 401


def test_access_token_expires_after_15_minutes(api):
    """After 900 s the JWT answers 401 token_expired; a refresh still works."""
    tokens = _signed_in(api)
    clock.advance(901)
    response = api.get("/users/me", token=tokens["accessToken"])
    assert_problem(response, 401, "token_expired")
    assert api.post("/auth/refresh", {"refreshToken": tokens["refreshToken"]}).status_code == 200


def test_tampered_and_foreign_jwts_are_refused(api):
    """A changed payload, another key, or alg=none all answer 401 token_invalid."""
    tokens = _signed_in(api)
    header, payload, signature = tokens["accessToken"].split(".")
    claims = jwt.decode(tokens["accessToken"], options={"verify_signature": False})
    forged_payload = jwt.encode({**claims, "sub": "someone-else"}, "an attacker key of thirty-two bytes", algorithm="HS256").split(".")[1]
    candidates = [
        f"{header}.{forged_payload}.{signature}",
        jwt.encode(claims, "not our key but long enough to be valid", algorithm="HS256"),
        jwt.encode(claims, None, algorithm="none"),
        "not.a.jwt",
    ]
    for token in candidates:
        response = api.get("/users/me", token=token)
        assert_problem(response, 401, "token_invalid", token)


def test_logout_revokes_the_session(api):
    """Logout answers 204 and the session's tokens stop working."""
    tokens = _signed_in(api)
    assert api.post("/auth/logout", {"refreshToken": tokens["refreshToken"]}).status_code == 204
    assert api.get("/users/me", token=tokens["accessToken"]).json["code"] == "session_revoked"
    assert api.post("/auth/refresh", {"refreshToken": tokens["refreshToken"]}).status_code == 401
    assert api.post("/auth/logout", {"refreshToken": tokens["refreshToken"]}).status_code == 204


def test_jwt_claims(api):
    """The access token carries sub, sid, iat and exp (15 minutes), and no impersonatedBy."""
    data = api.signup()
    claims = jwt.decode(data["tokens"]["accessToken"], options={"verify_signature": False})
    assert claims["sub"] == data["user"]["id"]
    assert claims["exp"] - claims["iat"] == 900
    assert "sid" in claims and "impersonatedBy" not in claims


def test_malformed_authorization_header(api):
    """Anything but 'Bearer <token>' answers 401 invalid_authorization_header."""
    response = api.client.get("/users/me", headers={"Authorization": "Basic abc"})
    assert_problem(response, 401, "invalid_authorization_header")

def test_sessions_list_one_per_device_with_current_marked(api):
    """Each sign-in is a session; the caller's own is marked current."""
    api.signup()
    first = api.login()["tokens"]
    second = api.login()["tokens"]
    sessions = api.get("/auth/me/sessions", token=second["accessToken"]).json["data"]
    assert len(sessions) == 3  # sign-up, two logins
    assert [s["current"] for s in sessions].count(True) == 1
    assert set(sessions[0]) >= {"id", "device", "ip", "createdAt", "lastUsedAt", "current"}
    assert first


def test_close_one_session(api):
    """DELETE /auth/me/sessions/{id} closes that session only."""
    api.signup()
    mine = api.login()["tokens"]
    other = api.login()["tokens"]
    sessions = api.get("/auth/me/sessions", token=mine["accessToken"]).json["data"]
    import jwt
    other_sid = jwt.decode(other["accessToken"], options={"verify_signature": False})["sid"]
    assert api.delete(f"/auth/me/sessions/{other_sid}", token=mine["accessToken"]).status_code == 204
    assert api.get("/users/me", token=other["accessToken"]).json["code"] == "session_revoked"
    assert api.get("/users/me", token=mine["accessToken"]).status_code == 200
    assert len(api.get("/auth/me/sessions", token=mine["accessToken"]).json["data"]) == len(sessions) - 1


def test_close_all_other_sessions(api):
    """DELETE /auth/me/sessions keeps the caller's session and closes the rest."""
    signup = api.signup()["tokens"]
    mine = api.login()["tokens"]
    response = api.delete("/auth/me/sessions", token=mine["accessToken"])
    assert response.status_code == 200 and response.json["data"]["closed"] == 1
    assert api.get("/users/me", token=signup["accessToken"]).status_code == 401
    assert api.get("/users/me", token=mine["accessToken"]).status_code == 200


def test_cannot_close_another_users_session(api):
    """Another account's session id is 404, and that session stays open."""
    ana = api.signup()["tokens"]
    bob = api.signup(email="bob@example.com")["tokens"]
    import jwt
    bob_sid = jwt.decode(bob["accessToken"], options={"verify_signature": False})["sid"]
    response = api.delete(f"/auth/me/sessions/{bob_sid}", token=ana["accessToken"])
    assert response.status_code == 404
    assert api.get("/users/me", token=bob["accessToken"]).status_code == 200


def test_session_id_must_be_a_uuid(api):
    """A malformed id in the path is a 404, never a 500."""
    tokens = api.signup()["tokens"]
    assert api.delete("/auth/me/sessions/not-a-uuid", token=tokens["accessToken"]).status_code == 404

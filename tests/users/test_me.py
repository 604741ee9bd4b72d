from tests.problems import assert_problem


def test_get_and_patch_profile(api):
    """PATCH /users/me changes name, locale and time zone and answers the user."""
    tokens = api.signup()["tokens"]
    response = api.patch("/users/me", {"name": " Ana María ", "locale": "es", "timezone": "America/Bogota"},
                         token=tokens["accessToken"])
    assert response.status_code == 200
    data = response.json["data"]
    assert (data["name"], data["locale"], data["timezone"]) == ("Ana María", "es", "America/Bogota")
    assert api.get("/users/me", token=tokens["accessToken"]).json["data"]["locale"] == "es"


def test_patch_profile_rejects_bad_values_and_keeps_the_record(api):
    """Unknown time zone, locale, fields, wrong types: 400 and nothing changes."""
    tokens = api.signup()["tokens"]
    for body in ({"timezone": "Mars/Olympus"}, {"locale": "fr"}, {"email": "x@example.com"},
                 {"name": 42}, {"name": ""}, {"name": "x" * 101}):
        response = api.patch("/users/me", body, token=tokens["accessToken"])
        assert response.status_code == 400, body
        assert response.json["code"] == "validation_failed"
    me = api.get("/users/me", token=tokens["accessToken"]).json["data"]
    assert (me["name"], me["locale"], me["timezone"], me["email"]) == ("Ana", "en", "UTC", "ana@example.com")


def test_change_password_keeps_this_session_and_closes_the_others(api, mailbox):
    """204; the caller stays signed in, other sessions end, a notice is mailed."""
    other = api.signup()["tokens"]
    mine = api.login()["tokens"]
    response = api.post("/users/me/change-password",
                        {"currentPassword": "correct horse battery", "newPassword": "a better secret"},
                        token=mine["accessToken"])
    assert response.status_code == 204 and response.data == b""
    assert api.get("/users/me", token=mine["accessToken"]).status_code == 200
    assert api.get("/users/me", token=other["accessToken"]).status_code == 401
    api.login(password="a better secret")
    assert mailbox.last_to("ana@example.com")["Subject"] == "Your password was changed"


def test_change_password_with_a_wrong_current_password(api):
    """A wrong current password is 401 invalid_credentials and the password stays."""
    tokens = api.signup()["tokens"]
    response = api.post("/users/me/change-password",
                        {"currentPassword": "not it at all", "newPassword": "a better secret"},
                        token=tokens["accessToken"])
    assert_problem(response, 401, "invalid_credentials")
    api.login()

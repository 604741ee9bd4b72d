import jwt

from appliance.cli import main
from appliance.core import queue


def test_staff_impersonation_token_redeems_once_with_impersonated_by(api, settings, capsys):
    """The CLI prints a token; redeeming it signs in with impersonatedBy in the JWT; once only."""
    user = api.signup()["user"]
    assert main(["--data-dir", str(settings.data_dir), "staff", "impersonate", "ana@example.com",
                 "--by", "carla@staff"]) == 0
    token = capsys.readouterr().out.strip().splitlines()[-1]
    queue.configure(None, immediate=True)  # the CLI pointed the queue at queue.db
    response = api.post("/auth/impersonate-redeem", {"token": token})
    assert response.status_code == 200, response.json
    claims = jwt.decode(response.json["data"]["tokens"]["accessToken"], options={"verify_signature": False})
    assert claims["impersonatedBy"] == "carla@staff" and claims["sub"] == user["id"]
    again = api.post("/auth/impersonate-redeem", {"token": token})
    assert again.status_code == 401


def test_impersonating_an_unknown_email_fails_cleanly(settings, capsys, app):
    """An unknown email is an error message and exit code 1, not a traceback."""
    assert main(["--data-dir", str(settings.data_dir), "staff", "impersonate", "nobody@example.com"]) == 1
    assert "No account" in capsys.readouterr().err

from appliance.cli import main
from appliance.core import queue
from tests.problems import assert_problem


def test_a_suspended_organization_answers_403_except_its_suspension(api, owner, client, settings, capsys):
    """Staff suspend by CLI: routes answer 403 organization_suspended (people and keys), the
    suspension route says why; unsuspend restores access."""
    org_id = owner["org"]["id"]
    key = api.post(f"/organizations/{org_id}/api-keys", {"name": "k"}, token=owner["token"]).json["data"]["secret"]
    assert main(["--data-dir", str(settings.data_dir), "staff", "suspend", "acme", "--reason", "Unpaid invoice"]) == 0
    queue.configure(None, immediate=True)  # the CLI pointed the queue at queue.db
    denied = api.get(f"/organizations/{org_id}/roles", token=owner["token"])
    assert_problem(denied, 403, "organization_suspended")
    assert client.get(f"/organizations/{org_id}", headers={"X-Api-Key": key}).json["code"] == "organization_suspended"
    suspension = api.get(f"/organizations/{org_id}/suspension", token=owner["token"]).json["data"]
    assert suspension == {"suspended": True, "reason": "Unpaid invoice", "suspendedAt": suspension["suspendedAt"],
                          "pendingInvoices": []}
    assert main(["--data-dir", str(settings.data_dir), "staff", "unsuspend", "acme"]) == 0
    queue.configure(None, immediate=True)
    assert api.get(f"/organizations/{org_id}/roles", token=owner["token"]).status_code == 200
    assert api.get(f"/organizations/{org_id}/suspension", token=owner["token"]).json["data"]["suspended"] is False


def test_suspending_an_unknown_slug_fails_cleanly(settings, app, capsys):
    """Exit code 1 and a sentence."""
    assert main(["--data-dir", str(settings.data_dir), "staff", "suspend", "nope"]) == 1
    assert "No organization" in capsys.readouterr().err

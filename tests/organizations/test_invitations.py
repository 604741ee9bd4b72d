import re

from appliance.core import clock
from tests.factories import add_member
from tests.problems import assert_problem

HTML = {"Accept": "text/html"}


def _invite(api, owner, email="bo@example.com", role_key="agent"):
    org_id = owner["org"]["id"]
    roles = api.get(f"/organizations/{org_id}/roles", token=owner["token"]).json["data"]
    role_id = next(r["id"] for r in roles if r["key"] == role_key)
    return api.post(f"/organizations/{org_id}/invitations", {"email": email, "roleId": role_id}, token=owner["token"])


def _token(mailbox, email="bo@example.com"):
    """The token of the newest invitation mail (other mails, like verification, may come later)."""
    invitations = [m for m in mailbox.to(email) if "invited you" in m["Subject"]]
    return re.search(r"accept\?token=([\w-]+)", invitations[-1].get_content()).group(1)


def test_invite_mail_and_accept_by_api(api, owner, mailbox):
    """The invitee gets a mail; signed in with that email they accept and become a member."""
    response = _invite(api, owner)
    assert response.status_code == 201 and response.json["data"]["role"]["key"] == "agent"
    assert "invited you to Acme" in mailbox.last_to("bo@example.com")["Subject"]
    bo = api.signup(email="bo@example.com")["tokens"]["accessToken"]
    accepted = api.post(f"/invitations/{_token(mailbox)}/accept", token=bo)
    assert accepted.status_code == 201 and accepted.json["data"]["role"]["key"] == "agent"
    assert api.get(f"/organizations/{owner['org']['id']}", token=bo).status_code == 200
    assert api.get(f"/organizations/{owner['org']['id']}/invitations", token=owner["token"]).json["data"] == []


def test_accept_needs_the_invited_email_and_works_once(api, owner, mailbox):
    """Another account gets 403; a used, revoked or expired invitation is 404."""
    _invite(api, owner)
    token = _token(mailbox)
    eve = api.signup(email="eve@example.com")["tokens"]["accessToken"]
    assert api.post(f"/invitations/{token}/accept", token=eve).json["code"] == "invitation_email_mismatch"
    bo = api.signup(email="bo@example.com")["tokens"]["accessToken"]
    assert api.post(f"/invitations/{token}/accept", token=bo).status_code == 201
    assert api.post(f"/invitations/{token}/accept", token=bo).status_code == 404


def test_reinvite_replaces_revoke_and_expiry(api, owner, mailbox):
    """A new invitation kills the old link; revoked and expired links are 404."""
    _invite(api, owner)
    first = _token(mailbox)
    invitation = _invite(api, owner).json["data"]
    second = _token(mailbox)
    bo = api.signup(email="bo@example.com")["tokens"]["accessToken"]
    assert api.post(f"/invitations/{first}/accept", token=bo).status_code == 404
    org_id = owner["org"]["id"]
    assert api.delete(f"/organizations/{org_id}/invitations/{invitation['id']}", token=owner["token"]).status_code == 204
    assert api.post(f"/invitations/{second}/accept", token=bo).status_code == 404
    _invite(api, owner)
    clock.advance(7 * 86400 + 1)
    bo = api.login(email="bo@example.com")["tokens"]["accessToken"]
    assert api.post(f"/invitations/{_token(mailbox)}/accept", token=bo).status_code == 404


def test_invitation_rules(api, owner):
    """Existing members 409, unknown roles 404, bad emails 400, admins cannot invite owners."""
    add_member(api, owner["org"]["id"], "agent", "agent@example.com")
    assert _invite(api, owner, email="agent@example.com").json["code"] == "already_member"
    org_id = owner["org"]["id"]
    assert api.post(f"/organizations/{org_id}/invitations", {"email": "x@example.com",
                    "roleId": "00000000-0000-7000-8000-000000000001"}, token=owner["token"]).status_code == 404
    assert api.post(f"/organizations/{org_id}/invitations", {"email": "nope", "roleId": "x"},
                    token=owner["token"]).status_code == 400
    admin = add_member(api, org_id, "admin", "admin@example.com")
    owner_role = next(r["id"] for r in api.get(f"/organizations/{org_id}/roles", token=owner["token"]).json["data"]
                      if r["key"] == "owner")
    response = api.post(f"/organizations/{org_id}/invitations", {"email": "x@example.com", "roleId": owner_role},
                        token=admin)
    assert_problem(response, 403, "owner_required")


def test_new_person_joins_from_the_emailed_link(api, owner, mailbox, client):
    """The whole journey of the issue: invite, accept from the link as a new person, give a custom
    role, create a scoped key and see it refused outside its scope."""
    org_id = owner["org"]["id"]
    _invite(api, owner)
    link = re.search(r"http://appliance\.test(/invitations/accept\?token=[\w-]+)",
                     mailbox.last_to("bo@example.com").get_content()).group(1)
    page = client.get(link, headers=HTML)
    assert page.status_code == 200 and b"Join Acme" in page.data
    token = link.split("token=")[1]
    joined = client.post("/invitations/accept", data={"token": token, "action": "signup", "name": "Bo",
                                                      "password": "bo's good password"}, headers=HTML)
    assert joined.status_code == 200 and b"You are now a member of Acme" in joined.data
    bo = api.login(email="bo@example.com", password="bo's good password")["tokens"]["accessToken"]
    custom = api.post(f"/organizations/{org_id}/roles", {"name": "Reader", "permissions": ["members:read", "organizations:read"]},
                      token=owner["token"]).json["data"]
    bo_member = next(m["id"] for m in api.get(f"/organizations/{org_id}/memberships", token=owner["token"]).json["data"]
                     if m["email"] == "bo@example.com")
    assert api.patch(f"/organizations/{org_id}/memberships/{bo_member}", {"roleId": custom["id"]},
                     token=owner["token"]).json["data"]["role"]["name"] == "Reader"
    assert api.get(f"/organizations/{org_id}/memberships", token=bo).status_code == 200
    key = api.post(f"/organizations/{org_id}/api-keys", {"name": "crm", "scopes": ["contacts:read"]},
                   token=owner["token"]).json["data"]["secret"]
    refused = client.get(f"/organizations/{org_id}/memberships", headers={"X-Api-Key": key})
    assert_problem(refused, 403, "scope_missing")


def test_existing_account_joins_from_the_link_with_its_password(api, owner, mailbox, client):
    """Signing in on the page with the wrong password shows an error; the right one joins."""
    api.signup(email="bo@example.com", password="bo's good password")
    _invite(api, owner)
    token = _token(mailbox)
    wrong = client.post("/invitations/accept", data={"token": token, "action": "signin", "password": "nope nope"},
                        headers=HTML)
    assert wrong.status_code == 401 and b"The password is incorrect." in wrong.data
    spanish = client.post("/invitations/accept", data={"token": token, "action": "signin", "password": "nope nope"},
                          headers={**HTML, "Accept-Language": "es"})
    assert "La contraseña no es correcta.".encode() in spanish.data
    right = client.post("/invitations/accept", data={"token": token, "action": "signin",
                                                     "password": "bo's good password"}, headers=HTML)
    assert right.status_code == 200 and b"member of Acme" in right.data


def test_the_join_page_applies_the_signup_rules(api, owner, mailbox, client):
    """A too-short password or a name with control characters is refused on the page too."""
    _invite(api, owner)
    token = _token(mailbox)
    for name, password in (("Bo", "short"), ("Bo\x07", "long enough password")):
        page = client.post("/invitations/accept", data={"token": token, "action": "signup", "name": name,
                                                        "password": password}, headers=HTML)
        assert page.status_code == 400, (name, password)
    api.login(email="bo@example.com", password="long enough password", status=401)  # no account was made


def test_a_bad_link_says_so(client):
    """An unknown token shows an explanation with 404."""
    page = client.get("/invitations/accept?token=made-up", headers={"Accept": "text/html", "Accept-Language": "es"})
    assert page.status_code == 404 and "no es válida".encode() in page.data


def _open_way(page) -> str:
    """Which of the join page's two forms is open (its hidden `action`), and that it comes first."""
    ways = re.findall(r'<details( open)?>.*?name="action" value="(\w+)"', page.get_data(as_text=True), re.S)
    assert [opened for opened, _ in ways] == [" open", ""], ways
    return ways[0][1]


def test_the_join_page_opens_on_the_way_that_fits_the_invited_address(api, owner, mailbox, client):
    """Issue 43, item 15b: someone without an account finds "I am new here" open, not "I have an
    account"; once the address has an account, signing in is the way offered first."""
    _invite(api, owner)
    link = f"/invitations/accept?token={_token(mailbox)}"
    assert _open_way(client.get(link, headers=HTML)) == "signup"
    api.signup(email="bo@example.com", password="bo's good password")
    assert _open_way(client.get(link, headers=HTML)) == "signin"
    wrong = client.post("/invitations/accept", data={"token": _token(mailbox), "action": "signup", "name": "Bo",
                                                     "password": "another good one"}, headers=HTML)
    assert wrong.status_code == 409 and _open_way(wrong) == "signup"  # the way just tried stays open

from tests.factories import add_member, another_number
from tests.problems import assert_problem


def _members(api, owner):
    return f"/organizations/{owner['org']['id']}/memberships"


def _member_id(api, owner, email):
    return next(m["id"] for m in api.get(_members(api, owner), token=owner["token"]).json["data"]
                if m["email"] == email)


def _role_id(api, owner, key):
    return next(r["id"] for r in api.get(f"/organizations/{owner['org']['id']}/roles",
                                         token=owner["token"]).json["data"] if r["key"] == key)


def test_set_role_and_remove(api, owner):
    """An owner promotes an agent to supervisor, then removes them; their access ends."""
    agent = add_member(api, owner["org"]["id"], "agent", "agent@example.com")
    member = _member_id(api, owner, "agent@example.com")
    response = api.patch(f"{_members(api, owner)}/{member}", {"roleId": _role_id(api, owner, "supervisor")},
                         token=owner["token"])
    assert response.status_code == 200 and response.json["data"]["role"]["key"] == "supervisor"
    assert api.delete(f"{_members(api, owner)}/{member}", token=owner["token"]).status_code == 204
    assert api.get(f"/organizations/{owner['org']['id']}", token=agent).json["code"] == "not_a_member"


def test_the_last_owner_cannot_be_demoted_or_removed(api, owner):
    """409 last_owner, until a second owner exists."""
    me = _member_id(api, owner, "owner@example.com")
    demote = api.patch(f"{_members(api, owner)}/{me}", {"roleId": _role_id(api, owner, "admin")}, token=owner["token"])
    assert_problem(demote, 409, "last_owner")
    assert api.delete(f"{_members(api, owner)}/{me}", token=owner["token"]).json["code"] == "last_owner"
    add_member(api, owner["org"]["id"], "owner", "second@example.com")
    assert api.patch(f"{_members(api, owner)}/{me}", {"roleId": _role_id(api, owner, "admin")},
                     token=owner["token"]).status_code == 200


def test_admins_cannot_touch_owners_or_make_owners(api, owner):
    """owner_required for an admin demoting an owner or promoting to owner."""
    admin = add_member(api, owner["org"]["id"], "admin", "admin@example.com")
    add_member(api, owner["org"]["id"], "agent", "agent@example.com")
    owner_member = _member_id(api, owner, "owner@example.com")
    agent_member = _member_id(api, owner, "agent@example.com")
    assert api.patch(f"{_members(api, owner)}/{owner_member}", {"roleId": _role_id(api, owner, "agent")},
                     token=admin).json["code"] == "owner_required"
    assert api.patch(f"{_members(api, owner)}/{agent_member}", {"roleId": _role_id(api, owner, "owner")},
                     token=admin).json["code"] == "owner_required"
    assert api.delete(f"{_members(api, owner)}/{owner_member}", token=admin).status_code == 403


def test_unknown_role_and_foreign_member_ids(api, owner):
    """A role id or member id from elsewhere is 404; a malformed one 400."""
    add_member(api, owner["org"]["id"], "agent", "agent@example.com")
    member = _member_id(api, owner, "agent@example.com")
    missing_role = api.patch(f"{_members(api, owner)}/{member}",
                             {"roleId": "00000000-0000-7000-8000-000000000000"}, token=owner["token"])
    assert_problem(missing_role, 404, "role_not_found")
    assert api.patch(f"{_members(api, owner)}/{member}", {"roleId": "nope"}, token=owner["token"]).status_code == 400
    other = api.signup(email="other@example.com")["tokens"]["accessToken"]
    other_org = api.post("/organizations", {"name": "O", "slug": "other", "billingEmail": "b@o.test"},
                         token=other).json["data"]
    other_member = api.get(f"/organizations/{other_org['id']}/memberships", token=other).json["data"][0]["id"]
    assert api.delete(f"{_members(api, owner)}/{other_member}", token=owner["token"]).status_code == 404
    assert len(api.get(f"/organizations/{other_org['id']}/memberships", token=other).json["data"]) == 1


def test_suspension_ends_access_at_once_and_is_reversible(api, owner):
    """A suspended member's current token stops working in the organization; reactivation restores it."""
    agent = add_member(api, owner["org"]["id"], "agent", "agent@example.com")
    member = _member_id(api, owner, "agent@example.com")
    org_url = f"/organizations/{owner['org']['id']}"
    response = api.patch(f"/memberships/{member}/suspension", {"suspended": True}, token=owner["token"])
    assert response.status_code == 200 and response.json["data"]["suspended"] is True
    assert api.get(org_url, token=agent).json["code"] == "membership_suspended"
    api.patch(f"/memberships/{member}/suspension", {"suspended": False}, token=owner["token"])
    assert api.get(org_url, token=agent).status_code == 200


def test_suspension_rules(api, owner):
    """Nobody suspends themselves; agents cannot suspend; outsiders get 403."""
    agent = add_member(api, owner["org"]["id"], "agent", "agent@example.com")
    me = _member_id(api, owner, "owner@example.com")
    assert api.patch(f"/memberships/{me}/suspension", {"suspended": True},
                     token=owner["token"]).json["code"] == "cannot_suspend_self"
    assert api.patch(f"/memberships/{me}/suspension", {"suspended": True}, token=agent).status_code == 403
    outsider = api.signup(email="x@example.com")["tokens"]["accessToken"]
    assert api.patch(f"/memberships/{me}/suspension", {"suspended": True}, token=outsider).status_code == 404  # as unknown


def test_waba_scope(api, owner):
    """PUT waba-scope stores the list (deduplicated); ids must be UUIDs."""
    add_member(api, owner["org"]["id"], "agent", "agent@example.com")
    member = _member_id(api, owner, "agent@example.com")
    waba = another_number(owner["org"]["id"])["wabaPk"]
    response = api.put(f"{_members(api, owner)}/{member}/waba-scope", {"wabaIds": [waba, waba]}, token=owner["token"])
    assert response.status_code == 200 and response.json["data"]["wabaIds"] == [waba]
    assert api.put(f"{_members(api, owner)}/{member}/waba-scope", {"wabaIds": ["x"]},
                   token=owner["token"]).status_code == 400


def test_preferences_merge(api, owner):
    """Preferences merge per key; null removes one; another organization is 403."""
    org_id = owner["org"]["id"]
    api.patch("/memberships/me/preferences", {"organizationId": org_id, "preferences": {"theme": "dark", "density": "compact"}},
              token=owner["token"])
    response = api.patch("/memberships/me/preferences", {"organizationId": org_id, "preferences": {"density": None}},
                         token=owner["token"])
    assert response.status_code == 200 and response.json["data"]["preferences"] == {"theme": "dark"}
    other = api.signup(email="o@example.com")["tokens"]["accessToken"]
    assert api.patch("/memberships/me/preferences", {"organizationId": org_id, "preferences": {}},
                     token=other).status_code == 403

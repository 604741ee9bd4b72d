from tests.factories import add_member


def _org(api, token, slug):
    return api.post("/organizations", {"name": slug.title(), "slug": slug, "billingEmail": "b@x.test"},
                    token=token).json["data"]["id"]


def test_link_caps_and_unlink(api, owner):
    """An owner of both links a child, the parent caps its AI spend, unlinking moves it to free."""
    parent, token = owner["org"]["id"], owner["token"]
    child = _org(api, token, "acme-branch")
    linked = api.post(f"/organizations/{child}/billing-group/link", {"parentOrgId": parent}, token=token)
    assert linked.status_code == 201 and linked.json["data"]["parent"]["id"] == parent
    group = api.get(f"/organizations/{parent}/billing-group", token=token).json["data"]
    assert [c["id"] for c in group["children"]] == [child]
    capped = api.patch(f"/organizations/{parent}/billing-group/{child}/ai-limits",
                       {"dailyUsd": 5, "monthlyUsd": None}, token=token)
    assert capped.status_code == 200 and capped.json["data"]["aiLimits"] == {"dailyUsd": 5.0, "monthlyUsd": None}
    unlinked = api.post(f"/organizations/{child}/billing-group/unlink", token=token)
    assert unlinked.status_code == 201 and unlinked.json["data"]["parent"] is None
    me = unlinked.json["data"]["organization"]
    assert me["planSlug"] == "free" and me["aiLimits"] == {"dailyUsd": None, "monthlyUsd": None}


def test_link_rules(api, owner):
    """Self, foreign parents, two levels and non-owners are refused."""
    parent, token = owner["org"]["id"], owner["token"]
    child = _org(api, token, "acme-branch")
    assert api.post(f"/organizations/{parent}/billing-group/link", {"parentOrgId": parent},
                    token=token).json["code"] == "invalid_billing_parent"
    stranger = api.signup(email="s@example.com")["tokens"]["accessToken"]
    foreign = _org(api, stranger, "stranger")
    assert api.post(f"/organizations/{child}/billing-group/link", {"parentOrgId": foreign},
                    token=token).json["code"] == "not_parent_owner"
    api.post(f"/organizations/{child}/billing-group/link", {"parentOrgId": parent}, token=token)
    grandchild = _org(api, token, "acme-kiosk")
    assert api.post(f"/organizations/{grandchild}/billing-group/link", {"parentOrgId": child},
                    token=token).json["code"] == "invalid_billing_parent"
    admin = add_member(api, child, "admin", "admin@example.com")
    assert api.post(f"/organizations/{child}/billing-group/unlink", token=admin).status_code == 403


def test_ai_limits_only_for_own_children_and_valid_amounts(api, owner):
    """A non-child is 404; negative amounts and missing fields are 400."""
    parent, token = owner["org"]["id"], owner["token"]
    other = _org(api, token, "acme-other")
    assert api.patch(f"/organizations/{parent}/billing-group/{other}/ai-limits", {"dailyUsd": 1, "monthlyUsd": 2},
                     token=token).json["code"] == "not_a_child"
    for body in ({"dailyUsd": -1, "monthlyUsd": None}, {"dailyUsd": 1}, {"dailyUsd": "lots", "monthlyUsd": 1}):
        assert api.patch(f"/organizations/{parent}/billing-group/{other}/ai-limits", body,
                         token=token).status_code == 400, body

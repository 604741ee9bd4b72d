import pytest


@pytest.fixture
def owner(api):
    """A signed-in person who owns the organization 'acme'."""
    token = api.signup(email="owner@example.com")["tokens"]["accessToken"]
    org = api.post("/organizations", {"name": "Acme", "slug": "acme", "billingEmail": "billing@acme.test"},
                   token=token)
    assert org.status_code == 201, org.json
    return {"token": token, "org": org.json["data"]}


def add_member(api, org_id, role_key, email):
    """Put a new person in the organization with a system role (directly: invitations come later)."""
    from appliance.core import runtime
    from appliance.memberships import service as memberships_service
    from appliance.roles.models import Role
    from sqlmodel import select

    data = api.signup(email=email)
    with runtime.get().db.unit_of_work(write=True) as session:
        role = session.exec(select(Role).where(Role.organization_id == org_id, Role.key == role_key)).one()
        memberships_service.do_add_member(session, organization_id=org_id, user_id=data["user"]["id"],
                                          role_id=role.id)
    return data["tokens"]["accessToken"]

"""The common records, made the way a user would make them (through the API), in one call each.

Passwords cost nothing here: the suite hashes with argon2id's cheapest parameters (tests/conftest.py)."""

from __future__ import annotations

from sqlmodel import select

from appliance.core import runtime
from appliance.memberships import service as memberships_service
from appliance.roles.models import Role


def person(api, email: str = "ana@example.com", **fields) -> dict:
    """A signed-up person: `{user, tokens}`."""
    return api.signup(email=email, **fields)


def organization(api, token: str, name: str = "Acme", slug: str = "acme") -> dict:
    """An organization created by the person of `token` (its owner)."""
    created = api.post("/organizations", {"name": name, "slug": slug, "billingEmail": f"billing@{slug}.test"},
                       token=token)
    assert created.status_code == 201, created.json
    return created.json["data"]


def owner(api, email: str = "owner@example.com") -> dict:
    """A signed-in person who owns the organization 'acme': `{token, org}`."""
    token = person(api, email=email)["tokens"]["accessToken"]
    return {"token": token, "org": organization(api, token)}


def add_member(api, org_id: str, role_key: str, email: str) -> str:
    """A new person in the organization with a system role (directly: invitations are tested apart);
    their access token."""
    data = person(api, email=email)
    with runtime.get().db.unit_of_work(write=True) as session:
        role = session.exec(select(Role).where(Role.organization_id == org_id, Role.key == role_key)).one()
        memberships_service.do_add_member(session, organization_id=org_id, user_id=data["user"]["id"],
                                          role_id=role.id)
    return data["tokens"]["accessToken"]


def another_number(org_id: str) -> dict:
    """A second business account with one number in the organization (rows only, never on the
    network): what a key or a member restricted to "another number" needs to name, since
    restrictions only take the organization's own ids. `{wabaPk, phoneNumberPk}`."""
    from appliance.core import clock
    from appliance.phone_numbers.models import PhoneNumber
    from appliance.wabas.models import BusinessAccount
    import secrets
    now, network_id = clock.now(), str(900_000_000 + secrets.randbelow(99_999_999))
    keyring = runtime.get().keyring
    with runtime.get().db.unit_of_work(write=True) as session:
        account = BusinessAccount(organization_id=org_id, waba_id=network_id, name="Otra",
                                  access_token_sealed=keyring.seal("EAAGother"), app_secret_sealed=keyring.seal("s"),
                                  created_at=now, updated_at=now)
        session.add(account)
        session.flush()
        number = PhoneNumber(organization_id=org_id, waba_pk=account.id, phone_number_id=network_id + "2",
                             display_phone_number="+1 555 999 0000", verified_name="Otra", created_at=now,
                             updated_at=now)
        session.add(number)
        session.flush()
        return {"wabaPk": account.id, "phoneNumberPk": number.id}

"""Business accounts: connect one by id + token + app secret (its numbers are imported from the
network), list, read, disconnect. Secrets are sealed at rest and never returned. A key or member
kept to some numbers reads the accounts of those numbers and changes (or adds to) only an account
whose every number it reaches; it connects none (core.tenancy.NumberScope).

The network is asked before anything is written: no transaction (and no write lock) is held while
waiting for the Graph API.
"""

from __future__ import annotations

from sqlalchemy import func
from sqlmodel import Session, select

from appliance.core import clock, events, runtime, tenancy
from appliance.core.actor import OrgActor
from appliance.core.rows import read_row
from appliance.core.errors import Conflict, Invalid
from appliance.wabas.network import graph_client
from appliance.graph_api.client import GraphError
from appliance.phone_numbers import service as phone_numbers_service
from appliance.phone_numbers.models import PhoneNumber
from appliance.wabas.network import as_app_error
from appliance.wabas.models import BusinessAccount
from appliance.contacts.service import normalize_wa_id
from appliance.organizations import entitlements


def check_connect(session: Session, *, actor: OrgActor, waba_id: str, access_token: str, app_secret: str,
                  verify_token: str | None = None, name: str | None = None, pin: str | None = None) -> BusinessAccount:
    """Connect a business account once the network says it will work: the token reads the
    account's numbers, the app is subscribed to its webhooks, and every number is registered for
    the Cloud API (with `pin`; 400 `pin_required` naming them when one is not and no PIN came).
    Every refusal of the network is said with its guidance; nothing is stored until all passed."""
    phone_numbers_service.scope_of(session, actor).check_covers_account(None)  # before asking the network
    check_account_room(session, actor.organization_id)
    client = graph_client()
    try:
        numbers = client.list_phone_numbers(access_token, waba_id)
    except GraphError as error:
        raise as_app_error(error, what="when reading the business account's phone numbers") from None
    unregistered = [n for n in numbers if n.get("platform_type") not in (None, "CLOUD_API")]
    if unregistered and not pin:
        shown = ", ".join(str(n.get("display_phone_number") or n.get("id")) for n in unregistered)
        raise Invalid(f"{shown} is not registered for the WhatsApp Cloud API yet: give its six-digit two-step "
                      "verification PIN (a new PIN if it never had one) to register it.", code="pin_required",
                      errors={"pin": [f"Needed to register {shown}."]})
    try:
        client.subscribe_app(access_token, waba_id)
    except GraphError as error:
        raise as_app_error(error, what="when subscribing the app to the business account's webhooks") from None
    for number in unregistered:
        try:
            client.register_number(access_token, str(number["id"]), pin)
        except GraphError as error:
            raise as_app_error(error, what=f"when registering {number.get('display_phone_number')}") from None
        number["platform_type"] = "CLOUD_API"
    connected = session.exec(select(BusinessAccount).where(BusinessAccount.waba_id == waba_id,
                                                           BusinessAccount.disconnected_at.is_(None))).first()
    if connected is not None:
        # Same answer whichever organization holds it: nothing tells another tenant's data apart.
        raise Conflict("This business account is already connected.", code="waba_already_connected")
    return do_connect(session, actor=actor, waba_id=waba_id, access_token=access_token, app_secret=app_secret,
                      verify_token=verify_token, name=name, numbers=numbers)


def check_account_room(session: Session, organization_id: str) -> None:
    """Room for one more connected business account (402 entitlement_exceeded, billing on)."""
    connected = session.exec(select(func.count()).select_from(BusinessAccount).where(
        BusinessAccount.organization_id == organization_id, BusinessAccount.disconnected_at.is_(None))).one()
    entitlements.check_room(session, organization_id, entitlements.WABA, in_use=connected)


def do_connect(session: Session, *, actor: OrgActor, waba_id: str, access_token: str, app_secret: str,
               verify_token: str | None, name: str | None, numbers: list[dict], sandbox: bool = False) -> BusinessAccount:
    keyring = runtime.get().keyring
    now = clock.now()
    account = BusinessAccount(organization_id=actor.organization_id, waba_id=waba_id,
                              name=name or _name_from(numbers, waba_id),
                              access_token_sealed=keyring.seal(access_token), app_secret_sealed=keyring.seal(app_secret),
                              verify_token_hash=keyring.token_hash(verify_token) if verify_token else None,
                              sandbox=sandbox, created_by=actor.user_id, created_at=now, updated_at=now)
    session.add(account)
    session.flush()
    imported = phone_numbers_service.do_import(session, account=account, numbers=numbers)
    events.emit(session, events.WABA_CONNECTED, organization_id=account.organization_id, wabaId=account.id,
                phoneNumberIds=[n.id for n in imported])
    return account


def _name_from(numbers: list[dict], waba_id: str) -> str:
    names = [n.get("verified_name") for n in numbers if n.get("verified_name")]
    return (names[0] if names else f"WhatsApp Business Account {waba_id}")[:100]


def list_wabas(session: Session, *, actor: OrgActor) -> list[BusinessAccount]:
    query = (select(BusinessAccount)
             .where(BusinessAccount.organization_id == actor.organization_id, BusinessAccount.disconnected_at.is_(None))
             .order_by(BusinessAccount.created_at))
    scope = phone_numbers_service.scope_of(session, actor)
    return list(session.exec(scope.only_accounts(query, BusinessAccount.id)).all())


def access_waba(session: Session, *, actor: OrgActor, waba_pk: str) -> BusinessAccount:
    """A connected account the actor reaches: 404 for another tenant's and for one outside its scope."""
    scope = phone_numbers_service.scope_of(session, actor)
    return tenancy.access_in_org(
        session, BusinessAccount, waba_pk, actor, what="business account", code="waba_not_found",
        usable=lambda account: account.disconnected_at is None and scope.reaches_account(account.id))


def _own_waba(session: Session, actor: OrgActor, waba_pk: str) -> BusinessAccount:
    """An account the actor may change: one it reaches (404) whose every number it reaches (403)."""
    account = access_waba(session, actor=actor, waba_pk=waba_pk)
    phone_numbers_service.scope_of(session, actor).check_covers_account(account.id)
    return account


def account_for_new_records(session: Session, *, actor: OrgActor, waba_pk: str) -> BusinessAccount:
    """The connected account a new template or flow goes to, named in a body: the organization's (404
    otherwise), and 403 `phone_number_not_allowed` unless the actor reaches every number of it."""
    account = tenancy.access_in_org(session, BusinessAccount, waba_pk, actor, what="business account",
                                    code="waba_not_found", usable=lambda account: account.disconnected_at is None)
    phone_numbers_service.scope_of(session, actor).check_covers_account(account.id)
    return account


def do_disconnect(session: Session, *, actor: OrgActor, waba_pk: str) -> BusinessAccount:
    """Stop using the account: its numbers stop sending and receiving; conversations stay."""
    account = _own_waba(session, actor, waba_pk)
    now = clock.now()
    account.disconnected_at = account.updated_at = now
    session.add(account)
    phone_numbers_service.do_disconnect_all(session, account=account)
    events.emit(session, events.WABA_DISCONNECTED, organization_id=account.organization_id, wabaId=account.id)
    return account


def credentials(account: BusinessAccount) -> tuple[str, str]:
    """(access token, app secret) in clear, for calls to the network and signature checks."""
    keyring = runtime.get().keyring
    return keyring.unseal(account.access_token_sealed), keyring.unseal(account.app_secret_sealed)


def access_number_with_token(actor: OrgActor, phone_number_pk: str) -> tuple[PhoneNumber, str]:
    """One of the actor's numbers and its account's access token, read in a reading unit of their
    own: the caller then talks to the network without holding the write lock."""
    with runtime.get().db.unit_of_work(write=False) as reading:
        number = phone_numbers_service.access_phone_number(reading, actor=actor, phone_number_pk=phone_number_pk)
        return number, credentials(reading.get(BusinessAccount, number.waba_pk))[0]


def find_connected_number(session: Session, phone_number_id: str):
    """The connected number the network calls `phone_number_id` (routing of inbound webhooks), with
    its business account read in the same statement (`read_row(wabas, id=...)` is then free). A
    read-only row: every delivery routes through here."""
    return read_row(session, PhoneNumber.__table__, phone_number_id=phone_number_id, absent=("disconnected_at",),
                    with_parent=(BusinessAccount.__table__, "waba_pk"))


def do_mark_needs_reauth(session: Session, *, waba_pk: str) -> None:
    """The network refused the account's token as invalid or expired (190, and only that): a person
    must connect it again with a new token. Announced once, when it happens."""
    account = session.get(BusinessAccount, waba_pk)
    if account is None or account.needs_reauth_at is not None:
        return
    account.needs_reauth_at = account.updated_at = clock.now()
    session.add(account)
    events.emit(session, events.WABA_NEEDS_REAUTH, organization_id=account.organization_id, wabaId=account.id)


def check_resubscribe(session: Session, *, actor: OrgActor, waba_pk: str) -> BusinessAccount:
    account = _own_waba(session, actor, waba_pk)
    try:
        graph_client().subscribe_app(credentials(account)[0], account.waba_id)
    except GraphError as error:
        raise as_app_error(error, what="when subscribing to the business account's webhooks") from None
    return account


TEST_TEMPLATE = {"name": "hello_world", "language": {"code": "en_US"}}  # every new business account has it


def check_send_test(*, actor: OrgActor, phone_number_pk: str, to: str) -> str:
    """The checklist's last step: Meta's `hello_world` template from one of the actor's numbers to a
    phone of the person's own (a template: no conversation is open with it). Answers the wamid;
    400 `invalid_phone` for what cannot be a phone number; every refusal of the network with its
    guidance (a test number sends only to the phones listed in Meta's dashboard: 131030)."""
    wa_id = normalize_wa_id(to)
    if wa_id is None:
        raise Invalid("Write the phone number with its country code, like +57 300 123 4567.", code="invalid_phone",
                      errors={"to": ["A phone number with its country code."]})
    number, token = access_number_with_token(actor, phone_number_pk)
    try:
        answer = graph_client().send_message(token, number.phone_number_id,
                                             {"to": wa_id, "type": "template", "template": TEST_TEMPLATE})
    except GraphError as error:
        raise as_app_error(error, what=f"when sending the test message to +{wa_id}") from None
    return answer["messages"][0]["id"]

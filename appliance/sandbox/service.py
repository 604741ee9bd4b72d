"""Sandbox business accounts: created in the simulator and connected like real ones."""

from __future__ import annotations

import secrets
from urllib.parse import urlsplit

from sqlmodel import Session, select

from appliance.ai_agents import providers as ai_providers
from appliance.ai_agents.models import ProviderCredential
from appliance.billing import money
from appliance.catalog import service as catalog_service
from appliance.core import runtime
from appliance.core.actor import OrgActor
from appliance.einvoicing import service as einvoicing
from appliance.core.errors import Invalid, NotFound
from appliance.netsim.network import new_graph_id
from appliance.phone_numbers.models import PhoneNumber
from appliance.sandbox import sample_stickers
from appliance.templates.models import Template
from appliance.wabas import service as wabas_service
from appliance.wabas.models import BusinessAccount

SANDBOX_NAME = "Sandbox (simulated network)"


# The sandbox's access tokens say so: a process that meets one its simulator does not know (the
# worker sending for an organization that tried the sandbox in the web process after the worker
# started) reads the stored accounts again instead of calling the real network with it.
TOKEN_PREFIX = "EAAGsandbox"


def sandbox_number(organization_id: str) -> str:
    """The sandbox number's display, stable per organization: a North American number of the
    555-01XX range kept for fiction (+1, an area code, 555 01XX: eleven digits, as a real one has),
    the area code varied so organizations rarely share one."""
    suffix = int(organization_id.replace("-", ""), 16) % 10_000
    return f"+1 {200 + suffix // 100} 555 01{suffix % 100:02d}"


def do_connect_sandbox(session: Session, new_account, *, organization_id: str, webhook_url: str) -> BusinessAccount:
    """A simulated account with one number, connected to the organization (as a person would with
    a real one, minus the network round trip). `new_account(**spec)` makes it on the simulated
    network and answers it as the control API does (sandbox.new_account)."""
    existing = session.exec(select(BusinessAccount).where(BusinessAccount.organization_id == organization_id,
                                                          BusinessAccount.sandbox.is_(True))).first()
    if existing is not None:
        return existing
    account = new_account(name=SANDBOX_NAME, webhook_url=webhook_url, access_token=TOKEN_PREFIX + secrets.token_urlsafe(32),
                          numbers=[{"displayPhoneNumber": sandbox_number(organization_id), "verifiedName": SANDBOX_NAME}])
    system = OrgActor(user_id=None, kind="system", organization_id=organization_id, membership_id=None, role_key=None,
                      permissions=frozenset())
    return wabas_service.do_connect(session, actor=system, waba_id=account["wabaId"], access_token=account["accessToken"],
                                    app_secret=account["appSecret"], verify_token=None, name=SANDBOX_NAME,
                                    numbers=account["numbers"], sandbox=True)


def do_configure_ai_double(session: Session, *, organization_id: str, base_url: str) -> None:
    """The LOCAL provider pointed at the simulator's AI double, so agents answer in the sandbox with
    no key and no outside service (an owner's own LOCAL setting is kept)."""
    if session.get(ProviderCredential, (organization_id, "LOCAL")) is not None:
        return
    ai_providers.do_put(session, actor=_system(organization_id), provider="LOCAL", base_url=base_url)


def do_configure_factus_double(session: Session, *, organization_id: str, credentials: dict) -> None:
    """E-invoices made at the simulator's Factus double, so a sale is invoiced in the sandbox with
    no provider account (an owner's own account is kept)."""
    einvoicing.do_use_sandbox_double(session, organization_id=organization_id, credentials=credentials)


def _system(organization_id: str) -> OrgActor:
    return OrgActor(user_id=None, kind="system", organization_id=organization_id, membership_id=None, role_key=None,
                    permissions=frozenset())


def repoint_ai_doubles(url: str) -> int:
    """The sandbox organizations' LOCAL providers that point at the AI double, pointed at it where
    this server serves it (they keep the address of the server that made them, which may have run on
    another port). Only organizations with a sandbox account: another's address is its own. Answers
    how many moved."""
    path = urlsplit(url).path
    with runtime.get().db.unit_of_work(write=True) as session:
        sandboxed = select(BusinessAccount.organization_id).where(BusinessAccount.sandbox.is_(True))
        rows = session.exec(select(ProviderCredential).where(ProviderCredential.provider == "LOCAL",
                                                             ProviderCredential.organization_id.in_(sandboxed))).all()
        moved = [row for row in rows if row.base_url and urlsplit(row.base_url).path == path and row.base_url != url]
        for row in moved:
            row.base_url = url
            session.add(row)
        return len(moved)


def restore(simulator, webhook_url: str) -> int:
    """Recreate the stored sandbox accounts (ids, token, secret, numbers, templates) in the
    simulator, those it does not hold yet (all of them in a fresh one); answers how many. Without
    their templates, every campaign after a restart failed (132001, the template does not exist)
    while the console showed them approved; one still in review is reviewed again."""
    # Reviewed by the simulator customers and the Graph calls reach (a worker process's copy serves
    # neither: its approval would be announced twice).
    reviews_here = runtime.get().settings.role != "worker"
    with runtime.get().db.unit_of_work(write=False) as session:
        accounts = [account for account in session.exec(select(BusinessAccount).where(
            BusinessAccount.sandbox.is_(True), BusinessAccount.disconnected_at.is_(None))).all()
            if account.waba_id not in simulator.network.accounts]
        for account in accounts:
            token, secret = wabas_service.credentials(account)
            numbers = session.exec(select(PhoneNumber).where(PhoneNumber.waba_pk == account.id)).all()
            simulator.network.create_account(
                name=account.name, waba_id=account.waba_id, access_token=token, app_secret=secret,
                webhook_url=webhook_url, numbers=[{"phoneNumberId": n.phone_number_id, "verifiedName": n.verified_name,
                                                   "displayPhoneNumber": n.display_phone_number} for n in numbers])
            templates = simulator.network.accounts[account.waba_id].templates
            for template in session.exec(select(Template).where(Template.waba_pk == account.id)).all():
                templates[(template.name, template.language)] = {
                    "id": template.template_id or new_graph_id(), "name": template.name, "language": template.language,
                    "category": template.category, "status": template.status, "components": template.components,
                    "parameter_format": template.parameter_format}
                if template.status == "PENDING" and reviews_here:
                    simulator.review_later(account.waba_id, template.name, template.language)
        return len(accounts)


def sandbox_numbers(session: Session, *, organization_id: str) -> list[PhoneNumber]:
    """The organization's numbers on the simulated network (its sandbox accounts')."""
    return list(session.exec(
        select(PhoneNumber).join(BusinessAccount, BusinessAccount.id == PhoneNumber.waba_pk)
        .where(BusinessAccount.organization_id == organization_id, BusinessAccount.sandbox.is_(True),
               BusinessAccount.disconnected_at.is_(None))
        .order_by(PhoneNumber.created_at)).all())


def do_try_sandbox(session: Session, new_account, *, actor: OrgActor, webhook_url: str) -> BusinessAccount:
    """An organization asks for its sandbox account from the console (on any server: its calls
    go to the in-process simulator by token). Asking again answers the same account."""
    return do_connect_sandbox(session, new_account, organization_id=actor.organization_id, webhook_url=webhook_url)


SIMULATED_CUSTOMER = ("5215550001234", "Cliente de prueba")


def _played_number(session: Session, actor: OrgActor, phone_number_pk: str) -> PhoneNumber:
    number = next((n for n in sandbox_numbers(session, organization_id=actor.organization_id)
                   if n.id == phone_number_pk), None)
    if number is None:
        raise NotFound("No sandbox number with this id in this organization.", code="sandbox_number_not_found")
    return number


def check_customer_writes(session: Session, simulator, *, actor: OrgActor, phone_number_pk: str, text: str) -> str:
    """The simulated customer writes `text` to one of the organization's sandbox numbers; the
    simulator posts the webhook as Meta would. Answers the message's wamid."""
    number = _played_number(session, actor, phone_number_pk)
    text = text.strip()
    if not 0 < len(text) <= 4096:
        raise Invalid("Write between 1 and 4,096 characters.", code="invalid_text",
                      errors={"text": ["Between 1 and 4,096 characters."]})
    wa_id, name = SIMULATED_CUSTOMER
    return simulator.customer_writes(number.phone_number_id, wa_id, {"type": "text", "text": {"body": text}}, name=name)


def check_customer_sends_sticker(session: Session, simulator, *, actor: OrgActor, phone_number_pk: str,
                                 sample: str) -> str:
    """The simulated customer sends one of the sample stickers (sample_stickers.py: a still one, an
    animated one), as a customer's phone sends a sticker. Answers the wamid."""
    number = _played_number(session, actor, phone_number_pk)
    if sample not in sample_stickers.SAMPLES:
        raise Invalid(f"One of the sample stickers: {', '.join(sample_stickers.SAMPLES)}.", code="invalid_sticker",
                      errors={"sample": ["Not a sample sticker."]})
    wa_id, name = SIMULATED_CUSTOMER
    return simulator.customer_sends_sticker(number.phone_number_id, wa_id, sample_stickers.webp(sample), name=name)


def check_customer_taps(session: Session, simulator, *, actor: OrgActor, phone_number_pk: str, kind: str,
                        reply_id: str, title: str) -> str:
    """The simulated customer taps a reply button or a list row of a message they were sent (a
    bot's flow, a survey): the network's `button_reply` / `list_reply`. Answers the wamid."""
    number = _played_number(session, actor, phone_number_pk)
    if kind not in ("button_reply", "list_reply") or not 0 < len(reply_id) <= 256 or not 0 < len(title) <= 24:
        raise Invalid("A reply button or list row: its id and title.", code="invalid_reply",
                      errors={"reply": ["A button_reply or list_reply with an id and a title."]})
    wa_id, name = SIMULATED_CUSTOMER
    return simulator.customer_writes(number.phone_number_id, wa_id, {
        "type": "interactive", "interactive": {"type": kind, kind: {"id": reply_id, "title": title}}}, name=name)


def check_customer_orders(session: Session, simulator, *, actor: OrgActor, phone_number_pk: str,
                          quantities: dict[str, int]) -> str:
    """The simulated customer sends a cart of products they were shown (WhatsApp's `order`
    message), each at its price in the catalog Meta holds. Answers the wamid."""
    number = _played_number(session, actor, phone_number_pk)
    products = catalog_service.by_retailer_ids(session, actor.organization_id, list(quantities))
    items = [(products[r], q) for r, q in quantities.items() if r in products and products[r].meta_catalog_id and 0 < q <= 99]
    if not items:
        raise Invalid("Choose at least one product of the catalog (1 to 99 of each).", code="empty_cart",
                      errors={"product": ["None."]})
    wa_id, name = SIMULATED_CUSTOMER
    return simulator.customer_writes(number.phone_number_id, wa_id, {"type": "order", "order": {
        "catalog_id": items[0][0].meta_catalog_id,
        "product_items": [{"product_retailer_id": p.retailer_id, "quantity": q,
                           "item_price": money.text(p.price_minor, p.currency), "currency": p.currency} for p, q in items]}},
        name=name)


def plays_customer(session: Session, *, organization_id: str, phone_number_pk: str, wa_id: str | None) -> bool:
    """Is this the sandbox's simulated customer on a sandbox number (whose part people may play)?"""
    return wa_id == SIMULATED_CUSTOMER[0] and any(
        n.id == phone_number_pk for n in sandbox_numbers(session, organization_id=organization_id))

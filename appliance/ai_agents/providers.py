"""An organization's AI providers: credentials sealed at rest and never returned, the address
(LOCAL needs one; the others default to the vendor's), and the last error a call met, so the
console can say what is wrong before a customer meets it. An address is a tenant's choice: it
follows the installation's rule on addresses (installation/addresses.py) when it is saved and at
every call, and what a provider answers is never passed on beyond its model list (the clients'
errors are sentences of ours)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlmodel import Session, select

from appliance.ai_agents import catalog
from appliance.ai_agents.models import ProviderCredential
from appliance.ai_providers.base import TIMEOUT, ChatClient, ProviderError
from appliance.ai_providers.clients import PROVIDERS, client_for
from appliance.core import clock, outside_calls, runtime
from appliance.core.actor import OrgActor
from appliance.core.db import Database
from appliance.core.rows import read_row
from appliance.core.errors import GatewayTimeout, Invalid, NotFound
from appliance.installation import addresses

LOCAL = "LOCAL"
TIMEOUT_SECONDS = 30.0


@dataclass(frozen=True)
class ProviderStatus:
    provider: str
    configured: bool
    base_url: str | None
    last_error: str | None
    last_checked_at: datetime | None


def _status(provider: str, row: ProviderCredential | None) -> ProviderStatus:
    configured = row is not None and (row.api_key_sealed is not None or (provider == LOCAL and bool(row.base_url)))
    return ProviderStatus(provider, configured, row.base_url if row else None, row.last_error if row else None,
                          row.last_checked_at if row else None)


def list_providers(session: Session, *, actor: OrgActor) -> list[ProviderStatus]:
    rows = {row.provider: row for row in session.exec(select(ProviderCredential).where(
        ProviderCredential.organization_id == actor.organization_id)).all()}
    return [_status(provider, rows.get(provider)) for provider in PROVIDERS]


def do_put(session: Session, *, actor: OrgActor, provider: str, api_key: str | None = None,
           base_url: str | None = None, clear_base_url: bool = False) -> ProviderStatus:
    """Set the key and/or the address; a key not given keeps the one stored. LOCAL needs an address
    (400 base_url_required); the others need a key the first time (400 api_key_required). An
    address the appliance may not reach is 400 url_not_allowed (looked up before the unit's first
    statement: no write lock waits for a name server)."""
    if base_url:
        base_url = addresses.check_url(base_url, field="baseUrl", base=True)
    catalog.check_provider(provider)
    now = clock.now()
    row = session.get(ProviderCredential, (actor.organization_id, provider))
    if row is None:
        row = ProviderCredential(organization_id=actor.organization_id, provider=provider, created_at=now, updated_at=now)
    if api_key:
        row.api_key_sealed = runtime.get().keyring.seal(api_key)
    if base_url:
        row.base_url = base_url.rstrip("/")
    elif clear_base_url:
        row.base_url = None
    if provider == LOCAL and not row.base_url:
        raise Invalid("LOCAL needs the address of an OpenAI-compatible server (an Ollama on this machine: "
                      "http://127.0.0.1:11434).", code="base_url_required", errors={"baseUrl": ["Required for LOCAL."]})
    if provider != LOCAL and row.api_key_sealed is None:
        raise Invalid(f"Paste the API key {provider} gave you.", code="api_key_required",
                      errors={"apiKey": ["Required the first time."]})
    row.last_error, row.updated_at = None, now
    session.add(row)
    session.flush()
    return _status(provider, row)


def do_delete(session: Session, *, actor: OrgActor, provider: str) -> None:
    row = session.get(ProviderCredential, (actor.organization_id, catalog.check_provider(provider)))
    if row is None:
        raise NotFound(f"{provider} is not configured.", code="provider_not_configured")
    session.delete(row)


def client_of(session: Session, organization_id: str, provider: str) -> ChatClient:
    """The provider's client with the organization's credentials; 400 provider_not_configured.
    The row is read through the driver: every AI reply asks (a mapped row costs ~0.7 ms)."""
    row = read_row(session, ProviderCredential.__table__, organization_id=organization_id, provider=provider,
                   remember=False)
    status = _status(provider, row)
    if not status.configured:
        raise Invalid(f"{provider} is not set up: add its key in the bot's AI providers.",
                      code="provider_not_configured", provider=provider)
    key = runtime.get().keyring.unseal(row.api_key_sealed) if row.api_key_sealed else None
    return client_for(provider, api_key=key, base_url=row.base_url, addresses=addresses.rule(),
                      timeout=TIMEOUT_SECONDS)


def note_outcome(session: Session, organization_id: str, provider: str, error: ProviderError | None) -> None:
    """Remember the last call's failure (or clear it), for the providers page."""
    row = session.get(ProviderCredential, (organization_id, provider))
    if row is not None:
        row.last_error = str(error) if error else None
        row.last_checked_at = clock.now()
        session.add(row)


def check_connection(database: Database, *, actor: OrgActor, provider: str) -> tuple[list[str], ProviderError | None]:
    """Ask the provider for its models: proves the address and the key. Answers (models, error).
    The call happens between two short units of work: no transaction is open while it waits."""
    with database.unit_of_work(write=False) as session:
        client = client_of(session, actor.organization_id, catalog.check_provider(provider))
    try:
        found, error = outside_calls.call(actor.organization_id, client.list_models), None
    except ProviderError as exc:
        found, error = [], exc
    except GatewayTimeout:  # the request's limit (core/outside_calls.py): a failed check, noted as such
        found, error = [], ProviderError(TIMEOUT, f"{provider} did not answer within {outside_calls.LIMIT_SECONDS:g} "
                                         "seconds.", provider=provider)
    with database.unit_of_work(write=True) as session:
        note_outcome(session, actor.organization_id, provider, error)
    return found, error


LOCAL_LIST_TIMEOUT = 3.0


def models_with_local(database: Database, *, actor: OrgActor) -> list[dict]:
    """The shipped catalog, and what the organization's LOCAL server lists (nothing when it is not
    set up or does not answer within 3 seconds; no transaction waits for it)."""
    found = [{"provider": m["provider"], "model": m["model"], "context_tokens": m["contextTokens"],
              "price_in_per1_m": m["priceInPer1M"], "price_out_per1_m": m["priceOutPer1M"]} for m in catalog.models()]
    with database.unit_of_work(write=False) as session:
        row = session.get(ProviderCredential, (actor.organization_id, LOCAL))
        if row is None or not row.base_url:
            return found
        key = runtime.get().keyring.unseal(row.api_key_sealed) if row.api_key_sealed else None
        base_url = row.base_url
    try:
        names = outside_calls.call(actor.organization_id, client_for(
            LOCAL, api_key=key, base_url=base_url, addresses=addresses.rule(), timeout=LOCAL_LIST_TIMEOUT).list_models)
    except (ProviderError, GatewayTimeout):
        names = []
    return found + [{"provider": LOCAL, "model": name, "context_tokens": None, "price_in_per1_m": 0.0,
                     "price_out_per1_m": 0.0} for name in names]

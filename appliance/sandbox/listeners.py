"""In sandbox mode every new organization gets its simulated business account, and its LOCAL AI
provider pointed at the simulator's AI double."""

from sqlmodel import Session

from appliance import sandbox
from appliance.core import dispatcher, events, runtime
from appliance.core.dispatcher import Event
from appliance.sandbox import service


@dispatcher.subscribe(events.ORGANIZATION_CREATED)
def connect_sandbox_account(session: Session, event: Event) -> None:
    settings = runtime.get().settings
    if not settings.sandbox:
        return
    service.do_connect_sandbox(session, sandbox.new_account, organization_id=event.organization_id,
                               webhook_url=sandbox.webhook_url(settings))
    service.do_configure_ai_double(session, organization_id=event.organization_id,
                                   base_url=sandbox.ai_double_url(settings))
    service.do_configure_factus_double(session, organization_id=event.organization_id,
                                       credentials=sandbox.SANDBOX_FACTUS)

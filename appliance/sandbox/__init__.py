"""The sandbox: the network simulator runs in this process, mounted at /netsim, and plays the
WhatsApp network for sandbox business accounts (`sandbox: true`), so the appliance can be tried end
to end with no Meta account.

- Sandbox mode (`appliance serve --sandbox`, APPLIANCE_SANDBOX=true): the simulator is the whole
  network; every new organization gets a sandbox account; the control API (/netsim/_control/...)
  is open, for demos and tests to play the customers.
- Otherwise an organization may still "Try the sandbox" from the console: its account lives in the
  simulator and its calls are routed there by token (wabas.network.route_simulated_tokens), while
  other organizations talk to the real network. The control API is closed; its customers are
  played through the console's signed-in route (console/sandbox.py).

The simulator keeps its state in memory; on start the sandbox accounts stored in the database are
recreated in it with their ids and secrets. A demo mode, and so the one place outside server.py
that assumes a single process serving it. On PostgreSQL a worker process (APPLIANCE_ROLE=worker,
the same --port) plays along: its Graph calls go to the web process's simulator at the served
address, it makes new organizations' accounts there (`new_account`), and it reads the stored
accounts again when it meets a sandbox token it does not know (`owns_token`).
"""

from __future__ import annotations

import logging
import threading
from urllib.parse import urlsplit

import requests

from appliance.core import runtime
from appliance.installation import addresses
from appliance.netsim.google_double import CLIENT_ID as GOOGLE_CLIENT_ID, CLIENT_SECRET as GOOGLE_CLIENT_SECRET
from appliance.netsim import factus_double, wompi_control
from appliance.netsim.simulator import Simulator

log = logging.getLogger("appliance.sandbox")
MOUNT_PATH = "/netsim"
_simulator: Simulator | None = None


def local_url(settings) -> str:
    """How this process reaches itself (the simulator's Graph API and our webhook)."""
    return settings.served_url


def graph_url(settings) -> str:
    return local_url(settings) + MOUNT_PATH


def webhook_url(settings) -> str:
    return local_url(settings) + "/webhooks/whatsapp"


def google_settings(settings) -> dict:
    """Google Calendar played by the simulator's Google double, unless a real client is configured:
    the consent page where people's browsers reach it, the token and Calendar API where we do."""
    if settings.google_client_id:
        return {}
    return {"google_client_id": GOOGLE_CLIENT_ID, "google_client_secret": GOOGLE_CLIENT_SECRET,
            "google_auth_url": public_url(settings) + "/google/o/oauth2/v2/auth",
            "google_token_url": graph_url(settings) + "/google/token",
            "google_calendar_url": graph_url(settings) + "/google/calendar/v3"}


# The sandbox's Wompi account: the double's keys, fixed so that the settings (made before the
# simulator) and the double agree. Test keys: they open nothing outside this process.
SANDBOX_WOMPI = {"wompi_public_key": "pub_test_sandbox_appliance", "wompi_private_key": "prv_test_sandbox_appliance",
                 "wompi_events_secret": "test_events_sandbox_appliance",
                 "wompi_integrity_secret": "test_integrity_sandbox_appliance"}
SANDBOX_SETTLE_SECONDS = 3  # a sandbox card or Nequi payment is answered this long after it was asked
# The sandbox organizations' e-invoicing account at the Factus double (einvoicing.service.SANDBOX_URL).
SANDBOX_FACTUS = {"clientId": "sandbox-client", "clientSecret": "sandbox-client-secret",
                  "username": "sandbox@factus.test", "password": "sandbox-password"}


def wompi_settings(settings) -> dict:
    """Payments played by the simulator's Wompi double, unless a real account is configured: the
    browser makes card tokens at its public address, we call it at ours."""
    if settings.wompi_private_key:
        return {}
    return {"wompi_url": graph_url(settings) + "/wompi/v1", "wompi_checkout_url": public_url(settings) + "/wompi/checkout",
            **SANDBOX_WOMPI}


def wompi_public_url(settings) -> str:
    """Where a person's browser makes card tokens: the double's public address in the sandbox, else
    the configured Wompi."""
    if settings.sandbox and settings.wompi_private_key == SANDBOX_WOMPI["wompi_private_key"]:
        return public_url(settings) + "/wompi/v1"
    return settings.wompi_url


def public_url(settings) -> str:
    """Where people reach the simulator: the addresses it gives out (profile pictures) use it."""
    return (settings.base_url or settings.served_url) + MOUNT_PATH


def same_origin(url: str, settings) -> str:
    """An address the simulator gave out, as a path on whichever host the person's browser used
    (the configured base URL may be loopback while they browse from the LAN); others unchanged."""
    base = settings.base_url or settings.served_url
    return url[len(base):] if url.startswith(public_url(settings) + "/") else url


def ai_double_url(settings) -> str:
    """The AI double's OpenAI-compatible address, where sandbox organizations' LOCAL provider points."""
    return ai_doubles_url(settings) + "openai"


def ai_doubles_url(settings) -> str:
    """Where the AI double's three shapes are served: the one address on this machine's loopback that
    organizations' providers may reach, in sandbox mode (installation.addresses decides when)."""
    return graph_url(settings) + "/ai/"


def is_ai_double(base_url: str | None) -> bool:
    """Whether a provider's address is the simulator's AI double (what sandbox organizations get as
    their LOCAL provider): its answers are made up, and pages say so. By the path, so it is still
    recognised after the server moved to another port."""
    return bool(base_url) and urlsplit(base_url).path.startswith(f"{MOUNT_PATH}/ai/")


def simulator() -> Simulator:
    if _simulator is None:
        raise RuntimeError("the sandbox is not running")
    return _simulator


# A new user's template is approved this long after it is made (Meta takes minutes to hours):
# long enough to see "In review", short enough to go on to a campaign.
TEMPLATE_REVIEW_SECONDS = 5.0


CONTROL_TIMEOUT_SECONDS = 10.0


def new_account(*, name: str, webhook_url: str, access_token: str, numbers: list[dict]) -> dict:
    """A business account made on the simulated network, answered as the control API answers it
    (wabaId, accessToken, appSecret, numbers). In this process's simulator where this process
    serves it; a worker process (APPLIANCE_ROLE=worker) serves none, and an account made in its own
    copy was unknown to the network the web process plays (the inbox's simulated customer answered
    500, every send 190): it asks the web process's control API, at the served address where its
    Graph calls go too."""
    settings = runtime.get().settings
    if settings.role == "worker":
        with requests.Session() as http:
            http.trust_env = False  # this machine's own server: no proxy from the environment
            answer = http.post(graph_url(settings) + "/_control/accounts", timeout=CONTROL_TIMEOUT_SECONDS, json={
                "name": name, "webhookUrl": webhook_url, "accessToken": access_token, "numbers": numbers})
        answer.raise_for_status()  # the listener fails, and says so in its cursor's last error
        return answer.json()
    network = simulator().network
    account = network.create_account(name=name, webhook_url=webhook_url, access_token=access_token, numbers=numbers)
    return {"wabaId": account.waba_id, "accessToken": account.access_token, "appSecret": account.app_secret,
            "numbers": [network.numbers[n].as_graph() for n in account.numbers]}


_restoring = threading.Lock()


def owns_token(token: str) -> bool:
    if _simulator is None:
        return False
    if _knows(token):
        return True
    from appliance.sandbox import service
    if not token.startswith(service.TOKEN_PREFIX):
        return False
    # A sandbox account connected by another process since this one started (the organization tried
    # the sandbox in the web process; this worker sends for it): the stored accounts, read again.
    with _restoring:
        if not _knows(token):
            service.restore(_simulator, webhook_url(runtime.get().settings))
    return _knows(token)


def _knows(token: str) -> bool:
    return any(a.access_token == token for a in list(_simulator.network.accounts.values()))


def start(settings) -> Simulator:
    """A fresh simulator with the stored sandbox accounts recreated in it (app.py mounts it), and
    the Graph calls made with its tokens routed to it."""
    global _simulator
    _simulator = Simulator()
    _simulator.review_seconds = TEMPLATE_REVIEW_SECONDS
    from appliance.sandbox import service
    from appliance.wabas import network
    network.route_simulated_tokens(owns_token, graph_url(settings))
    addresses.note_sandbox_ai_double(ai_doubles_url(settings))
    if settings.wompi_private_key == SANDBOX_WOMPI["wompi_private_key"]:
        wompi_control.control(_simulator.wompi, {
            "publicKey": settings.wompi_public_key, "privateKey": settings.wompi_private_key,
            "eventsSecret": settings.wompi_events_secret, "integritySecret": settings.wompi_integrity_secret,
            "eventsUrl": local_url(settings) + "/billing/wompi/events", "settleSeconds": SANDBOX_SETTLE_SECONDS})
    factus_double.control(_simulator.factus, SANDBOX_FACTUS)
    restored = service.restore(_simulator, webhook_url(settings))
    service.repoint_ai_doubles(ai_double_url(settings))
    log.info("sandbox: simulated network at %s (%d business accounts restored)", graph_url(settings), restored)
    return _simulator

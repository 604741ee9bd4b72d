"""The simulator without HTTP: the network, its webhook deliverer and its faults, and the moves of the
other side (a customer writes, reads; Meta approves a template). app.py serves it."""

from __future__ import annotations

import threading

from appliance.netsim import webhooks
from appliance.netsim.ai_double import AIState
from appliance.netsim.catalogs import Catalogs
from appliance.netsim.factus_double import FactusState
from appliance.netsim.google_double import GoogleState
from appliance.netsim.network import Network, NetworkError, new_wamid
from appliance.netsim.stickers import webp_facts
from appliance.netsim.webhooks import Deliverer, Faults
from appliance.netsim.wompi_double import WompiState


class Simulator:
    """The network, its webhook deliverer and its faults, together."""

    def __init__(self, network: Network | None = None):
        self.network = network or Network()
        self.faults = Faults()
        self.deliverer = Deliverer(self.faults)
        self.ai = AIState()  # the AI double's faults and calls
        self.google = GoogleState()  # the Google double's grants, events and busy times
        self.wompi = WompiState()  # the Wompi double's merchant: keys, card sources, transactions, events
        self.catalogs = Catalogs()  # each business account's Meta catalog
        self.factus = FactusState()  # the e-invoicing provider's double
        # Meta reviews a new template in minutes to hours; the sandbox sets this so a new user's
        # template is approved (and announced) that many seconds after it is made. None: a test or
        # a demo approves by the control API.
        self.review_seconds: float | None = None

    # The other side's moves ----------------------------------------------------------------------

    def customer_writes(self, phone_number_id: str, wa_id: str, message: dict, *, name: str | None = None) -> str:
        """A customer sends `message` (`{type, <type>: {...}, context?}`) to a business number; the
        network posts the webhook. Answers the new wamid."""
        network = self.network
        number = network.numbers.get(phone_number_id)
        if number is None:
            raise NetworkError(100, f"No phone number {phone_number_id}")
        kind = message.get("type")
        if kind not in webhooks.INBOUND_TYPES:
            raise NetworkError(131051, f"Inbound type {kind!r} is not one the network delivers")
        customer = network.customer(wa_id, name=name)
        at = network.record_inbound(customer, number)
        wamid = new_wamid()
        entry = {"from": wa_id, "id": wamid, "timestamp": str(int(at)), "type": kind}
        for key in (kind, "context", "referral", "errors"):
            if key in message:
                entry[key] = message[key]
        contact = {"profile": {"name": customer.name}, "wa_id": wa_id, "user_id": customer.user_id}
        account = network.accounts[number.waba_id]
        change = webhooks.messages_change(number, contacts=[contact], messages=[entry])
        self.deliverer.post(account.webhook_url, account.app_secret, webhooks.envelope(account.waba_id, [change]))
        return wamid

    def customer_sends_sticker(self, phone_number_id: str, wa_id: str, content: bytes, *, name: str | None = None) -> str:
        """A customer sends a sticker (a WEBP): the network keeps the file for the business to fetch,
        says whether it moves, and posts the webhook. Answers the new wamid."""
        number = self.network.numbers.get(phone_number_id)
        if number is None:
            raise NetworkError(100, f"No phone number {phone_number_id}")
        stored = self.network.store_media(number, content, "image/webp")
        facts = webp_facts(content)
        return self.customer_writes(phone_number_id, wa_id, {"type": "sticker", "sticker": {
            "id": stored.media_id, "mime_type": stored.mime_type, "sha256": stored.as_graph("")["sha256"],
            "animated": bool(facts and facts.animated)}}, name=name)

    def announce_statuses(self, sent: dict, statuses: list[str], *, errors: list[dict] | None = None) -> None:
        number = self.network.numbers[sent["phone_number_id"]]
        account = self.network.accounts[number.waba_id]
        now = self.network.clock()
        entries = [webhooks.status_entry(sent, status, now, errors=errors if status == "failed" else None)
                   for status in statuses]
        if self.faults.reorder_statuses:
            entries.reverse()
        change = webhooks.messages_change(number, statuses=entries)
        self.deliverer.post(account.webhook_url, account.app_secret, webhooks.envelope(account.waba_id, [change]))

    def review_later(self, waba_id: str, name: str, language: str) -> None:
        """Approve a template made just now after `review_seconds`, as Meta's review would."""
        if self.review_seconds is None:
            return

        def approve() -> None:
            try:
                self.announce_template(waba_id, self.network.set_template_status(waba_id, name, language, "APPROVED"))
            except KeyError:
                pass  # deleted meanwhile
        timer = threading.Timer(self.review_seconds, approve)
        timer.daemon = True
        timer.start()

    def announce_template(self, waba_id: str, template: dict) -> None:
        account = self.network.accounts[waba_id]
        change = {"field": "message_template_status_update",
                  "value": {"event": template["status"], "message_template_id": int(template["id"]),
                            "message_template_name": template["name"],
                            "message_template_language": template["language"], "reason": None}}
        self.deliverer.post(account.webhook_url, account.app_secret, webhooks.envelope(waba_id, [change]))

    def set_quality(self, number, rating: str) -> None:
        """The number's quality rating changes, and the network says so (its webhook names the
        event, not the rating: the app reads the rating back from the numbers' listing)."""
        order = {"GREEN": 0, "YELLOW": 1, "RED": 2}
        worse = order.get(rating, 0) > order.get(number.quality_rating, 0)
        number.quality_rating = rating
        account = self.network.accounts[number.waba_id]
        change = {"field": "phone_number_quality_update",
                  "value": {"display_phone_number": "".join(c for c in number.display_phone_number if c.isdigit()),
                            "event": "FLAGGED" if worse else "UNFLAGGED", "current_limit": "TIER_1K"}}
        self.deliverer.post(account.webhook_url, account.app_secret, webhooks.envelope(account.waba_id, [change]))

    def announce_address_book(self, number) -> None:
        """A coexistence number's contacts sync: the Business app's address book, in batches."""
        account = self.network.accounts[number.waba_id]
        now = str(int(self.network.clock()))
        for start in range(0, max(len(number.address_book), 1), 100):
            items = [{"type": "contact", "contact": dict(contact), "action": "add", "metadata": {"timestamp": now}}
                     for contact in number.address_book[start:start + 100]]
            change = webhooks.messages_change(number, field_name="smb_app_state_sync")
            change["value"]["state_sync"] = items
            self.deliverer.post(account.webhook_url, account.app_secret, webhooks.envelope(account.waba_id, [change]))

    def business_app_writes(self, phone_number_id: str, to: str, message: dict) -> str:
        """The owner of a coexistence number writes to a customer from the WhatsApp Business app: the
        network echoes it (`smb_message_echoes`). Answers the new wamid."""
        number = self.network.numbers.get(phone_number_id)
        if number is None or not number.on_biz_app:
            raise NetworkError(100, "Echoes come only from numbers shared with the WhatsApp Business app")
        kind = message.get("type")
        if kind not in webhooks.INBOUND_TYPES:
            raise NetworkError(131051, f"Message type {kind!r} is not one the network delivers")
        wamid = new_wamid()
        echo = {"from": "".join(c for c in number.display_phone_number if c.isdigit()), "to": to, "id": wamid,
                "timestamp": str(int(self.network.clock())), "type": kind, kind: message.get(kind, {})}
        change = webhooks.messages_change(number, field_name="smb_message_echoes")
        change["value"]["message_echoes"] = [echo]
        account = self.network.accounts[number.waba_id]
        self.deliverer.post(account.webhook_url, account.app_secret, webhooks.envelope(account.waba_id, [change]))
        return wamid

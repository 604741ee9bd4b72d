"""What the webhooks hear from the outbox: every event a webhook may subscribe to, fanned out to
deliveries (fanout.py; the handler's module and name are its outbox cursor, so it is subscribed
here without moving)."""

from appliance.core import dispatcher
from appliance.outbound_webhooks import fanout

dispatcher.subscribe(*fanout.FROM_OUTBOX, batch=True)(fanout.fan_out)

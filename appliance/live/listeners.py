"""The live streams wake after every commit that emitted events (feed.py reads them)."""

from appliance.core import events
from appliance.live import feed

events.after_emitting_commit(feed.signal.notify)

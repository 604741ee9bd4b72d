"""Chat networks. Each network has a protocol client (no appliance imports) and an adapter that
turns its payloads into domain calls; today there is one network, WhatsApp's Cloud API."""

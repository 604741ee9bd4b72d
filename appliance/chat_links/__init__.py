"""Chat links: short public addresses (`{APPLIANCE_SHORT_LINK_BASE}/{slug}`) that open a WhatsApp chat
with one of the organization's numbers and a prefilled message, with QR codes and click statistics."""

"""The processor this installation uses, built from its settings (Wompi; its double in the sandbox)."""

from __future__ import annotations

from appliance.billing.processor import PaymentProcessor
from appliance.core import runtime
from appliance.core.errors import Unavailable

_made: dict[tuple, PaymentProcessor] = {}


def configured() -> bool:
    return bool(runtime.get().settings.wompi_private_key)


def check_configured() -> None:
    """503 payments_not_configured when no processor is set up (checked before anything is written)."""
    if not configured():
        raise Unavailable("Card and Nequi payments are not set up on this installation (APPLIANCE_WOMPI_* "
                          "settings); report a bank transfer instead.", code="payments_not_configured")


def processor() -> PaymentProcessor:
    from appliance.billing.wompi import Wompi
    check_configured()
    settings = runtime.get().settings
    shape = (settings.wompi_url, settings.wompi_public_key, settings.wompi_private_key, settings.wompi_events_secret,
             settings.wompi_integrity_secret, settings.wompi_checkout_url)
    if shape not in _made:
        _made.clear()
        _made[shape] = Wompi(url=shape[0], public_key=shape[1], private_key=shape[2], events_secret=shape[3],
                             integrity_secret=shape[4], checkout_url=shape[5])
    return _made[shape]

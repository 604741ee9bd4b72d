"""The console's blueprint with every page registered (each module adds its routes to it)."""

from appliance.console import account, api_keys, organization, setup, team, whatsapp  # noqa: F401
from appliance.console.common import console_pages

__all__ = ["console_pages"]

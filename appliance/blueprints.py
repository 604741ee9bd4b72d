"""The one list of API blueprints, in the order they appear in /docs."""

from appliance.auth.api import blp as auth
from appliance.health.api import blp as health
from appliance.users.api import blp as users

BLUEPRINTS = (health, auth, users)

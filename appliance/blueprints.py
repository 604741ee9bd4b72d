"""The one list of blueprints: API blueprints (in the order /docs shows them) and HTML pages."""

from appliance.auth.api import blp as auth
from appliance.auth.pages import auth_pages
from appliance.health.api import blp as health
from appliance.pages import home
from appliance.users.api import blp as users

BLUEPRINTS = (health, auth, users)
PAGES = (home, auth_pages)

"""Who is calling: resolves every request's credentials (API key, JWT, OAuth token, browser
cookie) to an actor before its view runs, through the identity domains (auth, api_keys, oauth,
memberships, organizations).

It sits above the domains and below the app: `http` stays plumbing that domains import, and
no domain imports this folder. `app.py` installs it with `init_app`.
"""

from flask import Flask

from appliance.callers import browsers, credentials


def init_app(app: Flask) -> None:
    credentials.init_app(app)
    browsers.init_app(app)

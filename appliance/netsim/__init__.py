"""The chat network simulator: a faithful Graph API double (see network.py, webhooks.py, app.py)."""

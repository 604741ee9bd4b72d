"""The person behind a browser's session cookie, checked on every page load (the session must
still be open: sign-out everywhere, a password change or a reset signs browsers out at once)."""

from __future__ import annotations

from flask import Flask

from appliance.auth import sessions as auth_sessions
from appliance.http.browser import BrowserUser, login_manager
from appliance.http.unit_of_work import db_session


def _load_browser_user(session_id: str) -> BrowserUser | None:
    actor = auth_sessions.authenticate_browser_session(db_session(), session_id)
    return BrowserUser(actor) if actor is not None else None


def init_app(app: Flask) -> None:
    login_manager.user_loader(_load_browser_user)

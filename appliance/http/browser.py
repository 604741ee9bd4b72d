"""Browser sessions for the server-rendered pages, with flask-login.

Plumbing only: the person behind the cookie is loaded by `appliance.callers.browsers`, and
signing in and out is the auth domain's (`auth/pages.py`). A browser sign-in opens an
`AuthSession` like any device (listed by `GET /users/me/sessions`, closed by sign-out everywhere,
a password change or reset); the signed cookie holds only that session's id, and every page load
checks the session is still open. The REST API never reads the
cookie (bearer tokens and keys only), so no API route can be driven by a cross-site request.
Page forms that change state also carry a per-session CSRF token, besides SameSite=Lax.
"""

from __future__ import annotations

import hmac
from datetime import timedelta
from functools import wraps
from urllib.parse import urlsplit

from flask import Flask, abort, redirect, request, session, url_for
from flask.sessions import SecureCookieSessionInterface
from flask_login import LoginManager, UserMixin, current_user, login_user, logout_user

from appliance.core import crypto, runtime
from appliance.core.actor import Actor
from appliance.core.errors import Forbidden


class _LoginManager(LoginManager):
    def _update_remember_cookie(self, response):
        # flask-login reads the session after every request to refresh a "remember me" cookie. We
        # have none (the AuthSession's lifetime is the cookie's), and that read made every API answer
        # carry `Vary: Cookie` and pay for the session.
        return response


login_manager = _LoginManager()
login_manager.login_view = "auth_pages.sign_in"
login_manager.login_message = None  # the sign-in page says what it needs; no flashed messages
login_manager.session_protection = None  # the AuthSession decides; IP changes on a LAN are normal


class BrowserUser(UserMixin):
    """flask-login's user: the person behind one open browser session."""

    def __init__(self, actor: Actor):
        self.actor = actor

    def get_id(self) -> str:
        return self.actor.session_id


def browser_actor() -> Actor | None:
    """The signed-in person of this browser, or None."""
    return current_user.actor if current_user.is_authenticated else None


def log_in(actor: Actor) -> None:
    """Make `actor` (a person with a freshly opened browser session) this browser's person."""
    session.clear()  # a fresh cookie (and CSRF token) for the new person: no session fixation
    session.permanent = True
    login_user(BrowserUser(actor))


def log_out() -> None:
    logout_user()
    session.clear()


def csrf_token() -> str:
    if "csrf" not in session:
        session["csrf"] = crypto.random_token(24)
    return session["csrf"]


def _check_csrf() -> None:
    sent = request.form.get("csrf", "")[:100]
    if not hmac.compare_digest(sent.encode(), csrf_token().encode()):
        raise Forbidden("This form expired or came from another site. Reload the page and try again.",
                        code="csrf_failed")


def safe_next(target: str | None, default: str = "/") -> str:
    """A same-site path to go back to after sign-in; anything else (another host, `//x`,
    a backslash trick) goes to `default`."""
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return default
    parts = urlsplit(target)
    return default if parts.scheme or parts.netloc else target


def browser_form(func):
    """A page whose POSTs must carry the session's CSRF token; credentials are the cookie's."""
    @wraps(func)
    def wrapper(*args, **kwargs):
        if request.method == "POST":
            _check_csrf()
        return func(*args, **kwargs)
    wrapper._public = True  # no bearer token: browsers authenticate with the session cookie
    wrapper._form_body = True
    return wrapper


def signed_in_page(func):
    """A page for a signed-in person: others are sent to sign in and brought back."""
    @browser_form
    @wraps(func)
    def wrapper(*args, **kwargs):
        if browser_actor() is None:
            if request.method != "GET":
                abort(401)
            return redirect(url_for("auth_pages.sign_in", next=request.full_path.rstrip("?")))
        return func(*args, **kwargs)
    return wrapper


class _CookieSessions(SecureCookieSessionInterface):
    """Flask's signed-cookie sessions, minus building a signer for requests without the cookie:
    API clients never send it, and every API request would pay for one."""

    def open_session(self, app, request):
        if not request.cookies.get(self.get_cookie_name(app)):
            return self.session_class()
        return super().open_session(app, request)


def init_app(app: Flask) -> None:
    settings = runtime.get().settings
    app.secret_key = runtime.get().keyring.derive("browser-session")
    app.config.update(SESSION_COOKIE_NAME="appliance_session", SESSION_COOKIE_HTTPONLY=True,
                      SESSION_COOKIE_SAMESITE="Lax",
                      PERMANENT_SESSION_LIFETIME=timedelta(days=settings.refresh_token_days))
    app.session_interface = _CookieSessions()
    login_manager.init_app(app)
    app.jinja_env.globals.update(csrf_token=csrf_token, browser_actor=browser_actor)

"""The landing page at / for whoever opens the appliance's address in a browser, and the language
switch every layout links to."""

from flask import Blueprint, redirect, request, url_for

from appliance.http.api import public
from appliance.http.browser import safe_next
from appliance.http.pages import Texts, choose_language, render_page
from appliance.http.unit_of_work import db_session
from appliance.users import service as users_service

home = Blueprint("home", __name__)

TEXTS = Texts(
    "home",
    en={"title": "It is running", "intro": "Agents answer customers in the inbox; local systems use the REST API.",
        "inbox": "Inbox", "integrations": "Integrations", "sign_in": "Sign in", "sign_out": "Sign out",
        "docs": "API documentation (Swagger UI, offline)", "health": "Health"},
    es={"title": "Está funcionando", "intro": "Los agentes atienden a los clientes en la bandeja; los sistemas locales "
                                             "usan la API REST.",
        "inbox": "Bandeja", "integrations": "Integraciones", "sign_in": "Iniciar sesión", "sign_out": "Cerrar sesión",
        "docs": "Documentación de la API (Swagger UI, sin conexión)", "health": "Estado"},
)


@home.get("/")
@public
def landing():
    """The first run leads to /setup (until somebody has an account); later, signed-in people go
    to the console, and visitors see what is here."""
    if not users_service.anyone_exists(db_session()):
        return redirect(url_for("console_pages.setup"))
    return render_page("home.html", TEXTS)


@home.get("/language/<lang>")
@public  # a preference kept in the browser's session, for signed-in people and visitors alike
def language(lang):
    choose_language(lang)
    return redirect(safe_next(request.args.get("next"), default="/"))

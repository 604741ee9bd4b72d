"""The landing page at / for whoever opens the appliance's address in a browser."""

from flask import Blueprint, render_template

from appliance.http.api import public
from appliance.http.i18n import page_locale

home = Blueprint("home", __name__)


@home.get("/")
@public
def landing():
    return render_template("home.html", lang=page_locale())

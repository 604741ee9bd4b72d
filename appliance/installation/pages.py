"""The ACME server's HTTP-01 check (APPLIANCE_TLS=acme): `GET /.well-known/acme-challenge/<token>`
answers the key authorization of a challenge being answered now, as text/plain; anything else is
404. Public, served over plain HTTP even when TLS redirects the rest (server.py). Not an API
operation: the CA's fetch."""

from flask import Blueprint, Response, abort

from appliance.http.api import public
from appliance.installation import challenges

acme_pages = Blueprint("acme_pages", __name__)


@acme_pages.get("/.well-known/acme-challenge/<token>")
@public
def acme_challenge(token: str):
    answer = challenges.answer_for(token[:200])
    if answer is None:
        abort(404)
    return Response(answer, mimetype="text/plain")

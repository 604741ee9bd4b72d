"""Wompi's double over HTTP (wompi_double.py answers): its API v1 under /wompi/v1 (any path it does
not serve is Wompi's 404, any body it cannot read Wompi's 422), the checkout page of its payment
links (wompi_links.py) under /wompi/checkout/l/{id}, and its control (`/_control/wompi`:
keys, secrets, events URL, settle delay, faults; `/_control/wompi/settle`: end transactions now).
Its events go only to this machine, as the Graph double's webhooks do."""

from __future__ import annotations

import time
import urllib.parse

from flask import Blueprint, Response, jsonify, request

from appliance.netsim import wompi_control, wompi_double, wompi_links
from appliance.netsim.calls import json_body, loopback, simulator
from appliance.netsim.network import NetworkError

wompi = Blueprint("wompi", __name__)


def _body():
    try:
        return request.get_json(silent=True)
    except RecursionError:  # nested deeper than the parser goes: unreadable, as any other (422)
        return None


# What a merchant's page calls from the person's browser with the public key (Wompi answers it
# from any origin): making a card's token, and the merchant's acceptance texts.
_FROM_BROWSERS = ("tokens/", "merchants/")


@wompi.route("/wompi/v1/<path:path>", methods=["OPTIONS"])
def wompi_preflight(path):
    if not path.startswith(_FROM_BROWSERS):
        return Response(status=404)
    return _open_to_browsers(Response(status=204))


def _open_to_browsers(response: Response) -> Response:
    response.headers["Access-Control-Allow-Origin"] = "*"
    response.headers["Access-Control-Allow-Methods"] = "GET, POST"
    response.headers["Access-Control-Allow-Headers"] = "Authorization, Content-Type, x-merchant-public-key"
    return response


@wompi.route("/wompi/v1/<path:path>", methods=["GET", "POST", "PUT", "PATCH", "DELETE"])
def wompi_api(path):
    state = simulator().wompi
    if path.startswith("payment_links"):
        answer = wompi_links.api(state, request.method, path, authorization=request.headers.get("Authorization"),
                                 body=_body())
    else:
        answer = wompi_double.api(state, request.method, path, authorization=request.headers.get("Authorization"),
                                  merchant_key=request.headers.get("x-merchant-public-key"),
                                  query=request.args.to_dict(), body=_body())
    if answer.hang:  # the call was carried out; its answer comes too late for the caller
        time.sleep(answer.hang)
    if isinstance(answer.body, str):
        response = Response(answer.body, answer.status, content_type="text/html")
    else:
        response = jsonify(answer.body)
        response.status_code = answer.status
    return _open_to_browsers(response) if path.startswith(_FROM_BROWSERS) else response


@wompi.route("/wompi/checkout/l/<link_id>", methods=["GET", "POST"])
def wompi_checkout(link_id):
    """The customer's checkout page of a payment link (wompi_links.py)."""
    state = simulator().wompi
    wompi_double.send_events(state, wompi_double.settle_due(state))  # a payment whose time has come ends now
    if request.method == "POST":
        paid = wompi_links.pay(state, link_id, card_number=request.form.get("number", "")[:40],
                               email=request.form.get("email", "")[:255])
        if paid.status != 201:
            messages = (paid.body or {}).get("error", {}).get("messages", {}) if isinstance(paid.body, dict) else {}
            problem = "; ".join(m for said in messages.values() for m in said) or "No se pudo pagar"
            status, page = wompi_links.checkout_page(state, link_id, problem=problem)
            return Response(page, 422 if status == 200 else status, content_type="text/html")
        return Response(status=303, headers={"Location": f"{link_id}?tx={paid.body['data']['id']}"})
    status, page = wompi_links.checkout_page(state, link_id, transaction_id=request.args.get("tx"))
    return Response(page, status, content_type="text/html")


def _local(url) -> str | None:
    """An events address on this machine, or none: the double's events never leave it."""
    if url is None:
        return None
    parsed = urllib.parse.urlsplit(str(url))
    if parsed.scheme not in ("http", "https") or not loopback(parsed.hostname):
        raise NetworkError(100, "The Wompi double posts events only to this machine (http://127.0.0.1:...)")
    return str(url)


@wompi.put("/_control/wompi")
def control_wompi():
    body = json_body()
    if "eventsUrl" in body:
        body["eventsUrl"] = _local(body["eventsUrl"])
    try:
        return jsonify(wompi_control.control(simulator().wompi, body))
    except ValueError as exc:
        raise NetworkError(100, str(exc)) from None


@wompi.get("/_control/wompi")
def control_wompi_read():
    return jsonify(wompi_control.read(simulator().wompi))


@wompi.post("/_control/wompi/settle")
def control_wompi_settle():
    body = _body()
    try:
        return jsonify(wompi_control.settle(simulator().wompi, body if isinstance(body, dict) else {}))
    except ValueError as exc:
        raise NetworkError(100, str(exc)) from None

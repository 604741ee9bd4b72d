"""The Factus double over HTTP (factus_double.py answers): its API under /factus and its control
(`/_control/factus`: credentials, `down`, what was issued)."""

from __future__ import annotations

from flask import Blueprint, jsonify, request

from appliance.netsim import factus_double
from appliance.netsim.calls import json_body, simulator

factus = Blueprint("factus", __name__)


def _answer(status: int, body: dict):
    response = jsonify(body)
    response.status_code = status
    return response


@factus.post("/factus/oauth/token")
def factus_token():
    return _answer(*factus_double.token(simulator().factus, request.form.to_dict()))


def _unauthorized():
    return _answer(401, {"message": "Unauthenticated."})


@factus.post("/factus/v1/bills/validate")
def factus_validate():
    state = simulator().factus
    if not factus_double.authorized(state, request.headers.get("Authorization")):
        return _unauthorized()
    return _answer(*factus_double.validate(state, request.get_json(silent=True)))


@factus.get("/factus/v1/bills")
def factus_bills():
    state = simulator().factus
    if not factus_double.authorized(state, request.headers.get("Authorization")):
        return _unauthorized()
    return _answer(*factus_double.by_reference(state, request.args.get("filter[reference_code]", "")[:100]))


@factus.get("/factus/v1/bills/download-pdf/<number>")
def factus_pdf(number):
    state = simulator().factus
    if not factus_double.authorized(state, request.headers.get("Authorization")):
        return _unauthorized()
    return _answer(*factus_double.pdf(state, number[:40]))


@factus.put("/_control/factus")
def control_factus():
    return jsonify(factus_double.control(simulator().factus, json_body()))


@factus.get("/_control/factus")
def control_factus_read():
    return jsonify(factus_double.read(simulator().factus))

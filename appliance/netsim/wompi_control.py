"""The Wompi double's control (PUT/GET /_control/wompi, POST /_control/wompi/settle): its keys and
secrets, the events URL, the settle delay and faults, what it holds, and ending pending
transactions now (wompi_double.py is Wompi itself)."""

from __future__ import annotations

from appliance.netsim.wompi_double import (APPROVED, DECLINED, ERROR, FAULTS, WompiState, end_transaction,
                                           public_view, send_events, settle_due)


_CONTROL_FIELDS = {"publicKey", "privateKey", "eventsSecret", "integritySecret", "eventsUrl", "settleSeconds", "fail",
                   "failTimes", "failOn", "hangSeconds", "clearCalls"}


def control(state: WompiState, body: dict) -> dict:
    """Set keys, secrets, the events URL (already checked to be this machine's by the route), the
    settle delay and faults. A body of another shape raises ValueError (the app answers 400)."""
    unknown = set(body) - _CONTROL_FIELDS
    if unknown:
        raise ValueError(f"unknown fields: {', '.join(sorted(unknown))}")
    changes = {}
    for name, attribute, prefix in (("publicKey", "public_key", "pub_"), ("privateKey", "private_key", "prv_"),
                                    ("eventsSecret", "events_secret", ""), ("integritySecret", "integrity_secret", "")):
        if name in body:
            value = body[name]
            if not isinstance(value, str) or not value.startswith(prefix) or not 8 <= len(value) <= 200:
                raise ValueError(f"{name}: a text of 8 to 200 characters{' starting ' + prefix if prefix else ''}")
            changes[attribute] = value
    if "settleSeconds" in body:
        value = body["settleSeconds"]
        if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))
                                  or not 0 <= value <= 7 * 86400):
            raise ValueError("settleSeconds: null or 0 to 604800")
        changes["settle_seconds"] = None if value is None else float(value)
    if "fail" in body:
        if body["fail"] is not None and body["fail"] not in FAULTS:
            raise ValueError(f"fail: null or one of {', '.join(FAULTS)}")
        changes["fail"] = body["fail"]
        times = body.get("failTimes", 1)
        if isinstance(times, bool) or not isinstance(times, int) or not 1 <= times <= 100:
            raise ValueError("failTimes: 1 to 100")
        changes["fail_times"] = times if body["fail"] else 0
    if "failOn" in body:
        if body["failOn"] not in ("writes", "all"):
            raise ValueError("failOn: writes or all")
        changes["fail_on"] = body["failOn"]
    if "hangSeconds" in body:
        value = body["hangSeconds"]
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.1 <= value <= 60:
            raise ValueError("hangSeconds: 0.1 to 60")
        changes["hang_seconds"] = float(value)
    if "eventsUrl" in body:
        if body["eventsUrl"] is not None and not isinstance(body["eventsUrl"], str):
            raise ValueError("eventsUrl: null or an address")
        changes["events_url"] = body["eventsUrl"]
    with state.lock:
        for attribute, value in changes.items():
            setattr(state, attribute, value)
        if body.get("clearCalls"):
            state.calls.clear()
    return settings(state)


def settings(state: WompiState) -> dict:
    with state.lock:
        return {"publicKey": state.public_key, "privateKey": state.private_key, "eventsSecret": state.events_secret,
                "integritySecret": state.integrity_secret, "eventsUrl": state.events_url,
                "settleSeconds": state.settle_seconds, "fail": state.fail, "failTimes": state.fail_times,
                "failOn": state.fail_on, "hangSeconds": state.hang_seconds,
                "transactions": len(state.transactions), "pending": len(state.pending)}


def settle(state: WompiState, body: dict, *, wait_seconds: float = 10.0) -> dict:
    """End pending transactions now: the one `id` names, those of `reference`, or every one; with
    `status` (APPROVED, DECLINED, ERROR) instead of the sandbox data's outcome. Answers once their
    events were posted (or `wait_seconds` passed)."""
    status = body.get("status")
    if status is not None and status not in (APPROVED, DECLINED, ERROR):
        raise ValueError("status: APPROVED, DECLINED or ERROR")
    wanted_id, reference = body.get("id"), body.get("reference")
    if not isinstance(wanted_id, (str, type(None))) or not isinstance(reference, (str, type(None))):
        raise ValueError("id and reference are texts")
    events = settle_due(state)
    ended = []
    with state.lock:
        for transaction_id in list(state.pending):
            record = state.transactions.get(transaction_id)
            if record is None or (wanted_id and transaction_id != wanted_id) \
                    or (reference and record["reference"] != reference):
                continue
            event = end_transaction(state, transaction_id, status)
            if event:
                events.append(event)
                ended.append(public_view(record))
    send_events(state, events)
    sender = state.sender
    idle = sender.wait_idle(wait_seconds) if sender else True
    return {"settled": ended, "idle": idle}


def read(state: WompiState) -> dict:
    events = settle_due(state)
    send_events(state, events)
    with state.lock:
        return {**settings(state),
                "transactions": [public_view(t) for t in state.transactions.values()],
                "sources": [public_view(s) for s in state.sources.values()],
                "events": [{"transactionId": e["transaction_id"], "status": e["status"],
                            "attempts": list(e["attempts"]), "body": e["body"]} for e in state.events],
                "calls": list(state.calls)}

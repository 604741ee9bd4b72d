"""`Idempotency-Key` on POSTs (docs/api.md, "Idempotency"): a client that did not hear the answer
repeats the request with the same key and gets the first answer back, not a second record.

- The key belongs to the caller (the API key, the person, the OAuth grant): two callers never
  see each other's answers. Public routes (sign-up, sign-in) ignore the header: no caller to own it.
- Same key, same request (method, path, query and body bytes): the stored answer, with
  `Idempotent-Replayed: true`. Same key, another request: 422 `idempotency_key_reused`.
- The record is written in the request's own transaction, so it exists exactly when the work
  does; writes begin IMMEDIATE, so a concurrent repeat waits for the first and then finds it.
- Only successful answers are kept (an error leaves nothing, and the repeat is tried afresh), for
  24 hours; expired records are removed as new ones are written (at most once a minute).
- Core statements, not the ORM: the ORM's unit of work cost a keyed POST a third of its rate
  (tests/bench/bench_idempotency.py).
"""

from __future__ import annotations

import hashlib
import time
from datetime import datetime, timedelta

from flask import Flask, Response, g, request
from sqlalchemy import delete, insert, select
from sqlmodel import Field, SQLModel

from appliance.core import clock
from appliance.core.db import UTCDateTime
from appliance.core.errors import Invalid, Unprocessable
from appliance.http.api import digest_upload, view_attr
from appliance.http.unit_of_work import db_session

HEADER = "Idempotency-Key"
KEEP = timedelta(hours=24)
MAX_KEY_LENGTH = 255
MAX_KEPT_BODY = 256 * 1024  # a creating POST answers one record; larger answers are not kept
SWEEP_EVERY_SECONDS = 60
_swept = [0.0]  # when this process last removed expired records (monotonic)


class IdempotencyRecord(SQLModel, table=True):
    __tablename__ = "idempotency_records"

    owner: str = Field(primary_key=True, max_length=80)  # key:<id>, user:<id> or oauth:<id>
    key: str = Field(primary_key=True, max_length=MAX_KEY_LENGTH)
    fingerprint: str = Field(max_length=64)
    status: int
    content_type: str = Field(max_length=100)
    body: bytes
    created_at: datetime = Field(sa_type=UTCDateTime, index=True)


_TABLE = IdempotencyRecord.__table__  # driver statements: this runs on every keyed POST


def _owner() -> str | None:
    actor = g.get("actor")
    return None if actor is None else actor.caller_key


def _fingerprint() -> str:
    digest = hashlib.sha256()
    for part in (request.method, request.path, request.query_string.decode("latin-1")):
        digest.update(part.encode() + b"\0")
    if view_attr("_upload"):
        digest_upload(digest)  # a file of up to 100 MB: read in pieces from where it was spooled
    else:
        digest.update(request.get_data(cache=True))
    return digest.hexdigest()


def _check_key() -> Response | None:
    key = request.headers.get(HEADER)
    if key is None or request.method != "POST":
        return None
    owner = _owner()
    if owner is None:
        return None
    if not key or len(key) > MAX_KEY_LENGTH or not key.isprintable():
        raise Invalid(f"{HEADER} must be 1 to {MAX_KEY_LENGTH} printable characters.",
                      code="invalid_idempotency_key", errors={HEADER: ["1 to 255 printable characters."]})
    fingerprint = _fingerprint()
    session = db_session()
    kept = session.execute(select(_TABLE.c.fingerprint, _TABLE.c.status, _TABLE.c.content_type, _TABLE.c.body,
                                  _TABLE.c.created_at).where(_TABLE.c.owner == owner, _TABLE.c.key == key)).first()
    if kept is not None and kept.created_at + KEEP <= clock.now():  # expired: the key is free again
        session.execute(delete(_TABLE).where(_TABLE.c.owner == owner, _TABLE.c.key == key))
        kept = None
    if kept is None:
        g.idempotency = (owner, key, fingerprint)
        return None
    if kept.fingerprint != fingerprint:
        raise Unprocessable(f"This {HEADER} was used for another request; use a new key for a new request.",
                            code="idempotency_key_reused")
    return Response(kept.body, status=kept.status, content_type=kept.content_type,
                    headers={"Idempotent-Replayed": "true"})


def _keep_answer(response: Response) -> Response:
    pending = g.pop("idempotency", None)
    if pending is None or not 200 <= response.status_code < 300 or response.is_streamed:
        return response
    body = response.get_data()
    if len(body) > MAX_KEPT_BODY:
        return response
    owner, key, fingerprint = pending
    now = clock.now()
    session = db_session()
    if time.monotonic() - _swept[0] > SWEEP_EVERY_SECONDS:
        _swept[0] = time.monotonic()
        session.execute(delete(_TABLE).where(_TABLE.c.created_at < now - KEEP))
    session.execute(insert(_TABLE).values(owner=owner, key=key, fingerprint=fingerprint, status=response.status_code,
                                          content_type=response.content_type or "application/json", body=body,
                                          created_at=now))
    return response


def init_app(app: Flask) -> None:
    """After credentials are known (register after callers); the answer is kept before the unit of
    work commits (register after unit_of_work: after_request functions run in reverse order)."""
    app.before_request(_check_key)
    app.after_request(_keep_answer)

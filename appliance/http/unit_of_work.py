"""One unit of work per request: opened on first use, committed after a 2xx/3xx answer,
rolled back after any error answer or exception."""

from __future__ import annotations

import logging

from flask import Flask, g, request
from sqlmodel import Session

from appliance.core import runtime
from appliance.core.errors import Unavailable
from appliance.http.api import view_attr
from appliance.http.errors import problem_response

log = logging.getLogger(__name__)
_READ_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def db_session() -> Session:
    """The request's session; writes (any method but GET/HEAD/OPTIONS, and views marked
    `writes_on_get`) begin IMMEDIATE."""
    uow = g.get("uow")
    if uow is None:
        write = request.method not in _READ_METHODS or bool(view_attr("_writes_on_get"))
        uow = g.uow = runtime.get().db.begin(write=write)
    return uow.session


def init_app(app: Flask) -> None:
    @app.after_request
    def finish_unit_of_work(response):
        uow = g.pop("uow", None)
        if uow is None:
            return response
        if response.status_code >= 400:
            uow.rollback()
            return response
        try:
            uow.commit()
        except Exception:
            log.exception("commit failed")
            return problem_response(Unavailable("The change could not be saved; try again.",
                                                code="storage_unavailable"))
        return response

    @app.teardown_request
    def close_unit_of_work(_exc):
        uow = g.pop("uow", None)
        if uow is not None:
            uow.rollback()

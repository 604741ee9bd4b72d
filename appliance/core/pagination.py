"""Cursor pagination: opaque cursors (base64 of the sort key of the last item), stable under
concurrent inserts because they name a position in the order, not an offset."""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Generic, Sequence, TypeVar

from sqlalchemy import DateTime, literal, tuple_
from sqlalchemy.sql import Select
from sqlmodel import Session

from appliance.core.errors import Invalid

T = TypeVar("T")
DEFAULT_TAKE = 50
MAX_TAKE = 200


@dataclass
class Page(Generic[T]):
    items: list[T]
    next_cursor: str | None


def encode_cursor(values: Sequence[Any]) -> str:
    plain = [v.isoformat() if isinstance(v, datetime) else v for v in values]
    return base64.urlsafe_b64encode(json.dumps(plain, separators=(",", ":")).encode()).decode().rstrip("=")


def decode_cursor(cursor: str, *, arity: int) -> list[Any]:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        values = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        values = None
    if not isinstance(values, list) or len(values) != arity or not all(
            isinstance(v, (str, int, float)) for v in values):
        raise Invalid("The cursor is not one this server issued.", code="invalid_cursor",
                      errors={"cursor": ["Invalid cursor."]})
    return values


def paginate(session: Session, query: Select, *, key: Sequence[Any], take: int = DEFAULT_TAKE,
             cursor: str | None = None, descending: bool = True) -> Page:
    """Keyset-paginate `query` (a select of one entity) ordered by the columns in `key`.

    The last key column must be unique (an id) so that the order is total.
    """
    if not 1 <= take <= MAX_TAKE:
        raise Invalid(f"take must be between 1 and {MAX_TAKE}.", errors={"take": ["Out of range."]})
    if cursor:
        query = past_cursor(query, key=key, cursor=cursor, descending=descending)
    order = [c.desc() if descending else c.asc() for c in key]
    rows = list(session.exec(query.order_by(*order).limit(take + 1)).all())
    items = rows[:take]
    next_cursor = None
    if len(rows) > take:
        last = items[-1]
        next_cursor = encode_cursor([getattr(last, column.key) for column in key])
    return Page(items=items, next_cursor=next_cursor)


def past_cursor(query: Select, *, key: Sequence[Any], cursor: str, descending: bool = True) -> Select:
    """`query` limited to the rows after the cursor's position in the order of `key`."""
    values = decode_cursor(cursor, arity=len(key))
    # Bound with each column's type, so they are stored-format text (UTCDateTime) like the
    # column, not the driver's default rendering of a datetime.
    bound = tuple_(*[literal(_restore(column, value), column.type) for column, value in zip(key, values, strict=True)])
    position = tuple_(*key)
    return query.where(position < bound if descending else position > bound)


def _restore(column, value):
    column_type = getattr(column.type, "impl", column.type)  # UTCDateTime decorates DateTime
    if isinstance(value, str) and isinstance(column_type, DateTime):
        try:
            restored = datetime.fromisoformat(value)
        except ValueError:
            restored = None
        if restored is None or restored.tzinfo is None:  # ours are always aware
            raise Invalid("The cursor is not one this server issued.", code="invalid_cursor",
                          errors={"cursor": ["Invalid cursor."]})
        return restored
    return value

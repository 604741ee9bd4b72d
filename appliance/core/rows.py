"""Rows through the driver, for the hot paths: reads of one row by key (`read_row`), writes of
many rows in one statement (`insert_many`, `update_many`, `update_by_id`), and the connections
they run on (`driver_connection`, `reading_connection`). Values are converted by the columns'
SQLAlchemy types, so what is written here reads back through the ORM exactly as its own writes
(docs/architecture.md, "Hot-path reads" and "Statements through the driver"). The engine, the
unit of work and the pools live in db.py."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from functools import cache, lru_cache
from types import SimpleNamespace
from typing import Callable, Iterator

from sqlalchemy import JSON, Boolean, Table
from sqlmodel import Session

from appliance.core.db import UTCDateTime

# Hot-path reads. The ORM costs ~0.7 ms to load one row on these machines, the driver ~0.02 ms;
# code that runs on every request (authentication, the tenant record) reads through here.

@cache
def _columns(table: Table) -> tuple[list[str], list[str], list]:
    """(SQL column names, attribute names, converters) of a table's columns."""
    converters = []
    for column in table.columns:
        if isinstance(column.type, UTCDateTime):
            converters.append(utc_from_text)
        elif isinstance(column.type, JSON):
            converters.append(from_json)
        elif isinstance(column.type, Boolean):
            converters.append(bool)
        else:
            converters.append(None)
    return [c.name for c in table.columns], [c.key for c in table.columns], converters


@cache
def _row_reader(table: Table, key_columns: tuple[str, ...], parent: Table | None, foreign_key: str | None,
                absent: tuple[str, ...] = ()) -> str:
    selected = [f"t.{name}" for name in _columns(table)[0]]
    join = ""
    if parent is not None:
        selected += [f"p.{name}" for name in _columns(parent)[0]]
        join = f" LEFT JOIN {parent.name} p ON p.id = t.{table.columns[foreign_key].name}"
    where = " AND ".join([f"t.{table.columns[k].name} = ?" for k in key_columns]
                         + [f"t.{table.columns[k].name} IS NULL" for k in absent])
    return f"SELECT {', '.join(selected)} FROM {table.name} t{join} WHERE {where}"


def from_json(value):
    """A JSON column's value as a driver statement reads it (text in SQLite)."""
    return json.loads(value) if isinstance(value, str) else value


def utc_from_text(value) -> datetime:
    """A UTCDateTime column's value as a driver statement reads it (naive UTC text) made aware."""
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=timezone.utc)
    return datetime.fromisoformat(value).replace(tzinfo=timezone.utc)


@cache
def _row_maker(table: Table):
    """A function turning a driver tuple of `table`'s columns into a row. Generated once per
    table, as dataclasses generate `__init__`: a loop over columns and converters cost ~12 µs
    per row, and authentication builds two rows on every request."""
    _, names, converters = _columns(table)
    namespace: dict = {"Row": SimpleNamespace}
    values = _converting([f"v[{index}]" for index in range(len(names))], converters, namespace)
    arguments = [f"{name}={value}" for name, value in zip(names, values, strict=True)]
    exec(f"def make_row(v):\n    return Row({', '.join(arguments)})", namespace)  # noqa: S102
    return namespace["make_row"]


def _converting(sources: list[str], converters: list, namespace: dict) -> list[str]:
    """Each source expression through its converter, if it has one (None stays None), for a
    generated function; the converters go into its `namespace`."""
    expressions = []
    for index, (source, convert) in enumerate(zip(sources, converters, strict=True)):
        if convert is None:
            expressions.append(source)
        else:
            namespace[f"convert_{index}"] = convert
            expressions.append(f"(None if (value_{index} := {source}) is None else convert_{index}(value_{index}))")
    return expressions


def _as_row(table: Table, values) -> SimpleNamespace:
    if len(values) != len(table.columns):
        raise ValueError(f"{table.name}: {len(values)} values for {len(table.columns)} columns")
    return _row_maker(table)(values)


def driver_connection(session: Session):
    """The DB-API connection of the session's transaction (or, in a reading unit, of the thread's
    hot reader), for hot-path statements that SQLAlchemy's compilation would dominate."""
    hot_reader = session.info.get("hot_reader")
    if hot_reader:
        return hot_reader()
    if session.new or session.dirty or session.deleted:
        session.flush()  # as the ORM's autoflush would, so the statement sees this unit's changes
    # The transaction's connection, kept for the transaction: asking the session for it costs more
    # than most of the statements that want it (a send asks eight times).
    transaction = session.get_transaction()
    cached = session.info.get("driver_connection")
    if cached is not None and cached[0] is transaction:
        return cached[1]
    pooled = session.connection().connection
    # PostgreSQL's pooled connections carry a wrapper that takes SQLite's `?` (postgres_engine).
    driver = pooled.info.get("driver") or pooled.driver_connection
    session.info["driver_connection"] = (session.get_transaction(), driver)
    return driver


def reading_connection(session: Session):
    """The DB-API connection for a read that needs none of this unit's own changes: a reading
    unit's hot reader; in a writing unit whose transaction has not begun, the thread's reader (the
    newest committed state, what the transaction would see if it began now), so a read does not
    take the write lock for the rest of the unit; else the transaction's own."""
    hot_reader = session.info.get("hot_reader")
    if hot_reader:
        return hot_reader()
    reader = session.info.get("reader_before_begin")
    if reader and not session.in_transaction():
        return reader()
    return driver_connection(session)


_processors: dict[tuple[int, str], tuple] = {}


def in_list(values: list) -> tuple[str, list]:
    """`?, ?, ...` for an `IN (...)` of `values` and its parameters, padded to a power of two with
    the last value repeated (the same answer: IN ignores a repeat). A few statement texts instead
    of one per length: PostgreSQL plans a text once per connection and then runs it prepared
    (psycopg prepares from the fifth run); each new length was planned again."""
    size = 1 << max(len(values) - 1, 0).bit_length()
    padded = list(values) + [values[-1]] * (size - len(values))
    return ", ".join("?" * size), padded


def batches_by_key(connection, table: str, columns: str, *, key: str, size: int = 2000) -> Iterator[list]:
    """`table`'s rows (`columns`, the key first) through a SQLAlchemy connection, in key order, in
    batches of `size`: each read after the last key of the one before (no OFFSET that reads again
    what it skips, no table whole in memory). `appliance migrate-to-postgres` copies the indexes so."""
    last = None
    while True:
        after, params = ("", ()) if last is None else (f" WHERE {key} > ?", (last,))
        rows = connection.exec_driver_sql(f"SELECT {columns} FROM {table}{after} ORDER BY {key} LIMIT {size}",
                                          params).fetchall()
        if not rows:
            return
        yield rows
        last = rows[-1][0]


def bind_processor(column, dialect):
    """What turns a Python value into the column's stored form, as SQLAlchemy's own statements
    store it (the dialect's type: SQLite's DATETIME writes text with microseconds, always; the
    driver's default adapter would drop `.000000`, and text comparisons then disagree). Found once
    per column (columns live as long as their models), not per row written."""
    key = (id(column), dialect.name)
    found = _processors.get(key)
    if found is None or found[0] is not column:
        if isinstance(column.type, UTCDateTime) and dialect.name == "sqlite":
            process = _sqlite_utc_text  # the same text, without two layers of SQLAlchemy's processing
        else:
            process = column.type.dialect_impl(dialect).bind_processor(dialect)
        found = _processors[key] = (column, process)
    return found[1]


_last_utc_text: tuple = (None, "")


def _sqlite_utc_text(value: datetime) -> str:
    """A UTCDateTime as SQLAlchemy's SQLite DATETIME stores it (YYYY-MM-DD HH:MM:SS.ffffff, UTC):
    every row written through the driver has several, and the two processors it replaces were a
    tenth of a broadcast's time. The rows of a batch share their moment (`created_at`,
    `updated_at`, ... are one `now`): the same object's text is remembered (datetimes never change)."""
    global _last_utc_text
    last = _last_utc_text
    if last[0] is value:
        return last[1]
    if value.tzinfo is not timezone.utc:
        if value.tzinfo is None:
            raise ValueError("naive datetime given to a UTCDateTime column")
        value = value.astimezone(timezone.utc)
    text = value.replace(tzinfo=None).isoformat(" ", "microseconds")
    _last_utc_text = (value, text)
    return text


def stored(session: Session, column, value):
    """`value` as `column` stores it, for a statement through the driver (None stays None)."""
    return None if value is None else bind_processor(column, session.get_bind().dialect)(value)


@lru_cache(maxsize=512)
def _row_converter(table: Table, names: tuple[str, ...], dialect) -> Callable[[dict], tuple]:
    """A function turning a dict of `names` into the driver's values, each by its column's type.
    Generated once per table and columns, as `_row_maker` is: a loop over values and processors
    cost ~10 us a row, and a broadcast writes thousands of rows a second."""
    namespace: dict = {}
    values = _converting([f"row[{name!r}]" for name in names], [bind_processor(table.c[name], dialect) for name in names],
                         namespace)
    exec(f"def convert(row):\n    return ({', '.join(values)},)", namespace)  # noqa: S102
    return namespace["convert"]


def insert_many(session: Session, table: Table, rows: list[dict], *, or_ignore: bool = False) -> int:
    """Insert `rows` (dicts by column name; every row the same keys) through the driver's
    executemany, each value converted by its column's type once here. SQLAlchemy's own executemany
    spends ~0.15 ms a row preparing parameters: seconds for an import of 20,000 contacts. Answers how
    many rows were inserted (`or_ignore` skips those that would break a unique key: `ON CONFLICT DO
    NOTHING`, which both engines take)."""
    if not rows:
        return 0
    names = tuple(rows[0])
    convert = _row_converter(table, names, session.get_bind().dialect)
    sql = (f"INSERT INTO {table.name} ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})"
           f"{' ON CONFLICT DO NOTHING' if or_ignore else ''}")
    return driver_connection(session).executemany(sql, [convert(row) for row in rows]).rowcount


def update_by_id(session: Session, table: Table, row_id: str, values: dict, *, key: str = "id") -> int:
    """`UPDATE table SET ... WHERE id = ?` (or another key column) through the driver, values
    converted by their column types (a Core update costs ~0.5 ms of statement building on paths
    every message takes)."""
    names = tuple(values)
    params = _row_converter(table, names, session.get_bind().dialect)(values)
    sql = f"UPDATE {table.name} SET {', '.join(f'{name} = ?' for name in names)} WHERE {key} = ?"
    return driver_connection(session).execute(sql, (*params, row_id)).rowcount


def update_many(session: Session, table: Table, rows: list[dict], *, key: str = "id", add: dict | None = None) -> int:
    """`update_by_id` for many rows in one executemany: each row a dict of the key column and the
    values to set (every row the same columns); `add` names columns increased by the same amount in
    every row (`{"attempts": 1}`). Answers how many rows changed."""
    if not rows:
        return 0
    names = tuple(name for name in rows[0] if name != key)
    convert = _row_converter(table, names, session.get_bind().dialect)
    increments = list((add or {}).items())
    assignments = [f"{name} = ?" for name in names] + [f"{name} = {name} + ?" for name, _ in increments]
    sql = f"UPDATE {table.name} SET {', '.join(assignments)} WHERE {key} = ?"
    amounts = tuple(amount for _, amount in increments)
    params = [(*convert(row), *amounts, row[key]) for row in rows]
    return driver_connection(session).executemany(sql, params).rowcount


def remember(session: Session, table: Table, row, **keys) -> None:
    """Make `row` what `read_row(session, table, **keys)` answers in this unit (a row known
    another way: a cache)."""
    session.info.setdefault("read_rows", {})[(table.name, tuple(sorted(keys.items())), ())] = row


def read_row(session: Session, table: Table, *, with_parent: tuple[Table, str] | None = None,
             absent: tuple[str, ...] = (), remember: bool = True, **keys) -> SimpleNamespace | None:
    """One row by unique column values (`id=...`, or `organization_id=..., user_id=...`), as plain
    attributes: in a writing unit within its transaction, in a reading unit as of now (see
    `ThreadReaders`).

    A read-only snapshot, remembered for the rest of the unit of work (authorization and the view
    often need the same tenant row): code that changes a row loads it through the ORM instead.
    `with_parent=(parent_table, foreign_key)` reads the row the foreign key points to in the
    same statement and remembers it too, so that the next `read_row` of it is free.
    `absent` names columns that must be NULL (`disconnected_at`); `remember=False` reads a row
    this unit may change, afresh, in the unit's transaction. In a writing unit whose transaction
    has not begun, remembered rows are read as in a reading unit (the newest committed state).
    """
    remembered = session.info.setdefault("read_rows", {})
    cache_key = (table.name, tuple(sorted(keys.items())), absent)
    if remember and cache_key in remembered:
        return remembered[cache_key]
    key_columns = tuple(sorted(keys))
    parent, foreign_key = with_parent or (None, None)
    sql = _row_reader(table, key_columns, parent, foreign_key, absent)
    # Rows a unit may change (`remember=False`) are read in its transaction, which begins here.
    connection = reading_connection(session) if remember else driver_connection(session)
    values = connection.execute(sql, tuple(keys[k] for k in key_columns)).fetchone()
    row = None if values is None else _as_row(table, values[:len(table.columns)])
    if remember:
        remembered[cache_key] = row
    if row is not None and parent is not None:
        parent_values = values[len(table.columns):]
        remembered[(parent.name, (("id", getattr(row, foreign_key)),), ())] = (
            None if all(v is None for v in parent_values) else _as_row(parent, parent_values))
    return row

"""`appliance migrate-to-postgres URL`: an installation's SQLite database copied into PostgreSQL.

The server must be stopped (the data directory is held meanwhile). The SQLite database is first
brought to the newest revision, the PostgreSQL one migrated to the same (it must hold no data:
nothing is merged). Every table of the models is copied in the order of its foreign keys, in
batches, through SQLAlchemy's column types (so datetimes, JSON and booleans arrive as the ORM
wrote them), then the words and vectors of the search indexes are built or copied by their own
modules (`copy_search`), and the sequences of integer keys are moved past the copied rows. It is
one transaction on PostgreSQL: a failure leaves it empty. Then each table is verified: the
same count of rows and the same checksum (SHA-256 over its rows in key order, read back through
the same types on both sides). The SQLite file is left as it was, a way back.

What the queue held in queue.db is not copied: the work it stood for is found again by the
sweeps that run every minute (due sends, turns, broadcasts, webhook retries, the outbox).
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass, field
from typing import Callable

from sqlalchemy import Integer, func, select, text
from sqlmodel import SQLModel

from appliance import migrations
from appliance.core import postgres_engine
from appliance.core.db import Database
from appliance.core.errors import StartupError

log = logging.getLogger(__name__)

BATCH = 2000


@dataclass
class TableReport:
    name: str
    rows: int
    checksum: str


@dataclass
class MoveReport:
    tables: list[TableReport] = field(default_factory=list)
    search: dict[str, int] = field(default_factory=dict)

    @property
    def rows(self) -> int:
        return sum(table.rows for table in self.tables)


def _tables():
    from appliance import model_registry  # noqa: F401  (registers every table)

    return [table for table in SQLModel.metadata.sorted_tables if migrations.include_object(table, table.name, "table", False, None)]


def _key_columns(table):
    return list(table.primary_key.columns) or list(table.columns)


def _checksum(connection, table) -> tuple[int, str]:
    digest, count = hashlib.sha256(), 0
    result = connection.execution_options(stream_results=True, yield_per=BATCH).execute(
        select(table).order_by(*_key_columns(table)))
    for row in result:
        digest.update(repr(tuple(row)).encode())
        count += 1
    return count, digest.hexdigest()


def _copy_table(source, target, table) -> int:
    keys = [column.key for column in table.columns]
    copied = 0
    result = source.execution_options(stream_results=True, yield_per=BATCH).execute(
        select(table).order_by(*_key_columns(table)))
    while batch := result.fetchmany(BATCH):
        target.execute(table.insert(), [dict(zip(keys, row, strict=True)) for row in batch])
        copied += len(batch)
    return copied


def _move_sequences(target, table) -> None:
    """A copied integer key's sequence moves past the copied rows (the next insert must not collide)."""
    for column in table.primary_key.columns:
        if isinstance(column.type, Integer) and column.autoincrement in (True, "auto"):
            sequence = target.execute(text("SELECT pg_get_serial_sequence(:table, :column)"),
                                      {"table": table.name, "column": column.name}).scalar()
            if sequence:
                target.execute(text(f"SELECT setval('{sequence}', coalesce((SELECT max({column.name}) FROM "
                                    f"{table.name}), 0) + 1, false)"))


def _holds_data(target, tables) -> str | None:
    for table in tables:
        if table.name == "alembic_version":
            continue
        if target.execute(select(func.count()).select_from(table)).scalar():
            return table.name
    return None


def move(sqlite_database: Database, url: str, *, progress: Callable[[str], None] = lambda line: None) -> MoveReport:
    """Copy `sqlite_database` (at the newest revision) into the empty PostgreSQL database at `url`
    and verify it; StartupError in words when it cannot."""
    postgres_engine.check_runtime(url)
    target_database = Database(url)
    try:
        migrations.upgrade(target_database)
        if migrations.revision_of(target_database) != migrations.revision_of(sqlite_database):
            raise StartupError("the two databases are not at the same revision after migrating; nothing was copied")
        tables = _tables()
        report = MoveReport()
        with sqlite_database.engine.connect() as source, target_database.writer.begin() as target:
            occupied = _holds_data(target, tables)
            if occupied:
                raise StartupError(f"the PostgreSQL database at {postgres_engine.describe(url)} already holds data "
                                   f"(table {occupied}); give an empty database (nothing was copied)")
            for table in tables:
                copied = _copy_table(source, target, table)
                _move_sequences(target, table)
                if copied:
                    progress(f"{table.name}: {copied} rows")
            report.search = copy_search(source, target)
            for name, count in report.search.items():
                progress(f"{name}: {count} rows")
            for table in tables:
                source_count, source_sum = _checksum(source, table)
                target_count, target_sum = _checksum(target, table)
                if (source_count, source_sum) != (target_count, target_sum):
                    raise StartupError(f"the copy of table {table.name} differs ({source_count} rows and checksum "
                                       f"{source_sum[:12]} in SQLite, {target_count} and {target_sum[:12]} in "
                                       "PostgreSQL); nothing was kept")
                report.tables.append(TableReport(table.name, source_count, source_sum))
            # The planner's statistics of what was copied, before the first start prepares its
            # statements: plans made on tables it has no figures for can read a table whole until
            # autovacuum's first ANALYZE (docs/measurements.md, issue 48).
            target.connection.info["driver"].execute("ANALYZE")  # (the pooled driver: no server-side cursor)
        return report
    finally:
        target_database.dispose()


def copy_search(source, target) -> dict[str, int]:
    """The search indexes' words and vectors, by the modules that own them (each answers how many
    rows it wrote)."""
    from appliance.contacts import search as contacts_search
    from appliance.knowledge import vector_index, word_index
    from appliance.messages import search_index

    written = {}
    for name, copier in (("message words", search_index.copy_to_postgres),
                         ("contact words", contacts_search.copy_to_postgres),
                         ("knowledge words", word_index.copy_to_postgres),
                         ("knowledge vectors", vector_index.copy_to_postgres)):
        written[name] = copier(source, target)
    return written

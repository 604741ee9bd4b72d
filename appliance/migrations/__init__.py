"""Alembic migrations, configured in code (no alembic.ini) so they run the same from the CLI,
the tests and the frozen bundle. New revision: `make migration MSG="what changed"`."""

from __future__ import annotations

import logging
import re
from functools import cache

from sqlalchemy import text

from appliance.paths import MIGRATIONS_DIR

log = logging.getLogger("appliance.migrations")

# core/queue_postgres.TABLES, named here so the migrations import nothing of the runtime.
QUEUE_TABLES = frozenset({"queue_task", "queue_schedule", "queue_kv", "queue_counter"})


def include_object(obj, name, type_, reflected, compare_to) -> bool:
    """Alembic's comparison of models and schema skips the full-text and vector tables (`fts_*`,
    `vec_*` and their shadow tables): SQLAlchemy has no model of a virtual table; migrations create them in SQL.
    It skips the queue's tables on PostgreSQL too: Huey's, made by its storage (core/queue_postgres.py),
    and indexes named so (PostgreSQL's trigram index of contacts, `fts_contacts`: revision 0055)."""
    if type_ == "index":
        return not (name or "").startswith(("fts_", "vec_"))
    return not (type_ == "table" and (name.startswith(("fts_", "vec_")) or name in QUEUE_TABLES))


def on_sqlite() -> bool:
    """Whether the running migration works on SQLite. Its full-text (`fts_*`) and vector (`vec_*`)
    tables, and fixes of how SQLite stored values, are SQLite's own: on PostgreSQL those steps do
    nothing, and revision 0055 builds PostgreSQL's words and vectors."""
    from alembic import op

    return op.get_bind().dialect.name == "sqlite"


def _config(connection=None):
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.attributes["connection"] = connection
    return config


_REVISION = re.compile(r"^revision = '([^']+)'$", re.M)
_DOWN_REVISION = re.compile(r"^down_revision = '([^']+)'$", re.M)


@cache
def _revisions_from_files() -> tuple[frozenset[str], frozenset[str]]:
    """Every revision this program knows, and those another revises, read from the revision files
    themselves without alembic."""
    revisions, revised = set(), set()
    for path in (MIGRATIONS_DIR / "versions").glob("*.py"):
        source = path.read_text(encoding="utf-8")
        revisions.update(_REVISION.findall(source))
        revised.update(_DOWN_REVISION.findall(source))
    return frozenset(revisions), frozenset(revised)


def known_revisions() -> frozenset[str]:
    """The revisions this program can migrate from: a database at any other was made by a newer one."""
    return _revisions_from_files()[0]


def _head_from_files() -> str | None:
    """The newest revision (the one no other revises); None when that is not one revision (then
    alembic decides)."""
    revisions, revised = _revisions_from_files()
    heads = revisions - revised
    return next(iter(heads)) if len(heads) == 1 else None


def revision_of(database) -> str | None:
    """The database's revision, asked with one query (None: a new database)."""
    with database.engine.connect() as connection:
        try:
            found = connection.execute(text("SELECT version_num FROM alembic_version")).scalars().all()
        except Exception:  # noqa: BLE001 -- no table yet: a new database
            return None
    return found[0] if len(found) == 1 else None


def at_head(database) -> bool:
    """Whether the database is at the newest revision, asked with one query: a start with nothing
    to migrate never imports alembic (~38 MB and 0.3 s; issue 46's footprint)."""
    head = _head_from_files()
    return head is not None and revision_of(database) == head


def upgrade(database) -> None:
    """Bring the database to the newest revision, in one transaction; one line says what changed
    (alembic's own line per step is shown at DEBUG: bootstrap.CHATTY_LOGGERS)."""
    if at_head(database):
        return
    from alembic import command
    from alembic.runtime.migration import MigrationContext

    with database.writer.begin() as connection:
        before = MigrationContext.configure(connection).get_current_revision()
        command.upgrade(_config(connection), "head")
        after = MigrationContext.configure(connection).get_current_revision()
    if after != before:
        log.info("database upgraded from %s to %s", before or "empty", after)


def current_revision(database) -> str | None:
    from alembic.runtime.migration import MigrationContext

    with database.engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def head_revision() -> str:
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(_config()).get_current_head()


def autogenerate(database, message: str) -> None:
    """Write a new revision from the difference between the models and `database` (at head)."""
    from alembic import command

    with database.writer.begin() as connection:
        command.revision(_config(connection), message=message, autogenerate=True)

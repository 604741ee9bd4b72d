"""Alembic migrations, configured in code (no alembic.ini) so they run the same from the CLI,
the tests and the frozen bundle. New revision: `make migration MSG="what changed"`."""

from __future__ import annotations

import logging

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory

from appliance.paths import MIGRATIONS_DIR

log = logging.getLogger("appliance.migrations")


def include_object(obj, name, type_, reflected, compare_to) -> bool:
    """Alembic's comparison of models and schema skips the full-text and vector tables (`fts_*`,
    `vec_*` and their shadow tables): SQLAlchemy has no model of a virtual table; migrations create them in SQL."""
    return not (type_ == "table" and name.startswith(("fts_", "vec_")))


def _config(connection=None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.attributes["connection"] = connection
    return config


def upgrade(database) -> None:
    """Bring the database to the newest revision, in one transaction; one line says what changed
    (alembic's own line per step is shown at DEBUG: bootstrap.CHATTY_LOGGERS)."""
    with database.writer.begin() as connection:
        before = MigrationContext.configure(connection).get_current_revision()
        command.upgrade(_config(connection), "head")
        after = MigrationContext.configure(connection).get_current_revision()
    if after != before:
        log.info("database upgraded from %s to %s", before or "empty", after)


def current_revision(database) -> str | None:
    with database.engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def head_revision() -> str:
    return ScriptDirectory.from_config(_config()).get_current_head()


def autogenerate(database, message: str) -> None:
    """Write a new revision from the difference between the models and `database` (at head)."""
    with database.writer.begin() as connection:
        command.revision(_config(connection), message=message, autogenerate=True)

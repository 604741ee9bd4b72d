"""Finding a contact by part of its name, profile name or number, case and accents aside (the
inbox list's search, the contacts' listing): the only module that knows how each engine indexes it.

- **SQLite**: `fts_contacts`, a trigram FTS5 index of the contacts table itself (external content,
  kept by triggers; migration 0016), for three characters or more; LIKE below that (a scan).
- **PostgreSQL**: `fts_contacts`, a trigram GIN index (pg_trgm; migration 0055) of
  `contact_search_text(name, profile_name, wa_id)`, the three folded by `lower(immutable_unaccent())`;
  a LIKE of the search folded the same way uses it from three characters on (pg_trgm's trigrams,
  as FTS5's), and is the same condition below that, where PostgreSQL scans. From three characters
  on both engines answer a substring of one of the three, accents and case aside; below that
  SQLite's LIKE sets aside the case of ASCII letters only, PostgreSQL's still folds.

`contains` is a condition the statement compiles for its own engine (its dialect is the
session's), so the queries that filter by it (contacts, contact lists, the inbox) are built
without a session and stay the same on both.
"""

from __future__ import annotations

from sqlalchemy import bindparam, or_
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.functions import FunctionElement

from appliance.contacts.models import Contact

SHORTEST_INDEXED = 3  # a trigram


def _like(text: str) -> str:
    return "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


class _Contains(FunctionElement):
    """Its arguments: [the FTS5 phrase, when the search is long enough for the trigram index,]
    then the LIKE pattern. Their number is part of the statement's cache key, so each form is
    compiled once per engine."""

    name = "contact_contains"
    inherit_cache = True
    # No Boolean type: SQLAlchemy would write `... = 1` after it on SQLite, and SQLite's planner
    # reads `rowid IN (...) = 1` as a value to compare, no longer as the rowids to look up.


def contains(search: str):
    """Contacts (the `contacts` table, unaliased) whose name, profile name or number contains
    `search` (its spaces already collapsed)."""
    pattern = bindparam(None, _like(search), unique=True)
    if len(search) >= SHORTEST_INDEXED:
        return _Contains(bindparam(None, '"' + search.replace('"', '""') + '"', unique=True), pattern)
    return _Contains(pattern)


@compiles(_Contains, "sqlite")
def _on_sqlite(element, compiler, **kw):
    arguments = list(element.clauses)
    if len(arguments) == 2:
        return (f"contacts.rowid IN (SELECT rowid FROM fts_contacts WHERE fts_contacts MATCH "
                f"{compiler.process(arguments[0], **kw)})")
    pattern = arguments[0]
    return compiler.process(or_(Contact.name.like(pattern, escape="\\"), Contact.profile_name.like(pattern, escape="\\"),
                                Contact.wa_id.like(pattern, escape="\\")).self_group(), **kw)


@compiles(_Contains, "postgresql")
def _on_postgresql(element, compiler, **kw):
    # Written as the index's expression (migration 0055), so the planner finds the index.
    pattern = list(element.clauses)[-1]
    return (f"contact_search_text(contacts.name, contacts.profile_name, contacts.wa_id) "
            f"LIKE lower(immutable_unaccent({compiler.process(pattern, **kw)}))")


def copy_to_postgres(source, target) -> int:
    """`appliance migrate-to-postgres`: nothing to copy, PostgreSQL keeps its index of the copied
    contacts itself. Answers how many contacts the index holds."""
    return target.exec_driver_sql("SELECT count(*) FROM contacts").scalar()

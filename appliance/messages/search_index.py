"""The full-text index of message content (`fts_messages`), accents and case folded: FTS5 on
SQLite, a `tsvector` table on PostgreSQL. The only module that knows either: messages/search.py
asks `match` for its condition.

Each message with words gets an index row whose rowid is stored on the message (`search_rowid`):
rowids are handed out in insertion order, so "newest first" is the index's own order and needs no
sort, and an edit replaces exactly its row. Rows are written in the transaction that stores the
message, under the write lock that makes `max(rowid) + 1` safe (on PostgreSQL the writers'
advisory lock, held across processes).

- **SQLite**: FTS5 with `unicode61 remove_diacritics 2` (migration 0016) splits and folds the text.
- **PostgreSQL** (migration 0055): a table `(rowid, message_id, words tsvector)` with a GIN index.
  The words are folded and split here (`lexemes`: case and accents folded as FTS5 folds them,
  letters and digits, the rest separates words) and stored as they are (`array_to_tsvector`), and
  a search's words the same way, all required, the last one as a prefix, as the FTS5 expression
  says. Not `to_tsvector` with a language: its parser keeps an e-mail address, a URL or "3.14"
  whole and a language's stemmer and stop words change what matches, where FTS5 finds "example"
  in "ana@example.com"; the search that matches the SQLite one has no language.
"""

from __future__ import annotations

import re

from sqlmodel import Session

from appliance.core.rows import batches_by_key, driver_connection
from appliance.core.text import fold
from appliance.messages.text import plain_text

_WORD = re.compile(r"\w+", re.UNICODE)  # a search's words as FTS5 quotes them
_LEXEME = re.compile(r"[^\W_]+", re.UNICODE)  # letters and digits, as unicode61 makes tokens
_LONGEST = 500  # characters: a tsvector's lexeme takes at most 2 KB; nobody searches a longer word

_TOP = "SELECT coalesce(max(rowid), 0) FROM fts_messages"
_DELETE = "DELETE FROM fts_messages WHERE rowid = ?"
# (rowid, words, message id): the text itself on SQLite, its lexemes on PostgreSQL.
_INSERT = {"sqlite": "INSERT INTO fts_messages(rowid, body, message_id) VALUES (?, ?, ?)",
           "postgresql": "INSERT INTO fts_messages (rowid, words, message_id) VALUES (?, array_to_tsvector(?::text[]), ?)"}


def _on_postgres(session: Session) -> bool:
    return session.get_bind().dialect.name == "postgresql"


def lexemes(text: str) -> list[str]:
    """The words PostgreSQL's index keeps of `text`, and a search looks for: folded, once each."""
    return list(dict.fromkeys(word for word in _LEXEME.findall(fold(text)) if len(word) <= _LONGEST))


def index_new(session: Session, rows: list[dict]) -> None:
    """Give the message rows about to be inserted their index rows (sets `search_rowid` on each)."""
    worded = [(row, plain_text(row["type"], row["payload"])) for row in rows]
    worded = [(row, words) for row, words in worded if words]
    for row in rows:
        row.setdefault("search_rowid", None)
    if not worded:
        return
    postgres = _on_postgres(session)
    driver = driver_connection(session)
    (top,) = driver.execute(_TOP).fetchone()
    params = []
    for offset, (row, words) in enumerate(worded, start=1):
        row["search_rowid"] = top + offset
        params.append((top + offset, lexemes(words) if postgres else words, row["id"]))
    driver.executemany(_INSERT["postgresql" if postgres else "sqlite"], params)


def reindex(session: Session, message) -> None:
    """After an edit: the message's index row says what it says now (same rowid, same place in time)."""
    words = plain_text(message.type, message.payload)
    postgres = _on_postgres(session)
    driver = driver_connection(session)
    if message.search_rowid is not None:
        driver.execute(_DELETE, (message.search_rowid,))
    if words:
        if message.search_rowid is None:
            (top,) = driver.execute(_TOP).fetchone()
            message.search_rowid = top + 1
        driver.execute(_INSERT["postgresql" if postgres else "sqlite"],
                       (message.search_rowid, lexemes(words) if postgres else words, message.id))


def match_expression(q: str) -> str:
    """The user's words as an FTS5 query: every word must appear, the last one may be the start of
    a word (search as you type). Quoting each word keeps FTS5 syntax (AND, *, quotes) inert."""
    words = _WORD.findall(q)
    return " ".join(f'"{w}"' for w in words[:-1]) + (" " if len(words) > 1 else "") + f'"{words[-1]}"*'


def _tsquery(q: str) -> str | None:
    """The same on PostgreSQL: every lexeme, the last as a prefix (None: nothing to look for)."""
    found = lexemes(q)
    if not found:
        return None
    quoted = [f"'{word}'" for word in found]  # letters and digits only: no quote to escape
    return " & ".join(quoted[:-1] + [quoted[-1] + ":*"])


def match(session: Session, q: str) -> tuple[str, list]:
    """The condition on the index's rows (aliased `s`, its `rowid` and `message_id` the same on
    both engines) holding the words of `q` (at least one word: search.py checks), and its params."""
    if not _on_postgres(session):
        return "fts_messages MATCH ?", [match_expression(q)]
    query = _tsquery(q)
    return ("s.words @@ ?::tsquery", [query]) if query else ("FALSE", [])


def copy_to_postgres(source, target) -> int:
    """`appliance migrate-to-postgres`: the SQLite index's rows (its own text, each at its rowid, so
    the messages' `search_rowid` still name them) written to PostgreSQL's. Answers how many."""
    copied = 0
    driver = target.connection.info["driver"]  # the pooled connection's, taking `?` (postgres_engine)
    for rows in batches_by_key(source, "fts_messages", "rowid, body, message_id", key="rowid"):
        driver.executemany(_INSERT["postgresql"], [(rowid, lexemes(body or ""), message_id)
                                                   for rowid, body, message_id in rows])
        copied += len(rows)
    return copied

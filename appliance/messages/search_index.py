"""The full-text index of message content (`fts_messages`, FTS5 with accents and case folded).

Each message with words gets an index row whose rowid is stored on the message (`search_rowid`):
rowids are handed out in insertion order, so "newest first" is the index's own order and needs no
sort, and an edit replaces exactly its row. Rows are written in the transaction that stores the
message, under the write lock that makes `max(rowid) + 1` safe."""

from __future__ import annotations

from sqlmodel import Session

from appliance.core.rows import driver_connection
from appliance.messages.text import plain_text


def index_new(session: Session, rows: list[dict]) -> None:
    """Give the message rows about to be inserted their index rows (sets `search_rowid` on each)."""
    worded = [(row, plain_text(row["type"], row["payload"])) for row in rows]
    worded = [(row, words) for row, words in worded if words]
    for row in rows:
        row.setdefault("search_rowid", None)
    if not worded:
        return
    driver = driver_connection(session)
    (top,) = driver.execute("SELECT coalesce(max(rowid), 0) FROM fts_messages").fetchone()
    params = []
    for offset, (row, words) in enumerate(worded, start=1):
        row["search_rowid"] = top + offset
        params.append((top + offset, words, row["id"]))
    driver.executemany("INSERT INTO fts_messages(rowid, body, message_id) VALUES (?, ?, ?)", params)


def reindex(session: Session, message) -> None:
    """After an edit: the message's index row says what it says now (same rowid, same place in time)."""
    words = plain_text(message.type, message.payload)
    driver = driver_connection(session)
    if message.search_rowid is not None:
        driver.execute("DELETE FROM fts_messages WHERE rowid = ?", (message.search_rowid,))
    if words:
        if message.search_rowid is None:
            (top,) = driver.execute("SELECT coalesce(max(rowid), 0) FROM fts_messages").fetchone()
            message.search_rowid = top + 1
        driver.execute("INSERT INTO fts_messages(rowid, body, message_id) VALUES (?, ?, ?)",
                       (message.search_rowid, words, message.id))

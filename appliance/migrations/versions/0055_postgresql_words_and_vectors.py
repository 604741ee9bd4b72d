"""PostgreSQL's words and vectors: what FTS5, its trigram index and sqlite-vec are on SQLite

Revision ID: 0055
Revises: 0054
Create Date: 2026-11-28 09:00:00

On SQLite nothing changes (0016, 0028, 0032 and 0044 built its structures). On PostgreSQL, one
structure per concern, each read and written only by the module named beside it, which explains
its format:

- `fts_messages` (messages/search_index.py): a table keyed by the rowid kept on the message
  (`messages.search_rowid`), its words a `tsvector` with a GIN index.
- `fts_contacts` (contacts/search.py): a trigram GIN index (pg_trgm) over the contact's name,
  profile name and number folded by `lower(immutable_unaccent(...))`. PostgreSQL keeps an index
  itself, so the triggers SQLite needs are not needed.
- `fts_knowledge_chunks` (knowledge/word_index.py): the passages' words, a `tsvector` with a GIN
  index, and `fts_knowledge_totals`, the passages and words counted (bm25's N and average
  length), kept by statement triggers however rows come and go.
- `vec_knowledge_chunks` (knowledge/vector_index.py): pgvector `vector(512)` with an HNSW index
  (cosine), and the organization for filtering; `vec_knowledge_revisions` as on SQLite.
- `knowledge_chunks_forget`: a passage's vector and words go with it, whatever deletes it.
"""
from alembic import op

from appliance.migrations import on_sqlite


revision = '0055'
down_revision = '0054'
branch_labels = None
depends_on = None


def upgrade() -> None:
    if on_sqlite():  # SQLite's own structures were made by earlier revisions
        return
    connection = op.get_bind()
    # unaccent and pg_trgm (the server's contrib package) are trusted: the database's owner may
    # create them. pgvector is not: where the appliance's user is no superuser, a superuser
    # creates it in the database once, before the first start.
    for extension in ("vector", "unaccent", "pg_trgm"):
        op.execute(f"CREATE EXTENSION IF NOT EXISTS {extension}")
    # unaccent() is STABLE (its dictionary could be changed), so no index may use it: this wrapper
    # promises it will not change. Its dictionary and function are named with their schema, as
    # an index expression must be (a restore runs with an empty search_path).
    schema = connection.exec_driver_sql(
        "SELECT extnamespace::regnamespace::text FROM pg_extension WHERE extname = 'unaccent'").scalar()
    op.execute(f"CREATE FUNCTION immutable_unaccent(text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE "
               f"AS $$ SELECT {schema}.unaccent('{schema}.unaccent'::regdictionary, $1) $$")

    # Messages: the words as messages/search_index.py folds and splits them, a row per rowid.
    op.execute("CREATE TABLE fts_messages (rowid bigint PRIMARY KEY, message_id text NOT NULL, words tsvector NOT NULL)")
    op.execute("CREATE INDEX fts_messages_words ON fts_messages USING gin (words)")

    # Contacts: part of a name or number, case and accents aside. One expression over the three
    # columns (a newline between them: a search, its spaces collapsed, never spans two), which
    # contacts/search.py writes the same way so the planner finds this index. Lower case after
    # the accents go: unaccent turns "Á" into "A", and lower() in a database of the C locale
    # lowers ASCII only.
    op.execute("CREATE FUNCTION contact_search_text(name text, profile_name text, wa_id text) RETURNS text "
               "LANGUAGE sql IMMUTABLE PARALLEL SAFE "
               "RETURN lower(immutable_unaccent(coalesce(name, '') || chr(10) || coalesce(profile_name, '') "
               "|| chr(10) || coalesce(wa_id, '')))")
    op.execute("CREATE INDEX fts_contacts ON contacts USING gin "
               "(contact_search_text(name, profile_name, wa_id) gin_trgm_ops)")

    # The knowledge base's words. A passage's words (~6 KB) stay in the row (toast_tuple_target):
    # ranking reads every matching passage's, and an out-of-line value is a lookup each.
    op.execute("CREATE TABLE fts_knowledge_chunks (chunk_id bigint PRIMARY KEY, organization_id text NOT NULL, "
               "words tsvector NOT NULL, size integer NOT NULL) WITH (toast_tuple_target = 8160)")
    op.execute("CREATE INDEX fts_knowledge_chunks_words ON fts_knowledge_chunks USING gin (words)")
    op.execute("CREATE TABLE fts_knowledge_totals (id boolean PRIMARY KEY DEFAULT true CHECK (id), "
               "passages bigint NOT NULL, words bigint NOT NULL)")
    op.execute("INSERT INTO fts_knowledge_totals (id, passages, words) VALUES (true, 0, 0)")
    op.execute("""CREATE FUNCTION fts_knowledge_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        UPDATE fts_knowledge_totals SET passages = passages + (SELECT count(*) FROM changed),
            words = words + (SELECT coalesce(sum(size), 0) FROM changed);
    ELSE
        UPDATE fts_knowledge_totals SET passages = passages - (SELECT count(*) FROM changed),
            words = words - (SELECT coalesce(sum(size), 0) FROM changed);
    END IF;
    RETURN NULL;
END $$""")
    op.execute("CREATE TRIGGER fts_knowledge_counted AFTER INSERT ON fts_knowledge_chunks "
               "REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION fts_knowledge_count()")
    op.execute("CREATE TRIGGER fts_knowledge_uncounted AFTER DELETE ON fts_knowledge_chunks "
               "REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION fts_knowledge_count()")

    # The knowledge base's vectors: one table (SQLite needs a second, plain copy because vec0 scans
    # every partition for any read but a nearest-neighbour one; a btree on the organization serves
    # that here). PLAIN storage: 2 KB a vector, kept in the row and never compressed.
    op.execute("CREATE TABLE vec_knowledge_chunks (chunk_id bigint PRIMARY KEY, organization_id text NOT NULL, "
               "document_id text NOT NULL, embedding vector(512) NOT NULL)")
    op.execute("ALTER TABLE vec_knowledge_chunks ALTER COLUMN embedding SET STORAGE PLAIN")
    op.execute("CREATE INDEX ix_vec_knowledge_chunks_org ON vec_knowledge_chunks (organization_id)")
    op.execute("CREATE INDEX vec_knowledge_chunks_hnsw ON vec_knowledge_chunks USING hnsw (embedding vector_cosine_ops)")
    op.execute("CREATE TABLE vec_knowledge_revisions (organization_id text PRIMARY KEY, revision bigint NOT NULL)")

    # What SQLite's row trigger does, once per statement: a document's passages go in one.
    op.execute("""CREATE FUNCTION knowledge_chunks_forget() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM vec_knowledge_chunks v USING gone WHERE v.chunk_id = gone.id;
    DELETE FROM fts_knowledge_chunks f USING gone WHERE f.chunk_id = gone.id;
    INSERT INTO vec_knowledge_revisions (organization_id, revision)
        SELECT DISTINCT organization_id, 1 FROM gone
        ON CONFLICT (organization_id) DO UPDATE SET revision = vec_knowledge_revisions.revision + 1;
    RETURN NULL;
END $$""")
    op.execute("CREATE TRIGGER knowledge_chunks_forget AFTER DELETE ON knowledge_chunks "
               "REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION knowledge_chunks_forget()")


def downgrade() -> None:
    if on_sqlite():
        return
    op.execute("DROP TRIGGER knowledge_chunks_forget ON knowledge_chunks")
    op.execute("DROP FUNCTION knowledge_chunks_forget()")
    op.execute("DROP TABLE vec_knowledge_revisions")
    op.execute("DROP TABLE vec_knowledge_chunks")
    op.execute("DROP TABLE fts_knowledge_totals")
    op.execute("DROP TABLE fts_knowledge_chunks")
    op.execute("DROP FUNCTION fts_knowledge_count()")
    op.execute("DROP INDEX fts_contacts")
    op.execute("DROP FUNCTION contact_search_text(text, text, text)")
    op.execute("DROP TABLE fts_messages")
    op.execute("DROP FUNCTION immutable_unaccent(text)")

"""The bot's knowledge base: documents, notes and web pages cut into passages, searched by meaning
(sqlite-vec) and by exact words (FTS5), offline."""

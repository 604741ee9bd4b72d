"""Cutting text into passages of about 700 tokens for retrieval.

Passages follow the text's own seams: a heading starts a new passage once the current one has some
body, a passage breaks between paragraphs, a paragraph too long for one passage breaks between
sentences, and only a sentence longer than a passage is cut by words. Consecutive passages of one
section share about 15% (whole sentences or paragraphs), so an answer that straddles a break is
whole in one of them; a passage continuing a section repeats its heading. CSV rows are never cut:
each passage is the header and as many whole rows as fit.

Tokens are estimated as characters / 4 (no tokenizer: the embedder has its own, and a budget only
needs to be about right).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from appliance.knowledge.extraction import Table

TARGET_TOKENS = 700
OVERLAP_TOKENS = 105  # ~15%
_HEADING_BREAK_TOKENS = TARGET_TOKENS // 4  # a heading after this much body starts a new passage
_SENTENCE_END = re.compile(r"(?<=[.!?…;:])\s+(?=[\"'«¿¡(\[]?[A-ZÁÉÍÓÚÑÜ0-9])")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.*)$")


def estimate_tokens(text: str) -> int:
    return max(1, (len(text) + 3) // 4)


@dataclass(frozen=True)
class _Unit:
    text: str
    heading: bool = False

    @property
    def tokens(self) -> int:
        return estimate_tokens(self.text)


def chunk_text(text: str) -> list[str]:
    passages: list[str] = []
    current: list[_Unit] = []
    heading: _Unit | None = None

    def body_tokens() -> int:
        return sum(unit.tokens for unit in current if not unit.heading)

    def flush(overlap: bool) -> list[_Unit]:
        passages.append("\n\n".join(unit.text for unit in current))
        if not overlap:
            return []
        carried, size = [], 0
        for unit in reversed(current):
            if unit.heading or size + unit.tokens > OVERLAP_TOKENS:
                break
            carried.insert(0, unit)
            size += unit.tokens
        return ([heading] if heading else []) + carried

    for unit in _units(text):
        if unit.heading:
            if body_tokens() >= _HEADING_BREAK_TOKENS:
                flush(overlap=False)
                current = []
            heading = unit
            current.append(unit)
            continue
        if body_tokens() and sum(u.tokens for u in current) + unit.tokens > TARGET_TOKENS:
            current = flush(overlap=True)
        current.append(unit)
    if body_tokens():
        passages.append("\n\n".join(unit.text for unit in current))
    return passages


def chunk_table(table: Table) -> list[str]:
    passages, rows, size = [], [], estimate_tokens(table.header)
    for row in table.rows:
        if rows and size + estimate_tokens(row) > TARGET_TOKENS:
            passages.append("\n".join([table.header, *rows]))
            rows, size = [], estimate_tokens(table.header)
        rows.append(row)
        size += estimate_tokens(row)
    if rows:
        passages.append("\n".join([table.header, *rows]))
    return passages


def _units(text: str):
    for block in re.split(r"\n\s*\n", text.replace("\r\n", "\n")):
        block = block.strip()
        if not block:
            continue
        lines = block.split("\n")
        match = _HEADING.match(lines[0])
        if match:
            yield _Unit(match.group(1).strip(), heading=True)
            block = "\n".join(lines[1:]).strip()
            if not block:
                continue
        if estimate_tokens(block) <= TARGET_TOKENS - OVERLAP_TOKENS:
            yield _Unit(block)
            continue
        for sentence in _SENTENCE_END.split(block):
            yield from _by_words(sentence.strip())


def _by_words(sentence: str):
    if estimate_tokens(sentence) <= TARGET_TOKENS - OVERLAP_TOKENS:
        if sentence:
            yield _Unit(sentence)
        return
    words, piece = sentence.split(), []
    for word in words:
        piece.append(word)
        if estimate_tokens(" ".join(piece)) >= TARGET_TOKENS // 2:
            yield _Unit(" ".join(piece))
            piece = []
    if piece:
        yield _Unit(" ".join(piece))

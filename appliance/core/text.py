"""Text helpers shared by domains (no domain knowledge here)."""

import re
import unicodedata
from functools import lru_cache

MASK = "[protegido]"
PART_MAX = 300  # characters per paced part ("~300": a thought a person would send at once)
_SENTENCE_END = re.compile(r"(?<=[.!?…])\s+")


def fold(text: str) -> str:
    """For comparing what people type: case and accents ignored ('  ¡BAJA! ' -> '¡baja!', 'Teléfono' ->
    'telefono'). The search index folds the same way (FTS5 `remove_diacritics 2`)."""
    decomposed = unicodedata.normalize("NFKD", text.strip().casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def slugify(text: str, *, max_length: int = 40) -> str:
    """Lower-case ASCII letters, digits and single dashes: 'Café Niño' -> 'cafe-nino' ('' if nothing is left)."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", "-", ascii_text).strip("-")[:max_length].strip("-")


# What a bot may say: protected values masked, long replies cut into WhatsApp-sized parts (the bot's
# pacing and the AI agents' test conversation both use these).

@lru_cache(maxsize=256)
def _protected_pattern(values: tuple[str, ...]) -> re.Pattern | None:
    """One pattern for every protected value, each allowed spaces and dashes between its
    characters and compared without case ("55-1234 5678" is "5512345678")."""
    alternatives = []
    for value in values:
        bare = re.sub(r"[\s\-]+", "", value)
        if bare:
            alternatives.append(r"[\s\-]*".join(re.escape(ch) for ch in bare))
    if not alternatives:
        return None
    return re.compile("|".join(sorted(alternatives, key=len, reverse=True)), re.IGNORECASE)


def mask_protected(text: str, values: list[str]) -> tuple[str, int]:
    """The text with every protected value replaced by [protegido], and how many were."""
    pattern = _protected_pattern(tuple(values)) if values else None
    if pattern is None:
        return text, 0
    return pattern.subn(MASK, text)


def split(text: str, limit: int = PART_MAX) -> list[str]:
    """Parts of at most `limit` characters, cut at paragraphs, then sentences, then words."""
    parts: list[str] = []
    for paragraph in (p.strip() for p in re.split(r"\n\s*\n", text)):
        if not paragraph:
            continue
        current = ""
        for sentence in _SENTENCE_END.split(paragraph):
            for piece in _words(sentence, limit):
                candidate = f"{current} {piece}" if current else piece
                if len(candidate) <= limit:
                    current = candidate
                else:
                    parts.append(current)
                    current = piece
        if current:
            parts.append(current)
    return parts or [text]


def _words(sentence: str, limit: int) -> list[str]:
    if len(sentence) <= limit:
        return [sentence]
    pieces, current = [], ""
    for word in sentence.split(" "):
        while len(word) > limit:  # no space to cut at (a URL): cut it
            if current:
                pieces.append(current)
                current = ""
            pieces.append(word[:limit])
            word = word[limit:]
        candidate = f"{current} {word}" if current else word
        if len(candidate) <= limit:
            current = candidate
        else:
            pieces.append(current)
            current = word
    if current:
        pieces.append(current)
    return pieces

"""Text helpers shared by domains (no domain knowledge here)."""

import re
import unicodedata


def fold(text: str) -> str:
    """For comparing what people type: case and accents ignored ('  ¡BAJA! ' -> '¡baja!', 'Teléfono' ->
    'telefono'). The search index folds the same way (FTS5 `remove_diacritics 2`)."""
    decomposed = unicodedata.normalize("NFKD", text.strip().casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def slugify(text: str, *, max_length: int = 40) -> str:
    """Lower-case ASCII letters, digits and single dashes: 'Café Niño' -> 'cafe-nino' ('' if nothing is left)."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", "-", ascii_text).strip("-")[:max_length].strip("-")

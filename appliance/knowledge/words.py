"""Words as the word index sees them: case and accents folded, Spanish (and English) stop words
left out of queries, and each word cut to its Spanish stem (Snowball's, from the well-kept
`snowballstemmer` package) and matched as the start of a word, so "reparten" finds "repartimos"
and "envíos" finds "envío". Plain Python, so any database's full-text search can be fed the same
terms."""

from __future__ import annotations

import re
import threading
import unicodedata
from functools import lru_cache

# Letters and digits, as FTS5's unicode61 tokenizer sees a word (an underscore separates words there).
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
SHORTEST_PREFIX = 4  # a term this long also matches longer words (envio -> envios): a poor man's stemming

# Snowball's Spanish list (folded), the question words people start with, and the commonest English ones:
# customers write in both, and "cuanto cuesta" should find a price list that never says "cuanto".
STOP_WORDS = frozenset("""
a al algo algunas algunos ante antes como con contra cual cuales cuando cuanta cuantas cuanto cuantos de del
desde donde dos el ella ellas ellos en entre era eran es esa esas ese eso esos esta estaba estan estar este
esto estos fue fueron ha hay haber habia han hasta la las le les lo los mas me mi mis mucho muy nada ni no
nos nosotros o os otra otro para pero poco por porque puedo puede pueden que quien quienes se sea ser si
sin sobre son su sus tambien te tengo tiene tienen ti tu tus un una uno unos unas y ya yo vosotros usted
ustedes hola gracias favor quiero quisiera saber dime decir cual
the a an and or of to in on at for from by with is are was were be been do does did how what when where
which who why can could i you we they it my your our me us this that these those there here have has had
please hi hello much many
""".split())


def _accent_table() -> dict[str, str]:
    """Each accented Latin letter to its bare form (á -> a, ñ -> n, ç -> c), the letters
    unicode61's remove_diacritics 2 folds."""
    table = {}
    for code in range(0xC0, 0x250):
        bare = "".join(ch for ch in unicodedata.normalize("NFKD", chr(code)) if not unicodedata.combining(ch))
        if bare and bare != chr(code):
            table[chr(code)] = bare
    return table


_ACCENTS = _accent_table()
_NOT_ASCII = re.compile(r"[^\x00-\x7f]")


def _bare(match: re.Match) -> str:
    return _ACCENTS.get(match.group(), match.group())


def fold(text: str) -> str:
    """Lower case, no accents (á -> a, ñ -> n), as FTS5's unicode61 remove_diacritics 2 does. Only
    the letters outside ASCII are looked up (a few in a Spanish passage): a per-letter
    str.translate took ~50 us a passage, most of a search's candidate checks."""
    folded = text.casefold()
    return folded if folded.isascii() else _NOT_ASCII.sub(_bare, folded)


def tokens(text: str) -> list[str]:
    return _WORD.findall(fold(text))


_stemmers = threading.local()  # a Snowball stemmer keeps state between calls: one per thread


@lru_cache(maxsize=50_000)  # Snowball is pure Python (~60 us a word); people's words repeat (a few MB)
def stem(word: str) -> str:
    stemmer = getattr(_stemmers, "spanish", None)
    if stemmer is None:
        # On the first word stemmed, not at start: the package loads every language's stemmer
        # (~3 MB) when imported (issue 46, footprint).
        import snowballstemmer

        stemmer = _stemmers.spanish = snowballstemmer.stemmer("spanish")
    return stemmer.stemWord(word)


def terms(query: str) -> list[str]:
    """The words of a query worth matching, folded and stemmed, in order, once each. A term of
    SHORTEST_PREFIX letters or more matches any word it starts; a shorter one (pan, iva, 103) only
    itself."""
    seen: dict[str, None] = {}
    for word in tokens(query):
        if word in STOP_WORDS:
            continue
        root = stem(word)
        term = root if len(root) >= SHORTEST_PREFIX else word
        if term not in seen:
            seen[term] = None
    return list(seen)


def question_key(query: str) -> str:
    """What groups questions asked in other words: their terms, sorted (at most 300 characters)."""
    key = " ".join(sorted(terms(query))) or " ".join(tokens(query))
    return key[:300]


def matches_all(text: str, wanted: list[str]) -> bool:
    """Whether every term appears in the text as a word (a long term: as the start of a word)."""
    if not wanted:
        return False
    folded = fold(text)
    if any(term not in folded for term in wanted):  # most passages fail here, before any tokenizing
        return False
    present = set(_WORD.findall(folded))
    for term in wanted:
        if term in present:
            continue
        if len(term) < SHORTEST_PREFIX or not any(word.startswith(term) for word in present):
            return False
    return True

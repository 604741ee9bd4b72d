"""Keyword matching as customers write: case and accents aside ("Menú", "MENU", "menu" are one
word), whole words only ("pan" is not in "panadería"), spaces and punctuation between words loose.

Rules are compiled once per set (`compile_rules`), so deciding on a message is one normalisation of
its text and a regular-expression search per rule."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

MATCH_TYPES = ("CONTAINS", "EXACT", "STARTS_WITH")
_NOT_WORD = re.compile(r"[\W_]+")


def normalize(text: str) -> str:
    """Lower case, accents off (ñ becomes n too: customers type both), one space between words,
    punctuation as spaces."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(_NOT_WORD.sub(" ", bare).split())


@lru_cache(maxsize=4096)  # hand-off keywords and flow triggers are compiled per turn: once is enough
def _pattern(keyword: str, match_type: str) -> re.Pattern:
    words = re.escape(normalize(keyword))
    if match_type == "EXACT":
        return re.compile(rf"^{words}$")
    if match_type == "STARTS_WITH":
        return re.compile(rf"^{words}(?: |$)")
    return re.compile(rf"(?:^| ){words}(?: |$)")


@dataclass(frozen=True)
class CompiledRule:
    rule_id: str
    patterns: tuple[re.Pattern, ...]
    phone_number_pks: frozenset[str]

    def matches(self, normalized_text: str, phone_number_pk: str) -> bool:
        if self.phone_number_pks and phone_number_pk not in self.phone_number_pks:
            return False
        return any(pattern.search(normalized_text) for pattern in self.patterns)


def compile_rule(rule_id: str, keywords: list[str], match_type: str, phone_number_pks: list[str]) -> CompiledRule:
    patterns = tuple(_pattern(keyword, match_type) for keyword in keywords if normalize(keyword))
    return CompiledRule(rule_id, patterns, frozenset(phone_number_pks))


def first_match(rules: list[CompiledRule], text: str, phone_number_pk: str) -> str | None:
    """The id of the first rule (in the given order: priority) whose words are in `text`."""
    normalized = normalize(text)
    if not normalized:
        return None
    for rule in rules:
        if rule.matches(normalized, phone_number_pk):
            return rule.rule_id
    return None

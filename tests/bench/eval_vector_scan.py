"""How much of the exact nearest-neighbour ranking the knowledge base's sign narrowing keeps
(appliance/knowledge/vector_index.py: from SIGNS_FROM passages a search looks only at the
RESCORED·k passages whose vectors' signs differ least from the question's), and what each way costs.

Real sentences, not random vectors (random vectors have no neighbours to find): the translated
messages of the Debian packages on this machine (`/usr/share/locale/es/LC_MESSAGES/*.mo`, tens of
thousands of Spanish sentences with their English originals). 10,000 Spanish translations are the
library; the questions are 300 English originals (a customer writing in another language than the
documents) and 300 Spanish sentence starts not in the library. Embedded with the model we ship.

Run: .venv/bin/python tests/bench/eval_vector_scan.py   (EVAL_PASSAGES=10000, EVAL_K=20)
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import gettext  # noqa: E402
import glob  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from appliance.knowledge import embedder, vector_index  # noqa: E402

PASSAGES = int(os.environ.get("EVAL_PASSAGES", "10000"))
K = int(os.environ.get("EVAL_K", "20"))  # the search's pool: max(4 * topK, 20)
QUESTIONS = 300


def _sentences() -> list[tuple[str, str]]:
    """(English original, Spanish translation) of every catalog, longer than a few words."""
    pairs: dict[str, str] = {}
    for path in sorted(glob.glob("/usr/share/locale/es/LC_MESSAGES/*.mo")):
        try:
            with open(path, "rb") as catalog:
                messages = gettext.GNUTranslations(catalog)._catalog
        except (OSError, ValueError):  # an unreadable catalog is skipped
            continue
        for original, translated in messages.items():
            if isinstance(original, str) and original and isinstance(translated, str) and len(translated) > 25:
                pairs[original] = translated
    return list(pairs.items())


def main() -> None:
    pairs = _sentences()
    if len(pairs) < PASSAGES + QUESTIONS:
        sys.exit(f"only {len(pairs)} translated messages under /usr/share/locale/es: install a few Debian packages' "
                 "translations, or lower EVAL_PASSAGES")
    rng = np.random.default_rng(1)
    order = rng.permutation(len(pairs))
    pairs = [pairs[i] for i in order]
    model = embedder.current()
    started = time.perf_counter()
    library = model.embed_passages([spanish for _, spanish in pairs[:PASSAGES]])
    questions = np.vstack([model.embed_queries([english for english, _ in pairs[:QUESTIONS]]),
                           model.embed_queries([spanish.split(".")[0][:60] for _, spanish in
                                                pairs[PASSAGES:PASSAGES + QUESTIONS]])])
    print(f"{PASSAGES:,} passages and {len(questions)} questions embedded in {time.perf_counter() - started:.0f} s")
    signs = vector_index._signs(library)
    exact = [set(np.argsort(-(library @ q))[:K]) for q in questions]
    print(f"found of the exact top {K} (mean, worst question), and each way's time per search:")
    for rescored in sorted({4, 8, 16, 32, vector_index.RESCORED}):
        wanted = K * rescored
        kept, times = [], []
        for q, truth in zip(questions, exact):
            begun = time.perf_counter()
            rows = vector_index.closest_by_signs(signs, q, wanted)
            scores = library[rows] @ q
            top = rows[np.argpartition(-scores, K)[:K]]
            times.append(time.perf_counter() - begun)
            kept.append(len(truth & set(top.tolist())) / K)
        mark = "  <- vector_index.RESCORED" if rescored == vector_index.RESCORED else ""
        print(f"  {wanted:4d} candidates ({rescored:2d}·k): {statistics.mean(kept):.2%} found, worst {min(kept):.0%}, "
              f"{statistics.median(times) * 1000:.2f} ms{mark}")
    times = []
    for q in questions:
        begun = time.perf_counter()
        scores = library @ q
        np.argpartition(-scores, K)[:K]
        times.append(time.perf_counter() - begun)
    print(f"  exact scan of all {PASSAGES:,}: {statistics.median(times) * 1000:.2f} ms (warm; in a search the "
          "matrix is seldom still in the cache)")


if __name__ == "__main__":
    main()

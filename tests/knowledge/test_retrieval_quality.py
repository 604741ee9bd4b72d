"""Issue 19's quality bar, kept by the suite: on the evaluation set (tests/bench/knowledge_eval_set.py),
the fused ranking finds more answers in its top 5 and ranks them better than the vector ranking
or the word ranking alone, and the default minSimilarity (0.3) keeps most answers while
answering nothing to questions the library cannot answer. Figures: tests/bench/eval_knowledge.py."""

import pytest

from appliance.core import runtime
from tests import factories
from tests.bench import eval_knowledge


@pytest.fixture
def settings(settings):
    return settings.replace(knowledge_allow_private_urls=True)


def test_hybrid_search_beats_either_half_and_the_default_threshold_is_calibrated(api):
    owner = factories.owner(api)
    with eval_knowledge.serving({"talleres.html": eval_knowledge.eval_set.WORKSHOPS_HTML}) as base_url:
        eval_knowledge.build_library(api.client, owner["org"]["id"], owner["token"], base_url)
    result = eval_knowledge.evaluate(runtime.get().db, owner["org"]["id"])
    hybrid, vector, words = (result["scores"][name] for name in ("hybrid", "vector", "words"))
    assert hybrid.recall_at_5 > max(vector.recall_at_5, words.recall_at_5) - 1e-9 and hybrid.recall_at_5 >= 0.95
    assert hybrid.mrr > max(vector.mrr, words.mrr)
    assert result["kept"][0.3] >= 0.75 and result["empty"][0.3] == 1.0

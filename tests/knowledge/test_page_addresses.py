"""Issue 44: knowledge pages follow the installation's one rule on addresses. A server on the
installation's allowed private servers is read (an intranet wiki); a redirect from it to another
address of this machine is refused, hop by hop; APPLIANCE_KNOWLEDGE_ALLOW_PRIVATE_URLS still reads
every address."""

import pytest

from appliance.core import runtime
from appliance.knowledge.models import KnowledgeDocument
from tests import factories
from tests.knowledge.test_knowledge_pages_and_insights import Site
from tests.problems import assert_problem
from tests.waiting import eventually

PAGE = b"<html><body><main><h1>Talleres</h1><p>El taller de masa madre cuesta 35 euros y dura tres horas.</p></main></body></html>"


@pytest.fixture
def sites():
    with Site().served() as wiki, Site().served() as other:
        yield wiki, other


@pytest.fixture
def settings(settings, sites):
    return settings.replace(allowed_private_urls=sites[0].url)  # the wiki's origin only


def _base(org):
    return f"/organizations/{org['id']}/bot/knowledge"


def _document(doc_id):
    """The document once it is read (or failed)."""
    def read():
        with runtime.get().db.unit_of_work(write=False) as session:
            return session.get(KnowledgeDocument, doc_id)
    return eventually(read, lambda document: document.status != "PROCESSING")


def test_an_allowed_private_server_is_read_and_its_redirect_elsewhere_is_not_followed(api, sites):
    owner = factories.owner(api)
    wiki, other = sites
    wiki.pages["/talleres"] = (200, PAGE, "")
    other.pages["/secreto"] = (200, PAGE, "")
    wiki.pages["/movido"] = (302, f"{other.url}/secreto".encode(), "")
    read = api.post(f"{_base(owner['org'])}/url", {"url": f"{wiki.url}/talleres"}, token=owner["token"])
    assert read.status_code == 201 and _document(read.json["data"]["id"]).status == "READY", read.json
    assert_problem(api.post(f"{_base(owner['org'])}/url", {"url": f"{other.url}/secreto"}, token=owner["token"]),
                   400, "url_not_allowed")
    moved = api.post(f"{_base(owner['org'])}/url", {"url": f"{wiki.url}/movido"}, token=owner["token"])
    assert moved.status_code == 201
    document = _document(moved.json["data"]["id"])
    assert document.status == "FAILED" and "not a public address" in document.error, document.error
    assert other.requests == []


class TestEveryAddressForKnowledge:
    @pytest.fixture
    def settings(self, settings):
        return settings.replace(knowledge_allow_private_urls=True)

    def test_the_knowledge_setting_still_reads_any_address(self, api, sites):
        owner = factories.owner(api)
        _, other = sites
        other.pages["/secreto"] = (200, PAGE, "")
        made = api.post(f"{_base(owner['org'])}/url", {"url": f"{other.url}/secreto"}, token=owner["token"])
        assert made.status_code == 201 and _document(made.json["data"]["id"]).status == "READY"

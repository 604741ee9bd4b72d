"""URL rules whose builders are made at their first url_for (http/routing.py) build what werkzeug's do."""

from werkzeug.routing import Map, Rule

from appliance.http.routing import LazilyBuiltRule

RULES = [
    ("/organizations/<uuid:org_id>/contacts/<contact_id>", "contact", {}),
    ("/console/<org>/inbox", "inbox", {"org": "default"}),
    ("/files/<path:name>", "file", {}),
    ("/health/ready", "ready", {}),
]
VALUES = [
    ("contact", {"org_id": "7b2d3f1e-8c4a-4f5e-9a1b-2c3d4e5f6a7b", "contact_id": "a b/ñ"}),
    ("contact", {"org_id": "7b2d3f1e-8c4a-4f5e-9a1b-2c3d4e5f6a7b", "contact_id": "c", "page": 2, "q": "é&x"}),
    ("inbox", {"org": "default"}),
    ("inbox", {"org": "default", "tab": "mine"}),
    ("file", {"name": "a/b c.pdf"}),
    ("ready", {}),
]


def _map(rule_class) -> Map:
    return Map([rule_class(path, endpoint=endpoint, defaults=defaults or None) for path, endpoint, defaults in RULES])


def test_urls_are_built_as_werkzeugs_own_rules_build_them():
    eager, lazy = _map(Rule).bind("shop.example", "/"), _map(LazilyBuiltRule).bind("shop.example", "/")
    for endpoint, values in VALUES:
        for full in (False, True):
            assert lazy.build(endpoint, values, force_external=full) == eager.build(endpoint, values, force_external=full)


def test_a_rules_builder_is_made_at_its_first_url_not_when_it_is_added(monkeypatch):
    made = []
    werkzeugs = Rule._compile_builder
    monkeypatch.setattr(Rule, "_compile_builder", lambda rule, append_unknown=True: made.append(rule.endpoint)
                        or werkzeugs(rule, append_unknown))
    urls = _map(LazilyBuiltRule).bind("shop.example", "/")
    assert made == []
    assert urls.build("ready", {}) == "/health/ready"
    assert urls.build("ready", {"x": "1"}) == "/health/ready?x=1"
    assert made == ["ready"]  # url_for's builder (unknown values go to the query string): made once, kept
    assert urls.build("ready", {"x": "2"}) == "/health/ready?x=2"
    assert made == ["ready"]

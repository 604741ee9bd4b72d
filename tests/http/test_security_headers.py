"""Issue 17, finding 8, reproduced as observed: pages, the documentation and the API answer with
one header policy (the stored files' own stricter one is tested in tests/messages/test_served_files.py)."""

import pytest

from appliance.http.headers import DOCS_POLICY, PAGE_POLICY
from tests.browser_forms import sign_in


@pytest.mark.parametrize("path", ["/sign-in", "/sign-up", "/forgot-password", "/setup"])
def test_public_pages_run_only_our_scripts_and_are_never_framed(client, path):
    page = client.get(path)
    assert page.mimetype == "text/html"
    assert page.headers["Content-Security-Policy"] == PAGE_POLICY
    assert "script-src 'self';" in PAGE_POLICY and "frame-ancestors 'none'" in PAGE_POLICY
    assert page.headers["X-Frame-Options"] == "DENY"
    assert page.headers["X-Content-Type-Options"] == "nosniff"
    assert page.headers["Referrer-Policy"] == "same-origin"


def test_signed_in_pages_and_the_api_carry_the_policy(client, owner):
    sign_in(client, email="owner@example.com")
    for path in (f"/inbox/{owner['org']['id']}", f"/console/{owner['org']['id']}/organization", "/console/account"):
        page = client.get(path)
        assert page.status_code == 200 and page.headers["Content-Security-Policy"] == PAGE_POLICY, path
    api = client.get(f"/organizations/{owner['org']['id']}", headers={"Authorization": f"Bearer {owner['token']}"})
    assert api.headers["X-Content-Type-Options"] == "nosniff" and "Content-Security-Policy" not in api.headers
    missing = client.get("/organizations/nope")
    assert missing.headers["X-Content-Type-Options"] == "nosniff"  # errors too


def test_the_documentation_alone_may_run_its_inline_start_up_script(client):
    docs = client.get("/docs")
    assert docs.status_code == 200 and docs.headers["Content-Security-Policy"] == DOCS_POLICY
    assert docs.headers["X-Frame-Options"] == "DENY"


def test_no_page_has_inline_script_or_inline_handlers():
    """What the policy forbids, the templates never write (else a page would silently break)."""
    import re
    from pathlib import Path
    root = Path(__file__).resolve().parents[2] / "web" / "templates"
    for template in root.rglob("*.html"):
        text = template.read_text(encoding="utf-8")
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", text), template
        assert not re.search(r"\son[a-z]+=\"", text), template
        assert "javascript:" not in text, template

"""Issue 17, finding 1 (stored XSS through a customer's file) and the CR/LF file name of finding 6:
a customer's file reaches a browser as data, never as a page of ours. Reproduced as observed: an
SVG with a script (and XHTML, XML) sent by a customer, opened by an agent from the inbox."""

import base64

import pytest
from sqlmodel import select

from appliance.core import runtime
from appliance.messages.models import Message

from tests.browser_forms import sign_in

SVG = b'<svg xmlns="http://www.w3.org/2000/svg"><script>fetch("/inbox")</script></svg>'


def _customer_sends(line, kind, content, mime_type, **fields):
    line.customer_writes({"type": kind, kind: fields},
                         media={"contentBase64": base64.b64encode(content).decode(), "mimeType": mime_type})
    assert [a.status_code for a in line.deliver()] == [200]
    with runtime.get().db.unit_of_work(write=False) as session:
        return session.exec(select(Message.id).where(Message.type == kind)).all()[-1]


def _both_ways(line, message_id):
    """The same file through the API and through the inbox page an agent clicks."""
    api = line.client.get(f"/organizations/{line.org_id}/messages/{message_id}/media",
                          headers={"Authorization": f"Bearer {line.owner['token']}"})
    if not getattr(line, "signed_in", False):
        sign_in(line.client, email="owner@example.com")
        line.signed_in = True
    page = line.client.get(f"/inbox/{line.org_id}/media/{message_id}")
    return api, page


@pytest.mark.parametrize("mime_type", ["image/svg+xml", "application/xhtml+xml", "text/xml"])
def test_a_customers_script_file_is_never_served_as_a_page(line, mime_type):
    message_id = _customer_sends(line, "document", SVG, mime_type, filename="factura.svg")
    for answer in _both_ways(line, message_id):
        assert answer.status_code == 200 and answer.data == SVG
        assert answer.headers["Content-Type"] == "application/octet-stream"
        assert answer.headers["Content-Disposition"].startswith("attachment;")
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
        assert answer.headers["Content-Security-Policy"] == "default-src 'none'; sandbox"
        assert "private" in answer.headers["Cache-Control"] and "public" not in answer.headers["Cache-Control"]


def test_photos_stay_inline_and_sound_keeps_its_type(line):
    png = b"\x89PNG\r\n\x1a\n" + b"1" * 64
    photo = _customer_sends(line, "image", png, "image/png")
    for answer in _both_ways(line, photo):
        assert answer.headers["Content-Type"] == "image/png"
        assert answer.headers["Content-Disposition"].startswith("inline;")
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
    voice = _customer_sends(line, "audio", b"OggS" + b"0" * 32, "audio/ogg; codecs=opus")
    for answer in _both_ways(line, voice):
        assert answer.headers["Content-Type"] == "audio/ogg"  # an <audio> plays it; opened alone, it downloads
        assert answer.headers["Content-Disposition"].startswith("attachment;")


def test_a_file_name_with_line_breaks_is_cleaned_not_a_500(line):
    message_id = _customer_sends(line, "document", b"%PDF-1.4", "application/pdf",
                                 filename="pedido\r\nSet-Cookie: x=1\u202e.pdf")
    for answer in _both_ways(line, message_id):
        assert answer.status_code == 200
        disposition = answer.headers["Content-Disposition"]
        assert "\r" not in disposition and "\n" not in disposition and "Set-Cookie" in disposition
        assert "\u202e" not in disposition and "%E2%80%AE" not in disposition
        assert not any(value.startswith("x=1") for value in answer.headers.getlist("Set-Cookie"))

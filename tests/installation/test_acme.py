"""Issue 45, bad input and failure: APPLIANCE_TLS=acme against Debian's pebble, in process. The
appliance's own app answers pebble's HTTP-01 checks on pebble's `httpPort`, served by waitress
through the HTTP listener's redirect as `appliance serve` runs it; the renewer is the one
installation/https.py makes, driven by calling `check()` with the project's clock moved (its
thread only calls `check()` at `next_check_at()`).

- A failed challenge (nothing answers on the HTTP port; a wrong answer) and an unreachable CA
  say why in `lastError` (and GET /installation/status), are tried again after 5 minutes, doubling
  up to 6 hours, and the last good certificate keeps serving.
- Once the clock passes `renewAt`, `check()` gets a new certificate and serves it; a renewal that
  fails leaves the old one serving and says why.
"""

from __future__ import annotations

import datetime as dt
import threading
from contextlib import contextmanager

import pytest
from acme import messages
from cryptography import x509
from waitress import wasyncore
from waitress.server import create_server

from appliance.core import clock
from appliance.installation import acme, https
from appliance.server import _redirecting_to_https
from tests.fixtures.local_server import QuietHandler, Server
from tests.fixtures.tls import free_port, handed_out

STATUS = "/installation/status"


@contextmanager
def answering(app, port: int):
    """The appliance's HTTP listener on `port` of 127.0.0.1 (TLS on: everything but the challenge
    and /health redirected), in a thread, for the block."""
    server = create_server(_redirecting_to_https(app, 8443), host="127.0.0.1", port=port, threads=2)
    closing = threading.Event()

    def serve():
        try:
            server.run()
        except OSError:  # the loop meets its socket closed under it at the end
            if not closing.is_set():
                raise
    threading.Thread(target=serve, daemon=True, name="http listener").start()
    try:
        yield
    finally:
        closing.set()
        server.close()
        # Its connections too: pebble keeps one open between checks, which would still be answered.
        wasyncore.close_all(server._map, ignore_all=True)
        server.task_dispatcher.shutdown()


@contextmanager
def answering_wrong(port: int):
    """Something else on the HTTP port: every challenge answered with the wrong text."""
    class Wrong(QuietHandler):
        def do_GET(self):
            body = b"not-the-key-authorization"
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
    server = Server(("127.0.0.1", port), Wrong)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def renewer_for(settings):
    """`renewer_for(pebble)`: the renewer `appliance serve` makes with APPLIANCE_TLS=acme for
    localhost against that pebble (its files in the test's data directory)."""
    def make(ca) -> acme.AcmeRenewer:
        https.start(settings.replace(tls="acme", tls_domains="localhost", acme_directory_url=ca.directory_url,
                                     acme_ca_bundle=str(ca.ca_bundle)))
        return https.renewer()
    yield make
    https.stop()


def _tls_status(api) -> dict:
    """What GET /installation/status says of HTTPS to its administrator (signed in anew: the clock
    moved past any earlier access token's life)."""
    token = api.login("owner@example.com")["tokens"]["accessToken"]
    answer = api.get(STATUS, token=token)
    assert answer.status_code == 200, answer.json
    return answer.json["data"]["tls"]


def _to(moment: dt.datetime, *, plus: float = 0.0) -> None:
    """Move the project's clock to `moment` (+ `plus` seconds)."""
    clock.advance((moment - clock.now()).total_seconds() + plus)


def _stored_serial(renewer) -> int:
    return x509.load_pem_x509_certificates(renewer.certificate_path.read_bytes())[0].serial_number


def test_a_failed_challenge_says_why_and_is_tried_again_after_five_minutes(app, api, owner, pebble, renewer_for):
    port = free_port()
    renewer = renewer_for(pebble(port))  # pebble checks the challenges on a port where nothing answers yet
    store = renewer.store

    renewer.check()
    assert not store.serving
    error = store.info.last_error
    assert error.startswith("The ACME server could not check the challenge (localhost: ") and \
        "Is the HTTP port reachable from the internet at that name?" in error, error
    assert "connection refused" in error.lower(), error  # the CA's own words
    tls = _tls_status(api)
    assert tls["mode"] == "acme" and tls["lastError"] == error and tls["lastErrorAt"] and tls["notAfter"] is None
    failed_at = store.info.last_error_at
    assert abs(renewer.next_check_at() - (failed_at + dt.timedelta(minutes=5))) < dt.timedelta(seconds=1)

    renewer.check()  # too soon: the CA is not asked again
    assert store.info.last_error_at == failed_at

    with answering(app, port):
        _to(failed_at, plus=5 * 60 + 1)
        renewer.check()
    assert store.serving and store.info.last_error is None
    served = handed_out(store)
    assert served.serial_number == _stored_serial(renewer)
    assert served.extensions.get_extension_for_class(x509.SubjectAlternativeName).value \
        .get_values_for_type(x509.DNSName) == ["localhost"]
    tls = _tls_status(api)
    assert tls["lastError"] is None and tls["domains"] == ["localhost"] and tls["notAfter"] > tls["renewAt"]
    assert renewer.next_check_at() >= clock.now() + dt.timedelta(hours=11)  # nothing to do before long


def test_a_wrong_answer_is_refused_in_the_cas_words(pebble, renewer_for):
    port = free_port()
    renewer = renewer_for(pebble(port))
    with answering_wrong(port):
        renewer.check()
    error = renewer.store.info.last_error
    assert error.startswith("The ACME server could not check the challenge (localhost: "), error
    assert "not-the-key-authorization" in error, error  # pebble quotes what it was answered
    assert not renewer.store.serving


def test_an_unreachable_ca_keeps_the_certificate_serving_and_is_retried_up_to_every_six_hours(
        app, api, owner, pebble, renewer_for):
    port = free_port()
    ca = pebble(port)
    renewer = renewer_for(ca)
    store = renewer.store
    with answering(app, port):
        renewer.check()
    first = handed_out(store).serial_number
    not_after, renew_at = store.info.not_after, store.info.renew_at

    ca.stop()
    _to(renew_at, plus=1)
    renewer.check()
    assert store.info.last_error == "The ACME server could not be reached (ConnectionError): nothing answers at its address."
    assert handed_out(store).serial_number == first and store.info.not_after == not_after
    assert _tls_status(api)["lastError"] == "The ACME server could not be reached (ConnectionError): nothing answers at its address."
    assert _tls_status(api)["nextTryAt"] == clock.iso(store.info.last_error_at + dt.timedelta(minutes=5))

    waited = []
    for _ in range(9):
        failed_at = store.info.last_error_at
        retry_at = renewer.next_check_at()
        waited.append(round((retry_at - failed_at).total_seconds() / 60))
        _to(retry_at, plus=-1)
        renewer.check()
        assert store.info.last_error_at == failed_at  # not before its time
        _to(retry_at, plus=1)
        renewer.check()
        assert store.info.last_error_at > retry_at  # tried again, refused again
    assert waited == [5, 10, 20, 40, 80, 160, 320, 360, 360]
    assert handed_out(store).serial_number == first


def test_past_renew_at_a_new_certificate_serves_and_a_failed_renewal_keeps_it(app, api, owner, pebble, renewer_for):
    port = free_port()
    renewer = renewer_for(pebble(port))
    store = renewer.store
    with answering(app, port):
        renewer.check()
        first = handed_out(store).serial_number
        renew_at = store.info.renew_at
        assert renew_at < store.info.not_after - dt.timedelta(days=29)  # at least 30 days ahead of expiry

        renewer.check()  # not due yet: nothing asked
        assert handed_out(store).serial_number == first and store.info.renew_at == renew_at

        _to(renew_at, plus=1)
        renewer.check()
        second = handed_out(store).serial_number
        assert second != first and _stored_serial(renewer) == second
        assert store.info.last_error is None and store.info.installed_at >= renew_at
        tls = _tls_status(api)
        assert tls["lastError"] is None and tls["renewAt"] == clock.iso(store.info.renew_at)

    # The HTTP port no longer answers (a router's forwarding lost): the renewal fails, the certificate
    # got last time keeps serving, from memory and from its file for the next start.
    _to(store.info.renew_at, plus=1)
    renewer.check()
    error = store.info.last_error
    assert error.startswith("The ACME server could not check the challenge (localhost: "), error
    assert handed_out(store).serial_number == second and _stored_serial(renewer) == second
    assert _tls_status(api)["lastError"] == error


@pytest.mark.parametrize("error, sentence", [
    (messages.Error(typ="urn:ietf:params:acme:error:rateLimited",
                    detail="too many certificates (5) already issued for this exact set of domains in the last 168h"),
     "The ACME server refused for now: too many certificates asked (too many certificates (5) already issued for "
     "this exact set of domains in the last 168h)."),
    (messages.Error(typ="urn:ietf:params:acme:error:rejectedIdentifier", detail="Forbidden domain name: localhost"),
     "The ACME server refused: Forbidden domain name: localhost."),
])
def test_a_refusal_is_said_in_the_cas_words(error, sentence):
    assert acme.describe(error) == sentence

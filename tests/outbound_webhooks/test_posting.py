"""The poster alone (outbound_webhooks.posting): many POSTs in the air on one thread, each answered
once, through each way of waiting on sockets the appliance may run with (epoll or kqueue where
the platform has them, plain select on Windows)."""

from __future__ import annotations

import selectors
import socket
import threading

import pytest

from appliance.address_rule import AddressRule
from appliance.outbound_webhooks import posting
from appliance.settings import parse_origins
from tests.fixtures.local_server import serving
from tests.waiting import eventually

WAITS = [pytest.param(selectors.DefaultSelector, id="default"), pytest.param(selectors.SelectSelector, id="select")]
# The receivers here answer on this machine: the rule allows its loopback address, any port.
LOOPBACK = AddressRule(allowed=parse_origins("http://127.0.0.1"))


class Answers:
    def __init__(self, expected: int):
        self.got: dict[object, posting.Answer] = {}
        self.expected = expected
        self.done = threading.Event()
        self.duplicated = []

    def __call__(self, tag, answer):
        if tag in self.got:
            self.duplicated.append(tag)
        self.got[tag] = answer
        if len(self.got) == self.expected:
            self.done.set()


@pytest.mark.parametrize("selector", WAITS)
def test_many_posts_in_the_air_are_each_answered_once_on_kept_alive_connections(hook, selector):
    class KeepAlive(hook):
        protocol_version = "HTTP/1.1"  # the standard library's handler closes after each answer otherwise
    hook.plan = [("sleep", 0.05)]
    answers = Answers(120)
    with serving(KeepAlive) as server:
        poster = posting.Poster(answers, addresses=lambda: LOOPBACK, selector=selector, name="test-posts")
        try:
            for wave in range(2):  # the second wave on the first one's connections
                for n in range(wave * 60, wave * 60 + 60):
                    poster.post(f"{server.url}/in?n={n}", f'{{"n": {n}}}'.encode(),
                                {"content-type": "application/json"}, timeout=10, tag=n)
                eventually(lambda: len(answers.got), lambda got: got >= wave * 60 + 60, seconds=30)
            assert answers.done.wait(30)
        finally:
            poster.close()
    assert answers.duplicated == []
    assert {tag: (a.status, a.response, a.error) for tag, a in answers.got.items()} == {
        n: (200, '{"ok": true}', None) for n in range(120)}
    assert sorted(int(r["path"].split("=")[1]) for r in hook.requests) == list(range(120))
    assert all(r["headers"].get("Expect") is None for r in hook.requests)  # no 100-continue round trip
    assert len({r["port"] for r in hook.requests}) <= 60  # kept alive: no connection per request


@pytest.mark.parametrize("selector", WAITS)
def test_what_goes_wrong_is_an_answer_in_words_and_the_poster_goes_on(hook, selector):
    with socket.socket() as closed:  # a port nothing listens on
        closed.bind(("127.0.0.1", 0))
        nobody = f"http://127.0.0.1:{closed.getsockname()[1]}/in"
    hook.plan = [("sleep", 1.5)]
    answers = Answers(4)
    poster = posting.Poster(answers, addresses=lambda: LOOPBACK, selector=selector, name="test-posts")
    try:
        poster.post(nobody, b"{}", {}, timeout=5, tag="refused")
        poster.post("http://bad host/in", b"{}", {}, timeout=5, tag="malformed")
        poster.post(hook.url, b"{}", {}, timeout=0.3, tag="slow")
        poster.post("http://\u00e9\u00e9.invalid\udcff/", b"{}", {}, timeout=5, tag="not even ascii")
        assert answers.done.wait(20)
    finally:
        poster.close()
    got = answers.got
    assert got["refused"] == (None, None, "Connection refused: nothing listens at that address.", got["refused"].duration_ms)
    assert got["slow"].status is None and got["slow"].error == "No answer within 0.3 s."
    assert got["malformed"].status is None and got["malformed"].error
    assert got["not even ascii"].error.startswith("The request could not start"), got["not even ascii"]


@pytest.mark.parametrize("selector", WAITS)
def test_a_long_answer_is_kept_up_to_its_first_2_kb(hook, selector):
    class Long(hook):
        def _answer(self, status):
            text = b"x" * 100_000
            self.send_response(200)
            self.send_header("Content-Length", str(len(text)))
            self.end_headers()
            self.wfile.write(text)
    hook.plan = [200]
    answers = Answers(2)
    with serving(Long) as server:
        poster = posting.Poster(answers, addresses=lambda: LOOPBACK, selector=selector, name="test-posts")
        try:
            for n in range(2):  # the second on a handle the first one cut
                poster.post(f"{server.url}/in", b"{}", {}, timeout=5, tag=n)
            assert answers.done.wait(10)
        finally:
            poster.close()
    for answer in answers.got.values():
        assert (answer.status, answer.response, answer.error) == (200, "x" * posting.KEPT, None)


@pytest.mark.parametrize("selector", WAITS)
def test_a_receiver_on_an_address_the_rule_refuses_is_never_connected_to(hook, selector):
    """Issue 44: libcurl's every connection goes through the rule (OPENSOCKETFUNCTION sees the very
    address it is about to connect to): loopback by address, by a name that resolves to it and in
    IPv6, the metadata service, all answer one sentence, and the receiver hears nothing. The same
    receiver is reached once its origin is allowed, by a name too (the name's refused addresses are
    skipped: ::1 is not 127.0.0.1)."""
    port = hook.url.rsplit(":", 1)[1].split("/")[0]
    targets = {"loopback": hook.url, "a name of loopback": f"http://localhost:{port}/in",
               "ipv6 loopback": f"http://[::1]:{port}/in", "metadata": "http://169.254.169.254/latest/meta-data/"}
    answers = Answers(len(targets))
    poster = posting.Poster(answers, addresses=AddressRule, selector=selector, name="test-posts")
    try:
        for tag, url in targets.items():
            poster.post(url, b"{}", {}, timeout=5, tag=tag)
        assert answers.done.wait(20)
    finally:
        poster.close()
    assert hook.requests == []
    for tag, answer in answers.got.items():
        assert answer.status is None and "not a public address" in answer.error, (tag, answer)

    allowed = AddressRule(allowed=parse_origins(f"http://127.0.0.1:{port}"))
    answers = Answers(2)
    poster = posting.Poster(answers, addresses=lambda: allowed, selector=selector, name="test-posts")
    try:
        poster.post(hook.url, b"{}", {}, timeout=5, tag="allowed")
        poster.post(f"http://localhost:{port}/in", b"{}", {}, timeout=5, tag="allowed by a name")
        assert answers.done.wait(20)
    finally:
        poster.close()
    assert {tag: answer.status for tag, answer in answers.got.items()} == {"allowed": 200, "allowed by a name": 200}
    assert len(hook.requests) == 2

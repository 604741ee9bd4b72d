"""Issue 45, bad input: a certificate that cannot be served (expired, not yet valid, not matching its
key, not PEM, its key locked by a pass phrase, a file that cannot be read) is refused with a
sentence, said in `lastError`, and the certificate served before keeps serving; a good one
replaces it at the next handshake and clears the sentence."""

import datetime as dt
import os
import re

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import serialization

from appliance.core import clock
from appliance.core.db import StartupError
from appliance.installation import https
from appliance.installation.certificates import CertificateRefused, CertificateStore, FileWatcher, check
from tests.fixtures.tls import handed_out, make_ca


@pytest.fixture
def ca():
    return make_ca()


def _serial(chain_pem: bytes) -> int:
    return x509.load_pem_x509_certificates(chain_pem)[0].serial_number


def _locked(key_pem: bytes) -> bytes:
    key = serialization.load_pem_private_key(key_pem, password=None)
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.BestAvailableEncryption(b"secreto"))


def _der(key_pem: bytes) -> bytes:
    key = serialization.load_pem_private_key(key_pem, password=None)
    return key.private_bytes(serialization.Encoding.DER, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())


def test_a_whole_certificate_passes_with_its_leaf(ca):
    chain, key = ca.leaf(("localhost", "chat.sol.test"))
    _, leaf = check(chain + ca.pem, key)  # the chain may carry its intermediates after the leaf
    assert leaf.serial_number == _serial(chain)


@pytest.mark.parametrize("made, sentence", [
    (lambda ca: ca.leaf(days=1, starts_days_ago=3), "The certificate expired on "),
    (lambda ca: ca.leaf(starts_days_ago=-2), "The certificate is valid only from "),
    (lambda ca: (ca.leaf()[0], ca.leaf()[1]), "The certificate does not match its private key."),
    (lambda ca: (ca.pem + ca.leaf()[0], ca.leaf()[1]), "The certificate does not match its private key."),  # the CA first
    (lambda ca: (b"hola", ca.leaf()[1]), "The certificate file holds no PEM certificate."),
    (lambda ca: (b"", ca.leaf()[1]), "The certificate file holds no PEM certificate."),
    (lambda ca: (ca.leaf()[1], ca.leaf()[1]), "The certificate file holds no PEM certificate."),  # the key twice
    (lambda ca: (b"-----BEGIN CERTIFICATE-----\nnope\n-----END CERTIFICATE-----\n", ca.leaf()[1]),
     "The certificate file holds no PEM certificate."),
    (lambda ca: (ca.leaf()[0], b"not a key"), "The certificate or its key cannot be read"),
])
def test_what_cannot_be_served_is_refused_with_a_sentence(ca, made, sentence):
    chain, key = made(ca)
    with pytest.raises(CertificateRefused) as refused:
        check(chain, key)
    assert str(refused.value).startswith(sentence), str(refused.value)


def test_the_dates_said_are_the_certificates(ca):
    chain, key = ca.leaf(days=1, starts_days_ago=3)
    not_after = x509.load_pem_x509_certificate(chain).not_valid_after_utc
    with pytest.raises(CertificateRefused, match=f"expired on {not_after:%Y-%m-%d %H:%M} UTC"):
        check(chain, key)


def test_a_key_in_der_or_locked_by_a_pass_phrase_is_refused_without_asking_for_one(ca):
    chain, key = ca.leaf()
    with pytest.raises(CertificateRefused, match="cannot be read"):
        check(chain, _der(key))
    # OpenSSL would ask for the pass phrase on the terminal (and, with none, fail with an OSError
    # that no sentence explained): the appliance runs unattended, so it says what to do instead.
    with pytest.raises(CertificateRefused, match="The private key is protected by a pass phrase"):
        check(chain, _locked(key))


def test_validity_is_judged_by_the_clock(ca):
    chain, key = ca.leaf(days=10, starts_days_ago=1)
    check(chain, key)
    clock.advance(9 * 86400 + 60)
    with pytest.raises(CertificateRefused, match="expired"):
        check(chain, key)


def test_the_store_keeps_serving_the_last_good_one_and_says_why_the_new_one_is_not(ca):
    store = CertificateStore("files")
    first_chain, first_key = ca.leaf(("localhost",))
    store.install(first_chain, first_key)
    assert handed_out(store).serial_number == _serial(first_chain)
    assert (store.info.domains, store.info.last_error) == (["localhost"], None)
    first_not_after = store.info.not_after

    expired_chain, expired_key = ca.leaf(("localhost",), days=1, starts_days_ago=3)
    with pytest.raises(CertificateRefused):
        store.install(expired_chain, expired_key)
    assert store.info.last_error.startswith("The certificate expired on ") and store.info.last_error_at is not None
    assert handed_out(store).serial_number == _serial(first_chain)
    assert store.info.not_after == first_not_after  # what is said is still the served one's

    other_chain, _ = ca.leaf(("localhost",))
    with pytest.raises(CertificateRefused):
        store.install(other_chain, ca.leaf()[1])
    assert store.info.last_error == "The certificate does not match its private key."
    assert handed_out(store).serial_number == _serial(first_chain)

    new_chain, new_key = ca.leaf(("localhost", "chat.sol.test"))
    store.install(new_chain, new_key)
    assert handed_out(store).serial_number == _serial(new_chain)
    assert store.info.last_error is None and store.info.last_error_at is None
    assert store.info.domains == ["localhost", "chat.sol.test"]


def test_a_store_with_nothing_good_serves_nothing_and_says_why(ca):
    store = CertificateStore("files")
    with pytest.raises(CertificateRefused):
        store.install(b"hola", ca.leaf()[1])
    assert not store.serving and store.info.last_error == "The certificate file holds no PEM certificate."


@pytest.fixture
def files(tmp_path, ca):
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    chain, key_pem = ca.leaf(("localhost",))
    cert.write_bytes(chain)
    key.write_bytes(key_pem)
    return cert, key


def _replace(path, data: bytes, stamp: int) -> None:
    """Write `data` with its own modification time (two writes within one tick of the file system's
    clock would look unchanged)."""
    path.write_bytes(data)
    moment = (dt.datetime(2030, 1, 1) + dt.timedelta(seconds=stamp)).timestamp()
    os.utime(path, (moment, moment))


def test_the_watcher_reads_changed_files_only_and_keeps_the_last_good_pair(ca, files):
    cert, key = files
    store = CertificateStore("files")
    watcher = FileWatcher(store, cert, key)
    assert watcher.load() is True
    first = _serial(cert.read_bytes())
    assert watcher.load() is False and handed_out(store).serial_number == first  # nothing changed

    # A renewal written one file at a time: the new chain beside the old key does not match yet...
    new_chain, new_key = ca.leaf(("localhost", "chat.sol.test"))
    _replace(cert, new_chain, 1)
    assert watcher.load() is False
    assert store.info.last_error == "The certificate does not match its private key."
    assert handed_out(store).serial_number == first
    # ...and once its key is there too, the pair serves the next handshake.
    _replace(key, new_key, 2)
    assert watcher.load() is True
    assert handed_out(store).serial_number == _serial(new_chain) and store.info.last_error is None

    expired_chain, expired_key = ca.leaf(("localhost",), days=1, starts_days_ago=3)
    _replace(cert, expired_chain, 3)
    _replace(key, expired_key, 3)
    assert watcher.load() is False
    assert "expired" in store.info.last_error and handed_out(store).serial_number == _serial(new_chain)


def test_a_file_gone_or_unreadable_is_said_and_the_last_good_pair_serves(ca, files):
    cert, key = files
    store = CertificateStore("files")
    watcher = FileWatcher(store, cert, key)
    watcher.load()
    first = _serial(cert.read_bytes())

    key_pem = key.read_bytes()
    key.unlink()
    assert watcher.load() is False
    assert store.info.last_error == f"{cert} or {key} cannot be read."
    assert handed_out(store).serial_number == first

    # There, but not readable as a file (the same refusal as a key the service's user may not read).
    key.mkdir()
    assert watcher.load() is False
    assert store.info.last_error.startswith(f"{key} cannot be read (")
    assert handed_out(store).serial_number == first

    key.rmdir()
    _replace(key, key_pem, 5)
    _replace(cert, cert.read_bytes(), 5)
    assert watcher.load() is True and store.info.last_error is None


def test_files_that_cannot_be_served_stop_the_start_with_the_sentence(settings, ca, files):
    """APPLIANCE_TLS=files does not start without a good pair, and the start says why."""
    cert, key = files
    key.write_bytes(_locked(key.read_bytes()))
    files_mode = settings.replace(tls="files", tls_cert=str(cert), tls_key=str(key))
    try:
        with pytest.raises(StartupError, match="^HTTPS cannot start: The private key is protected by a pass phrase"):
            https.start(files_mode)
        key.unlink()
        key.mkdir()
        with pytest.raises(StartupError, match="^HTTPS cannot start: " + re.escape(f"{key} cannot be read (")):
            https.start(files_mode)
    finally:
        https.stop()

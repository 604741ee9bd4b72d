"""The certificate HTTPS serves (APPLIANCE_TLS), and what is said about it.

- `CertificateStore` holds the newest good certificate as its own `ssl.SSLContext`; every handshake
  takes it from the SNI callback of the listener's context (`server_context`), so a renewal or a
  changed file serves the next handshake without a restart, and handshakes in flight keep theirs.
  (Loading a new chain into a live context broke handshakes under load: a fresh context swapped in
  broke none.)
- A certificate is installed only when it is whole: a chain whose first certificate matches the
  key, not yet expired. Anything else is refused with a sentence (`lastError`) and the old one
  keeps serving.
- `files`: APPLIANCE_TLS_CERT and APPLIANCE_TLS_KEY, read at start (nothing good: the server does not
  start, with the sentence) and again whenever either file changes (`FileWatcher`).
- `acme`: installation/acme.py gets and renews them.
Keys are ECDSA P-256 (as fast as RSA-2048 here, smaller); TLS 1.2 at least.
"""

from __future__ import annotations

import logging
import os
import ssl
import tempfile
import threading
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from appliance.core import clock, files

log = logging.getLogger(__name__)


class CertificateRefused(ValueError):
    """A certificate that cannot be served, with the sentence that says why."""


@dataclass
class CertificateInfo:
    mode: str = "off"
    domains: list[str] = field(default_factory=list)
    not_before: datetime | None = None
    not_after: datetime | None = None
    installed_at: datetime | None = None
    renew_at: datetime | None = None
    last_error: str | None = None
    last_error_at: datetime | None = None

    def as_dict(self) -> dict:
        return {"mode": self.mode, "domains": self.domains, "not_after": clock.iso(self.not_after),
                "installed_at": clock.iso(self.installed_at), "renew_at": clock.iso(self.renew_at),
                "last_error": self.last_error, "last_error_at": clock.iso(self.last_error_at)}


def new_key_pem() -> bytes:
    key = ec.generate_private_key(ec.SECP256R1())
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption())


def write_private(path: Path, data: bytes) -> None:
    """0600 from the first byte (mkstemp's, in core/files.writing), written beside and renamed over:
    a kill mid-write leaves the previous file whole."""
    files.write_atomically(path, data)


class _PassPhraseAsked(Exception):
    pass


def _no_pass_phrase():
    """Asked only for a key locked by a pass phrase. Without an answer OpenSSL would ask on the
    terminal (a server runs unattended, and without one it fails with an unexplained OSError)."""
    raise _PassPhraseAsked


def check(chain_pem: bytes, key_pem: bytes, *, now: datetime | None = None) -> tuple[ssl.SSLContext, x509.Certificate]:
    """A context serving this chain and key, and its leaf; CertificateRefused with the sentence."""
    try:
        chain = x509.load_pem_x509_certificates(chain_pem)
    except ValueError:
        raise CertificateRefused("The certificate file holds no PEM certificate.") from None
    leaf = chain[0]
    now = now or clock.now()
    if leaf.not_valid_after_utc <= now:
        raise CertificateRefused(f"The certificate expired on {leaf.not_valid_after_utc:%Y-%m-%d %H:%M} UTC.")
    if leaf.not_valid_before_utc > now:
        raise CertificateRefused(f"The certificate is valid only from {leaf.not_valid_before_utc:%Y-%m-%d %H:%M} UTC.")
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    with tempfile.TemporaryDirectory() as folder:  # ssl loads chains only from files
        chain_path, key_path = Path(folder) / "chain.pem", Path(folder) / "key.pem"
        write_private(chain_path, chain_pem)
        write_private(key_path, key_pem)
        try:
            context.load_cert_chain(chain_path, key_path, password=_no_pass_phrase)
        except _PassPhraseAsked:
            raise CertificateRefused("The private key is protected by a pass phrase: give the appliance the key "
                                     "without one (openssl pkey -in KEY -out KEY.open), readable only by its user.") from None
        except ssl.SSLError as exc:
            if "KEY_VALUES_MISMATCH" in str(exc) or "key values mismatch" in str(exc):
                raise CertificateRefused("The certificate does not match its private key.") from None
            raise CertificateRefused(f"The certificate or its key cannot be read ({exc.reason or exc}).") from None
    return context, leaf


def names_of(leaf: x509.Certificate) -> list[str]:
    try:
        return list(leaf.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
                    .get_values_for_type(x509.DNSName))
    except x509.ExtensionNotFound:
        return []


class CertificateStore:
    def __init__(self, mode: str):
        self.info = CertificateInfo(mode=mode)
        self._current: ssl.SSLContext | None = None
        self._lock = threading.Lock()

    @property
    def serving(self) -> bool:
        return self._current is not None

    def install(self, chain_pem: bytes, key_pem: bytes) -> x509.Certificate:
        """Serve this certificate from the next handshake on; CertificateRefused (noted in
        `lastError`, the old one kept) when it cannot be."""
        try:
            context, leaf = check(chain_pem, key_pem)
        except CertificateRefused as refused:
            self.refuse(str(refused))
            raise
        with self._lock:
            self._current = context
            self.info.domains, self.info.installed_at = names_of(leaf), clock.now()
            self.info.not_before, self.info.not_after = leaf.not_valid_before_utc, leaf.not_valid_after_utc
            self.info.last_error = self.info.last_error_at = None
        log.info("serving the certificate for %s until %s", ", ".join(self.info.domains) or "?", self.info.not_after)
        return leaf

    def refuse(self, sentence: str) -> None:
        """Something kept a new certificate from being served; the old one (if any) still is."""
        self.info.last_error, self.info.last_error_at = sentence, clock.now()
        log.warning("certificate: %s%s", sentence, " (the previous one keeps serving)" if self.serving else "")

    def server_context(self) -> ssl.SSLContext:
        """The listener's context: each handshake is handed the newest certificate's context."""
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.minimum_version = ssl.TLSVersion.TLSv1_2

        def choose(ssl_object, _server_name, _context):
            current = self._current
            if current is not None:
                ssl_object.context = current
            return None
        context.sni_callback = choose
        return context


class FileWatcher:
    """APPLIANCE_TLS=files: the two files, read again whenever either changes (checked every
    `every` seconds on a thread of its own)."""

    def __init__(self, store: CertificateStore, cert_path: Path, key_path: Path, *, every: float = 5.0):
        self.store, self.cert_path, self.key_path, self.every = store, Path(cert_path), Path(key_path), every
        self._seen: tuple | None = None
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="certificate-files", daemon=True)

    def _stamp(self) -> tuple | None:
        try:
            return tuple((s.st_mtime_ns, s.st_size, s.st_ino) for s in (os.stat(self.cert_path), os.stat(self.key_path)))
        except OSError:
            return None

    def load(self) -> bool:
        """Read both files now if they changed since the last read; whether a new one is served."""
        stamp = self._stamp()
        if stamp is None:
            if self._seen is not None or not self.store.serving:
                self.store.refuse(f"{self.cert_path} or {self.key_path} cannot be read.")
            self._seen = None
            return False
        if stamp == self._seen:
            return False
        self._seen = stamp
        try:
            self.store.install(self._read(self.cert_path), self._read(self.key_path))
        except CertificateRefused:
            return False
        return True

    def _read(self, path: Path) -> bytes:
        try:
            return path.read_bytes()
        except OSError as exc:  # there but not readable: its permissions (the service's own user), a folder...
            sentence = f"{path} cannot be read ({exc.strerror or exc})."
            self.store.refuse(sentence)
            raise CertificateRefused(sentence) from None

    def start(self) -> "FileWatcher":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        if self._thread.is_alive():
            self._thread.join(5)

    def _watch(self) -> None:
        while not self._stopping.wait(self.every):
            self.load()


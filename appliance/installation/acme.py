"""APPLIANCE_TLS=acme: certificates for APPLIANCE_TLS_DOMAINS (default the public address's host) from
an ACME server (Let's Encrypt; Debian's pebble in tests), with certbot's `acme` library over HTTP-01,
answered on the HTTP port (`/.well-known/acme-challenge/<token>`, installation/pages.py).

- The account's key and URL, and the certificate with its key, are files of DATA_DIR/tls (0600,
  written whole and renamed over: installation/certificates.write_private); a stored certificate
  serves from the start, before the ACME server is even asked.
- Renewal: at the CA's renewal window when it offers one (ACME Renewal Information), else at 2/3 of
  the lifetime (1/2 under 10 days, as certbot), and never later than 30 days before notAfter. A
  certificate for other names than those asked is replaced at once.
- A refusal (rate limit, failed challenge, CA unreachable) keeps the last good certificate serving,
  is said in /installation/status and on the Go live page (`lastError`), and is tried again after
  5 minutes, doubling up to 6 hours.
- A thread of its own (`AcmeRenewer`) decides; its waits are an Event's, woken by `check_now()`.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import threading
from pathlib import Path
from urllib.parse import urlsplit

import josepy as jose
import requests
from acme import challenges, client, crypto_util, errors, messages
from cryptography import x509
from cryptography.hazmat.primitives import serialization

from appliance.core import clock
from appliance.installation import challenges as challenges_given
from appliance.installation.certificates import CertificateRefused, CertificateStore, new_key_pem, write_private

log = logging.getLogger(__name__)

USER_AGENT = "business-messaging-appliance"
FIRST_RETRY, LONGEST_RETRY = dt.timedelta(minutes=5), dt.timedelta(hours=6)
LONGEST_SLEEP = dt.timedelta(hours=12)  # looked again at least this often (the wall clock may jump: a suspend, NTP)
ORDER_SECONDS = 90

def domains_of(settings, base_url: str) -> list[str]:
    names = [name.strip().lower().rstrip(".") for name in (settings.tls_domains or "").split(",") if name.strip()]
    return names or [urlsplit(base_url).hostname or "localhost"]


class AcmeRenewer:
    def __init__(self, store: CertificateStore, *, folder: Path, directory_url: str, domains,
                 email: str | None = None, ca_bundle: str | None = None):
        """`domains`: the names, or what gives them (read again at each check: a public address
        saved on the Go live page is asked for without a restart)."""
        self.store, self.folder, self.directory_url = store, Path(folder), directory_url
        self._domains = domains if callable(domains) else (lambda: list(domains))
        self.email, self.ca_bundle = email or None, ca_bundle or None
        self.certificate_path = self.folder / "certificate.pem"  # the chain, then its key
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._retry = FIRST_RETRY
        self._next_try: dt.datetime | None = None
        self._thread = threading.Thread(target=self._run, name="acme", daemon=True)

    # The stored certificate ---------------------------------------------------------------------

    def load_stored(self) -> bool:
        """Serve the certificate kept from the last run, if it is whole and still good."""
        if not self.certificate_path.exists():
            return False
        pem = self.certificate_path.read_bytes()
        try:
            leaf = self.store.install(pem, pem)  # ssl reads the key after the chain in one file
        except CertificateRefused:
            return False
        self.store.info.renew_at = self._renew_at(leaf, pem)
        return True

    def _renew_at(self, leaf: x509.Certificate, chain_pem: bytes, acme: client.ClientV2 | None = None) -> dt.datetime:
        window = None
        if acme is not None:
            try:
                window, _ = acme.renewal_time(chain_pem)
            except (errors.Error, ValueError):
                window = None
        lifetime = leaf.not_valid_after_utc - leaf.not_valid_before_utc
        share = leaf.not_valid_before_utc + (lifetime / 2 if lifetime < dt.timedelta(days=10) else lifetime * 2 / 3)
        latest = leaf.not_valid_after_utc - dt.timedelta(days=30)
        chosen = min(share, latest) if latest > leaf.not_valid_before_utc else share
        if window is not None:
            chosen = min(window.astimezone(dt.timezone.utc), leaf.not_valid_after_utc - dt.timedelta(days=1))
        return chosen

    @property
    def domains(self) -> list[str]:
        return self._domains()

    def due(self) -> bool:
        info = self.store.info
        if not self.store.serving or sorted(info.domains) != sorted(self.domains):
            return True
        return info.renew_at is None or clock.now() >= info.renew_at

    # Issuing -----------------------------------------------------------------------------------

    def _client(self) -> client.ClientV2:
        key_path, account_path = self.folder / "account.key", self.folder / "account.json"
        if not key_path.exists():
            write_private(key_path, new_key_pem())
        key = jose.JWKEC(key=serialization.load_pem_private_key(key_path.read_bytes(), password=None))
        network = client.ClientNetwork(key, alg=jose.ES256, user_agent=USER_AGENT,
                                       verify_ssl=self.ca_bundle or True, timeout=30)
        acme = client.ClientV2(client.ClientV2.get_directory(self.directory_url, network), network)
        if account_path.exists():
            stored = json.loads(account_path.read_text())
            if stored.get("directory") == self.directory_url:
                try:
                    acme.query_registration(messages.RegistrationResource(uri=stored["uri"], body=messages.Registration()))
                    return acme
                except messages.Error as exc:
                    if exc.code != "accountDoesNotExist":
                        raise
                    network.account = None  # the CA forgot it (a test CA restarted): register anew
        registration = acme.new_account(messages.NewRegistration.from_data(email=self.email,
                                                                           terms_of_service_agreed=True))
        write_private(account_path, json.dumps({"uri": registration.uri, "directory": self.directory_url}).encode())
        return acme

    def issue(self) -> None:
        """One order for the domains, answered over HTTP-01 and installed; raises with a sentence."""
        acme = self._client()
        key_pem = new_key_pem()
        order = acme.new_order(crypto_util.make_csr(key_pem, self.domains))
        answered = []
        try:
            for authorization in order.authorizations:
                if authorization.body.status == messages.STATUS_VALID:
                    continue
                http01 = next((c for c in authorization.body.challenges if isinstance(c.chall, challenges.HTTP01)), None)
                if http01 is None:
                    raise CertificateRefused(f"The ACME server offers no HTTP-01 challenge for "
                                             f"{authorization.body.identifier.value}.")
                response, validation = http01.response_and_validation(acme.net.key)
                token = http01.chall.encode("token")
                challenges_given.give(token, validation)
                answered.append(token)
                acme.answer_challenge(http01, response)
            # the library compares naive local times
            order = acme.poll_and_finalize(order, dt.datetime.now() + dt.timedelta(seconds=ORDER_SECONDS))
        finally:
            challenges_given.take_back(answered)
        chain_pem = order.fullchain_pem.encode()
        leaf = self.store.install(chain_pem, key_pem)
        write_private(self.certificate_path, chain_pem + key_pem)
        self.store.info.renew_at = self._renew_at(leaf, chain_pem, acme)

    def check(self) -> None:
        """Issue when due (and not waiting for a retry); a refusal keeps the old one, says why."""
        if not self.due() or (self._next_try is not None and clock.now() < self._next_try):
            return
        try:
            self.issue()
            self._retry, self._next_try = FIRST_RETRY, None
        except Exception as exc:  # noqa: BLE001 -- every refusal becomes the status's sentence
            self.store.refuse(describe(exc))
            self._next_try = self.store.info.last_error_at + self._retry  # from the refusal said
            self._retry = min(self._retry * 2, LONGEST_RETRY)

    # The thread -----------------------------------------------------------------------------------

    def start(self) -> "AcmeRenewer":
        self._thread.start()
        return self

    def check_now(self) -> None:
        self._wake.set()

    def stop(self) -> None:
        self._stopping.set()
        self._wake.set()
        if self._thread.is_alive():
            self._thread.join(10)

    @property
    def next_try_at(self) -> dt.datetime | None:
        """After a refusal, when it is tried again (the status says it)."""
        return self._next_try

    def next_check_at(self) -> dt.datetime:
        """When `check()` next has something to do: after a refusal, the retry's moment (the renewal's
        moment has passed then, and waking for it would ask every second until the retry); else the
        renewal's, looked at again at least every LONGEST_SLEEP."""
        if self._next_try is not None:
            return self._next_try
        if self.due():
            return clock.now()
        return min(self.store.info.renew_at, clock.now() + LONGEST_SLEEP)

    def _run(self) -> None:
        while not self._stopping.is_set():
            self.check()
            self._wake.wait(max(1.0, (self.next_check_at() - clock.now()).total_seconds()))
            self._wake.clear()


def describe(exc: Exception) -> str:
    """What went wrong, for people: the CA's own words when it gave some."""
    if isinstance(exc, errors.ValidationError):
        reasons = [f"{authorization.body.identifier.value}: {challenge.error.detail or challenge.error.typ}"
                   for authorization in exc.failed_authzrs for challenge in authorization.body.challenges
                   if challenge.error]
        return "The ACME server could not check the challenge (" + "; ".join(reasons) + "). Is the HTTP port reachable " \
               "from the internet at that name?"
    if isinstance(exc, messages.Error):
        if exc.code == "rateLimited":
            return f"The ACME server refused for now: too many certificates asked ({exc.detail})."
        return f"The ACME server refused: {exc.detail or exc.code}."
    if isinstance(exc, CertificateRefused):
        return str(exc)
    if isinstance(exc, errors.TimeoutError):
        return "The ACME server did not finish the order in time."
    if isinstance(exc, requests.exceptions.SSLError):
        return ("The ACME server's own certificate is not trusted (a test CA needs APPLIANCE_ACME_CA_BUNDLE).")
    if isinstance(exc, requests.exceptions.Timeout):
        return "The ACME server could not be reached (ConnectionError): it did not answer in time."
    if isinstance(exc, OSError) or exc.__class__.__module__.startswith(("requests", "urllib3")):
        cause = str(exc).lower()
        why = ("nothing answers at its address" if "refused" in cause else
               "its name does not resolve (no DNS?)" if "resolve" in cause or "name or service" in cause else
               "the network failed")
        return f"The ACME server could not be reached ({exc.__class__.__name__}): {why}."
    return f"Getting a certificate failed: {exc}"

"""HTTPS of the appliance's own (APPLIANCE_TLS), as the server runs it: `start(settings)` makes the
certificate store and what keeps it current (the files' watcher, or the ACME renewer), and hands
serve() the listener's context; `state()` is what /installation/status and the Go live page say."""

from __future__ import annotations

import ssl

from appliance.core import clock
from appliance.core.db import StartupError
from appliance.installation import public_address
from appliance.installation.certificates import CertificateStore, FileWatcher

_store: CertificateStore | None = None
_keeper = None  # the FileWatcher, or the AcmeRenewer
_renewer = None  # the AcmeRenewer (APPLIANCE_TLS=acme)


def start(settings) -> ssl.SSLContext | None:
    """The HTTPS listener's context (None: APPLIANCE_TLS=off). `files` whose certificate cannot be
    served stop the start with the sentence; `acme` starts with what it has and gets the rest in
    the background (the HTTP port must answer its challenge first)."""
    global _store, _keeper, _renewer
    if settings.tls == "off":
        return None
    _store = CertificateStore(settings.tls)
    if settings.tls == "files":
        if not settings.tls_cert or not settings.tls_key:
            raise StartupError("APPLIANCE_TLS=files needs APPLIANCE_TLS_CERT and APPLIANCE_TLS_KEY (PEM paths)")
        _keeper = FileWatcher(_store, settings.tls_cert, settings.tls_key)
        if not _keeper.load():
            raise StartupError(f"HTTPS cannot start: {_store.info.last_error}")
    else:
        # The ACME library (and pyOpenSSL under it) only when asked for: ~18 MB and 100 ms at start.
        from appliance.installation.acme import AcmeRenewer, domains_of

        _keeper = _renewer = AcmeRenewer(
            _store, folder=settings.data_dir / "tls", directory_url=settings.acme_directory_url,
            domains=lambda: domains_of(settings, public_address.base_url()), email=settings.acme_email,
            ca_bundle=settings.acme_ca_bundle)
        _keeper.load_stored()
    return _store.server_context()


def run() -> None:
    """Once the HTTP port answers: the watcher or the renewer starts its thread."""
    if _keeper is not None:
        _keeper.start()


def stop() -> None:
    global _store, _keeper, _renewer
    if _keeper is not None:
        _keeper.stop()
    _store = _keeper = _renewer = None


def state(settings) -> dict:
    if _store is None:
        return {"mode": settings.tls, "domains": [], "not_after": None, "installed_at": None, "renew_at": None,
                "last_error": None, "last_error_at": None, "next_try_at": None, "https_port": settings.https_port if settings.tls != "off" else None}
    renewing = renewer()
    next_try = clock.iso(renewing.next_try_at) if renewing is not None and renewing.next_try_at else None
    return {**_store.info.as_dict(), "https_port": settings.https_port, "next_try_at": next_try}


def address_changed() -> None:
    """A public address was saved: ACME asks for its name now, not at its next check."""
    if _renewer is not None:
        _renewer.check_now()


def serving() -> bool:
    """Whether HTTPS has a certificate to serve now."""
    return _store is not None and _store.serving


def renewer():
    """The AcmeRenewer, with APPLIANCE_TLS=acme (else None)."""
    return _renewer

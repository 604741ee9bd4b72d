"""The server's VAPID key pair (RFC 8292), which signs every Web Push: made at the first start
(P-256), the private key sealed with the keyring; the public key is what browsers subscribe with."""

from __future__ import annotations

import base64

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from sqlmodel import Session

from appliance.core import clock, runtime
from appliance.push.models import VapidKey


def _b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def ensure_key(database) -> str:
    """The server's VAPID key pair, made at the first start (P-256; the private key sealed).
    Answers the public key."""
    with database.unit_of_work(write=True) as session:
        key = session.get(VapidKey, 1)
        if key is None:
            private = ec.generate_private_key(ec.SECP256R1())
            public = private.public_key().public_bytes(serialization.Encoding.X962,
                                                       serialization.PublicFormat.UncompressedPoint)
            raw = private.private_numbers().private_value.to_bytes(32, "big")
            key = VapidKey(public_key=_b64url(public), private_key_sealed=runtime.get().keyring.seal(_b64url(raw)),
                           created_at=clock.now())
            session.add(key)
        return key.public_key


def private_key(session: Session) -> str:
    return runtime.get().keyring.unseal(session.get(VapidKey, 1).private_key_sealed)

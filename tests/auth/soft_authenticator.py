"""A software WebAuthn authenticator for the tests: real attestations and assertions (authenticator
data, a COSE ES256 key, ECDSA signatures over what WebAuthn signs), made with `cryptography` and
`cbor2`, so the server's `webauthn` checks run as they do for a browser's."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import struct

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec

_UP, _UV, _AT = 0x01, 0x04, 0x40


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class SoftAuthenticator:
    """One authenticator holding one discoverable credential once `create` made it."""

    def __init__(self, *, user_verifying: bool = True):
        self.user_verifying = user_verifying
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.credential_id = os.urandom(32)
        self.user_handle: bytes | None = None
        self.sign_count = 0

    def _cose_key(self) -> bytes:
        numbers = self.key.public_key().public_numbers()
        return cbor2.dumps({1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"), -3: numbers.y.to_bytes(32, "big")})

    def _flags(self, *extra: int) -> int:
        flags = _UP | (_UV if self.user_verifying else 0)
        for bit in extra:
            flags |= bit
        return flags

    @staticmethod
    def _client_data(kind: str, challenge: str, origin: str) -> bytes:
        return json.dumps({"type": kind, "challenge": challenge, "origin": origin, "crossOrigin": False}).encode()

    def create(self, options: dict, *, origin: str, rp_id: str | None = None) -> dict:
        """What navigator.credentials.create answers (its toJSON()) for `options` (publicKey)."""
        rp_id = rp_id or options["rp"]["id"]
        self.user_handle = unb64url(options["user"]["id"])
        client_data = self._client_data("webauthn.create", options["challenge"], origin)
        attested = bytes(16) + struct.pack(">H", len(self.credential_id)) + self.credential_id + self._cose_key()
        auth_data = (hashlib.sha256(rp_id.encode()).digest() + bytes([self._flags(_AT)])
                     + struct.pack(">I", self.sign_count) + attested)
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth_data})
        return {"id": b64url(self.credential_id), "rawId": b64url(self.credential_id), "type": "public-key",
                "authenticatorAttachment": "platform", "clientExtensionResults": {},
                "response": {"clientDataJSON": b64url(client_data), "attestationObject": b64url(attestation),
                             "transports": ["internal"]}}

    def get(self, options: dict, *, origin: str, rp_id: str | None = None, user_handle: bytes | None = None) -> dict:
        """What navigator.credentials.get answers for `options`: an assertion signed by this key."""
        rp_id = rp_id or options["rpId"]
        self.sign_count += 1
        client_data = self._client_data("webauthn.get", options["challenge"], origin)
        auth_data = hashlib.sha256(rp_id.encode()).digest() + bytes([self._flags()]) + struct.pack(">I", self.sign_count)
        signature = self.key.sign(auth_data + hashlib.sha256(client_data).digest(), ec.ECDSA(hashes.SHA256()))
        handle = user_handle if user_handle is not None else self.user_handle
        return {"id": b64url(self.credential_id), "rawId": b64url(self.credential_id), "type": "public-key",
                "authenticatorAttachment": "platform", "clientExtensionResults": {},
                "response": {"clientDataJSON": b64url(client_data), "authenticatorData": b64url(auth_data),
                             "signature": b64url(signature), "userHandle": b64url(handle or b"")}}

"""The backup key: what an archive's secret key is sealed under (Home Assistant's emergency kit).

An archive holds the database, whose stored secrets (Meta's tokens, AI providers' keys, TOTP seeds)
are sealed under the installation's secret key; the archive carries that secret key too, sealed
under the backup key, so a stolen archive opens nothing without it. The administrator sees the key
once (the first backup's answer, or the answer that replaces it) and keeps it apart from the archives;
the installation keeps it sealed under its own secret key in installation_settings, to seal the next
archives. 160 random bits written in base32, in groups of four: `ABCD-EFGH-...`; typed back with or
without dashes, spaces, in either case.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import os
import secrets

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

KEY_BYTES = 20


class WrongKey(Exception):
    """The backup key given is not a key, or not the one the archive was sealed under; a sentence."""


def new_key() -> str:
    text = base64.b32encode(secrets.token_bytes(KEY_BYTES)).decode()
    return "-".join(text[i:i + 4] for i in range(0, len(text), 4))


def key_bytes(text: str) -> bytes:
    compact = "".join(text.split()).replace("-", "").upper()
    try:
        raw = base64.b32decode(compact)
    except (binascii.Error, ValueError):
        raw = b""
    if len(raw) != KEY_BYTES:
        raise WrongKey("That is not a backup key: it has 8 groups of 4 letters and digits, like ABCD-EFGH-….")
    return raw


def key_id(text: str) -> str:
    """Names a key without revealing it: archives and the backups list carry it, so a restore can say
    which key an archive needs."""
    return hashlib.sha256(b"appliance-backup-key-id:" + key_bytes(text)).hexdigest()[:12]


def _cipher(text: str) -> AESGCM:
    derived = HKDF(algorithm=hashes.SHA256(), length=32, salt=None,
                   info=b"appliance backup: secret key").derive(key_bytes(text))
    return AESGCM(derived)


def seal_secret(secret_key: bytes, key_text: str, *, archive_id: str) -> dict:
    """The installation's secret key sealed under the backup key, bound to the archive it travels in."""
    nonce = os.urandom(12)
    sealed = _cipher(key_text).encrypt(nonce, secret_key, archive_id.encode())
    return {"keyId": key_id(key_text), "nonce": nonce.hex(), "sealed": base64.b64encode(sealed).decode()}


def open_secret(sealed: dict, key_text: str, *, archive_id: str) -> bytes:
    """The secret key sealed in an archive; WrongKey when `key_text` is not the key it needs."""
    given = key_id(key_text)  # a malformed key says so before any comparison
    needed = sealed.get("keyId") if isinstance(sealed, dict) else None
    if needed != given:
        raise WrongKey(f"This archive was sealed with another backup key (id {needed}; the key given has id "
                       f"{given}): use the key shown when that archive was made.")
    try:
        return _cipher(key_text).decrypt(bytes.fromhex(sealed["nonce"]), base64.b64decode(sealed["sealed"]),
                                         archive_id.encode())
    except (InvalidTag, KeyError, ValueError, TypeError):
        raise WrongKey("The backup key does not open this archive's secret key: the archive was changed.") from None

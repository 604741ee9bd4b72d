"""Secrets: the master key, derived keys, token hashing, secret encryption and passwords.

Passwords use argon2id (OWASP's floor: t=2, m=19 MiB, p=1). Random tokens of 128+ bits
(refresh tokens, email links, recovery codes, API keys) are stored as HMAC-SHA256 under a
derived key: a slow hash would cost 25+ ms a request and buys nothing at that entropy.
Secrets we must read back (TOTP seeds, provider tokens) are sealed with AES-GCM.

Password hashes run on PASSWORD_THREADS threads of their own. argon2id takes its 19 MiB from
malloc and gives it back after each hash, but glibc keeps what a thread's arena freed for that
arena's next use: every request thread that ever checked a password held 19 MiB of its own, and
48 sign-ins from 8 clients at once left a server at 469 MB (143 MB idle before). On two threads
the memory is theirs alone, ~40 MB however many requests sign in at once (issue 46, footprint).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import secrets
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

PASSWORD_COST = {"time_cost": 2, "memory_cost": 19456, "parallelism": 1}  # argon2id at OWASP's floor
_hasher = PasswordHasher(**PASSWORD_COST)
# Verified against when the account does not exist, so both paths cost the same time. Made at the
# first such login, not at import: a hash cost every start ~35 ms and 19 MiB (issue 46, footprint).
_dummy_hash: str | None = None
# Two: on this 2-core machine two hashes at once already take both cores (~60 sign-ins a second).
PASSWORD_THREADS = 2
_password_threads = ThreadPoolExecutor(max_workers=PASSWORD_THREADS, thread_name_prefix="passwords")


def set_password_cost(*, time_cost: int, memory_cost: int, parallelism: int = 1) -> None:
    """Hash new passwords at another cost (still argon2id). For the test suite only, where a person is
    signed up in most tests and what is tested is not the hash: `PASSWORD_COST` costs ~25 ms a hash.
    Stored hashes of another cost still verify (and are rehashed at the next sign-in)."""
    global _hasher, _dummy_hash
    _hasher = PasswordHasher(time_cost=time_cost, memory_cost=memory_cost, parallelism=parallelism)
    _dummy_hash = None


def _on_password_thread(work, *args):
    """`work(*args)` on a password thread, its answer or its exception (the threads start on first use)."""
    return _password_threads.submit(work, *args).result()


def hash_password(password: str) -> str:
    return _on_password_thread(_hasher.hash, password)


def verify_password(password_hash: str | None, password: str) -> bool:
    if not password_hash:
        _burn(password)
        return False
    try:
        return _on_password_thread(_hasher.verify, password_hash, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def _burn(password: str) -> None:
    global _dummy_hash
    if _dummy_hash is None:  # two threads may both make one: either serves
        _dummy_hash = hash_password("dummy password for timing equalisation")
    try:
        _on_password_thread(_hasher.verify, _dummy_hash, password)
    except VerifyMismatchError:
        pass


def password_needs_rehash(password_hash: str) -> bool:
    return _hasher.check_needs_rehash(password_hash)


def random_token(nbytes: int = 32) -> str:
    return secrets.token_urlsafe(nbytes)


def load_master_key(secret_setting: str, data_dir: Path) -> bytes:
    """The master key: from the setting if given, else DATA_DIR/secret.key (created once, 0600)."""
    if secret_setting:
        return hashlib.sha256(secret_setting.encode()).digest()
    path = data_dir / "secret.key"
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return bytes.fromhex(path.read_text().strip())
    with os.fdopen(fd, "w") as handle:
        key = secrets.token_bytes(32)
        handle.write(key.hex())
    return key


class Keyring:
    """Keys derived from the master key, one per purpose, so no key serves two uses."""

    def __init__(self, master_key: bytes):
        self._master = master_key
        self.jwt_key = self.derive("jwt-hs256")
        self._token_key = self.derive("token-hash")
        self._box = AESGCM(self.derive("secret-box"))

    def derive(self, purpose: str) -> bytes:
        return hmac.new(self._master, purpose.encode(), hashlib.sha256).digest()

    def token_hash(self, token: str) -> str:
        return hmac.new(self._token_key, token.encode(), hashlib.sha256).hexdigest()

    def seal(self, plaintext: str) -> str:
        nonce = os.urandom(12)
        return base64.urlsafe_b64encode(nonce + self._box.encrypt(nonce, plaintext.encode(), None)).decode()

    def unseal(self, sealed: str) -> str:
        raw = base64.urlsafe_b64decode(sealed.encode())
        return self._box.decrypt(raw[:12], raw[12:], None).decode()

    def sign(self, purpose: str, data: dict, *, expires_at: float) -> str:
        """`data` (JSON) with an expiry, readable by anyone, forgeable by no one without the master
        key; for one `purpose` only (an OAuth `state`, say)."""
        body = base64.urlsafe_b64encode(json.dumps({**data, "_e": int(expires_at)}).encode()).decode().rstrip("=")
        return f"{body}.{self._mac(purpose, body)}"

    def verify(self, purpose: str, signed: str, *, now: float) -> dict | None:
        """The data `sign` wrapped, if the signature is ours for this purpose and it has not expired."""
        body, _, mac = (signed or "").partition(".")
        if not body or not hmac.compare_digest(mac.encode(), self._mac(purpose, body).encode()):
            return None
        try:
            data = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
        except ValueError:
            return None
        return data if isinstance(data, dict) and data.pop("_e", 0) >= now else None

    def _mac(self, purpose: str, body: str) -> str:
        return hmac.new(self.derive("signed:" + purpose), body.encode(), hashlib.sha256).hexdigest()

"""Access tokens: HS256 JWTs of 15 minutes carrying sub, sid, iat, exp and impersonatedBy."""

from __future__ import annotations

from dataclasses import dataclass

import jwt

from appliance.core import clock
from appliance.core.errors import Unauthorized

ACCESS_TOKEN_SECONDS = 900
_ALGORITHM = "HS256"


@dataclass(frozen=True)
class Claims:
    user_id: str
    session_id: str
    impersonated_by: str | None


def encode(key: bytes, *, user_id: str, session_id: str, impersonated_by: str | None) -> str:
    issued = int(clock.now().timestamp())
    claims = {"sub": user_id, "sid": session_id, "iat": issued, "exp": issued + ACCESS_TOKEN_SECONDS,
              "typ": "access"}
    if impersonated_by:
        claims["impersonatedBy"] = impersonated_by
    return jwt.encode(claims, key, algorithm=_ALGORITHM)


def decode(key: bytes, token: str) -> Claims:
    """Verify signature and expiry (against our clock, so tests can move time)."""
    try:
        claims = jwt.decode(token, key, algorithms=[_ALGORITHM],
                            options={"verify_exp": False, "verify_iat": False,
                                     "require": ["sub", "sid", "iat", "exp"]})
    except jwt.PyJWTError:
        raise Unauthorized("The access token is not valid.", code="token_invalid") from None
    if claims.get("typ") != "access" or not isinstance(claims.get("exp"), int):
        raise Unauthorized("The access token is not valid.", code="token_invalid")
    if claims["exp"] <= clock.now().timestamp():
        raise Unauthorized("The access token has expired; refresh it.", code="token_expired")
    return Claims(str(claims["sub"]), str(claims["sid"]), claims.get("impersonatedBy"))

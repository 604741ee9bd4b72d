"""SMTP transport: protocol only, configured by one URL (smtp://, smtps://, ?starttls=1)."""

from __future__ import annotations

import smtplib
from dataclasses import dataclass
from email.message import EmailMessage
from urllib.parse import parse_qs, unquote, urlsplit


@dataclass(frozen=True)
class SmtpConfig:
    host: str
    port: int
    ssl: bool
    starttls: bool
    username: str | None
    password: str | None
    timeout: float = 15.0

    @classmethod
    def from_url(cls, url: str) -> "SmtpConfig":
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
            raise ValueError("APPLIANCE_SMTP_URL must look like smtp://user:pass@host:port")
        query = parse_qs(parts.query)
        ssl = parts.scheme == "smtps"
        return cls(host=parts.hostname, port=parts.port or (465 if ssl else 25), ssl=ssl,
                   starttls=query.get("starttls", ["0"])[0] in ("1", "true", "yes"),
                   username=unquote(parts.username) if parts.username else None,
                   password=unquote(parts.password) if parts.password else None)


def send(config: SmtpConfig, *, sender: str, to: str, subject: str, body: str,
         message_id: str) -> None:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, to, subject
    message["Message-ID"] = message_id
    message.set_content(body)
    client_class = smtplib.SMTP_SSL if config.ssl else smtplib.SMTP
    with client_class(config.host, config.port, timeout=config.timeout) as client:
        if config.starttls:
            client.starttls()
        if config.username:
            client.login(config.username, config.password or "")
        client.send_message(message)

"""Every setting of the appliance, declared once as data.

A setting is read from the environment variable of its name; `load_settings`
accepts overrides (the CLI flags and the tests use them). README.md lists every
setting, and a test keeps the two in step.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping


@dataclass(frozen=True)
class Setting:
    name: str
    default: str
    help: str
    parse: Callable[[str], Any] = str

    @property
    def attr(self) -> str:
        return self.name.removeprefix("APPLIANCE_").lower()


def _bool(text: str) -> bool:
    value = text.strip().lower()
    if value in ("1", "true", "yes", "on"):
        return True
    if value in ("0", "false", "no", "off", ""):
        return False
    raise ValueError(f"not a boolean: {text!r}")


def _one_of(*choices: str) -> Callable[[str], str]:
    def parse(text: str) -> str:
        value = text.strip().lower()
        if value not in choices:
            raise ValueError(f"one of {', '.join(choices)}, not {text!r}")
        return value
    return parse


def _directory(value) -> Path:
    """A directory, absolute from the start: a relative path resolved against the working directory
    once, so nothing later (Flask's send_file resolves against the package) reads it otherwise."""
    return Path(value).expanduser().resolve()


def _zone_name(text: str) -> str:
    value = text.strip()
    if value:
        from zoneinfo import ZoneInfo  # (tzdata's tables: the zones are known on every system)

        try:
            ZoneInfo(value)
        except (ValueError, LookupError):
            raise ValueError(f"not a time zone name such as America/Bogota: {text!r}") from None
    return value


def _time_of_day_or_off(text: str) -> str:
    value = text.strip().lower()
    if value != "off":
        hours, _, minutes = value.partition(":")
        if not (hours.isdigit() and minutes.isdigit() and int(hours) < 24 and int(minutes) < 60 and len(minutes) == 2):
            raise ValueError(f"HH:MM or off, not {text!r}")
    return value


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 0:
        raise ValueError(f"must be 0 or more: {text!r}")
    return value


def parse_origins(text: str) -> frozenset:
    """`scheme://host[:port]` entries separated by commas (or new lines: the console's list), as
    (scheme, host, port or None for any port): the private servers the appliance may reach for
    tenants. Raises ValueError naming the first entry that is not one."""
    from urllib.parse import urlsplit

    origins = set()
    for entry in text.replace("\n", ",").split(","):
        entry = entry.strip().rstrip("/")
        if not entry:
            continue
        try:
            parts = urlsplit(entry)
            port = parts.port
        except ValueError:
            raise ValueError(f"not scheme://host[:port]: {entry!r}") from None
        if (parts.scheme not in ("http", "https") or not parts.hostname or parts.path or parts.query
                or parts.fragment or parts.username is not None or "#" in entry or "?" in entry):
            raise ValueError(f"not http(s)://host[:port]: {entry!r}")
        origins.add((parts.scheme, parts.hostname.rstrip(".").lower(), port))
    return frozenset(origins)


def _database_url(text: str) -> str:
    text = text.strip()
    if text and not text.startswith(("postgresql://", "postgres://")):
        raise ValueError("must be empty (SQLite in the data directory) or a postgresql:// URL")
    return text


def _above_zero(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise ValueError(f"must be more than 0: {text!r}")
    return value


SETTINGS: tuple[Setting, ...] = (
    Setting("APPLIANCE_DATA_DIR", "./data", "Directory for the database, queue, media, logs and the generated secret key (relative to the directory the appliance starts in).", _directory),
    Setting("APPLIANCE_DATABASE_URL", "", "Empty: SQLite in the data directory (the default). postgresql://user:password@host:port/database: PostgreSQL 16 or newer with the pgvector, unaccent and pg_trgm extensions, which several appliance processes may share (docs/postgresql.md).", _database_url),
    Setting("APPLIANCE_ROLE", "all", "What this process does: all (serve and run the background work: the only choice on SQLite); web (serve requests only); worker (run the background work only, no port). With PostgreSQL, run several web processes behind a proxy and one or more worker processes: one runs the work, the others stand by to take over (docs/postgresql.md).", _one_of("all", "web", "worker")),
    Setting("APPLIANCE_HOST", "127.0.0.1", "Address the server listens on (0.0.0.0 to serve the office LAN)."),
    Setting("APPLIANCE_PORT", "8080", "TCP port the server listens on.", int),
    Setting("APPLIANCE_THREADS", "64", "Request threads of the HTTP server; each open live-update stream holds one, and streams may take all but 8.", int),
    Setting("APPLIANCE_WEBCHAT_VISITORS", "200", "Web-chat visitors connected at once (the website's chat box); each waiting poll holds a server thread, so the server has this many threads beside APPLIANCE_THREADS.", int),
    Setting("APPLIANCE_LIVE_HEARTBEAT_SECONDS", "15", "Seconds a quiet live-update stream waits before a heartbeat (which also frees the threads of clients that left).", float),
    Setting("APPLIANCE_BASE_URL", "", "Public address of the appliance: every link it writes starts with it (mails, QR codes, short links, link pages, calendar feeds, the WhatsApp callback URL, the OAuth issuer). Set here, it wins over the one the installation's administrator keeps on the Go live page. Empty and none kept: http://127.0.0.1:<the port served> (the listen address instead of 127.0.0.1 when APPLIANCE_HOST names one)."),
    Setting("APPLIANCE_SECRET_KEY", "", "Master secret for signing tokens and encrypting stored secrets. Empty: generated once into DATA_DIR/secret.key."),
    Setting("APPLIANCE_SMTP_URL", "", "Outgoing mail server, smtp://user:pass@host:port or smtps://... (add ?starttls=1 for STARTTLS). Empty: mail is kept in the mail outbox table and written to the log."),
    Setting("APPLIANCE_MAIL_FROM", "Appliance <no-reply@appliance.local>", "Sender address of outgoing mail."),
    Setting("APPLIANCE_MAX_JSON_BYTES", "1048576", "Largest JSON request body accepted; larger ones answer 413.", _positive_int),
    Setting("APPLIANCE_REFRESH_TOKEN_DAYS", "30", "Days a sign-in session lasts without being refreshed.", _positive_int),
    Setting("APPLIANCE_THROTTLE_WINDOW_SECONDS", "900", "Window in which failed credential attempts are counted.", _positive_int),
    Setting("APPLIANCE_THROTTLE_ACCOUNT_FAILURES", "5", "Failed credential attempts on one account from one client IP within the window before that IP is refused for that account (429).", _positive_int),
    Setting("APPLIANCE_THROTTLE_ACCOUNT_DAILY_FAILURES", "100", "Failed credential attempts on one account from all addresses within 24 hours before the account itself is refused (429); a correct sign-in clears it.", _positive_int),
    Setting("APPLIANCE_THROTTLE_IP_FAILURES", "20", "Failed credential attempts per client IP within the window before 429.", _positive_int),
    Setting("APPLIANCE_SIGNUP_LIMIT_PER_HOUR", "0", "Sign-ups accepted per client IP per hour; 0 means no limit.", _positive_int),
    Setting("APPLIANCE_PROXY_COUNT", "0", "Number of reverse proxies in front of the appliance whose X-Forwarded-For is trusted.", _positive_int),
    Setting("APPLIANCE_DEFAULT_PLAN", "business", "Plan of new organizations (data/plans.json: free or business); `appliance staff plan SLUG PLAN` changes one's."),
    Setting("APPLIANCE_BILLING", "off", "off: one business on its own machine; every organization has its plan's catalog with no charge and no limits on seats, accounts, storage or organizations. on: the installation's operator bills the organizations it hosts (an agency, a franchise): plans' prices and included quantities, add-ons, a wallet per organization, payment reports (docs/billing.md).", _one_of("off", "on")),
    Setting("APPLIANCE_WOMPI_URL", "https://production.wompi.co/v1", "Wompi's API (cards and Nequi in Colombia) when billing is on; the sandbox points it at the built-in Wompi double."),
    Setting("APPLIANCE_WOMPI_PUBLIC_KEY", "", "Wompi's public key (pub_prod_...): the browser makes card tokens with it."),
    Setting("APPLIANCE_WOMPI_PRIVATE_KEY", "", "Wompi's private key (prv_prod_...): payment sources and charges."),
    Setting("APPLIANCE_WOMPI_EVENTS_SECRET", "", "Wompi's events secret: the checksum of every event it posts to /billing/wompi/events is checked with it."),
    Setting("APPLIANCE_WOMPI_INTEGRITY_SECRET", "", "Wompi's integrity secret: each charge is signed with it."),
    Setting("APPLIANCE_WOMPI_CHECKOUT_URL", "https://checkout.wompi.co", "Where customers pay an order's payment link (Wompi's checkout: {this}/l/{link id}); the sandbox points it at the Wompi double's checkout page."),
    Setting("APPLIANCE_ORG_QUOTA", "3", "Organizations one person may create.", _positive_int),
    Setting("APPLIANCE_SANDBOX", "false", "Sandbox mode: the built-in network simulator runs in-process (at /netsim) and every new organization gets a simulated business account and number; no Meta account needed.", _bool),
    Setting("APPLIANCE_SANDBOX_CONTROL_FROM_ANYWHERE", "false", "Let other machines use the simulator's control API (/netsim/_control: play customers, read what was sent); by default only this machine may. People play customers from the inbox either way.", _bool),
    Setting("APPLIANCE_GRAPH_API_URL", "https://graph.facebook.com", "Base URL of the WhatsApp Cloud API (Graph API); the sandbox points it at the built-in network simulator."),
    Setting("APPLIANCE_GRAPH_API_VERSION", "v23.0", "Graph API version used in every call."),
    Setting("APPLIANCE_GRAPH_TIMEOUT_SECONDS", "15", "Seconds to wait for the Graph API before a call counts as failed (and retryable).", float),
    Setting("APPLIANCE_KNOWLEDGE_ALLOW_PRIVATE_URLS", "false", "Let the knowledge base read web pages on private, loopback and link-local addresses (an intranet wiki); by default only public pages.", _bool),
    Setting("APPLIANCE_ALLOWED_PRIVATE_URLS", "", "Private servers the appliance may reach for organizations (AI providers, webhooks, knowledge pages, push endpoints), comma separated scheme://host[:port] (no port: any port of that host), e.g. http://127.0.0.1:11434 for an Ollama on this machine, http://192.168.1.50. Every other loopback, private, link-local or reserved address is refused. Empty: the list the installation's administrator keeps in the console; set, it wins over that list.", parse_origins),
    Setting("APPLIANCE_SHORT_LINK_BASE", "", "Public address chat links are published under (https://sol.co/l); empty: {APPLIANCE_BASE_URL}/l. The appliance answers its path."),
    Setting("APPLIANCE_GOOGLE_CLIENT_ID", "", "OAuth client id (a Google Cloud project's web client) with which organizations connect Google Calendar; empty: connecting is offered only in sandbox mode (against the built-in Google double)."),
    Setting("APPLIANCE_GOOGLE_CLIENT_SECRET", "", "That OAuth client's secret."),
    Setting("APPLIANCE_GOOGLE_AUTH_URL", "https://accounts.google.com/o/oauth2/v2/auth", "Google's OAuth consent page."),
    Setting("APPLIANCE_GOOGLE_TOKEN_URL", "https://oauth2.googleapis.com/token", "Google's OAuth token endpoint."),
    Setting("APPLIANCE_GOOGLE_CALENDAR_URL", "https://www.googleapis.com/calendar/v3", "Base URL of the Google Calendar API."),
    Setting("APPLIANCE_VAPID_SUBJECT", "", "Contact the push services may write to about this server's Web Push (mailto: or https:); empty: mailto: the first owner's address."),
    Setting("APPLIANCE_FCM_CREDENTIALS", "", "Path of a Firebase service account's JSON key: native Android (and iOS through Firebase) push of the mobile app goes out through FCM. Empty: device tokens are kept but not sent to."),
    Setting("APPLIANCE_FCM_URL", "https://fcm.googleapis.com", "Base URL of Firebase Cloud Messaging's HTTP v1 API."),
    Setting("APPLIANCE_APNS_KEY", "", "Path of the Apple Push Notification service signing key (the .p8 file of your Apple developer account): with the three settings below, iPhones' device tokens get native pushes straight from APNs (otherwise through FCM, when that is configured)."),
    Setting("APPLIANCE_APNS_KEY_ID", "", "That key's id (10 characters, shown beside it in the developer account)."),
    Setting("APPLIANCE_APNS_TEAM_ID", "", "The Apple developer team's id."),
    Setting("APPLIANCE_APNS_TOPIC", "", "The mobile app's bundle id, which APNs calls the topic."),
    Setting("APPLIANCE_APNS_URL", "https://api.push.apple.com", "Base URL of APNs (https://api.sandbox.push.apple.com for development builds of the app)."),
    Setting("APPLIANCE_WEBHOOK_RETRY_SCALE", "1", "Multiplies the outbound webhooks' retry delays (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h): 0.01 replays a day of retries in 17 minutes, for benchmarks and trials. Leave 1 in use.", _above_zero),
    Setting("APPLIANCE_AI_WORKERS", "64", "Threads that wait on AI providers for the bot's answers (each holds one answer in progress and mostly sleeps; none holds the database). Answers beyond this many at once wait their turn.", int),
    Setting("APPLIANCE_QUEUE_WORKERS", "2", "Background task threads running inside the server process, for short work (inbound media, mail, notifications).", int),
    Setting("APPLIANCE_SLOW_LANE_WORKERS", "2", "Background task threads for slow work (reading documents and web pages into the knowledge base), apart from the short work's, so that it never waits behind them.", int),
    Setting("APPLIANCE_SLOW_LANE_PER_ORGANIZATION", "1", "Slow tasks of one organization that may run at once; the others wait their turn while other organizations' run.", int),
    Setting("APPLIANCE_TLS", "off", "HTTPS served by the appliance itself on APPLIANCE_HTTPS_PORT: acme gets and renews certificates for APPLIANCE_TLS_DOMAINS (HTTP-01, answered on the HTTP port); files serves APPLIANCE_TLS_CERT and APPLIANCE_TLS_KEY (read again when they change). With either, plain HTTP redirects to HTTPS once a certificate is served, except the ACME challenge, /health and the simulator (/netsim). off: HTTP only (a proxy in front may serve HTTPS).", _one_of("off", "acme", "files")),
    Setting("APPLIANCE_HTTPS_PORT", "8443", "TCP port HTTPS listens on when APPLIANCE_TLS is on (443 in the packages).", int),
    Setting("APPLIANCE_TLS_DOMAINS", "", "Names the ACME certificate is for, comma separated; empty: the public address's host."),
    Setting("APPLIANCE_ACME_DIRECTORY_URL", "https://acme-v02.api.letsencrypt.org/directory", "The ACME server's directory (Let's Encrypt's production one by default)."),
    Setting("APPLIANCE_ACME_CA_BUNDLE", "", "A CA certificate (PEM path) to trust for the ACME server itself, for a test CA such as Debian's pebble; empty: the system's."),
    Setting("APPLIANCE_ACME_EMAIL", "", "Contact address given to the ACME server for expiry notices; empty: none."),
    Setting("APPLIANCE_TLS_CERT", "", "With APPLIANCE_TLS=files: the certificate chain (PEM path)."),
    Setting("APPLIANCE_TLS_KEY", "", "With APPLIANCE_TLS=files: its private key (PEM path)."),
    Setting("APPLIANCE_METRICS", "false", "Serve GET /metrics in Prometheus's text format: to a scraper on this machine, or with an installation administrator's bearer token from elsewhere.", _bool),
    Setting("APPLIANCE_TUNNEL", "off", "A public https address without opening ports: cloudflare runs Cloudflare's cloudflared with APPLIANCE_TUNNEL_TOKEN (restarted with backoff when it stops; its state on the Go live page and in /installation/status); off: none.", _one_of("off", "cloudflare")),
    Setting("APPLIANCE_TUNNEL_TOKEN", "", "The tunnel's token (Cloudflare's Zero Trust dashboard → Networks → Tunnels → your tunnel); handed to cloudflared in its environment, never on its command line nor in the log."),
    Setting("APPLIANCE_CLOUDFLARED", "", "Path of the cloudflared program; empty: found on PATH."),
    Setting("APPLIANCE_BACKUP_DIR", "", "Folder the backups are written to (a second disk is wiser); empty: DATA_DIR/backups."),
    Setting("APPLIANCE_BACKUP_AT", "03:00", "Time of the daily backup (HH:MM, in APPLIANCE_TIMEZONE); 7 daily and 4 weekly ones are kept. off: no daily backup.", _time_of_day_or_off),
    Setting("APPLIANCE_TIMEZONE", "", "The installation's time zone (an IANA name such as America/Bogota), for the daily backup; empty: the machine's.", _zone_name),
    Setting("APPLIANCE_LOG_LEVEL", "INFO", "Log level: DEBUG, INFO, WARNING or ERROR. DEBUG also shows each migration step and every queue task run."),
)

_BY_ATTR = {s.attr: s for s in SETTINGS}
# Listening on every address of the machine: it is reached on loopback (of the same family: an IPv6
# socket of waitress's takes no IPv4).
_LOOPBACK_OF_EVERY_ADDRESS = {"": "127.0.0.1", "0.0.0.0": "127.0.0.1", "::": "::1"}


class Settings:
    """Parsed settings; attribute names are the setting names without the prefix, lower-case."""

    def __init__(self, values: Mapping[str, Any]):
        object.__setattr__(self, "_values", dict(values))

    def __getattr__(self, attr: str) -> Any:
        try:
            return self._values[attr]
        except KeyError:
            raise AttributeError(attr) from None

    def __setattr__(self, attr, value):
        raise AttributeError("settings are read-only; use replace()")

    def replace(self, **overrides: Any) -> "Settings":
        return Settings({**self._values, **_parse_overrides(overrides)})

    @property
    def served_url(self) -> str:
        """How this machine reaches the server: its listen address (loopback when it listens on
        every address) and the port it serves. server.py puts the port it was given here when it
        asked for any free one (port 0)."""
        host = self.host.strip("[]")
        host = _LOOPBACK_OF_EVERY_ADDRESS.get(host, host)
        return f"http://[{host}]:{self.port}" if ":" in host else f"http://{host}:{self.port}"

    @property
    def base_url(self) -> str:
        """APPLIANCE_BASE_URL as set ("" when not). Links start from installation.public_address,
        where this setting wins over the console's address and the served one."""
        return (self._values["base_url"] or "").strip().rstrip("/")

    @property
    def database_path(self) -> Path:
        """The SQLite database's file (used when no APPLIANCE_DATABASE_URL is set)."""
        return self.data_dir / "appliance.db"

    @property
    def database_location(self) -> Path | str:
        """Where the database is: APPLIANCE_DATABASE_URL when set, else the SQLite file."""
        return self._values["database_url"] or self.database_path

    @property
    def queue_path(self) -> Path:
        return self.data_dir / "queue.db"

    @property
    def media_dir(self) -> Path:
        return self.data_dir / "media"

    @property
    def backups_dir(self) -> Path:
        return Path(self._values["backup_dir"]).expanduser().resolve() if self._values["backup_dir"] else self.data_dir / "backups"


def _parse_overrides(overrides: Mapping[str, Any]) -> dict[str, Any]:
    parsed = {}
    for attr, value in overrides.items():
        setting = _BY_ATTR.get(attr)
        if setting is None:
            raise KeyError(f"unknown setting {attr!r}")
        parsed[attr] = setting.parse(value) if isinstance(value, str) or setting.parse is _directory else value
    return parsed


def load_settings(env: Mapping[str, str] | None = None, **overrides: Any) -> Settings:
    """Read every setting from `env` (default: the process environment), then apply overrides."""
    env = os.environ if env is None else env
    values = {}
    for setting in SETTINGS:
        raw = env.get(setting.name, setting.default)
        try:
            values[setting.attr] = setting.parse(raw)
        except ValueError as exc:
            raise SystemExit(f"{setting.name}: {exc}") from None
    values.update(_parse_overrides({k: v for k, v in overrides.items() if v is not None}))
    return Settings(values)


def settings_markdown() -> str:
    """The settings table for README.md."""
    rows = ["| Setting | Default | Meaning |", "|---|---|---|"]
    for s in SETTINGS:
        default = f"`{s.default}`" if s.default else "(empty)"
        rows.append(f"| `{s.name}` | {default} | {s.help} |")
    return "\n".join(rows)

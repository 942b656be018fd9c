"""The API's one typed settings object, read from the environment once at start-up."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Self

from api.egress import Network, allowed_networks
from api.limits import KINDS, Rate
from projections.projector import in_process as projections_in_process

DEFAULT_DATABASE_URL = "sqlite:///./data/galileo.db"


def _float(name: str, default: float) -> float:
    raw = os.environ.get(name)
    return default if raw in (None, "") else float(raw)


def _int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    return default if raw in (None, "") else int(raw)


def _flag(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    return default if raw in (None, "") else raw.strip().lower() not in ("0", "false", "no", "off")


def _choice(name: str, default: str, choices: tuple[str, ...]) -> str:
    raw = (os.environ.get(name) or default).strip().lower()
    if raw not in choices:
        raise ValueError(f"{name} must be one of {', '.join(choices)}, not {raw!r}")
    return raw


DEFAULT_RATES = {  # per client: requests a minute / burst (docs/operations.md, "Limits")
    "create": Rate(30, 10),
    "fork": Rate(30, 10),
    "import": Rate(10, 5),
    "command": Rate(600, 60),
    "analysis": Rate(30, 10),  # POST /games/{id}/analysis: each new job is minutes of a worker's time
    # Failed token attempts (unknown, malformed or revoked): past the burst, every token is refused (429)
    # until the bucket refills, so guessing or replaying tokens is slow (api/deps.py).
    "bad_token": Rate(30, 10),
    "read": Rate(1200, 300),  # every GET but the probes and static files (a page reads a few per event)
}
NO_RATES = {kind: Rate(0, 0) for kind in KINDS}


@dataclass(frozen=True, slots=True)
class Settings:
    """Configuration of one API process. One environment variable per backing service:
    `GALILEO_DATABASE_URL` (the event store, SQLite by default) and `REDIS_URL` (optional fan-out and cache);
    `GALILEO_PROJECTIONS=off` when a separate `galileo projections run` keeps the read models.
    """

    database_url: str = DEFAULT_DATABASE_URL
    redis_url: str | None = None
    max_body_bytes: int = 64 * 1024  # JSON request bodies
    max_import_bytes: int = 16 * 1024 * 1024  # export files posted to /games/import
    stream_poll_seconds: float = 1.0  # SSE: how often to read the store while Redis is unreachable
    stream_heartbeat_seconds: float = 15.0  # SSE: comment lines that keep idle connections open
    redis_timeout_seconds: float = 0.5  # every Redis call is bounded: an outage must not stall play
    redis_retry_seconds: float = 1.0  # pause between attempts to re-subscribe after a Redis outage
    view_cache_seconds: int = 3600  # lifetime of a cached board view in Redis
    bots: bool = True  # play bot seats in the background
    projections: bool = True  # keep the read models (lobby, statistics) in this process
    page_limit: int = 500  # most events one /events page returns
    rates: dict[str, Rate] = field(default_factory=lambda: dict(DEFAULT_RATES))  # GALILEO_RATE_<KIND>
    max_games_per_client: int = 1000  # games one client may make (create, fork, import); 0: no cap
    max_bytes_per_client: int = 256 * 1024 * 1024  # bytes of games one client may store; 0: no cap
    trust_forwarded_for: bool = False  # the client is X-Forwarded-For's first address (behind a proxy)
    retry_after_seconds: int = 2  # Retry-After of a 503 while the store is unreachable
    store_probe_seconds: float = 0.25  # how often an unreachable store is probed until it answers
    clocks: bool = True  # run the clock scheduler and the webhook deliveries in this process
    clock_tick_seconds: float = 1.0  # how often the scheduler looks for deadlines that have come
    clock_resync_seconds: float = 60.0  # how often it re-checks every clocked game (a missed refresh)
    # the scheduler records an idle seat's expiry this long after its deadline, so that a command
    # received before the deadline is stored first (ASYNC-1: a command is judged by its receive time)
    clock_grace_seconds: float = 2.0
    public_url: str = "http://127.0.0.1:8000"  # the base of the page links sent in notifications
    webhook_timeout_seconds: float = 10.0  # one delivery attempt
    webhook_backoff_seconds: float = 2.0  # first retry delay, doubled after each failure (capped at 1 h)
    webhook_max_attempts: int = 12  # then the notification is marked failed
    webhook_poll_seconds: float = 1.0  # how often the delivery worker looks at the outbox
    # Networks a webhook may point into besides the public (globally routable) addresses, e.g.
    # ("10.1.2.0/24",) for a receiver on the operator's network, or loopback for the tests' listener
    # (GALILEO_WEBHOOK_ALLOW_NETWORKS, comma-separated; default none: api/egress.py).
    webhook_allow_networks: tuple[str, ...] = ()
    webhook_rotation_seconds: float = 24 * 3600.0  # a rotated-out secret signs too for this long
    # The CA certificates (PEM) that https webhooks' certificates are checked against (a private
    # network's CA); default: the system's.
    webhook_ca_file: str | None = None
    takeback_timeout: str = "P1D"  # how long a take-back request waits for the other people
    # Game analysis (replays/jobs.py, docs/analysis-api.md): on Redis's queue for `galileo worker`
    # processes when REDIS_URL is set, else on threads of this process; "local" forces the threads.
    analysis_queue: str = "auto"  # auto | redis | local
    analysis_threads: int = 1  # the in-process queue's worker threads
    analysis_result_seconds: int = 7 * 24 * 3600  # how long a result (and its job) is kept in Redis
    analysis_retries: int = 2  # re-queues of a job whose worker died
    analysis_per_client: int = 2  # analyses one client may have queued or running at once; 0: no cap
    analysis_queue_limit: int = 16  # analyses queued or running in all (503 beyond); 0: no cap
    # Streams (docs/operations.md, "Limits"): open SSE streams per client and in all (this process), and
    # how many of their store reads may run at once (the rest wait: streams never take every worker thread).
    max_streams_per_client: int = 16
    rate_key_prefix: str = "galileo:rate"  # the shared buckets' Redis keys (replicas of one service share it)
    max_streams: int = 4000
    stream_reads: int = 4
    # Slow clients (docs/operations.md, "Limits"): a connection must send its request line and headers within
    # `header_timeout_seconds` of connecting (or of its previous response), and each part of its body
    # within `body_timeout_seconds`; else it is closed (a body cut short gets 408).
    header_timeout_seconds: float = 10.0
    body_timeout_seconds: float = 30.0
    # On SIGTERM (`galileo serve`), requests in flight get this long to finish; then the live streams,
    # which never end by themselves, are closed (their clients resume with Last-Event-ID) and it exits.
    shutdown_grace_seconds: int = 5

    # Accounts (docs/accounts.md): optional sign-in with a passkey; a session is a cookie.
    session_days: float = 30.0  # how long a session lasts from sign-in
    cookie_secure: bool = True  # the session cookie's Secure flag (browsers accept it on http://localhost)
    # The passkeys' relying party: its ID (a domain, never an IP address) and the origins a ceremony may
    # come from. Empty: from `public_url` (an IP address there gives "localhost" and its origin too).
    passkey_rp_id: str = ""
    passkey_origins: tuple[str, ...] = ()
    # Sign-in with OpenID Connect (docs/accounts.md): on when an issuer and a client ID are set. The issuer
    # serves `/.well-known/openid-configuration`; the redirect URI is `public_url` + /session/oidc/callback.
    oidc_issuer: str = ""
    oidc_client_id: str = ""
    oidc_client_secret: str = field(default="", repr=False)
    oidc_name: str = "OpenID Connect"  # the provider's name on the sign-in button
    # Signs the short-lived cookie that binds a sign-in's state to its browser; empty: a random key per
    # process (set one shared key when several processes serve the site).
    secret_key: str = field(default="", repr=False)
    # Seal the secrets stored in the database (webhook secrets, pseudonym keys; api/crypto.py,
    # docs/operations.md, "Secrets at rest"):
    # keys (base64url, comma-separated in GALILEO_ENCRYPTION_KEYS; the first seals, each opens) or a key
    # file (GALILEO_ENCRYPTION_KEY_FILE, made if missing). Neither: on SQLite the file `encryption.key`
    # beside the database, made at first start; on PostgreSQL one of them must be set.
    encryption_keys: tuple[str, ...] = field(default=(), repr=False)
    encryption_key_file: str = ""

    # Turn notifications by mail and Web Push (docs/notifications.md).
    smtp_host: str = ""  # empty: mails are written into the mail folder instead (`make serve`)
    smtp_port: int = 0  # 0: 465 with tls, else 587 with starttls, else 25
    smtp_security: str = "starttls"  # starttls | tls | none
    smtp_username: str = ""
    smtp_password: str = field(default="", repr=False)
    smtp_timeout_seconds: float = 10.0
    smtp_ca_file: str = ""  # CA certificates (PEM) the server is checked against; default: the system's
    mail_from: str = "Galileo Galilei <galileo@localhost>"
    mail_dir: str = ""  # the mail folder; empty: mail/ beside the SQLite database, or ./data/mail
    mail_digest_hour: int = 18  # the hour (UTC) the daily digests leave
    # VAPID (RFC 8292): the private key (base64url of the raw 32-byte P-256 key, or PEM); empty: generated
    # at the first start and kept sealed in the database. The subject is a mailto: or https: contact.
    vapid_private_key: str = ""
    vapid_subject: str = "mailto:galileo@localhost"
    push_ttl_seconds: int = 24 * 3600  # how long a push service keeps a message for a device that is off

    @property
    def smtp_port_or_default(self) -> int:
        if self.smtp_port:
            return self.smtp_port
        return {"tls": 465, "starttls": 587}.get(self.smtp_security, 25)

    @property
    def webhook_networks(self) -> tuple[Network, ...]:
        return allowed_networks(self.webhook_allow_networks)

    @property
    def analysis_on_redis(self) -> bool:
        return self.redis_url is not None and self.analysis_queue != "local"

    @classmethod
    def from_env(cls) -> Self:
        """The settings of this process (`GALILEO_*`, `REDIS_URL`)."""
        d = cls()  # the defaults (a slotted class has no class-level default values to read)
        if os.environ.get("GALILEO_WEBHOOK_ALLOW_PRIVATE"):
            raise ValueError(
                "GALILEO_WEBHOOK_ALLOW_PRIVATE was replaced by GALILEO_WEBHOOK_ALLOW_NETWORKS: the networks "
                "(comma-separated CIDR) a webhook may point into besides public addresses"
            )
        networks = tuple(n.strip() for n in os.environ.get("GALILEO_WEBHOOK_ALLOW_NETWORKS", "").split(","))
        allowed_networks(networks)  # a bad network stops the start
        return cls(
            database_url=os.environ.get("GALILEO_DATABASE_URL") or DEFAULT_DATABASE_URL,
            redis_url=os.environ.get("REDIS_URL") or None,
            max_body_bytes=_int("GALILEO_MAX_BODY_BYTES", d.max_body_bytes),
            max_import_bytes=_int("GALILEO_MAX_IMPORT_BYTES", d.max_import_bytes),
            stream_poll_seconds=_float("GALILEO_STREAM_POLL_SECONDS", d.stream_poll_seconds),
            stream_heartbeat_seconds=_float("GALILEO_STREAM_HEARTBEAT_SECONDS", d.stream_heartbeat_seconds),
            redis_timeout_seconds=_float("GALILEO_REDIS_TIMEOUT_SECONDS", d.redis_timeout_seconds),
            redis_retry_seconds=_float("GALILEO_REDIS_RETRY_SECONDS", d.redis_retry_seconds),
            view_cache_seconds=_int("GALILEO_VIEW_CACHE_SECONDS", d.view_cache_seconds),
            bots=os.environ.get("GALILEO_BOTS", "1") not in ("0", "false", "no"),
            projections=projections_in_process(),
            rates={
                kind: Rate.parse(os.environ[f"GALILEO_RATE_{kind.upper()}"])
                if os.environ.get(f"GALILEO_RATE_{kind.upper()}")
                else rate
                for kind, rate in d.rates.items()
            },
            max_games_per_client=_int("GALILEO_MAX_GAMES_PER_CLIENT", d.max_games_per_client),
            max_bytes_per_client=_int("GALILEO_MAX_BYTES_PER_CLIENT", d.max_bytes_per_client),
            trust_forwarded_for=_flag("GALILEO_TRUST_FORWARDED_FOR", d.trust_forwarded_for),
            retry_after_seconds=_int("GALILEO_RETRY_AFTER_SECONDS", d.retry_after_seconds),
            store_probe_seconds=_float("GALILEO_STORE_PROBE_SECONDS", d.store_probe_seconds),
            clocks=os.environ.get("GALILEO_CLOCKS", "1") not in ("0", "false", "no", "off"),
            clock_tick_seconds=_float("GALILEO_CLOCK_TICK_SECONDS", d.clock_tick_seconds),
            clock_resync_seconds=_float("GALILEO_CLOCK_RESYNC_SECONDS", d.clock_resync_seconds),
            clock_grace_seconds=_float("GALILEO_CLOCK_GRACE_SECONDS", d.clock_grace_seconds),
            public_url=os.environ.get("GALILEO_PUBLIC_URL") or d.public_url,
            webhook_timeout_seconds=_float("GALILEO_WEBHOOK_TIMEOUT_SECONDS", d.webhook_timeout_seconds),
            webhook_backoff_seconds=_float("GALILEO_WEBHOOK_BACKOFF_SECONDS", d.webhook_backoff_seconds),
            webhook_max_attempts=_int("GALILEO_WEBHOOK_MAX_ATTEMPTS", d.webhook_max_attempts),
            webhook_poll_seconds=_float("GALILEO_WEBHOOK_POLL_SECONDS", d.webhook_poll_seconds),
            webhook_allow_networks=tuple(n for n in networks if n),
            webhook_rotation_seconds=_float("GALILEO_WEBHOOK_ROTATION_SECONDS", d.webhook_rotation_seconds),
            webhook_ca_file=os.environ.get("GALILEO_WEBHOOK_CA_FILE") or None,
            takeback_timeout=os.environ.get("GALILEO_TAKEBACK_TIMEOUT") or d.takeback_timeout,
            analysis_queue=_choice("GALILEO_ANALYSIS_QUEUE", d.analysis_queue, ("auto", "redis", "local")),
            analysis_threads=_int("GALILEO_ANALYSIS_THREADS", d.analysis_threads),
            analysis_result_seconds=_int("GALILEO_ANALYSIS_RESULT_SECONDS", d.analysis_result_seconds),
            analysis_retries=_int("GALILEO_ANALYSIS_RETRIES", d.analysis_retries),
            session_days=_float("GALILEO_SESSION_DAYS", d.session_days),
            cookie_secure=_flag("GALILEO_COOKIE_SECURE", d.cookie_secure),
            passkey_rp_id=os.environ.get("GALILEO_PASSKEY_RP_ID") or d.passkey_rp_id,
            oidc_issuer=os.environ.get("GALILEO_OIDC_ISSUER") or d.oidc_issuer,
            oidc_client_id=os.environ.get("GALILEO_OIDC_CLIENT_ID") or d.oidc_client_id,
            oidc_client_secret=os.environ.get("GALILEO_OIDC_CLIENT_SECRET") or d.oidc_client_secret,
            oidc_name=os.environ.get("GALILEO_OIDC_NAME") or d.oidc_name,
            secret_key=os.environ.get("GALILEO_SECRET_KEY") or d.secret_key,
            smtp_host=os.environ.get("GALILEO_SMTP_HOST") or d.smtp_host,
            smtp_port=_int("GALILEO_SMTP_PORT", d.smtp_port),
            smtp_security=_choice("GALILEO_SMTP_SECURITY", d.smtp_security, ("starttls", "tls", "none")),
            smtp_username=os.environ.get("GALILEO_SMTP_USERNAME") or d.smtp_username,
            smtp_password=os.environ.get("GALILEO_SMTP_PASSWORD") or d.smtp_password,
            smtp_timeout_seconds=_float("GALILEO_SMTP_TIMEOUT_SECONDS", d.smtp_timeout_seconds),
            smtp_ca_file=os.environ.get("GALILEO_SMTP_CA_FILE") or d.smtp_ca_file,
            mail_from=os.environ.get("GALILEO_MAIL_FROM") or d.mail_from,
            mail_dir=os.environ.get("GALILEO_MAIL_DIR") or d.mail_dir,
            mail_digest_hour=_int("GALILEO_MAIL_DIGEST_HOUR", d.mail_digest_hour),
            vapid_private_key=os.environ.get("GALILEO_VAPID_PRIVATE_KEY") or d.vapid_private_key,
            vapid_subject=os.environ.get("GALILEO_VAPID_SUBJECT") or d.vapid_subject,
            push_ttl_seconds=_int("GALILEO_PUSH_TTL_SECONDS", d.push_ttl_seconds),
            encryption_keys=tuple(
                k.strip() for k in (os.environ.get("GALILEO_ENCRYPTION_KEYS") or "").split(",") if k.strip()
            ),
            encryption_key_file=os.environ.get("GALILEO_ENCRYPTION_KEY_FILE") or d.encryption_key_file,
            passkey_origins=tuple(
                o.strip() for o in (os.environ.get("GALILEO_PASSKEY_ORIGINS") or "").split(",") if o.strip()
            ),
            analysis_per_client=_int("GALILEO_ANALYSIS_PER_CLIENT", d.analysis_per_client),
            analysis_queue_limit=_int("GALILEO_ANALYSIS_QUEUE_LIMIT", d.analysis_queue_limit),
            max_streams_per_client=_int("GALILEO_MAX_STREAMS_PER_CLIENT", d.max_streams_per_client),
            rate_key_prefix=os.environ.get("GALILEO_RATE_KEY_PREFIX") or d.rate_key_prefix,
            max_streams=_int("GALILEO_MAX_STREAMS", d.max_streams),
            stream_reads=_int("GALILEO_STREAM_READS", d.stream_reads),
            header_timeout_seconds=_float("GALILEO_HEADER_TIMEOUT_SECONDS", d.header_timeout_seconds),
            body_timeout_seconds=_float("GALILEO_BODY_TIMEOUT_SECONDS", d.body_timeout_seconds),
            shutdown_grace_seconds=_int("GALILEO_SHUTDOWN_GRACE_SECONDS", d.shutdown_grace_seconds),
        )

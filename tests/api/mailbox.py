"""A local SMTP server for the tests (aiosmtpd on 127.0.0.1): it keeps every message it receives, parsed,
and refuses for good (550) every recipient whose address starts with `bounce`."""

from __future__ import annotations

import contextlib
import ssl
import threading
from collections.abc import Iterator
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, AuthResult, Envelope, LoginPassword, Session

from tests.api.helpers import free_port, wait_until


class Keeper:
    """The aiosmtpd handler: refuses `bounce…` recipients, keeps the rest's messages."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self.refused: list[str] = []
        self._lock = threading.Lock()

    async def handle_RCPT(
        self, server: SMTP, session: Session, envelope: Envelope, address: str, options: list[str]
    ) -> str:
        if address.startswith("bounce"):
            with self._lock:
                self.refused.append(address)
            return "550 5.1.1 no such mailbox here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        content: Any = envelope.original_content or envelope.content
        message = message_from_bytes(bytes(content), policy=policy.default)
        assert isinstance(message, EmailMessage)
        with self._lock:
            self.messages.append(message)
        return "250 OK queued"

    def to(self, address: str) -> list[EmailMessage]:
        with self._lock:
            return [m for m in self.messages if m["To"] == address]

    def wait_for(self, address: str, count: int, timeout: float = 10) -> list[EmailMessage]:
        wait_until(lambda: len(self.to(address)) >= count, timeout, f"{count} mail(s) to {address}")
        return self.to(address)


def mailbox(
    tls: ssl.SSLContext | None = None, login: tuple[str, str] | None = None
) -> Iterator[tuple[Keeper, int]]:
    """An SMTP server on a free loopback port for the duration of a test: (its keeper, its port). With
    `tls`, it requires STARTTLS under that context; with `login`, AUTH with that user and password."""
    keeper = Keeper()
    port = free_port()

    def authenticate(
        server: SMTP, session: Session, envelope: Envelope, mechanism: str, data: Any
    ) -> AuthResult:
        good = (
            login is not None
            and isinstance(data, LoginPassword)
            and (data.login, data.password) == (login[0].encode(), login[1].encode())
        )
        return AuthResult(success=good)

    options: dict[str, Any] = {}
    if tls is not None:
        options.update(tls_context=tls, require_starttls=True)
    if login is not None:
        options.update(authenticator=authenticate, auth_required=True, auth_require_tls=tls is not None)
    controller = Controller(keeper, hostname="127.0.0.1", port=port, **options)
    controller.start()
    try:
        yield keeper, port
    finally:
        controller.stop()


serving = contextlib.contextmanager(mailbox)  # `with serving(...) as (keeper, port):`

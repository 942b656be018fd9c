"""Helpers of the async-play tests (docs/async.md): a local webhook listener and a controllable clock."""

from __future__ import annotations

import json
import socket
import ssl
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tests.api.helpers import free_port


@dataclass
class Call:
    headers: dict[str, str]
    body: bytes

    @property
    def json(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.body)
        return data


@dataclass
class Listener:
    """An HTTP server on 127.0.0.1 (a free port) that records every POST. `statuses` are answered in
    turn (then 200); `hold` makes each answer wait on an event (a slow endpoint)."""

    statuses: list[int] = field(default_factory=list)
    hold: threading.Event | None = None
    calls: list[Call] = field(default_factory=list)
    port: int = field(default_factory=free_port)
    host: str = "127.0.0.1"  # or another loopback address ("127.0.0.2", "::1")
    tls: ssl.SSLContext | None = None  # serve https with this context (its certificate)
    location: str | None = None  # a Location header on every answer (a redirect)
    server_names: list[str | None] = field(default_factory=list)  # the TLS server names (SNI) asked for

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{'https' if self.tls else 'http'}://{host}:{self.port}/hook"

    def start(self) -> Listener:
        listener = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                body = self.rfile.read(length)
                if listener.hold is not None:
                    listener.hold.wait(10)
                status = listener.statuses.pop(0) if listener.statuses else 200
                listener.calls.append(Call({k.lower(): v for k, v in self.headers.items()}, body))
                self.send_response(status)
                if listener.location is not None:
                    self.send_header("Location", listener.location)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        class Server(ThreadingHTTPServer):
            address_family = socket.AF_INET6 if ":" in listener.host else socket.AF_INET

        self.server = Server((self.host, self.port), Handler)
        if self.tls is not None:
            self.tls.sni_callback = lambda sock, name, context: self.server_names.append(name)
            self.server.socket = self.tls.wrap_socket(self.server.socket, server_side=True)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        return self

    def stop(self) -> None:
        if self.hold is not None:
            self.hold.set()
        self.server.shutdown()
        self.server.server_close()


@dataclass
class Clock:
    """The service's time, moved by the test."""

    now: datetime = field(default_factory=lambda: datetime(2026, 3, 1, 12, 0, tzinfo=UTC))
    lock: threading.Lock = field(default_factory=threading.Lock)

    def __call__(self) -> datetime:
        with self.lock:
            return self.now

    def advance(self, **kw: float) -> datetime:
        with self.lock:
            self.now += timedelta(**kw)
            return self.now


async def public_resolver(host: str, port: int) -> list[str]:
    """A resolver (api/egress.py) that answers a public address for every name, for tests that register
    webhooks without delivering them (the machine may have no DNS)."""
    return ["93.184.215.14"]


def listening(**kw: Any) -> Iterator[Listener]:
    listener = Listener(**kw).start()
    try:
        yield listener
    finally:
        listener.stop()


H = dict[str, str]


def bearer(token: str) -> H:
    """The Authorization header of a seat or host token."""
    return {"Authorization": f"Bearer {token}"}

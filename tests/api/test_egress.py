"""Webhook egress fails closed (HOOK-1, api/egress.py, issue 26 item 2): every spelling of a loopback,
private, metadata or translated target is refused at registration (a 422 problem) and at delivery (a
local listener receives nothing), with the default settings; a DNS answer that changes between the
check and the connection (rebinding) never reaches loopback, since the connection goes to the checked
address. Deliveries are driven by the test (`send_due`); the only traffic is to loopback."""

from __future__ import annotations

import asyncio
import ipaddress
import ssl
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import trustme
from fastapi.testclient import TestClient

from api import egress, notify
from api.app import create_app
from api.settings import Settings
from api.tables import Hook
from tests.api.async_helpers import Listener, bearer
from tests.api.helpers import runtime_of

# Every form that leads to the listener's machine: loopback, "this host" and IPv4-in-IPv6, in decimal,
# hex, octal and short IPv4, with zone IDs, trailing dots, userinfo and other schemes.
LOOPBACK_FORMS = [
    "http://127.0.0.1:{port}/hook",
    "http://localhost:{port}/hook",
    "http://LOCALHOST:{port}/hook",
    "http://2130706433:{port}/hook",
    "http://0x7f000001:{port}/hook",
    "http://0x7f.0.0.1:{port}/hook",
    "http://0177.0.0.1:{port}/hook",
    "http://017700000001:{port}/hook",
    "http://127.1:{port}/hook",
    "http://127.000.000.001:{port}/hook",
    "http://0.0.0.0:{port}/hook",
    "http://0:{port}/hook",
    "http://[::1]:{port}/hook",
    "http://[::]:{port}/hook",
    "http://[0:0:0:0:0:0:0:1]:{port}/hook",
    "http://[::ffff:127.0.0.1]:{port}/hook",
    "http://[::ffff:7f00:1]:{port}/hook",
    "http://[::ffff:0:7f00:1]:{port}/hook",
    "http://[0:0:0:0:0:ffff:127.0.0.1]:{port}/hook",
    "http://[::127.0.0.1]:{port}/hook",
    "http://[64:ff9b::7f00:1]:{port}/hook",
    "http://[2002:7f00:1::]:{port}/hook",
    "http://[::ffff:127.0.0.1%25lo]:{port}/hook",
    "http://[::1%25lo]:{port}/hook",
    "http://[fe80::1%25lo]:{port}/hook",
    "http://127.0.0.1.:{port}/hook",
    "http://LOCALHOST.:{port}/hook",
    "http://localhost.localdomain:{port}/hook",
    "http://user:pass@127.0.0.1:{port}/hook",
    "http://127.0.0.1:{port}@example.org/hook",
    "http://127.0.0.1:{port}\\@example.org/hook",
    "HTTP://127.0.0.1:{port}/hook",
    "ftp://127.0.0.1:{port}/hook",
]
# Private, shared, metadata and other special ranges (refused before any connection: never tried).
OTHER_FORMS = [
    "http://10.0.0.1/",
    "http://172.16.0.1/",
    "http://192.168.1.1/",
    "http://100.64.0.1/",
    "http://100.100.100.200/latest/meta-data/",
    "http://169.254.169.254/latest/meta-data/",
    "http://192.0.0.192/",
    "http://192.0.0.9/",
    "http://168.63.129.16/machine",
    "http://198.18.0.1/",
    "http://192.88.99.1/",
    "http://224.0.0.1/",
    "http://255.255.255.255/",
    "http://[fd00:ec2::254]/",
    "http://[fe80::1]/",
    "http://[fec0::1]/",
    "http://[ff02::1]/",
    "http://[2001::1]/",
    "http://[2002:a9fe:a9fe::]/",
    "http://[64:ff9b::a9fe:a9fe]/",
    "http://[::ffff:a9fe:a9fe]/",
    "https://example.org:0/",
    "file:///etc/passwd",
    "gopher://example.org/",
]


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    # The default egress settings (no GALILEO_WEBHOOK_ALLOW_NETWORKS); deliveries driven by the test.
    assert settings.webhook_allow_networks == ()
    # (A refused attempt is retried an hour later: each delivery round below sees only its new row.)
    config = replace(settings, clocks=False, webhook_backoff_seconds=3600.0)
    with TestClient(create_app(config)) as test_client:
        yield test_client


def _game(client: TestClient, **seat: Any) -> dict[str, Any]:
    seats = [{"name": "Ada", "character": "galileo", **seat}, {"name": "Ben", "character": "kepler"}]
    response = client.post("/games", json={"seats": seats, "first_seat": 0})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def _log(client: TestClient, created: dict[str, Any]) -> list[dict[str, Any]]:
    answer = client.get(f"/games/{created['game_id']}/notifications", headers=bearer(created["host_token"]))
    deliveries: list[dict[str, Any]] = answer.json()["deliveries"]
    return deliveries


def _deliver(client: TestClient) -> int:
    sent: int = client.portal.call(runtime_of(client).notifier.send_due, True)  # type: ignore[union-attr]
    return sent


def _refused_at_registration(client: TestClient, url: str) -> None:
    at_creation = client.post(
        "/games", json={"seats": [{"name": "Ada", "webhook": url}, {"name": "Ben"}], "first_seat": 0}
    )
    assert at_creation.status_code == 422, (url, at_creation.text)
    assert at_creation.headers["content-type"].startswith("application/problem+json")
    problem = at_creation.json()
    assert problem["code"] == "invalid-webhook" and problem["rule_id"] == "HOOK-1", (url, problem)
    assert problem["rule_url"].endswith("/rules/HOOK-1")
    created = _game(client)
    seat = bearer(created["seats"][0]["token"])
    later = client.put(f"/games/{created['game_id']}/webhook", headers=seat, json={"url": url})
    assert later.status_code == 422 and later.json()["code"] == "invalid-webhook", (url, later.text)
    assert runtime_of(client).tables.hooks(created["game_id"]) == {}  # nothing registered


def test_HOOK_1_every_loopback_form_is_refused_at_registration_and_at_delivery(client: TestClient) -> None:
    v4 = Listener().start()
    v6 = Listener(host="::1", port=v4.port).start()  # the same port on IPv6's loopback
    try:
        runtime = runtime_of(client)
        for form in LOOPBACK_FORMS:
            url = form.format(port=v4.port)
            _refused_at_registration(client, url)
            # At delivery too: a registration made before this release (or one whose name now points
            # elsewhere) is checked again before each attempt.
            created = _game(client)
            game_id = created["game_id"]
            hook = Hook(game_id, 0, url, notify.new_secret(), uuid.uuid4().hex)
            runtime.tables.set_hook(hook, runtime.clock())
            client.portal.call(notify.queue_present, runtime, game_id)  # type: ignore[union-attr]
            assert _deliver(client) == 1
            [row] = _log(client, created)
            assert (row["status"], row["attempts"], row["result"]) == ("pending", 1, "refused"), (url, row)
        assert v4.calls == [] and v6.calls == []
        # The listeners do receive what is allowed (the refusals above are the check's, not a dead port).
        runtime.settings = replace(runtime.settings, webhook_allow_networks=("127.0.0.1/32",))
        created = _game(client, webhook=v4.url)
        _deliver(client)
        assert len(v4.calls) == 1 and _log(client, created)[0]["result"] == "2xx"
    finally:
        v4.stop()
        v6.stop()


@pytest.mark.parametrize("url", OTHER_FORMS)
def test_HOOK_1_private_metadata_and_translated_targets_are_refused_at_registration(
    client: TestClient, url: str
) -> None:
    _refused_at_registration(client, url)


def _check(url: str, answers: Sequence[str] | Exception, allowed: Sequence[str] = ()) -> egress.Target:
    async def resolve(host: str, port: int) -> Sequence[str]:
        if isinstance(answers, Exception):
            raise answers
        return answers

    return asyncio.run(egress.check(url, egress.allowed_networks(allowed), resolve, 1.0))


@pytest.mark.parametrize(
    "answers",
    [
        ["93.184.215.14", "127.0.0.1"],  # every address must be public, not just the first
        ["10.0.0.7"],
        ["100.100.100.200"],
        ["::ffff:127.0.0.1"],
        ["fe80::1%lo"],
        ["not an address"],
        [],
        OSError("lookup failed"),
        TimeoutError(),
    ],
)
def test_HOOK_1_a_name_is_refused_unless_every_answer_is_public(answers: Sequence[str] | Exception) -> None:
    with pytest.raises(egress.Refused):
        _check("https://hooks.example.org/x", answers)


def test_HOOK_1_a_lookup_that_hangs_refuses() -> None:
    async def hang(host: str, port: int) -> Sequence[str]:
        await asyncio.sleep(30)
        return ["93.184.215.14"]

    with pytest.raises(egress.Refused):
        asyncio.run(egress.check("https://hooks.example.org/x", (), hang, 0.05))


def test_HOOK_1_public_answers_are_kept_in_order_for_the_connection() -> None:
    target = _check("https://Hooks.Example.org:8443/x", ["2606:4700::1111", "93.184.215.14", "93.184.215.14"])
    assert target.host == "hooks.example.org" and not target.literal
    assert target.addresses == ("2606:4700::1111", "93.184.215.14")


def test_HOOK_1_the_operator_allow_list_lifts_the_range_refusal_only() -> None:
    loopback = ("127.0.0.0/8", "::1/128")
    assert _check("http://127.0.0.1:9/h", [], loopback).addresses == ("127.0.0.1",)
    assert _check("http://[::1]:9/h", [], loopback).addresses == ("::1",)
    assert _check("http://receiver:9/h", ["127.0.0.5"], loopback).addresses == ("127.0.0.5",)
    for url in ("http://[::ffff:127.0.0.1]:9/h", "http://0.0.0.0:9/h", "http://[::1%25lo]:9/h", "http://127.1/"):
        with pytest.raises(egress.Refused):
            _check(url, [], ("0.0.0.0/0", "::/0"))
    with pytest.raises(egress.Refused):
        _check("http://receiver:9/h", ["127.0.0.5", "10.0.0.1"], loopback)


def test_HOOK_1_every_refused_range_is_refused_even_where_python_calls_it_global() -> None:
    for network in egress.REFUSED + egress.TRANSLATED + egress.ALWAYS_REFUSED:
        first = network.network_address + (1 if network.num_addresses > 1 else 0)
        assert egress.refusal(ipaddress.ip_address(first)) is not None, network
    assert egress.refusal(ipaddress.ip_address("93.184.215.14")) is None


def test_HOOK_1_dns_rebinding_between_check_and_connect_never_reaches_loopback(settings: Settings) -> None:
    """`localhost` "resolves" to an allowed receiver (127.0.0.2) for the registration's and the delivery's
    checks, then to 127.0.0.1 (a victim on the same port). The delivery goes to the address it checked;
    a connection that looked the name up again (the system says 127.0.0.1) would reach the victim."""
    allowed = Listener(host="127.0.0.2").start()
    victim = Listener(port=allowed.port).start()
    answers = iter([["127.0.0.2"], ["127.0.0.2"]])
    looked_up: list[str] = []

    async def rebinding(host: str, port: int) -> Sequence[str]:
        looked_up.append(host)
        return next(answers, ["127.0.0.1"])

    config = replace(settings, clocks=False, webhook_allow_networks=("127.0.0.2/32",))
    try:
        with TestClient(create_app(config)) as client:
            runtime_of(client).resolve = rebinding
            url = f"http://localhost:{allowed.port}/hook"
            created = _game(client, webhook=url)  # the registration's check: 127.0.0.2
            assert _deliver(client) == 1  # the delivery's check: 127.0.0.2; then the name rebinds
            assert len(allowed.calls) == 1 and victim.calls == []
            assert allowed.calls[0].headers["host"] == f"localhost:{allowed.port}"
            assert looked_up == ["localhost", "localhost"]  # once per check, none by the connection
            # The next notification's check sees 127.0.0.1: refused, nothing sent anywhere.
            cancelled = client.post(
                f"/games/{created['game_id']}/host/cancel",
                headers=bearer(created["host_token"]),
                json={"command_id": "c"},
            )
            assert cancelled.status_code == 200
            assert _deliver(client) == 1
            assert len(allowed.calls) == 1 and victim.calls == []
            latest = _log(client, created)[0]
            assert (latest["kind"], latest["result"]) == ("game-cancelled", "refused")
    finally:
        allowed.stop()
        victim.stop()


def test_HOOK_1_https_goes_to_the_checked_address_with_the_hosts_name_and_certificate(
    settings: Settings, tmp_path: Path
) -> None:
    """The pinned connection still speaks TLS to the URL's host: SNI and the certificate check use the
    name, while the connection goes to the checked address (the name is never looked up again)."""
    ca = trustme.CA()
    server_context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert("hooks.galileo.test").configure_cert(server_context)
    listener = Listener(host="127.0.0.2", tls=server_context).start()
    ca_file = tmp_path / "ca.pem"
    ca.cert_pem.write_to_path(str(ca_file))
    config = replace(
        settings, clocks=False, webhook_allow_networks=("127.0.0.2/32",), webhook_ca_file=str(ca_file)
    )

    async def resolve(host: str, port: int) -> Sequence[str]:
        return ["127.0.0.2"] if host == "hooks.galileo.test" else []

    try:
        with TestClient(create_app(config)) as client:
            runtime_of(client).resolve = resolve
            created = _game(client, webhook=f"https://hooks.galileo.test:{listener.port}/hook")
            _deliver(client)
            [call] = listener.calls
            assert call.headers["host"] == f"hooks.galileo.test:{listener.port}"
            assert listener.server_names == ["hooks.galileo.test"]
            assert _log(client, created)[0]["result"] == "2xx"
            # A certificate for another name is refused (the check is the name's, not the address's).
            other = _game(client, webhook=f"https://127.0.0.2:{listener.port}/hook")
            _deliver(client)
            assert len(listener.calls) == 1 and _log(client, other)[0]["result"] == "no-response"
    finally:
        listener.stop()

"""Where a webhook may point, and how the service reaches it (docs/async.md, "Where a webhook may
point"): egress that fails closed.

A webhook URL is checked when it is registered and again before every delivery attempt:

- its form (`parse`): `http` or `https`, no userinfo, no percent sign in the authority (zone IDs
  such as `[fe80::1%25lo]`), printable ASCII only, a host name of letters, digits and hyphens without a
  trailing dot, an IPv4 address only as four canonical decimal numbers (no `2130706433`, `0x7f.1`,
  `0177.0.0.1`, `127.1`), an IPv6 address only in brackets;
- where it leads (`check`): the host is resolved once, and every address it resolves to must be
  globally routable (`ipaddress`'s `is_global`) and outside the ranges that `is_global` lets through but
  that reach the service's own network or a cloud's metadata service (`REFUSED`); IPv4 addresses written
  as IPv6 (mapped, compatible, NAT64, 6to4, Teredo), unspecified, multicast and broadcast addresses are
  refused whatever the settings. A lookup that fails, times out or answers nothing refuses.

The delivery then connects to a checked address itself (`post`): the request goes to the address, with
the URL's host in `Host` and in TLS's server name (so the certificate is checked against the host), and
is never redirected. A DNS answer that changes between the check and the connection (rebinding) is
never asked for: the connection makes no lookup of its own.

`GALILEO_WEBHOOK_ALLOW_NETWORKS` (default: none) lists networks an operator allows besides the global
addresses (a receiver on a private network, or the tests' listener on loopback); it does not lift the
refusals of form nor those of translated, unspecified, multicast and broadcast addresses.
"""

from __future__ import annotations

import asyncio
import ipaddress
import re
import socket
import ssl
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

import httpx

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network
# A resolver: the addresses (as text) that a host name and port lead to. The service's is the system's
# (`system_resolve`); tests inject one whose answers change (DNS rebinding).
Resolver = Callable[[str, int], Awaitable[Sequence[str]]]


def _networks(*cidrs: str) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(c) for c in cidrs)


# Ranges refused besides what `is_global` refuses: `is_global` (Python 3.11) calls some of them global.
REFUSED = _networks(
    "0.0.0.0/8",  # "this network"
    "100.64.0.0/10",  # shared address space (carrier NAT; 100.100.100.200 is Alibaba's metadata)
    "169.254.0.0/16",  # link-local (169.254.169.254: the metadata service of most clouds)
    "192.0.0.0/24",  # IETF protocol assignments (192.0.0.192: Oracle's metadata)
    "192.88.99.0/24",  # 6to4 relay anycast
    "198.18.0.0/15",  # benchmarking
    "168.63.129.16/32",  # Azure's host (wire server)
    "fec0::/10",  # site-local (deprecated)
    "fc00::/7",  # unique local (fd00:ec2::254: AWS's metadata over IPv6)
    "fe80::/10",  # link-local
    "100::/64",  # discard
    "2001:db8::/32",  # documentation
)
# IPv4 addresses written as IPv6: refused whatever the settings (write the IPv4 address itself).
TRANSLATED = _networks(
    "::ffff:0:0/96",  # IPv4-mapped
    "::ffff:0:0:0/96",  # IPv4-translated (SIIT)
    "::/96",  # IPv4-compatible (deprecated); also :: and ::1
    "64:ff9b::/96",  # NAT64
    "64:ff9b:1::/48",  # local NAT64
    "2002::/16",  # 6to4
    "2001::/32",  # Teredo
)
ALWAYS_REFUSED = _networks(
    "224.0.0.0/4",  # multicast
    "240.0.0.0/4",  # reserved, and 255.255.255.255 (broadcast)
    "ff00::/8",  # multicast
)
SCHEMES = ("http", "https")
_LABEL = re.compile(r"^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$")
_NUMERIC = re.compile(r"^(?:0x[0-9a-f]*|[0-9]+)$")  # a label that makes the host an IPv4 address
MAX_ADDRESSES = 3  # addresses tried in turn when a connection cannot be made


class Refused(Exception):
    """A webhook URL the service does not send to; the message is for its registrant."""


@dataclass(frozen=True, slots=True)
class Target:
    """A checked webhook: its URL, its host as written and the checked addresses to connect to."""

    url: str
    host: str
    addresses: tuple[str, ...]
    literal: bool  # the host is an IP address


def parse(url: str) -> tuple[str, str, int]:
    """The scheme, host and port of a webhook URL of an allowed form; raises Refused."""
    if any(not 0x21 <= ord(ch) <= 0x7E for ch in url) or "\\" in url:
        raise Refused("a webhook URL is printable ASCII, no spaces or backslashes (IDN hosts in xn-- form)")
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme not in SCHEMES:
        raise Refused("a webhook is an http:// or https:// URL")
    netloc = parts.netloc
    if not netloc:
        raise Refused("a webhook URL has a host")
    if "@" in netloc:
        raise Refused("a webhook URL carries no credentials (verify the signature instead)")
    if "%" in netloc:
        raise Refused("a webhook URL's host has no zone ID and no percent-encoding")
    host = (parts.hostname or "").lower()
    try:
        port = parts.port
    except ValueError:
        raise Refused("a webhook URL's port is a number from 1 to 65535") from None
    if port == 0:
        raise Refused("a webhook URL's port is a number from 1 to 65535")
    if not host:
        raise Refused("a webhook URL has a host")
    if netloc.startswith("["):
        try:
            ipaddress.IPv6Address(host)
        except ValueError:
            raise Refused("a webhook URL's bracketed host is an IPv6 address") from None
    else:
        if host.endswith("."):
            raise Refused("a webhook URL's host has no trailing dot")
        labels = host.split(".")
        if _NUMERIC.match(labels[-1]):
            try:
                canonical = str(ipaddress.IPv4Address(host)) == host
            except ValueError:
                canonical = False
            if not canonical:
                raise Refused("an IPv4 address in a webhook URL is four decimal numbers (a.b.c.d)")
        elif not all(_LABEL.match(label) for label in labels):
            raise Refused("a webhook URL's host name is letters, digits, hyphens, underscores and dots")
    try:
        parsed = httpx.URL(url)
    except httpx.InvalidURL:
        raise Refused("the webhook URL cannot be parsed") from None
    if parsed.host != host or parsed.scheme != scheme:  # the sender reads the URL as the check did
        raise Refused("the webhook URL cannot be parsed")
    return scheme, host, port or (443 if scheme == "https" else 80)


def refusal(address: Address, allowed: Sequence[Network] = ()) -> str | None:
    """Why the service does not connect to `address` (None: it may), `allowed` being the operator's
    networks (`GALILEO_WEBHOOK_ALLOW_NETWORKS`)."""
    if isinstance(address, ipaddress.IPv6Address) and address.scope_id is not None:
        return "a scoped (zone ID) address"
    if any(address in net for net in TRANSLATED) and not (address.version == 6 and address.is_loopback):
        return "an IPv4 address written as IPv6"
    if address.is_unspecified or any(address in net for net in ALWAYS_REFUSED):
        return "an unspecified, multicast or broadcast address"
    if any(address in net for net in allowed):
        return None
    if not address.is_global or any(address in net for net in REFUSED):
        return "not a public (globally routable) address"
    return None


def allowed_networks(cidrs: Sequence[str]) -> tuple[Network, ...]:
    """The networks of `GALILEO_WEBHOOK_ALLOW_NETWORKS` (raises ValueError on a bad one)."""
    return tuple(ipaddress.ip_network(c.strip(), strict=False) for c in cidrs if c.strip())


async def system_resolve(host: str, port: int) -> list[str]:
    """The system resolver's addresses for `host` (TCP), in its order of preference."""
    infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [str(info[4][0]) for info in infos]


NOT_PUBLIC = "the webhook's host must resolve, and only to public (globally routable) addresses"


async def check(url: str, allowed: Sequence[Network], resolve: Resolver, timeout: float) -> Target:
    """The checked target of `url`: its form allowed, its host resolved once (within `timeout`
    seconds) and every address allowed. Raises Refused (any lookup error included: fail closed)."""
    _, host, port = parse(url)
    try:
        literal: Address | None = ipaddress.ip_address(host)
    except ValueError:
        literal = None
    if literal is not None:
        reason = refusal(literal, allowed)
        if reason:
            raise Refused(f"the webhook's host is {reason}")
        return Target(url, host, (str(literal),), True)
    try:
        answers = list(await asyncio.wait_for(resolve(host, port), timeout))
    except Exception:  # any failure of the lookup refuses (fail closed)
        raise Refused(NOT_PUBLIC) from None
    addresses: list[str] = []
    for text in answers:
        try:
            address = ipaddress.ip_address(text)
        except ValueError:
            raise Refused(NOT_PUBLIC) from None
        if refusal(address, allowed):
            raise Refused(NOT_PUBLIC)
        if str(address) not in addresses:
            addresses.append(str(address))
    if not addresses:
        raise Refused(NOT_PUBLIC)
    return Target(url, host, tuple(addresses), False)


def client(timeout: float, ca_file: str | None = None) -> httpx.AsyncClient:
    """The delivery client: no redirects, no proxies from the environment, no pooled connections (a
    connection is made to one checked address for one host's request and closed); certificates are
    checked against the system's CAs, or those of `ca_file` (`GALILEO_WEBHOOK_CA_FILE`)."""
    verify: ssl.SSLContext | bool = True
    if ca_file:
        verify = ssl.create_default_context(cafile=ca_file)
    return httpx.AsyncClient(
        timeout=timeout,
        verify=verify,
        follow_redirects=False,
        trust_env=False,
        limits=httpx.Limits(max_keepalive_connections=0),
    )


async def post(http: httpx.AsyncClient, target: Target, body: bytes, headers: dict[str, str]) -> int:
    """POST `body` to the checked `target`, connecting to its checked addresses only (in turn, while a
    connection cannot be made); the answer's status code (its body is not read)."""
    url = httpx.URL(target.url)
    sent = {**headers, "Host": url.netloc.decode("ascii")}
    extensions = {} if target.literal or url.scheme != "https" else {"sni_hostname": target.host}
    last: httpx.ConnectError | None = None
    for address in target.addresses[:MAX_ADDRESSES]:
        pinned = url.copy_with(host=address)
        try:
            async with http.stream(
                "POST", pinned, content=body, headers=sent, extensions=extensions
            ) as response:
                return response.status_code
        except httpx.ConnectError as error:
            last = error
    assert last is not None
    raise last

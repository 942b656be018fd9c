"""Sign-in with OpenID Connect (issue 29, docs/accounts.md) against a local provider (`oidc-provider-mock`,
on loopback in a thread): the authorization code flow with PKCE S256 signs in and creates the account once;
a refused consent and a bad state end without a session or an account; without a provider configured the
routes answer 404. The browser's part (following redirects, posting the provider's form) is done with
httpx, as a browser would."""

from __future__ import annotations

import base64
import hashlib
import json
import sqlite3
from collections.abc import Iterator
from dataclasses import replace
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from fastapi.testclient import TestClient
from oidc_provider_mock import User, run_server_in_thread

from api import oidc
from api.app import create_app
from api.sessions import COOKIE
from api.settings import Settings

ORIGIN = "https://testserver"


@pytest.fixture(scope="module")
def provider() -> Iterator[str]:
    users = [User(sub="ada-sub", claims={"name": "Ada Lovelace", "email": "ada@example.org"})]
    with run_server_in_thread(port=0, user_claims=users) as server:
        yield f"http://127.0.0.1:{server.server_port}"


@pytest.fixture
def client(settings: Settings, provider: str) -> Iterator[TestClient]:
    configured = replace(
        settings,
        clocks=False,
        bots=False,
        public_url=ORIGIN,
        oidc_issuer=provider,
        oidc_client_id="galileo",
        oidc_client_secret="not-a-secret-of-a-real-provider",
        oidc_name="Test provider",
    )
    with TestClient(create_app(configured), base_url=ORIGIN) as test_client:
        yield test_client


def begin(client: TestClient) -> tuple[str, dict[str, str]]:
    """Our redirect to the provider: its URL and query."""
    response = client.get("/session/oidc/login", follow_redirects=False)
    assert response.status_code == 302, response.text
    location = response.headers["location"]
    return location, {k: v[0] for k, v in parse_qs(urlsplit(location).query).items()}


def consent(location: str, form: dict[str, str]) -> dict[str, str]:
    """The person's answer on the provider's page: the provider's redirect back to us, as a query."""
    answer = httpx.post(location, data=form, follow_redirects=False)
    assert answer.status_code in (302, 303), answer.text
    back = answer.headers["location"]
    assert back.startswith(f"{ORIGIN}/session/oidc/callback?")
    return {k: v[0] for k, v in parse_qs(urlsplit(back).query).items()}


def accounts(settings: Settings) -> list[tuple[Any, ...]]:
    with sqlite3.connect(settings.database_url.removeprefix("sqlite:///")) as db:
        return list(db.execute("SELECT account_id, name FROM galileo_accounts"))


def test_signs_in_with_pkce_s256_and_finds_the_account_again(client: TestClient, settings: Settings) -> None:
    assert client.get("/session").json()["oidc"] == "Test provider"
    location, query = begin(client)
    assert query["response_type"] == "code" and query["code_challenge_method"] == "S256"
    assert len(query["code_challenge"]) == 43 and query["state"] and query["nonce"]
    assert query["redirect_uri"] == f"{ORIGIN}/session/oidc/callback" and "openid" in query["scope"]
    # The PKCE verifier and the nonce stay on the server; the browser's cookie only marks the state.
    with sqlite3.connect(settings.database_url.removeprefix("sqlite:///")) as db:
        (kept,) = [json.loads(r[0])["data"] for r in db.execute("SELECT challenge FROM galileo_ceremonies")]
    digest = hashlib.sha256(kept["code_verifier"].encode()).digest()
    assert base64.urlsafe_b64encode(digest).rstrip(b"=").decode() == query["code_challenge"]
    assert kept["nonce"] == query["nonce"]
    marker = client.cookies[oidc.COOKIE].split(".")[0]
    assert "code_verifier" not in base64.b64decode(marker + "=" * (-len(marker) % 4)).decode()
    back = consent(location, {"sub": "ada-sub"})
    done = client.get("/session/oidc/callback", params=back, follow_redirects=False)
    assert done.status_code == 303 and done.headers["location"] == "/account"
    account = client.get("/me").json()
    assert account["name"] == "Ada Lovelace" and account["passkeys"] == 0
    with sqlite3.connect(settings.database_url.removeprefix("sqlite:///")) as db:
        dump = "\n".join(db.iterdump())
    assert "ada@example.org" not in dump  # no email kept
    # The same answer again (a replayed callback) is refused: its state was used.
    replayed = client.get("/session/oidc/callback", params=back, follow_redirects=False)
    assert replayed.headers["location"] == "/account?signin_error=bad-state"
    # Signing in again (after signing out) finds the same account.
    client.cookies.delete(COOKIE)
    location, _ = begin(client)
    done = client.get(
        "/session/oidc/callback", params=consent(location, {"sub": "ada-sub"}), follow_redirects=False
    )
    assert done.headers["location"] == "/account"
    assert client.get("/me").json()["account_id"] == account["account_id"]
    assert len(accounts(settings)) == 1


def test_a_refused_consent_signs_nobody_in(client: TestClient, settings: Settings) -> None:
    location, _ = begin(client)
    back = consent(location, {"sub": "ada-sub", "action": "deny"})
    assert back["error"] == "access_denied"
    done = client.get("/session/oidc/callback", params=back, follow_redirects=False)
    assert done.status_code == 303 and done.headers["location"] == "/account?signin_error=consent-refused"
    assert COOKIE not in client.cookies and accounts(settings) == []
    assert client.get("/session").json()["account"] is None


def test_a_bad_state_signs_nobody_in(client: TestClient, settings: Settings) -> None:
    location, _ = begin(client)
    back = consent(location, {"sub": "ada-sub"})
    forged = {**back, "state": "not-the-state-we-sent"}
    done = client.get("/session/oidc/callback", params=forged, follow_redirects=False)
    assert done.headers["location"] == "/account?signin_error=bad-state"
    # Another browser (without this one's state cookie) bringing back the right answer: refused too.
    location, _ = begin(client)
    back = consent(location, {"sub": "ada-sub"})
    client.cookies.delete(oidc.COOKIE)
    stolen = client.get("/session/oidc/callback", params=back, follow_redirects=False)
    assert stolen.headers["location"] == "/account?signin_error=bad-state"
    assert COOKIE not in client.cookies and accounts(settings) == []


def test_without_a_provider_the_routes_answer_404(settings: Settings) -> None:
    with TestClient(create_app(replace(settings, clocks=False, bots=False)), base_url=ORIGIN) as plain:
        assert plain.get("/session").json() == {"account": None, "oidc": None}
        for path in ("/session/oidc/login", "/session/oidc/callback"):
            missing = plain.get(path, follow_redirects=False)
            assert missing.status_code == 404 and missing.json()["code"] == "oidc-not-configured"


def test_deleting_the_account_removes_the_provider_link(client: TestClient, settings: Settings) -> None:
    location, _ = begin(client)
    client.get("/session/oidc/callback", params=consent(location, {"sub": "ada-sub"}), follow_redirects=False)
    first = client.get("/me").json()
    assert client.delete("/me", headers={"X-CSRF-Token": first["csrf_token"]}).status_code == 204
    with sqlite3.connect(settings.database_url.removeprefix("sqlite:///")) as db:
        assert list(db.execute("SELECT * FROM galileo_identities")) == []
    location, _ = begin(client)
    client.get("/session/oidc/callback", params=consent(location, {"sub": "ada-sub"}), follow_redirects=False)
    assert client.get("/me").json()["account_id"] != first["account_id"]  # a new account, nothing kept

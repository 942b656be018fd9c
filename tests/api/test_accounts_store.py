"""The account store (api/accounts.py) on both databases: accounts with their passkeys, sessions that
expire, WebAuthn challenges answered once, the claims index; pseudonyms per game (ACCT-1)."""

from __future__ import annotations

import secrets
import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from api.accounts import AccountStore, Ceremony, Passkey, csrf_token, pseudonym, session_hash
from api.crypto import Keyring
from tests.conftest import TEST_ENCRYPTION_KEY

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
KEYRING = Keyring.of([TEST_ENCRYPTION_KEY], "the tests' key")


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[AccountStore]:
    if request.param == "sqlite":
        opened = AccountStore(f"sqlite:///{tmp_path}/accounts.db", KEYRING)
        yield opened
        opened.close()
        return
    import psycopg

    base: str = request.getfixturevalue("postgres_url")
    schema = f"accounts_{secrets.token_hex(4)}"  # a schema of this test's own on the shared server
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    opened = AccountStore(f"{base}?schema={schema}", KEYRING)
    try:
        yield opened
    finally:
        opened.close()
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


def passkey(credential_id: str) -> Passkey:
    return Passkey(credential_id, "", "pQECAyYgASFYIA", 0, "internal")


def test_an_account_its_passkeys_and_its_sessions(store: AccountStore) -> None:
    account = store.register("Ada", "handle-1", passkey("cred-1"), NOW)
    store.add_passkey(account.account_id, passkey("cred-2"), NOW)
    assert store.account(account.account_id) == account
    assert store.passkeys_of(account.account_id) == ["cred-1", "cred-2"]
    found = store.passkey("cred-2")
    assert found is not None and found.account_id == account.account_id and found.sign_count == 0
    store.passkey_used("cred-2", 7, NOW)
    assert store.passkey("cred-2") == Passkey("cred-2", account.account_id, "pQECAyYgASFYIA", 7, "internal")
    assert store.passkey("cred-3") is None
    with pytest.raises(Exception, match=r"(?i)unique|duplicate"):  # a user handle is one account's
        store.register("Eve", "handle-1", passkey("cred-9"), NOW)
    token = "gs_" + secrets.token_urlsafe(32)
    store.open_session(account.account_id, session_hash(token), NOW, NOW + timedelta(days=30))
    assert store.session(session_hash(token), NOW + timedelta(days=29)) == account
    assert store.session(session_hash(token), NOW + timedelta(days=30)) is None  # expired
    assert store.session(session_hash("gs_other"), NOW) is None
    store.close_session(session_hash(token))
    assert store.session(session_hash(token), NOW) is None
    assert csrf_token(token) != csrf_token("gs_other") and len(csrf_token(token)) == 64


def test_a_challenge_is_taken_once_before_it_expires(store: AccountStore) -> None:
    def ceremony(ceremony_id: str) -> Ceremony:
        return Ceremony(ceremony_id, "sign-in", "Y2hhbGxlbmdl", None, None, None)

    store.begin(ceremony("wc_1"), NOW, NOW + timedelta(minutes=5))
    assert store.take("wc_1", "register", NOW) is None  # another kind: refused, and gone
    store.begin(ceremony("wc_2"), NOW, NOW + timedelta(minutes=5))
    assert store.take("wc_2", "sign-in", NOW + timedelta(minutes=1)) is not None
    assert store.take("wc_2", "sign-in", NOW + timedelta(minutes=1)) is None
    store.begin(ceremony("wc_3"), NOW, NOW + timedelta(minutes=5))
    assert store.take("wc_3", "sign-in", NOW + timedelta(minutes=5)) is None


def test_ACCT_1_the_claims_index_and_per_game_pseudonyms(store: AccountStore) -> None:
    ada = store.register("Ada", "handle-a", passkey("cred-a"), NOW)
    eve = store.register("Eve", "handle-e", passkey("cred-e"), NOW)
    store.record_claim("game-1", 0, ada.account_id, NOW)
    store.record_claim("game-2", 1, ada.account_id, NOW + timedelta(seconds=1))
    store.record_claim("game-1", 0, eve.account_id, NOW + timedelta(seconds=2))  # handed over, re-claimed
    assert store.claims_of(ada.account_id) == [("game-2", 1)]
    assert store.claims_of(eve.account_id) == [("game-1", 0)]
    assert ada.pseudonym("game-1") == pseudonym(ada.pseudonym_key, "game-1")
    assert ada.pseudonym("game-1") != ada.pseudonym("game-2") != eve.pseudonym("game-2")
    assert ada.name not in ada.pseudonym("game-1") and ada.account_id not in ada.pseudonym("game-1")
    # The key is stored sealed, bound to its account (api/crypto.py): read back, it makes the same pseudonyms.
    [[stored]] = store.db.query(
        "SELECT pseudonym_key FROM galileo_accounts WHERE account_id = ?", (ada.account_id,)
    )
    assert stored.startswith("gs1:") and ada.pseudonym_key not in stored
    again = store.account(ada.account_id)
    assert again is not None and again.pseudonym("game-1") == ada.pseudonym("game-1")
    store.db.execute(  # Eve's row given Ada's sealed key: it does not open there
        "UPDATE galileo_accounts SET pseudonym_key = ? WHERE account_id = ?", (stored, eve.account_id)
    )
    assert store.account(eve.account_id) is None


def test_pseudonym_keys_of_an_older_release_are_sealed_at_start_up(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/accounts.db"
    AccountStore(url, KEYRING).close()
    key = secrets.token_hex(32)
    with sqlite3.connect(tmp_path / "accounts.db") as db:
        db.execute("INSERT INTO galileo_accounts VALUES ('acct_old', 'Old', 'handle-o', ?, 't')", (key,))
    store = AccountStore(url, KEYRING)
    try:
        [[stored]] = store.db.query("SELECT pseudonym_key FROM galileo_accounts")
        assert stored.startswith("gs1:") and key not in stored
        old = store.account("acct_old")
        assert old is not None and old.pseudonym_key == key
    finally:
        store.close()

"""Secrets at rest (api/crypto.py): webhook secrets are sealed in galileo_hooks, bound to their row, under the
server's keys; plain rows of older releases are sealed at start-up; a key rotation seals them again; a wrong
key stops the start with a clear error; a row moved to another seat does not open."""

from __future__ import annotations

import logging
import os
import sqlite3
import stat
from datetime import UTC, datetime
from pathlib import Path

import pytest
from typer.testing import CliRunner

from api.accounts import AccountStore, Passkey
from api.cli import app as cli
from api.crypto import KEY_FILE_NAME, Keyring, KeyringError, Unsealable, load_keyring, new_key
from api.settings import Settings
from api.tables import Hook, TableStore, open_tables
from tests.conftest import TEST_ENCRYPTION_KEY

KEY_A, KEY_B = new_key(), new_key()
PASSKEY = Passkey("cred-a", "", "cHVibGlj", 0, "internal")
SECRET = "whsec_" + "c2VjcmV0LW9mLXNlYXQtMC1vZi10aGUtdGVzdHMtMDE="
OLD_SECRET = "whsec_" + "b2xkLXNlY3JldC1vZi1zZWF0LTAtb2YtdGhlLXRlc3Q="


def _ring(*keys: str) -> Keyring:
    return Keyring.of(keys, "the test's keys")


def _rows(path: Path) -> list[tuple[str, int, str, str | None]]:
    with sqlite3.connect(path) as db:
        return list(
            db.execute("SELECT game_id, seat, secret, previous_secret FROM galileo_hooks ORDER BY seat")
        )


def test_sealed_values_open_only_for_their_row_and_under_a_configured_key() -> None:
    ring = _ring(KEY_A)
    sealed = ring.seal(SECRET, "galileo_hooks:g:0")
    assert sealed.startswith("gs1:") and SECRET not in sealed and SECRET.removeprefix("whsec_") not in sealed
    assert sealed != ring.seal(SECRET, "galileo_hooks:g:0")  # a fresh nonce each time
    assert ring.open(sealed, "galileo_hooks:g:0") == SECRET
    with pytest.raises(Unsealable, match="another row"):
        ring.open(sealed, "galileo_hooks:g:1")
    with pytest.raises(Unsealable, match="not in the test's keys"):
        _ring(KEY_B).open(sealed, "galileo_hooks:g:0")
    assert _ring(KEY_B, KEY_A).open(sealed, "galileo_hooks:g:0") == SECRET  # an old key still opens
    altered = sealed[:-6] + ("AAAA" if sealed[-6:-2] != "AAAA" else "BBBB") + sealed[-2:]
    with pytest.raises(Unsealable):
        ring.open(altered, "galileo_hooks:g:0")


def test_galileo_keygen_prints_a_new_key_each_time() -> None:
    first, second = (CliRunner().invoke(cli, ["keygen"]).output.strip() for _ in range(2))
    assert first != second and _ring(first, second).ids == tuple(_ring(k).current_id for k in (first, second))


def test_a_bad_key_is_refused_by_name_never_shown() -> None:
    with pytest.raises(KeyringError, match=r"GALILEO_ENCRYPTION_KEYS, key 2: not a key") as refused:
        load_keyring((KEY_A, "not-a-key-but-a-password"), "", "sqlite:///x.db")
    assert KEY_A not in str(refused.value) and "password" not in str(refused.value)
    settings = Settings(encryption_keys=(KEY_A,), oidc_client_secret="oidc-s3cret", secret_key="cookie-k3y")
    assert KEY_A not in repr(settings) and "s3cret" not in repr(settings) and "k3y" not in repr(settings)


def test_the_key_file_is_made_at_first_start_beside_the_database_with_mode_0600(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/data/games.db"
    first = load_keyring((), "", url)
    path = tmp_path / "data" / KEY_FILE_NAME
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert load_keyring((), "", url).ids == first.ids  # the second start reads it
    assert load_keyring((), str(path), "postgresql://h/db").ids == first.ids  # named explicitly
    assert [p.name for p in path.parent.iterdir()] == [KEY_FILE_NAME]  # no temporary file left
    with pytest.raises(KeyringError, match="GALILEO_ENCRYPTION_KEY_FILE"):
        load_keyring((), "", "postgresql://h/db")  # processes sharing a database must share the key


def _old_release(path: Path) -> None:
    """A galileo_hooks table as an older release left it: the secrets in clear."""
    TableStore(f"sqlite:///{path}", _ring(KEY_A)).close()
    with sqlite3.connect(path) as db:
        db.execute(
            "INSERT INTO galileo_hooks VALUES ('g', 0, 'https://example.org/0', ?, 't', 'h0', ?, ?)",
            (SECRET, OLD_SECRET, "9999-01-01T00:00:00.000000Z"),
        )
        db.execute(
            "INSERT INTO galileo_hooks VALUES ('g', 1, 'https://example.org/1', ?, 't', 'h1', NULL, NULL)",
            ("legacy-secret-text",),
        )


def test_plain_rows_of_an_older_release_are_sealed_at_start_up_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    path = tmp_path / "games.db"
    _old_release(path)
    tables = TableStore(f"sqlite:///{path}", _ring(KEY_A))
    try:
        rows = _rows(path)
        stored = repr(rows)
        for secret in (SECRET, OLD_SECRET, "legacy-secret-text"):
            assert secret not in stored and secret.removeprefix("whsec_") not in stored
        assert (
            all(r[2].startswith("gs1:") for r in rows)
            and rows[0][3] is not None
            and rows[0][3].startswith("gs1:")
        )
        hooks = tables.hooks("g")
        assert (hooks[0].secret, hooks[0].previous_secret, hooks[1].secret) == (
            SECRET,
            OLD_SECRET,
            "legacy-secret-text",
        )
        TableStore(f"sqlite:///{path}", _ring(KEY_A)).close()
        assert _rows(path) == rows  # a second start changes nothing
    finally:
        tables.close()
    assert SECRET not in caplog.text and "legacy-secret-text" not in caplog.text


@pytest.mark.postgres
def test_plain_rows_are_sealed_at_start_up_on_postgresql(postgres_url: str) -> None:
    ring = _ring(TEST_ENCRYPTION_KEY)  # the shared test databases hold rows under the tests' key only
    TableStore(postgres_url, ring).close()
    game = f"plain-{os.getpid()}-{new_key()[:8]}"
    import psycopg

    with psycopg.connect(postgres_url, autocommit=True) as db:
        db.execute(
            "INSERT INTO galileo_hooks VALUES (%s, 0, 'https://example.org/0', %s, 't', 'h0', NULL, NULL)",
            (game, SECRET),
        )
    tables = TableStore(postgres_url, ring)
    try:
        [stored] = tables.db.query("SELECT secret FROM galileo_hooks WHERE game_id = ?", (game,))
        assert stored[0].startswith("gs1:") and SECRET not in stored[0]
        assert tables.hooks(game)[0].secret == SECRET
        tables.delete_hook(game, 0)
    finally:
        tables.close()


def test_a_key_rotation_seals_the_rows_again_under_the_new_first_key(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    _old_release(path)
    TableStore(f"sqlite:///{path}", _ring(KEY_A)).close()
    rotated = TableStore(f"sqlite:///{path}", _ring(KEY_B, KEY_A))  # the new key first, the old one after
    rotated.close()
    assert all(r[2].startswith(f"gs1:{_ring(KEY_B).current_id}:") for r in _rows(path))
    only_new = TableStore(f"sqlite:///{path}", _ring(KEY_B))  # the old key can go now
    try:
        assert only_new.hooks("g")[0].secret == SECRET
    finally:
        only_new.close()


def test_a_wrong_key_stops_the_start_with_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "games.db"
    _old_release(path)
    TableStore(f"sqlite:///{path}", _ring(KEY_A)).close()
    with pytest.raises(KeyringError, match=rf"sealed under key\(s\) {_ring(KEY_A).current_id} \(3 value"):
        TableStore(f"sqlite:///{path}", _ring(KEY_B))
    # `galileo serve` says so and exits before listening.
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GALILEO_DATABASE_URL", f"sqlite:///{path}")
    monkeypatch.setenv("GALILEO_ENCRYPTION_KEYS", KEY_B)
    result = CliRunner().invoke(cli, ["serve", "--port", "9"])
    assert result.exit_code == 2, result.output
    assert "error: encryption keys: galileo_hooks holds webhook secrets sealed under key(s)" in result.output
    assert "start with the key they were sealed with" in result.output and KEY_B not in result.output


def test_a_wrong_key_for_the_accounts_stops_galileo_serve_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "games.db"
    AccountStore(f"sqlite:///{path}", _ring(KEY_A)).register("Ada", "handle-a", PASSKEY, datetime.now(UTC))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GALILEO_DATABASE_URL", f"sqlite:///{path}")
    monkeypatch.setenv("GALILEO_ENCRYPTION_KEYS", KEY_B)
    result = CliRunner().invoke(cli, ["serve", "--port", "9"])
    assert result.exit_code == 2, result.output
    assert (
        "error: encryption keys: galileo_accounts holds pseudonym keys sealed under key(s)" in result.output
    )


def test_a_secret_moved_to_another_row_is_refused(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    url = f"sqlite:///{tmp_path}/games.db"
    tables = open_tables(Settings(database_url=url, encryption_keys=(KEY_A,)))
    try:
        now = datetime.now(UTC)
        tables.set_hook(Hook("g", 0, "https://example.org/0", SECRET, "h0"), now)
        tables.set_hook(Hook("g", 1, "https://example.org/1", OLD_SECRET, "h1"), now)
        tables.db.execute(  # seat 1's row given seat 0's sealed secret (someone with the database's access)
            "UPDATE galileo_hooks SET secret = (SELECT secret FROM galileo_hooks WHERE seat = 0) "
            "WHERE seat = 1"
        )
        with caplog.at_level(logging.ERROR, logger="api.sealed"):
            hooks = tables.hooks("g")
        assert list(hooks) == [0] and hooks[0].secret == SECRET  # seat 1 is not signed with seat 0's secret
        assert (
            "galileo_hooks (game_id g, seat 1): its secret does not open: sealed for another row, or altered"
            in caplog.text
        )
        assert SECRET not in caplog.text
    finally:
        tables.close()

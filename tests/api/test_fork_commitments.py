"""The fork attack of issue 26, end to end over HTTP: a spectator reads a face-down card's sealed digest
from the export of a running game, forks it with no token (at its head, and at the draw), reads everything
a fork lets it read (its export as each of its seats and as a spectator; for the fork at the head, once
resigned to its bots and ended, its complete export with every nonce and key), and tries every card of
the catalog against the digest with every nonce and key it found. It must recover nothing
(docs/audit.md, "Scheme 3"; OBS-52: the front of a face-down card is its seat's alone until the end).

The brute force is written here from the documented digests (bare SHA-256 in schemes 1 and 2, HMAC in
scheme 3), not taken from replays.audit, and it is shown to find the card when it is given the real
nonce and key: so the test fails if anything the attacker reads holds them (it did on the code before
scheme 3, where a fork copied its source's nonces).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import random
from collections.abc import Iterable
from typing import Any

from fastapi.testclient import TestClient

from domain.catalog import load_catalog
from tests.api.helpers import Table, create, play_turns, runtime_of, wait_until


def _lines(client: TestClient, game: str, headers: dict[str, str] | None = None) -> list[dict[str, Any]]:
    response = client.get(f"/games/{game}/export", headers=headers or {})
    assert response.status_code == 200, response.text
    return [json.loads(line) for line in response.text.splitlines()[1:]]


def _face_down(lines: Iterable[dict[str, Any]]) -> dict[str, Any] | None:
    return next((line for line in lines if line["event"]["type"] == "CardDrawnFaceDown"), None)


def _until_a_face_down_draw(client: TestClient, table: Table) -> dict[str, Any]:
    """Random moves until the spectator's export shows a card drawn face down (its sealed line)."""
    rng = random.Random(5)
    for _ in range(300):
        play_turns(client, table, rng, max_decisions=1)
        line = _face_down(_lines(client, table.game_id))
        if line is not None:
            return line
    raise AssertionError("no card was drawn face down")


def _secrets(lines: Iterable[dict[str, Any]]) -> tuple[set[str], set[str]]:
    """Every nonce and every key anywhere in the metadata of export lines."""
    nonces: set[str] = set()
    keys: set[str] = set()
    for line in lines:
        nonces |= set((line["meta"].get("nonces") or {}).values())
        if "key" in line["meta"]:
            keys.add(line["meta"]["key"])
    return nonces, keys


def _digests(card: str, nonce: str, keys: Iterable[str]) -> set[str]:
    """The digest of a private group holding `card` under `nonce`: bare SHA-256 (schemes 1 and 2) and
    HMAC-SHA256 under each key (scheme 3), over {"nonce", "fields"} canonically encoded."""
    body = json.dumps({"fields": {"card": card}, "nonce": nonce}, separators=(",", ":")).encode()
    out = {hashlib.sha256(body).hexdigest()}
    out |= {hmac.new(bytes.fromhex(k), body, hashlib.sha256).hexdigest() for k in keys}
    return out


def _brute_force(digest: str, nonces: Iterable[str], keys: Iterable[str]) -> list[str]:
    """The cards whose digest under some nonce and key found is `digest`: the 33 cards of a tier, and
    every other card of the catalog too."""
    keys = list(keys)
    return sorted(card for card in load_catalog().cards for n in nonces if digest in _digests(card, n, keys))


def _resign_all(client: TestClient, table: Table) -> None:
    for seat in table.humans:
        answer = client.post(
            f"/games/{table.game_id}/resign", headers=table.auth(seat), json={"command_id": f"resign-{seat}"}
        )
        assert answer.status_code == 200, answer.text


def test_OBS_52_a_fork_and_its_exports_give_nothing_to_brute_force_a_face_down_card(
    client: TestClient,
) -> None:
    table = create(client, 2, seed="fork-attack")
    sealed_line = _until_a_face_down_draw(client, table)
    game, owner = table.game_id, sealed_line["event"]["seat"]
    digest = sealed_line["sealed"]["private"]
    assert "card" not in sealed_line["event"] and "nonces" not in sealed_line["meta"]

    # The control: with the real nonce (and key, if the game has one) the brute force finds exactly the
    # card, so finding nothing below means the attacker read neither.
    stored = runtime_of(client).store.events(game, sealed_line["version"] - 1, 1)[0]
    real_keys = [stored.metadata["key"]] if "key" in stored.metadata else []
    assert _brute_force(digest, [stored.metadata["nonces"]["private"]], real_keys) == [stored.event.card]

    head = client.get(f"/games/{game}").json()["version"]
    found_nonces: set[str] = set()
    found_keys: set[str] = set()
    for at, to_the_end in ((head, True), (sealed_line["version"], False)):  # at the head, and at the draw
        answer = client.post(f"/games/{game}/fork", json={"at_version": at})  # no token
        assert answer.status_code == 201, answer.text
        body = answer.json()
        fork = Table(body["game_id"], [s["token"] for s in body["seats"]], body)
        views = [_lines(client, fork.game_id, fork.auth(seat)) for seat in fork.humans]
        views.append(_lines(client, fork.game_id))
        assert _face_down(views[owner]) is not None  # the drawing seat's copy of the draw, re-dealt
        for view in views:
            nonces, keys = _secrets(view)
            found_nonces |= nonces
            found_keys |= keys
        if not to_the_end:
            continue
        # Resigned, the fork is played to its end by bots: its complete export holds all its secrets.
        _resign_all(client, fork)
        wait_until(
            lambda f=fork.game_id: client.get(f"/games/{f}").json()["status"] == "finished",
            60,
            "the fork's end",
        )
        complete = _lines(client, fork.game_id)
        nonces, keys = _secrets(complete)
        assert nonces  # the end reveals the fork's own nonces (and in scheme 3 its key)
        found_nonces |= nonces
        found_keys |= keys
        report = client.get(f"/games/{fork.game_id}/verify").json()
        assert report["ok"], report["findings"]

    assert _brute_force(digest, found_nonces, found_keys) == []
    assert stored.metadata["nonces"]["private"] not in found_nonces
    assert found_keys  # the forks are of scheme 3: their keys were revealed, and useless
    assert client.get(f"/games/{game}").json()["status"] == "active"  # the source still runs

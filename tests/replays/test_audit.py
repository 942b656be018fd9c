"""The hash scheme of docs/audit.md, frozen: canonical encoding, event hash, sealed secret groups."""

from __future__ import annotations

from typing import Any

from replays.audit import canonical, event_hash, group_digest, link, options_hash, redact

EVENT: dict[str, Any] = {
    "type": "CardDrawnFaceDown",
    "seat": 1,
    "card": "D2-05",
    "from_reserve": False,
    "tier": 2,
    "back": [["R", "Y"]],
    "rule": "OBS-52",
}
META: dict[str, Any] = {
    "kind": "command",
    "actor": 1,
    "command_id": "c-7",
    "command": {"type": "Observe", "seat": 1, "text": "@1 observe ..."},
    "batch": 57,
    "received_at": "2025-01-01T00:00:00+00:00",
    "engine_version": "0.1.0",
    "catalog": {"edition": "base", "hash": "ab" * 32},
    "options_hash": "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a",  # of {}
    "prev_hash": "11" * 32,
    "nonces": {"private": "00112233445566778899aabbccddeeff"},
}
# The worked example of docs/audit.md: changing the scheme changes this value (and breaks old logs).
EXAMPLE_HASH = "ce34660a0201277ed990e17c7d72c9bbc8fccf70753821243a6c4121613c755b"


def test_canonical_encoding_sorts_keys_compactly_in_utf8() -> None:
    assert canonical({"b": 1, "a": [1, "é"], "c": {"z": None, "y": True}}) == (
        '{"a":[1,"é"],"b":1,"c":{"y":true,"z":null}}'.encode()
    )


def test_event_hash_of_the_documented_example() -> None:
    assert options_hash({}) == META["options_hash"]
    assert event_hash(58, EVENT, META) == EXAMPLE_HASH
    assert link(58, EVENT, META, META["prev_hash"])["hash"] == EXAMPLE_HASH


def test_hash_covers_version_content_metadata_and_secret_fields() -> None:
    assert event_hash(59, EVENT, META) != EXAMPLE_HASH
    assert event_hash(58, {**EVENT, "tier": 3}, META) != EXAMPLE_HASH
    assert event_hash(58, {**EVENT, "card": "D2-06"}, META) != EXAMPLE_HASH
    assert event_hash(58, EVENT, {**META, "actor": "system"}) != EXAMPLE_HASH
    assert event_hash(58, EVENT, {**META, "prev_hash": "22" * 32}) != EXAMPLE_HASH


def test_a_redacted_event_keeps_its_hash_and_hides_its_nonce() -> None:
    for viewer in (None, 0):
        event, meta, sealed = redact(EVENT, META, viewer)
        assert "card" not in event and "nonces" not in meta
        assert sealed == {"private": group_digest(META["nonces"]["private"], EVENT, ("card",))}
        assert event_hash(58, event, meta, sealed) == EXAMPLE_HASH
    event, meta, sealed = redact(EVENT, META, 1)  # the owner sees its card
    assert event == EVENT and meta == META and sealed == {}


def test_a_sealed_card_cannot_be_found_by_trying_every_card_without_the_nonce() -> None:
    _, _, sealed = redact(EVENT, META, None)
    guesses = {group_digest("", {"card": f"D2-{i:02d}"}, ("card",)) for i in range(1, 40)}
    assert sealed["private"] not in guesses

"""The hash scheme of docs/audit.md, frozen: canonical encoding, event hash, sealed secret groups."""

from __future__ import annotations

from typing import Any

from domain.catalog import load_catalog
from replays.audit import (
    batch_audit,
    batch_hash,
    canonical,
    event_hash,
    group_digest,
    link,
    link_batch,
    options_hash,
    redact,
)

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


# -- scheme 2 (docs/audit.md, "Scheme 2: metadata and batch hash") -------------------------------------

META_2: dict[str, Any] = {
    **{k: v for k, v in META.items() if k not in ("catalog", "options_hash", "prev_hash")},
    "scheme": 2,
}
TURN_ENDED: dict[str, Any] = {"type": "TurnEnded", "seat": 1, "rule": "TURN-1"}
TURN_META_2 = {k: v for k, v in META_2.items() if k != "nonces"}
PREV_2 = "A" * 43
# The worked example of docs/audit.md for scheme 2: batch 57 of two events after PREV_2. Changing the
# scheme changes this value (and breaks the logs written in it).
EXAMPLE_BATCH_HASH = "MQxQGu-_cMSz_vez2s5AKjSw53twQANZgvDNUxPBG2c"


def _batch(event: dict[str, Any] = EVENT, meta: dict[str, Any] = META_2, batch: int = 57) -> str:
    return batch_hash(
        batch, PREV_2, batch_audit(meta), [(event, meta, None), (TURN_ENDED, TURN_META_2, None)]
    )


def test_batch_hash_of_the_documented_example() -> None:
    assert _batch() == EXAMPLE_BATCH_HASH
    assert link_batch(57, [EVENT, TURN_ENDED], [META_2, TURN_META_2], PREV_2)[1]["hash"] == EXAMPLE_BATCH_HASH


def test_batch_hash_covers_number_previous_hash_audit_fields_events_order_and_secrets() -> None:
    assert _batch(batch=58) != EXAMPLE_BATCH_HASH
    assert batch_hash(57, "B" * 43, batch_audit(META_2), [(EVENT, META_2, None)]) != EXAMPLE_BATCH_HASH
    assert _batch(meta={**META_2, "received_at": "2025-01-01T00:00:01+00:00"}) != EXAMPLE_BATCH_HASH
    assert _batch(meta={**META_2, "seat_kind": "bot"}) != EXAMPLE_BATCH_HASH
    assert _batch(event={**EVENT, "card": "D2-06"}) != EXAMPLE_BATCH_HASH
    swapped = [(TURN_ENDED, TURN_META_2, None), (EVENT, META_2, None)]
    assert batch_hash(57, PREV_2, batch_audit(META_2), swapped) != EXAMPLE_BATCH_HASH


def test_a_redacted_batch_keeps_its_hash() -> None:
    event, meta, sealed = redact(EVENT, META_2, None)
    assert "card" not in event and "nonces" not in meta
    events = [(event, meta, sealed), (TURN_ENDED, TURN_META_2, None)]
    assert batch_hash(57, PREV_2, batch_audit(META_2), events) == EXAMPLE_BATCH_HASH


# -- scheme 3 (docs/audit.md, "Scheme 3: keyed digests") ------------------------------------------------

KEY = "0f1e2d3c4b5a69788796a5b4c3d2e1f0"
META_3: dict[str, Any] = {**META_2, "scheme": 3, "key": KEY}
TURN_META_3 = {**TURN_META_2, "scheme": 3}
# The worked example of docs/audit.md for scheme 3: scheme 2's batch 57 with the game's key. Changing the
# scheme changes these values (and breaks the logs written in it).
EXAMPLE_PRIVATE_3 = "216dfa734aa63585d2741116bf386b13cb107591a4ef43e8eba64fc1e710f5ec"
EXAMPLE_BATCH_HASH_3 = "tI5lIe5vgDcNR77IghO5-DZCJ3-k3NijCnj6R9qAVOc"
CARDS = sorted(load_catalog().cards)  # the 33 Discovery cards: the attacker's guesses


def _batch_3(event: dict[str, Any] = EVENT, meta: dict[str, Any] = META_3) -> str:
    events = [(event, meta, None), (TURN_ENDED, TURN_META_3, None)]
    return batch_hash(57, PREV_2, batch_audit(meta), events, 3)


def test_keyed_digest_and_batch_hash_of_the_documented_example() -> None:
    nonce = META_3["nonces"]["private"]
    assert group_digest(nonce, EVENT, ("card",), KEY) == EXAMPLE_PRIVATE_3
    assert group_digest(nonce, EVENT, ("card",), KEY) != group_digest(nonce, EVENT, ("card",))
    assert _batch_3() == EXAMPLE_BATCH_HASH_3
    linked = link_batch(57, [EVENT, TURN_ENDED], [META_3, TURN_META_3], PREV_2)
    assert linked[0]["hash"] == linked[1]["hash"] == EXAMPLE_BATCH_HASH_3


def test_the_keyed_batch_hash_covers_the_scheme_the_key_and_the_secret_fields() -> None:
    assert _batch_3(meta={**META_3, "key": "ff" * 16}) != EXAMPLE_BATCH_HASH_3
    assert _batch_3(meta={**META_3, "nonces": {"private": "ff" * 16}}) != EXAMPLE_BATCH_HASH_3
    assert _batch_3(event={**EVENT, "card": "D2-06"}) != EXAMPLE_BATCH_HASH_3
    events = [(EVENT, META_3, None), (TURN_ENDED, TURN_META_3, None)]
    assert batch_hash(57, PREV_2, batch_audit(META_3), events, 2) != EXAMPLE_BATCH_HASH_3


def test_OBS_52_a_leaked_nonce_alone_does_not_open_a_keyed_digest() -> None:
    """Issue 26: with the nonce known, trying the 33 cards finds the card of a bare-hash digest
    (scheme 2) but not of a keyed one (scheme 3) without the game's key; with the key it does."""
    nonce = META_3["nonces"]["private"]
    bare = group_digest(nonce, EVENT, ("card",))
    keyed = group_digest(nonce, EVENT, ("card",), KEY)

    def matches(digest: str, key: str | None) -> list[str]:
        return [c for c in CARDS if group_digest(nonce, {**EVENT, "card": c}, ("card",), key) == digest]

    assert matches(bare, None) == ["D2-05"]  # the attack of issue 26 on scheme 2
    assert matches(keyed, None) == []
    assert matches(keyed, "00" * 16) == []  # any other key: nothing
    assert matches(keyed, KEY) == ["D2-05"]  # the key, revealed at the end, opens it


def test_OBS_52_before_the_end_no_viewer_of_a_keyed_event_gets_its_nonce_or_the_key() -> None:
    for viewer in (None, 0, 1):
        event, meta, sealed = redact(EVENT, META_3, viewer)
        assert "nonces" not in meta and "key" not in meta
        assert sealed == {"private": EXAMPLE_PRIVATE_3}  # every group is sealed, the owner's too
        assert ("card" in event) == (viewer == 1)  # its seat sees its card beside the seal
        events = [(event, meta, sealed), (TURN_ENDED, TURN_META_3, None)]
        assert batch_hash(57, PREV_2, batch_audit(META_3), events, 3) == EXAMPLE_BATCH_HASH_3

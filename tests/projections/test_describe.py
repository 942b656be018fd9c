"""The describer: every event class and every command class of domain/ has words, and real games are
described completely (every event and every legal move offered along the way), in the viewer's form."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import pytest

from domain import (
    EVENT_TYPES,
    Options,
    command_to_dict,
    event_to_dict,
    legal_moves,
    play_through,
    public_state,
    redact_event,
    start,
)
from domain.bots import make_bot
from domain.selfplay import default_setup
from domain.vocabulary import COMMAND_TYPES
from projections.describe import (
    COMMAND_TEXT,
    EVENT_TEXT,
    Context,
    code_text,
    default_context,
    describe_command,
    describe_event,
    reward_text,
)
from projections.preview import preview

# Words that mean a value was not resolved: a Python repr leaking into the text.
LEAKS = re.compile(r"\bNone\b|\{|\[|\('|'\)|\[\]")


def test_every_event_class_has_words() -> None:
    missing = sorted(set(EVENT_TYPES) - set(EVENT_TEXT))
    assert not missing, f"events without a description in projections/describe.py: {missing}"
    assert not sorted(set(EVENT_TEXT) - set(EVENT_TYPES)), "descriptions of events that do not exist"


def test_every_command_class_has_words() -> None:
    missing = sorted(set(COMMAND_TYPES) - set(COMMAND_TEXT))
    assert not missing, f"commands without a description in projections/describe.py: {missing}"
    assert not sorted(set(COMMAND_TEXT) - set(COMMAND_TYPES)), "descriptions of commands that do not exist"


def test_reward_codes_in_words() -> None:
    assert reward_text(["3VP", "INQ"]) == "3 VP and an Inquisitor"
    assert reward_text(["INC2:R", "2Q", "PERx2"]) == "all red dice +2, 2 Quadrants and persuade 2 times"
    assert reward_text([]) == "nothing"
    assert code_text("1D+3") == "one die +3"
    assert code_text("W2") == "write 2"
    assert code_text("DIE@5") == "a die at 5"


def test_observe_names_the_object_the_payment_and_the_reward() -> None:
    ctx = default_context()
    card = ctx.catalog.cards["D1-01"]  # Moon: orange 8, 7 VP, Inquisitor
    text = describe_command(
        {
            "type": "Observe",
            "seat": 0,
            "target": "MO:D1-01",
            "dice": [["R", 5], ["Y", 3]],
            "comets1": 0,
            "comets2": 0,
        },
        ctx,
    )
    assert text == f"Observe {card.major.name} (orange 8) paying red 5 + yellow 3: 7 VP and an Inquisitor"


def test_unknown_or_malformed_items_never_fail() -> None:
    ctx = default_context()
    assert describe_event({"type": "NoSuchEvent"}, ctx) == "NoSuchEvent"
    assert describe_event({"type": "LectureGiven", "tile": "x"}, ctx) == "LectureGiven"
    assert describe_command({"type": "Nope", "text": "@0 nope"}, ctx) == "@0 nope"


def _play(
    seed: str,
    players: int,
    options: Options,
    decisions: int,
    side: str | None = None,
    characters: tuple[str, ...] = (),
) -> tuple[list[str], list[str], set[str]]:
    """Play `decisions` decisions of a random-bot game; describe every event (as its seat and as a
    spectator) and every legal move offered, with the position it is offered in."""
    state, events = start(default_setup(players, seed, options, side=side, characters=characters))
    bots = [make_bot("random", f"{seed}:{i}") for i in range(players)]
    event_texts: list[str] = []
    move_texts: list[str] = []
    seen: set[str] = set()
    ctx = default_context()
    for _ in range(decisions):
        if state.finished:
            break
        moves = legal_moves(state)
        position = Context(ctx.catalog, public_state(state, state.turn.seat))
        for move in moves:
            data: dict[str, Any] = command_to_dict(move)
            seen.add(data["type"])
            told = preview(state, move, ctx).events  # what it grants, as the play page's listing has it
            move_texts.append(describe_command(data, replace(position, told=told)))
        state, new = play_through(state, bots[state.turn.seat].choose(state, moves))
        events.extend(new)
    for event in events:
        seen.add(event.type)
        for form in (event_to_dict(event), redact_event(event, None), redact_event(event, event.seat)):
            event_texts.append(describe_event({**form, "type": event.type}, ctx))
    return event_texts, move_texts, seen


@pytest.mark.parametrize(("seed", "players", "luna"), [("describe-1", 2, False), ("describe-2", 3, True)])
def test_games_are_described_without_leaks(seed: str, players: int, luna: bool) -> None:
    event_texts, move_texts, seen = _play(seed, players, Options(luna=luna), 400)
    assert len(seen) > 25  # the sample covers most kinds
    for text in event_texts + move_texts:
        assert text and not LEAKS.search(text), text
        assert text not in EVENT_TYPES and text not in COMMAND_TYPES, f"fell back to the bare type: {text}"


@pytest.mark.parametrize(
    ("seed", "luna", "characters"),
    [
        ("describe-abilities", False, ("galileo", "kepler", "copernicus", "bruno")),
        ("describe-luna-abilities", True, ("newton", "hevelius", "cunitz", "sophia")),
    ],
)
def test_CHAR_1_ability_moves_are_described_in_words(
    seed: str, luna: bool, characters: tuple[str, ...]
) -> None:
    """Every move offered to ability-side seats has words (never its text notation), and the ability
    moves say what they do: where a library tile goes and what its rows give (CHAR-COP-4), which tiles
    Kepler swaps (CHAR-KEP-2), what is declined, a mirror's multiplier (CHAR-NEW-2)."""
    event_texts, move_texts, seen = _play(seed, 4, Options(luna=luna), 800, "ability", characters)
    for text in event_texts + move_texts:
        assert text and not LEAKS.search(text), text
        assert text not in EVENT_TYPES and text not in COMMAND_TYPES, f"fell back to the bare type: {text}"
        assert not text.startswith("@"), f"fell back to the notation: {text}"
    joined = "\n".join(move_texts)
    if not luna:
        assert {"PlaceLibraryTile", "KeplerSwap"} <= seen
        # on a card's column: since rules 0.4.0 never the printed one (CHAR-COP-3, AMB-29)
        assert re.search(
            r"Place library tile CP\d face [AB] up on the column of library card \d: R\d gives ", joined
        )
        assert re.search(r"Swap the \w+ tile on S\d and the \w+ tile on S\d", joined)
        bruno = Context(
            default_context().catalog,
            public_state(start(default_setup(4, seed, side="ability", characters=characters))[0]),
        )
        persuade = {"type": "Persuade", "seat": 3, "space": 3, "grand": False}
        moved = {"type": "InquisitorPersuaded", "seat": 3, "start": 3, "end": 4, "grand": False}
        told = replace(bruno, told=(moved,))  # where it goes: the engine's event (INQ-10)
        assert describe_command(persuade, told) == "Persuade an Inquisitor from C4 to C5"  # CHAR-BRU-2
        assert describe_command(persuade, bruno) == "Persuade an Inquisitor from C4"
    else:
        assert {"ClaimTile", "Focus"} <= seen
        assert re.search(r"Claim Constellation tile H\d\d \(\d stars?, \d connections?\) to ", joined)
        assert re.search(r"Use the (Primary|Secondary) mirror tile: .+, \d times?$", joined, re.M)
        assert "Focus on " in joined


def test_a_face_down_card_is_named_only_for_its_owner() -> None:
    ctx = default_context()
    event = {"type": "CardDrawnFaceDown", "seat": 1, "card": "D1-01", "from_reserve": False, "tier": 1}
    owner = describe_event(event, ctx)
    hidden = {k: v for k, v in event.items() if k != "card"} | {"redacted": ["card"]}
    other = describe_event(hidden, ctx)
    assert ctx.catalog.cards["D1-01"].major.name in owner
    assert ctx.catalog.cards["D1-01"].major.name not in other and "tier 1" in other

"""Scenario helpers: build a position, play commands by their text notation, read the events."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from domain import Options, SeatSpec, Setup, decide, evolve, parse_command, start
from domain.events import Event
from domain.state import GameState, Task

CHARACTERS = ("galileo", "kepler", "copernicus", "bruno")
# The scenarios were written against the first edition's provisional numbers (cards, cellar values); the
# corrections of later editions have their own tests (test_editions.py). docs/editions.md
SCENARIO_EDITION = "base-provisional-1"


def new_game(
    players: int = 3, seed: str = "scenario", edition: str = SCENARIO_EDITION, **options: Any
) -> GameState:
    """A fresh game, seat 0 first, at its first decision (seat 0 moves)."""
    seats = tuple(SeatSpec(f"P{i + 1}", CHARACTERS[i]) for i in range(players))
    setup = Setup(seats=seats, seed=seed, first_seat=0, options=Options(**options), catalog_edition=edition)
    state, _ = start(setup)
    return state


def player(state: GameState, seat: int = 0, **changes: Any) -> GameState:
    """Seat `seat` with these changes; `grand` and `moon` change its Luna figures (its `LunaSeat` part)."""
    from domain.expansions.luna.state import seat_with

    luna = {name: changes.pop(name) for name in ("grand", "moon") if name in changes}
    players = list(state.players)
    players[seat] = replace(players[seat], **changes)
    if luna:
        players[seat] = seat_with(players[seat], **luna)
    return replace(state, players=tuple(players))


def turn(state: GameState, **changes: Any) -> GameState:
    return replace(state, turn=replace(state.turn, **changes))


def actions_at(state: GameState, space: int, seat: int = 0) -> GameState:
    """Seat `seat` in its Action phase with the telescope at `space` (2=S1 .. 6=U)."""
    state = player(state, seat, telescope=space)
    return turn(state, seat=seat, phase="actions", space=space)


def with_agenda(state: GameState, *tasks: Task) -> GameState:
    """Put tasks on the agenda (the first one given is resolved first) and take the automatic steps."""
    return resolve(state, *tasks)[0]


def resolve(state: GameState, *tasks: Task) -> tuple[GameState, list[Event]]:
    """Like `with_agenda`, also returning the events of the automatic steps."""
    from domain import settle

    return settle(replace(state, agenda=state.agenda + tuple(reversed(tasks))))


def play(state: GameState, *texts: str) -> tuple[GameState, list[Event]]:
    """Apply commands given in the text notation (seat prefix optional: the seat to act)."""
    events: list[Event] = []
    for text in texts:
        if not text.startswith("@"):
            text = f"@{state.turn.seat} {text}"
        new = decide(state, parse_command(text))
        for e in new:
            state = evolve(state, e)
        events.extend(new)
    return state, events


def types(events: list[Event]) -> list[str]:
    return [type(e).__name__ for e in events]


def of_type(events: list[Event], cls: type) -> list[Any]:
    return [e for e in events if isinstance(e, cls)]


def show(state: GameState, space: int, card: str) -> GameState:
    """Put `card` face up on Discovery space `space` (taking it out of the deck/box if there)."""
    display = list(state.display)
    covers = list(state.covers)
    display[space] = card
    covers[space] = (-1,) * len(state.catalog.cards[card].constellations)
    deck = tuple(c for c in state.deck if c != card)
    box = tuple(c for c in state.box if c != card)
    reserve = tuple(c for c in state.reserve if c != card)
    return replace(state, display=tuple(display), covers=tuple(covers), deck=deck, box=box, reserve=reserve)


def cards_with(state: GameState, row: int, reward: tuple[str, ...], dark: bool = True) -> list[str]:
    """Card ids whose library row `row` (0 = R1) on the given side is `reward`."""
    out = []
    for card in state.catalog.cards.values():
        if (card.front if dark else card.back)[row] == reward:
            out.append(card.id)
    return out


def fresh_turn(state: GameState, seat: int = 0, phase: str = "movement") -> GameState:
    """A new turn for `seat` (nothing taken yet), the agenda empty."""
    from domain.state import TurnState

    return replace(state, turn=TurnState(seat=seat, number=state.turn.number + 1, phase=phase), agenda=())


def finish_effects(state: GameState) -> tuple[GameState, list[Event]]:
    """Answer every pending effect with its first legal command (until the agenda is empty)."""
    from domain import legal_moves

    events: list[Event] = []
    while state.agenda:
        state, new = play(state, str(legal_moves(state)[0]))
        events += new
    return state, events

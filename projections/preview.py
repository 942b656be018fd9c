"""What a move will do, told from the events the engine itself produces for it: the confirm text of the
play page (GET /games/{id}/moves, `previews`).

Nothing here knows a rule. The move is played on a copy of the position (`domain.play_through`, the
same path `decide` takes) and its events are described as the history will describe them
(`describe_event`, in the mover's form). Only what the mover may know beforehand is told: the
preview stops at the information horizon of take-backs (ASYNC-7, `domain.takeback.reveals`), the
first event that reveals something hidden, or at the end of the turn (the next seat's turn begins
with hidden draws and other people's choices). A revealing event is told only by the fields that are
known before it happens (`FORESEEN`); what follows it is not told at all.

Under that declared horizon lies a net: the move is also played on the position as the seat could
believe it to be (a re-deal of what it has not seen, domain/determinise.py), and only the events that
come out the same there are told, so an event that depended on something hidden without being
declared revealing is not told either.

The same facts say whether the move can be taken back (nothing revealed, the turn not ended: exactly
the horizon `replays.table.horizon_problem` checks afterwards) and which rewards it will waste
(`EffectLost`, with the engine's reason).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from domain import Command, Event, IllegalMove, play_through, redact_event
from domain.determinise import determinise
from domain.events import EffectLost, TurnEnded, owns_private_fields
from domain.state import GameState
from domain.takeback import reveals
from projections.describe import Context, default_context, describe_event, routine

Foreseen = tuple[tuple[str, ...], Callable[[Mapping[str, Any], Context], str]]

# A revealing event told before it happens: the fields known beforehand, and their words. An event type
# missing here is told as "something hidden is revealed".
FORESEEN: Mapping[str, Foreseen] = {
    "CardDealt": (("space",), lambda e, c: f"a new card is dealt to Discovery space {int(e['space']) + 1}"),
    "CardDrawnFaceDown": (("tier",), lambda e, c: f"you draw a face-down tier {e['tier']} card"),
    "MoonObserved": (
        ("tile", "dice", "comets", "cost", "seat"),
        lambda e, c: describe_event(e, c, "MoonObserved"),
    ),
    "MoonPhaseAdvanced": (("phase",), lambda e, c: f"the Moon reaches phase {e['phase']}"),
    "GameEnded": ((), lambda e, c: "the game ends and the final scores are counted"),
}
REVEALED = "something hidden is revealed"


@dataclass(frozen=True)
class Preview:
    """A move's consequences as the mover may know them before sending it."""

    lines: tuple[
        str, ...
    ]  # each event up to the horizon, in the words of the history (routine ones left out)
    warnings: tuple[str, ...]  # the rewards the move wastes, with the engine's reason (EffectLost)
    reveals: str | None  # the revealing event that ends what can be told, in words (None: none)
    ends_turn: bool
    undoable: bool  # a take-back can return to before it (ASYNC-7)
    events: tuple[dict[str, Any], ...]  # the told events (type and mover's form): facts the page reads

    def to_json(self) -> dict[str, Any]:
        return {
            "lines": list(self.lines),
            "warnings": list(self.warnings),
            "reveals": self.reveals,
            "ends_turn": self.ends_turn,
            "undoable": self.undoable,
            "events": list(self.events),
        }


def told(events: Sequence[Event], viewer: int) -> tuple[list[Event], Event | None]:
    """The events of a move the mover may be told of beforehand, and the event that stops the telling
    (a revealing one, one with a field private to the mover, or the end of the turn), if any."""
    out: list[Event] = []
    for event in events:
        if reveals(event) or owns_private_fields(event, viewer) or isinstance(event, TurnEnded):
            return out, event
        out.append(event)
    return out, None


def event_form(event: Event, viewer: int) -> dict[str, Any]:
    """An event as the mover sees it (its type included), the form the describer reads."""
    return {**redact_event(event, viewer), "type": event.type}


def foreseen(event: Event, viewer: int, context: Context) -> str:
    """A revealing event in the words that use only what is known before it happens."""
    name = event.type
    entry = FORESEEN.get(name)
    if entry is None:
        return REVEALED
    fields, text = entry
    form = event_form(event, viewer)
    known = {k: form[k] for k in fields if k in form}
    try:
        return text(known, context)
    except (KeyError, TypeError, ValueError):
        return REVEALED


def preview_events(events: Sequence[Event], viewer: int, context: Context | None = None) -> Preview:
    """The preview of a move whose events (as `decide` gives them) are `events`."""
    ctx = context or default_context()
    shown, stop = told(events, viewer)
    forms = [event_form(e, viewer) for e in shown]
    lines = tuple(describe_event(f, ctx) for f in forms if not routine(f))
    warnings = tuple(
        describe_event(f, ctx) for f, e in zip(forms, shown, strict=True) if isinstance(e, EffectLost)
    )
    ends_turn = any(isinstance(e, TurnEnded) for e in events)
    revealing = next((e for e in events if reveals(e)), None)
    told_stop = stop is not None and not isinstance(stop, TurnEnded)
    reveal_text = foreseen(stop, viewer, ctx) if stop is not None and told_stop else None
    return Preview(
        lines=lines,
        warnings=warnings,
        reveals=reveal_text,
        ends_turn=ends_turn,
        undoable=revealing is None and not ends_turn,
        events=tuple(forms),
    )


def preview(
    state: GameState,
    command: Command,
    context: Context | None = None,
    believed: Sequence[GameState] = (),
) -> Preview:
    """What `command` (a legal move at `state`) will do, as its seat may know it beforehand.

    `believed`: the position as the seat could believe it to be (`believed_positions`). Beyond the
    horizon of what is declared revealing, only the events that come out the same in each of them are
    told: a net under any event that would depend on hidden information without being declared so."""
    _, events = play_through(state, command)
    seat = command.seat
    full = preview_events(events, seat, context)
    # Only the events before the telling stops can be told, so only a difference among them changes the
    # preview: the believed positions are compared up to there (`horizon`), and not played at all when
    # nothing is told. (Beyond it the preview is `full` whatever the comparison finds: its stop, the
    # take-back and the end of the turn are the true game's.)
    horizon = len(told(events, seat)[0])
    agreed = horizon
    for other in believed:
        if agreed == 0:
            break
        try:
            _, theirs = play_through(other, command)
        except (IllegalMove, KeyError, ValueError, IndexError):  # it does not fit there: tell nothing
            theirs = []
        same = 0
        for mine, alt in zip(events[:agreed], theirs, strict=False):
            # Equal events have equal forms; unequal ones may still look the same to the seat.
            if mine != alt and event_form(mine, seat) != event_form(alt, seat):
                break
            same += 1
        agreed = same
    if agreed == horizon:
        return full
    shown = preview_events(events[:agreed], seat, context)
    stop = full.reveals or REVEALED  # what cannot be told still decides the take-back
    return Preview(shown.lines, shown.warnings, stop, full.ends_turn, full.undoable, shown.events)


# One re-deal of what the seat has not seen (domain/determinise.py): a net under the declared horizon
# (`reveals`, which comes first), at the cost of playing each move once more.
BELIEVED_SEEDS = ("preview",)


def believed_positions(state: GameState, seat: int) -> list[GameState]:
    """The position as `seat` could believe it to be: its determinisations (the re-deal depends only on
    what the seat knows, so nothing hidden reaches the preview through them)."""
    return [determinise(state, seat, seed) for seed in BELIEVED_SEEDS]

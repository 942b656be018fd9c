"""Galileo Galilei rules engine: pure, deterministic, no I/O (design.md, "domain/").

The decider: `start`/`initial_state` from a `Setup`, `legal_moves(state)`, `decide(state, command)`
(events or `IllegalMove`), `evolve(state, event)`; plus the JSON forms of states, events and commands.
"""

from domain.commands import Command, command_to_dict
from domain.editions import ENGINE_VERSION, RULES_VERSIONS
from domain.engine import (
    Played,
    decide,
    decide_traced,
    fold,
    initial_state,
    legal_moves,
    play,
    play_on,
    play_through,
    settle,
    start,
    to_act,
)
from domain.errors import EditionUnknown, EventDoesNotFit, IllegalMove
from domain.events import Event, event_to_dict, redact_event
from domain.evolve import evolve
from domain.fork import fork_events
from domain.options import Options
from domain.serialize import dump_state, load_state, public_state
from domain.setup import SeatSpec, Setup, redeal, start_game
from domain.state import GameState
from domain.vocabulary import EVENT_TYPES, command_from_dict, event_from_dict, parse_command

__all__ = [
    "ENGINE_VERSION",
    "EVENT_TYPES",
    "RULES_VERSIONS",
    "Command",
    "EditionUnknown",
    "Event",
    "EventDoesNotFit",
    "GameState",
    "IllegalMove",
    "Options",
    "Played",
    "SeatSpec",
    "Setup",
    "command_from_dict",
    "command_to_dict",
    "decide",
    "decide_traced",
    "dump_state",
    "event_from_dict",
    "event_to_dict",
    "evolve",
    "fold",
    "fork_events",
    "initial_state",
    "legal_moves",
    "load_state",
    "parse_command",
    "play",
    "play_on",
    "play_through",
    "public_state",
    "redact_event",
    "redeal",
    "settle",
    "start",
    "start_game",
    "to_act",
]

"""The documented JSON form of a state (docs/state.md): `dump_state` / `load_state`, exact round trip.

Like FEN for chess: a position can be saved, shared, loaded into the engine and used in tests. The
dump contains the hidden deal (deck, box, reserve, seed, salt): it is the engine's own form, never
shown to players as is; `public_state` gives the form without secrets.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.catalog import load_catalog
from domain.characters import side_of
from domain.editions import check_rules_version
from domain.options import Options
from domain.parts import dump_parts, load_parts
from domain.ruleset import Pins, ruleset_for
from domain.state import GameState, PlayerState, Task, TurnState
from domain.vocabulary import (
    FLAT_PLAYER_PARTS,
    FLAT_TURN_PARTS,
    GAME_PARTS,
    NESTED_PLAYER_PARTS,
    PLAYER_PARTS,
)

STATE_FORMAT = 2  # 2: "engine_version" added (a format-1 position is the first release's: rules 0.1.0)
READ_FORMATS = (1, 2)
HIDDEN_STATE_FIELDS = ("deck", "box", "reserve", "seed", "salt", "dealt")


def _player_json(p: PlayerState, hide: bool = False) -> dict[str, Any]:
    return {
        "seat": p.seat,
        "name": p.name,
        "character": p.character,
        "telescope": p.telescope,
        "queue": list(p.queue),
        "upgraded": sorted(p.upgraded),
        "dice": [[c, v] for c, v in p.dice],
        "quadrants": p.quadrants,
        "score": p.score,
        "points": dict(p.points),
        "books": list(p.books),
        "library": [[card, dark] for card, dark in p.library],
        "comets": list(p.comets),
        "tokens_used": p.tokens_used,
        "tokens_boxed": p.tokens_boxed,
        "cellar": list(p.cellar),
        "reputation": p.reputation,
        "university": list(p.university),
        "achievements": list(p.achievements),
        "appendix": p.appendix,
        **dump_parts(PLAYER_PARTS, p.parts, hide, p, FLAT_PLAYER_PARTS, NESTED_PLAYER_PARTS),
    }


def _turn_json(t: TurnState, hide: bool = False) -> dict[str, Any]:
    return {
        "seat": t.seat,
        "number": t.number,
        "phase": t.phase,
        "fixed_done": t.fixed_done,
        "moving_done": t.moving_done,
        "used_tile": t.used_tile,
        "rotated": t.rotated,
        "inquisitor_moved": t.inquisitor_moved,
        "interrogated": t.interrogated,
        "cellar_peak": t.cellar_peak,
        "comets_used": sorted(t.comets_used),
        "windows_closed": t.windows_closed,
        "objectives_due": None if t.objectives_due is None else list(t.objectives_due),
        "space": t.space,
        **dump_parts({}, t.parts, hide, t, FLAT_TURN_PARTS),
    }


def dump_state(s: GameState) -> dict[str, Any]:
    """The complete state as JSON-ready data (including hidden fields)."""
    return _dump(s, hide=False)


def _dump(s: GameState, hide: bool) -> dict[str, Any]:
    return {
        "format": STATE_FORMAT,
        "engine_version": s.engine_version,
        "catalog": {"edition": s.catalog_edition, "hash": s.catalog_hash},
        "options": s.options.to_json(),
        "first_seat": s.first_seat,
        "players": [_player_json(p, hide) for p in s.players],
        "display": list(s.display),
        "covers": [list(row) for row in s.covers],
        "supply": list(s.supply),
        "scale": list(s.scale),
        "subjects": list(s.subjects),
        "objectives": list(s.objectives),
        "claims": [list(c) for c in s.claims],
        "pages": list(s.pages),
        "turn": _turn_json(s.turn, hide),
        "agenda": [[t.kind, t.n, t.arg, t.source] for t in s.agenda],
        "last_turn": s.last_turn,
        "winners": list(s.winners),
        "commitment": s.commitment,
        "forks": s.forks,
        "deck": list(s.deck),
        "box": list(s.box),
        "reserve": list(s.reserve),
        "seed": s.seed,
        "salt": s.salt,
        "dealt": [list(x) for x in s.dealt],
        **dump_parts(GAME_PARTS, s.parts, hide),  # an expansion's own state (domain/parts.py)
        **({"frozen": sorted(s.frozen)} if s.frozen else {}),  # only once a seat forfeited (ASYNC-3)
    }


def public_state(s: GameState, viewer: int | None = None) -> dict[str, Any]:
    """`dump_state` without the hidden fields, plus what anyone may know of the deck. Face-down
    library cards (OBS-52) of seats other than `viewer` show as "hidden:<tier>" (their back is public,
    their front is not)."""
    out = _dump(s, hide=True)  # parts leave out what nobody may see (domain/parts.py)
    for name in HIDDEN_STATE_FIELDS:
        out.pop(name, None)
    for p, pj in zip(s.players, out["players"], strict=True):
        if p.seat != viewer:
            pj["library"] = [
                [card if dark else f"hidden:{s.catalog.cards[card].tier}", dark] for card, dark in p.library
            ]
    tiers = [s.catalog.cards[c].tier for c in s.deck]
    out["deck_size"] = len(s.deck)
    out["deck_tiers"] = {str(t): tiers.count(t) for t in (1, 2, 3)}
    out["reserve_size"] = len(s.reserve)
    return out


def _tuple(xs: Any) -> tuple[Any, ...]:
    if not isinstance(xs, list):
        raise ValueError(f"expected a list, got {type(xs).__name__}")
    return tuple(xs)


def load_state(data: Mapping[str, Any]) -> GameState:
    """Inverse of `dump_state`; raises ValueError (with the key) on malformed data."""
    try:
        return _load(data)
    except (KeyError, TypeError, IndexError) as exc:
        raise ValueError(f"malformed state: {type(exc).__name__}: {exc}") from None


def upgrade_state(data: Mapping[str, Any]) -> Mapping[str, Any]:
    """A position in an older documented format, in the current one (docs/state.md, "Format versions")."""
    version = data.get("format")
    if version not in READ_FORMATS:
        raise ValueError(f"unsupported state format {version!r} (this build reads {READ_FORMATS})")
    if version == 1:  # the first release: one rules version, 0.1.0
        data = {**data, "format": 2, "engine_version": "0.1.0"}
    return data


def _load(data: Mapping[str, Any]) -> GameState:
    data = upgrade_state(data)
    engine_version = check_rules_version(data["engine_version"])
    catalog = load_catalog(data["catalog"]["edition"])
    if catalog.content_hash != data["catalog"]["hash"]:
        raise ValueError("the state was made with a different catalog (content hash differs)")
    players = tuple(
        PlayerState(
            seat=p["seat"],
            name=p["name"],
            character=p["character"],
            telescope=p["telescope"],
            queue=_tuple(p["queue"]),
            upgraded=frozenset(p["upgraded"]),
            dice=tuple((c, v) for c, v in p["dice"]),
            quadrants=p["quadrants"],
            score=p["score"],
            points=tuple(sorted(p["points"].items())),
            books=_tuple(p["books"]),
            library=tuple((card, dark) for card, dark in p["library"]),
            comets=_tuple(p["comets"]),
            tokens_used=p["tokens_used"],
            tokens_boxed=p["tokens_boxed"],
            cellar=_tuple(p["cellar"]),
            reputation=p["reputation"],
            university=_tuple(p["university"]),
            achievements=_tuple(p["achievements"]),
            appendix=p["appendix"],
            parts=load_parts(PLAYER_PARTS, p, FLAT_PLAYER_PARTS, NESTED_PLAYER_PARTS),
        )
        for p in data["players"]
    )
    t = data["turn"]
    turn = TurnState(
        seat=t["seat"],
        number=t["number"],
        phase=t["phase"],
        fixed_done=t["fixed_done"],
        moving_done=t["moving_done"],
        used_tile=t["used_tile"],
        rotated=t["rotated"],
        inquisitor_moved=t["inquisitor_moved"],
        interrogated=t["interrogated"],
        cellar_peak=t["cellar_peak"],
        comets_used=frozenset(t["comets_used"]),
        windows_closed=t["windows_closed"],
        objectives_due=None if t["objectives_due"] is None else tuple(t["objectives_due"]),
        space=t["space"],
        parts=load_parts({}, t, FLAT_TURN_PARTS),
    )
    options = Options.from_json(data["options"])
    characters = tuple(p.character for p in players)
    pins = Pins(engine_version, catalog.edition, options, characters, tuple(side_of(p) for p in players))
    return GameState(
        catalog=catalog,
        rules=ruleset_for(pins),
        catalog_edition=catalog.edition,
        catalog_hash=catalog.content_hash,
        options=options,
        players=players,
        first_seat=data["first_seat"],
        display=_tuple(data["display"]),
        covers=tuple(tuple(row) for row in data["covers"]),
        deck=_tuple(data["deck"]),
        box=_tuple(data["box"]),
        reserve=_tuple(data["reserve"]),
        supply=_tuple(data["supply"]),
        scale=_tuple(data["scale"]),
        subjects=_tuple(data["subjects"]),
        objectives=_tuple(data["objectives"]),
        claims=tuple(tuple(c) for c in data["claims"]),
        pages=_tuple(data["pages"]),
        turn=turn,
        agenda=tuple(Task(k, n, a, src) for k, n, a, src in data["agenda"]),
        last_turn=data["last_turn"],
        winners=_tuple(data["winners"]),
        seed=data["seed"],
        salt=data["salt"],
        commitment=data["commitment"],
        dealt=tuple(tuple(x) for x in data["dealt"]),
        forks=data["forks"],
        engine_version=engine_version,
        frozen=frozenset(data.get("frozen", ())),
        parts=load_parts(GAME_PARTS, data),
    )

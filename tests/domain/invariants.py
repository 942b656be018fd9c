"""Invariants that hold after every event of every game (engine issue, "Property runs")."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from domain import events as ev
from domain.characters import Character
from domain.characters.copernicus import CopernicusLibrary
from domain.characters.kepler import KeplerBoard
from domain.expansions.luna.state import luna_of, seat_of
from domain.expansions.solo.data import CURRENT, solo_data
from domain.expansions.solo.state import TychoState
from domain.state import COLOURS, MAX_DICE, MAX_PER_COLOUR, TOKENS, GameState


def check(state: GameState, vp_events: Counter[int]) -> None:
    cat = state.catalog
    per_colour = state.options.dice_supply_per_colour or cat.dice_per_colour
    held: Counter[str] = Counter()
    tile_ids = sorted(t.id for t in cat.action_tiles)
    for p in state.players:
        assert len(p.dice) <= MAX_DICE, f"seat {p.seat} holds {len(p.dice)} dice (DIE-2)"
        counts = Counter(c for c, _ in p.dice)
        assert max(counts.values(), default=0) <= MAX_PER_COLOUR, f"seat {p.seat}: {counts} (DIE-2)"
        assert all(1 <= v <= state.die_max for _, v in p.dice), p.dice
        held.update(counts)
        assert len(p.comets) == TOKENS and set(p.comets) <= {"slot", "sky1", "sky2", "pending", "book"}
        in_book = p.comets.count("book")
        pages = sum(1 for owner in state.pages if owner == p.seat)
        part = p.part(Character)
        board = p.part(KeplerBoard)  # CHAR-KEP-1: Kepler's set-aside tile
        tiles = p.part(CopernicusLibrary)  # CHAR-COP-2: Copernicus' library tiles
        assert part is not None or board is tiles is None, "a character's own part only on its ability side"
        personal = len(part.pages) if part is not None else 0  # CHAR-3: personal pages
        assert in_book == pages + p.appendix + personal, (
            f"seat {p.seat}: comets in book {in_book} != {pages}+{p.appendix}+{personal}"
        )
        placed = sum(1 for row in state.covers for seat in row if seat == p.seat)
        assert 0 <= p.tokens_used <= TOKENS
        assert placed + p.tokens_boxed == p.tokens_used, "7 constellation tokens accounted for"
        if p.character == "tycho":  # his solo Action tiles (SOLO-23), with Luna the Moon tile (SOLO-3)
            own = p.part(TychoState)
            line = solo_data(own.data if own else CURRENT).base_tiles
            assert sorted(p.queue) == sorted(line) or sorted(p.queue) == sorted((*line, "TYM"))
            assert sum(seat_of(p).grand) == 0, "SOLO-11: his cellar never holds a Grand Inquisitor"
        elif board is not None:  # CHAR-KEP-1: six on the board (the special one) plus one aside
            assert len(p.queue) == 6 and sorted((*p.queue, board.aside)) == sorted((*tile_ids, "K1"))
            assert p.queue.count("K1") == 1 and board.aside != "K1", "CHAR-KEP-3"
        elif part is not None and p.character in ("newton", "cunitz"):  # CHAR-NEW-1, CHAR-CUN-1: their own
            own = (
                cat.luna_characters.newton_tiles
                if p.character == "newton"
                else cat.luna_characters.cunitz_tiles
            )
            assert sorted(p.queue) == sorted(t.id for t in own), "their own 6 tiles in the queue (ROT-5)"
        else:
            assert sorted(p.queue) == tile_ids, "6 tiles in the queue (ROT-5)"
        if part is not None:
            _luna_character(state, p)
        if tiles is not None:  # CHAR-COP-3/4: inside the library, never over a Book token
            cells = [(row + k, col) for t, _, col, row in tiles.library for k in range(_rows(cat, t))]
            assert len(cells) == len(set(cells)), "library tiles never overlap"
            assert all(0 <= r < 4 and 1 <= col <= 1 + len(p.library) for r, col in cells)
            assert len({t for t, _, _, _ in tiles.library}) == len(tiles.library) <= 4
        cellar_spaces = 5 if part is not None and p.character == "bruno" else len(cat.cellar_arch)
        assert len(p.cellar) == len(seat_of(p).grand) == cellar_spaces, "CHAR-BRU-2: Bruno's 5-space cellar"
        assert p.score == sum(v for _, v in p.points), "score = sum of points by source"
        assert p.score == vp_events[p.seat], "score = sum of VictoryPointsScored events"
        assert cat.reputation_min <= p.reputation <= cat.reputation_max, "reputation within the track"
        assert all(n >= 0 for n in p.cellar) and all(n >= 0 for n in seat_of(p).grand)
        assert all(0 <= h <= 4 for h in p.university)
        assert all(0 <= b <= _book_end(state, p) for b in p.books), (p.books, len(p.library))
        assert p.quadrants >= 0
        assert set(p.upgraded) <= set(p.queue) | ({board.aside} if board is not None else set())
    for i, colour in enumerate(COLOURS):
        assert state.supply[i] >= 0
        assert state.supply[i] + held[colour] == per_colour, f"{colour} dice conserved"
    luna = luna_of(state)
    if luna is not None:
        on_moon = sum(1 for flipped in luna.flipped if not flipped)
        in_cellars = sum(sum(seat_of(p).grand) for p in state.players)
        on_board = sum(len(seats) for seats in luna.bonus)
        in_transit = sum(1 for t in state.agenda if t.kind == "GRAND")  # taken from its Moon tile (LUNA-23.4)
        assert on_moon + in_cellars + on_board + in_transit == 9, "9 Grand Inquisitors accounted for"
        assert all(len(seats) <= 1 for seats in luna.bonus[:8]), "Bonus spaces 1-8 hold one figure (LUNA-42)"
        assert all(seat_of(p).grand[-1] == 0 for p in state.players) or (
            state.agenda[-1:] and state.agenda[-1].kind == "DEPART"
        )
        assert list(luna.costs) == sorted(luna.costs) and len(luna.costs) == 9 - sum(
            seat_of(p).moon for p in state.players
        )
        assert sum(1 for t in luna.scoring if t) == on_moon, "each Scoring tile scored at most once"
    seen = [c for c in state.display if c is not None]
    libraries = [card for p in state.players for card, _ in p.library]
    everything = seen + libraries + list(state.deck) + list(state.box) + list(state.reserve)
    assert len(everything) == len(set(everything)), "a card is in two places"
    assert sorted(everything) == sorted(cat.cards), "every card accounted for"


def _luna_character(state: GameState, p: Any) -> None:
    """The Luna characters' components (issue 12): Hevelius' 16 tiles accounted for, her offer of at most
    three and only incomplete constellations in progress; Cunitz' tokens on her board, her six Notes;
    Newton's multipliers; Sophia's Venus on one of its positions."""
    from domain.abilities import hevelius as hev
    from domain.abilities import newton as new
    from domain.characters.cunitz import Urania
    from domain.characters.hevelius import Heavens
    from domain.characters.sophia import Venus

    data = state.catalog.luna_characters
    if data is None:
        return
    heavens = p.part(Heavens)
    if heavens is not None:
        tiles = [
            *heavens.deck,
            *heavens.offer,
            *heavens.discard,
            *(t for c in heavens.constellations for t in c),
        ]
        assert sorted(tiles) == sorted(t.id for t in data.hevelius_tiles), "Hevelius' 16 tiles (CHAR-HEV-1)"
        assert len(heavens.offer) <= data.offer_size, "CHAR-HEV-8"
        for group in heavens.constellations:
            layout = [hev.Tile(t, data.constellation_tile(t).stars, data.constellation_tile(t).connections)
                      for t in group]  # fmt: skip
            assert hev.open_connections(layout) > 0, "complete constellations leave (CHAR-HEV-7)"
    urania = p.part(Urania)
    if urania is not None:
        assert 0 <= urania.square < len(data.track) and urania.round in ("", *COLOURS), "CHAR-CUN-1"
        assert sorted(urania.notes) == sorted(n.id for n in data.notes) and 1 <= urania.shown <= 6
    if p.character == "newton":
        mirrors = frozenset(t.id for t in data.newton_tiles if t.mirror)
        vp = new.page2_vp(p.queue, mirrors, data.multipliers, data.page2_vp_per_multiplier)
        assert 0 <= vp <= 8 and all(0 <= new.multiplier(data.multipliers, i) <= 4 for i in range(6))
    venus = p.part(Venus)
    if venus is not None:
        assert 0 <= venus.position < len(data.venus), "CHAR-SOP-2"


def _book_end(state: GameState, p: Any) -> int:
    """WRT-2: a row's last space, 1 + the cards; the solo Tycho's own library track (AMB-56)."""
    from domain.expansions.solo.rules import TYCHO, book_track_end

    return book_track_end(state, p.seat) if p.character == TYCHO else 1 + len(p.library)


def _rows(cat: Any, tile: str) -> int:
    ability = cat.character("copernicus").ability
    return next(t.rows for t in ability.library_tiles if t.id == tile)


def check_all(events: Iterable[ev.Event]) -> GameState:
    """Fold the events, checking the invariants after each one; returns the final state."""
    from domain.evolve import evolve

    state: GameState | None = None
    vp: Counter[int] = Counter()
    for e in events:
        state = evolve(state, e)
        if isinstance(e, ev.VictoryPointsScored):
            vp[e.seat] += e.points
        check(state, vp)
    assert state is not None
    return state

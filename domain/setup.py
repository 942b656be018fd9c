"""Game setup (digest §1): seats, options, seed -> the `GameStarted` event, and fork re-deals."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from domain.catalog import Catalog, load_catalog
from domain.characters import SIDES, rules_for, rules_of
from domain.editions import ENGINE_VERSION, check_rules_version
from domain.errors import IllegalMove
from domain.events import Event, GameForked, GameStarted
from domain.options import Options
from domain.rng import SeededRandom, digest
from domain.ruleset import Pins, Ruleset, ruleset_for
from domain.state import COLOURS, GameState


# CHAR-2: the characters of the current catalog edition (its characters.json), in the order setup offers
# them, for defaults and clients (the API's `character` values). A game offers those of its own edition
# (catalog.characters).
# Read when first asked, not at import (domain/ reads no file at import).
@cache
def characters() -> tuple[str, ...]:
    return tuple(board.id for board in load_catalog().characters)


@cache
def base_characters() -> tuple[str, ...]:
    """The base game's characters (basic, Quadrant-symbol side, SET-21)."""
    return tuple(board.id for board in load_catalog().characters if board.expansion == "base")


@cache
def more_characters() -> tuple[str, ...]:
    """The others (CHAR-2: usable in every game)."""
    return tuple(c for c in characters() if c not in base_characters())


@dataclass(frozen=True, slots=True)
class SeatSpec:
    name: str
    character: str
    side: str = "basic"  # CHAR-1: "basic" (the Quadrant symbol, SET-21) or "ability"
    aside: str | None = None  # Kepler's ability: the basic Action tile set aside (AMB-30; None = drawn)


@dataclass(frozen=True, slots=True)
class Setup:
    """Everything that decides a new game. `seed` is secret until the game ends."""

    seats: tuple[SeatSpec, ...]
    seed: str
    first_seat: int | None = None  # SET-12: None = drawn from the seed
    options: Options = field(default_factory=Options)
    catalog_edition: str = "current"  # an edition id, or "current" (= "base"): docs/editions.md
    tile_orders: tuple[tuple[str, ...], ...] | None = None  # SET-23 chosen orders (randomActionTiles false)
    # The commitment's salt. A service passes a secret random one (with a secret random seed): derived
    # from the seed, anyone who can guess the seed can test it against the public commitment.
    salt: str | None = None
    # The engine rules version (docs/editions.md); None = ENGINE_VERSION. Re-adjudication pins it to
    # the recorded one.
    engine_version: str | None = None
    # A non-player opponent's level (the solo game: easy, normal, hard, flaming; SOLO-2).
    difficulty: str | None = None


@dataclass(frozen=True, slots=True)
class ExtraDeal:
    """An expansion's own hidden deal beside the cards (docs/engine.md).

    `deal` draws it at setup (from its own seeded stream of the setup's seed): the `GameStarted` fields
    it fills and its hidden order, or None when the expansion is not in the game. The hidden order is
    committed with the cards, as the commitment's part `<label>:<ids>`, kept in the state's `dealt`
    and revealed by `GameEnded`. `redeal` draws anew, at a fork, what of it is still unseen (with the
    fork's random stream, after the cards) and gives the whole hidden order; () when there is none.
    """

    label: str
    deal: Callable[[Setup, Catalog], tuple[Mapping[str, Any], tuple[str, ...]] | None]
    redeal: Callable[[GameState, SeededRandom], tuple[str, ...]]


@dataclass(frozen=True, slots=True)
class OpponentSetup:
    """A non-player opponent's seat at setup (docs/engine.md, domain/opponents.py).

    `claims` says whether a setup is its game (the solo game: one person seat); `check` refuses a bad one
    (IllegalMove); `seat` gives its seat, added after the person seats, with its line of tiles (the seat's
    `queue`); `dealt` gives its events after `GameStarted` (its own deal, whose hidden part it commits
    with the deal's salt, the third argument).

    `redealt(fresh, recorded, salt)` gives those events as they stand in a start that a re-dealing fork
    rewrote (`redealt_start`): `fresh` is what `dealt` deals with the fork's seed, `recorded` the events
    the log holds after `GameStarted`. The seed that drew the recorded deal is gone, so what it drew in
    public is taken from `recorded`; its hidden part holds what `fresh` holds, in the order the fork
    re-dealt it (the fork's rewrite checks that order: domain/fork.py, `OPPONENT_REDEALS`)."""

    claims: Callable[[Setup], bool]
    check: Callable[[Setup, Catalog], None]
    seat: Callable[[Setup, Catalog], tuple[SeatSpec, tuple[str, ...]]]
    dealt: Callable[[Setup, Catalog, str], list[Event]]
    redealt: Callable[[list[Event], Sequence[Event], str], list[Event]]
    # The setup as its game plays it (e.g. SOLO-26: the person on the character's ability side).
    prepare: Callable[[Setup, Catalog], Setup] = lambda setup, catalog: setup


def opponent_setup(setup: Setup, rules: Ruleset) -> OpponentSetup | None:
    """The non-player opponent's setup that claims this setup, among its rules' (`Rules.opponent_setups`)."""
    return next((o for o in rules.opponent_setups if o.claims(setup)), None)


def _extra_deals() -> tuple[ExtraDeal, ...]:
    """The expansions' own deals (one at most: `domain.vocabulary.EXTRA_DEALS`)."""
    # Imported here: the plug-ins that declare a deal import this module (its `Setup`, `ExtraDeal`).
    from domain.vocabulary import EXTRA_DEALS

    return EXTRA_DEALS


def commitment_of(
    salt: str,
    deck: tuple[str, ...],
    box: tuple[str, ...],
    reserve: tuple[str, ...],
    extra: tuple[str, ...] = (),
    characters: tuple[tuple[str, ...], ...] | None = None,
) -> str:
    """SHA-256 over the salt and every hidden order: published at setup, checkable at the end.
    `extra` is an expansion's hidden order (`ExtraDeal`), committed under its label; `characters` the
    hidden order of each seat's character (Hevelius' deck, Cunitz' Notes), committed as `seat<i>:<ids>`
    for each seat that has one (a game without any commits exactly what it did before)."""
    parts = ["deck:" + ",".join(deck), "box:" + ",".join(box), "reserve:" + ",".join(reserve)]
    if extra:
        deals = _extra_deals()
        if not deals:
            raise ValueError("a hidden order beside the cards, but no expansion deals one")
        parts.append(f"{deals[0].label}:" + ",".join(extra))
    for seat, order in enumerate(characters or ()):
        if order:
            parts.append(f"seat{seat}:" + ",".join(order))
    return digest(salt, *parts)


def _check_setup(
    setup: Setup, catalog: Catalog, rules: Ruleset, opponent: OpponentSetup | None = None
) -> None:
    """Refuse a setup the rules do not allow, one concern after the other (the first refusal wins)."""
    _check_player_count(setup, catalog, opponent)
    _check_characters(setup, catalog, rules)
    _check_seats(setup, catalog)
    _check_tile_orders(setup, catalog)


def _check_player_count(setup: Setup, catalog: Catalog, opponent: OpponentSetup | None) -> None:
    n = len(setup.seats)
    if opponent is not None:
        opponent.check(setup, catalog)
    elif n == 1:
        raise IllegalMove("solo-unsupported", "no solo opponent is available in this build", "SOLO-1")
    elif not 2 <= n <= 4:
        raise IllegalMove("player-count", "a game has 2 to 4 players, not {n}", "COMP-11", n=n)


def _check_characters(setup: Setup, catalog: Catalog, rules: Ruleset) -> None:
    """SET-21, CHAR-1: characters of the edition, all different, each on a side it has."""
    chars = [s.character for s in setup.seats]
    offered = [board.id for board in catalog.characters]  # CHAR-2: the edition's astronomers
    for c in chars:
        if c not in offered:
            raise IllegalMove(
                "unknown-character",
                "unknown character {c!r}; choose one of {offered}",
                "SET-21",
                c=c,
                offered=", ".join(offered),
            )
    if len(set(chars)) != len(chars):
        raise IllegalMove("duplicate-character", "each seat needs a different character board", "SET-21")
    for s in setup.seats:
        board = catalog.character(s.character)
        if s.side not in SIDES:
            raise IllegalMove(
                "bad-side", "a character plays its basic or ability side, not {side!r}", "CHAR-1", side=s.side
            )
        if s.side not in board.sides() or (s.side == "ability" and s.character not in rules.abilities):
            raise IllegalMove(
                "no-ability-side",
                "{name}'s ability side is not in catalog edition {edition}",
                "CHAR-1",
                name=board.name,
                edition=catalog.edition,
            )
        problem = rules_of(rules, s.character, s.side).check_seat(catalog, s.character, s.aside)
        if problem is not None:
            raise problem


def _check_seats(setup: Setup, catalog: Catalog) -> None:
    """Names, the first seat, a deck for this many players, a seed."""
    n = len(setup.seats)
    for s in setup.seats:
        if not s.name.strip() or len(s.name) > 40:
            raise IllegalMove("bad-name", "a seat name must have 1 to 40 characters", "SET-21")
    if setup.first_seat is not None and not 0 <= setup.first_seat < n:
        raise IllegalMove("bad-first-seat", "first seat must be 0..{n}", "SET-12", n=n - 1)
    if n not in catalog.deck_composition:
        raise IllegalMove("player-count", "the catalog has no deck for {n} players", "SET-6", n=n)
    if not setup.seed:
        raise IllegalMove("bad-seed", "a game needs a seed", "SET-3")


def _check_tile_orders(setup: Setup, catalog: Catalog) -> None:
    """SET-23: each seat's Action tile order, given exactly when the tiles are not dealt at random."""
    tile_ids = sorted(t.id for t in catalog.action_tiles)
    if setup.tile_orders is not None:
        if setup.options.random_action_tiles:
            raise IllegalMove("tile-orders", "tile orders given but randomActionTiles is true", "SET-23")
        if len(setup.tile_orders) != len(setup.seats) or any(
            sorted(o) != tile_ids for o in setup.tile_orders
        ):
            raise IllegalMove(
                "tile-orders",
                "each seat's tile order must be a permutation of {tile_ids}",
                "SET-23",
                tile_ids=", ".join(tile_ids),
            )
    elif not setup.options.random_action_tiles:
        raise IllegalMove("tile-orders", "randomActionTiles is false: give each seat's tile order", "SET-23")


def _deal(
    catalog: Catalog, players: int, rng: SeededRandom, pools: dict[int, list[str]]
) -> tuple[list[str], list[str], list[str]]:
    """SET-3/SET-4: random cards of each tier, Tier III at the bottom, Tier I on top."""
    counts = catalog.deck_composition[players]
    deck: list[str] = []
    box: list[str] = []
    reserve: list[str] = []
    for tier, count in zip((1, 2, 3), counts, strict=True):
        shuffled = rng.shuffled(sorted(pools[tier]))
        deck.extend(shuffled[:count])
        (reserve if tier == 3 else box).extend(shuffled[count:])
    return deck, sorted(box), reserve


@dataclass(frozen=True, slots=True)
class _Board:
    """The shared components as dealt (SET-3..SET-8)."""

    deck: tuple[str, ...]
    box: tuple[str, ...]
    reserve: tuple[str, ...]
    display: tuple[str, ...]
    scale: tuple[str, ...]
    subjects: tuple[str, ...]
    objectives: tuple[str, ...]


def _deal_board(catalog: Catalog, players: int, rng: SeededRandom) -> _Board:
    """The Discovery deck and display, the Scale and Subject tiles (the setup stream's first draws)."""
    pools: dict[int, list[str]] = {1: [], 2: [], 3: []}
    for card in catalog.cards.values():
        pools[card.tier].append(card.id)
    deck, box, reserve = _deal(catalog, players, rng, pools)
    display, deck = deck[:6], deck[6:]  # SET-5
    # SET-7, AMB-18: four Scale tiles in random order, each on a random face.
    tiles = rng.shuffled(list(catalog.scale_tiles))[: catalog.scale_tiles_in_play]
    scale = tuple(t.faces[rng.below(2)].id for t in tiles)
    # SET-7/SET-8: four Subject tiles arch side up on the Scale tiles, two niche side up as objectives.
    subjects = rng.shuffled(list(catalog.subject_tiles))
    arch = tuple(s.arch for s in subjects[: len(scale)])
    objectives = tuple(catalog.printed_objectives) + tuple(s.niche for s in subjects[len(scale) :])
    return _Board(tuple(deck), tuple(box), tuple(reserve), tuple(display), scale, arch, objectives)


def _seat_boards(
    setup: Setup, catalog: Catalog, rules: Ruleset, rng: SeededRandom
) -> tuple[tuple[tuple[str, ...], ...], list[dict[str, Any] | None]]:
    """Each seat's Action tile queue (SET-23) and its character's layout on its side (CHAR-1: Kepler,
    CHAR-KEP-1), drawn after the queues."""
    tile_ids = [t.id for t in catalog.action_tiles]
    if setup.tile_orders is not None:
        queues = tuple(tuple(o) for o in setup.tile_orders)
    else:
        queues = tuple(tuple(rng.shuffled(tile_ids)) for _ in setup.seats)  # SET-23
    layouts: list[dict[str, Any] | None] = []
    laid: list[tuple[str, ...]] = []
    for spec, queue in zip(setup.seats, queues, strict=True):
        queue, layout = rules_of(rules, spec.character, spec.side).layout(
            catalog, spec.character, queue, spec.aside
        )
        laid.append(queue)
        layouts.append(layout)
    return tuple(laid), layouts


def _hidden_deals(
    setup: Setup, catalog: Catalog, rules: Ruleset, engine_version: str, opponent: OpponentSetup | None
) -> tuple[dict[str, Any], tuple[str, ...], tuple[tuple[str, ...], ...] | None]:
    """An expansion's own deal (its event fields and hidden part), and each seat's character's own
    hidden order (Hevelius' deck, Cunitz' Notes) from its own stream; all of it goes into the commitment."""
    extra_fields: dict[str, Any] = {}
    hidden: tuple[str, ...] = ()
    for extra in _extra_deals():
        dealt = extra.deal(setup, catalog)
        if dealt is not None:
            extra_fields, hidden = dict(dealt[0]), dealt[1]
    own = tuple(
        rules_of(rules, spec.character, spec.side).deal(
            catalog, SeededRandom(setup.seed, f"character:{i}"), engine_version
        )
        for i, spec in enumerate(setup.seats)
    )
    if opponent is not None:
        own = (*own, ())  # a non-player opponent has no character
    return extra_fields, hidden, own if any(own) else None


def setup_rules(setup: Setup, catalog: Catalog, engine_version: str) -> Ruleset:
    """The rules of a setup's person seats (their characters' sides: CHAR-1) and options; a setup of one
    person seat is also played with the non-player opponents' rules (domain/expansions/plugins.py)."""
    characters = tuple(spec.character for spec in setup.seats)
    sides = tuple(spec.side for spec in setup.seats)
    return ruleset_for(Pins(engine_version, catalog.edition, setup.options, characters, sides))


def start_game(setup: Setup, catalog: Catalog | None = None) -> list[Event]:
    """Decide the setup: the first event of every game (`GameStarted`), then a non-player opponent's
    own deal, if the game has one."""
    catalog = catalog or load_catalog(setup.catalog_edition)
    engine_version = check_rules_version(setup.engine_version or ENGINE_VERSION)
    opponent = opponent_setup(setup, setup_rules(setup, catalog, engine_version))
    if opponent is not None:
        setup = opponent.prepare(setup, catalog)
    rules = setup_rules(setup, catalog, engine_version)
    _check_setup(setup, catalog, rules, opponent)
    n = len(setup.seats)  # the person seats: a non-player opponent's is added after them
    rng = SeededRandom(setup.seed, "setup")
    board = _deal_board(catalog, n, rng)
    queues, layouts = _seat_boards(setup, catalog, rules, rng)
    sides = tuple(spec.side for spec in setup.seats)
    first = setup.first_seat if setup.first_seat is not None else rng.below(n)
    seats = tuple((s.name, s.character) for s in setup.seats)
    if opponent is not None:  # its seat after the person seats (SOLO-27: the person plays first)
        spec, line = opponent.seat(setup, catalog)
        seats, queues = (*seats, (spec.name, spec.character)), (*queues, line)
        sides, layouts = (*sides, "basic"), [*layouts, None]  # the opponent has no character side
    per_colour = setup.options.dice_supply_per_colour or catalog.dice_per_colour
    supply = tuple(per_colour - len(seats) for _ in COLOURS)  # SET-22: one die of each colour per player
    if min(supply) < 0:
        raise IllegalMove(
            "dice-supply",
            "{per_colour} dice per colour are too few for {n} players",
            "AMB-2",
            per_colour=per_colour,
            n=n,
        )
    salt = setup.salt or digest("salt", setup.seed)
    extra_fields, hidden, character_deals = _hidden_deals(setup, catalog, rules, engine_version, opponent)
    started = GameStarted(
        seat=None,
        seats=seats,
        first_seat=first,
        options=setup.options.to_json(),
        catalog_edition=catalog.edition,
        catalog_hash=catalog.content_hash,
        engine_version=engine_version,
        display=board.display,
        scale=board.scale,
        subjects=board.subjects,
        objectives=board.objectives,
        queues=queues,
        supply=supply,
        deck_size=len(board.deck),
        commitment=commitment_of(salt, board.deck, board.box, board.reserve, hidden, character_deals),
        deck=board.deck,
        box=board.box,
        reserve=board.reserve,
        seed=setup.seed,
        salt=salt,
        sides=sides if any(side != "basic" for side in sides) else None,
        layouts=tuple(layouts) if any(layout is not None for layout in layouts) else None,
        character_deals=character_deals,
        **extra_fields,
    )
    return [started, *(opponent.dealt(setup, catalog, salt) if opponent is not None else ())]


def redealt_start(setup: Setup, recorded: Sequence[Event]) -> list[Event]:
    """The events after `GameStarted` in a start that a re-dealing fork rewrote (replays/verify.py), whose
    `setup` carries the fork's seed and salt: a non-player opponent's own deal as its setup deals it, with
    the fork's re-deal of its hidden part (`OpponentSetup.redealt`); [] in a game without one.
    `recorded` is what the log holds after `GameStarted`. Raises IllegalMove for a setup the rules refuse."""
    started, *dealt = start_game(setup)
    assert isinstance(started, GameStarted)
    catalog = load_catalog(setup.catalog_edition)
    opponent = opponent_setup(setup, setup_rules(setup, catalog, started.engine_version))
    if opponent is None or not dealt:
        return dealt
    return opponent.redealt(dealt, recorded, started.salt)


def redeal(
    state: GameState,
    seed: str,
    source_game: str,
    source_version: int,
    salt: str | None = None,
    unseen: tuple[str, ...] | None = None,
) -> GameForked:
    """Fork an unfinished game: re-deal every unseen card with a new seed (design.md, "Hidden
    information"). The deck keeps its size and tier layering; which cards it holds is drawn anew.
    `unseen` is the pool to deal from (default: the deck, the box and the reserve)."""
    catalog = state.catalog
    tiers = [catalog.cards[c].tier for c in state.deck]
    pools: dict[int, list[str]] = {1: [], 2: [], 3: []}
    for card in unseen if unseen is not None else (*state.deck, *state.box, *state.reserve):
        pools[catalog.cards[card].tier].append(card)
    rng = SeededRandom(seed, "fork")
    deck: list[str] = []
    box: list[str] = []
    reserve: list[str] = []
    for tier in (1, 2, 3):
        need = tiers.count(tier)
        shuffled = rng.shuffled(sorted(pools[tier]))
        deck.extend(shuffled[:need])
        (reserve if tier == 3 else box).extend(shuffled[need:])
    extra: tuple[str, ...] = ()
    for deal in _extra_deals():  # what of an expansion's own deal is still unseen
        extra = deal.redeal(state, rng) or extra
    # each seat's character re-deals what of its own hidden order is still unseen (Hevelius, Cunitz)
    characters = tuple(rules_for(state, p).redeal(state.catalog, p, rng) for p in state.players)
    dealt = characters if any(characters) else None
    salt = salt or digest("salt", seed)
    return GameForked(
        seat=None,
        source_game=source_game,
        source_version=source_version,
        commitment=commitment_of(salt, tuple(deck), tuple(sorted(box)), tuple(reserve), extra, dealt),
        deck=tuple(deck),
        box=tuple(sorted(box)),
        reserve=tuple(reserve),
        seed=seed,
        salt=salt,
        moon_hidden=extra,
        character_deals=dealt,
    )


def character_deals(state: GameState) -> tuple[tuple[str, ...], ...] | None:
    """Each seat's character's hidden order as committed last (None when no seat has one)."""
    dealt = tuple(rules_for(state, p).dealt(p) for p in state.players)
    return dealt if any(dealt) else None

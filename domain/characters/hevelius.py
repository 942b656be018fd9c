"""Elizabeth Hevelius' ability side (digest §17.6): her Constellation tiles (CHAR-HEV-1..8, DER-11,
AMB-35..37, DATA-19). The rules are pure functions in `domain/abilities/hevelius.py`; this module plugs
them into the engine.

Hidden information: her deck's order is part of the committed deal (the seat's hidden order,
`CharacterRules.deal`); the public view shows only its size. Since rules 0.3.0 every later order is
committed with it: the seat's hidden order is her deck, then the explicit orders of her next reshuffles
(`order:<ids>`, only in a deal a fork rewrote), then a secret reshuffle key (`key:<hex>`). A reshuffle of
her discard pile (CHAR-HEV-7) takes its order from the next explicit order, else from the key (reshuffle
k: the pile, sorted, shuffled by the key's stream `hevelius-reshuffle:<k>`), and records it in a hidden
field of `ConstellationDeckReshuffled`. A re-dealing fork (domain/fork.py) re-deals what of the deck is
unseen and draws a new key, and rewrites the copied events so that they reproduce themselves exactly:
the deal and each reshuffle become what the prefix drew, then the re-dealt rest (`rewrite_fork`).
Under rules 0.2.0 (no key) a reshuffle drew its order from the game's secret seed at that moment.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from domain import commands as c
from domain import events as ev
from domain.abilities import hevelius as rules
from domain.catalog import Catalog
from domain.catalog.luna_characters import LunaCharacters
from domain.characters import Character, CharacterRules, with_character
from domain.commands import Command, Parser, int_arg, need_args
from domain.editions import RULES_0_3_0, RULES_0_4_0, at_least
from domain.effect_kinds import EffectKind, Emitter
from domain.effects import reward_tasks
from domain.errors import IllegalMove
from domain.events import Event, GrantingEvent, PlayerEvent
from domain.evolve import resolved
from domain.parts import PartCodec, json_tuple
from domain.resolve import Run
from domain.rng import SeededRandom
from domain.ruleset import Rules
from domain.state import GameState, Part, PlayerState, Task, put_part, replace

RULES = Rules(__name__)  # this module's rules (domain/ruleset.py)

RULES.point_rules["hevelius"] = "CHAR-HEV-6"


def data_of(catalog: Catalog) -> LunaCharacters:
    data = catalog.luna_characters
    assert data is not None, "Hevelius' ability in a catalog edition without her tiles (DATA-19)"
    return data


@dataclass(frozen=True, slots=True)
class Heavens(Part):
    """Hevelius' tiles (CHAR-HEV-1..8): her deck (hidden, top first), the offer, the discard pile, her
    constellations in progress, and this turn's facts (the icons she performed with effect, her claim)."""

    key: ClassVar[str] = "hevelius"

    deck: tuple[str, ...]
    offer: tuple[str, ...]
    discard: tuple[str, ...] = ()
    constellations: tuple[tuple[str, ...], ...] = ()
    dealt: tuple[str, ...] = ()  # the deck as committed (revealed at the end)
    turn: int = -1  # the turn `performed` and `claimed` belong to
    performed: tuple[str, ...] = ()  # condition icons performed with effect this turn (CHAR-HEV-2/3)
    claimed: bool = False  # CHAR-HEV-2: at most one claim per turn
    discarded: bool = False  # CHAR-HEV-8: the offer discarded this turn
    reshuffles: int = 0
    shuffle_key: str = ""  # rules 0.3.0: the committed reshuffle key ("": rules 0.2.0, drawn from the seed)
    preset: tuple[tuple[str, ...], ...] = ()  # the next reshuffles' committed orders (a fork's rewrite)
    older: int = 0  # tiles on top of the deck left from the deck before the last reshuffle (not drawn yet)


def _dump(part: Heavens, hide: bool) -> dict[str, Any]:
    out: dict[str, Any] = {
        "deck": ["?"] * len(part.deck) if hide else list(part.deck),
        "offer": list(part.offer),
        "discard": list(part.discard),
        "constellations": [list(x) for x in part.constellations],
        "dealt": [] if hide else list(part.dealt),
        "turn": part.turn,
        "performed": list(part.performed),
        "claimed": part.claimed,
        "discarded": part.discarded,
        "reshuffles": part.reshuffles,
    }
    # rules 0.3.0's fields only when set: a rules-0.2.0 seat dumps as it always did (a take-back's state)
    if part.shuffle_key:
        out["shuffle_key"] = "" if hide else part.shuffle_key
    if part.preset:
        out["preset"] = [] if hide else [list(x) for x in part.preset]
    if part.older:
        out["older"] = part.older
    return out


def _load(d: Any) -> Heavens:
    return Heavens(
        deck=json_tuple(d["deck"]),
        offer=json_tuple(d["offer"]),
        discard=json_tuple(d["discard"]),
        constellations=tuple(tuple(x) for x in d["constellations"]),
        dealt=json_tuple(d["dealt"]),
        turn=d["turn"],
        performed=json_tuple(d["performed"]),
        claimed=d["claimed"],
        discarded=d["discarded"],
        reshuffles=d["reshuffles"],
        shuffle_key=d.get("shuffle_key", ""),
        preset=tuple(tuple(x) for x in d.get("preset", ())),
        older=d.get("older", 0),
    )


PLAYER_PARTS: tuple[PartCodec, ...] = (PartCodec(Heavens, _dump, _load),)  # domain/vocabulary.py


def heavens_of(player: PlayerState) -> Heavens:
    part = player.part(Heavens)
    assert part is not None, "a Hevelius event for a seat without her tiles"
    return part


def _with(s: GameState, seat: int, part: Heavens) -> GameState:
    players = list(s.players)
    players[seat] = replace(players[seat], parts=put_part(players[seat].parts, part))
    return replace(s, players=tuple(players))


def _this_turn(s: GameState, part: Heavens) -> Heavens:
    """The part with this turn's facts (reset when a new turn began)."""
    if part.turn == s.turn.number:
        return part
    return replace(part, turn=s.turn.number, performed=(), claimed=False, discarded=False)


def _tiles(catalog: Catalog, ids: tuple[str, ...]) -> tuple[rules.Tile, ...]:
    data = data_of(catalog)
    return tuple(rules.Tile(t.id, t.stars, t.connections) for t in (data.constellation_tile(i) for i in ids))


def _layout(catalog: Catalog, part: Heavens) -> tuple[tuple[rules.Tile, ...], ...]:
    return tuple(_tiles(catalog, x) for x in part.constellations)


def _committed(s: GameState) -> bool:
    """Rules 0.3.0 (docs/editions.md): her claims in Cleanup, a discard instead of a claim."""
    return at_least(s.engine_version, RULES_0_3_0)


def claimable(s: GameState, seat: int) -> list[str]:
    """CHAR-HEV-2/3: offer tiles whose condition icon she performed with effect this turn."""
    part = _this_turn(s, heavens_of(s.players[seat]))
    if part.claimed or (part.discarded and _committed(s)):  # CHAR-HEV-8: a discard is instead of a claim
        return []
    conditions = {t.id: t.condition for t in data_of(s.catalog).hevelius_tiles}
    return rules.claimable(part.offer, conditions, frozenset(part.performed))


# -- commands and events ----------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True, repr=False)
class ClaimTile(Command):
    """CHAR-HEV-2/5: claim offer tile `tile` and place it: `target` 0 starts a new constellation, k > 0
    extends her k-th constellation in progress (through one of its open connections; rotation free)."""

    tile: str
    target: int
    VERB: ClassVar[str] = "claim"
    FIELD_TYPES: ClassVar[Mapping[str, type]] = {"tile": str, "target": int}

    def args(self) -> list[str]:
        return [self.tile, str(self.target)]


@dataclass(frozen=True, kw_only=True, repr=False)
class DiscardOffer(Command):
    """CHAR-HEV-8, AMB-37: with no offer condition met this turn, discard offer tiles at the end of the
    Action phase (then refill); since rules 0.3.0 the discard ends the Action phase."""

    tiles: tuple[str, ...]
    VERB: ClassVar[str] = "discard"

    def __post_init__(self) -> None:
        # a set of tiles: kept sorted so that any order names the same command
        object.__setattr__(self, "tiles", tuple(sorted(self.tiles)))

    def args(self) -> list[str]:
        return list(self.tiles)


def _parse_claim(seat: int, args: list[str]) -> ClaimTile:
    need_args(args, 2)
    return ClaimTile(seat=seat, tile=args[0], target=int_arg(args[1]))


# Her commands, each with how its text notation's arguments are read (domain/vocabulary.py).
COMMANDS: tuple[tuple[type[Command], Parser], ...] = (
    (ClaimTile, _parse_claim),
    (DiscardOffer, lambda seat, args: DiscardOffer(seat=seat, tiles=tuple(sorted(args)))),
)


@dataclass(frozen=True, kw_only=True)
class ConstellationTileClaimed(GrantingEvent):
    """CHAR-HEV-2/5/6: an offer tile placed (`target` as in ClaimTile); `completed`: the tiles of the
    constellation it completed (to the discard pile, CHAR-HEV-7) and their `stars`; grants the reward."""

    tile: str
    target: int
    completed: tuple[str, ...] = ()
    stars: int = 0
    rule: str = "CHAR-HEV-5"


@dataclass(frozen=True, kw_only=True)
class OfferTilesDiscarded(GrantingEvent):
    tiles: tuple[str, ...]
    rule: str = "CHAR-HEV-8"


@dataclass(frozen=True, kw_only=True)
class ConstellationDeckReshuffled(PlayerEvent):
    """CHAR-HEV-7: her discard pile shuffled into a new deck (`deck`: its order, hidden until the end)."""

    REVEALS: ClassVar[bool] = True  # shows what was hidden: the take-back horizon (ASYNC-6)

    size: int
    deck: tuple[str, ...] = ()
    rule: str = "CHAR-HEV-7"
    HIDDEN: ClassVar[tuple[str, ...]] = ("deck",)


@dataclass(frozen=True, kw_only=True)
class OfferRefilled(PlayerEvent):
    """CHAR-HEV-8: the offer refilled to three from the top of her deck (`drawn`, now face up)."""

    REVEALS: ClassVar[bool] = True  # shows what was hidden: the take-back horizon (ASYNC-6)

    drawn: tuple[str, ...]
    rule: str = "CHAR-HEV-8"


EVENTS: tuple[type[Event], ...] = (  # her wire vocabulary (domain/vocabulary.py)
    ConstellationTileClaimed,
    OfferTilesDiscarded,
    ConstellationDeckReshuffled,
    OfferRefilled,
)


# -- the refill (CHAR-HEV-7/8) -----------------------------------------------------------------------


KEY = "key:"  # the committed reshuffle key in her hidden order (rules 0.3.0)
ORDER = "order:"  # a committed reshuffle order in her hidden order (a fork's rewrite)


def encode(deck: tuple[str, ...], preset: tuple[tuple[str, ...], ...], key: str) -> tuple[str, ...]:
    """Her hidden order as committed (rules 0.3.0): the deck, the next reshuffles' orders, the key."""
    return (*deck, *(ORDER + ".".join(order) for order in preset), *((KEY + key,) if key else ()))


def decode(order: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...], str]:
    """(deck, the next reshuffles' orders, key) of a committed hidden order; ("", no orders) under rules
    0.2.0, whose hidden order is the deck alone."""
    deck = tuple(t for t in order if not t.startswith((KEY, ORDER)))
    preset = tuple(tuple(t[len(ORDER) :].split(".")) for t in order if t.startswith(ORDER))
    key = next((t[len(KEY) :] for t in order if t.startswith(KEY)), "")
    return deck, preset, key


def new_key(rng: SeededRandom) -> str:
    """A secret reshuffle key (128 bits) from a seeded stream."""
    return "".join(f"{rng.below(256):02x}" for _ in range(16))


def reshuffle_order(s: GameState, seat: int, part: Heavens) -> tuple[str, ...]:
    """CHAR-HEV-7: the order of her discard pile shuffled into a new deck: the next committed order, else
    the committed key's (rules 0.3.0), else drawn from the game's seed now (rules 0.2.0)."""
    pile = sorted(part.discard)
    if part.preset:
        first = part.preset[0]
        return (*(t for t in first if t in pile), *(t for t in pile if t not in first))
    if part.shuffle_key:
        return tuple(SeededRandom(part.shuffle_key, f"hevelius-reshuffle:{part.reshuffles}").shuffled(pile))
    return tuple(SeededRandom(s.seed, f"hevelius:{seat}:{part.reshuffles}").shuffled(pile))


def _refill(run: Emitter, task: Task) -> None:
    s = run.state
    seat = s.turn.seat
    data = data_of(s.catalog)
    part = heavens_of(s.players[seat])
    need = data.offer_size - len(part.offer)
    if need > len(part.deck) and part.discard:  # CHAR-HEV-7: the discard pile becomes the new deck
        order = reshuffle_order(s, seat, part)
        run.emit(ConstellationDeckReshuffled(seat=seat, size=len(order), deck=order))
        part = heavens_of(run.state.players[seat])
    run.emit(OfferRefilled(seat=seat, drawn=part.deck[: max(0, need)]))


RULES.effect(
    EffectKind("HREFILL", "refill the Constellation offer", __name__, resolve=_refill, expansion="hevelius")
)


@RULES.command(ClaimTile)
def _command_claim(run: Run, cmd: ClaimTile, task: Task | None) -> None:
    s = run.state
    part = heavens_of(s.players[cmd.seat])
    layout = _layout(s.catalog, part)
    tile = _tiles(s.catalog, (cmd.tile,))[0]
    _, done = rules.place(layout, tile, rules.NEW if cmd.target == 0 else cmd.target - 1)
    completed = tuple(t.id for t in done) if done else ()
    stars = rules.stars(done) if done else 0
    run.emit(
        ConstellationTileClaimed(
            seat=cmd.seat, tile=cmd.tile, target=cmd.target, completed=completed, stars=stars
        )
    )


@RULES.command(DiscardOffer)
def _command_discard(run: Run, cmd: DiscardOffer, task: Task | None) -> None:
    run.emit(OfferTilesDiscarded(seat=cmd.seat, tiles=cmd.tiles))
    if _committed(run.state):  # AMB-37 (rules 0.3.0): the discard is at the end of her Action phase
        run.emit(ev.ActionPhaseEnded(seat=cmd.seat))


@RULES.event(ConstellationTileClaimed)
def _claimed(s: GameState, e: ConstellationTileClaimed) -> GameState:
    part = _this_turn(s, heavens_of(s.players[e.seat]))
    groups = list(part.constellations)
    if e.target == 0:
        groups.append((e.tile,))
    else:
        groups[e.target - 1] = (*groups[e.target - 1], e.tile)
    discard = part.discard
    if e.completed:
        groups.remove(tuple(e.completed))
        discard = (*discard, *e.completed)  # CHAR-HEV-7
    offer = tuple(t for t in part.offer if t != e.tile)
    return _with(
        s, e.seat, replace(part, offer=offer, constellations=tuple(groups), discard=discard, claimed=True)
    )


@RULES.event(OfferTilesDiscarded)
def _discarded(s: GameState, e: OfferTilesDiscarded) -> GameState:
    part = _this_turn(s, heavens_of(s.players[e.seat]))
    offer = tuple(t for t in part.offer if t not in e.tiles)
    return _with(s, e.seat, replace(part, offer=offer, discard=(*part.discard, *e.tiles), discarded=True))


@RULES.event(ConstellationDeckReshuffled)
def _reshuffled(s: GameState, e: ConstellationDeckReshuffled) -> GameState:
    part = heavens_of(s.players[e.seat])
    part = replace(
        part,
        deck=(*part.deck, *e.deck),
        discard=(),
        reshuffles=part.reshuffles + 1,
        preset=part.preset[1:],
        older=len(part.deck),
    )
    return _with(s, e.seat, part)


@RULES.event(OfferRefilled, "HREFILL")
def _refilled(s: GameState, e: OfferRefilled) -> GameState:
    part = heavens_of(s.players[e.seat])
    part = replace(
        part,
        offer=(*part.offer, *e.drawn),
        deck=part.deck[len(e.drawn) :],
        older=max(0, part.older - len(e.drawn)),
    )
    return replace(_with(s, e.seat, part), agenda=resolved(s, e))


@RULES.grant(ConstellationTileClaimed)
def _claim_grants(before: GameState, after: GameState, e: ConstellationTileClaimed) -> list[Task]:
    reward = rules.completion_reward(data_of(after.catalog).bands, e.stars) if e.completed else ()
    return [
        *reward_tasks(reward, "hevelius", after.rules.reward_codes),
        Task("HREFILL", 1, "", "hevelius"),
    ]  # CHAR-HEV-6/8


@RULES.grant(OfferTilesDiscarded)
def _discard_grants(before: GameState, after: GameState, e: OfferTilesDiscarded) -> list[Task]:
    return [Task("HREFILL", 1, "", "hevelius")]  # CHAR-HEV-8


# -- the menu (CHAR-HEV-2/4/8) ------------------------------------------------------------------------

ICONS: dict[str, str] = {
    "DieRaised": "1D",
    "QuadrantsGained": "Q",
    "LectureGiven": "LEC",
    "InquisitorPersuaded": "PER",
    "DieGained": "DIE",
    "BookTokenMoved": "WRITE",
    "CometSpotted": "SPOT",
    "TileUpgraded": "UPG",
    "FarewellTaken": "FW",
    "MajorObjectObserved": "OBS:major",
    "MoonObserved": "OBS:major",
    "ConstellationObserved": "OBS:constellation",
}


def icon_of_event(event: Any) -> str | None:
    """CHAR-HEV-3: the action icon an event shows she performed with effect (whatever its source)."""
    if isinstance(event, ev.DiceRaised):
        return f"INC:{event.colour}"
    return ICONS.get(event.type)


def _discard_sets(offer: tuple[str, ...]) -> list[tuple[str, ...]]:
    out: list[tuple[str, ...]] = []
    for mask in range(1, 1 << len(offer)):
        out.append(tuple(sorted(t for i, t in enumerate(offer) if mask >> i & 1)))
    return out


class Hevelius(CharacterRules):
    ability_of = "hevelius"
    rules = (RULES,)
    side = "ability"

    def deal(self, catalog: Catalog, rng: SeededRandom, version: str) -> tuple[str, ...]:
        """CHAR-HEV-1: her 16 tiles shuffled into a face-down deck (hidden, committed); since rules 0.3.0
        with the key of her reshuffles (CHAR-HEV-7), committed too."""
        deck = tuple(rng.shuffled(sorted(t.id for t in data_of(catalog).hevelius_tiles)))
        if not at_least(version, RULES_0_3_0):
            return deck
        return encode(deck, (), new_key(rng))

    menu_commands = (ClaimTile, DiscardOffer)

    def start(self, catalog: Catalog, player: PlayerState, layout: dict[str, Any] | None) -> PlayerState:
        return with_character(player, Character())

    def dealt_to(self, catalog: Catalog, player: PlayerState, order: tuple[str, ...]) -> PlayerState:
        """CHAR-HEV-1: the top three face up as the offer."""
        size = data_of(catalog).offer_size
        deck, preset, key = decode(order)
        part = Heavens(deck=deck[size:], offer=deck[:size], dealt=order, shuffle_key=key, preset=preset)
        return replace(player, parts=put_part(player.parts, part))

    def redeal(self, catalog: Catalog, player: PlayerState, rng: SeededRandom) -> tuple[str, ...]:
        """What of her deck is unseen, re-dealt: since rules 0.3.0 the tiles left from the deck before
        the last reshuffle (on top) and those of the reshuffled pile each among themselves, and a new key
        for her later reshuffles (the committed orders of the source's are unseen too)."""
        part = heavens_of(player)
        older, newer = part.deck[: part.older], part.deck[part.older :]
        deck = (*rng.shuffled(sorted(older)), *rng.shuffled(sorted(newer)))
        if not part.shuffle_key:  # rules 0.2.0: the deck alone (her later reshuffles: the fork's seed)
            return deck
        return encode(deck, (), new_key(rng))

    def redealt(self, catalog: Catalog, player: PlayerState, order: tuple[str, ...]) -> PlayerState:
        deck, preset, key = decode(order)
        part = replace(heavens_of(player), deck=deck, dealt=order, shuffle_key=key, preset=preset)
        return replace(player, parts=put_part(player.parts, part))

    def start_order(
        self, catalog: Catalog, player: PlayerState, started: tuple[str, ...], order: tuple[str, ...]
    ) -> tuple[str, ...]:
        """A fork rewrites her starting deck: the tiles drawn from it so far, then the re-dealt rest
        (once her first deck ran out it is all seen: it stays as it was)."""
        part = heavens_of(player)
        if part.reshuffles or part.shuffle_key:  # rules 0.3.0: `rewrite_fork` rewrites the whole deal
            return started
        return (*started[: len(started) - len(part.deck)], *order)

    def rewrite_fork(self, state: GameState, seat: int, prefix: list[Any], order: tuple[str, ...]) -> None:
        """Her deck and every reshuffle in the copied events become what the prefix drew from them, then
        the fork's re-deal of what is unseen (`order`); the rewritten `GameStarted` commits the reshuffles'
        orders explicitly and the fork's new key for the later ones (rules 0.2.0: no key, the later ones
        from the fork's seed); an earlier fork in the prefix commits her deck at its point, the orders of
        the reshuffles after it, the same key. Nothing of the source's unseen orders remains, and the
        prefix reproduces itself exactly. (A rules-0.2.0 game's first fork before any reshuffle keeps the
        generic rewrite, as released.)"""
        part = heavens_of(state.players[seat])
        shuffles = [
            i for i, e in enumerate(prefix) if isinstance(e, ConstellationDeckReshuffled) and e.seat == seat
        ]
        if not (part.shuffle_key or shuffles or any(isinstance(e, ev.GameForked) for e in prefix)):
            return  # rules 0.2.0 before any reshuffle, a first fork: the generic rewrite, as released
        fresh, _, key = decode(order)
        first = prefix[0]
        assert isinstance(first, ev.GameStarted) and first.character_deals is not None
        generations = [decode(first.character_deals[seat])[0]]
        generations += [tuple(prefix[i].deck) for i in shuffles]
        # the unseen tails: of the newest generation, and of the one before while tiles of it are left
        tails = {len(generations) - 1: fresh[part.older :]}
        if part.older:
            tails[len(generations) - 2] = fresh[: part.older]
        for k, tail in tails.items():
            generations[k] = (*generations[k][: len(generations[k]) - len(tail)], *tail)
        deals = list(first.character_deals)
        deals[seat] = encode(generations[0], tuple(generations[1:]), key)
        prefix[0] = replace(first, character_deals=tuple(deals))
        for k, i in enumerate(shuffles, start=1):
            prefix[i] = replace(prefix[i], deck=generations[k])
        # her deck along the prefix (a take-back never undoes a draw or a reshuffle: they reveal)
        deck, done = generations[0][data_of(state.catalog).offer_size :], 0
        for i, e in enumerate(prefix):
            if isinstance(e, OfferRefilled) and e.seat == seat:
                deck = deck[len(e.drawn) :]
            elif isinstance(e, ConstellationDeckReshuffled) and e.seat == seat:
                done += 1
                deck = (*deck, *generations[done])
            elif isinstance(e, ev.GameForked) and e.character_deals is not None:
                deals = list(e.character_deals)
                deals[seat] = encode(deck, tuple(generations[done + 1 :]), key)
                prefix[i] = replace(e, character_deals=tuple(deals))

    def dealt(self, player: PlayerState) -> tuple[str, ...]:
        return heavens_of(player).dealt

    def worth(self, s: GameState, player: PlayerState) -> float:
        """Stars in constellations in progress, more the nearer they are to completion (CHAR-HEV-6)."""
        part = heavens_of(player)
        value = 0.0
        for group in _layout(s.catalog, part):
            value += rules.stars(group) / (1 + rules.open_connections(group))
        return value

    def witness(self, s: GameState, event: Any) -> GameState:
        """CHAR-HEV-2/3: remember the icons she performs with effect in her turn."""
        icon = icon_of_event(event)
        if icon is None or event.seat != s.turn.seat:
            return s
        part = _this_turn(s, heavens_of(s.players[event.seat]))
        if icon in part.performed:
            return s if part is heavens_of(s.players[event.seat]) else _with(s, event.seat, part)
        return _with(s, event.seat, replace(part, performed=(*part.performed, icon)))

    @staticmethod
    def _claims(s: GameState, seat: int, part: Heavens) -> list[c.Command]:
        tiles = claimable(s, seat)
        if not tiles:
            return []
        targets = [0 if t == rules.NEW else t + 1 for t in rules.targets(_layout(s.catalog, part))]
        return [ClaimTile(seat=seat, tile=t, target=k) for t in tiles for k in targets]

    def menu_options(self, s: GameState, seat: int) -> list[c.Command]:
        part = _this_turn(s, heavens_of(s.players[seat]))
        out = self._claims(s, seat, part)
        if self._may_discard(s, seat, part):
            out += [DiscardOffer(seat=seat, tiles=tiles) for tiles in _discard_sets(part.offer)]
        return out

    @staticmethod
    def _may_discard(s: GameState, seat: int, part: Heavens) -> bool:
        """CHAR-HEV-8, AMB-37: no offer condition met this turn, once, at the end of her Action phase. Rules
        0.4.0: whenever her Action phase may end (an action she skipped included: S001, each is optional),
        the discard ending it. Rules 0.2.0 and 0.3.0 kept the reading released: once both of the turn's
        actions were taken; since 0.3.0 also when the fixed action left is impossible (no option), and
        the discard ends the Action phase (under 0.2.0 it went on)."""
        from domain.moves import fixed_options

        conditions = {t.id: t.condition for t in data_of(s.catalog).hevelius_tiles}
        met = rules.claimable(part.offer, conditions, frozenset(part.performed))
        t = s.turn
        done = t.fixed_done and t.moving_done
        if not done and _committed(s) and t.moving_done:
            done = not fixed_options(s, seat, t.space)
        if at_least(s.engine_version, RULES_0_4_0):
            # S001: the fixed and the moving action are each optional; the discard ends the Action phase
            # as `end` does, so it is open whenever she may end it (S000 "during your turn", AMB-37)
            done = t.phase == "actions"
        return done and not met and not part.claimed and not part.discarded and bool(part.offer)

    cleanup_commands = (ClaimTile,)

    def cleanup_options(self, s: GameState, seat: int) -> list[c.Command]:
        """CHAR-HEV-4 (rules 0.3.0): she may claim at any time during her turn after the condition was
        met, Cleanup included (a Book-of-Comets page's reward, a free action in a Cleanup window, a
        Farewell): her claims are open in the Cleanup windows (domain/moves.py), which open for them."""
        if not _committed(s):
            return []
        return self._claims(s, seat, _this_turn(s, heavens_of(s.players[seat])))

    def cleanup_check(self, s: GameState, cmd: c.Command) -> IllegalMove | None:
        if isinstance(cmd, ClaimTile) and _committed(s):
            return self.menu_check(s, cmd)
        return IllegalMove(
            "cleanup", "in Cleanup she may only claim a Constellation tile (CHAR-HEV-4)", "CHAR-HEV-4"
        )

    def menu_check(self, s: GameState, cmd: c.Command) -> IllegalMove | None:
        if isinstance(cmd, ClaimTile):
            part = _this_turn(s, heavens_of(s.players[cmd.seat]))
            if part.claimed:
                return IllegalMove("claimed", "at most one Constellation tile per turn", "CHAR-HEV-2")
            if part.discarded and _committed(s):
                return IllegalMove(
                    "discarded-instead",
                    "she discarded offer tiles this turn: that is instead of a claim",
                    "CHAR-HEV-8",
                )
            if cmd.tile not in part.offer:
                return IllegalMove(
                    "not-in-offer", "{tile!r} is not in your offer", "CHAR-HEV-2", tile=cmd.tile
                )
            if cmd.tile not in claimable(s, cmd.seat):
                return IllegalMove(
                    "condition-not-met",
                    "you did not perform {tile}'s action this turn",
                    "CHAR-HEV-3",
                    tile=cmd.tile,
                )
            layout = _layout(s.catalog, part)
            if cmd.target != 0 and (cmd.target - 1) not in rules.targets(layout):
                return IllegalMove(
                    "no-open-connection",
                    "no constellation {target} with an open connection",
                    "CHAR-HEV-5",
                    target=cmd.target,
                )
            return None
        if isinstance(cmd, DiscardOffer):
            part = _this_turn(s, heavens_of(s.players[cmd.seat]))
            if not self._may_discard(s, cmd.seat, part):
                return IllegalMove(
                    "no-discard",
                    "discard only at the end of the Action phase, with no condition met",
                    "AMB-37",
                )
            if (
                not cmd.tiles
                or len(set(cmd.tiles)) != len(cmd.tiles)
                or any(t not in part.offer for t in cmd.tiles)
            ):
                return IllegalMove("bad-discard", "discard tiles of your offer", "CHAR-HEV-8")
            return None
        return IllegalMove(
            "not-your-ability", "{VERB!r} is another character's ability", "CHAR-1", VERB=cmd.VERB
        )

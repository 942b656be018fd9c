"""Elizabeth Hevelius' ability side (digest §17.6): her Constellation tiles (CHAR-HEV-1..8, DER-11,
AMB-35..37, DATA-19). The rules are pure functions in `domain/abilities/hevelius.py`; this module plugs
them into the engine.

Hidden information: her deck's order is part of the committed deal (the seat's hidden order,
`CharacterRules.deal`); the public view shows only its size. A reshuffle of her discard pile (CHAR-HEV-7)
draws its order from the game's secret seed (revealed at the end, so it can be checked then; a fork's new
seed re-deals it) and records it in a hidden field of `ConstellationDeckReshuffled`.
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
from domain.characters import Character, CharacterRules, register, with_character
from domain.commands import Command, int_arg, need_args, register_command
from domain.effect_kinds import EffectKind, Emitter
from domain.effect_kinds import register as register_kind
from domain.effects import reward_tasks
from domain.errors import IllegalMove
from domain.events import GrantingEvent, PlayerEvent, register_events
from domain.evolve import on_event, resolved
from domain.fastcopy import replace
from domain.grants import grant_rule
from domain.parts import PartCodec, json_tuple, register_player_part
from domain.resolve import POINT_RULES, Run, on_command
from domain.rng import SeededRandom
from domain.state import GameState, Part, PlayerState, Task, put_part
from domain.takeback import add_revealing

POINT_RULES["hevelius"] = "CHAR-HEV-6"


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


def _dump(part: Heavens, hide: bool) -> dict[str, Any]:
    return {
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
    )


register_player_part(PartCodec(Heavens, _dump, _load))


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


def claimable(s: GameState, seat: int) -> list[str]:
    """CHAR-HEV-2/3: offer tiles whose condition icon she performed with effect this turn."""
    part = _this_turn(s, heavens_of(s.players[seat]))
    if part.claimed:
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
    """CHAR-HEV-8, AMB-37: with no offer condition met this turn, discard offer tiles (then refill)."""

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


register_command(ClaimTile, _parse_claim)
register_command(DiscardOffer, lambda seat, args: DiscardOffer(seat=seat, tiles=tuple(sorted(args))))


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

    size: int
    deck: tuple[str, ...] = ()
    rule: str = "CHAR-HEV-7"
    HIDDEN: ClassVar[tuple[str, ...]] = ("deck",)


@dataclass(frozen=True, kw_only=True)
class OfferRefilled(PlayerEvent):
    """CHAR-HEV-8: the offer refilled to three from the top of her deck (`drawn`, now face up)."""

    drawn: tuple[str, ...]
    rule: str = "CHAR-HEV-8"


register_events(ConstellationTileClaimed, OfferTilesDiscarded, ConstellationDeckReshuffled, OfferRefilled)
add_revealing(ConstellationDeckReshuffled, OfferRefilled)


# -- the refill (CHAR-HEV-7/8) -----------------------------------------------------------------------


def _refill(run: Emitter, task: Task) -> None:
    s = run.state
    seat = s.turn.seat
    data = data_of(s.catalog)
    part = heavens_of(s.players[seat])
    need = data.offer_size - len(part.offer)
    if need > len(part.deck) and part.discard:  # CHAR-HEV-7: the discard pile becomes the new deck
        rng = SeededRandom(s.seed, f"hevelius:{seat}:{part.reshuffles}")
        order = tuple(rng.shuffled(sorted(part.discard)))
        run.emit(ConstellationDeckReshuffled(seat=seat, size=len(order), deck=order))
        part = heavens_of(run.state.players[seat])
    run.emit(OfferRefilled(seat=seat, drawn=part.deck[: max(0, need)]))


register_kind(
    EffectKind("HREFILL", "refill the Constellation offer", __name__, resolve=_refill, expansion="hevelius")
)


@on_command(ClaimTile)
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


@on_command(DiscardOffer)
def _command_discard(run: Run, cmd: DiscardOffer, task: Task | None) -> None:
    run.emit(OfferTilesDiscarded(seat=cmd.seat, tiles=cmd.tiles))


@on_event(ConstellationTileClaimed)
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


@on_event(OfferTilesDiscarded)
def _discarded(s: GameState, e: OfferTilesDiscarded) -> GameState:
    part = _this_turn(s, heavens_of(s.players[e.seat]))
    offer = tuple(t for t in part.offer if t not in e.tiles)
    return _with(s, e.seat, replace(part, offer=offer, discard=(*part.discard, *e.tiles), discarded=True))


@on_event(ConstellationDeckReshuffled)
def _reshuffled(s: GameState, e: ConstellationDeckReshuffled) -> GameState:
    part = heavens_of(s.players[e.seat])
    return _with(
        s, e.seat, replace(part, deck=(*part.deck, *e.deck), discard=(), reshuffles=part.reshuffles + 1)
    )


@on_event(OfferRefilled, "HREFILL")
def _refilled(s: GameState, e: OfferRefilled) -> GameState:
    part = heavens_of(s.players[e.seat])
    part = replace(part, offer=(*part.offer, *e.drawn), deck=part.deck[len(e.drawn) :])
    return replace(_with(s, e.seat, part), agenda=resolved(s, e))


@grant_rule(ConstellationTileClaimed)
def _claim_grants(before: GameState, after: GameState, e: ConstellationTileClaimed) -> list[Task]:
    reward = rules.completion_reward(data_of(after.catalog).bands, e.stars) if e.completed else ()
    return [*reward_tasks(reward, "hevelius"), Task("HREFILL", 1, "", "hevelius")]  # CHAR-HEV-6/8


@grant_rule(OfferTilesDiscarded)
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
    return ICONS.get(type(event).__name__)


def _discard_sets(offer: tuple[str, ...]) -> list[tuple[str, ...]]:
    out: list[tuple[str, ...]] = []
    for mask in range(1, 1 << len(offer)):
        out.append(tuple(sorted(t for i, t in enumerate(offer) if mask >> i & 1)))
    return out


class Hevelius(CharacterRules):
    side = "ability"

    def deal(self, catalog: Catalog, rng: SeededRandom) -> tuple[str, ...]:
        """CHAR-HEV-1: her 16 tiles shuffled into a face-down deck (hidden, committed)."""
        return tuple(rng.shuffled(sorted(t.id for t in data_of(catalog).hevelius_tiles)))

    menu_commands = (ClaimTile, DiscardOffer)

    def start(self, catalog: Catalog, player: PlayerState, layout: dict[str, Any] | None) -> PlayerState:
        return with_character(player, Character())

    def dealt_to(self, catalog: Catalog, player: PlayerState, order: tuple[str, ...]) -> PlayerState:
        """CHAR-HEV-1: the top three face up as the offer."""
        size = data_of(catalog).offer_size
        part = Heavens(deck=order[size:], offer=order[:size], dealt=order)
        return replace(player, parts=put_part(player.parts, part))

    def redeal(self, catalog: Catalog, player: PlayerState, rng: SeededRandom) -> tuple[str, ...]:
        part = heavens_of(player)
        return tuple(rng.shuffled(sorted(part.deck)))

    def redealt(self, catalog: Catalog, player: PlayerState, order: tuple[str, ...]) -> PlayerState:
        part = replace(heavens_of(player), deck=order, dealt=order)
        return replace(player, parts=put_part(player.parts, part))

    def start_order(
        self, catalog: Catalog, player: PlayerState, started: tuple[str, ...], order: tuple[str, ...]
    ) -> tuple[str, ...]:
        """A fork rewrites her starting deck: the tiles drawn from it so far, then the re-dealt rest
        (once her first deck ran out it is all seen: it stays as it was)."""
        part = heavens_of(player)
        if part.reshuffles:
            return started
        return (*started[: len(started) - len(part.deck)], *order)

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

    def menu_options(self, s: GameState, seat: int) -> list[c.Command]:
        part = _this_turn(s, heavens_of(s.players[seat]))
        layout = _layout(s.catalog, part)
        targets = [0 if t == rules.NEW else t + 1 for t in rules.targets(layout)]
        out: list[c.Command] = [
            ClaimTile(seat=seat, tile=t, target=k) for t in claimable(s, seat) for k in targets
        ]
        if self._may_discard(s, seat, part):
            out += [DiscardOffer(seat=seat, tiles=tiles) for tiles in _discard_sets(part.offer)]
        return out

    @staticmethod
    def _may_discard(s: GameState, seat: int, part: Heavens) -> bool:
        """CHAR-HEV-8, AMB-37: no offer condition met this turn, once, at the end of her Action phase
        (both of the turn's actions taken)."""
        conditions = {t.id: t.condition for t in data_of(s.catalog).hevelius_tiles}
        met = rules.claimable(part.offer, conditions, frozenset(part.performed))
        done = s.turn.fixed_done and s.turn.moving_done
        return done and not met and not part.claimed and not part.discarded and bool(part.offer)

    def menu_check(self, s: GameState, cmd: c.Command) -> IllegalMove | None:
        if isinstance(cmd, ClaimTile):
            part = _this_turn(s, heavens_of(s.players[cmd.seat]))
            if part.claimed:
                return IllegalMove("claimed", "at most one Constellation tile per turn", "CHAR-HEV-2")
            if cmd.tile not in part.offer:
                return IllegalMove("not-in-offer", f"{cmd.tile!r} is not in your offer", "CHAR-HEV-2")
            if cmd.tile not in claimable(s, cmd.seat):
                return IllegalMove(
                    "condition-not-met", f"you did not perform {cmd.tile}'s action this turn", "CHAR-HEV-3"
                )
            layout = _layout(s.catalog, part)
            if cmd.target != 0 and (cmd.target - 1) not in rules.targets(layout):
                return IllegalMove(
                    "no-open-connection",
                    f"no constellation {cmd.target} with an open connection",
                    "CHAR-HEV-5",
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
        return IllegalMove("not-your-ability", f"{cmd.VERB!r} is another character's ability", "CHAR-1")


register("hevelius", Hevelius())

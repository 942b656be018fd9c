"""Maria Cunitz's ability side (digest §17.7): the Urania Propitia board, Focus and Move (CHAR-CUN-1..5,
AMB-38, DATA-20). The rules are pure functions in `domain/abilities/cunitz.py`; this module plugs them
into the engine.

Hidden information: the Note tiles' placement is part of the committed deal (the seat's hidden order,
`CharacterRules.deal`). A Note is face down until it becomes the next Note space ahead of the square
token (S000's example: "the next space has a blue/red frame"): at the start the first, and each time the
token moves onto or past a Note space, the next one (`NoteRevealed`). The public view shows "?" for the
others; the end of the game reveals the whole placement.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from domain import commands as c
from domain import events as ev
from domain.abilities import cunitz as rules
from domain.catalog import ActionTile, BookPage, Catalog
from domain.catalog.luna_characters import LunaCharacters
from domain.characters import Character, CharacterRules, ability_pages, with_character
from domain.commands import Command, Parser, need_args
from domain.editions import RULES_0_3_0, RULES_0_4_0, at_least
from domain.effect_kinds import EffectKind, Emitter
from domain.effects import reward_tasks
from domain.errors import IllegalMove
from domain.events import Event, GrantingEvent, PlayerEvent
from domain.evolve import resolved
from domain.expansions.luna.events import BonusActionTaken
from domain.parts import PartCodec, json_tuple
from domain.resolve import Run
from domain.rng import SeededRandom
from domain.ruleset import Rules
from domain.state import COLOURS, GameState, Part, PlayerState, Task, put_part, replace

RULES = Rules(__name__)  # this module's rules (domain/ruleset.py)

RULES.point_rules["urania"] = "CHAR-CUN-4"
RULES.reward_code(
    {
        "FOCUS": Task("FOCUS"),
        "FOCUSANY": Task("FOCUSANY"),
        "MOVE1": Task("MOVE", 1),
        "MOVE2": Task("MOVE", 2),
        "MOVE3": Task("MOVE", 3),
    }
)  # her tiles' and pages' codes


def data_of(catalog: Catalog) -> LunaCharacters:
    data = catalog.luna_characters
    assert data is not None, "Cunitz's ability in a catalog edition without her board (DATA-20)"
    return data


@dataclass(frozen=True, slots=True)
class Urania(Part):
    """Cunitz's Urania Propitia board (CHAR-CUN-1): the round token ("" = the rotating arrow, or a colour),
    the square token's track space, the Note on each Note space (hidden until `shown`)."""

    key: ClassVar[str] = "urania"

    round: str
    square: int
    notes: tuple[str, ...]
    shown: int  # Note spaces face up, from the top (the next one ahead of the square token included)


def _dump(part: Urania, hide: bool) -> dict[str, Any]:
    notes = [n if i < part.shown or not hide else "?" for i, n in enumerate(part.notes)]
    return {"round": part.round, "square": part.square, "notes": notes, "shown": part.shown}


def _load(d: Any) -> Urania:
    return Urania(round=d["round"], square=d["square"], notes=json_tuple(d["notes"]), shown=d["shown"])


PLAYER_PARTS: tuple[PartCodec, ...] = (PartCodec(Urania, _dump, _load),)  # domain/vocabulary.py


def urania_of(player: PlayerState) -> Urania:
    part = player.part(Urania)
    assert part is not None, "a Cunitz event for a seat without the Urania Propitia board"
    return part


def _with(s: GameState, seat: int, part: Urania) -> GameState:
    players = list(s.players)
    players[seat] = replace(players[seat], parts=put_part(players[seat].parts, part))
    return replace(s, players=tuple(players))


# -- commands and events ----------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True, repr=False)
class Focus(Command):
    """CHAR-CUN-2/5: move the round token onto colour `space` (R, Y, B), or "-" to leave it; on a personal
    page, "later" first moves the square token (CHAR-CUN-5: the page's parts in any order; rules 0.3.0)."""

    space: str
    VERB: ClassVar[str] = "focus"
    FIELD_TYPES: ClassVar[Mapping[str, type]] = {"space": str}

    def args(self) -> list[str]:
        return [self.space]


LATER = "later"  # CHAR-CUN-5: the page's Focus after its Move


def _parse_focus(seat: int, args: list[str]) -> Focus:
    need_args(args, 1)
    if args[0] not in (*COLOURS, "-", LATER):
        raise ValueError("expected R, Y, B, - (leave the round token) or later (the page's Move first)")
    return Focus(seat=seat, space=args[0])


PAGE = "CUNPAGE"  # CHAR-CUN-5 (rules 0.4.0): her personal page's parts still to resolve, in any order


@dataclass(frozen=True, kw_only=True, repr=False)
class PagePart(Command):
    """CHAR-CUN-5 (rules 0.4.0): the part of her personal page she resolves next (its reward code, e.g.
    `part MOVE1`, `part 1D+3`, `part FOCUSANY`)."""

    part: str
    VERB: ClassVar[str] = "part"
    FIELD_TYPES: ClassVar[Mapping[str, type]] = {"part": str}

    def args(self) -> list[str]:
        return [self.part]


def _parse_part(seat: int, args: list[str]) -> PagePart:
    need_args(args, 1)
    return PagePart(seat=seat, part=args[0])


# Her commands, each with how its text notation's arguments are read (domain/vocabulary.py).
COMMANDS: tuple[tuple[type[Command], Parser], ...] = ((Focus, _parse_focus), (PagePart, _parse_part))


@dataclass(frozen=True, kw_only=True)
class RoundTokenMoved(PlayerEvent):
    """CHAR-CUN-2/5: Focus: the round token moved onto `space` ("-": she left it where it was)."""

    space: str
    rule: str = "CHAR-CUN-2"


@dataclass(frozen=True, kw_only=True)
class SquareTokenMoved(GrantingEvent):
    """CHAR-CUN-3/4, AMB-38: Move n: the square token from `start` to `end` (extra steps lost); the space
    it stops on pays (`note`: the Note there, `matched`: whether the round token's colour matched)."""

    start: int
    end: int
    note: str = ""
    matched: bool = False
    rule: str = "CHAR-CUN-4"


@dataclass(frozen=True, kw_only=True)
class NoteRevealed(PlayerEvent):
    """The Note on the next Note space ahead of the square token turned face up (`index`: 0..5)."""

    REVEALS: ClassVar[bool] = True  # shows what was hidden: the take-back horizon (ASYNC-6)

    index: int
    note: str
    rule: str = "CHAR-CUN-1"


@dataclass(frozen=True, kw_only=True)
class FocusDeferred(GrantingEvent):
    """CHAR-CUN-5 (rules 0.3.0): she resolves her page's Move (`steps`) before its Focus: both again on the
    agenda, the Move first."""

    steps: int
    rule: str = "CHAR-CUN-5"


@dataclass(frozen=True, kw_only=True)
class PagePartChosen(GrantingEvent):
    """CHAR-CUN-5 (rules 0.4.0): she resolves `part` of her personal page next; `rest` the parts still to
    come (comma-separated reward codes), in any order again."""

    part: str
    rest: str
    rule: str = "CHAR-CUN-5"


EVENTS: tuple[type[Event], ...] = (  # her wire vocabulary (domain/vocabulary.py)
    RoundTokenMoved,
    SquareTokenMoved,
    NoteRevealed,
    FocusDeferred,
    PagePartChosen,
)


def _page_move(s: GameState, task: Task) -> Task | None:
    """CHAR-CUN-5 (rules 0.3.0 only): the Move of the personal page whose Focus `task` is, still to come
    right after it (the page's Focus may wait for it). Since rules 0.4.0 every part of the page is chosen
    in turn (`PagePart`), so no Focus waits."""
    if task.kind != "FOCUSANY" or len(s.agenda) < 2 or not at_least(s.engine_version, RULES_0_3_0):
        return None
    if _any_order(s):
        return None
    below = s.agenda[-2]
    return below if below.kind == "MOVE" and below.source == task.source else None


def _focus_options(s: GameState, task: Task, seat: int) -> list[c.Command]:
    if s.players[seat].part(Urania) is None:
        return []
    spaces = COLOURS if task.kind == "FOCUSANY" else (task.arg,)  # CHAR-CUN-5: any space; CHAR-CUN-2
    out: list[c.Command] = [
        Focus(seat=seat, space="-"),
        *(Focus(seat=seat, space=sp) for sp in spaces if sp in COLOURS),
    ]
    if _page_move(s, task) is not None:
        out.append(Focus(seat=seat, space=LATER))
    return out


def _focus_check(s: GameState, task: Task, cmd: c.Command) -> IllegalMove | None:
    if not isinstance(cmd, Focus):
        return IllegalMove(
            "pending-decision", "first Focus (or leave the round token: focus -)", "CHAR-CUN-2"
        )
    if s.players[cmd.seat].part(Urania) is None:
        return IllegalMove("not-your-ability", "only Cunitz' ability side has the round token", "CHAR-CUN-2")
    allowed = COLOURS if task.kind == "FOCUSANY" else (task.arg,)  # CHAR-CUN-5 any colour; CHAR-CUN-2
    if cmd.space == "-" or (cmd.space in allowed and cmd.space in COLOURS):
        return None
    if cmd.space == LATER:
        if _page_move(s, task) is not None:
            return None
        return IllegalMove(
            "no-move-to-wait-for", "only a personal page's Focus may wait for the page's Move", "CHAR-CUN-5"
        )
    return IllegalMove(
        "focus-colour",
        "this Focus moves the round token onto {arg}, not {space}",
        "CHAR-CUN-2",
        arg=task.arg,
        space=cmd.space,
    )


def _move(run: Emitter, task: Task) -> None:
    """CHAR-CUN-3, AMB-38: the square token moves n spaces and stops on the last space."""
    s = run.state
    seat = s.turn.seat
    data = data_of(s.catalog)
    part = urania_of(s.players[seat])
    end = rules.moved(part.square, task.n, len(data.track))
    k = rules.note_index(data.track, end)
    note = part.notes[k] if k is not None and end != part.square else ""
    matched = bool(note) and part.round in data.note(note).frame
    run.emit(SquareTokenMoved(seat=seat, start=part.square, end=end, note=note, matched=matched))
    _reveal_next(run, seat)


def _reveal_next(run: Emitter, seat: int) -> None:
    """The next Note space ahead of the square token turns face up (S000's example)."""
    data = data_of(run.state.catalog)
    part = urania_of(run.state.players[seat])
    ahead = [i for i, sp in enumerate(data.note_spaces) if sp > part.square]
    want = ahead[0] + 1 if ahead else len(data.note_spaces)
    for index in range(part.shown, want):
        run.emit(NoteRevealed(seat=seat, index=index, note=part.notes[index]))


def _any_order(s: GameState) -> bool:
    """Rules 0.4.0 (docs/editions.md): "you may gain Cunitz's rewards in any order" (S000), all of them."""
    return at_least(s.engine_version, RULES_0_4_0)


def _parts(task: Task) -> tuple[str, ...]:
    return tuple(task.arg.split(",")) if task.arg else ()


def _part_options(s: GameState, task: Task, seat: int) -> list[c.Command]:
    """CHAR-CUN-5: any part of the page still to come, once each (the same part twice is one choice)."""
    return [PagePart(seat=seat, part=part) for part in dict.fromkeys(_parts(task))]


def _part_check(s: GameState, task: Task, cmd: c.Command) -> IllegalMove | None:
    if not isinstance(cmd, PagePart):
        return IllegalMove(
            "pending-decision",
            "first choose the part of your page to resolve next: {parts}",
            "CHAR-CUN-5",
            parts=", ".join(_parts(task)),
        )
    if cmd.part not in _parts(task):
        return IllegalMove(
            "not-a-page-part",
            "{part!r} is not a part of the page still to resolve: {parts}",
            "CHAR-CUN-5",
            part=cmd.part,
            parts=", ".join(_parts(task)),
        )
    return None


NO_BOARD = ("only Cunitz' ability side has the Urania Propitia board", "CHAR-CUN-1")
RULES.effect(
    EffectKind("FOCUS", "Focus: the round token onto the increase's colour (or not)", __name__,
               (Focus,), _focus_options, _focus_check, NO_BOARD, expansion="cunitz"),
    EffectKind("FOCUSANY", "Focus: the round token onto any colour (or not)", __name__,
               (Focus,), _focus_options, _focus_check, NO_BOARD, expansion="cunitz"),
    EffectKind("MOVE", "move the square token", __name__, resolve=_move, expansion="cunitz"),
    EffectKind(PAGE, "choose the part of the personal page to resolve next", __name__,
               (PagePart,), _part_options, _part_check, None, expansion="cunitz"),
)  # fmt: skip


@RULES.command(PagePart)
def _command_part(run: Run, cmd: PagePart, task: Task | None) -> None:
    assert task is not None and task.kind == PAGE
    rest = list(_parts(task))
    rest.remove(cmd.part)
    run.emit(PagePartChosen(seat=cmd.seat, part=cmd.part, rest=",".join(rest)))


@RULES.event(PagePartChosen, PAGE)
def _part_chosen(s: GameState, e: PagePartChosen) -> GameState:
    return replace(s, agenda=resolved(s, e))


@RULES.grant(PagePartChosen)
def _part_grants(before: GameState, after: GameState, e: PagePartChosen) -> list[Task]:
    """CHAR-CUN-5: the chosen part now (resolved fully, RES-2), then the choice among the rest; the last
    part needs no choice."""
    source = before.agenda[-1].source
    rest = tuple(e.rest.split(",")) if e.rest else ()
    tasks = reward_tasks((e.part,), source, after.rules.reward_codes)
    if len(set(rest)) > 1:
        return [*tasks, Task(PAGE, 1, e.rest, source)]
    return [*tasks, *reward_tasks(rest, source, after.rules.reward_codes)]


@RULES.command(Focus)
def _command_focus(run: Run, cmd: Focus, task: Task | None) -> None:
    if cmd.space == LATER:
        move = _page_move(run.state, run.state.agenda[-1])
        assert move is not None
        run.emit(FocusDeferred(seat=cmd.seat, steps=move.n))
        return
    run.emit(RoundTokenMoved(seat=cmd.seat, space=cmd.space))


@RULES.event(FocusDeferred, "FOCUSANY")
def _focus_deferred(s: GameState, e: FocusDeferred) -> GameState:
    agenda = resolved(s, e)
    if not agenda or agenda[-1].kind != "MOVE" or agenda[-1].n != e.steps:
        raise ValueError("a deferred Focus needs its page's Move right below it (CHAR-CUN-5)")
    return replace(s, agenda=agenda[:-1])


@RULES.grant(FocusDeferred)
def _deferred_grants(before: GameState, after: GameState, e: FocusDeferred) -> list[Task]:
    """CHAR-CUN-5: the page's Move, then its Focus."""
    source = before.agenda[-1].source
    return [Task("MOVE", e.steps, "", source), Task("FOCUSANY", 1, "", source)]


@RULES.event(RoundTokenMoved, "FOCUS", "FOCUSANY")
def _round_moved(s: GameState, e: RoundTokenMoved) -> GameState:
    part = urania_of(s.players[e.seat])
    if e.space != "-":
        part = replace(part, round=e.space)
    return replace(_with(s, e.seat, part), agenda=resolved(s, e))


@RULES.event(SquareTokenMoved, "MOVE")
def _square_moved(s: GameState, e: SquareTokenMoved) -> GameState:
    part = replace(urania_of(s.players[e.seat]), square=e.end)
    return replace(_with(s, e.seat, part), agenda=resolved(s, e))


@RULES.event(NoteRevealed)
def _note_revealed(s: GameState, e: NoteRevealed) -> GameState:
    part = urania_of(s.players[e.seat])
    return _with(s, e.seat, replace(part, shown=max(part.shown, e.index + 1)))


@RULES.grant(SquareTokenMoved)
def _landing(before: GameState, after: GameState, e: SquareTokenMoved) -> list[Task]:
    """CHAR-CUN-4, AMB-38: only the space the token stops on pays (nothing if it did not move)."""
    if e.end == e.start:
        return []
    data = data_of(after.catalog)
    space = data.track[e.end]
    if space is not None:
        return reward_tasks(space, "urania", after.rules.reward_codes)
    return reward_tasks(data.note(e.note).reward, "urania", after.rules.reward_codes) if e.matched else []


def _action_tile(tile: Any) -> ActionTile:
    return ActionTile(
        id=tile.id, name=tile.name, basic=tile.basic, upgraded=tile.upgraded, provenance=tile.provenance
    )


class Cunitz(CharacterRules):
    ability_of = "cunitz"
    rules = (RULES,)
    side = "ability"

    def layout(
        self, catalog: Catalog, character: str, queue: tuple[str, ...], aside: str | None
    ) -> tuple[tuple[str, ...], dict[str, Any] | None]:
        """CHAR-CUN-1: her six tiles instead of the regular set, in the seat's shuffled order."""
        tiles = [t.id for t in data_of(catalog).cunitz_tiles]
        regular = sorted(queue)
        return tuple(tiles[regular.index(t)] for t in queue), None

    def deal(self, catalog: Catalog, rng: SeededRandom, version: str) -> tuple[str, ...]:
        """CHAR-CUN-1: the six Note tiles at random on the Note spaces (hidden, committed)."""
        return tuple(rng.shuffled(sorted(n.id for n in data_of(catalog).notes)))

    def start(self, catalog: Catalog, player: PlayerState, layout: dict[str, Any] | None) -> PlayerState:
        return with_character(player, Character())

    def dealt_to(self, catalog: Catalog, player: PlayerState, order: tuple[str, ...]) -> PlayerState:
        """CHAR-CUN-1: the Notes in place, the round token on the arrow, the square token at the top;
        the first Note space is in view (the next one ahead of the square token)."""
        part = Urania(round=rules.ARROW, square=0, notes=order, shown=1)
        return replace(player, parts=put_part(player.parts, part))

    def redeal(self, catalog: Catalog, player: PlayerState, rng: SeededRandom) -> tuple[str, ...]:
        """A fork re-deals the Notes still face down among their spaces."""
        part = urania_of(player)
        hidden = list(rng.shuffled(sorted(part.notes[part.shown :])))
        return (*part.notes[: part.shown], *hidden)

    def redealt(self, catalog: Catalog, player: PlayerState, order: tuple[str, ...]) -> PlayerState:
        part = replace(urania_of(player), notes=order)
        return replace(player, parts=put_part(player.parts, part))

    def dealt(self, player: PlayerState) -> tuple[str, ...]:
        return urania_of(player).notes

    def tile(self, catalog: Catalog, tile_id: str) -> ActionTile | None:
        for t in data_of(catalog).cunitz_tiles:
            if t.id == tile_id:
                return _action_tile(t)
        return None

    def personal_pages(self, catalog: Catalog) -> tuple[BookPage, ...]:
        return ability_pages(catalog, "cunitz")

    def worth(self, s: GameState, player: PlayerState) -> float:
        """The next Note in view matching the round token (CHAR-CUN-4) is worth a little."""
        data = data_of(s.catalog)
        part = urania_of(player)
        ahead = [i for i, sp in enumerate(data.note_spaces) if sp > part.square]
        if ahead and ahead[0] < part.shown and part.round in data.note(part.notes[ahead[0]]).frame:
            return 1.5
        return 0.0

    def react(self, before: GameState, after: GameState, event: Any, tasks: list[Task]) -> list[Task]:
        if isinstance(event, ev.CometPlacedInBook) and _any_order(after):
            # CHAR-CUN-5 (rules 0.4.0): a personal page's parts in any order, all of them
            page = next((pg for pg in self.personal_pages(after.catalog) if pg.id == event.page), None)
            if page is not None and len(set(page.reward)) > 1:
                return [Task(PAGE, 1, ",".join(page.reward), "book")]
            return tasks
        if isinstance(event, ev.MovingActionTaken | BonusActionTaken) and event.tile:
            # CHAR-CUN-2: the Focus takes the colour of the option's single-colour increase
            tile = self.tile(after.catalog, event.tile)
            if tile is not None:
                option = (tile.upgraded if event.upgraded else tile.basic)[event.option - 1]
                colour = rules.focus_colour(option) or ""
                return [replace(t, arg=colour) if t.kind == "FOCUS" else t for t in tasks]
        return tasks

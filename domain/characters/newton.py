"""Isaac Newton's ability side (digest §17.5): his own Action tiles, the mirrors' multipliers and his two
personal pages (CHAR-NEW-1..5, DER-10, AMB-34, DATA-15, EX-21, EX-22). The rules are pure functions in
`domain/abilities/newton.py`; this module plugs them into the engine."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from domain import commands as c
from domain import events as ev
from domain.abilities import newton as rules
from domain.catalog import ActionTile, BookPage, Catalog
from domain.catalog.luna_characters import LunaCharacters
from domain.characters import Character, CharacterRules, ability_pages, rules_for, with_character
from domain.commands import Command, Parser, int_arg, need_args
from domain.effect_kinds import EffectKind, Emitter
from domain.effects import reward_tasks
from domain.errors import IllegalMove
from domain.events import Event, PlayerEvent
from domain.evolve import players_with, resolved
from domain.expansions.luna.events import BonusActionTaken
from domain.resolve import Run
from domain.ruleset import Rules
from domain.state import GameState, PlayerState, Task, replace

RULES = Rules(__name__)  # this module's rules (domain/ruleset.py)

RULES.point_rules["newton"] = "CHAR-NEW-5"
RULES.reward_code({"NSHIFT": Task("NSHIFT"), "NVP": Task("NVP")})  # his pages' codes


def data_of(catalog: Catalog) -> LunaCharacters:
    data = catalog.luna_characters
    assert data is not None, "Newton's ability in a catalog edition without his tiles (DATA-15)"
    return data


def mirrors(catalog: Catalog) -> frozenset[str]:
    return frozenset(t.id for t in data_of(catalog).newton_tiles if t.mirror)


@dataclass(frozen=True, kw_only=True, repr=False)
class ShiftMirror(Command):
    """CHAR-NEW-4 (personal page 1): move a special tile `steps` (1 or 2) positions forward in the queue,
    each skipped tile back one; `steps` 0 declines (the page says "may")."""

    tile: str
    steps: int
    VERB: ClassVar[str] = "shift"
    FIELD_TYPES: ClassVar[Mapping[str, type]] = {"tile": str, "steps": int}

    def args(self) -> list[str]:
        return [self.tile or "-", str(self.steps)]


def _parse_shift(seat: int, args: list[str]) -> ShiftMirror:
    need_args(args, 2)
    return ShiftMirror(seat=seat, tile="" if args[0] == "-" else args[0], steps=int_arg(args[1]))


# His command, with how its text notation's arguments are read (domain/vocabulary.py).
COMMANDS: tuple[tuple[type[Command], Parser], ...] = ((ShiftMirror, _parse_shift),)


@dataclass(frozen=True, kw_only=True)
class MirrorShifted(PlayerEvent):
    """CHAR-NEW-4: Newton's special tile moved forward (steps 0: he declined); `queue` is the result."""

    tile: str
    steps: int
    queue: tuple[str, ...]
    rule: str = "CHAR-NEW-4"


EVENTS: tuple[type[Event], ...] = (MirrorShifted,)  # his wire vocabulary (domain/vocabulary.py)


def _is_newton(s: GameState, p: PlayerState) -> bool:
    return isinstance(rules_for(s, p), Newton)


def _shift_options(s: GameState, task: Task, seat: int) -> list[c.Command]:
    p = s.players[seat]
    if not _is_newton(s, p):
        return []
    steps = data_of(s.catalog).page1_steps
    moves = rules.page1_moves(p.queue, mirrors(s.catalog), steps)
    out: list[c.Command] = [ShiftMirror(seat=seat, tile="", steps=0)]  # "may": declining is an option
    return out + [ShiftMirror(seat=seat, tile=t, steps=k) for t, k in moves]


def _shift_check(s: GameState, task: Task, cmd: c.Command) -> IllegalMove | None:
    if not isinstance(cmd, ShiftMirror):
        return IllegalMove("pending-decision", "first move a special tile forward (or decline)", "CHAR-NEW-4")
    p = s.players[cmd.seat]
    if not _is_newton(s, p):
        return IllegalMove(
            "not-your-ability", "only Newton's ability side moves a special tile", "CHAR-NEW-4"
        )
    if cmd.steps == 0 and cmd.tile == "":
        return None
    if cmd.tile not in mirrors(s.catalog) or cmd.tile not in p.queue:
        return IllegalMove(
            "not-a-mirror", "{tile!r} is not one of your special tiles", "CHAR-NEW-4", tile=cmd.tile
        )
    steps = data_of(s.catalog).page1_steps
    if not 1 <= cmd.steps <= steps:
        return IllegalMove(
            "bad-steps", "a special tile moves 1 to {steps} positions forward", "CHAR-NEW-4", steps=steps
        )
    if p.queue.index(cmd.tile) + cmd.steps >= len(p.queue):
        return IllegalMove("past-the-top", "a special tile cannot move past the top of the sky", "CHAR-NEW-4")
    return None


def _page2(run: Emitter, task: Task) -> None:
    """CHAR-NEW-5, EX-22: 2 x the multiplier of his higher special tile (AMB-34: 0 on X1/X2)."""
    s = run.state
    seat = s.turn.seat
    data = data_of(s.catalog)
    vp = rules.page2_vp(
        s.players[seat].queue, mirrors(s.catalog), data.multipliers, data.page2_vp_per_multiplier
    )
    run.emit(ev.VictoryPointsScored(seat=seat, points=vp, source="newton", rule="CHAR-NEW-5"))


RULES.effect(
    EffectKind(
        "NSHIFT",
        "move a special tile forward (or decline)",
        __name__,
        (ShiftMirror,),
        _shift_options,
        _shift_check,
        ("only Newton's ability side has special tiles", "CHAR-NEW-4"),
        expansion="newton",
    ),
    EffectKind(
        "NVP",
        "score 2 VP per the higher special tile's multiplier",
        __name__,
        resolve=_page2,
        expansion="newton",
    ),
)
RULES.resolve(ev.VictoryPointsScored, "NVP")


@RULES.command(ShiftMirror)
def _command_shift(run: Run, cmd: ShiftMirror, task: Task | None) -> None:
    queue = run.state.players[cmd.seat].queue
    if cmd.steps:
        queue = rules.page1_move(queue, cmd.tile, cmd.steps)
    run.emit(MirrorShifted(seat=cmd.seat, tile=cmd.tile, steps=cmd.steps, queue=queue))


@RULES.event(MirrorShifted, "NSHIFT")
def _shifted(s: GameState, e: MirrorShifted) -> GameState:
    return replace(s, players=players_with(s, e.seat, queue=tuple(e.queue)), agenda=resolved(s, e))


def _action_tile(tile: Any) -> ActionTile:
    """A Newton tile as an Action tile; a mirror's single option is both options (DATA-15)."""
    basic = tile.basic * 2 if tile.mirror else tile.basic
    upgraded = tile.upgraded * 2 if tile.mirror else tile.upgraded
    return ActionTile(id=tile.id, name=tile.name, basic=basic, upgraded=upgraded, provenance=tile.provenance)


class Newton(CharacterRules):
    ability_of = "newton"
    rules = (RULES,)
    side = "ability"

    def layout(
        self, catalog: Catalog, character: str, queue: tuple[str, ...], aside: str | None
    ) -> tuple[tuple[str, ...], dict[str, Any] | None]:
        """CHAR-NEW-1: his six tiles instead of the regular set; the two special tiles on X1/X2, the
        other four at random on S1..S4 (in the order the seat's shuffled regular queue gives them)."""
        tiles = data_of(catalog).newton_tiles
        special = tuple(t.id for t in tiles if t.mirror)
        others = [t.id for t in tiles if not t.mirror]
        regular = sorted(queue)
        order = sorted(range(len(others)), key=lambda i: queue.index(regular[i]))
        return rules.start_queue((special[0], special[1]), tuple(others[i] for i in order)), None

    def start(self, catalog: Catalog, player: PlayerState, layout: dict[str, Any] | None) -> PlayerState:
        return with_character(player, Character())

    def tile(self, catalog: Catalog, tile_id: str) -> ActionTile | None:
        for t in data_of(catalog).newton_tiles:
            if t.id == tile_id:
                return _action_tile(t)
        return None

    def personal_pages(self, catalog: Catalog) -> tuple[BookPage, ...]:
        return ability_pages(catalog, "newton")

    def worth(self, s: GameState, player: PlayerState) -> float:
        """His mirrors high in the queue (CHAR-NEW-2, page 2: CHAR-NEW-5) are worth a little."""
        data = data_of(s.catalog)
        special = mirrors(s.catalog)
        return 0.5 * sum(data.multipliers[i] for i, t in enumerate(player.queue) if t in special)

    def react(self, before: GameState, after: GameState, event: Any, tasks: list[Task]) -> list[Task]:
        if isinstance(event, ev.MovingActionTaken | BonusActionTaken) and event.tile in mirrors(
            after.catalog
        ):
            # CHAR-NEW-2, EX-21: the bonus times the multiplier of the position it was used on (Luna's
            # A6 too, AMB-23: on X1/X2 that is 0, AMB-34)
            data = data_of(after.catalog)
            tile = next(t for t in data.newton_tiles if t.id == event.tile)
            position = before.players[event.seat].queue.index(event.tile)
            times = rules.mirror_times(data.multipliers, position, event.upgraded, tile.upgrade_bonus)
            face = tile.upgraded if event.upgraded else tile.basic
            mirrored = reward_tasks(
                rules.mirror_reward(face[0], times), "action-tile", after.rules.reward_codes
            )
            return mirrored + [t for t in tasks if t.kind == "ROTATE"]  # A6's rotation stays (LUNA-BA-6)
        return tasks

"""The Luna expansion (digest §18) as a plug-in (`Luna`, domain/ruleset.py): a game whose `luna` option is
on is played with its rules; a base game never consults them.

- its effect kinds (the Bonus Board rewards, the Grand Inquisitors, the Moon objective): `effects.py`;
- here (`RULES`): how its events apply, which base events resolve its effects, the effects that lend an
  action, what its commands emit (and its extensions of the base Observe and Persuade), what its events
  grant, its setup and fork steps, the Moon phase change between any two steps (an interrupt), the Moon
  as a Major Object and the Moon objective in Cleanup;
- the Grand Inquisitors (their own command and event, how they are persuaded, gained and leave for the
  Bonus Board): `grand.py`.
"""

from __future__ import annotations

from domain import commands as c
from domain import events as ev
from domain.catalog.luna import POSITIONS
from domain.concepts.actions import swapped
from domain.effect_kinds import Emitter, Interrupt
from domain.effects import reward_tasks
from domain.errors import IllegalMove
from domain.evolve import (
    Handler,
    observe_major,
    player_with,
    players_with,
    resolved,
    resolved_if,
)
from domain.expansions.luna import commands as lc
from domain.expansions.luna import effects, grand
from domain.expansions.luna import events as le
from domain.expansions.luna.rules import (
    bonus_space,
    bonus_tasks,
    moon_major_objects,
    moon_objective_due,
    observable_moon_tiles,
    phase_due,
)
from domain.expansions.luna.state import (
    LunaState,
    luna,
    luna_of,
    rotated_at_once,
    seat_of,
    turn_rotated,
    with_luna,
    with_seat,
)
from domain.grants import book_tasks, library_reward, tile_rewards
from domain.moves import (
    CleanupChoice,
    ExtraMajor,
    payment_check,
    payments,
)
from domain.resolve import CommandHandler, Run, paid_comets
from domain.ruleset import Plugin, Rules
from domain.state import COLOURS, GameState, Task, replace

RULES = Rules(__name__)  # this module's rules (domain/ruleset.py)

RULES.major_object_sources.append(moon_major_objects)  # AMB-13 option
RULES.point_rules.update(
    {"moon": "LUNA-23", "scoring-tile": "LUNA-23", "bonus-board": "LUNA-42", "moon-objective": "LUNA-80"}
)

# Base events that resolve Luna's effects.
RULES.resolve(ev.InquisitorGained, "OPTINQ")  # LUNA-BB-7: an Inquisitor that may be declined, taken
RULES.resolve(ev.InquisitorPersuaded, "ADVANCE")  # LUNA-BB-5
RULES.resolve(ev.VictoryPointsScored, "BOOKVP")  # LUNA-BB-6
RULES.resolve(ev.ActionTilesRotated, "ROTATE")  # LUNA-BA-6: rotated at once (ROT-6 remembers it)
RULES.lend("FIXEDAT", "fixed-action")  # LUNA-BB-3: the fixed action where the telescope now points
RULES.lend("FREEOBS", "observation")  # LUNA-BA-2: one constellation of cost 4 or less, for free


def _rotated(s: GameState, e: ev.ActionTilesRotated, base: Handler) -> GameState:
    """LUNA-BA-6: a tile the Bonus Board rotates at once is remembered (ROT-6: not rotated again in
    Cleanup, AMB-23)."""
    at_once = bool(s.agenda) and s.agenda[-1].kind == "ROTATE"
    after = base(s, e)
    return replace(after, turn=turn_rotated(after.turn, e.tile)) if at_once else after


RULES.wrap_event(ev.ActionTilesRotated, _rotated)
RULES.rotated_at_once.append(rotated_at_once)


# -- setup and forks ----------------------------------------------------------------------------------------


def _start(s: GameState, e: ev.GameStarted) -> GameState:
    """LUNA-3..6, LUNA-30: the Moon tiles with their Scoring tiles, the first phase, the cost stack."""
    if not s.options.get("luna"):
        return s
    part = LunaState(
        side=e.luna_side,
        scoring=(*e.moon_revealed, *e.moon_hidden),
        phase=1,  # LUNA-30
        flipped=(False,) * len(s.catalog.luna.moon_tiles),
        costs=s.catalog.luna.moon_costs,  # LUNA-6
        bonus=((),) * 9,
    )
    return with_luna(s, part)


def _fork(before: GameState, forked: GameState, e: ev.GameForked) -> GameState:
    """A re-dealing fork re-deals the face-down Scoring tiles too."""
    part = luna_of(forked)
    if part is None or not e.moon_hidden:
        return forked
    scoring = tuple(tile if part.visible(i) else e.moon_hidden[i - 3] for i, tile in enumerate(part.scoring))
    return with_luna(forked, replace(part, scoring=scoring))


RULES.on_start.append(_start)
RULES.on_fork.append(_fork)


# -- the Moon phase (LUNA-31/32) ---------------------------------------------------------------------------


def advance_phase(run: Emitter) -> None:
    """LUNA-31/32: reveal the next column of Scoring tiles; the Dividing tile goes to the box."""
    s = run.state
    phase = luna(s).phase + 1
    column = phase - 1
    revealed = luna(s).scoring[column * 3 : column * 3 + 3]
    run.emit(le.MoonPhaseAdvanced(seat=s.turn.seat, phase=phase, revealed=revealed))


RULES.interrupts.append(Interrupt(phase_due, advance_phase, "the next Moon phase is revealed", "LUNA-31"))


# -- the Moon as a Major Object, the Moon objective in Cleanup (legal moves) ----------------------------


def _moon_options(s: GameState, seat: int, sky1: int, sky2: int) -> list[c.Command]:
    """LUNA-20..22: the Moon tiles open to observation, paid with dice of all three colours."""
    part = luna_of(s)
    if part is None:
        return []
    dice = s.players[seat].dice
    cost = part.costs[0] if part.costs else 0
    return [
        c.Observe(seat=seat, target=f"MOON:{POSITIONS[index]}", dice=spent, comets1=n1, comets2=n2)
        for index in observable_moon_tiles(s)
        for spent, n1, n2 in payments(dice, COLOURS, cost, sky1, sky2)
    ]


def _moon_check(s: GameState, cmd: c.Observe, majors: bool) -> IllegalMove | None:
    """The check of `_moon_options` (LUNA-2, LUNA-20..24, OBS-1, then the payment: OBS-23)."""
    part = luna_of(s)
    position = cmd.target.split(":")[1]
    if part is None:
        return IllegalMove("no-moon", "the Moon is part of the Luna expansion, not in this game", "LUNA-20")
    if not majors:
        return IllegalMove("one-major-object", "the Moon is a Major Object: one per Observe", "OBS-1")
    if position not in POSITIONS:
        return IllegalMove("bad-target", "no Moon tile {position!r}: use I..IX", "LUNA-2", position=position)
    tile = POSITIONS.index(position)
    if part.flipped[tile] or not part.scoring[tile]:
        return IllegalMove(
            "moon-observed", "Moon tile {position} was already observed", "LUNA-24", position=position
        )
    if not part.visible(tile):
        return IllegalMove(
            "moon-face-down", "Moon tile {position} has no face-up Scoring tile", "LUNA-21", position=position
        )
    if not part.costs:
        return IllegalMove("moon-stack-empty", "no Moon Observation tile is left", "LUNA-22")
    return payment_check(s, cmd, COLOURS, part.costs[0], "OBS-23")


RULES.extra_majors["MOON"] = ExtraMajor(_moon_options, _moon_check, "MOON:<I..IX>")
RULES.cleanup_choices.append(
    CleanupChoice(
        "moon",  # AMB-15 option: the Moon objective in Cleanup step 4 (LUNA-80/81)
        lambda s, p: not s.options.get("moon_objective_immediate") and moon_objective_due(s, p),
        "MOONOBJ",
        "moon-objective-first",
        "first choose the Moon objective's reward",
        "LUNA-80",
    )
)


# -- commands ------------------------------------------------------------------------------------------------


def _observe_moon(run: Run, cmd: c.Observe, task: Task | None, base: CommandHandler) -> None:
    """LUNA-20..23: observing a Moon tile (target MOON:<I..IX>)."""
    if not cmd.target.startswith("MOON:"):
        base(run, cmd, task)
        return
    s = run.state
    part = luna(s)
    tile = cmd.target.split(":")[1]
    index = POSITIONS.index(tile)
    scoring, cost = part.scoring[index], part.costs[0]
    comets = paid_comets(s, cmd)
    run.emit(
        le.MoonObserved(seat=cmd.seat, tile=tile, scoring=scoring, dice=cmd.dice, comets=comets, cost=cost)
    )


def _advance_inquisitor(run: Run, cmd: c.Persuade, task: Task | None, base: CommandHandler) -> None:
    """LUNA-BB-5: the Inquisitor goes straight to the rightmost space (a Grand one: grand.py)."""
    if task is None or task.kind != "ADVANCE":
        base(run, cmd, task)
        return
    end = len(run.state.players[cmd.seat].cellar) - 1
    run.emit(ev.InquisitorPersuaded(seat=cmd.seat, start=cmd.space, end=end, rule="LUNA-BB-5"))


RULES.wrap_command(c.Observe, _observe_moon)
RULES.wrap_command(c.Persuade, _advance_inquisitor)


# -- events ----------------------------------------------------------------------------------------------


@RULES.event(le.MoonObserved)
def _moon(s: GameState, e: le.MoonObserved) -> GameState:
    s = observe_major(s, e.seat, e.dice, e.comets)
    part = luna(s)
    index = POSITIONS.index(e.tile)
    flipped = list(part.flipped)
    flipped[index] = True  # LUNA-23.6
    scoring = list(part.scoring)
    scoring[index] = ""  # LUNA-23.5: the Scoring tile goes to the box
    part = replace(part, costs=part.costs[1:], flipped=tuple(flipped), scoring=tuple(scoring))  # LUNA-23.1
    return with_luna(
        with_seat(s, e.seat, moon=seat_of(s.players[e.seat]).moon + 1), part
    )  # LUNA-23.2-4: grants


@RULES.event(le.MoonPhaseAdvanced)
def _phase(s: GameState, e: le.MoonPhaseAdvanced) -> GameState:
    part = luna(s)
    column = e.phase - 1
    scoring = list(part.scoring)
    scoring[column * 3 : column * 3 + 3] = list(e.revealed)
    return with_luna(s, replace(part, phase=e.phase, scoring=tuple(scoring)))


@RULES.event(le.ScoringTileScored, "SCORING")
def _scoring(s: GameState, e: le.ScoringTileScored) -> GameState:
    return replace(s, agenda=resolved(s, e))  # the points per seat are grants


@RULES.event(le.BonusBoardRewardTaken, "BONUS")
def _bonus(s: GameState, e: le.BonusBoardRewardTaken) -> GameState:
    return replace(s, agenda=resolved(s, e))


@RULES.event(le.MoonObjectiveAchieved, "MOONOBJ")
def _moon_objective(s: GameState, e: le.MoonObjectiveAchieved) -> GameState:
    part = luna(s)
    p = s.players[e.seat]
    s = player_with(s, e.seat, achievements=(*p.achievements, "MOON"))
    agenda = resolved_if(s, e)  # AMB-15: at once, else in Cleanup step 4
    return replace(with_luna(s, replace(part, achievers=(*part.achievers, e.seat))), agenda=agenda)


@RULES.event(le.TelescopeRelocated, "RELOCATE")
def _relocated(s: GameState, e: le.TelescopeRelocated) -> GameState:
    s = player_with(s, e.seat, telescope=e.end)  # AMB-21: not a movement; the next turn moves from here
    return replace(s, agenda=resolved(s, e))


@RULES.event(le.ActionTilesSwapped, "SWAP")
def _swapped(s: GameState, e: le.ActionTilesSwapped) -> GameState:
    return replace(s, players=players_with(s, e.seat, queue=tuple(e.queue)), agenda=resolved(s, e))


@RULES.event(le.LibraryRewardsRegained, "REREAD")
def _regained(s: GameState, e: le.LibraryRewardsRegained) -> GameState:
    return replace(s, agenda=resolved(s, e))  # LUNA-BA-5: the rewards are grants


@RULES.event(le.BonusActionTaken, "ANYTILE")
def _bonus_action(s: GameState, e: le.BonusActionTaken) -> GameState:
    return replace(s, agenda=resolved(s, e))  # LUNA-BA-6: the tile's reward and rotation are grants


@RULES.event(le.ScaleRewardCollected, "SCALEREWARDS")
def _scale_collected(s: GameState, e: le.ScaleRewardCollected) -> GameState:
    agenda = resolved(s, e)
    top = s.agenda[-1]
    left = top.arg.replace(str(e.tile), "")
    return replace(s, agenda=agenda + ((replace(top, arg=left),) if left else ()))  # LUNA-BB-7: grants


@RULES.event(le.BonusDeclined, "OPTINQ", "FIXEDAT")
def _declined(s: GameState, e: le.BonusDeclined) -> GameState:
    return replace(s, agenda=resolved(s, e))


@RULES.command(lc.Relocate)
def _command_relocate(run: Run, cmd: lc.Relocate, task: Task | None) -> None:
    start = run.state.players[cmd.seat].telescope
    run.emit(le.TelescopeRelocated(seat=cmd.seat, start=start, end=cmd.space))


@RULES.command(lc.SwapTiles)
def _command_swap_tiles(run: Run, cmd: lc.SwapTiles, task: Task | None) -> None:
    q = swapped(run.state.players[cmd.seat].queue, cmd.first, cmd.second)  # LUNA-BA-7 (not Kepler's KSWAP)
    run.emit(le.ActionTilesSwapped(seat=cmd.seat, first=cmd.first, second=cmd.second, queue=q))


@RULES.command(lc.RegainRow)
def _command_regain_row(run: Run, cmd: lc.RegainRow, task: Task | None) -> None:
    position = run.state.players[cmd.seat].books[cmd.row]
    run.emit(le.LibraryRewardsRegained(seat=cmd.seat, row=cmd.row, position=position))


@RULES.command(lc.BonusTile)
def _command_bonus_tile(run: Run, cmd: lc.BonusTile, task: Task | None) -> None:
    upgraded = cmd.tile in run.state.players[cmd.seat].upgraded
    run.emit(le.BonusActionTaken(seat=cmd.seat, tile=cmd.tile, option=cmd.option, upgraded=upgraded))


@RULES.command(lc.CollectScale)
def _command_collect_scale(run: Run, cmd: lc.CollectScale, task: Task | None) -> None:
    height = run.state.players[cmd.seat].university[cmd.tile]
    run.emit(le.ScaleRewardCollected(seat=cmd.seat, tile=cmd.tile, height=height))


@RULES.command(lc.MoonReward)
def _command_moon_reward(run: Run, cmd: lc.MoonReward, task: Task | None) -> None:
    run.emit(le.MoonObjectiveAchieved(seat=cmd.seat, choice=cmd.choice))


@RULES.command(lc.TakeInquisitor)
def _command_take_inquisitor(run: Run, cmd: lc.TakeInquisitor, task: Task | None) -> None:
    if cmd.accept:
        run.emit(ev.InquisitorGained(seat=cmd.seat, rule="LUNA-BB-7"))
    else:
        run.emit(le.BonusDeclined(seat=cmd.seat, effect="INQ", rule="LUNA-BB-7"))


@RULES.command(lc.Decline)
def _command_decline(run: Run, cmd: lc.Decline, task: Task | None) -> None:
    run.emit(le.BonusDeclined(seat=cmd.seat, effect=task.kind if task is not None else "", rule="ACT-2"))


# -- grants --------------------------------------------------------------------------------------------


@RULES.grant(le.MoonObserved)
def _grants_moon(before: GameState, after: GameState, e: le.MoonObserved) -> list[Task]:
    tasks = reward_tasks(
        after.catalog.luna.moon(e.tile).reward, "moon", after.rules.reward_codes
    )  # LUNA-23.2
    tasks.append(Task("SCORING", 1, e.scoring))  # LUNA-23.3
    if after.options.get("moon_objective_immediate") and moon_objective_due(after, after.players[e.seat]):
        tasks.append(Task("MOONOBJ"))  # LUNA-81, AMB-15
    tasks.append(Task("GRAND", 1, e.tile))  # LUNA-23.4
    tasks += book_tasks(before, after, e.seat)
    return tasks


@RULES.grant(le.ScoringTileScored)
def _grants_scoring(before: GameState, after: GameState, e: le.ScoringTileScored) -> list[Task]:
    n = len(after.players)
    order = [(e.seat + k) % n for k in range(n)]  # the observer's bonus first, then the others
    return [Task("VP", e.points[seat], str(seat), "scoring-tile") for seat in order if e.points[seat]]


@RULES.grant(le.BonusBoardRewardTaken)
def _grants_bonus(before: GameState, after: GameState, e: le.BonusBoardRewardTaken) -> list[Task]:
    return [] if e.lost else bonus_tasks(after, bonus_space(after, e.space))


@RULES.grant(le.MoonObjectiveAchieved)
def _grants_moon_objective(before: GameState, after: GameState, e: le.MoonObjectiveAchieved) -> list[Task]:
    objective = after.catalog.luna  # LUNA-80
    if e.choice == "vp":
        return [Task("VP", objective.objective_vp, "", "moon-objective")]
    return [Task("Q", objective.objective_quadrants, "", "moon-objective")]


@RULES.grant(le.TelescopeRelocated)
def _grants_relocated(before: GameState, after: GameState, e: le.TelescopeRelocated) -> list[Task]:
    return [Task("FIXEDAT", e.end)]  # LUNA-BB-3


@RULES.grant(le.LibraryRewardsRegained)
def _grants_regained(before: GameState, after: GameState, e: le.LibraryRewardsRegained) -> list[Task]:
    p = after.players[e.seat]
    tasks: list[Task] = []
    for position in range(e.position, 0, -1):  # LUNA-BA-5: right to left
        tasks += reward_tasks(library_reward(after, p, e.row, position), "library", after.rules.reward_codes)
    return tasks


@RULES.grant(le.BonusActionTaken)
def _grants_bonus_action(before: GameState, after: GameState, e: le.BonusActionTaken) -> list[Task]:
    rewards = tile_rewards(
        after, e.tile, e.option, e.upgraded, after.players[e.seat]
    )  # a character's tiles too
    return [*rewards, Task("ROTATE", 1, e.tile)]  # LUNA-BA-6


@RULES.grant(le.ScaleRewardCollected)
def _grants_scale_collected(before: GameState, after: GameState, e: le.ScaleRewardCollected) -> list[Task]:
    row = after.catalog.scale_face(after.scale[e.tile]).rows[e.height - 1]
    return [
        Task("OPTINQ", 1, "", t.source) if t.kind == "INQ" else t  # LUNA-BB-7: Inquisitors may be declined
        for t in reward_tasks(row.reward, "lecture", after.rules.reward_codes)
    ]


class Luna(Plugin):
    """The Luna expansion (digest §18): a game whose `luna` option is on is played with it."""

    rules = (effects.RULES, RULES, grand.RULES)

"""The Luna expansion's effects (digest §18): Bonus Board rewards, the Grand Inquisitors, the Moon.

Its kinds name this module as where they are defined (`EffectKind.concept`), as every base kind names
its module in `domain/concepts/`.
"""

from __future__ import annotations

from domain import commands as c
from domain import events as ev
from domain.concepts.inquisition import persuade_check, persuade_options
from domain.effect_kinds import Check, EffectKind, Emitter, Options, Resolver
from domain.errors import IllegalMove
from domain.expansions.luna import commands as lc
from domain.expansions.luna import events as le
from domain.expansions.luna.grand import depart_check, depart_options
from domain.expansions.luna.rules import bonus_lost, bonus_space, scoring_points
from domain.expansions.luna.state import luna
from domain.forfeit import is_frozen, lost_points
from domain.moves import constellation_index, fixed_check, fixed_options
from domain.ruleset import Rules
from domain.state import S1, S2, S3, S4, TOKENS, UPGRADE, GameState, Task

CONCEPT = __name__  # where its kinds are defined (`EffectKind.concept`)
RULES = Rules(__name__)  # this module's rules (domain/ruleset.py)

# The Bonus Board's reward codes (digest §18.5-18.6; domain/catalog/luna.py).
RULES.reward_code(
    {
        "DIE@2": Task("DIE", 2),
        "DIE@5": Task("DIE", 5),
        "FREEOBS:4": Task("FREEOBS", 4),
        "REREAD": Task("REREAD"),
        "ANYTILE": Task("ANYTILE"),
        "SWAP": Task("SWAP"),
        "RELOCATE": Task("RELOCATE"),
        "ADVANCE": Task("ADVANCE"),
        "BOOKVP": Task("BOOKVP"),
        "SCALEREWARDS": Task("SCALEREWARDS", 1, "0123"),
    }
)

# Each choice of the expansion: its options and, beside them, its check (domain/effect_kinds.py).


def free_observe_options(s: GameState, seat: int, max_cost: int) -> list[c.Command]:
    """LUNA-BA-2: one uncovered constellation of cost <= 4, without dice (nor comets: OBS-32)."""
    if s.players[seat].tokens_used >= TOKENS:
        return []
    out: list[c.Command] = []
    for space, card_id in enumerate(s.display):
        if card_id is None:
            continue
        for index, con in enumerate(s.catalog.cards[card_id].constellations):
            if s.covers[space][index] < 0 and con.cost <= max_cost:
                out.append(c.Observe(seat=seat, target=f"C:{card_id}:{index}", dice=()))
    return out


def free_observe_check(s: GameState, cmd: c.Observe, max_cost: int) -> IllegalMove | None:
    """The check of `free_observe_options`."""
    parts = cmd.target.split(":")
    if parts[0] != "C" or len(parts) != 3:
        return IllegalMove(
            "free-observation", "only a constellation (C:<card>:<n>) is observed free", "LUNA-BA-2"
        )
    if s.players[cmd.seat].tokens_used >= TOKENS:
        return IllegalMove("no-constellation-tokens", "all 7 Constellation tokens are used", "OBS-54")
    if parts[1] not in s.display:
        return IllegalMove(
            "not-on-board", "card {parts1} is not face up on the board", "OBS-2", parts1=parts[1]
        )
    card = s.catalog.cards[parts[1]]
    index = constellation_index(parts[2], len(card.constellations))
    if index is None:
        return IllegalMove(
            "bad-target", "card {id} has no constellation {parts2!r}", "OBS-2", id=card.id, parts2=parts[2]
        )
    if s.covers[s.display.index(parts[1])][index] >= 0:
        return IllegalMove("constellation-covered", "that constellation already carries a token", "OBS-3")
    cost = card.constellations[index].cost
    if cost > max_cost:
        return IllegalMove(
            "free-observation-cost",
            "that constellation costs {cost}: at most {max_cost} is free",
            "LUNA-BA-2",
            cost=cost,
            max_cost=max_cost,
        )
    if cmd.dice or cmd.comets1 != 0 or cmd.comets2 != 0:
        return IllegalMove(
            "free-observation", "this observation is paid with nothing: no dice, no comets", "LUNA-BA-2"
        )
    return None


def _freeobs_check(s: GameState, task: Task, cmd: c.Command) -> IllegalMove | None:
    if not isinstance(cmd, c.Observe):
        return IllegalMove("pending-decision", "first choose the constellation observed free", "RES-1")
    return free_observe_check(s, cmd, task.n)


def _reread_options(s: GameState, task: Task, seat: int) -> list[c.Command]:
    return [lc.RegainRow(seat=seat, row=r) for r, b in enumerate(s.players[seat].books) if b >= 1]


def _reread_check(s: GameState, task: Task, cmd: c.Command) -> IllegalMove | None:
    if not isinstance(cmd, lc.RegainRow):
        return IllegalMove("pending-decision", "first choose a library row", "RES-1")
    books = s.players[cmd.seat].books
    if not 0 <= cmd.row < len(books):
        return IllegalMove("bad-row", "library rows are R1..R{n_books}", "LIB-3", n_books=len(books))
    if books[cmd.row] < 1:
        return IllegalMove("row-not-moved", "that Book token has not left its start space", "LUNA-BA-5")
    return None


def _anytile_options(s: GameState, task: Task, seat: int) -> list[c.Command]:
    return [lc.BonusTile(seat=seat, tile=t, option=o) for t in s.players[seat].queue for o in (1, 2)]


def _anytile_check(s: GameState, task: Task, cmd: c.Command) -> IllegalMove | None:
    if not isinstance(cmd, lc.BonusTile):
        return IllegalMove("pending-decision", "first choose an Action tile and its option", "RES-1")
    if cmd.tile not in s.players[cmd.seat].queue:
        return IllegalMove("unknown-tile", "you have no Action tile {tile!r}", "LUNA-BA-6", tile=cmd.tile)
    if cmd.option not in (1, 2):
        return IllegalMove("bad-option", "an Action tile offers option 1 or 2", "ACT-5")
    return None


def _swap_options(s: GameState, task: Task, seat: int) -> list[c.Command]:
    q = s.players[seat].queue
    return [
        lc.SwapTiles(seat=seat, first=q[i], second=q[j]) for i in range(len(q)) for j in range(i + 1, len(q))
    ]


def _swap_check(s: GameState, task: Task, cmd: c.Command) -> IllegalMove | None:
    if not isinstance(cmd, lc.SwapTiles):
        return IllegalMove("pending-decision", "first choose two Action tiles to swap", "RES-1")
    q = s.players[cmd.seat].queue
    for tile in (cmd.first, cmd.second):
        if tile not in q:
            return IllegalMove("unknown-tile", "you have no Action tile {tile!r}", "LUNA-BA-7", tile=tile)
    if cmd.first == cmd.second:
        return IllegalMove("same-tile", "swap two different Action tiles", "LUNA-BA-7")
    return None


RELOCATE_SPACES = (S1, S2, S3, S4, UPGRADE)


def _relocate_options(s: GameState, task: Task, seat: int) -> list[c.Command]:
    return [lc.Relocate(seat=seat, space=sp) for sp in RELOCATE_SPACES]


def _relocate_check(s: GameState, task: Task, cmd: c.Command) -> IllegalMove | None:
    if not isinstance(cmd, lc.Relocate):
        return IllegalMove("pending-decision", "first choose where the telescope points", "RES-1")
    if cmd.space not in RELOCATE_SPACES:
        return IllegalMove("bad-space", "the telescope can point at S1..S4 or U", "MOV-2")
    return None


def _fixedat_options(s: GameState, task: Task, seat: int) -> list[c.Command]:
    """LUNA-BB-3: the fixed action only, optional (ACT-2)."""
    return [*fixed_options(s, seat, task.n), lc.Decline(seat=seat)]


def _fixedat_check(s: GameState, task: Task, cmd: c.Command) -> IllegalMove | None:
    if isinstance(cmd, lc.Decline):
        return None
    return fixed_check(s, cmd, task.n)


def _advance_options(s: GameState, task: Task, seat: int) -> list[c.Command]:
    """LUNA-BB-5: any Inquisitor (Grand ones included) to the rightmost space."""
    return persuade_options(s, seat)


def _advance_check(s: GameState, task: Task, cmd: c.Command) -> IllegalMove | None:
    return persuade_check(s, cmd, "LUNA-BB-5")


def _scale_tiles(task: Task) -> list[int]:
    """The Scale tiles whose reward is still to collect (the task's arg: their indices as digits)."""
    return [int(i) for i in task.arg]


def _scalerewards_options(s: GameState, task: Task, seat: int) -> list[c.Command]:
    """LUNA-BB-7, AMB-51: in the order the player chooses."""
    university = s.players[seat].university
    return [lc.CollectScale(seat=seat, tile=i) for i in _scale_tiles(task) if university[i] >= 1]


def _scalerewards_check(s: GameState, task: Task, cmd: c.Command) -> IllegalMove | None:
    if not isinstance(cmd, lc.CollectScale):
        return IllegalMove("pending-decision", "first choose a Scale tile's reward", "RES-1")
    university = s.players[cmd.seat].university
    if not 0 <= cmd.tile < len(university):
        return IllegalMove(
            "bad-tile", "Scale tiles are 1..{n_university}", "LEC-1", n_university=len(university)
        )
    if cmd.tile not in _scale_tiles(task):
        return IllegalMove(
            "scale-collected", "the reward of Scale tile {tile} was collected", "LUNA-BB-7", tile=cmd.tile + 1
        )
    if university[cmd.tile] < 1:
        return IllegalMove("on-the-stairs", "that University token is on the stairs", "LUNA-BB-7")
    return None


def _optinq_options(s: GameState, task: Task, seat: int) -> list[c.Command]:
    return [lc.TakeInquisitor(seat=seat, accept=True), lc.TakeInquisitor(seat=seat, accept=False)]


def _optinq_check(s: GameState, task: Task, cmd: c.Command) -> IllegalMove | None:
    if not isinstance(cmd, lc.TakeInquisitor):
        return IllegalMove("pending-decision", "first take or decline the Inquisitor", "RES-1")
    if cmd.accept not in (True, False):
        return IllegalMove("bad-answer", "take the Inquisitor: yes or no", "LUNA-BB-7")
    return None


MOON_REWARDS = ("vp", "quadrants")


def _moonobj_options(s: GameState, task: Task, seat: int) -> list[c.Command]:
    """LUNA-80."""
    return [lc.MoonReward(seat=seat, choice=choice) for choice in MOON_REWARDS]


def _moonobj_check(s: GameState, task: Task, cmd: c.Command) -> IllegalMove | None:
    if not isinstance(cmd, lc.MoonReward):
        return IllegalMove("pending-decision", "first choose the Moon objective's reward", "RES-1")
    if cmd.choice not in MOON_REWARDS:
        return IllegalMove("bad-choice", "the Moon objective gives vp (3 VP) or quadrants (2 Q)", "LUNA-80")
    return None


def _luna(
    kind: str,
    name: str,
    commands: tuple[type[c.Command], ...],
    options: Options,
    check: Check,
    lost: tuple[str, str] | None = None,
) -> EffectKind:
    return EffectKind(kind, name, CONCEPT, commands, options, check, lost, expansion="luna")


def _auto(kind: str, name: str, resolve: Resolver) -> EffectKind:
    return EffectKind(kind, name, CONCEPT, resolve=resolve, expansion="luna")


def _scoring_tile(run: Emitter, task: Task) -> None:
    seat = run.state.turn.seat
    points = scoring_points(run.state, seat, task.arg, task.n)  # n: the Grand Inquisitors arriving (LUNA-63)
    run.emit(le.ScoringTileScored(seat=seat, tile=task.arg, points=points))


def _bonus(run: Emitter, task: Task) -> None:
    s = run.state
    seat = s.turn.seat
    lost = bonus_lost(s, s.players[seat], bonus_space(s, task.n))
    side = luna(s).side
    rule = f"LUNA-B{side}-{task.n}"
    run.emit(le.BonusBoardRewardTaken(seat=seat, side=side, space=task.n, lost=lost, rule=rule))


def _book_points(run: Emitter, task: Task) -> None:  # LUNA-BB-6: 1 VP per space of the furthest Book token
    seat = run.state.turn.seat
    if is_frozen(run.state, seat):
        run.emit(lost_points(seat, task.kind))  # ASYNC-3: a forfeited seat's score is frozen
        return
    points = max(run.state.players[seat].books)
    run.emit(ev.VictoryPointsScored(seat=seat, points=points, source="bonus-board", rule="LUNA-BB-6"))


def _rotate(run: Emitter, task: Task) -> None:
    seat = run.state.turn.seat
    queue = run.state.players[seat].queue
    i = queue.index(task.arg)
    rotated = (queue[i], *queue[:i], *queue[i + 1 :])
    run.emit(ev.ActionTilesRotated(seat=seat, tile=task.arg, queue=rotated, rule="LUNA-BA-6"))


RULES.effect(
    _luna(
        "DEPART",
        "choose a Bonus Board space for the Grand Inquisitor",
        (lc.BonusSpace,),
        depart_options,
        depart_check,
    ),
    _luna(
        "FREEOBS",
        "observe a constellation of cost 4 or less for free",
        (c.Observe,),
        lambda s, task, seat: free_observe_options(s, seat, task.n),
        _freeobs_check,
        ("no uncovered constellation of cost 4 or less (or no Constellation token left)", "LUNA-BA-2"),
    ),
    _luna(
        "REREAD",
        "choose the Book token whose passed spaces pay again",
        (lc.RegainRow,),
        _reread_options,
        _reread_check,
        ("no Book token has left its start space", "LUNA-BA-5"),
    ),
    _luna(
        "ANYTILE",
        "take the moving action of any Action tile",
        (lc.BonusTile,),
        _anytile_options,
        _anytile_check,
    ),
    _luna("SWAP", "swap two Action tiles", (lc.SwapTiles,), _swap_options, _swap_check),
    _luna("RELOCATE", "move the telescope to any space", (lc.Relocate,), _relocate_options, _relocate_check),
    _luna(
        "FIXEDAT",
        "take (or decline) the fixed action where the telescope now points",
        (c.Observe, c.TakeFixed, lc.Decline),
        _fixedat_options,
        _fixedat_check,
    ),
    _luna(
        "ADVANCE",
        "move an Inquisitor to the rightmost cellar space",
        (c.Persuade,),
        _advance_options,
        _advance_check,
        ("no Inquisitor left of the rightmost space", "LUNA-BB-5"),
    ),
    _luna(
        "SCALEREWARDS",
        "collect the reward of a University token's row",
        (lc.CollectScale,),
        _scalerewards_options,
        _scalerewards_check,
        ("no University token above the stairs", "LUNA-BB-7"),
    ),
    _luna("OPTINQ", "take or decline the Inquisitor", (lc.TakeInquisitor,), _optinq_options, _optinq_check),
    _luna(
        "MOONOBJ", "choose the Moon objective's reward", (lc.MoonReward,), _moonobj_options, _moonobj_check
    ),
    _auto("SCORING", "score a Scoring tile (LUNA-23)", _scoring_tile),
    _auto(
        "GRAND",
        "gain a Grand Inquisitor (LUNA-23)",
        lambda run, task: run.emit(le.GrandInquisitorGained(seat=run.state.turn.seat, tile=task.arg)),
    ),
    _auto("BONUS", "take a Bonus Board reward (LUNA-42)", _bonus),
    _auto("BOOKVP", "score the Book tokens (Bonus Board)", _book_points),
    _auto("ROTATE", "rotate an Action tile (Bonus Board)", _rotate),
)

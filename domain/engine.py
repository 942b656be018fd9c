"""The decider: `initial_state`, `legal_moves`, `decide`, `evolve` (design.md, "domain/")."""

from __future__ import annotations

from domain import commands as c
from domain import (
    concepts,  # noqa: F401  (registers every effect kind: domain/effect_kinds.py)
    expansions,  # noqa: F401  (registers every expansion: domain/expansions/)
)
from domain.catalog import MIXES
from domain.catalog.luna import POSITIONS
from domain.effect_kinds import effect_kind
from domain.errors import IllegalMove
from domain.events import Event
from domain.evolve import evolve, fold
from domain.moves import FREE_COSTS, free_comets, library_end, options
from domain.resolve import Run, advance, apply_command
from domain.setup import Setup, start_game
from domain.state import COLOURS, MAX_DICE, MAX_PER_COLOUR, S1, S2, S3, S4, SKY, TOKENS, UPGRADE, GameState

__all__ = [
    "decide",
    "evolve",
    "fold",
    "initial_state",
    "legal_moves",
    "play",
    "play_through",
    "start",
    "to_act",
]


def start(setup: Setup) -> tuple[GameState, list[Event]]:
    """Set up a game and run it to its first decision: (state, all events so far)."""
    events: list[Event] = list(start_game(setup))
    run = Run(fold(events))
    advance(run)
    return run.state, events + run.events


def initial_state(setup: Setup) -> GameState:
    return start(setup)[0]


def settle(state: GameState) -> tuple[GameState, list[Event]]:
    """Take the automatic steps from a state that is not at a decision point (e.g. after a fork)."""
    run = Run(state)
    advance(run)
    return run.state, run.events


# A one-entry memo (state, moves): `decide` right after `legal_moves` on the same state object reuses
# the list. Replaced as one tuple, so concurrent callers never see a state paired with another's moves.
_memo: tuple[GameState | None, tuple[c.Command, ...]] = (None, ())


def _legal(state: GameState) -> tuple[c.Command, ...]:
    global _memo
    memo = _memo
    if memo[0] is state:
        return memo[1]
    moves = tuple(options(state) or ())
    _memo = (state, moves)
    return moves


def legal_moves(state: GameState) -> list[c.Command]:
    """Every command open at the current decision point (for the seat to act); [] when none."""
    return list(_legal(state))


def to_act(state: GameState) -> int | None:
    """The seat that must decide now, or None when the game is over."""
    return None if state.finished else state.turn.seat


def decide(state: GameState, command: c.Command) -> list[Event]:
    """Validate `command` and return the events it causes (with every automatic consequence up to
    the next decision), or raise IllegalMove carrying the rule that forbids it. Writes nothing."""
    legal = _legal(state)
    if command not in legal:
        raise diagnose(state, command, list(legal))
    return play(state, command)


def play(state: GameState, command: c.Command) -> list[Event]:
    """`decide` without validation, for commands taken from `legal_moves` (bots, self-play)."""
    return play_through(state, command)[1]


def play_through(state: GameState, command: c.Command) -> tuple[GameState, list[Event]]:
    """Like `play`, also returning the state after the events (saves a fold)."""
    run = Run(state)
    apply_command(run, command)
    advance(run)
    return run.state, run.events


def diagnose(state: GameState, cmd: c.Command, legal: list[c.Command]) -> IllegalMove:
    """The most precise reason why `cmd` is not legal in `state`."""
    if state.finished:
        return IllegalMove("game-over", "the game has ended", "END-2")
    seat = state.turn.seat
    if not isinstance(cmd, c.Command):
        return IllegalMove("bad-command", "not a command", "TURN-2")
    if cmd.seat != seat:
        return IllegalMove("not-your-turn", f"it is seat {seat}'s turn, not seat {cmd.seat}'s", "TURN-1")
    if state.agenda:
        top = state.agenda[-1]
        kind = effect_kind(top.kind)
        if not isinstance(cmd, kind.commands):
            name = kind.name
            return IllegalMove("pending-decision", f"first finish the pending effect: {name}", "RES-1")
        return _task_reason(state, cmd, top.kind)
    phase = state.turn.phase
    if phase == "movement":
        if isinstance(cmd, c.Move):
            return IllegalMove("bad-steps", f"the telescope moves 1, 2 or 3 steps, not {cmd.steps}", "MOV-1")
        return IllegalMove(
            "must-move", "first move the telescope 1, 2 or 3 steps (start of the turn)", "MOV-1"
        )
    if phase == "actions":
        return _menu_reason(state, cmd)
    if phase == "cleanup":
        if isinstance(cmd, c.PlaceComet):
            return _page_reason(state, cmd)
        if isinstance(cmd, c.BuyFree):
            if state.options.free_actions_in_all_phases:
                return _free_reason(state, cmd)
            return IllegalMove("free-action-timing", "free actions are taken in the Action phase", "AMB-24")
        return IllegalMove(
            "cleanup", "Cleanup only asks where comets go in the Book and for free actions", "CLN-1"
        )
    return IllegalMove("illegal-command", f"{cmd} is not legal now", "TURN-2")


def _menu_reason(state: GameState, cmd: c.Command) -> IllegalMove:
    p = state.current
    pos = p.telescope
    t = state.turn
    here = SKY[pos]
    if isinstance(cmd, c.Move):
        return IllegalMove("already-moved", "the telescope moves only in the Movement phase", "MOV-1")
    if isinstance(cmd, c.Observe | c.TakeFixed) and t.fixed_done:
        return IllegalMove("fixed-action-taken", "the fixed action was already taken this turn", "ACT-3")
    if isinstance(cmd, c.Observe):
        if pos not in (S1, S4):
            return IllegalMove("wrong-space", f"{here} does not offer Observe (S1 and S4 do)", "SKY-2")
        return _observe_reason(state, cmd, majors=True)
    if isinstance(cmd, c.TakeFixed):
        offered = {S2: ("die", "lecture"), S3: ("spot",), S4: ("die",), UPGRADE: ("upgrade",)}.get(pos, ())
        if cmd.action not in ("die", "lecture", "spot", "upgrade"):
            return IllegalMove("unknown-action", f"unknown fixed action {cmd.action!r}", "SKY-2")
        return IllegalMove(
            "wrong-space", f"{here} does not offer {cmd.action!r}", "SKY-2" if offered else "ACT-4"
        )
    if isinstance(cmd, c.UseTile):
        if t.moving_done:
            return IllegalMove(
                "moving-action-taken", "the moving action was already taken this turn", "ACT-3"
            )
        if pos == UPGRADE:
            return IllegalMove("upgrade-space", "at U the moving action is the Quadrant: tile 0", "UPG-2")
        if cmd.option == 0:
            return IllegalMove("not-upgrade-space", "the Quadrant substitute exists only at U", "UPG-2")
        return IllegalMove("bad-option", "an Action tile offers option 1 or 2", "ACT-5")
    if isinstance(cmd, c.BuyFree):
        return _free_reason(state, cmd)
    if isinstance(cmd, c.PlaceComet):
        return IllegalMove("book-timing", "comets are placed in the Book in Cleanup", "BOC-2")
    return IllegalMove("nothing-pending", f"{cmd.VERB!r} answers an effect, but none is pending", "RES-6")


def _free_reason(state: GameState, cmd: c.BuyFree) -> IllegalMove:
    cost = FREE_COSTS.get(cmd.action)
    if cost is None:
        known = ", ".join(FREE_COSTS)
        return IllegalMove(
            "unknown-free-action", f"unknown free action {cmd.action!r}; known: {known}", "FREE-1"
        )
    have = state.players[cmd.seat].quadrants
    return IllegalMove(
        "not-enough-quadrants", f"{cmd.action} costs {cost} Quadrants, you have {have}", "FREE-1"
    )


def _observe_reason(state: GameState, cmd: c.Command, majors: bool) -> IllegalMove:
    if not isinstance(cmd, c.Observe):
        return IllegalMove("illegal-command", f"{cmd} is not legal now", "OBS-1")
    p = state.players[cmd.seat]
    parts = cmd.target.split(":")
    if parts[0] == "MOON" and len(parts) == 2:
        moon = _moon_reason(state, parts[1], majors)
        if isinstance(moon, IllegalMove):
            return moon
        return _payment_reason(state, cmd, COLOURS, moon, "OBS-23")
    if len(parts) not in (2, 3) or parts[0] not in ("MO", "C") or (parts[0] == "C") != (len(parts) == 3):
        return IllegalMove(
            "bad-target", f"bad target {cmd.target!r}: use MO:<card>, C:<card>:<n> or MOON:<I..IX>", "OBS-1"
        )
    if parts[1] not in state.display:
        return IllegalMove("not-on-board", f"card {parts[1]} is not face up on the board", "OBS-2")
    card = state.catalog.cards[parts[1]]
    space = state.display.index(parts[1])
    if parts[0] == "MO":
        if not majors:
            return IllegalMove(
                "one-major-object", "an Observe is one Major Object or up to two constellations", "OBS-1"
            )
        colours: tuple[str, ...] = MIXES[card.major.mix]
        cost, rule = card.major.cost, "OBS-22"
    else:
        if not parts[2].isdigit() or int(parts[2]) >= len(card.constellations):
            return IllegalMove("bad-target", f"card {card.id} has no constellation {parts[2]}", "OBS-2")
        if state.covers[space][int(parts[2])] >= 0:
            return IllegalMove("constellation-covered", "that constellation already carries a token", "OBS-3")
        if p.tokens_used >= TOKENS:
            return IllegalMove("no-constellation-tokens", "all 7 Constellation tokens are used", "OBS-54")
        con = card.constellations[int(parts[2])]
        colours, cost, rule = (con.colour,), con.cost, "OBS-21"
    if state.agenda and state.agenda[-1].kind == "FREEOBS":
        if cmd.dice or cmd.comets1 or cmd.comets2:
            return IllegalMove("free-observation", "this observation is paid with nothing", "LUNA-BA-2")
        return IllegalMove("free-observation", "only a constellation of cost 4 or less", "LUNA-BA-2")
    return _payment_reason(state, cmd, colours, cost, rule)


def _moon_reason(state: GameState, position: str, majors: bool) -> IllegalMove | int:
    """Why the Moon tile cannot be observed, or its cost (LUNA-20..24)."""
    luna = state.luna
    if luna is None:
        return IllegalMove("no-moon", "the Moon is part of the Luna expansion, not in this game", "LUNA-20")
    if not majors:
        return IllegalMove("one-major-object", "the Moon is a Major Object: one per Observe", "OBS-1")
    if position not in POSITIONS:
        return IllegalMove("bad-target", f"no Moon tile {position!r}: use I..IX", "LUNA-2")
    index = POSITIONS.index(position)
    if luna.flipped[index]:
        return IllegalMove("moon-observed", f"Moon tile {position} was already observed", "LUNA-24")
    if not luna.visible(index):
        return IllegalMove("moon-face-down", f"Moon tile {position} has no face-up Scoring tile", "LUNA-21")
    if not luna.costs:
        return IllegalMove("moon-stack-empty", "no Moon Observation tile is left", "LUNA-22")
    return luna.costs[0]


def _payment_reason(
    state: GameState, cmd: c.Observe, colours: tuple[str, ...], cost: int, rule: str
) -> IllegalMove:
    p = state.players[cmd.seat]
    held = list(p.dice)
    for die in cmd.dice:
        if die not in held:
            return IllegalMove("die-not-held", f"you have no die {die[0]}{die[1]} to spend", "OBS-20")
        held.remove(die)
    if not cmd.dice:
        return IllegalMove("no-dice", "an observation is paid with at least one die", "OBS-33")
    for die in cmd.dice:
        if die[0] not in colours:
            return IllegalMove("wrong-colour", f"{die[0]} dice cannot pay for {'+'.join(colours)}", rule)
    for colour in colours:
        if all(d[0] != colour for d in cmd.dice):
            return IllegalMove("missing-colour", f"at least one {colour} die is needed", "OBS-33")
    sky1, sky2 = free_comets(state, cmd.seat)
    if cmd.comets1 < 0 or cmd.comets2 < 0 or cmd.comets1 > len(sky1) or cmd.comets2 > len(sky2):
        return IllegalMove(
            "comet-not-available",
            f"you have {len(sky1)} '1' and {len(sky2)} '2' comets usable this turn",
            "OBS-31",
        )
    paid = sum(v for _, v in cmd.dice) + cmd.comets1 + 2 * cmd.comets2
    if paid < cost:
        return IllegalMove("not-enough", f"the cost is {cost}; dice and comets give {paid}", "OBS-20")
    return IllegalMove("comet-not-needed", "every comet applied must be needed to reach the cost", "OBS-32")


def _page_reason(state: GameState, cmd: c.PlaceComet) -> IllegalMove:
    if "pending" not in state.players[cmd.seat].comets:
        return IllegalMove("no-comet-pending", "no comet of yours is waiting for the Book", "BOC-2")
    if cmd.page == "appendix":
        return IllegalMove("page-free", "empty pages must be used before the Appendix", "BOC-4")
    pages = {p.id: p for p in state.catalog.book_pages}
    if cmd.page not in pages:
        return IllegalMove("unknown-page", f"no page {cmd.page!r} in the Book of Comets", "BOC-1")
    page = pages[cmd.page]
    if len(state.players) < page.min_players:
        return IllegalMove("page-not-in-play", f"{page.id} is used only with 3-4 players", "BOC-9")
    return IllegalMove("page-taken", f"page {page.id} already holds a comet", "BOC-3")


def _task_reason(state: GameState, cmd: c.Command, kind: str) -> IllegalMove:
    p = state.players[cmd.seat]
    if isinstance(cmd, c.Persuade):
        cellar = p.grand if cmd.grand else p.cellar
        if not 0 <= cmd.space < len(cellar):
            return IllegalMove("bad-space", f"the cellar has spaces 1..{len(cellar)}", "INQ-1")
        if cmd.space == len(cellar) - 1:
            return IllegalMove(
                "rightmost", "an Inquisitor on the rightmost space cannot move further", "INQ-10"
            )
        return IllegalMove("no-inquisitor", f"no Inquisitor of yours on C{cmd.space + 1}", "INQ-10")
    if isinstance(cmd, c.GainDie):
        if cmd.colour not in COLOURS:
            return IllegalMove("bad-colour", f"unknown colour {cmd.colour!r}", "DIE-1")
        if cmd.returned is not None and cmd.returned not in p.dice:
            return IllegalMove("die-not-held", "you do not hold the die to return", "DIE-5")
        if cmd.returned is None and len(p.dice) >= MAX_DICE:
            return IllegalMove("four-dice", "you hold 4 dice: return one (exchange) or decline", "DIE-5")
        if cmd.returned is not None and len(p.dice) < MAX_DICE:
            return IllegalMove("no-exchange", "an exchange is only for a player holding 4 dice", "DIE-5")
        if state.supply[COLOURS.index(cmd.colour)] == 0:
            return IllegalMove("supply-empty", f"no {cmd.colour} die left in the supply", "DIE-7")
        return IllegalMove(
            "three-of-colour", f"you may hold at most {MAX_PER_COLOUR} {cmd.colour} dice", "DIE-6"
        )
    if isinstance(cmd, c.DeclineDie):
        return IllegalMove("must-gain", "only an exchange (with 4 dice held) can be declined", "RES-3")
    if isinstance(cmd, c.Lecture):
        if not 0 <= cmd.tile < len(p.university):
            return IllegalMove("bad-tile", f"Scale tiles are 1..{len(p.university)}", "LEC-1")
        return IllegalMove("top-row", "that University token is already on the top row", "LEC-2")
    if isinstance(cmd, c.RaiseDie | c.Recolour):
        if cmd.die not in p.dice:
            return IllegalMove("die-not-held", f"you have no die {cmd.die[0]}{cmd.die[1]}", "ICON-5")
        return IllegalMove(
            "colour-limit", "that colour change would break the dice limits or supply", "DIE-6"
        )
    if isinstance(cmd, c.Farewell):
        return IllegalMove("farewell", "no Farewell is possible now", "INQ-16")
    if isinstance(cmd, c.WriteStep | c.WriteComplete):
        if not 0 <= cmd.row < 4:
            return IllegalMove("bad-row", "library rows are R1..R4", "LIB-3")
        return IllegalMove(
            "row-end", f"that Book token is at the end of its row ({library_end(state, cmd.seat)})", "WRT-6"
        )
    if isinstance(cmd, c.StopWriting):
        return IllegalMove(
            "write-exact", "partialWritingExact: all steps must be used while possible", "AMB-8"
        )
    if isinstance(cmd, c.Upgrade):
        if cmd.tile not in p.queue:
            return IllegalMove("unknown-tile", f"you have no Action tile {cmd.tile!r}", "UPG-1")
        return IllegalMove("already-upgraded", f"tile {cmd.tile} is already upgraded", "UPG-4")
    if isinstance(cmd, c.Observe):
        return _observe_reason(state, cmd, majors=False)
    if isinstance(cmd, c.PlaceComet):
        return _page_reason(state, cmd)
    return _luna_reason(state, cmd, kind)


def _luna_reason(state: GameState, cmd: c.Command, kind: str) -> IllegalMove:
    p = state.players[cmd.seat]
    if isinstance(cmd, c.BonusSpace):
        if not 1 <= cmd.space <= 9:
            return IllegalMove("bad-space", "the Bonus Board has spaces 1..9", "LUNA-42")
        return IllegalMove("space-taken", f"Bonus space {cmd.space} already holds a figure", "LUNA-42")
    if isinstance(cmd, c.RegainRow):
        return IllegalMove("row-not-moved", "that Book token has not left its start space", "LUNA-BA-5")
    if isinstance(cmd, c.BonusTile):
        if cmd.tile not in p.queue:
            return IllegalMove("unknown-tile", f"you have no Action tile {cmd.tile!r}", "LUNA-BA-6")
        return IllegalMove("bad-option", "an Action tile offers option 1 or 2", "ACT-5")
    if isinstance(cmd, c.SwapTiles):
        return IllegalMove("bad-swap", "swap two different Action tiles of yours", "LUNA-BA-7")
    if isinstance(cmd, c.Relocate):
        return IllegalMove("bad-space", "the telescope can point at S1..S4 or U", "AMB-21")
    if isinstance(cmd, c.TakeFixed):
        return IllegalMove("wrong-space", "that space does not offer this fixed action", "SKY-2")
    if isinstance(cmd, c.CollectScale):
        return IllegalMove("no-row", "that University token is on the stairs or was collected", "LUNA-BB-7")
    if isinstance(cmd, c.MoonReward):
        return IllegalMove("bad-choice", "the Moon objective gives vp (3 VP) or quadrants (2 Q)", "LUNA-80")
    return IllegalMove("illegal-command", f"{cmd} is not legal now", "RES-6")

"""The generator and the predicate agree, both ways (issue 10, "legality as a predicate").

`legal_moves` (the generator, domain/moves.py `options`) and `check` (the predicate `decide` uses, with
a check beside every generator) are two statements of the same rules. Over many states from bot games
with fixed seeds (base and Luna, 2-4 players), including the states between the events of a decision
that are not decision points: every generated command passes the check and `decide` accepts it; every
other command of a wide universe (every command type, wrong seats, out-of-range arguments, Luna commands
in base games, and near misses of each generated command) is refused by the check with a code and a
rule ID of the rulebook.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

import pytest

from domain import (
    IllegalMove,
    Options,
    SeatSpec,
    decide,
    evolve,
    legal_moves,
    parse_command,
    play_on,
    play_through,
    start,
)
from domain import commands as c
from domain.bots import make_bot
from domain.characters import commands as ch
from domain.characters import cunitz, hevelius, newton
from domain.expansions.luna import commands as lc
from domain.expansions.luna.grand import PersuadeGrand
from domain.expansions.plugins import every_plugin
from domain.moves import check
from domain.selfplay import default_setup
from domain.state import COLOURS, S1, S2, S3, S4, UPGRADE, GameState, Task
from domain.vocabulary import COMMAND_CLASSES, COMMAND_TYPES
from rulebook import reference
from tests.domain.scenario import actions_at, new_game, player, show, turn, with_agenda

RULES = frozenset(rule.id for rule in reference())


def near_misses(s: GameState, cmd: c.Command) -> Iterator[c.Command]:
    """Commands one step away from a generated one: another seat, one comet more or less, one die
    fewer or one more, a non-canonical target."""
    yield dataclasses.replace(cmd, seat=(cmd.seat + 1) % len(s.players))
    if isinstance(cmd, c.Observe):
        for d1, d2 in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            yield dataclasses.replace(cmd, comets1=cmd.comets1 + d1, comets2=cmd.comets2 + d2)
        for i in range(len(cmd.dice)):
            yield dataclasses.replace(cmd, dice=cmd.dice[:i] + cmd.dice[i + 1 :])
        for die in dict.fromkeys(s.players[cmd.seat].dice):
            yield dataclasses.replace(cmd, dice=(*cmd.dice, die))
        yield dataclasses.replace(cmd, target=cmd.target + "0")
        yield dataclasses.replace(cmd, target=cmd.target.replace(":", "::", 1))


def universe(s: GameState, types: tuple[type[c.Command], ...] = ()) -> Iterator[c.Command]:
    """Every command type with arguments in and out of range, for the seat to act and another seat;
    with `types`, those types only (and one command of every other type)."""
    seat = s.turn.seat
    p = s.players[seat]
    other = (seat + 1) % len(s.players)
    for who in (seat, other):
        yield from (c.Move(seat=who, steps=n) for n in range(-1, 5))
        yield c.EndActions(seat=who)
        yield c.EndFreeActions(seat=who)
        yield c.StopObserving(seat=who)
        yield c.StopWriting(seat=who)
        yield c.DeclineDie(seat=who)
        yield lc.Decline(seat=who)
        yield c.Farewell(seat=who, accept=True)
        yield lc.TakeInquisitor(seat=who, accept=False)
        yield c.BuyFree(seat=who, action="recolour")
        yield c.GainDie(seat=who, colour="R")
        yield c.Persuade(seat=who, space=0)
        yield c.Lecture(seat=who, tile=0)
        yield c.WriteStep(seat=who, row=0)
        yield lc.MoonReward(seat=who, choice="vp")
        yield lc.CollectScale(seat=who, tile=0)
        yield c.Observe(seat=who, target="C:D1-01:0", dice=(("R", 5),))
    wide = [t for t in COMMAND_TYPES.values() if not types or issubclass(t, types)]
    if c.TakeFixed in wide:
        yield from (
            c.TakeFixed(seat=seat, action=a) for a in ("die", "lecture", "spot", "upgrade", "observe", "x")
        )
    if c.UseTile in wide:
        yield from (c.UseTile(seat=seat, option=n) for n in range(-1, 4))
    if c.BuyFree in wide:
        actions = ("recolour", "raise", "die", "write", "persuade", "spot", "x")
        yield from (c.BuyFree(seat=seat, action=a) for a in actions)
    dice = [*sorted(set(p.dice)), ("R", 6), ("Y", 9)]
    if c.Observe in wide:
        payments = [(), tuple(dice[:1]), tuple(dice[1:3]), p.dice]
        comets = ((0, 0), (1, 0), (0, 1), (3, 0), (-1, 0))
        for card in [*(d for d in s.display if d), "D3-09"]:
            n = len(s.catalog.cards[card].constellations)
            targets = [f"MO:{card}", *(f"C:{card}:{i}" for i in range(n + 1)), f"X:{card}", f"C:{card}:00"]
            for target in targets:
                for spent in payments:
                    for n1, n2 in comets:
                        yield c.Observe(seat=seat, target=target, dice=spent, comets1=n1, comets2=n2)
        for position in ("I", "IV", "IX", "X", ""):  # Luna (also offered to base games: refused there)
            for spent in ((), tuple(sorted(p.dice))):
                yield c.Observe(seat=seat, target=f"MOON:{position}", dice=spent)
    for space in range(-1, 5):
        yield c.Persuade(seat=seat, space=space)
        yield PersuadeGrand(seat=seat, space=space)  # Luna's (also offered to base games: refused there)
    for colour in (*COLOURS, "G"):
        yield c.GainDie(seat=seat, colour=colour)
        if c.GainDie in wide:
            yield from (c.GainDie(seat=seat, colour=colour, returned=d) for d in dice)
        if c.Recolour in wide:
            yield from (c.Recolour(seat=seat, die=d, colour=colour) for d in dice)
    for n in range(-1, 5):
        yield c.Lecture(seat=seat, tile=n)
        yield c.WriteStep(seat=seat, row=n)
        yield c.WriteComplete(seat=seat, row=n)
        yield lc.RegainRow(seat=seat, row=n)
        yield lc.CollectScale(seat=seat, tile=n)
    for d in dice:
        yield c.RaiseDie(seat=seat, die=d)
    yield c.Farewell(seat=seat, accept=True)
    yield c.Farewell(seat=seat, accept=False)
    tiles = (*p.queue, "ZZ")
    for tile in tiles:
        yield c.Upgrade(seat=seat, tile=tile)
    for page in (*(pg.id for pg in s.catalog.book_pages), "appendix", "nope"):
        yield c.PlaceComet(seat=seat, page=page)
    for space in range(-1, 11):
        yield lc.BonusSpace(seat=seat, space=space)
    for space in range(-1, 8):
        yield lc.Relocate(seat=seat, space=space)
    if lc.SwapTiles in wide:
        yield from (lc.SwapTiles(seat=seat, first=a, second=b) for a in tiles for b in tiles)
    if lc.BonusTile in wide:
        yield from (lc.BonusTile(seat=seat, tile=t, option=o) for t in tiles for o in (-1, 0, 1, 2, 3))
    for choice in ("vp", "quadrants", "both"):
        yield lc.MoonReward(seat=seat, choice=choice)
    yield lc.TakeInquisitor(seat=seat, accept=True)
    yield lc.TakeInquisitor(seat=seat, accept=False)
    yield lc.Decline(seat=seat)
    yield c.EndFreeActions(seat=seat)
    # the characters' abilities (domain/characters/): Copernicus' tiles, Kepler's swaps, declining
    yield ch.DeclineAbility(seat=seat)
    yield ch.DeclineAbility(seat=other)
    for tile in ("CP1", "CP3", "CPX"):
        for face in ("A", "B", "C"):
            for column in range(0, 4):
                for row in range(-1, 5):
                    yield ch.PlaceLibraryTile(seat=seat, tile=tile, face=face, column=column, row=row)
    if ch.KeplerSwap in wide:
        kepler = (*tiles, "K1", "A1", "A6")
        yield from (ch.KeplerSwap(seat=seat, first=a, second=b) for a in kepler for b in kepler)
    # the Luna characters' commands (CHAR-NEW-4, CHAR-CUN-2/5), in and out of range
    for tile in (*tiles, ""):
        for steps in (-1, 0, 1, 2, 3):
            yield newton.ShiftMirror(seat=seat, tile=tile, steps=steps)
    for space in (*COLOURS, "-", "G", ""):
        yield cunitz.Focus(seat=seat, space=space)
    for code in ("1D+3", "FOCUSANY", "MOVE1", "MOVE2", "2Q", "PER", "Q", ""):
        yield cunitz.PagePart(seat=seat, part=code)  # her page's parts (CHAR-CUN-5), on the page or not
    part = p.part(hevelius.Heavens)
    for tile in (*(part.offer if part else ()), "H01", "ZZ"):
        for target in (-1, 0, 1, 2, 5):
            yield hevelius.ClaimTile(seat=seat, tile=tile, target=target)
        yield hevelius.DiscardOffer(seat=seat, tiles=(tile,))
    if part is not None and len(part.offer) > 1:
        yield hevelius.DiscardOffer(seat=seat, tiles=tuple(part.offer))
    yield hevelius.DiscardOffer(seat=seat, tiles=())


def states(
    players: int,
    seed: str,
    bot: str,
    every: int,
    options: Options | None = None,
    between: int = 0,
    side: str = "basic",
    seats: tuple[tuple[str, str], ...] = (),
) -> Iterator[GameState]:
    """Every `every`-th decision state of a bot game, and its last state; with `between`, also the
    states after each event of every `between`-th of those decisions (mostly not decision points).
    `seats` ((character, side) per seat) plays those characters instead (the Luna characters)."""
    setup = default_setup(players, seed, options, side)
    if seats:
        specs = tuple(SeatSpec(f"P{i + 1}", ch, side=side) for i, (ch, side) in enumerate(seats))
        setup = dataclasses.replace(setup, seats=specs, catalog_edition=ABILITY_EDITION)
    state, _ = start(setup)
    bots = [make_bot(bot, f"{seed}{i}") for i in range(players)]
    n = 0
    while not state.finished:
        chosen = n % every == 0
        if chosen:
            yield state
        after, events = play_through(state, bots[state.turn.seat].choose(state, legal_moves(state)))
        if chosen and between and (n // every) % between == 0:
            middle = state
            for event in events[:-1]:
                middle = evolve(middle, event)
                yield middle
        state = after
        n += 1
    yield state


LUNA = Options(luna=True)
# The rule options that change what is legal, away from their defaults (AMB-6, AMB-8, AMB-15, AMB-24)
VARIANT = Options(
    luna=True,
    bonus_board_side="B",
    partial_writing_exact=False,
    free_actions_in_all_phases=False,
    moon_objective_immediate=False,
    book_rewards_immediate=True,
)
# (players, bot, options, side): the 4-player games play every character's ability side (CHAR-1)
GAMES: list[tuple[int, str, Options | None, str]] = [
    (2, "random", None, "basic"),
    (3, "greedy", None, "basic"),
    (4, "random", None, "ability"),
    (2, "random", LUNA, "basic"),
    (3, "random", LUNA, "mixed"),
    (4, "greedy", LUNA, "ability"),
    (3, "random", VARIANT, "basic"),
]
# Games with the Luna characters on their ability side (digest §17.5-17.8), mixed with basic seats, with
# and without Luna: their commands and effects in the sample (issue 12).
ABILITY_EDITION = "base-4"
ABILITY_GAMES: list[tuple[int, str, Options | None, tuple[tuple[str, str], ...]]] = [
    (3, "random", None, (("newton", "ability"), ("cunitz", "ability"), ("hevelius", "ability"))),
    (2, "greedy", None, (("hevelius", "ability"), ("sophia", "ability"))),
    (
        4,
        "greedy",
        LUNA,
        (("cunitz", "ability"), ("hevelius", "ability"), ("newton", "ability"), ("sophia", "ability")),
    ),
]
# Every choice effect put on the agenda of sampled states (whatever their phase): its options and its
# check are held to each other in states the games rarely reach.
TASKS = (
    Task("PER"),
    Task("FW"),
    Task("DIE"),
    Task("DIE", 5),
    Task("RAISE", 2),
    Task("RECOLOUR"),
    Task("LEC"),
    Task("WRITE", 2),
    Task("WC"),
    Task("UPG"),
    Task("OBSERVE"),
    Task("BOOK"),
    Task("DEPART"),
    Task("FREEOBS", 4),
    Task("REREAD"),
    Task("ANYTILE"),
    Task("SWAP"),
    Task("RELOCATE"),
    *(Task("FIXEDAT", space) for space in (S1, S2, S3, S4, UPGRADE)),
    Task("ADVANCE"),
    Task("NSHIFT"),  # Newton's page 1 (CHAR-NEW-4)
    Task("FOCUS", 1, "R"),  # Cunitz' Focus (CHAR-CUN-2/5)
    Task("FOCUSANY"),
    Task("CUNPAGE", 1, "1D+3,FOCUSANY,MOVE1"),  # Cunitz' page parts in any order (CHAR-CUN-5, rules 0.4.0)
    Task("CUNPAGE", 1, "FOCUSANY,MOVE2"),
    Task("SCALEREWARDS", 1, "0123"),
    Task("SCALEREWARDS", 1, "13"),
    Task("OPTINQ"),
    Task("MOONOBJ"),
    Task("PER2D", 2, "1||"),  # Copernicus' page (CHAR-COP-1, AMB-28)
    Task("PER2D", 1, "1|C0|"),
    Task("PER2D", 2, "2||C1"),
    Task("KSWAP", 1, "board"),  # Kepler's special tile (CHAR-KEP-2)
    Task("KSWAP", 1, "aside"),
)


def where(state: GameState) -> str:
    t = state.turn
    return f"turn {t.number}, seat {t.seat}, {t.phase}, agenda {[task.kind for task in state.agenda]}"


def agree(state: GameState, play_every_move: bool, types: tuple[type[c.Command], ...] = ()) -> int:
    """Asserts that generator and predicate agree on `state`; returns the number of refusals checked."""
    rules = RULES
    legal = legal_moves(state)
    legal_set = set(legal)
    assert len(legal_set) == len(legal), "no duplicates in legal_moves"
    for move in legal:
        err = check(state, move)
        assert err is None, f"generated but refused: {move} ({where(state)}): {err and err.to_dict()}"
        if play_every_move:
            decide(state, move)  # accepted, and its consequences play out
    refused = 0
    candidates = [cmd for move in legal for cmd in near_misses(state, move)]
    for cmd in [*universe(state, types), *candidates]:
        if cmd in legal_set:
            continue
        err = check(state, cmd)
        assert err is not None, f"not generated but accepted: {cmd} ({where(state)})"
        assert err.code and err.message, cmd
        assert err.rule_id in rules, (cmd, err.rule_id)  # a rule of rulebook/data/*.toml
        refused += 1
    return refused


def sample(every: int, between: int, games: int = 1) -> Iterator[tuple[int, GameState]]:
    for g in range(games):
        for players, bot, options, sides in GAMES:
            side = options.get("bonus_board_side") if options else "base"
            seed = f"agree-{g}-{players}-{side}"
            yield from enumerate(states(players, seed, bot, every, options, between, sides))
        for players, bot, options, seats in ABILITY_GAMES:
            seed = f"agree-{g}-{players}-abilities"
            yield from enumerate(states(players, seed, bot, every, options, between, seats=seats))


# A character's own choice effects, put on every sampled state where that character's seat is to act on
# its ability side (the rotation alone may miss the few such states a sample holds).
OWN_TASKS = {
    "newton": ("NSHIFT",),
    "cunitz": ("FOCUS", "FOCUSANY", "CUNPAGE"),
    "copernicus": ("PER2D",),
    "kepler": ("KSWAP",),
}


def tasks_for(i: int, state: GameState) -> list[Task]:
    """The choice effects tried on sampled state `i`: every third of `TASKS`, and its seat's own."""
    from domain.characters import side_of

    out = list(TASKS[i % 3 :: 3])
    player = state.players[state.turn.seat]
    if side_of(player) == "ability":
        own = OWN_TASKS.get(player.character, ())
        out += [t for t in TASKS if t.kind in own and t not in out]
    return out


def with_task(state: GameState, task: Task) -> GameState:
    """`state` with `task` on top of its agenda; a kind its game's rules lack (another plug-in's) is tried
    with the rules of every plug-in, whose own guards must then hold."""
    if task.kind not in state.rules.effects:
        state = dataclasses.replace(state, rules=every_plugin())
    return dataclasses.replace(state, agenda=(*state.agenda, task))


def test_generator_and_predicate_agree_both_ways() -> None:
    """The default sample: seven games (base, Luna, Luna with rule options; 2-4 players), every 17th
    decision and, for every 4th of those, the states between its events; `decide` plays every generated
    move of every 4th sampled state."""
    refused = sampled = 0
    seen: set[str] = set()
    for i, state in sample(every=17, between=4):
        refused += agree(state, play_every_move=i % 4 == 0)
        sampled += 1
        seen.update(type(m).__name__ for m in legal_moves(state))
    assert sampled > 350 and refused > 350_000
    assert {"Move", "Observe", "TakeFixed", "UseTile", "BuyFree", "EndActions", "EndFreeActions"} <= seen
    assert {"GainDie", "Persuade", "WriteStep", "PlaceComet", "StopWriting"} <= seen


def test_every_choice_effect_agrees_in_any_state() -> None:
    """Each choice effect's options and check (domain/effect_kinds.py) on top of the agenda of sampled
    states (decision points or not, base or Luna): every command type is generated somewhere."""
    assert {t.kind for t in TASKS} == {k.kind for k in every_plugin().effects.values() if not k.automatic}
    seen: set[str] = set()
    refused = 0
    for i, state in sample(every=59, between=0):
        if state.finished:
            continue
        for task in tasks_for(i, state):
            loaded = with_task(state, task)
            refused += agree(
                loaded, play_every_move=False, types=loaded.rules.effect_kind(task.kind).commands
            )
            seen.update(type(m).__name__ for m in legal_moves(loaded))
    assert refused > 250_000
    menu = {"Move", "UseTile", "BuyFree", "EndActions", "EndFreeActions", "PlaceLibraryTile"}
    menu |= {"ClaimTile", "DiscardOffer"}  # Hevelius' claim and discard are Action-phase commands
    assert seen == {cls.__name__ for cls in COMMAND_CLASSES} - menu  # Luna's PersuadeGrand too


@pytest.mark.soak
def test_generator_and_predicate_agree_on_every_decision() -> None:
    """`make soak`: every decision state of 2 games per setup and every state between events (about
    22,000 states); every choice effect on every 5th of them."""
    for i, state in sample(every=1, between=1, games=2):
        agree(state, play_every_move=True)
        if i % 5 == 0 and not state.finished:
            for task in TASKS:
                agree(with_task(state, task), play_every_move=False)


def test_decide_refuses_exactly_what_the_check_refuses() -> None:
    """`decide` is the predicate: the IllegalMove it raises is the check's, and it writes nothing."""
    from domain import dump_state

    for state in states(3, "pure", "random", every=7, options=LUNA):
        before = dump_state(state)
        for cmd in universe(state):
            err = check(state, cmd)
            if err is None:
                decide(state, cmd)
                continue
            with pytest.raises(IllegalMove) as raised:
                decide(state, cmd)
            assert (raised.value.code, raised.value.rule_id) == (err.code, err.rule_id)
        assert dump_state(state) == before


def test_a_finished_game_refuses_everything_with_END_2() -> None:
    *_, last = states(2, "over", "random", every=1000)
    assert last.finished and legal_moves(last) == []
    for cmd in universe(last):
        with pytest.raises(IllegalMove) as err:
            decide(last, cmd)
        assert (err.value.code, err.value.rule_id) == ("game-over", "END-2")


# -- precise reasons (the refusals that used to be guessed) ----------------------------------------


def _reason(state: GameState, text: str) -> tuple[str, str, str]:
    if not text.startswith("@"):
        text = f"@{state.turn.seat} {text}"
    err = check(state, parse_command(text))
    assert err is not None, text
    with pytest.raises(IllegalMove) as raised:
        decide(state, parse_command(text))
    assert raised.value.to_dict() == err.to_dict()
    return err.code, err.rule_id, err.message


def test_OBS_32_the_superfluous_comet_is_named() -> None:
    s = show(player(new_game(), 0, dice=(("R", 5), ("R", 4))), 0, "D1-01")  # C:D1-01:0 costs 5
    s = actions_at(player(s, 0, comets=("sky1", "sky2", *("slot",) * 5)), S1)
    assert check(s, c.Observe(seat=0, target="C:D1-01:0", dice=(("R", 4),), comets1=1)) is None
    code, rule, message = _reason(s, "observe C:D1-01:0 R5 c1=1 c2=0")
    assert (code, rule) == ("comet-not-needed", "OBS-32") and "'1' comet" in message
    code, rule, message = _reason(s, "observe C:D1-01:0 R5 c1=0 c2=1")
    assert (code, rule) == ("comet-not-needed", "OBS-32") and "'2' comet" in message


def test_DIE_6_a_fourth_die_of_a_colour_is_refused_as_such() -> None:
    s = player(new_game(), 0, dice=(("R", 1), ("R", 2), ("R", 3)))
    s = with_agenda(actions_at(s, S2), Task("DIE"))
    assert _reason(s, "die R")[:2] == ("fourth-of-colour", "DIE-6")
    s = player(s, 0, dice=(("R", 1), ("R", 2), ("R", 3), ("Y", 1)))
    assert _reason(s, "die R swap Y1")[:2] == ("fourth-of-colour", "DIE-6")
    assert check(s, c.GainDie(seat=0, colour="R", returned=("R", 1))) is None  # R for R: still three


def test_DIE_11_a_recolour_changes_the_colour() -> None:
    s = player(new_game(), 0, dice=(("R", 4), ("B", 2)))
    s = with_agenda(actions_at(s, S2), Task("RECOLOUR"))
    assert _reason(s, "recolour R4 R")[:2] == ("same-colour", "DIE-11")


def test_RES_1_and_CLN_1_no_command_while_the_engine_takes_a_step() -> None:
    s = actions_at(new_game(), S2)
    automatic = dataclasses.replace(s, agenda=(Task("VP", 2),))
    assert legal_moves(automatic) == []
    assert _reason(automatic, "end")[:2] == ("no-decision", "RES-1")
    rotating = turn(s, phase="cleanup", used_tile=s.players[0].queue[S2])
    assert legal_moves(rotating) == []
    assert _reason(rotating, "done")[:2] == ("no-decision", "CLN-1")
    book = turn(player(s, 0, comets=("pending", *("slot",) * 6)), phase="cleanup", rotated=True)
    assert _reason(book, "done")[:2] == ("book-first", "CLN-1")


def test_CHAR_1_generator_and_predicate_agree_on_the_abilities() -> None:
    """The abilities' own decisions (domain/characters/): Copernicus' library tiles in his Action phase
    (CHAR-COP-2..4), his page and Kepler's swaps on the agenda, on positions of an ability game."""
    from tests.domain.abilities import ability_game

    s = ability_game(players=4, seed="agree-abilities")
    cop = actions_at(
        player(s, 2, library=(("D1-01", True), ("D1-02", False)), books=(1, 2, 0, 0)), S2, seat=2
    )
    assert any(isinstance(m, ch.PlaceLibraryTile) for m in legal_moves(cop))
    refused = agree(cop, play_every_move=True)
    placed = play_through(cop, next(m for m in legal_moves(cop) if isinstance(m, ch.PlaceLibraryTile)))[0]
    refused += agree(placed, play_every_move=False)
    for seat in range(4):
        for task in TASKS[-5:]:
            loaded = with_task(actions_at(s, S2, seat=seat), task)
            refused += agree(loaded, play_every_move=True, types=loaded.rules.effect_kind(task.kind).commands)
    assert refused > 5_000


def test_the_moves_play_on_hands_over_are_the_generators_list_and_a_callers_own() -> None:
    """The list the turn loop built where it stopped is handed over with the state (`play_on`, issue 33)
    and not built again by `legal_moves(state, known)`: it is exactly `options(state)`, and each caller
    gets its own list (changing one changes no other). Nothing is remembered anywhere else."""
    from domain.moves import options

    state, _ = start(default_setup(4, "legal-moves-remembered"))
    moves = legal_moves(state)
    rng = random.Random(17)
    handed = 0
    while not state.finished:
        assert moves == options(state) == legal_moves(state)
        move = rng.choice(moves)
        after, events, known = play_on(state, move)
        assert (after, events) == play_through(state, move)
        state = after
        if known is not None:
            handed += 1
            assert known == options(state)
        moves = legal_moves(state, known)
        moves.clear()
        moves = legal_moves(state, known)
        assert moves == (options(state) or [])
    assert handed > 0

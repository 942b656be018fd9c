"""The table's rules in the store (docs/async.md): the information horizon of take-backs (ASYNC-7) for
every kind of reveal, the clock computation (ASYNC-1/4/5), and verification of table batches."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from domain import SeatSpec, Setup, fold, legal_moves
from domain import events as ev
from domain.takeback import revealing_types, taken_back
from replays import table
from replays.clock import ClockConfig, compute
from replays.records import StoredEvent
from replays.service import Games

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def _meta(kind: str, seat: int | None, batch: int) -> dict[str, Any]:
    command = {"type": "Move", "seat": seat} if kind == "command" else {"type": "Table"}
    return {"kind": kind, "command": command, "batch": batch}


def _sample(cls: type[ev.Event]) -> ev.Event:
    """An instance of an event class (field values do not matter to the horizon)."""
    import dataclasses

    values: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        if f.default is not dataclasses.MISSING:
            continue
        kind = str(f.type)
        values[f.name] = (
            0
            if "int" in kind and "tuple" not in kind
            else ()
            if "tuple" in kind
            else {}
            if "Mapping" in kind
            else ""
        )
    values["seat"] = 0
    return cls(**values)


@pytest.mark.parametrize("revealing", revealing_types(), ids=lambda c: c.__name__)
def test_ASYNC_7_no_take_back_across_a_reveal(revealing: type[ev.Event]) -> None:
    move = ev.TelescopeMoved(seat=0, start=0, end=1, steps=1, wrapped=False)
    after = [
        StoredEvent(11, move, _meta("command", 0, 11)),
        StoredEvent(12, _sample(revealing), _meta("command", 0, 11)),
    ]
    problem = table.horizon_problem(after, 0, 10)
    assert problem is not None and problem.rule == "ASYNC-7" and problem.code == "past-the-horizon"
    assert revealing.__name__ in problem.message
    assert table.horizon_problem(after[:1], 0, 10) is None


def test_ASYNC_7_no_take_back_of_another_seat_or_across_a_turn_end() -> None:
    move = ev.TelescopeMoved(seat=0, start=0, end=1, steps=1, wrapped=False)
    mine = StoredEvent(11, move, _meta("command", 0, 11))
    theirs = StoredEvent(
        12, ev.TelescopeMoved(seat=1, start=0, end=1, steps=1, wrapped=False), _meta("command", 1, 12)
    )
    ended = StoredEvent(12, ev.TurnEnded(seat=0, turn=1), _meta("command", 0, 11))
    assert table.horizon_problem([mine, theirs], 0, 10).code == "another-seat-acted"  # type: ignore[union-attr]
    assert table.horizon_problem([mine, ended], 0, 10).code == "turn-over"  # type: ignore[union-attr]
    assert table.horizon_problem([mine], 0, 9).code == "bad-take-back-point"  # type: ignore[union-attr]
    assert table.horizon_problem([theirs], 0, 11).code == "not-your-command"  # type: ignore[union-attr]
    assert table.horizon_problem([mine], 1, 10).code == "not-your-command"  # type: ignore[union-attr]


def test_ASYNC_7_what_an_earlier_take_back_undid_no_longer_counts() -> None:
    """Two steps, the second taken back: the seat may take back the first too (a take-back in between
    used to close the horizon: the play page's button went away after one)."""
    move = ev.TelescopeMoved(seat=0, start=0, end=1, steps=1, wrapped=False)
    one = StoredEvent(11, move, _meta("command", 0, 11))
    two = StoredEvent(12, move, _meta("command", 0, 12))
    undone = StoredEvent(
        13, dataclasses.replace(_sample(ev.TakenBack), to_version=11), _meta("table", None, 13)
    )
    assert [s.version for s in table.standing([one, two, undone])] == [11]
    assert table.horizon_problem([one, two, undone], 0, 10) is None
    assert table.horizon_problem([two, undone], 0, 11).code == "nothing-to-take-back"  # type: ignore[union-attr]
    theirs = StoredEvent(14, move, _meta("command", 1, 14))  # what still stands keeps its limits
    assert table.horizon_problem([one, two, undone, theirs], 0, 10).code == "another-seat-acted"  # type: ignore[union-attr]


def _log(*entries: list[Any]) -> list[list[Any]]:
    return [list(e) for e in entries]


def at(**kw: float) -> str:
    return (T0 + timedelta(**kw)).isoformat()


def test_ASYNC_1_per_move_with_reserve() -> None:
    config = ClockConfig.from_json({"per_move": "PT1H", "reserve": "PT30M"})
    log = _log(["turn", 1, at(), 0], ["turn", 5, at(minutes=80), 1], ["turn", 9, at(minutes=90), 0])
    view = compute(config, log, 2, T0 + timedelta(minutes=100))
    # Seat 0 used 20 minutes of its reserve on its first turn: 1 h + 10 min for this one.
    assert view.seat == 0 and view.deadline == T0 + timedelta(minutes=90 + 70)
    assert view.left[1] == timedelta(minutes=90)  # its next turn: per move + an untouched reserve


def test_ASYNC_1_base_and_increment() -> None:
    config = ClockConfig.from_json({"base": "PT10M", "increment": "PT1M"})
    log = _log(["turn", 1, at(), 0], ["turn", 5, at(minutes=4), 1])
    view = compute(config, log, 2, T0 + timedelta(minutes=5))
    assert view.seat == 1 and view.deadline == T0 + timedelta(minutes=14)
    assert view.left[0] == timedelta(minutes=7)


def test_ASYNC_4_and_5_pauses_and_extensions_move_the_deadline() -> None:
    config = ClockConfig.from_json({"per_move": "PT1H"})
    log = _log(
        ["turn", 1, at(), 0],
        ["pause", 3, at(minutes=10)],
        ["resume", 4, at(days=3)],
        ["extend", 5, at(days=3), 0, 600],
    )
    view = compute(config, log, 2, T0 + timedelta(days=3))
    assert view.deadline == T0 + timedelta(days=3, minutes=50 + 10)
    paused = compute(config, log[:2], 2, T0 + timedelta(days=1))
    assert paused.paused and paused.deadline is None


@pytest.mark.parametrize(
    "bad",
    [
        {},
        {"per_move": "2 days"},
        {"per_move": "P1M"},
        {"per_move": "PT0S"},
        {"base": "P1D", "reserve": "P1D"},
        {"per_move": "P1D", "on_timeout": "draw"},
        {"per_move": "P1D", "extra": 1},
    ],
)
def test_clock_options_are_checked(bad: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        ClockConfig.from_json(bad)


def _game(games: Games) -> str:
    seats = (SeatSpec("A", "galileo"), SeatSpec("B", "kepler"))
    return games.create(Setup(seats=seats, seed="table", first_seat=0))[0]


def test_verification_re_checks_every_take_back(tmp_path: Any) -> None:
    with Games(f"sqlite:///{tmp_path}/g.db") as games:
        game_id = _game(games)
        state = games.state(game_id)
        assert state is not None
        games.submit(game_id, legal_moves(state)[0], 1, "a", 0)

        def read(start: int) -> list[StoredEvent]:
            return games.events(game_id, after=start - 1)

        games.table(game_id, {"type": "TakeBack"}, table.request_batch(read, 0, None, []), "tb", 0)
        assert games.verify(game_id).ok
        # A service that recorded a take-back past the horizon (to before the game began) is caught.
        events = [s.event for s in games.events(game_id)]
        forged = taken_back(0, fold(events[:1]), 1)
        games.table(game_id, {"type": "Forged"}, lambda game, now: [forged], "forged", 0)
        report = games.verify(game_id)
        assert not report.ok and report.first is not None and report.first.check == "adjudication"
        # A table batch may hold only the table's facts.
        # (a game event that fits any state: points would need a pending effect to resolve, RES-2)
        ended = ev.ObjectivesChecked(seat=0, met=())
        other = _game(games)
        games.table(other, {"type": "Forged"}, lambda game, now: [ended], "points", "host")
        found = games.verify(other).first
        assert found is not None and "only the service's facts" in found.message


def test_table_facts_survive_snapshots(tmp_path: Any) -> None:
    """The clock log, the hand-overs and the open request are part of the aggregate's snapshots."""
    from domain.bots import make_bot

    url = f"sqlite:///{tmp_path}/snap.db"
    with Games(url) as games:
        game_id = _game(games)
        bot = make_bot("random", "snap")
        handed = False
        while games.head(game_id) < 230:
            state = games.state(game_id)
            assert state is not None and not state.finished
            if not handed and games.head(game_id) > 40:
                games.table(game_id, {"type": "Resign"}, table.resign_batch(1, "bot", "greedy"), "r", 1)
                handed = True
                continue
            command = bot.choose(state, legal_moves(state))
            games.submit(game_id, command, games.head(game_id), f"c{games.head(game_id)}", command.seat)
        before = games.game(game_id)
    with Games(url) as fresh:  # a new process: loaded from the last snapshot and the events after it
        after = fresh.game(game_id)
        assert after.version == before.version
        assert [list(m) for m in after.clock_log] == [list(m) for m in before.clock_log]
        assert dict(after.handed) == dict(before.handed) == {"1": ["bot", "greedy"]}
        assert fresh.store.snapshots is not None
        assert list(fresh.store.snapshots.get(after.id))  # a snapshot was used


def test_ASYNC_9_a_seat_request_looked_up_before_a_re_issue_is_refused_when_written_after(
    tmp_path: Any,
) -> None:
    """The race of a revoked token: its request passed the token lookup at version `seen`, the host's
    re-issue was stored next; the request's write is refused and writes nothing."""
    from replays.errors import TableRefused

    with Games(f"sqlite:///{tmp_path}/g.db") as games:
        game_id = _game(games)
        seen = games.head(game_id)
        games.table(game_id, {"type": "ReissueLink", "seat": 1}, table.reissue_batch(1), "re", "host")
        resign = table.unrevoked(table.resign_batch(1, "bot", "greedy"), 1, seen)
        with pytest.raises(TableRefused) as refused:
            games.table(game_id, {"type": "Resign", "seat": 1}, resign, "r", 1)
        assert (refused.value.code, refused.value.rule, refused.value.status) == (
            "link-reissued",
            "ASYNC-9",
            401,
        )
        assert games.head(game_id) == seen + 1  # nothing written
        # Another seat, and the seat's new token (looked up after the re-issue), are not held back.
        other = table.unrevoked(table.pause_batch(0, [0, 1]), 0, seen)
        assert games.table(game_id, {"type": "PauseClock", "seat": 0}, other, "p", 0).events
        after = table.unrevoked(table.resign_batch(1, "bot", "greedy"), 1, seen + 1)
        assert games.table(game_id, {"type": "Resign", "seat": 1}, after, "r2", 1).events
        game = games.game(game_id)
        assert dict(game.revoked) == {"1": seen + 1}
        assert [a[1:3] for a in game.host_log or []] == [["SeatLinkReissued", 1]]
        assert games.verify(game_id).ok


@dataclasses.dataclass(frozen=True)
class Row:
    """A seat's row as api/seats.py keeps it (`table.SeatRow`)."""

    kind: str
    bot: str | None = None


def test_ASYNC_3_who_plays_a_seat(tmp_path: Any) -> None:
    """`table.player`, the one answer of the table view and of `galileo seats`: a seat as it was made
    (a person, a bot of a kind, nobody yet), then as handed over; the solo Tycho's seat is his rules'."""
    from domain.selfplay import default_setup
    from replays.records import BOT, HUMAN

    person, bot = Row(HUMAN), Row(BOT, "mcts")
    with Games(f"sqlite:///{tmp_path}/g.db") as games:
        game_id = _game(games)
        game = games.game(game_id)
        assert [table.player(game, 0, row) for row in (person, bot, None)] == [
            table.Player("person"),
            table.Player("bot", "mcts"),
            table.Player("nobody"),
        ]
        assert not table.player(game, 0, person).server and not table.player(game, 0, None).server
        games.table(game_id, {"type": "Resign"}, table.resign_batch(1, "bot", "greedy"), "r", 1)
        games.table(game_id, {"type": "Resign"}, table.resign_batch(0, "forfeit", ""), "f", 0)
        game = games.game(game_id)
        assert table.player(game, 1, person) == table.Player("bot", "greedy")
        assert table.player(game, 0, person) == table.Player("forfeit")
        assert table.player(game, 0, person).server
        solo = games.game(games.create(default_setup(1, "who-plays"))[0])
        assert solo.state is not None and len(solo.state.players) == 2
        assert table.player(solo, 1, None) == table.Player("opponent") and table.player(solo, 1, None).server
        assert table.player(solo, 0, person) == table.Player("person")

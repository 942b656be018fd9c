"""Async play (issue 15, docs/async.md) through the HTTP API: clocks on a controllable clock, take-backs
and their information horizon, resignation, the table host, and who may call each new route."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api import clocks as clocks_module
from api.app import create_app
from api.settings import Settings
from domain import Options, SeatSpec, Setup, legal_moves, start
from domain.bots import make_bot
from domain.engine import play_through
from replays.service import verify_file
from replays.table import TAKEBACKS_PER_TURN
from tests.api.async_helpers import Clock, H, bearer
from tests.api.helpers import runtime_of


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def app_settings(settings: Settings) -> Settings:
    # The scheduler and the webhook worker are driven by the tests (tick), not by a background task.
    # (The scheduler records an expiry at the deadline itself: no grace; test_async_receive_time.py has it.)
    # Webhooks may point at loopback here (GALILEO_WEBHOOK_ALLOW_NETWORKS): nothing is delivered.
    return replace(settings, clocks=False, clock_grace_seconds=0.0, webhook_allow_networks=("127.0.0.1/32",))


@pytest.fixture
def client(app_settings: Settings, clock: Clock) -> Iterator[TestClient]:
    with TestClient(create_app(app_settings, clock=clock)) as test_client:
        yield test_client


def create(client: TestClient, seats: list[dict[str, Any]], **body: Any) -> dict[str, Any]:
    response = client.post("/games", json={"seats": seats, "first_seat": 0, **body})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def people(n: int = 2) -> list[dict[str, Any]]:
    characters = ["galileo", "kepler", "copernicus", "bruno"]
    return [{"name": f"P{i}", "character": characters[i]} for i in range(n)]


def tokens(created: dict[str, Any]) -> list[str]:
    return [s["token"] for s in created["seats"]]


def events(client: TestClient, game_id: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = client.get(f"/games/{game_id}/events").json()["events"]
    return found


def types(client: TestClient, game_id: str) -> list[str]:
    return [e["type"] for e in events(client, game_id)]


def play(client: TestClient, game_id: str, token: str, text: str, cid: str) -> dict[str, Any]:
    version = client.get(f"/games/{game_id}/moves", headers=bearer(token)).json()["version"]
    response = client.post(
        f"/games/{game_id}/commands",
        headers=bearer(token),
        json={"command": {"text": text}, "expected_version": version, "command_id": cid},
    )
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def table_post(client: TestClient, game_id: str, path: str, token: str, **body: Any) -> Any:
    # A fresh command ID for each call (an object's id() can be reused: a repeated ID is a replay).
    body.setdefault("command_id", f"{path}-{uuid.uuid4().hex}")
    return client.post(f"/games/{game_id}/{path}", headers=bearer(token), json=body)


def tick(client: TestClient) -> int:
    fired: int = client.portal.call(runtime_of(client).scheduler.tick, True)  # type: ignore[union-attr]
    return fired


def bots_idle(client: TestClient) -> None:
    client.portal.call(runtime_of(client).bots.idle)  # type: ignore[union-attr]


# -- clocks (ASYNC-1, ASYNC-4, ASYNC-5) -------------------------------------------------------------------


def test_ASYNC_1_timeout_exactly_at_the_boundary(client: TestClient, clock: Clock) -> None:
    created = create(client, people(), clock={"per_move": "PT60S"})
    game_id = created["game_id"]
    board_clock = client.get(f"/games/{game_id}").json()["clock"]
    assert board_clock["seat"] == 0 and board_clock["paused"] is False
    assert board_clock["deadline"] == (clock.now + __import__("datetime").timedelta(seconds=60)).isoformat()
    clock.advance(seconds=59, microseconds=999_999)
    assert tick(client) == 0
    assert "TimeExpired" not in types(client, game_id)
    assert client.get(f"/games/{game_id}/table").json()["clock"]["seconds_left"][0] == pytest.approx(
        0.0, abs=1e-3
    )
    clock.advance(microseconds=1)  # exactly the deadline: the time is out
    assert tick(client) == 1
    assert tick(client) == 0  # recorded once
    found = events(client, game_id)
    expired = [e for e in found if e["type"] == "TimeExpired"]
    assert len(expired) == 1 and expired[0]["event"]["seat"] == 0
    assert expired[0]["event"]["rule"] == "ASYNC-1" and expired[0]["actor"] == "clock"


def test_ASYNC_1_a_command_at_the_deadline_is_too_late(client: TestClient, clock: Clock) -> None:
    created = create(client, people(), clock={"per_move": "PT60S"})
    game_id, token = created["game_id"], tokens(created)[0]
    clock.advance(seconds=60)
    response = client.post(
        f"/games/{game_id}/commands",
        headers=bearer(token),
        json={"command": {"text": "@0 move 1"}, "expected_version": created["version"], "command_id": "late"},
    )
    assert response.status_code == 409, response.text
    assert response.json()["code"] == "time-expired" and response.json()["rule_id"] == "ASYNC-1"
    assert types(client, game_id).count("TimeExpired") == 1


def test_ASYNC_1_a_bot_takes_the_seat_over(client: TestClient, clock: Clock) -> None:
    created = create(client, people(), clock={"per_move": "P2D", "reserve": "P1D"})
    game_id, token = created["game_id"], tokens(created)[0]
    clock.advance(days=2, hours=23)
    assert tick(client) == 0  # the reserve pays for the third day
    clock.advance(hours=1)
    assert tick(client) == 1
    bots_idle(client)
    found = events(client, game_id)
    at = [e["type"] for e in found].index("TimeExpired")
    handed = found[at + 1]
    assert handed["type"] == "SeatHandedOver" and handed["event"]["to"] == "bot"
    assert any(e["actor"] == 0 and e["type"] == "TelescopeMoved" for e in found[at:])
    assert client.get(f"/games/{game_id}/table").json()["seats"][0]["played_by"] == "bot"
    refused = client.post(
        f"/games/{game_id}/commands",
        headers=bearer(token),
        json={"command": {"text": "@0 move 1"}, "expected_version": len(found), "command_id": "x"},
    )
    assert refused.status_code == 403 and refused.json()["rule_id"] == "ASYNC-3"


def test_ASYNC_1_forfeit_passes_the_seats_turns(client: TestClient, clock: Clock) -> None:
    created = create(client, people(), clock={"per_move": "PT1H", "on_timeout": "forfeit"})
    game_id = created["game_id"]
    clock.advance(hours=1)
    assert tick(client) == 1
    bots_idle(client)
    found = events(client, game_id)
    at = [e["type"] for e in found].index("TimeExpired")
    assert found[at]["event"]["policy"] == "forfeit"
    assert found[at + 1]["event"]["to"] == "forfeit"
    passed = [e for e in found[at:] if e["actor"] == 0 and e["type"] == "TelescopeMoved"]
    assert passed and all(e["event"]["steps"] == 1 for e in passed)
    assert not [e for e in found[at:] if e["type"] == "VictoryPointsScored" and e["event"]["seat"] == 0]
    table = client.get(f"/games/{game_id}/table").json()
    assert table["seats"][0]["played_by"] == "forfeit"
    assert client.get(f"/games/{game_id}/moves", headers=bearer(tokens(created)[1])).json()["to_act"] == 1


def test_ASYNC_4_all_people_pause_and_the_clock_stops(client: TestClient, clock: Clock) -> None:
    created = create(client, people(), clock={"per_move": "PT1H"})
    game_id, (a, b) = created["game_id"], tokens(created)
    clock.advance(minutes=30)
    first = table_post(client, game_id, "clock/pause", a)
    assert first.status_code == 200 and [e["type"] for e in first.json()["events"]] == ["ClockPauseRequested"]
    again = table_post(client, game_id, "clock/pause", a)
    assert again.status_code == 409 and again.json()["rule_id"] == "ASYNC-4"
    second = table_post(client, game_id, "clock/pause", b)
    assert [e["type"] for e in second.json()["events"]] == ["ClockPauseRequested", "ClockPaused"]
    clock.advance(days=10)  # a vacation
    assert tick(client) == 0
    assert client.get(f"/games/{game_id}/table").json()["clock"]["paused"] is True
    resumed = table_post(client, game_id, "clock/resume", b)
    assert [e["type"] for e in resumed.json()["events"]] == ["ClockResumed"]
    clock.advance(minutes=29)
    assert tick(client) == 0  # 30 minutes were left when the clocks stopped
    clock.advance(minutes=1)
    assert tick(client) == 1


def test_ASYNC_5_the_host_extends_a_clock(client: TestClient, clock: Clock) -> None:
    created = create(client, people(), clock={"per_move": "PT1H"})
    game_id, host = created["game_id"], created["host_token"]
    extended = table_post(client, game_id, "host/clock/extend", host, seat=0, by="PT2H")
    assert extended.status_code == 200, extended.text
    clock.advance(hours=2, minutes=59)
    assert tick(client) == 0
    clock.advance(minutes=1)
    assert tick(client) == 1
    bad = table_post(client, game_id, "host/clock/extend", host, seat=0, by="two hours")
    assert bad.status_code == 422


@pytest.mark.parametrize("backend", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_ASYNC_1_two_processes_race_one_timeout(
    backend: str,
    app_settings: Settings,
    clock: Clock,
    request: pytest.FixtureRequest,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if backend == "postgres":
        app_settings = replace(app_settings, database_url=request.getfixturevalue("postgres_url"))
    barrier = threading.Barrier(2, timeout=10)
    real = clocks_module.expiry_batch

    def racing(*args: Any) -> Any:
        build = real(*args)

        def both_loaded(game: Any, now: Any) -> Any:
            barrier.wait()  # both processes have read the same version and decided to expire it
            return build(game, now)

        return both_loaded

    monkeypatch.setattr(clocks_module, "expiry_batch", racing)
    with (
        TestClient(create_app(app_settings, clock=clock)) as one,
        TestClient(create_app(app_settings, clock=clock)) as two,
    ):
        game_id = create(one, people(), clock={"per_move": "PT10S"})["game_id"]
        clock.advance(seconds=10)
        results: list[int] = []

        def run(client: TestClient) -> None:
            results.append(client.portal.call(runtime_of(client).scheduler.check, game_id, clock()))  # type: ignore[union-attr]

        threads = [threading.Thread(target=run, args=(c,)) for c in (one, two)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert sorted(results) == [0, 1]
        assert types(one, game_id).count("TimeExpired") == 1
        assert one.get(f"/games/{game_id}/verify").json()["ok"] is True


# -- take-backs (ASYNC-6, ASYNC-7) --------------------------------------------------------------------


def test_ASYNC_7_take_backs_per_turn_are_bounded(client: TestClient) -> None:
    """Move and take back, again and again: the turn's fifth take-back is refused (the log would grow
    without the turn moving on), with its rule, and writes nothing; the move itself still stands."""
    created = create(client, [people(1)[0], {"bot": "greedy"}])
    game_id, token = created["game_id"], tokens(created)[0]
    for cycle in range(TAKEBACKS_PER_TURN):
        play(client, game_id, token, "@0 move 2", f"cycle-{cycle}")
        assert table_post(client, game_id, "takeback", token).status_code == 200
    play(client, game_id, token, "@0 move 2", "one-more")
    before = client.get(f"/games/{game_id}").json()["version"]
    refused = table_post(client, game_id, "takeback", token)
    assert refused.status_code == 409, refused.text
    body = refused.json()
    assert body["code"] == "take-back-limit" and body["rule_id"] == "ASYNC-7"
    assert client.get(f"/games/{game_id}").json()["version"] == before  # nothing written


def test_ASYNC_7_take_back_alone_then_replay_verify_export_fork(client: TestClient) -> None:
    created = create(client, [people(1)[0], {"bot": "greedy"}])
    game_id, token = created["game_id"], tokens(created)[0]
    before = client.get(f"/games/{game_id}/moves", headers=bearer(token)).json()
    played = play(client, game_id, token, "@0 move 2", "m1")
    table = client.get(f"/games/{game_id}/table", headers=bearer(token)).json()
    assert table["you"]["takeback"] == {"allowed": True, "to_version": before["version"], "restart_to": None}
    taken = table_post(client, game_id, "takeback", token)
    assert taken.status_code == 200, taken.text
    item = taken.json()["events"][0]
    assert item["type"] == "TakenBack" and item["event"]["to_version"] == before["version"]
    assert "state" not in item["event"]  # the earlier state holds the deal: hidden until the end
    after = client.get(f"/games/{game_id}/moves", headers=bearer(token)).json()
    assert after["moves"] == before["moves"] and after["version"] == played["version"] + 1
    assert (
        client.get(f"/games/{game_id}/table", headers=bearer(token)).json()["you"]["takeback"]["allowed"]
        is False
    )
    play(client, game_id, token, "@0 move 3", "m2")  # play on after the take-back
    report = client.get(f"/games/{game_id}/verify").json()
    assert report["ok"] is True, report
    export = client.get(f"/games/{game_id}/export", headers=bearer(token))
    assert export.status_code == 200
    assert verify_file(export.content).exit_code in (0, 2)  # redacted: chain checked, deal sealed
    assert b'"TakenBack"' in export.content
    steps = client.get(f"/games/{game_id}/at/{after['version']}", headers=bearer(token))
    assert steps.status_code == 200
    fork = client.post(f"/games/{game_id}/fork", json={"at_version": after["version"] + 1})
    assert fork.status_code == 201, fork.text
    assert client.get(f"/games/{fork.json()['game_id']}/verify").json()["ok"] is True


def _undoable_step(client: TestClient, game_id: str, token: str, cid: str) -> int:
    """Play a move the preview says can be taken back (ASYNC-7); the version before it."""
    listing = client.get(f"/games/{game_id}/moves", headers=bearer(token)).json()
    index = next(i for i, p in enumerate(listing["previews"]) if p["undoable"] and not p["warnings"])
    play(client, game_id, token, listing["moves"][index]["text"], cid)
    return int(listing["version"])


def test_ASYNC_7_take_back_again_and_again_and_restart_the_turn(client: TestClient) -> None:
    """Each take-back undoes one more step of the turn (what an earlier take-back undid no longer stands
    in the way); "restart my turn" (`restart_to`) returns to before the turn's first step at once."""
    created = create(client, [people(1)[0], {"bot": "greedy"}], seed="take-back-again")
    game_id, token = created["game_id"], tokens(created)[0]
    first = _undoable_step(client, game_id, token, "s1")
    second = _undoable_step(client, game_id, token, "s2")
    third = _undoable_step(client, game_id, token, "s3")
    now = client.get(f"/games/{game_id}/table", headers=bearer(token)).json()["you"]["takeback"]
    assert now == {"allowed": True, "to_version": third, "restart_to": first}
    assert table_post(client, game_id, "takeback", token, command_id="t1").status_code == 200
    now = client.get(f"/games/{game_id}/table", headers=bearer(token)).json()["you"]["takeback"]
    assert now == {"allowed": True, "to_version": second, "restart_to": first}  # a second take-back
    assert table_post(client, game_id, "takeback", token, command_id="t2").status_code == 200
    again = _undoable_step(client, game_id, token, "s2-again")  # play on, then restart the turn
    restart = client.get(f"/games/{game_id}/table", headers=bearer(token)).json()["you"]["takeback"]
    assert restart == {"allowed": True, "to_version": again, "restart_to": first}
    back = table_post(client, game_id, "takeback", token, command_id="t3", to_version=first)
    assert back.status_code == 200, back.text
    moves = client.get(f"/games/{game_id}/moves", headers=bearer(token)).json()
    assert moves["moves"][0]["type"] == "Move"  # the turn's start: the telescope moves first (MOV-1)
    assert (
        client.get(f"/games/{game_id}/table", headers=bearer(token)).json()["you"]["takeback"]["allowed"]
        is False
    )
    assert client.get(f"/games/{game_id}/verify").json()["ok"] is True  # each take-back verified (ASYNC-7)


def _greedy_commands(seed: str, count: int, luna: bool = False) -> list[tuple[int, str]]:
    seats = (SeatSpec("P0", "galileo"), SeatSpec("P1", "kepler"))
    options = Options.from_json({"luna": luna})
    state, _ = start(Setup(seats=seats, seed=seed, first_seat=0, options=options))
    bot = make_bot("greedy", seed)
    out = []
    for _ in range(count):
        move = bot.choose(state, legal_moves(state))
        out.append((state.turn.seat, str(move)))
        state, _ = play_through(state, move)
    return out


def _reveal_positions(
    seed: str, luna: bool, kinds: tuple[str, ...]
) -> tuple[list[tuple[int, str]], dict[int, str]]:
    """The greedy bots' commands of a game with `seed` up to the first command of each kind of reveal
    after which the same seat is still to act, and those decision numbers -> the reveal. Found by the
    engine itself, so the positions follow the default rules edition and the bots."""
    seats = (SeatSpec("P0", "galileo"), SeatSpec("P1", "kepler"))
    state, _ = start(Setup(seats=seats, seed=seed, first_seat=0, options=Options.from_json({"luna": luna})))
    bot = make_bot("greedy", seed)
    commands: list[tuple[int, str]] = []
    found: dict[str, int] = {}
    while len(found) < len(kinds) and not state.finished and len(commands) < 2000:
        seat = state.turn.seat
        move = bot.choose(state, legal_moves(state))
        state, new = play_through(state, move)
        commands.append((seat, str(move)))
        types = {type(e).__name__ for e in new}
        for kind in kinds:
            if kind not in found and kind in types and not state.finished and state.turn.seat == seat:
                found[kind] = len(commands)
    assert len(found) == len(kinds), f"seed {seed!r}: no position for {set(kinds) - set(found)}"
    return commands, {i: kind for kind, i in found.items()}


# Reveals that end the information horizon (ASYNC-7), found by the engine's greedy bots with these seeds and
# replayed through the API.
REVEALS = {
    "base": ("g1", False, ("CardDrawnFaceDown", "CardDealt")),
    "luna": ("g3", True, ("MoonObserved", "MoonPhaseAdvanced")),
}


@pytest.mark.parametrize("case", sorted(REVEALS))
def test_ASYNC_7_refused_after_every_kind_of_reveal(client: TestClient, case: str) -> None:
    seed, luna, kinds = REVEALS[case]
    commands, reveals = _reveal_positions(seed, luna, kinds)
    created = create(client, people(), seed=seed, options={"luna": luna})
    game_id, toks = created["game_id"], tokens(created)
    for i, (seat, text) in enumerate(commands, start=1):
        result = play(client, game_id, toks[seat], text, f"g{i}")
        if i in reveals:
            assert reveals[i] in [e["type"] for e in result["events"]]
            refused = table_post(client, game_id, "takeback", toks[seat])
            assert refused.status_code == 409, refused.text
            problem = refused.json()
            assert problem["rule_id"] == "ASYNC-7" and problem["code"] == "past-the-horizon"
            assert "revealed something hidden" in problem["detail"]  # naming the batch's first reveal
            you = client.get(f"/games/{game_id}/table", headers=bearer(toks[seat])).json()["you"]
            assert you["takeback"]["allowed"] is False and you["takeback"]["rule_id"] == "ASYNC-7"


def test_ASYNC_7_refused_once_another_seat_has_acted(client: TestClient) -> None:
    created = create(client, people(), seed="g1")
    game_id, toks = created["game_id"], tokens(created)
    commands = _greedy_commands("g1", 12)
    first_of_one = next(i for i, (seat, _) in enumerate(commands) if seat == 1)
    for i, (seat, text) in enumerate(commands[: first_of_one + 1]):
        play(client, game_id, toks[seat], text, f"c{i}")
    mine = table_post(client, game_id, "takeback", toks[0])
    assert mine.status_code == 409 and mine.json()["rule_id"] == "ASYNC-7"
    assert mine.json()["code"] == "nothing-to-take-back"
    head = len(events(client, game_id))
    back_to_zero = table_post(client, game_id, "takeback", toks[1], to_version=3)
    assert back_to_zero.status_code == 409 and back_to_zero.json()["rule_id"] == "ASYNC-7"
    assert len(events(client, game_id)) == head  # nothing written


def test_ASYNC_6_consent_accepted_declined_and_lapsed(client: TestClient, clock: Clock) -> None:
    created = create(client, people(), takeback_timeout="PT1H")
    game_id, (a, b) = created["game_id"], tokens(created)
    start_version = created["version"]
    play(client, game_id, a, "@0 move 2", "a1")
    asked = table_post(client, game_id, "takeback", a)
    assert [e["type"] for e in asked.json()["events"]] == ["TakeBackRequested"]
    assert table_post(client, game_id, "takeback/answer", a, accept=True).status_code == 409  # not asked
    accepted = table_post(client, game_id, "takeback/answer", b, accept=True)
    assert [e["type"] for e in accepted.json()["events"]] == ["TakeBackAnswered", "TakenBack"]
    assert accepted.json()["events"][1]["event"]["to_version"] == start_version

    play(client, game_id, a, "@0 move 3", "a2")
    table_post(client, game_id, "takeback", a)
    declined = table_post(client, game_id, "takeback/answer", b, accept=False)
    assert [e["type"] for e in declined.json()["events"]] == ["TakeBackAnswered"]
    assert client.get(f"/games/{game_id}/table").json()["takeback"] is None
    late = table_post(client, game_id, "takeback/answer", b, accept=True)
    assert late.status_code == 409 and late.json()["code"] == "no-take-back-request"

    table_post(client, game_id, "takeback", a)
    clock.advance(hours=1)
    lapsed = table_post(client, game_id, "takeback/answer", b, accept=True)
    assert lapsed.status_code == 409 and lapsed.json()["code"] == "take-back-lapsed"
    assert lapsed.json()["rule_id"] == "ASYNC-6"
    assert client.get(f"/games/{game_id}/table").json()["takeback"]["lapsed"] is True
    again = table_post(client, game_id, "takeback", a)  # a lapsed request does not block a new one
    assert again.status_code == 200
    assert client.get(f"/games/{game_id}/verify").json()["ok"] is True


# -- resignation and the host (ASYNC-2, ASYNC-3, ASYNC-8) -------------------------------------------------


def test_ASYNC_2_resignation_hands_the_seat_to_a_bot(client: TestClient) -> None:
    created = create(client, people())
    game_id, (a, _) = created["game_id"], tokens(created)
    resigned = table_post(client, game_id, "resign", a)
    assert [e["type"] for e in resigned.json()["events"]] == ["SeatResigned", "SeatHandedOver"]
    bots_idle(client)
    found = events(client, game_id)
    assert any(e["actor"] == 0 and e["type"] == "TelescopeMoved" for e in found)
    assert table_post(client, game_id, "resign", a).status_code == 403  # no longer a person's seat


def test_ASYNC_2_resignation_to_forfeit(client: TestClient) -> None:
    created = create(client, people(), on_resign="forfeit")
    game_id, (a, _) = created["game_id"], tokens(created)
    table_post(client, game_id, "resign", a)
    bots_idle(client)
    assert client.get(f"/games/{game_id}/table").json()["seats"][0]["played_by"] == "forfeit"


def test_ASYNC_3_host_reissues_a_lost_link(client: TestClient) -> None:
    created = create(client, people())
    game_id, (a, _), host = created["game_id"], tokens(created), created["host_token"]
    assert client.get(f"/games/{game_id}/moves", headers=bearer(a)).status_code == 200
    link = client.post(f"/games/{game_id}/host/seats/0/link", headers=bearer(host))
    assert link.status_code == 200, link.text
    new = link.json()["token"]
    assert link.json()["link"].endswith(f"/play/{game_id}#token={new}")
    assert client.get(f"/games/{game_id}/moves", headers=bearer(a)).status_code == 401
    assert client.get(f"/games/{game_id}/moves", headers=bearer(new)).json()["seat"] == 0
    play(client, game_id, new, "@0 move 1", "n1")


def test_ASYNC_3_host_hands_seats_to_a_bot_and_to_a_new_person(client: TestClient) -> None:
    created = create(client, [*people(1), {"bot": "random"}])
    game_id, a, host = created["game_id"], tokens(created)[0], created["host_token"]
    seats = client.get(f"/games/{game_id}/table").json()["seats"]
    assert [(s["played_by"], s["bot"]) for s in seats] == [("person", None), ("bot", "random")]
    to_person = table_post(client, game_id, "host/seats/1/handover", host, to="person")
    assert to_person.status_code == 200, to_person.text
    ben = to_person.json()["link"]["token"]
    to_bot = table_post(client, game_id, "host/seats/0/handover", host, to="bot", bot="greedy")
    assert to_bot.status_code == 200
    assert client.get(f"/games/{game_id}/moves", headers=bearer(a)).status_code == 401  # old token revoked
    bots_idle(client)
    listing = client.get(f"/games/{game_id}/moves", headers=bearer(ben)).json()
    assert listing["to_act"] == 1 and listing["moves"]  # the bot played seat 0's turn; now the person
    seats = client.get(f"/games/{game_id}/table").json()["seats"]
    assert [(s["played_by"], s["bot"]) for s in seats] == [("bot", "greedy"), ("person", None)]


def test_ASYNC_8_host_cancels_the_game(client: TestClient) -> None:
    created = create(client, people())
    game_id, (a, _), host = created["game_id"], tokens(created), created["host_token"]
    unclocked = table_post(client, game_id, "clock/pause", a)
    assert unclocked.status_code == 409 and unclocked.json()["code"] == "no-clock"
    cancelled = table_post(client, game_id, "host/cancel", host)
    assert [e["type"] for e in cancelled.json()["events"]] == ["GameCancelled"]
    refused = client.post(
        f"/games/{game_id}/commands",
        headers=bearer(a),
        json={
            "command": {"text": "@0 move 1"},
            "expected_version": cancelled.json()["version"],
            "command_id": "c",
        },
    )
    assert refused.status_code == 409 and refused.json()["rule_id"] == "ASYNC-8"
    assert client.get(f"/games/{game_id}/table").json()["status"] == "cancelled"
    assert table_post(client, game_id, "host/cancel", host).json()["rule_id"] == "ASYNC-8"


# -- who may call what --------------------------------------------------------------------------------------

SEAT_ROUTES = [
    ("post", "takeback", {"command_id": "t"}),
    ("post", "takeback/answer", {"command_id": "t", "accept": True}),
    ("post", "resign", {"command_id": "t"}),
    ("post", "clock/pause", {"command_id": "t"}),
    ("put", "webhook", {"url": "http://127.0.0.1:9/hook"}),
    ("delete", "webhook", None),
]
HOST_ROUTES = [
    ("post", "host/seats/0/link", None),
    ("post", "host/seats/0/handover", {"command_id": "t", "to": "bot"}),
    ("post", "host/clock/extend", {"command_id": "t", "seat": 0, "by": "PT1H"}),
    ("post", "host/cancel", {"command_id": "t"}),
]
EITHER_ROUTES = [("get", "notifications", None), ("post", "clock/resume", {"command_id": "t"})]


def _call(client: TestClient, method: str, url: str, body: Any, headers: H) -> int:
    kwargs: dict[str, Any] = {"headers": headers}
    if body is not None:
        kwargs["json"] = body
    return client.request(method.upper(), url, **kwargs).status_code


def test_authorisation_matrix_of_every_new_route(client: TestClient) -> None:
    mine = create(client, people(), clock={"per_move": "P1D"})
    other = create(client, people())
    game_id = mine["game_id"]
    forged = "gg_" + "A" * 43
    callers = {
        "spectator": {},
        "forged": bearer(forged),
        "other game's seat": bearer(other["seats"][0]["token"]),
        "other game's host": bearer(other["host_token"]),
        "other seat": bearer(mine["seats"][1]["token"]),
        "host": bearer(mine["host_token"]),
    }
    expected = {
        "seat": {
            "spectator": 401,
            "forged": 401,
            "other game's seat": 403,
            "other game's host": 403,
            "host": 403,
        },
        "host": {
            "spectator": 401,
            "forged": 401,
            "other game's seat": 403,
            "other game's host": 403,
            "other seat": 403,
        },
        "either": {"spectator": 401, "forged": 401, "other game's seat": 403, "other game's host": 403},
    }
    for group, routes in (("seat", SEAT_ROUTES), ("host", HOST_ROUTES), ("either", EITHER_ROUTES)):
        for method, path, body in routes:
            for who, status in expected[group].items():
                got = _call(client, method, f"/games/{game_id}/{path}", body, callers[who])
                assert got == status, f"{method.upper()} {path} as {who}: {got}, expected {status}"
    # The table is public; a forged token is still refused.
    assert client.get(f"/games/{game_id}/table").status_code == 200
    assert client.get(f"/games/{game_id}/table", headers=callers["forged"]).status_code == 401
    assert client.get(f"/games/{game_id}/table", headers=callers["host"]).json()["you"]["host"] is True
    # The seat itself and the host where allowed.
    seat = bearer(mine["seats"][0]["token"])
    assert _call(client, "put", f"/games/{game_id}/webhook", {"url": "http://127.0.0.1:9/h"}, seat) == 200
    assert _call(client, "get", f"/games/{game_id}/notifications", None, seat) == 200
    assert _call(client, "get", f"/games/{game_id}/notifications", None, callers["host"]) == 200
    assert _call(client, "post", f"/games/{game_id}/host/seats/0/link", None, callers["host"]) == 200


# -- one stream of turns for all of a token holder's games ---------------------------------------------------


def test_one_stream_follows_the_turns_of_all_my_games(client: TestClient) -> None:
    from tests.api.helpers import parse_sse

    first, second = create(client, people()), create(client, people())
    mine = [first["seats"][0]["token"], second["seats"][1]["token"]]
    assert client.get("/turns").status_code == 401
    assert client.get("/turns", headers=bearer("gg_" + "B" * 43)).status_code == 401
    with client.stream("GET", "/turns", headers={"Authorization": "Bearer " + " ".join(mine)}) as response:
        assert response.status_code == 200
        lines = response.iter_lines()
        opening = {m["data"]["game_id"]: m["data"] for m in parse_sse(lines, count=2)}
        assert opening[first["game_id"]]["your_turn"] is True
        assert opening[second["game_id"]]["your_turn"] is False
        # Seat 0 of the second game plays its turn out: the stream says it is now my turn there.
        second_id, other = second["game_id"], second["seats"][0]["token"]
        for _ in range(100):
            listing = client.get(f"/games/{second_id}/moves", headers=bearer(other)).json()
            if listing["to_act"] != 0:
                break
            posted = client.post(
                f"/games/{second_id}/commands",
                headers=bearer(other),
                json={
                    "command": listing["moves"][-1],
                    "expected_version": listing["version"],
                    "command_id": f"v{listing['version']}",
                },
            )
            assert posted.status_code == 200, posted.text
        turn = parse_sse(lines, count=1)[0]["data"]
        assert turn == {**turn, "game_id": second_id, "seat": 1, "your_turn": True}


def test_clocks_appear_in_the_lobby(lobby_client: TestClient) -> None:
    from tests.api.helpers import wait_until

    created = create(lobby_client, people(), clock={"per_move": "P2D"})

    def entry() -> dict[str, Any] | None:
        games = lobby_client.get("/games").json()["games"]
        return next((g for g in games if g["game_id"] == created["game_id"]), None)

    found = wait_until(entry, 10, "the game in the lobby")
    assert found["clock"]["config"]["per_move"] == "PT172800S" and found["clock"]["deadline"]


def test_ASYNC_7_a_finished_game_with_take_backs_exports_imports_and_verifies(client: TestClient) -> None:
    created = create(client, [people(1)[0], {"bot": "greedy"}])
    game_id, token, host = created["game_id"], tokens(created)[0], created["host_token"]
    start_version = created["version"]
    play(client, game_id, token, "@0 move 3", "m1")
    assert table_post(client, game_id, "takeback", token).status_code == 200
    play(client, game_id, token, "@0 move 1", "m2")
    handed = table_post(client, game_id, "host/seats/0/handover", host, to="bot")
    assert handed.status_code == 200
    bots_idle(client)
    board = client.get(f"/games/{game_id}").json()
    assert board["status"] == "finished"
    # Replay: the board at the version before the take-back and right after it agree.
    head_events = events(client, game_id)
    taken = next(e for e in head_events if e["type"] == "TakenBack")
    assert "state" in taken["event"]  # the game has ended: nothing is hidden any more
    before = client.get(f"/games/{game_id}/at/{start_version}").json()
    after = client.get(f"/games/{game_id}/at/{taken['version']}").json()
    assert {k: v for k, v in before.items() if k != "version"} == {
        k: v for k, v in after.items() if k != "version"
    }
    exported = client.get(f"/games/{game_id}/export")
    assert verify_file(exported.content).ok
    imported = client.post(
        "/games/import", content=exported.content, headers={"Content-Type": "application/x-ndjson"}
    )
    assert imported.status_code == 201, imported.text
    assert client.get(f"/games/{imported.json()['game_id']}/verify").json()["ok"] is True
    assert client.get(f"/games/{game_id}/timeline").json()["finished"] is True


def test_a_notification_lost_between_a_write_and_its_queueing_is_queued_by_the_sweep(
    client: TestClient,
) -> None:
    seats = [{**people(1)[0], "webhook": "http://127.0.0.1:9/hook"}, people(2)[1]]
    created = create(client, seats)
    game_id, host = created["game_id"], created["host_token"]

    def log() -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = client.get(
            f"/games/{game_id}/notifications", headers=bearer(host)
        ).json()["deliveries"]
        return found

    assert [(d["seat"], d["kind"]) for d in log()] == [(0, "your-turn")]
    runtime_of(client).tables.db.execute("DELETE FROM galileo_outbox")  # as if the process died first
    assert log() == []
    tick(client)  # the scheduler's periodic re-check sweeps the games with webhooks
    assert [(d["seat"], d["kind"], d["status"]) for d in log()] == [(0, "your-turn", "pending")]
    tick(client)
    assert len(log()) == 1  # one row per seat, kind and turn

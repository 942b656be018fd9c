"""Start-up repair: games an older version stored without their seats (events first, seats in a second
transaction that a crash never reached) are listed as abandoned and left out of the lobby; games made
with the CLI (never seated) and games with seats are left alone."""

from __future__ import annotations

from dataclasses import replace

from fastapi.testclient import TestClient

from api.app import create_app
from api.settings import Settings
from domain import SeatSpec, Setup
from replays.service import Games
from tests.api.helpers import create, wait_until

SEATS = (SeatSpec("A", "galileo"), SeatSpec("B", "kepler"))


def test_orphans_of_older_versions_are_abandoned_at_start_up(settings: Settings) -> None:
    with Games(settings.database_url) as games:
        orphan, _ = games.create(Setup(seats=SEATS, seed="orphan"), "api")  # as the API did, no seats
        cli_game, _ = games.create(Setup(seats=SEATS, seed="cli"), "cli")
        orphan_fork = games.fork(cli_game, 1, "api")  # an API fork whose seats were never written
    with TestClient(create_app(replace(settings, projections=True))) as client:
        seated = create(client, 2, seed="seated").game_id
        runtime = client.app.state.runtime
        assert runtime.seats.abandoned() == {orphan, orphan_fork}

        def listed() -> set[str] | None:
            ids = {g["game_id"] for g in client.get("/games").json()["games"]}
            return ids if seated in ids else None

        ids = wait_until(listed, 10, "the lobby to list the seated game")
        assert cli_game in ids and seated in ids
        assert orphan not in ids and orphan_fork not in ids
        assert client.get(f"/games/{orphan}").status_code == 200  # nothing deleted
    with TestClient(create_app(settings)) as client:  # a second start finds nothing new
        assert client.app.state.runtime.seats.abandoned() == {orphan, orphan_fork}

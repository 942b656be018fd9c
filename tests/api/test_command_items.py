"""The response to a command reuses the spectator items just published where the seat sees the same
(issue 17, HTTP move): for every batch of a played game, and every viewer, `seat_items` equals the
viewer's own `event_item`s (hidden information: a seat's private field only reaches that seat)."""

from __future__ import annotations

from pathlib import Path

from api import play
from domain import legal_moves
from domain.bots import make_bot
from replays.service import Games
from tests.replays.conftest import SecretCounter, StepClock, new_game


def test_seat_items_are_each_viewers_own_event_items(tmp_path: Path) -> None:
    private = 0
    with Games(f"sqlite:///{tmp_path}/items.db", clock=StepClock(), secret=SecretCounter()) as games:
        game_id = new_game(games, "items-1")
        for i in range(2000):
            game = games.game(game_id)
            assert game.state is not None
            if game.state.finished:
                break
            move = make_bot("random", f"items-1:{i}").choose(game.state, legal_moves(game.state))
            result = games.submit(game_id, move, game.version, f"i-{i}", move.seat)
            batch = play.batch_of(game_id, result.version, result.events)
            first = result.version - len(result.events) + 1
            for viewer in (None, 0, 1):
                own = [
                    play.event_item(first + k, e, batch.finished, viewer) for k, e in enumerate(result.events)
                ]
                assert play.seat_items(batch, result.events, viewer) == own
            private += sum(1 for e in result.events if type(e).OWNER_ONLY)
        assert game.state.finished  # the whole game, its end (every field shown) included
    assert private > 0  # batches with a field private to one seat were among them

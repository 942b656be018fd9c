"""Rules editions in the store, files and the CLI (docs/editions.md): old games keep their edition and
verify; `verify --edition current` reports the first divergence as information; a game or file of an
edition unknown to this build is refused with an error naming it."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from typer.testing import CliRunner

import domain.editions
from api.cli import app
from domain import EditionUnknown, EventDoesNotFit
from domain.selfplay import default_setup
from replays.errors import ImportRejected
from replays.service import Games, verify_file
from tests.fixtures import release_games
from tests.replays.conftest import RawRows, SecretCounter, StepClock, play


def test_a_first_edition_game_verifies_and_reports_its_divergence_under_the_current_edition() -> None:
    data = release_games("release-1")["base-4p-finished"]
    report = verify_file(data, "base-4p", edition="current")
    assert report.ok and report.exit_code == 0  # information, not a failed verification
    check = report.edition
    assert check is not None and not check.same
    assert (check.catalog_edition, check.recorded_edition) == ("base-4", "base-provisional-1")
    divergence = check.divergence
    assert divergence is not None
    # C1 is -4 in base-2 (DATA-6): the first interrogation with an Inquisitor on C1 differs
    assert (divergence.version, divergence.rule) == (1337, "INQ-21")
    assert divergence.expected is not None and divergence.stored is not None
    assert divergence.expected["total"] == divergence.stored["total"] - 1
    assert "diverges at event 1337 [INQ-21]" in report.notes[-1]
    assert report.to_dict()["edition"]["divergence"]["version"] == 1337


def test_a_deal_with_cards_the_current_edition_lacks_diverges_at_event_1() -> None:
    report = verify_file(release_games("release-1")["base-3p-finished"], "base-3p", edition="current")
    assert report.ok and report.edition is not None and report.edition.divergence is not None
    assert report.edition.divergence.version == 1
    assert "D2-11" in report.edition.divergence.message


def test_a_current_edition_game_is_the_same_under_the_current_edition(tmp_path: Path) -> None:
    with Games(f"sqlite:///{tmp_path}/g.db", clock=StepClock(), secret=SecretCounter()) as games:
        game_id, _ = games.create(default_setup(2, "same"))
        play(games, game_id, "same")
        report = games.verify(game_id, edition="current")
        assert report.ok and report.edition is not None and report.edition.same
        assert games.events(game_id)[0].metadata["command"]["catalog_edition"] == "base-4"
        with pytest.raises(EditionUnknown, match="'base-9'"):
            games.verify(game_id, edition="base-9")


def test_a_game_of_an_unknown_rules_version_is_refused_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"sqlite:///{tmp_path}/g.db"
    with monkeypatch.context() as newer:  # a newer build stores a game under rules 9.9.9
        newer.setattr(domain.editions, "RULES_VERSIONS", ("0.1.0", "9.9.9"))
        with Games(url, clock=StepClock(), secret=SecretCounter()) as games:
            game_id, _ = games.create(dataclasses.replace(default_setup(2, "newer"), engine_version="9.9.9"))
            exported = games.export(game_id, reveal=True)
    with Games(url, clock=StepClock(), secret=SecretCounter()) as games:  # this build
        with pytest.raises(EditionUnknown, match=r"unknown rules version '9\.9\.9'.*docs/editions\.md"):
            games.state(game_id)
        with pytest.raises(ImportRejected) as rejected:
            games.import_(exported)
        assert rejected.value.line == 2 and "unknown rules version '9.9.9'" in str(rejected.value)
    code = CliRunner().invoke(app, ["--db", url, "show", game_id])
    assert code.exit_code != 0


def test_cli_verify_with_the_current_edition(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    path.write_bytes(release_games("release-1")["base-4p-finished"])
    result = CliRunner().invoke(app, ["verify", str(path), "--edition", "current"])
    assert result.exit_code == 0, result.output
    output = " ".join(result.output.split())  # the console wraps long lines
    assert "diverges at event 1337 [INQ-21]" in output and "recorded:" in output
    result = CliRunner().invoke(app, ["verify", str(path), "--edition", "base-9"])
    assert result.exit_code == 1 and "unknown catalog edition 'base-9'" in result.output


def test_a_stored_event_that_does_not_fit_names_its_number_and_type(games: Games, raw: RawRows) -> None:
    game_id, _ = games.create(default_setup(2, "unfit"))
    play(games, game_id, "unfit", limit=10)
    events = games.events(game_id)
    moved = next(s for s in events if s.event.type == "TelescopeMoved")
    topic, row = raw.row(game_id, moved.version)
    row["payload"]["start"] = 0  # the telescope was never there: this event does not fit its game
    raw.write(game_id, moved.version, topic, row)
    with (
        Games(games.url, clock=StepClock(), secret=SecretCounter()) as fresh,
        pytest.raises(EventDoesNotFit) as unfit,
    ):
        fresh.state(game_id)
    assert unfit.value.number == moved.version and unfit.value.event_type == "TelescopeMoved"
    assert str(unfit.value).startswith(
        f"event {moved.version} (TelescopeMoved) does not fit the game: expected"
    )


def test_evolve_refuses_an_event_that_does_not_fit() -> None:
    from domain import events as ev
    from domain import evolve, start

    state, events = start(default_setup(2, "unfit"))
    with pytest.raises(
        EventDoesNotFit, match="GameStarted does not fit the game: expected only a game's first"
    ):
        evolve(state, events[0])
    with pytest.raises(EventDoesNotFit, match="first event must be GameStarted"):
        evolve(None, ev.TurnEnded(seat=0, turn=0))
    with pytest.raises(EventDoesNotFit, match=r"event CardDealt does not fit the game: \w+Error"):
        evolve(state, ev.CardDealt(seat=0, space=0, card="D9-99", from_reserve=False))

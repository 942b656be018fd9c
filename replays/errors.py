"""Errors of the game service (the engine's own refusal, `IllegalMove`, passes through unchanged)."""

from __future__ import annotations


class GameServiceError(Exception):
    """Base class of the service's errors. Those that say `template` and `params` (an English message
    with named placeholders) are said in the request's language at the edge (docs/i18n.md)."""

    template: str = ""
    params: dict[str, object] = {}  # noqa: RUF012 (replaced per instance by `_say`, never mutated)

    def _say(self, template: str, **params: object) -> None:
        self.template, self.params = template, params
        Exception.__init__(self, template.format(**params))


class GameNotFound(GameServiceError, LookupError):
    def __init__(self, game_id: object) -> None:
        self._say("no game {game_id}", game_id=str(game_id))
        self.game_id = str(game_id)


class VersionConflict(GameServiceError):
    """The command was made against a version that is no longer the game's current one."""

    def __init__(self, current_version: int, expected_version: int | None = None) -> None:
        if expected_version is None:
            self._say("the game is at version {current}: reload and retry", current=current_version)
        else:
            self._say(
                "the game is at version {current} (the command expected version {expected}):"
                " reload and retry",
                current=current_version,
                expected=expected_version,
            )
        self.current_version = current_version
        self.expected_version = expected_version


class CommandIdReused(GameServiceError, ValueError):
    """A command ID already used for a different command of the same game."""

    def __init__(self, command_id: str, version: int) -> None:
        self._say(
            "command ID {command_id!r} was already used for a different command (events from version"
            " {version}); use a new ID for a new command",
            command_id=command_id,
            version=version,
        )
        self.command_id = command_id
        self.version = version


class SeatMismatch(GameServiceError, PermissionError):
    """A seat submitted a command for another seat."""

    def __init__(self, actor: int, seat: int) -> None:
        self._say("seat {actor} cannot submit a command for seat {seat}", actor=actor, seat=seat)
        self.actor = actor
        self.seat = seat


class VersionOutOfRange(GameServiceError, ValueError):
    def __init__(self, version: int, head: int) -> None:
        self._say("version {version} is outside 0..{head}", version=version, head=head)
        self.version = version
        self.head = head


class ForkRefused(GameServiceError, ValueError):
    """A fork point the game does not allow (outside 1..head, or at or after its end)."""


class ImportRejected(GameServiceError, ValueError):
    """An export file that cannot be imported; nothing was written. `line` is 1-based (0: whole file)."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}" if line else message)
        self.line = line
        self.message = message


class TableRefused(GameServiceError, ValueError):
    """A table request (take-back, resignation, clock, host action) that the service's rules refuse.

    `rule` is the service rule (ASYNC-n, docs/async.md) or the game rule that forbids it."""

    def __init__(self, code: str, message: str, rule: str, status: int = 409) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.rule = rule
        self.status = status

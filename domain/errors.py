"""The one error the rules engine raises for a refused command."""

from __future__ import annotations


class IllegalMove(Exception):
    """A command the rules do not allow now: a stable `code`, a human `message` and the `rule_id`.

    The message is given as an English template and its parameters (`"tile {tile} is already upgraded"`,
    `tile="T3"`): `message` is the template filled in, and the edge that speaks another language
    looks the template up in its catalog (docs/i18n.md) and fills that in with the same `params`. The
    domain itself never translates."""

    def __init__(self, code: str, message: str, rule_id: str, **params: object) -> None:
        self.code = code
        self.template = message
        self.params = params
        self.message = message.format(**params) if params else message
        self.rule_id = rule_id
        super().__init__(f"{self.message} [{rule_id}]")

    def to_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message, "rule": self.rule_id}


class EditionUnknown(ValueError):
    """A game (or position, or file) names a rules edition this build does not have: a catalog edition
    it does not ship, or an engine rules version it does not keep (docs/editions.md). Raised instead of
    ever falling back to another edition."""

    def __init__(self, part: str, edition: str, available: tuple[str, ...], how: str) -> None:
        known = ", ".join(available) or "none"
        super().__init__(f"unknown {part} {edition!r}: this build has {known}. {how} (docs/editions.md)")
        self.part = part  # "catalog edition" | "rules version"
        self.edition = edition


class EventDoesNotFit(ValueError):
    """An event that cannot be applied to the state it follows (a corrupt, reordered or foreign log):
    `evolve` refuses it, naming its type and what it expected; the store adds its number."""

    def __init__(self, event_type: str, expected: str, number: int | None = None) -> None:
        where = f"event {number} ({event_type})" if number is not None else f"event {event_type}"
        super().__init__(f"{where} does not fit the game: {expected}")
        self.event_type = event_type
        self.expected = expected
        self.number = number

    def at(self, number: int) -> EventDoesNotFit:
        """The same error, naming the event's number in its game."""
        return EventDoesNotFit(self.event_type, self.expected, number)

"""The one error the rules engine raises for a refused command."""

from __future__ import annotations


class IllegalMove(Exception):
    """A command the rules do not allow now: a stable `code`, a human `message` and the `rule_id`."""

    def __init__(self, code: str, message: str, rule_id: str) -> None:
        super().__init__(f"{message} [{rule_id}]")
        self.code = code
        self.message = message
        self.rule_id = rule_id

    def to_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message, "rule": self.rule_id}

"""Typed, strict reading of parsed JSON that knows where it is, so every error names file and JSON path."""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import dataclass

from domain.catalog.model import CatalogError, Reward
from domain.catalog.rewards import json_type, validate_provenance, validate_reward


@dataclass(frozen=True, slots=True)
class Node:
    """A JSON value at `path` (like `$.cards[3].front`) inside catalog file `file`."""

    file: str
    path: str
    value: object

    @property
    def where(self) -> str:
        return f"{self.file}: {self.path}"

    def error(self, what: str) -> CatalogError:
        return CatalogError(f"{self.where}: {what}")

    def fields(self, required: Collection[str], optional: Collection[str] = ()) -> dict[str, Node]:
        """The members of an object that must have exactly the `required` keys (plus any `optional`)."""
        if not isinstance(self.value, dict):
            raise self.error(f"expected an object, got {json_type(self.value)}")
        for key in self.value:
            if key not in required and key not in optional:
                raise self.error(f"unexpected key {key!r} (expected {', '.join(sorted(required))})")
        for key in required:
            if key not in self.value:
                raise self.error(f"missing key {key!r}")
        return {key: Node(self.file, f"{self.path}.{key}", value) for key, value in self.value.items()}

    def items(self, length: int | None = None, what: str = "items") -> tuple[Node, ...]:
        """The elements of a list, which must have exactly `length` of them when given."""
        if not isinstance(self.value, list):
            raise self.error(f"expected a list, got {json_type(self.value)}")
        if length is not None and len(self.value) != length:
            raise self.error(f"expected {length} {what}, got {len(self.value)}")
        return tuple(
            Node(self.file, f"{self.path}[{index}]", value) for index, value in enumerate(self.value)
        )

    def entries(self) -> Iterator[tuple[str, Node]]:
        """The (key, value) members of an object whose keys are data, not field names."""
        if not isinstance(self.value, dict):
            raise self.error(f"expected an object, got {json_type(self.value)}")
        for key, value in self.value.items():
            yield key, Node(self.file, f"{self.path}[{key!r}]", value)

    def text(self) -> str:
        if not isinstance(self.value, str) or not self.value.strip():
            raise self.error(f"expected a non-empty string, got {json_type(self.value)}")
        return self.value

    def integer(self, minimum: int | None = None, maximum: int | None = None) -> int:
        if not isinstance(self.value, int) or isinstance(self.value, bool):
            raise self.error(f"expected an integer, got {json_type(self.value)}")
        if minimum is not None and self.value < minimum:
            raise self.error(f"must be at least {minimum}, got {self.value}")
        if maximum is not None and self.value > maximum:
            raise self.error(f"must be at most {maximum}, got {self.value}")
        return self.value

    def boolean(self) -> bool:
        if not isinstance(self.value, bool):
            raise self.error(f"expected true or false, got {json_type(self.value)}")
        return self.value

    def choice(self, allowed: Collection[str], what: str) -> str:
        value = self.text()
        if value not in allowed:
            raise self.error(f"unknown {what} {value!r} (expected one of {', '.join(allowed)})")
        return value

    def reward(self, extra_codes: frozenset[str] = frozenset()) -> Reward:
        return validate_reward(self.value, self.where, extra_codes)

    def provenance(self) -> str:
        return validate_provenance(self.value, self.where)


def unique_ids(nodes: Collection[Node], ids: Collection[str]) -> None:
    """Fail on the first id that repeats an earlier one, naming the element's `id` that repeats it."""
    seen: set[str] = set()
    for node, item_id in zip(nodes, ids, strict=True):
        if item_id in seen:
            raise CatalogError(f"{node.where}.id: duplicate id {item_id!r}")
        seen.add(item_id)

"""Checks that span several items or files: deck feasibility, queue size, reputation track, subject tiles."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from domain.catalog.model import Card, Objective, SkySpace, SubjectTile
from domain.catalog.reader import Node

PLAYER_COUNTS = (1, 2, 3, 4)  # COMP-11
OPENING_DISPLAY = 6  # six face-up Tier I cards at setup (SET-5)
TIER_NAMES = {1: "Tier I", 2: "Tier II", 3: "Tier III"}
SUBJECT_KEYS = ("id", "theme", "niche", "arch", "provenance")


def deck_composition(node: Node, cards: Sequence[Card]) -> dict[int, tuple[int, int, int]]:
    """Tier I/II/III counts per player count, each feasible with the cards of the box (DATA-2)."""
    in_box = {tier: sum(1 for card in cards if card.tier == tier) for tier in TIER_NAMES}
    composition: dict[int, tuple[int, int, int]] = {}
    entries: dict[int, Node] = {}
    for key, entry in node.entries():
        if key not in {str(count) for count in PLAYER_COUNTS}:
            raise entry.error(f"unknown player count {key!r} (expected 1 to {max(PLAYER_COUNTS)})")
        items = entry.items(3, "tier counts (Tier I, II, III)")
        counts = (items[0].integer(minimum=0), items[1].integer(minimum=0), items[2].integer(minimum=0))
        if counts[0] < OPENING_DISPLAY:
            raise items[0].error(
                f"Tier I needs at least {OPENING_DISPLAY} cards for the opening display (SET-5), "
                f"got {counts[0]}"
            )
        for tier, needed, item in zip(TIER_NAMES, counts, items, strict=True):
            if needed > in_box[tier]:
                raise item.error(
                    f"{key} player(s) need {needed} {TIER_NAMES[tier]} cards but the box has {in_box[tier]}"
                )
        composition[int(key)] = counts
        entries[int(key)] = entry
    for count in PLAYER_COUNTS:
        if count not in composition:
            raise node.error(f"missing player count {count}")
    most = max(PLAYER_COUNTS, key=lambda count: composition[count][2])
    if composition[most][2] >= in_box[3]:
        raise entries[most].error(
            f"no Tier III card left in the box for the end-game reserve (END-4): {most} player(s) use "
            f"{composition[most][2]} of the {in_box[3]} Tier III cards"
        )
    return dict(sorted(composition.items()))


def check_action_tiles_fill_queue(tiles: Node, count: int, sky: Sequence[SkySpace]) -> None:
    """A player has one Action tile per starry-sky space that holds one (SKY-3, ROT-5)."""
    queue = sum(1 for space in sky if space.tile)
    if count != queue:
        raise tiles.error(
            f"expected {queue} Action tiles (one per starry-sky space with a tile), got {count}"
        )


def reputation_vp(node: Node, lowest: int, highest: int) -> dict[int, int]:
    """End-game VP of every position of the reputation track, keyed by position."""
    values: dict[int, int] = {}
    for key, entry in node.entries():
        try:
            position = int(key)
        except ValueError:
            raise entry.error(f"a position must be an integer, got {key!r}") from None
        if str(position) != key or not lowest <= position <= highest:
            raise entry.error(f"position {key!r} is not on the track ({lowest} to {highest})")
        values[position] = entry.integer()
    for position in range(lowest, highest + 1):
        if position not in values:
            raise node.error(f"missing position {position}")
    return dict(sorted(values.items()))


def check_subjects(nodes: Node, subjects: Sequence[SubjectTile], objectives: Mapping[str, Objective]) -> None:
    """Each Subject tile's niche side is a distinct niche objective; arch subjects are distinct (SUBJ-3)."""
    niches: set[str] = set()
    arches: set[str] = set()
    for item, subject in zip(nodes.items(), subjects, strict=True):
        fields = item.fields(SUBJECT_KEYS)
        objective = objectives.get(subject.niche)
        if objective is None:
            raise fields["niche"].error(f"unknown objective {subject.niche!r}")
        if objective.kind != "niche":
            raise fields["niche"].error(
                f"objective {subject.niche!r} is {objective.kind}, not a niche objective"
            )
        if subject.niche in niches:
            raise fields["niche"].error(f"objective {subject.niche!r} is on two Subject tiles")
        if subject.arch in arches:
            raise fields["arch"].error(f"arch subject {subject.arch!r} is on two Subject tiles")
        niches.add(subject.niche)
        arches.add(subject.arch)

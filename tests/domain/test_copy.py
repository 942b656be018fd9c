"""The state copier (`domain.state.replace`) behaves like dataclasses.replace, including refusing a field
the class lacks."""

from __future__ import annotations

import pytest

from domain.state import TurnState, replace


def test_replace_copies_and_changes_named_fields() -> None:
    turn = TurnState(seat=0, number=3, phase="movement")
    moved = replace(turn, seat=1, phase="actions")
    assert (moved.seat, moved.number, moved.phase) == (1, 3, "actions")
    assert turn.seat == 0


def test_replace_refuses_an_unknown_field_name() -> None:
    turn = TurnState(seat=0, number=3, phase="movement")
    with pytest.raises(TypeError, match="TurnState has no field"):
        replace(turn, seet=1)
    with pytest.raises(TypeError, match="bogus, nope"):
        replace(turn, nope=1, bogus=2, seat=1)


def test_replace_copies_classes_without_slots_and_inherited_fields() -> None:
    from dataclasses import dataclass

    @dataclass(frozen=True)
    class Plain:
        a: int
        b: str = "x"

    @dataclass(frozen=True, slots=True)
    class Base:
        a: int

    @dataclass(frozen=True, slots=True)
    class Child(Base):
        b: int = 0

    assert replace(Plain(1), b="y") == Plain(1, "y")
    assert replace(Child(1, 2), a=5) == Child(5, 2)
    with pytest.raises(TypeError, match="Child has no field"):
        replace(Child(1), c=3)


def test_a_copy_is_of_the_frozen_class_itself_and_stays_frozen() -> None:
    """The copier fills an assignable draft and turns it into the class: callers never see the draft."""
    from dataclasses import FrozenInstanceError

    from domain.engine import start
    from domain.selfplay import default_setup

    state, _ = start(default_setup(4, "fastcopy-frozen"))
    turn = replace(state.turn, phase="actions")
    copy = replace(state, turn=turn)
    for value, original in ((turn, state.turn), (copy, state)):
        assert type(value) is type(original)
        assert value.__class__ is type(original)
    assert copy == replace(state, turn=turn) and copy != state
    assert hash(turn) == hash(replace(state.turn, phase="actions"))
    with pytest.raises(FrozenInstanceError):
        copy.turn = state.turn  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        turn.seat = 3  # type: ignore[misc]
    assert state.turn.phase == "movement" and copy.turn.phase == "actions"


def test_every_set_of_changes_copies_the_other_fields_and_refuses_unknown_names_each_time() -> None:
    """The copier kept for one set of changed fields, and the general one, agree with
    `dataclasses.replace`; a set with an unknown name is refused on every call, not only the first."""
    import dataclasses
    from itertools import combinations

    turn = TurnState(seat=2, number=7, phase="actions", fixed_done=True, used_tile="T1")
    changes = {"seat": 0, "phase": "cleanup", "rotated": True, "space": 4}
    for k in range(len(changes) + 1):
        for names in combinations(changes, k):
            given = {name: changes[name] for name in names}
            for _ in range(2):
                assert replace(turn, **given) == dataclasses.replace(turn, **given)
    for _ in range(2):
        with pytest.raises(TypeError, match="TurnState has no field"):
            replace(turn, seat=1, seet=1)


def test_a_changer_is_replace_with_its_fields_given_in_order() -> None:
    """`changer(cls, *names)` copies like `replace` with those fields, and refuses what `replace`
    refuses (an unknown field), a field named twice, and a class without slots."""
    import dataclasses

    from domain.state import changer

    turn = TurnState(seat=2, number=7, phase="actions", fixed_done=True, used_tile="T1")
    phase_space = changer(TurnState, "phase", "space")
    copy = phase_space(turn, "cleanup", 4)
    assert copy == replace(turn, phase="cleanup", space=4) and type(copy) is TurnState
    assert turn.phase == "actions" and turn.space == 0
    with pytest.raises(dataclasses.FrozenInstanceError):
        copy.phase = "movement"  # type: ignore[misc]
    with pytest.raises(TypeError, match="TurnState has no field"):
        changer(TurnState, "phase", "seet")
    with pytest.raises(TypeError, match="distinct fields"):
        changer(TurnState, "phase", "phase")

    @dataclasses.dataclass(frozen=True)
    class Plain:
        a: int

    with pytest.raises(TypeError, match="slotted"):
        changer(Plain, "a")

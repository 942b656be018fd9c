"""A part's fields shown as a seat's own, and an expansion's rule options, read as plain attributes
(properties added at registration; issue 17 removed the class-level `__getattr__` that slowed every
attribute read of a seat)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from domain import Options
from domain.engine import start
from domain.expansions.luna.state import LunaSeat
from domain.fastcopy import replace
from domain.options import OptionSpec, flag, register_options
from domain.selfplay import default_setup
from domain.state import Part, PlayerState, expose_fields, put_part


def test_a_seat_shows_its_parts_fields_and_their_rest_values_without_the_part() -> None:
    state, _ = start(default_setup(4, "shown-fields"))
    seat = state.players[0]
    shown: Any = seat
    assert seat.part(LunaSeat) is None
    assert (shown.grand, shown.moon) == ((0,) * len(seat.cellar), 0)
    gained: Any = replace(seat, parts=put_part(seat.parts, LunaSeat(grand=(1,) + (0,) * 3, moon=2)))
    assert (gained.grand, gained.moon) == ((1, 0, 0, 0), 2)
    built: Any = PlayerState(**{f: getattr(seat, f) for f in seat.__dataclass_fields__}, moon=3)
    assert built.moon == 3 and built.part(LunaSeat) == LunaSeat(grand=(0,) * 4, moon=3)
    with pytest.raises(AttributeError, match="no attribute 'nonsense'"):
        shown.nonsense  # noqa: B018


def test_a_part_cannot_show_a_field_a_seat_has() -> None:
    @dataclass(frozen=True, slots=True)
    class Clash(Part):
        key: ClassVar[str] = "clash"
        FIELDS: ClassVar[tuple[str, ...]] = ("score",)
        score: int = 0

    with pytest.raises(ValueError, match="seats have that attribute already"):
        expose_fields(Clash)
    assert PlayerState.__dataclass_fields__["score"].name == "score"
    assert start(default_setup(2, "shown-clash"))[0].players[0].score == 0


def test_an_expansions_option_is_an_attribute_with_its_default_and_a_clash_is_refused() -> None:
    options: Any = Options()
    assert options.luna is False and options.bonus_b8_write_size == 1
    assert Options(luna=True).get("luna") is True and Options(luna=True).luna is True  # type: ignore[call-arg]
    with pytest.raises(AttributeError, match="no attribute 'nonsense'"):
        options.nonsense  # noqa: B018
    with pytest.raises(ValueError, match="defined twice"):
        register_options(OptionSpec("someName", "get", False, flag))  # an Options method's name

"""A plug-in's state is a typed part of its owner; an expansion's rule options are read by attribute name."""

from __future__ import annotations

from typing import Any

import pytest

from domain import Options
from domain.engine import start
from domain.expansions.luna.state import LunaSeat, seat_of, seat_with
from domain.options import OptionSpec, flag
from domain.selfplay import default_setup
from domain.vocabulary import compose_options


def test_a_seats_plugin_state_is_a_typed_part_at_rest_when_absent() -> None:
    """A plug-in's seat state is its own part, read through its owner (no field added to PlayerState)."""
    state, _ = start(default_setup(4, "shown-fields"))
    seat = state.players[0]
    assert seat.part(LunaSeat) is None and not hasattr(seat, "grand")
    assert (seat_of(seat).grand, seat_of(seat).moon) == ((0,) * len(seat.cellar), 0)
    gained = seat_with(seat, grand=(1,) + (0,) * 3, moon=2)
    assert gained.part(LunaSeat) == LunaSeat(grand=(1, 0, 0, 0), moon=2) and seat_of(gained).moon == 2
    assert seat_with(gained, grand=(0,) * 4, moon=0).parts == ()  # at rest: absent again


def test_an_expansions_option_is_read_by_attribute_with_its_default_and_a_clash_is_refused() -> None:
    options: Any = Options()
    assert options.get("luna") is False and options.get("bonus_b8_write_size") == 1
    assert Options(luna=True).get("luna") is True  # type: ignore[call-arg]
    assert not hasattr(Options, "luna")  # no property added to the class (issue 33)
    with pytest.raises(AttributeError, match="no attribute 'nonsense'"):
        options.get("nonsense")
    with pytest.raises(TypeError, match="nonsense"):
        Options(nonsense=True)  # type: ignore[call-arg]
    with pytest.raises(ValueError, match="defined twice"):
        compose_options((OptionSpec("someName", "get", False, flag),))  # an Options method's name
    with pytest.raises(ValueError, match="defined twice"):
        compose_options((OptionSpec("luna", "a", False, flag),), (OptionSpec("luna", "b", False, flag),))

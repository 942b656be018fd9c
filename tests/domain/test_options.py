"""Rule options read from their JSON form (`Options.from_json`): the same JSON gives the same options, and
a JSON value is judged by its type as well as its value every time (the reading is memoised)."""

from __future__ import annotations

import pytest

from domain import Options


def test_the_same_json_gives_equal_options_each_time() -> None:
    data = {"dieMax": 5, "bookRewardsImmediate": True, "luna": True}
    first = Options.from_json(data)
    assert Options.from_json(dict(data)) == first
    assert first.die_max == 5 and first.book_rewards_immediate and first.get("luna")
    assert Options.from_json({}) == Options()


def test_1_and_true_are_different_json_values_of_an_option() -> None:
    assert Options.from_json({"dieMax": 1}).die_max == 1
    with pytest.raises(ValueError, match="dieMax must be a positive integer or null"):
        Options.from_json({"dieMax": True})
    assert Options.from_json({"bookRewardsImmediate": True}).book_rewards_immediate is True
    for _ in range(2):  # a refused value is refused again (an error is not remembered as options)
        with pytest.raises(ValueError, match="bookRewardsImmediate must be true or false"):
            Options.from_json({"bookRewardsImmediate": 1})


def test_unknown_and_unhashable_values_are_refused_naming_them() -> None:
    with pytest.raises(ValueError, match="unknown rule option"):
        Options.from_json({"noSuchOption": True})
    with pytest.raises(ValueError, match="dieMax must be a positive integer or null"):
        Options.from_json({"dieMax": [6]})

"""Maria Cunitz (digest §17.7): the Urania Propitia track, Focus and Move (CHAR-CUN-1..5, AMB-38, DATA-20).

The round token is on "" (the rotating-arrow start: matches no Note) or a colour R/Y/B; the square token
on a track space, 0 = the start at the top. `notes` holds the Note tile on each Note space, in track order.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.catalog.model import Reward

ARROW = ""  # CHAR-CUN-1: the round token starts on the rotating-arrow symbol
ROUND_SPACES = (ARROW, "R", "Y", "B")
MOVES = {"MOVE1": 1, "MOVE2": 2, "MOVE3": 3}


def focus_colour(option: Reward) -> str | None:
    """CHAR-CUN-2: the colour an option's Focus may move the round token to: that of its single-colour
    increase (`INC:c` / `INC2:c`); None when the option has no Focus."""
    if "FOCUS" not in option:
        return None
    colours = {code.split(":")[1] for code in option if code.startswith(("INC:", "INC2:"))}
    if len(colours) != 1:
        raise ValueError(f"a Focus needs exactly one single-colour increase in {option} [CHAR-CUN-2]")
    return colours.pop()


def move_steps(option: Reward) -> int:
    """CHAR-CUN-3: the n of the option's Move n (0 without one)."""
    return sum(MOVES.get(code, 0) for code in option)


def check_option(option: Reward) -> None:
    """CHAR-CUN-3: one moving action never gives both Focus and Move."""
    if "FOCUS" in option and move_steps(option):
        raise ValueError(f"an option with both Focus and Move: {option} [CHAR-CUN-3]")


def moved(square: int, steps: int, spaces: int) -> int:
    """AMB-38: the square token moves `steps` spaces and stops on the last space (extra steps are lost)."""
    return min(square + steps, spaces - 1)


def landing_reward(
    track: Sequence[Reward | None],
    notes: Sequence[tuple[str, ...]],
    note_rewards: Sequence[Reward],
    square: int,
    round_token: str,
) -> Reward:
    """CHAR-CUN-4 / AMB-38: what the space the square token stops on gives (passed spaces give nothing):
    a colourless space its reward; a Note space its Note's reward if the round token shows (one of) the
    Note frame's colour(s), else nothing. `notes[i]` / `note_rewards[i]` are the frame and reward of the
    Note on the i-th Note space."""
    space = track[square]
    if space is not None:
        return space
    k = sum(1 for s in track[:square] if s is None)
    return note_rewards[k] if round_token in notes[k] else ()


def note_index(track: Sequence[Reward | None], square: int) -> int | None:
    """Which Note space (0..5) `square` is, or None on a colourless space."""
    if track[square] is not None:
        return None
    return sum(1 for s in track[:square] if s is None)

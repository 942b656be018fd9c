"""Every text of a turn notification that a person reads, in one place (the email subjects and bodies, the
push titles and bodies, the small pages of the mail links), so that they can be translated together.

A template is a `str.format` pattern with named fields. What a notification may name (ACCT-6,
docs/rules/24-accounts.md): the game, its seats' names, whose turn it is and links; never a card, a hand,
a score or anything else of the board.
"""

from __future__ import annotations

from typing import Final

# -- email -------------------------------------------------------------------------------------------
TURN_SUBJECT: Final = "Your turn in Galileo Galilei ({game})"
TURN_BODY: Final = """It is your turn ({seat}) in the game {game}.

Open the game: {link}

You get one mail per turn while it is yours. To stop the mails of this game, open
{unsubscribe}
"""
DIGEST_SUBJECT: Final = "Galileo Galilei: {count} game(s) waiting for your move"
DIGEST_LINE: Final = "- {game}: your turn ({seat}): {link}"
DIGEST_BODY: Final = """These games wait for your move:

{lines}

This is your daily digest. To stop these mails, open
{unsubscribe}
"""
CONFIRM_SUBJECT: Final = "Confirm your address for Galileo Galilei"
CONFIRM_BODY: Final = """Someone (you, we hope) asked to be told by mail when it is their turn in {scope}.

To confirm, open {link}

Until it is confirmed, nothing else is sent to this address. If it was not you, ignore this mail.
"""
CONFIRM_SCOPE_ACCOUNT: Final = "the games of the account {name}"
CONFIRM_SCOPE_SEAT: Final = "the game {game} (seat {seat})"
GAME_LABEL: Final = "{names}"  # a game is named by its seats' names: "Ada, Ben and Cleo"
NAMES_JOIN: Final = ", "
NAMES_LAST: Final = " and "

# -- Web Push ----------------------------------------------------------------------------------------
PUSH_TITLE: Final = "Your turn"
PUSH_BODY: Final = "It is your turn ({seat}) in {game}."

# -- the pages of the mail links ---------------------------------------------------------------------
PAGE_CONFIRM: Final = "Confirm that mails about your turns may be sent to this address."
PAGE_CONFIRM_BUTTON: Final = "Confirm"
PAGE_CONFIRMED: Final = "Confirmed: you will be told by mail when it is your turn."
PAGE_UNSUBSCRIBE: Final = "Stop the turn mails of this link?"
PAGE_UNSUBSCRIBE_BUTTON: Final = "Stop the mails"
PAGE_UNSUBSCRIBED: Final = "Done: no more of these mails will be sent."
PAGE_BAD_LINK: Final = "This link is not valid (it was altered, or it has been used or replaced)."


def game_label(names: list[str]) -> str:
    """A game named by its seats' names."""
    if len(names) <= 1:
        return "".join(names)
    return GAME_LABEL.format(names=NAMES_JOIN.join(names[:-1]) + NAMES_LAST + names[-1])

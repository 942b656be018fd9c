"""Every text of a turn notification that a person reads, in one place (the email subjects and bodies, the
push titles and bodies, the small pages of the mail links), so that they can be translated together.

A template is a `str.format` pattern with named fields, an English message id of the catalogs
(projections/i18n): `say(locale, TURN_SUBJECT, game=...)` gives it in the recipient's language (the
account's choice, `PUT /me/language`, else the language negotiated when the address or the device was
given; docs/notifications.md). What a notification may name (ACCT-6, docs/rules/24-accounts.md): the game,
its seats' names, whose turn it is and links; never a card, a hand, a score or anything else of the board.
"""

from __future__ import annotations

from typing import Any, Final

from projections.i18n import N_, text, words

# -- email -------------------------------------------------------------------------------------------
TURN_SUBJECT: Final = N_("Your turn in Galileo Galilei ({game})")
TURN_BODY: Final = N_("""It is your turn ({seat}) in the game {game}.

Open the game: {link}

You get one mail per turn while it is yours. To stop the mails of this game, open
{unsubscribe}
""")
DIGEST_LINE: Final = N_("- {game}: your turn ({seat}): {link}")
DIGEST_BODY: Final = N_("""These games wait for your move:

{lines}

This is your daily digest. To stop these mails, open
{unsubscribe}
""")
CONFIRM_SUBJECT: Final = N_("Confirm your address for Galileo Galilei")
CONFIRM_BODY: Final = N_("""Someone (you, we hope) asked to be told by mail when it is their turn in {scope}.

To confirm, open {link}

Until it is confirmed, nothing else is sent to this address. If it was not you, ignore this mail.
""")
CONFIRM_SCOPE_ACCOUNT: Final = N_("the games of the account {name}")
CONFIRM_SCOPE_SEAT: Final = N_("the game {game} (seat {seat})")

# -- Web Push ----------------------------------------------------------------------------------------
PUSH_TITLE: Final = N_("Your turn")
PUSH_BODY: Final = N_("It is your turn ({seat}) in {game}.")

# -- the pages of the mail links ---------------------------------------------------------------------
PAGE_CONFIRM: Final = N_("Confirm that mails about your turns may be sent to this address.")
PAGE_CONFIRM_BUTTON: Final = N_("Confirm")
PAGE_CONFIRMED: Final = N_("Confirmed: you will be told by mail when it is your turn.")
PAGE_UNSUBSCRIBE: Final = N_("Stop the turn mails of this link?")
PAGE_UNSUBSCRIBE_BUTTON: Final = N_("Stop the mails")
PAGE_UNSUBSCRIBED: Final = N_("Done: no more of these mails will be sent.")
PAGE_BAD_LINK: Final = N_("This link is not valid (it was altered, or it has been used or replaced).")


def say(locale: str, template: str, /, **params: Any) -> str:
    """One of the templates above in `locale` ("en", "ja", "zh-Hans"...), filled in."""
    return text(locale, template, **params)


def digest_subject(locale: str, count: int) -> str:
    """The digest's subject: how many games wait (a plural, the language's CLDR forms)."""
    return words(locale).n(
        "Galileo Galilei: {n} game waiting for your move",
        "Galileo Galilei: {n} games waiting for your move",
        count,
    )


def game_label(names: list[str], locale: str = "en") -> str:
    """A game named by its seats' names, joined in the language's way ("Ada, Ben and Cleo")."""
    return words(locale).list(names) if names else ""

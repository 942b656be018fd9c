"""Character rules: the extension point for the astronomers' abilities (digest §17).

The characters themselves are catalog data (`catalog.characters`: id, name, expansion, personal pages).
The turn engine asks a seat's `CharacterRules` wherever a character may change a rule: how many
constellations one Observe may take, which personal Book-of-Comets pages it may use (BOC-5), and what
happens when the telescope wraps past the Upgrade space (Sophia Brahe, CHAR-SOP-2). A character's ability
side will override these; the basic (Quadrant-symbol) side used by every character here changes nothing
(SET-21). Per-character Action tiles and cellars are catalog data
(`catalog.action_tiles`, the length of the cellar), so they need no code here.
"""

from __future__ import annotations

from domain.catalog import BookPage
from domain.state import PlayerState, Task


class CharacterRules:
    """The basic side: the base rules, unchanged."""

    constellations_per_observe = 2  # OBS-1 (Galileo's ability: 3, CHAR-GAL-2)

    def personal_pages(self) -> tuple[BookPage, ...]:
        """Personal Book-of-Comets pages usable instead of shared ones (BOC-5, CHAR-3)."""
        return ()

    def on_wrap(self, player: PlayerState) -> list[Task]:
        """Effects when the telescope passes U back to S1 (MOV-5)."""
        return []


BASIC = CharacterRules()


def rules_for(player: PlayerState) -> CharacterRules:
    """The rules of a seat's character. Every character plays its basic side (advanced abilities are
    a separate feature: they will register their own `CharacterRules` here, by character id)."""
    return BASIC

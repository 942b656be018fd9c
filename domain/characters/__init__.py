"""Character rules: the seam for the astronomers' abilities (digest §17, docs/engine.md).

The characters themselves are catalog data (`catalog.characters`: id, name, expansion, personal pages,
and, in editions that carry it, the ability side's data: `CharacterBoard.ability`). A seat plays its
character on the basic side (the Quadrant symbol, SET-21: the base rules, unchanged) or on the ability
side (CHAR-1). An ability-side seat has a `Character` part (its side and the ability's own state); the
turn engine asks the seat's `CharacterRules` (`rules_for(state, player)`) wherever a character may
change a rule:

- `layout` / `check_seat`: its setup (Kepler's special tile and set-aside tile, CHAR-KEP-1; Bruno's
  cellar tile, CHAR-BRU-2), recorded in `GameStarted.layouts`, and `start` applies it;
- `menu_options` / `menu_check`: extra commands in the Action phase (Copernicus' free action, CHAR-COP-2);
- `cleanup_options` / `cleanup_check`: its commands open in the Cleanup windows (Hevelius' claims,
  CHAR-HEV-4);
- `react`: what it adds to what an event grants (Bruno's cellar rewards, Kepler's tile, CHAR-BRU-2,
  CHAR-KEP-2), and `on_wrap`: its reaction to a wrap (MOV-5, Sophia Brahe CHAR-SOP-2);
- `observe_more`: the observations one Observe may add (OBS-1; Galileo CHAR-GAL-2);
- `personal_pages`: its personal Book-of-Comets pages (BOC-5, CHAR-3);
- `tile` / `own_tiles`: replacement Action tiles (Kepler's special tile) and the tiles it may upgrade;
- `cellar`: its cellar's values and rewards (Bruno's tile, CHAR-BRU-3);
- `library_reward`: a library space's reward (Copernicus' library tiles, CHAR-COP-4).

Each character module (`domain/characters/<id>.py`) subclasses `CharacterRules` for its ability side:
a plug-in (domain/ruleset.py) whose `ability_of` is the character's id; `domain/characters/roster.py`
lists them, and a game with a seat on that side is played with it (`Ruleset.abilities`). The basic side
of every character is `BASIC`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from domain import commands as c
from domain.catalog import ActionTile, BookPage, Catalog, Reward
from domain.errors import IllegalMove
from domain.parts import PartCodec, json_tuple
from domain.rng import SeededRandom
from domain.ruleset import Plugin, Ruleset
from domain.state import GameState, Part, PlayerState, Task, put_part, replace

SIDES = ("basic", "ability")  # CHAR-1: the Quadrant-symbol side (SET-21) or the ability side


@dataclass(frozen=True, slots=True)
class Character(Part):
    """An ability-side seat's own state (CHAR-1), what every ability side has. A basic-side seat has none.
    A character's own state beyond it is a part of its own, written inside this one's JSON member
    (Kepler's `KeplerBoard`, Copernicus' `CopernicusLibrary`: `NestedCodec`, domain/parts.py)."""

    key: ClassVar[str] = "ability"

    side: str = "ability"
    pages: tuple[str, ...] = ()  # personal Book-of-Comets pages covered (CHAR-3, BOC-5)


def character_of(player: PlayerState) -> Character | None:
    return player.part(Character)


def side_of(player: PlayerState) -> str:
    """The side a seat plays its character on (CHAR-1)."""
    part = player.part(Character)
    return part.side if part is not None else "basic"


def with_character(player: PlayerState, part: Part) -> PlayerState:
    """The seat with `part` (its `Character` part, or a character's own) in place of the part of its class."""
    return replace(player, parts=put_part(player.parts, part))


def _dump(part: Character, hide: bool) -> dict[str, Any]:
    return {"side": part.side, "pages": list(part.pages)}


def _load(data: Any) -> Character:
    return Character(side=data["side"], pages=json_tuple(data["pages"]))


# domain/vocabulary.py; the member also holds Kepler's and Copernicus' own parts (their NESTED_PARTS)
PLAYER_PARTS: tuple[PartCodec, ...] = (PartCodec(Character, _dump, _load),)


class CharacterRules(Plugin):
    """The basic side: the base rules, unchanged (SET-21). An ability side overrides what it changes,
    and is a plug-in (domain/ruleset.py) whose `rules` are its module's events, commands, grants and
    effect kinds: a game with a seat on that side is played with them."""

    side = "basic"

    # -- setup ----------------------------------------------------------------------------------------

    def check_seat(self, catalog: Catalog, character: str, aside: str | None) -> IllegalMove | None:
        """The seat's setup choices (AMB-30: Kepler's set-aside tile)."""
        if aside:
            return IllegalMove(
                "no-aside", "{character} sets no Action tile aside", "CHAR-KEP-1", character=character
            )
        return None

    def layout(
        self, catalog: Catalog, character: str, queue: tuple[str, ...], aside: str | None
    ) -> tuple[tuple[str, ...], dict[str, Any] | None]:
        """The seat's Action-tile queue and its setup layout (None: the basic setup), for GameStarted."""
        return queue, None

    def start(self, catalog: Catalog, player: PlayerState, layout: dict[str, Any] | None) -> PlayerState:
        """The seat at the start of the game, from its recorded layout (evolve applies GameStarted)."""
        return player

    # -- hidden information (Hevelius' deck, Cunitz' Notes) ------------------------------------------------

    def deal(self, catalog: Catalog, rng: SeededRandom, version: str) -> tuple[str, ...]:
        """The seat's own hidden order, drawn at setup from its own stream of the secret seed under rules
        `version`: committed with the cards (`GameStarted.character_deals`, hidden until revealed,
        revealed at the end). Every random order the ability needs later is part of it (rules 0.3.0)."""
        return ()

    def dealt_to(self, catalog: Catalog, player: PlayerState, order: tuple[str, ...]) -> PlayerState:
        """The seat at the start of the game with its hidden order in place (evolve, after `start`)."""
        return player

    def redeal(self, catalog: Catalog, player: PlayerState, rng: SeededRandom) -> tuple[str, ...]:
        """A re-dealing fork: the seat's whole hidden order anew, what is still unseen drawn again."""
        return ()

    def redealt(self, catalog: Catalog, player: PlayerState, order: tuple[str, ...]) -> PlayerState:
        """The seat after a re-dealing fork (`GameForked.character_deals`)."""
        return player

    def start_order(
        self, catalog: Catalog, player: PlayerState, started: tuple[str, ...], order: tuple[str, ...]
    ) -> tuple[str, ...]:
        """A re-dealing fork rewrites `GameStarted`: the seat's hidden order there, given the one it
        started with and the fork's re-deal `order` (by default the re-deal is the whole order)."""
        return order

    def dealt(self, player: PlayerState) -> tuple[str, ...]:
        """The seat's hidden order as last committed (revealed by `GameEnded`)."""
        return ()

    def rewrite_fork(self, state: GameState, seat: int, prefix: list[Any], order: tuple[str, ...]) -> None:
        """A re-dealing fork at `state` (the end of `prefix`, the copied events) re-dealt this seat's hidden
        order as `order`: rewrite, in `prefix`, what the generic rewrite (`start_order` in `GameStarted`,
        `order` in an earlier `GameForked`) does not get right, so that the copied events reproduce
        themselves from the rewritten deal (Hevelius' reshuffles). domain/fork.py recommits afterwards."""

    def worth(self, s: GameState, player: PlayerState) -> float:
        """What the ability's own components are worth to the greedy bot beyond the score (points they
        are likely to bring later: Hevelius' constellations in progress, Cunitz' track, Newton's mirrors)."""
        return 0.0

    def witness(self, s: GameState, event: Any) -> GameState:
        """The state after an event of this seat was applied, with what the ability remembers of it
        (Hevelius: the action icons she performed this turn, CHAR-HEV-2)."""
        return s

    # -- the turn ---------------------------------------------------------------------------------------

    def menu_options(self, s: GameState, seat: int) -> list[c.Command]:
        """Extra commands in the Action phase menu (ACT-1; Copernicus' free action, FREE-6)."""
        return []

    menu_commands: tuple[type[c.Command], ...] = ()  # the command types of `menu_options`

    def menu_check(self, s: GameState, cmd: c.Command) -> IllegalMove | None:
        """The check of `menu_options`' commands (one of `menu_commands`)."""
        return IllegalMove(
            "not-your-ability", "{VERB!r} is another character's ability", "CHAR-1", VERB=cmd.VERB
        )

    def cleanup_options(self, s: GameState, seat: int) -> list[c.Command]:
        """The seat's own commands open in its Cleanup windows (CLN-1; Hevelius' claims, CHAR-HEV-4):
        a window opens for them too (domain/moves.py `cleanup_step`)."""
        return []

    cleanup_commands: tuple[type[c.Command], ...] = ()  # the command types of `cleanup_options`

    def cleanup_check(self, s: GameState, cmd: c.Command) -> IllegalMove | None:
        """The check of `cleanup_options`' commands (one of `cleanup_commands`)."""
        return IllegalMove("cleanup", "{VERB!r} is not open in Cleanup", "CLN-1", VERB=cmd.VERB)

    def react(self, before: GameState, after: GameState, event: Any, tasks: list[Task]) -> list[Task]:
        """What an event of this seat grants, given what the base rules grant (`tasks`)."""
        return tasks

    def on_wrap(self, s: GameState, player: PlayerState) -> list[Task]:
        """Effects when the telescope passes U back to S1 (MOV-5)."""
        return []

    def observe_more(self, s: GameState, player: PlayerState, first: str) -> Task | None:
        """OBS-1: what may follow the first observation of an Observe action (`first` = "MO" or "C"):
        after a constellation one more; after a Major Object nothing."""
        return Task("OBSERVE", 1) if first == "C" else None

    def personal_pages(self, catalog: Catalog) -> tuple[BookPage, ...]:
        """Personal Book-of-Comets pages usable instead of shared ones (BOC-5, CHAR-3)."""
        return ()

    def tile(self, catalog: Catalog, tile_id: str) -> ActionTile | None:
        """An Action tile of this character that the catalog's tile list does not hold (Kepler's)."""
        return None

    def own_tiles(self, player: PlayerState) -> tuple[str, ...]:
        """The Action tiles that are this seat's (UPG-4; Kepler's set-aside one too, CHAR-KEP-5)."""
        return player.queue

    def cellar(self, catalog: Catalog) -> tuple[tuple[int, ...], tuple[int, ...], tuple[Reward, ...]]:
        """The cellar's interrogation values, end-game values and rewards per space (INQ-21, SCO-3)."""
        return catalog.cellar_arch, catalog.cellar_bottom, ((),) * len(catalog.cellar_arch)

    def library_reward(self, s: GameState, player: PlayerState, row: int, position: int) -> Reward | None:
        """A library space's reward when this character replaces it (None: the printed/card one)."""
        return None


BASIC = CharacterRules()


class AbilityRules(CharacterRules):
    """The ability side of a character (CHAR-1): its personal pages from the catalog (CHAR-3), and its
    `Character` part from the start. A character module subclasses it."""

    side = "ability"
    character = ""

    def start(self, catalog: Catalog, player: PlayerState, layout: dict[str, Any] | None) -> PlayerState:
        return with_character(player, Character())

    def personal_pages(self, catalog: Catalog) -> tuple[BookPage, ...]:
        return ability_pages(catalog, self.character)


def rules_of(rules: Ruleset, character: str, side: str) -> CharacterRules:
    """The rules of a character on a side in a game with these rules (the basic side: BASIC)."""
    if side == "basic":
        return BASIC
    try:
        ability: CharacterRules = rules.abilities[character]
    except KeyError:
        raise ValueError(f"no ability rules for {character!r} in this game") from None
    return ability


def rules_for(s: GameState, player: PlayerState) -> CharacterRules:
    """The rules of a seat's character on its side (CHAR-1), from the game's rules."""
    if player.part(Character) is None:
        return BASIC
    ability: CharacterRules = s.rules.abilities.get(player.character, BASIC)
    return ability


def ability_pages(catalog: Catalog, character: str) -> tuple[BookPage, ...]:
    board = catalog.character(character)
    return board.ability.pages if board.ability is not None else ()


def personal_page(s: GameState, player: PlayerState, page_id: str) -> BookPage | None:
    """The seat's personal page `page_id`, if it has one of that id."""
    for page in rules_for(s, player).personal_pages(s.catalog):
        if page.id == page_id:
            return page
    return None

"""Nicolaus Copernicus' ability side (digest §17.3).

- CHAR-COP-1, AMB-28: his personal page: Persuade two different Inquisitors, each up to 2 spaces. The
  `PER2D` effect: `arg` = "<phase>|<at>|<avoid>": phase 1 (the first Inquisitor) or 2 (the second);
  `at` the space of the Inquisitor being moved ("" until one is chosen; "C2", "G1" for a Grand
  Inquisitor); `avoid` the space of the first one (phase 2: the second must be a different one); `n` the
  steps left for the one being moved. Each step is an `InquisitorPersuaded`; `DeclineAbility` stops the
  one being moved (phase 1: the second may still be chosen). What follows each step is its grant.
- CHAR-COP-2, FREE-6: as a free action, once per turn, at no cost, he places one of his 4 library tiles
  (`PlaceLibraryTile` in the Action phase -> `LibraryTilePlaced`).
- CHAR-COP-3: never over a Book token, never sticking out of his library: "they must fit the rows and
  columns of Copernicus' Discovery cards" (CN p.15), so since rules 0.4.0 only on his cards' columns
  (2 and up; before, the printed column 1 counted too) and, AMB-29, strictly right of the Book token in
  every row covered; either face up, never rotated (a tile covers adjacent rows of one column, top to
  bottom as printed). Tiles never overlap (CHAR-COP-4: placed tiles stay).
- CHAR-COP-4: a covered space's reward is the tile's (library rewards, WRT-4).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from domain import commands as c
from domain import events as ev
from domain.catalog import Catalog, Reward
from domain.catalog.model import LibraryTile
from domain.characters import AbilityRules, Character, with_character
from domain.characters.commands import DeclineAbility, PlaceLibraryTile
from domain.characters.events import AbilityDeclined, LibraryTilePlaced
from domain.concepts.inquisition import persuade_check
from domain.editions import RULES_0_4_0, at_least
from domain.effect_kinds import EffectKind
from domain.errors import IllegalMove
from domain.parts import NestedCodec
from domain.resolve import Run
from domain.ruleset import Rules
from domain.state import GameState, Part, PlayerState, Task, replace

RULES = Rules(__name__)  # this module's rules (domain/ruleset.py)

ROWS = 4  # R1..R4 (LIB-3)
RULES.reward_code({"PER2D": Task("PER2D", 2, "1||")})


@dataclass(frozen=True, slots=True)
class CopernicusLibrary(Part):
    """Copernicus' library tiles placed (CHAR-COP-2..4), each (tile, face, column, first row), and the
    turn number in which he last placed one (once per turn). Absent at rest (none placed yet). Written
    in the seat's `"ability"` member as `library` and `placed`, as the released format has it."""

    key: ClassVar[str] = "copernicus"  # written inside "ability" (NestedCodec)

    library: tuple[tuple[str, str, int, int], ...] = ()
    placed: int = -1

    def at_rest(self) -> bool:
        return not self.library and self.placed == -1


NO_TILES = CopernicusLibrary()  # an ability-side Copernicus before his first tile


def library_of(player: PlayerState) -> CopernicusLibrary | None:
    """His library tiles (None: not Copernicus on his ability side); before the first, `NO_TILES`."""
    if player.part(Character) is None:
        return None
    return player.part(CopernicusLibrary) or NO_TILES


def _dump(part: CopernicusLibrary | None, hide: bool) -> dict[str, Any]:
    part = part or NO_TILES
    return {"library": [list(t) for t in part.library], "placed": part.placed}


def _load(data: Any) -> CopernicusLibrary | None:
    library = tuple((str(t), str(f), int(col), int(row)) for t, f, col, row in data["library"])
    part = CopernicusLibrary(library=library, placed=data["placed"])
    return None if part.at_rest() else part


# domain/vocabulary.py
NESTED_PARTS: tuple[NestedCodec, ...] = (NestedCodec(CopernicusLibrary, Character.key, _dump, _load),)


def library_tiles(catalog: Catalog) -> tuple[LibraryTile, ...]:
    ability = catalog.character("copernicus").ability
    return ability.library_tiles if ability is not None else ()


def covering(tile: LibraryTile, face: str, row: int) -> tuple[tuple[int, Reward], ...]:
    """The library rows a tile placed face `face` up from `row` covers, each with the reward it gives
    there: the face's rewards top to bottom, flipped but never rotated (CHAR-COP-3, CHAR-COP-4)."""
    return tuple((row + k, reward) for k, reward in enumerate(tile.faces[face]))


def covered(part: CopernicusLibrary, catalog: Catalog) -> dict[tuple[int, int], Reward]:
    """(row, column) -> the reward of the tile covering it (CHAR-COP-4)."""
    tiles = {t.id: t for t in library_tiles(catalog)}
    out: dict[tuple[int, int], Reward] = {}
    for tile_id, face, column, row in part.library:
        for at, reward in covering(tiles[tile_id], face, row):
            out[(at, column)] = reward
    return out


class Copernicus(AbilityRules):
    ability_of = "copernicus"
    rules = (RULES,)
    character = "copernicus"
    menu_commands = (PlaceLibraryTile,)

    def menu_options(self, s: GameState, seat: int) -> list[c.Command]:
        return library_options(s, seat)

    def menu_check(self, s: GameState, cmd: c.Command) -> IllegalMove | None:
        assert isinstance(cmd, PlaceLibraryTile)
        return library_check(s, cmd)

    def library_reward(self, s: GameState, player: PlayerState, row: int, position: int) -> Reward | None:
        part = player.part(CopernicusLibrary)
        if part is None:  # no tile placed yet
            return None
        return covered(part, s.catalog).get((row, position))

    def react(self, before: GameState, after: GameState, event: Any, tasks: list[Task]) -> list[Task]:
        top = before.agenda[-1] if before.agenda else None
        if top is not None and top.kind == "PER2D" and isinstance(event, ev.InquisitorPersuaded):
            # the page's next step, after the move's own grants
            return [*tasks, *_after_step(before, top, event)]
        return tasks


# -- the library tiles (CHAR-COP-2..4) -------------------------------------------------------------------


def _corrected(s: GameState) -> bool:
    """Rules 0.4.0 (docs/editions.md): only his cards' spaces, strictly right of the Book token (AMB-29)."""
    return at_least(s.engine_version, RULES_0_4_0)


def _first_column(s: GameState) -> int:
    """CHAR-COP-3, AMB-29: "they must fit the rows and columns of Copernicus' Discovery cards" (CN p.15):
    the first card column is 2 (the printed space, column 1, is the player board's). Under rules before
    0.4.0 the printed column counted too."""
    return 2 if _corrected(s) else 1


def _fits(
    s: GameState, p: PlayerState, part: CopernicusLibrary, tile: LibraryTile, column: int, row: int
) -> str:
    """Why `tile` cannot go there ("" if it can): CHAR-COP-3, AMB-29 and CHAR-COP-4."""
    end = 1 + len(p.library)  # WRT-2: the printed column and one per card
    if not (_first_column(s) <= column <= end and row >= 0 and row + tile.rows <= ROWS):
        return "out"
    taken = covered(part, s.catalog)
    for k in range(tile.rows):
        if p.books[row + k] == column:
            return "book"
        if _corrected(s) and column < p.books[row + k]:  # AMB-29: strictly right of the Book token
            return "passed"
        if (row + k, column) in taken:
            return "overlap"
    return ""


def library_options(s: GameState, seat: int) -> list[c.Command]:
    p = s.players[seat]
    part = library_of(p)
    if part is None or part.placed == s.turn.number:  # once per turn
        return []
    placed = {t for t, _, _, _ in part.library}
    out: list[c.Command] = []
    for tile in library_tiles(s.catalog):
        if tile.id in placed:
            continue
        for column in range(_first_column(s), 2 + len(p.library)):
            for row in range(ROWS - tile.rows + 1):
                if not _fits(s, p, part, tile, column, row):
                    for face in sorted(tile.faces):
                        out.append(
                            PlaceLibraryTile(seat=seat, tile=tile.id, face=face, column=column, row=row)
                        )
    return out


def library_check(s: GameState, cmd: PlaceLibraryTile) -> IllegalMove | None:
    p = s.players[cmd.seat]
    part = library_of(p)
    if part is None:
        return IllegalMove(
            "not-your-ability", "only Copernicus on his ability side has library tiles", "CHAR-COP-2"
        )
    if part.placed == s.turn.number:
        return IllegalMove("tile-placed", "one library tile per turn", "CHAR-COP-2")
    tiles = {t.id: t for t in library_tiles(s.catalog)}
    tile = tiles.get(cmd.tile)
    if tile is None:
        return IllegalMove(
            "unknown-tile",
            "no library tile {tile!r}: {tiles}",
            "CHAR-COP-2",
            tile=cmd.tile,
            tiles=", ".join(tiles),
        )
    if cmd.tile in {t for t, _, _, _ in part.library}:
        return IllegalMove(
            "tile-placed", "library tile {tile} is placed already", "CHAR-COP-4", tile=cmd.tile
        )
    if cmd.face not in tile.faces:
        return IllegalMove("bad-face", "a library tile lies face A or face B up", "CHAR-COP-3")
    why = _fits(s, p, part, tile, cmd.column, cmd.row)
    if why == "out":
        if _corrected(s) and cmd.column == 1:
            return IllegalMove(
                "outside-cards",
                "the tile must fit the rows and columns of Copernicus' Discovery cards: column 1 is the "
                "player board's printed space, his cards begin at column 2",
                "CHAR-COP-3",
            )
        return IllegalMove(
            "outside-library", "the tile must lie inside the library's rows and columns", "CHAR-COP-3"
        )
    if why == "passed":
        return IllegalMove(
            "left-of-book-token",
            "a library tile goes strictly right of the Book token in every row it covers",
            "AMB-29",
        )
    if why == "book":
        return IllegalMove("over-book-token", "a library tile never covers a Book token", "CHAR-COP-3")
    if why == "overlap":
        return IllegalMove(
            "over-library-tile", "placed library tiles stay: no tile over another", "CHAR-COP-4"
        )
    return None


@RULES.command(PlaceLibraryTile)
def _place(run: Run, cmd: PlaceLibraryTile, task: Task | None) -> None:
    tile = next(t for t in library_tiles(run.state.catalog) if t.id == cmd.tile)
    run.emit(
        LibraryTilePlaced(
            seat=cmd.seat, tile=cmd.tile, face=cmd.face, column=cmd.column, row=cmd.row, rows=tile.rows
        )
    )


@RULES.event(LibraryTilePlaced)
def _placed(s: GameState, e: LibraryTilePlaced) -> GameState:
    p = s.players[e.seat]
    part = library_of(p)
    if part is None:
        raise ValueError("expected Copernicus on his ability side (CHAR-COP-2)")
    part = CopernicusLibrary(library=(*part.library, (e.tile, e.face, e.column, e.row)), placed=s.turn.number)
    players = list(s.players)
    players[e.seat] = with_character(p, part)
    return replace(s, players=tuple(players))


# -- the personal page: two different Inquisitors, up to 2 spaces each (CHAR-COP-1, AMB-28) ---------------


def _parse(task: Task) -> tuple[str, str, str]:
    phase, at, avoid = task.arg.split("|")
    return phase, at, avoid


def _kind(s: GameState, name: str) -> type[c.Persuade] | None:
    """The kind of Inquisitor of a space's name ("C2"; "G1" for a plug-in's, Luna's Grand Inquisitor)."""
    return next((cls for cls in s.rules.refinements(c.Persuade) if name[:1] == cls.LETTER), None)


def _name(space: int, kind: type[c.Persuade]) -> str:
    return f"{kind.LETTER}{space}"


def _after_step(s: GameState, task: Task, e: ev.InquisitorPersuaded) -> list[Task]:
    phase, _, avoid = _parse(task)
    kind = next(cls for cls in s.rules.refinements(c.Persuade) if type(e) is cls.EVENT)
    at = _name(e.end, kind)
    if task.n > 1:
        return [Task("PER2D", task.n - 1, f"{phase}|{at}|{avoid}", task.source)]  # the same one again
    if phase == "1":
        return [Task("PER2D", 2, f"2||{at}", task.source)]  # now a different one
    return []


def _movable(p: PlayerState, space: int, kind: type[c.Persuade], avoid: str) -> bool:
    figures = kind.figures(p)[space] - (avoid == _name(space, kind))
    return figures > 0 and space < len(p.cellar) - 1


def page_options(s: GameState, task: Task, seat: int) -> list[c.Command]:
    """Each kind of Inquisitor of the game is persuaded by its own command (domain/moves.py)."""
    p = s.players[seat]
    _, at, avoid = _parse(task)
    out: list[c.Command] = []
    if at:
        space, kind = int(at[1:]), _kind(s, at)
        if kind is not None and space < len(p.cellar) - 1 and kind.figures(p)[space]:
            out.append(kind(seat=seat, space=space))
    else:
        for kind in s.rules.refinements(c.Persuade):
            out += [kind(seat=seat, space=i) for i in range(len(p.cellar)) if _movable(p, i, kind, avoid)]
    return [*out, DeclineAbility(seat=seat)] if out else []


def page_check(s: GameState, task: Task, cmd: c.Command) -> IllegalMove | None:
    if isinstance(cmd, DeclineAbility):
        if not page_options(s, task, cmd.seat):
            return IllegalMove("nothing-to-decline", "no Inquisitor can be persuaded", "INQ-11")
        return None
    if not isinstance(cmd, c.Persuade):
        return IllegalMove("pending-decision", "first persuade an Inquisitor (or stop)", "RES-1")
    base = persuade_check(s, cmd, "CHAR-COP-1")
    if base is not None:
        return base
    _, at, avoid = _parse(task)
    here = _name(cmd.space, type(cmd))
    if at and here != at:
        return IllegalMove(
            "same-inquisitor", "move the same Inquisitor on (now on {at}) or stop", "CHAR-COP-1", at=at
        )
    if not at and not _movable(s.players[cmd.seat], cmd.space, type(cmd), avoid):
        return IllegalMove("different-inquisitor", "the second Inquisitor must be a different one", "AMB-28")
    return None


RULES.effect(
    EffectKind(
        "PER2D",
        "persuade two different Inquisitors up to 2 spaces each (Copernicus' page)",
        __name__,
        (c.Persuade, DeclineAbility),
        page_options,
        page_check,
        ("no Inquisitor in the cellar can be persuaded", "INQ-11"),
    )
)
RULES.resolve(ev.InquisitorPersuaded, "PER2D")


def _declined(before: GameState, task: Task) -> list[Task]:
    phase, at, _ = _parse(task)
    if phase == "1" and at:  # AMB-28: the first one stops; a different one may still move 2 spaces
        return [Task("PER2D", 2, f"2||{at}", task.source)]
    return []


RULES.decline("PER2D", "CHAR-COP-1", _declined)
RULES.resolve(AbilityDeclined, "PER2D")

"""Commands and events in words, for people: the web pages, `galileo log` and `galileo explain`.

The describer reads the public JSON forms only: an event as `event_to_dict` / `redact_event` give it
(so a viewer's text never says more than the viewer may see), a command as `command_to_dict` gives it,
and, for commands, the position as `public_state` gives it (docs/state.md). Component names and values
come from the catalog (docs/catalog.md); the words follow the rules digest.

Every event class in `domain.EVENT_TYPES` and every command class in `domain.vocabulary.COMMAND_TYPES` has
an entry in `EVENT_TEXT` / `COMMAND_TEXT` (tests/projections/test_describe.py checks it), so a new one
cannot be added without its words. A describer never fails on a well-formed item: a value it cannot
resolve (an unknown card id, a missing field of a redacted event) is shown as it is.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from domain import command_to_dict, parse_command
from domain.abilities.newton import multiplier
from domain.catalog import load_catalog
from domain.catalog.model import Catalog
from domain.catalog.names import component_name
from domain.characters.copernicus import covering
from domain.commands import ROWS  # the library rows' names, as commands write them
from domain.effects import base_code, task_count
from domain.expansions.plugins import every_plugin
from domain.state import SKY, Task
from projections.i18n import N_, Words, words

ENGLISH = words("en")

COLOUR_NAMES = {"R": N_("red"), "Y": N_("yellow"), "B": N_("blue")}
CELLAR = ("C1", "C2", "C3", "C4")
MOON_TILES = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX")
FIXED_ACTIONS = {
    "die": N_("gain a die"),
    "lecture": N_("give a Lecture"),
    "spot": N_("spot a comet"),
    "upgrade": N_("upgrade an Action tile"),
    "observe": N_("observe"),
}
FREE_ACTIONS = {
    "recolour": N_("recolour a die"),
    "raise": N_("raise a die by 1"),
    "die": N_("gain a die"),
    "write": N_("write 1"),
    "persuade": N_("persuade an Inquisitor"),
    "spot": N_("spot a comet"),
}
SIMPLE_CODES = {
    "Q": N_("a Quadrant"),
    "PER": N_("persuade"),
    "DIE": N_("a die"),
    "LEC": N_("a Lecture"),
    "INQ": N_("an Inquisitor"),
    "FW": N_("an Inquisitor's Farewell"),
    "CARD": N_("a face-down card"),
    "WC": N_("complete writing"),
    "UPG": N_("upgrade a tile"),
    "SPOT": N_("spot a comet"),
    "OBS": N_("observe"),
    "REREAD": N_("regain a library row's rewards"),
    "ANYTILE": N_("the moving action of any Action tile"),
    "SWAP": N_("swap two Action tiles"),
    "RELOCATE": N_("move the telescope to any space"),
    "ADVANCE": N_("advance an Inquisitor"),
    "PER2D": N_("persuade two different Inquisitors up to 2 spaces each"),
    "KSWAP:board": N_("swap two tiles of the player board"),
    "KSWAP:aside": N_("swap the character-board tile with a player-board tile"),
    "BOOKVP": N_("VP for the Book tokens"),
    "SCALEREWARDS": N_("collect Scale rewards"),
    "NSHIFT": N_("move a special tile up to 2 positions forward"),
    "NVP": N_("2 VP times the higher special tile's multiplier"),
    "FOCUS": N_("Focus (the round token onto the increase's colour)"),
    "FOCUSANY": N_("Focus (the round token onto any colour)"),
    "MOVE1": N_("the square token 1 space on"),
    "MOVE2": N_("the square token 2 spaces on"),
    "MOVE3": N_("the square token 3 spaces on"),
}
# Agenda task kinds (docs/state.md, "Agenda") that are not reward codes: named in EffectLost / BonusDeclined.
TASK_NAMES = {
    "VP": N_("victory points"),
    "INC": N_("raising dice of a colour"),
    "REFILL": N_("refilling the display"),
    "COMPLETE": N_("complete writing"),
    "RAISE": N_("raising a die"),
    "RECOLOUR": N_("recolouring a die"),
    "WRITE": N_("writing"),
    "OBSERVE": N_("another observation"),
    "BOOK": N_("a Book of Comets page"),
    "SCORING": N_("a Scoring tile"),
    "GRAND": N_("a Grand Inquisitor"),
    "BONUS": N_("a Bonus Board reward"),
    "ROTATE": N_("rotating the Action tiles"),
    "DEPART": N_("a Grand Inquisitor's departure"),
    "FREEOBS": N_("a free observation"),
    "FIXEDAT": N_("the fixed action of the new space"),
    "OPTINQ": N_("an Inquisitor"),
    "MOONOBJ": N_("the Moon objective"),
    "CELLAR": N_("the reward of a cellar space"),
    "KSWAP": N_("Kepler's tile swap"),
    "PER2D": N_("persuading two different Inquisitors"),
    "CUNPAGE": N_("choosing the next part of a personal page"),
}
# A rule ID inside component text ("(AMB-16)", "(p ≥ 3, AMB-17)"): the catalog notes which rule settles a
# wording; the words a player reads leave it out (the history links the event's rule beside its text).
_RULE_ID = re.compile(r",?\s*\b[A-Z]{2,5}(?:-[A-Z]{2,4})?-\d+(?:\.\d+)?[a-z]?\b")
_PARENS = re.compile(r"\s*\(([^()]*)\)")


def without_rule_ids(words: str) -> str:
    """Component text without the rule IDs noted in it (the same as svg.js `withoutRuleIds`)."""

    def keep(m: re.Match[str]) -> str:
        inside = _RULE_ID.sub("", m[1]).lstrip(",; ").strip()
        return f" ({inside})" if inside else ""

    return _PARENS.sub(keep, words).strip()


def colour_name(code: str, w: Words = ENGLISH) -> str:
    return w(COLOUR_NAMES[code]) if code in COLOUR_NAMES else code


def die_text(die: Sequence[Any], w: Words = ENGLISH) -> str:
    """`["R", 5]` as "red 5"."""
    return f"{colour_name(str(die[0]), w)} {die[1]}" if len(die) == 2 else str(die)


def dice_text(dice: Sequence[Sequence[Any]], w: Words = ENGLISH) -> str:
    return " + ".join(die_text(d, w) for d in dice) if dice else w("no dice")


def code_text(code: str, w: Words = ENGLISH) -> str:
    """One reward code (docs/catalog.md, "Reward codes") in words."""
    if code in SIMPLE_CODES:
        return w(SIMPLE_CODES[code])
    if code in TASK_NAMES:
        return w(TASK_NAMES[code])
    task = base_code(code) or _plugin_codes().get(code)  # the engine's reading (domain/effects.py)
    if task is None:
        return code
    kind, n = task.kind, task.n
    if kind == "VP":
        return w("{vp} VP", vp=n)
    if kind == "Q":
        return w("{q} Quadrants", q=n)
    if kind == "PER":
        return w("persuade {per} times", per=n)
    if kind == "INC":
        return w("all {colour_name} dice +{value}", colour_name=colour_name(task.arg, w), value=n)
    if kind == "RAISE":
        return w("one die +{amount}", amount=n)
    if kind == "WRITE":
        return w("write {write}", write=n)
    if kind == "DIE":  # Luna's Bonus Board: a die of the value printed (DIE@2, DIE@5)
        return w("a die at {at}", at=n)
    if kind == "FREEOBS":  # Luna's Bonus Board (FREEOBS:4)
        return w("observe a constellation of cost {free} or less for free", free=n)
    return code


@cache
def _plugin_codes() -> Mapping[str, Task]:
    """The reward codes the plug-ins print besides the base game's (Luna's, the characters'), each with
    the task it stands for."""
    return every_plugin().reward_codes


def reward_text(reward: Sequence[str], w: Words = ENGLISH) -> str:
    """A reward (a list of codes) in words; an empty one is "nothing"."""
    words = [code_text(c, w) for c in reward]
    if not words:
        return w("nothing")
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + w(" and ") + words[-1]


def plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


@dataclass(frozen=True)
class Context:
    """What the describer may look up: the catalog, and for commands the position (`public_state` JSON)
    in which they are offered."""

    catalog: Catalog
    state: Mapping[str, Any] | None = None
    names: tuple[str, ...] = ()  # the seats' names, when the caller knows them (the end of a game)
    # For a command: the events the engine produces for it, as far as its mover may be told (the
    # preview's `events`, projections/preview.py): what it grants and where it lands is read there.
    told: tuple[Mapping[str, Any], ...] = ()

    def told_event(self, type_name: str) -> Mapping[str, Any] | None:
        return next((e for e in self.told if e.get("type") == type_name), None)

    locale: str = "en"  # the language of the words (projections/i18n): "en", "ja", "zh-Hans"...

    @property
    def w(self) -> Words:
        """The words of this context's language: `c.w("Gained {n}", n=2)`, `c.w.n(one, many, n)`."""
        return words(self.locale)

    def name(self, kind: str, id: Any) -> str:
        """A component's printed name in this context's language (domain.catalog.names)."""
        return component_name(kind, str(id), self.locale)

    def seat_name(self, seat: Any) -> str:
        i = int(seat) if isinstance(seat, int) else -1
        if 0 <= i < len(self.names):
            return self.names[i]
        p = self.player(i) if self.state is not None else None
        return str(p.get("name")) if p is not None and p.get("name") else self.w("seat {seat}", seat=seat)

    # -- lookups that never fail --------------------------------------------------------------------

    def card_name(self, card_id: Any) -> str:
        card_id = str(card_id)
        if card_id.startswith("hidden:"):
            return self.w("a face-down tier {card_id} card", card_id=card_id[7:])
        card = self.catalog.cards.get(card_id)
        if card is None:
            return str(card_id)
        major = card.major
        return f"{self.name('major', major.name)} ({major.mix} {major.cost})"

    def major_reward(self, card_id: str) -> str:
        card = self.catalog.cards.get(card_id)
        if card is None:
            return ""
        if card.major.inquisitor:
            return self.w("{vp} VP and an Inquisitor", vp=card.major.vp)
        return self.w("{vp} VP", vp=card.major.vp)

    def constellation(self, card_id: str, index: int) -> str:
        card = self.catalog.cards.get(card_id)
        if card is None or not 0 <= index < len(card.constellations):
            return self.w("constellation {index} of {card_id}", index=index + 1, card_id=card_id)
        c = card.constellations[index]
        return f"{self.name('constellation', c.name)} ({colour_name(c.colour)} {c.cost})"

    def constellation_reward(self, card_id: str, index: int) -> str:
        card = self.catalog.cards.get(card_id)
        if card is None or not 0 <= index < len(card.constellations):
            return ""
        return reward_text(card.constellations[index].reward, self.w)

    def tile(self, tile_id: Any) -> Any:
        found: Any = next((t for t in self.catalog.action_tiles if t.id == tile_id), None)
        if found is None:  # a character's own tile (Kepler's, CHAR-KEP-1)
            abilities = (b.ability for b in self.catalog.characters if b.ability is not None)
            found = next((a.tile for a in abilities if a.tile is not None and a.tile.id == tile_id), None)
        luna = self.catalog.luna_characters
        if found is None and luna is not None:  # Newton's and Cunitz' tiles (CHAR-NEW-1, CHAR-CUN-1)
            found = next((t for t in (*luna.newton_tiles, *luna.cunitz_tiles) if t.id == tile_id), None)
        return found

    def mirror_times(self, event: Mapping[str, Any]) -> int | None:
        """How many times the engine gave the bonus of Newton's special tile in `event` (a moving or
        bonus action: its grants, CHAR-NEW-2); None for any other tile, or grants unknown."""
        t = self.tile(event.get("tile"))
        grants = event.get("grants")
        if not getattr(t, "mirror", False) or grants is None:
            return None
        face = t.upgraded if event.get("upgraded") else t.basic
        each = task_count(face[0]) or 1
        return sum(1 for g in grants if len(g) > 3 and g[3] == "action-tile") // each

    def library_tile(self, tile_id: Any) -> Any:
        """Copernicus' library tile `tile_id` (CHAR-COP-2), or None."""
        for board in self.catalog.characters:
            if board.ability is not None:
                for t in board.ability.library_tiles:
                    if t.id == tile_id:
                        return t
        return None

    def cellar_size(self, seat: int) -> int:
        p = self.player(seat)
        return len(p.get("cellar") or CELLAR) if p is not None else len(CELLAR)

    def tile_name(self, tile_id: Any) -> str:
        t = self.tile(tile_id)
        return (
            self.w("the {name} tile", name=self.name("action_tile", t.id))
            if t is not None
            else self.w("tile {tile_id}", tile_id=tile_id)
        )

    def tile_option(self, tile_id: Any, option: int, upgraded: bool) -> str:
        t = self.tile(tile_id)
        if t is None or option not in (1, 2):
            return ""
        face = t.upgraded if upgraded else t.basic
        return reward_text(
            face[min(option, len(face)) - 1], self.w
        )  # a mirror's one option is both (DATA-15)

    def objective(self, objective_id: Any) -> str:
        if objective_id == "MOON":
            return self.w("the Moon objective")
        o = self.catalog.objectives.get(str(objective_id))
        if o is None:
            return str(objective_id)
        return f"{objective_id} ({without_rule_ids(self.name('objective', objective_id))})"

    def page(self, page_id: Any) -> str:
        if page_id == "appendix":
            return self.w("the Appendix ({appendix_vp} VP)", appendix_vp=self.catalog.appendix_vp)
        page = next((p for p in self.catalog.book_pages if p.id == page_id), None)
        if page is None:  # a personal page (CHAR-3)
            abilities = (b.ability for b in self.catalog.characters if b.ability is not None)
            page = next((p for a in abilities for p in a.pages if p.id == page_id), None)
            if page is not None:
                return self.w(
                    "personal page {page_id} ({reward_text})",
                    page_id=page_id,
                    reward_text=reward_text(page.reward, self.w),
                )
        return (
            self.w(
                "page {page_id} ({reward_text})",
                page_id=page_id,
                reward_text=reward_text(page.reward, self.w),
            )
            if page is not None
            else self.w("page {page_id}", page_id=page_id)
        )

    def scale(self, slot: int) -> str:
        """A Scale slot (0..3) named by its subject when the position is known."""
        if self.state is not None:
            subjects = self.state.get("subjects") or []
            scale = self.state.get("scale") or []
            if 0 <= slot < len(scale):
                subject = subjects[slot] if slot < len(subjects) else ""
                theme = next(
                    (self.name("subject", t.id) for t in self.catalog.subject_tiles if t.arch == subject),
                    subject,
                )
                return self.w(
                    "Scale tile {slot} ({theme}{scale})",
                    slot=slot + 1,
                    theme=theme + ", " if theme else "",
                    scale=scale[slot],
                )
        return self.w("Scale tile {slot}", slot=slot + 1)

    def player(self, seat: int) -> Mapping[str, Any] | None:
        if self.state is None:
            return None
        players = self.state.get("players") or []
        return players[seat] if 0 <= seat < len(players) else None


def default_context(state: Mapping[str, Any] | None = None, locale: str = "en") -> Context:
    """A context with the catalog a state names (the default edition without one), in `locale`."""
    edition = "base"
    if state is not None:
        edition = str((state.get("catalog") or {}).get("edition") or "base")
    return Context(_catalog(edition), state, locale=locale)


@lru_cache(maxsize=64)
def _catalog(edition: str) -> Catalog:
    # Memoised by name (bounded: an edition name comes from stored data): every described event asks
    # for one, and `load_catalog` resolves the name against the shipped edition folders on each call.
    # The editions a build ships never change while it runs.
    try:
        return load_catalog(edition)
    except (KeyError, ValueError, OSError):
        return load_catalog()


# -- events ----------------------------------------------------------------------------------------

EventText = Callable[[Mapping[str, Any], Context], str]


def _comets(e: Mapping[str, Any], w: Words) -> str:
    comets = e.get("comets") or []
    return w(" and {count}", count=w.n("{n} comet", "{n} comets", len(comets))) if comets else ""


def _observed(e: Mapping[str, Any], c: Context) -> str:
    card = str(e.get("card", ""))
    return c.w(
        "Observed {card_name} paying {dice_text}{comets} (cost {cost}): {major_reward}",
        card_name=c.card_name(card),
        dice_text=dice_text(e.get("dice") or [], c.w),
        comets=_comets(e, c.w),
        cost=e.get("cost"),
        major_reward=c.major_reward(card),
    )


def _constellation(e: Mapping[str, Any], c: Context) -> str:
    card, index = str(e.get("card", "")), int(e.get("index", 0))
    slot = int(e.get("slot", 0))
    slot_reward = (
        c.catalog.constellation_slots[slot] if 0 <= slot < len(c.catalog.constellation_slots) else ()
    )
    return c.w(
        "Observed {constellation} on {card_name} paying {dice_text}{comets}: {constellation_reward};"
        " Constellation token {slot} off the board gives {reward_text}",
        constellation=c.constellation(card, index),
        card_name=c.card_name(card),
        dice_text=dice_text(e.get("dice") or [], c.w),
        comets=_comets(e, c.w),
        constellation_reward=c.constellation_reward(card, index),
        slot=slot + 1,
        reward_text=reward_text(slot_reward, c.w),
    )


def _face_down(e: Mapping[str, Any], c: Context) -> str:
    source = c.w("the reserve") if e.get("from_reserve") else c.w("the deck")
    if "card" in e:
        return c.w(
            "Took {card_name} face down from {source} into the library",
            card_name=c.card_name(e["card"]),
            source=source,
        )
    return c.w(
        "Took a face-down tier {tier} card from {source} into the library", tier=e.get("tier"), source=source
    )


def _points(e: Mapping[str, Any], c: Context) -> str:
    n = int(e.get("points", 0))
    verb = c.w("Scored") if n >= 0 else c.w("Lost")
    return c.w("{verb} {points} VP ({source})", verb=verb, points=abs(n), source=e.get("source"))


def _game_started(e: Mapping[str, Any], c: Context) -> str:
    seats = e.get("seats") or []
    names = ", ".join(f"{name} ({c.name('character', character)})" for name, character in seats)
    if (e.get("options") or {}).get("luna"):
        return c.w(
            "The game began with Luna: {names}; seat {first_seat} starts",
            names=names,
            first_seat=e.get("first_seat"),
        )
    return c.w(
        "The game began: {names}; seat {first_seat} starts", names=names, first_seat=e.get("first_seat")
    )


def _game_ended(e: Mapping[str, Any], c: Context) -> str:
    scores = ", ".join(f"{c.seat_name(i)} {s}" for i, s in enumerate(e.get("scores") or []))
    winners = " and ".join(c.seat_name(w) for w in e.get("winners") or [])
    return c.w(
        "The game ended ({scores}); won by {winners}; the deal is revealed", scores=scores, winners=winners
    )


def _moving(e: Mapping[str, Any], c: Context) -> str:
    if not e.get("tile"):
        return c.w("Took a Quadrant at U instead of a moving action")
    option = int(e.get("option", 0))
    face = c.w("upgraded") if e.get("upgraded") else c.w("basic")
    reward = c.tile_option(e["tile"], option, bool(e.get("upgraded")))
    return c.w(
        "Used {tile_name} ({face}), option {option}: {reward}{times}",
        tile_name=c.tile_name(e["tile"]),
        face=face,
        option=option,
        reward=reward,
        times=_times(e, c),
    )


def _times(e: Mapping[str, Any], c: Context) -> str:
    """A special tile's bonus: as many times as the event granted it (CHAR-NEW-2)."""
    times = c.mirror_times(e)
    return "" if times is None else c.w(", {count}", count=c.w.n("{n} time", "{n} times", times))


def _bonus_action(e: Mapping[str, Any], c: Context) -> str:
    option = int(e.get("option", 0))
    reward = c.tile_option(e.get("tile"), option, bool(e.get("upgraded")))
    return c.w(
        "Used {tile_name} as a bonus, option {option}: {reward}{times}",
        tile_name=c.tile_name(e.get("tile")),
        option=option,
        reward=reward,
        times=_times(e, c),
    )


def _persuaded(e: Mapping[str, Any], c: Context) -> str:
    what = c.w("a Grand Inquisitor") if e.get("grand") else c.w("an Inquisitor")
    start, end = int(e.get("start", 0)), int(e.get("end", 0))
    where = CELLAR[end] if 0 <= end < 4 else c.w("out of the cellar")
    src = CELLAR[start] if 0 <= start < 4 else str(start)
    return c.w("Persuaded {what} from {src} to {where}", what=what, src=src, where=where)


def _interrogation(e: Mapping[str, Any], c: Context) -> str:
    text = c.w(
        "Interrogated with {count}: reputation {start} → {end}",
        count=c.w.n("{n} Inquisitor", "{n} Inquisitors", int(e.get("total", 0))),
        start=e.get("start"),
        end=e.get("end"),
    )
    overflow = int(e.get("overflow", 0))
    if overflow:
        text += c.w(" ({overflow:+d} VP at the end of the track)", overflow=overflow)
    return text


def _book_token(e: Mapping[str, Any], c: Context) -> str:
    row = int(e.get("row", 0))
    name = ROWS[row] if 0 <= row < 4 else row
    return c.w(
        "Moved the {name} Book token from space {start} to {end}",
        name=name,
        start=e.get("start"),
        end=e.get("end"),
    )


def _scoring_tile(e: Mapping[str, Any], c: Context) -> str:
    tile = next((t for t in c.catalog.luna.scoring_tiles if t.id == e.get("tile")), None)
    name = c.name("scoring_tile", tile.id) if tile is not None else str(e.get("tile"))
    points = ", ".join(f"{c.seat_name(i)}: {p}" for i, p in enumerate(e.get("points") or []))
    return c.w("Scoring tile {name} scored ({points})", name=name, points=points)


def _moon(e: Mapping[str, Any], c: Context) -> str:
    tile = next((t for t in c.catalog.luna.moon_tiles if t.id == e.get("tile")), None)
    reward = f": {reward_text(tile.reward)}" if tile is not None else ""
    return c.w(
        "Observed the Moon on tile {tile} paying {dice_text}{comets} (cost {cost}){reward}",
        tile=e.get("tile"),
        dice_text=dice_text(e.get("dice") or [], c.w),
        comets=_comets(e, c.w),
        cost=e.get("cost"),
        reward=reward,
    )


def _bonus_reward(e: Mapping[str, Any], c: Context) -> str:
    space = int(e.get("space", 0))
    spaces = c.catalog.luna.bonus_boards.get(str(e.get("side")), ())
    reward = (
        reward_text(spaces[space - 1].reward, c.w)
        if 1 <= space <= len(spaces)
        else c.w("space {space}", space=space)
    )
    lost = c.w(" (lost: it cannot be used)") if e.get("lost") else ""
    return c.w(
        "Took the Bonus Board reward of space {space}: {reward}{lost}", space=space, reward=reward, lost=lost
    )


def _sky(index: Any) -> str:
    i = int(index) if isinstance(index, int) else -1
    return SKY[i] if 0 <= i < len(SKY) else str(index)


def _policy(e: Mapping[str, Any], w: Words) -> str:
    return w("a bot takes the seat over") if e.get("policy") == "bot" else w("the seat forfeits")


def _handed(e: Mapping[str, Any], c: Context) -> str:
    to = (
        c.w("a {bot} bot", bot=e.get("bot") or "bot")
        if e.get("to") == "bot"
        else str(e.get("to") or "someone")
    )
    if e.get("to") == "person":
        to = "a new person"
    why = {"time": " (time ran out)", "resigned": " (resigned)", "host": " by the host"}.get(
        str(e.get("reason") or ""), ""
    )
    return c.w("The seat was handed to {to}{why}", to=to, why=why)


def _takeback_closed(e: Mapping[str, Any], c: Context) -> str:
    why = {"resigned": "resigned", "time": "ran out of time", "host": "was handed over by the host"}.get(
        str(e.get("reason") or ""), "was handed over"
    )
    return c.w("The take-back request was closed: seat {by_seat} {why}", by_seat=e.get("by_seat"), why=why)


def _takeback_answered(e: Mapping[str, Any], c: Context) -> str:
    return c.w("Accepted the take-back") if e.get("accepted") else c.w("Declined the take-back")


# The table's events (docs/async.md): service rules ASYNC-n, not moves of the game.
TABLE_TEXT: Mapping[str, EventText] = {
    "TimeExpired": lambda e, c: c.w(
        "Ran out of time at {deadline}: {policy}", deadline=e.get("deadline"), policy=_policy(e, c.w)
    ),
    "SeatResigned": lambda e, c: c.w("Resigned: {policy}", policy=_policy(e, c.w)),
    "SeatHandedOver": _handed,
    "SeatFrozen": lambda e, c: c.w("The seat's score is frozen and its turns are skipped from now on"),
    "ClockPauseRequested": lambda e, c: c.w("Asked to pause the clocks"),
    "ClockPaused": lambda e, c: c.w("Every person agreed: the clocks are paused"),
    "ClockResumed": lambda e, c: (
        c.w("The host restarted the clocks")
        if e.get("by") == "host"
        else c.w("Seat {by} restarted the clocks", by=e.get("by"))
    ),
    "ClockExtended": lambda e, c: c.w(
        "The host gave the seat {count} more",
        count=c.w.n("{n} second", "{n} seconds", int(e.get("seconds", 0))),
    ),
    "TakeBackRequested": lambda e, c: c.w(
        "Asked to take back to version {to_version} (open until {expires_at})",
        to_version=e.get("to_version"),
        expires_at=e.get("expires_at"),
    ),
    "TakeBackAnswered": _takeback_answered,
    "TakenBack": lambda e, c: c.w(
        "Took back the game to version {to_version}", to_version=e.get("to_version")
    ),
    "TakeBackClosed": _takeback_closed,
    "SeatLinkReissued": lambda e, c: c.w(
        "The host re-issued the seat's link: its old link no longer opens it"
    ),
    "GameCancelled": lambda e, c: c.w("The host cancelled the game"),
    # People (docs/accounts.md): service rules ACCT-n.
    "SeatClaimed": lambda e, c: c.w("The seat was attached to its player's account"),
    "SeatInvited": lambda e, c: c.w("The host invited an account to the seat"),
    "SeatRecovered": lambda e, c: c.w("The seat was opened on another device: its old link stopped working"),
}


EVENT_TEXT: Mapping[str, EventText] = {
    "GameStarted": _game_started,
    "GameForked": lambda e, c: c.w(
        "Forked from game {source_game} at version {source_version}; the unseen cards were dealt again",
        source_game=str(e.get("source_game", ""))[:8],
        source_version=e.get("source_version"),
    ),
    "EndOfGameTriggered": lambda e, c: c.w(
        "Triggered the end of the game: the last turn is turn {last_turn}",
        last_turn=int(e.get("last_turn", 0)) + 1,
    ),
    "TurnEnded": lambda e, c: c.w("Ended turn {turn}", turn=int(e.get("turn", 0)) + 1),
    "GameEnded": _game_ended,
    "TelescopeMoved": lambda e, c: (
        c.w(
            "Moved the telescope {count} from {sky} to {sky2}",
            count=c.w.n("{n} step", "{n} steps", int(e.get("steps", 0))),
            sky=_sky(e.get("start")),
            sky2=_sky(e.get("end")),
        )
        + (c.w(" (round past U)") if e.get("wrapped") else "")
    ),
    "FixedActionTaken": lambda e, c: c.w(
        "Took the fixed action of {space}: {action}",
        space=e.get("space"),
        action=c.w(FIXED_ACTIONS.get(str(e.get("action")), str(e.get("action")))),
    ),
    "MovingActionTaken": _moving,
    "FreeActionBought": lambda e, c: c.w(
        "Paid {count} to {action}",
        count=c.w.n("{n} Quadrant", "{n} Quadrants", int(e.get("cost", 0))),
        action=c.w(FREE_ACTIONS.get(str(e.get("action")), str(e.get("action")))),
    ),
    "ActionPhaseEnded": lambda e, c: c.w("Ended the action phase"),
    "FreeActionsClosed": lambda e, c: c.w("Closed the free-action window"),
    "MajorObjectObserved": _observed,
    "ConstellationObserved": _constellation,
    "ObservationEnded": lambda e, c: c.w("Stopped observing"),
    "CardDealt": lambda e, c: (
        c.w(
            "{card_name} was dealt to Discovery space {space} from the reserve",
            card_name=c.card_name(e.get("card")),
            space=int(e.get("space", 0)) + 1,
        )
        if e.get("from_reserve")
        else c.w(
            "{card_name} was dealt to Discovery space {space}",
            card_name=c.card_name(e.get("card")),
            space=int(e.get("space", 0)) + 1,
        )
    ),
    "CardDrawnFaceDown": _face_down,
    "VictoryPointsScored": _points,
    "QuadrantsGained": lambda e, c: c.w(
        "Gained {count}", count=c.w.n("{n} Quadrant", "{n} Quadrants", int(e.get("amount", 0)))
    ),
    "DieGained": lambda e, c: (
        c.w("Gained a {die_text} die", die_text=die_text([e.get("colour"), e.get("value")], c.w))
        if not e.get("returned")
        else c.w(
            "Gained a {die_text} die, returning {returned}",
            die_text=die_text([e.get("colour"), e.get("value")], c.w),
            returned=die_text(e["returned"], c.w),
        )
    ),
    "DieGainDeclined": lambda e, c: c.w("Declined the die"),
    "DiceRaised": lambda e, c: c.w(
        "Raised all {colour_name} dice by {amount}",
        colour_name=colour_name(str(e.get("colour")), c.w),
        amount=e.get("amount"),
    ),
    "DieRaised": lambda e, c: c.w(
        "Raised the {die_text} die by {amount}",
        die_text=die_text(e.get("die") or [], c.w),
        amount=e.get("amount"),
    ),
    "DieRecoloured": lambda e, c: c.w(
        "Turned the {die_text} die {colour_name}",
        die_text=die_text(e.get("die") or [], c.w),
        colour_name=colour_name(str(e.get("colour")), c.w),
    ),
    "InquisitorGained": lambda e, c: c.w("Gained an Inquisitor (into C1)"),
    "InquisitorPersuaded": _persuaded,
    "FarewellTaken": lambda e, c: c.w("Took an Inquisitor's Farewell"),
    "FarewellDeclined": lambda e, c: c.w("Declined the Farewell"),
    "LectureGiven": lambda e, c: c.w(
        "Lectured at {scale}: University token to row {height}",
        scale=c.scale(int(e.get("tile", 0))),
        height=e.get("height"),
    ),
    "CometSpotted": lambda e, c: c.w("Spotted comet {comet}", comet=int(e.get("comet", 0)) + 1),
    "TileUpgraded": lambda e, c: c.w("Upgraded {tile_name}", tile_name=c.tile_name(e.get("tile"))),
    "BookTokenMoved": _book_token,
    "CompleteWritingStarted": lambda e, c: c.w(
        "Began complete writing on {row} up to space {target}",
        row=ROWS[int(e.get("row", 0))],
        target=e.get("target"),
    ),
    "WritingStopped": lambda e, c: c.w(
        "Stopped writing ({count} unused)", count=c.w.n("{n} step", "{n} steps", int(e.get("unused", 0)))
    ),
    "EffectLost": lambda e, c: c.w(
        "Lost {code_text}: {reason}", code_text=code_text(str(e.get("effect")), c.w), reason=e.get("reason")
    ),
    "ActionTilesRotated": lambda e, c: c.w(
        "Rotated the Action tiles: {tile_name} to the start of the queue",
        tile_name=c.tile_name(e.get("tile")),
    ),
    "CometPlacedInBook": lambda e, c: c.w(
        "Placed comet {comet} in the Book of Comets on {page}",
        comet=int(e.get("comet", 0)) + 1,
        page=c.page(e.get("page")),
    ),
    "InterrogationHeld": _interrogation,
    "ObjectivesChecked": lambda e, c: (
        c.w("Met {objectives}", objectives=", ".join(str(o) for o in e.get("met") or []))
        if e.get("met")
        else c.w("Met no objective")
    ),
    "ObjectiveAchieved": lambda e, c: (
        c.w(
            "Claimed {objective} first: {objective_first_vp} VP",
            objective=c.objective(e.get("objective")),
            objective_first_vp=c.catalog.objective_first_vp,
        )
        if e.get("first")
        else c.w(
            "Claimed {objective}: {objective_later_vp} VP",
            objective=c.objective(e.get("objective")),
            objective_later_vp=c.catalog.objective_later_vp,
        )
    ),
    "MoonObserved": _moon,
    "MoonPhaseAdvanced": lambda e, c: c.w(
        "The Moon reached phase {phase}: Scoring tiles {revealed} turned up",
        phase=e.get("phase"),
        revealed=", ".join(e.get("revealed") or []) or "none",
    ),
    "ScoringTileScored": _scoring_tile,
    "GrandInquisitorGained": lambda e, c: c.w(
        "Gained a Grand Inquisitor (Moon tile {tile})", tile=e.get("tile")
    ),
    "GrandInquisitorDeparted": lambda e, c: c.w(
        "A Grand Inquisitor left for Bonus Board space {space}", space=e.get("space")
    ),
    "BonusBoardRewardTaken": _bonus_reward,
    "MoonObjectiveAchieved": lambda e, c: (
        c.w("Claimed the Moon objective: ")
        + (
            c.w("{objective_vp} VP", objective_vp=c.catalog.luna.objective_vp)
            if e.get("choice") == "vp"
            else c.w(
                "{objective_quadrants} Quadrants", objective_quadrants=c.catalog.luna.objective_quadrants
            )
        )
    ),
    "TelescopeRelocated": lambda e, c: c.w(
        "Relocated the telescope from {sky} to {sky2}", sky=_sky(e.get("start")), sky2=_sky(e.get("end"))
    ),
    "ActionTilesSwapped": lambda e, c: c.w(
        "Swapped {tile_name} and {tile_name2}",
        tile_name=c.tile_name(e.get("first")),
        tile_name2=c.tile_name(e.get("second")),
    ),
    "LibraryRewardsRegained": lambda e, c: c.w(
        "Regained the rewards of {ROWS} up to space {position}",
        ROWS=ROWS[int(e.get("row", 0))],
        position=e.get("position"),
    ),
    "BonusActionTaken": _bonus_action,
    "ScaleRewardCollected": lambda e, c: c.w(
        "Collected the row {height} reward of {scale}",
        height=e.get("height"),
        scale=c.scale(int(e.get("tile", 0))),
    ),
    "BonusDeclined": lambda e, c: c.w("Declined {code_text}", code_text=code_text(str(e.get("effect")), c.w)),
    # the characters' abilities (digest §17, domain/characters/)
    "CellarRewardGained": lambda e, c: c.w(
        "An Inquisitor reached cellar space C{space}: {reward_text} (Bruno's cellar tile)",
        space=int(e.get("space", 0)) + 1,
        reward_text=reward_text(e.get("reward") or [], c.w),
    ),
    "LibraryTilePlaced": lambda e, c: (
        c.w(
            "Placed library tile {tile} face {face} on library column {column}, {ROWS}",
            tile=e.get("tile"),
            face=e.get("face"),
            column=e.get("column"),
            ROWS=ROWS[int(e.get("row", 0))],
        )
        + (f"-{ROWS[int(e.get('row', 0)) + int(e.get('rows', 1)) - 1]}" if int(e.get("rows", 1)) > 1 else "")
    ),
    "KeplerTilesSwapped": lambda e, c: (
        c.w(
            "Swapped {tile_name} and {tile_name2}",
            tile_name=c.tile_name(e.get("first")),
            tile_name2=c.tile_name(e.get("second")),
        )
        + (
            c.w("; {tile_name} is on his character board", tile_name=c.tile_name(e.get("aside")))
            if e.get("aside")
            else ""
        )
    ),
    "AbilityDeclined": lambda e, c: c.w(
        "Did not use {code_text}", code_text=code_text(str(e.get("effect")), c.w)
    ),
    # the solo opponent Tycho Brahe (rules-addendum "The solo game", SOLO-*; domain/expansions/solo/)
    "OpponentDealt": lambda e, c: (
        c.w("Tycho Brahe takes his seat")
        + (f" ({e.get('difficulty')})" if e.get("difficulty") else "")
        + c.w(": his Movement tiles are shuffled face down")
    ),
    "MovementTileRevealed": lambda e, c: c.w(
        "Tycho turned over Movement tile {tile} ({count} left)",
        tile=e.get("tile"),
        count=c.w.n("{n} tile", "{n} tiles", int(e.get("left", 0))),
    ),
    "TychoMoved": lambda e, c: (
        c.w(
            "Tycho's marker moved {count} along his Action tiles and stopped early",
            count=c.w.n("{n} step", "{n} steps", int(e.get("steps", 0))),
        )
        if e.get("stopped")
        else c.w(
            "Tycho's marker moved {count} along his Action tiles",
            count=c.w.n("{n} step", "{n} steps", int(e.get("steps", 0))),
        )
    ),
    "TychoTileUpgraded": lambda e, c: c.w("Tycho upgraded his Action tile {tile}", tile=e.get("tile")),
    "TychoRowChosen": lambda e, c: (
        c.w(
            "Tycho played row {row} of his {value}tile {tile}",
            row=int(e.get("row", 0)) + 1,
            value=c.w("upgraded ") if e.get("upgraded") else "",
            tile=e.get("tile"),
        )
        + (f" ({e.get('condition')})" if e.get("condition") else "")
    ),
    "TychoDicePaid": lambda e, c: c.w(
        "Tycho paid {count}", count=c.w.n("{n} die", "{n} dice", len(e.get("dice") or []))
    ),
    "TychoCometPlaced": lambda e, c: c.w("Tycho placed a comet on his board"),
    "TychoCometMoved": lambda e, c: (
        c.w("Tycho's comet moved into the Book of Comets") + (f" ({e.get('page')})" if e.get("page") else "")
        if e.get("end") == "book"
        else c.w("Tycho's comet moved down")
    ),
    "TychoDieGained": lambda e, c: c.w(
        "Tycho gained a {colour_name} die", colour_name=colour_name(str(e.get("colour", "")), c.w)
    ),
    "TychoBookMoved": lambda e, c: c.w("Tycho moved his Book marker"),
    "TychoLectured": lambda e, c: c.w(
        "Tycho gave a Lecture on Scale tile {tile}", tile=int(e.get("tile", 0)) + 1
    ),
    "TychoInquisitorRemoved": lambda e, c: c.w("Tycho removed an Inquisitor"),
    "TychoConstellationObserved": lambda e, c: c.w(
        "Tycho observed a constellation of {card_name} ({vp} VP)",
        card_name=c.card_name(e.get("card")),
        vp=int(e.get("vp", 0)),
    ),
    "TychoMajorObjectTaken": lambda e, c: c.w(
        "Tycho took the Major Object of {card_name} ({vp} VP)",
        card_name=c.card_name(e.get("card")),
        vp=int(e.get("vp", 0)),
    ),
    "TychoMoonObserved": lambda e, c: c.w("Tycho observed Moon tile {tile}", tile=e.get("tile")),
    "MovementStackRevealed": lambda e, c: c.w(
        "Tycho's Movement stack is revealed: {items}", items=", ".join(str(t) for t in e.get("stack") or [])
    ),
    # the Luna characters' abilities (digest §17.5-17.8)
    "VenusMoved": lambda e, c: c.w(
        "Venus moved to position {position} over the Sun", position=int(e.get("position", 0)) + 1
    ),
    "SunRewardsGained": lambda e, c: (
        c.w("Gained the Sun's visible rewards (spaces ")
        + ", ".join(str(int(i) + 1) for i in e.get("spaces") or [])
        + ")"
    ),
    "MirrorShifted": lambda e, c: (
        c.w(
            "Moved {tile_name} {count} forward",
            tile_name=c.tile_name(e.get("tile")),
            count=c.w.n("{n} position", "{n} positions", int(e.get("steps", 0))),
        )
        if e.get("steps")
        else c.w("Left the special tiles where they were")
    ),
    "RoundTokenMoved": lambda e, c: (
        c.w("Focus: the round token onto {colour_name}", colour_name=colour_name(str(e.get("space")), c.w))
        if e.get("space") != "-"
        else c.w("Left the round token where it was")
    ),
    "SquareTokenMoved": lambda e, c: (
        c.w(
            "Moved the square token from space {start} to space {end}", start=e.get("start"), end=e.get("end")
        )
        + (
            c.w(" (Note {note}: ", note=e.get("note"))
            + (c.w("the colours match") if e.get("matched") else c.w("no match"))
            + ")"
            if e.get("note")
            else ""
        )
    ),
    "FocusDeferred": lambda e, c: c.w(
        "Moves the square token {count} first, then Focuses",
        count=c.w.n("{n} space", "{n} spaces", int(e.get("steps", 0))),
    ),
    "PagePartChosen": lambda e, c: c.w(
        "Resolves {reward_text} of the page next", reward_text=reward_text([str(e.get("part"))], c.w)
    ),
    "NoteRevealed": lambda e, c: c.w(
        "Note space {index} turned up: Note {note}", index=int(e.get("index", 0)) + 1, note=e.get("note")
    ),
    "ConstellationTileClaimed": lambda e, c: (
        c.w("Claimed Constellation tile {tile} ", tile=e.get("tile"))
        + (
            c.w("starting a new constellation")
            if not e.get("target")
            else c.w("for constellation {target}", target=e.get("target"))
        )
        + (c.w("; completed it with {stars} stars", stars=e.get("stars")) if e.get("completed") else "")
    ),
    "OfferTilesDiscarded": lambda e, c: c.w(
        "Discarded Constellation tiles {tiles}", tiles=", ".join(e.get("tiles") or [])
    ),
    "ConstellationDeckReshuffled": lambda e, c: c.w(
        "Shuffled the discard pile into a new Constellation deck ({count})",
        count=c.w.n("{n} tile", "{n} tiles", int(e.get("size", 0))),
    ),
    "OfferRefilled": lambda e, c: (
        c.w("Refilled the Constellation offer with ")
        + (", ".join(e.get("drawn") or []) or "nothing (no tiles left)")
    ),
    **TABLE_TEXT,
}


# Steps the rules take every turn whatever the player chose: folded in the history and left out of a
# move's preview (the page shows them on demand).
ROUTINE_EVENTS = frozenset({"FreeActionsClosed", "TurnEnded", "ActionPhaseEnded"})


def routine(event: Mapping[str, Any], type_name: str | None = None) -> bool:
    """Whether an event (its JSON form) is a routine step: one of `ROUTINE_EVENTS`, or an objective
    check that met nothing (OBJ-2)."""
    name = type_name or str(event.get("type", ""))
    return name in ROUTINE_EVENTS or (name == "ObjectivesChecked" and not event.get("met"))


def describe_event(
    event: Mapping[str, Any], context: Context | None = None, type_name: str | None = None
) -> str:
    """One event (its JSON form, possibly redacted) in words, without the subject: the caller names the
    seat ("Ada: Observed Mars ..."). `type_name` defaults to the dict's `type`."""
    ctx = context or default_context()
    name = type_name or str(event.get("type", ""))
    text = EVENT_TEXT.get(name)
    if text is None:
        return name
    try:
        return text(event, ctx)
    except (TypeError, ValueError, KeyError, IndexError):
        return name  # a malformed item is shown by its type, never an error


# -- commands --------------------------------------------------------------------------------------

CommandText = Callable[[Mapping[str, Any], Context], str]


def _observe(m: Mapping[str, Any], c: Context) -> str:
    target = str(m.get("target", ""))
    paying = c.w("paying {dice_text}", dice_text=dice_text(m.get("dice") or [], c.w))
    comets = int(m.get("comets1", 0)) + 2 * int(m.get("comets2", 0))
    n = int(m.get("comets1", 0)) + int(m.get("comets2", 0))
    if n:
        paying += c.w(" and {count} (+{comets})", count=c.w.n("{n} comet", "{n} comets", n), comets=comets)
    if target.startswith("MO:"):
        card = target[3:]
        return c.w(
            "Observe {card_name} {paying}: {major_reward}",
            card_name=c.card_name(card),
            paying=paying,
            major_reward=c.major_reward(card),
        )
    if target.startswith("C:"):
        parts = target.split(":")
        card, index = parts[1], int(parts[2]) if len(parts) > 2 and parts[2].isdigit() else 0
        reward = c.constellation_reward(card, index)  # the token's slot reward: the event tells it
        return c.w(
            "Observe {constellation} on {card_name} {paying}: {reward}",
            constellation=c.constellation(card, index),
            card_name=c.card_name(card),
            paying=paying,
            reward=reward,
        )
    if target.startswith("MOON:"):
        tile = next((t for t in c.catalog.luna.moon_tiles if t.id == target[5:]), None)
        reward = f": {reward_text(tile.reward)}" if tile is not None else ""
        return c.w(
            "Observe the Moon on tile {target} {paying}{reward}",
            target=target[5:],
            paying=paying,
            reward=reward,
        )
    return c.w("Observe {target} {paying}", target=target, paying=paying)


def _move(m: Mapping[str, Any], c: Context) -> str:
    steps = int(m.get("steps", 0))
    text = c.w("Move the telescope {count}", count=c.w.n("{n} step", "{n} steps", steps))
    return text  # where it lands is told by the engine's event (projections/preview.py)


def _use_tile(m: Mapping[str, Any], c: Context) -> str:
    option = int(m.get("option", 0))
    if option == 0:
        return c.w("Take a Quadrant instead of a moving action (at U)")
    p = c.player(int(m.get("seat", 0)))
    if p is None or c.state is None:
        return c.w("Use option {option} of the tile under the telescope", option=option)
    space = int((c.state.get("turn") or {}).get("space") or p.get("telescope", 0))
    queue = p.get("queue") or []
    tile = queue[space] if 0 <= space < len(queue) else None
    upgraded = tile in (p.get("upgraded") or [])
    if getattr(c.tile(tile), "mirror", False):  # Newton's special tile: its bonus, as often as granted
        used = c.told_event("MovingActionTaken")
        times = c.mirror_times(used) if used is not None else None
        text = c.w(
            "Use {tile_name}: {bonus}", tile_name=c.tile_name(tile), bonus=c.tile_option(tile, 1, upgraded)
        )
        return text + ("" if times is None else c.w(", {count}", count=c.w.n("{n} time", "{n} times", times)))
    return c.w(
        "Use {tile_name} option {option}: {tile_option}",
        tile_name=c.tile_name(tile),
        option=option,
        tile_option=c.tile_option(tile, option, upgraded),
    )


def _lecture(m: Mapping[str, Any], c: Context) -> str:
    return c.w(
        "Lecture at {scale}", scale=c.scale(int(m.get("tile", 0)))
    )  # the row reached: the event tells it (LEC-1)


def _write(m: Mapping[str, Any], c: Context, complete: bool) -> str:
    row = int(m.get("row", 0))
    name = ROWS[row] if 0 <= row < 4 else str(row)
    return c.w(
        "{value} on library row {name}",
        value=c.w("Complete writing") if complete else c.w("Write 1"),
        name=name,
    )


def _persuade(m: Mapping[str, Any], c: Context) -> str:
    space = int(m.get("space", 0))
    what = c.w("a Grand Inquisitor") if m.get("grand") else c.w("an Inquisitor")
    size = c.cellar_size(int(m.get("seat", 0)))  # Bruno's cellar tile has 5 spaces (CHAR-BRU-2)
    src = f"C{space + 1}" if 0 <= space < size else str(space)
    moved = c.told_event("InquisitorPersuaded")  # where it goes is the engine's event (INQ-10)
    if moved is None:
        return c.w("Persuade {what} from {src}", what=what, src=src)
    end = int(moved.get("end", 0))
    dst = f"C{end + 1}" if 0 <= end < size else c.w("out of the cellar")
    return c.w("Persuade {what} from {src} to {dst}", what=what, src=src, dst=dst)


def _gain_die(m: Mapping[str, Any], c: Context) -> str:
    text = c.w("Gain a {colour_name} die", colour_name=colour_name(str(m.get("colour")), c.w))
    if m.get("returned"):
        text += c.w(", returning your {die_text}", die_text=die_text(m["returned"], c.w))
    return text


def _bonus_space(m: Mapping[str, Any], c: Context) -> str:
    space = int(m.get("space", 0))
    side = str((c.state or {}).get("luna", {}).get("side", "")) if c.state and c.state.get("luna") else ""
    spaces = c.catalog.luna.bonus_boards.get(side, ())
    reward = f": {reward_text(spaces[space - 1].reward)}" if 1 <= space <= len(spaces) else ""
    return c.w("Send the Grand Inquisitor to Bonus Board space {space}{reward}", space=space, reward=reward)


def _anytile(m: Mapping[str, Any], c: Context) -> str:
    p = c.player(int(m.get("seat", 0)))
    upgraded = p is not None and m.get("tile") in (p.get("upgraded") or [])
    option = int(m.get("option", 0))
    return c.w(
        "Use {tile_name} option {option}: {tile_option}",
        tile_name=c.tile_name(m.get("tile")),
        option=option,
        tile_option=c.tile_option(m.get("tile"), option, upgraded),
    )


def _sky_of(c: Context, seat: int, tile: Any) -> str:
    p = c.player(seat)
    queue = (p.get("queue") or []) if p is not None else []
    return c.w(" on {sky}", sky=_sky(queue.index(tile))) if tile in queue else ""


DECLINED = {
    "KSWAP": N_("Swap no tiles (Kepler's special tile)"),
    "PER2D": N_("Stop persuading this Inquisitor (Copernicus' page)"),
}


def _decline_ability(m: Mapping[str, Any], c: Context) -> str:
    """What is declined: the pending ability effect (the top of the agenda)."""
    agenda = (c.state or {}).get("agenda") or []
    kind = str(agenda[-1][0]) if agenda else ""
    return c.w(DECLINED[kind]) if kind in DECLINED else c.w("Do not use the ability")


def _kepler_swap(m: Mapping[str, Any], c: Context) -> str:
    """CHAR-KEP-2: two tiles of the sky, or the set-aside tile with one of the sky."""
    seat = int(m.get("seat", 0))
    first, second = m.get("first"), m.get("second")
    p = c.player(seat)
    aside = ((p.get("ability") or {}).get("aside") if p is not None else None) or None
    if first == aside:
        return c.w(
            "Swap the set-aside {tile_name} (character board) with {tile_name2}{sky_of}",
            tile_name=c.tile_name(first),
            tile_name2=c.tile_name(second),
            sky_of=_sky_of(c, seat, second),
        )
    one = f"{c.tile_name(first)}{_sky_of(c, seat, first)}"
    return c.w(
        "Swap {one} and {tile_name}{sky_of}",
        one=one,
        tile_name=c.tile_name(second),
        sky_of=_sky_of(c, seat, second),
    )


def _library_tile(m: Mapping[str, Any], c: Context) -> str:
    """CHAR-COP-2..4: where the tile goes and what the covered spaces give from then on."""
    column = int(m.get("column", 1))
    row = int(m.get("row", 0))
    where = (
        c.w("the printed column")
        if column == 1
        else c.w("the column of library card {column}", column=column - 1)
    )
    text = c.w(
        "Place library tile {tile} face {face} up on {where}",
        tile=m.get("tile"),
        face=m.get("face"),
        where=where,
    )
    tile = c.library_tile(m.get("tile"))
    face = str(m.get("face"))
    rows = covering(tile, face, row) if tile is not None and face in tile.faces else ()
    covered = [
        c.w("{ROWS} gives {reward_text}", ROWS=ROWS[at], reward_text=reward_text(r, c.w))
        for at, r in rows
        if 0 <= at < len(ROWS)
    ]
    return f"{text}: {', '.join(covered)}" if covered else f"{text}, {ROWS[row] if 0 <= row < 4 else row}"


def _shift_mirror(m: Mapping[str, Any], c: Context) -> str:
    """CHAR-NEW-4: a special tile forward (each skipped tile back one), or not."""
    steps = int(m.get("steps", 0))
    if not steps:
        return c.w("Leave the special tiles where they are")
    seat = int(m.get("seat", 0))
    tile = m.get("tile")
    p = c.player(seat)
    queue = (p.get("queue") or []) if p is not None else []
    text = c.w(
        "Move {tile_name} {count} forward",
        tile_name=c.tile_name(tile),
        count=c.w.n("{n} position", "{n} positions", steps),
    )
    luna = c.catalog.luna_characters
    shifted = c.told_event("MirrorShifted")  # the queue it makes is the engine's event (CHAR-NEW-4)
    after = list(shifted.get("queue") or []) if shifted is not None else []
    at, to = (queue.index(tile), after.index(tile)) if tile in queue and tile in after else (-1, -1)
    if luna is not None and 0 <= at < len(luna.multipliers) and 0 <= to < len(luna.multipliers):
        before, then = multiplier(luna.multipliers, at), multiplier(luna.multipliers, to)
        text += c.w(
            " (from {sky}, multiplier {before}, to {sky2}, multiplier {after})",
            sky=_sky(at),
            before=before,
            sky2=_sky(to),
            after=then,
        )
    return text


def _claim_tile(m: Mapping[str, Any], c: Context) -> str:
    """CHAR-HEV-2/5: the offer tile and where it goes."""
    tile_id = str(m.get("tile"))
    target = int(m.get("target", 0))
    luna = c.catalog.luna_characters
    what = c.w("Constellation tile {tile_id}", tile_id=tile_id)
    if luna is not None:
        tile = next((t for t in luna.hevelius_tiles if t.id == tile_id), None)
        if tile is not None:
            what += c.w(
                " ({stars}, {connections})",
                stars=c.w.n("{n} star", "{n} stars", tile.stars),
                connections=c.w.n("{n} connection", "{n} connections", tile.connections),
            )
    if not target:
        return c.w("Claim {what} to start a new constellation", what=what)
    return c.w("Claim {what} to extend constellation {target}", what=what, target=target)


COMMAND_TEXT: Mapping[str, CommandText] = {
    "Move": _move,
    "Observe": _observe,
    "StopObserving": lambda m, c: c.w("Stop observing"),
    "TakeFixed": lambda m, c: c.w(
        "Fixed action: {action}", action=c.w(FIXED_ACTIONS.get(str(m.get("action")), str(m.get("action"))))
    ),
    "UseTile": _use_tile,
    "BuyFree": lambda m, c: c.w(
        "Free action: {action}", action=c.w(FREE_ACTIONS.get(str(m.get("action")), str(m.get("action"))))
    ),
    "EndActions": lambda m, c: c.w("End the action phase"),
    "EndFreeActions": lambda m, c: c.w("No more free actions now"),
    "Persuade": _persuade,
    "GainDie": _gain_die,
    "DeclineDie": lambda m, c: c.w("Take no die"),
    "Lecture": _lecture,
    "RaiseDie": lambda m, c: c.w("Raise the {die_text} die", die_text=die_text(m.get("die") or [], c.w)),
    "Recolour": lambda m, c: c.w(
        "Turn the {die_text} die {colour_name}",
        die_text=die_text(m.get("die") or [], c.w),
        colour_name=colour_name(str(m.get("colour")), c.w),
    ),
    "Farewell": lambda m, c: (
        c.w("Take the Inquisitor's Farewell") if m.get("accept") else c.w("Decline the Farewell")
    ),
    "WriteStep": lambda m, c: _write(m, c, complete=False),
    "StopWriting": lambda m, c: c.w("Stop writing"),
    "WriteComplete": lambda m, c: _write(m, c, complete=True),
    "Upgrade": lambda m, c: c.w("Upgrade {tile_name}", tile_name=c.tile_name(m.get("tile"))),
    "PlaceComet": lambda m, c: c.w("Place the comet on {page}", page=c.page(m.get("page"))),
    "BonusSpace": _bonus_space,
    "Relocate": lambda m, c: c.w("Relocate the telescope to {sky}", sky=_sky(m.get("space"))),
    "SwapTiles": lambda m, c: c.w(
        "Swap {tile_name} and {tile_name2}",
        tile_name=c.tile_name(m.get("first")),
        tile_name2=c.tile_name(m.get("second")),
    ),
    "RegainRow": lambda m, c: c.w(
        "Regain the rewards of library row {ROWS}", ROWS=ROWS[int(m.get("row", 0))]
    ),
    "BonusTile": _anytile,
    "CollectScale": lambda m, c: c.w("Collect the reward of {scale}", scale=c.scale(int(m.get("tile", 0)))),
    "ShiftMirror": _shift_mirror,
    "ClaimTile": _claim_tile,
    "DiscardOffer": lambda m, c: c.w(
        "Discard Constellation tiles {tiles}", tiles=", ".join(m.get("tiles") or [])
    ),
    "PagePart": lambda m, c: c.w(
        "Resolve {reward_text} of the page next", reward_text=reward_text([str(m.get("part"))], c.w)
    ),
    "Focus": lambda m, c: (
        c.w("Move the square token first, Focus after it")
        if m.get("space") == "later"
        else c.w("Focus on {colour_name}", colour_name=colour_name(str(m.get("space")), c.w))
        if m.get("space") != "-"
        else c.w("Leave the round token")
    ),
    "MoonReward": lambda m, c: (
        c.w("Moon objective: {objective_vp} VP", objective_vp=c.catalog.luna.objective_vp)
        if m.get("choice") == "vp"
        else c.w(
            "Moon objective: {objective_quadrants} Quadrants",
            objective_quadrants=c.catalog.luna.objective_quadrants,
        )
    ),
    "TakeInquisitor": lambda m, c: (
        c.w("Take the Inquisitor") if m.get("accept") else c.w("Decline the Inquisitor")
    ),
    "Decline": lambda m, c: c.w("Decline"),
    "PlaceLibraryTile": _library_tile,
    "KeplerSwap": _kepler_swap,
    "DeclineAbility": _decline_ability,
}


def describe_command(command: Mapping[str, Any], context: Context | None = None) -> str:
    """One command (its JSON form) in words, with what it will do where the position tells."""
    ctx = context or default_context()
    name = str(command.get("type", ""))
    text = COMMAND_TEXT.get(name)
    if text is None:
        return str(command.get("text") or name)
    try:
        return text(command, ctx)
    except (TypeError, ValueError, KeyError, IndexError):
        return str(command.get("text") or name)


def command_words(text: str, context: Context | None = None) -> str:
    """A command in its text notation ("@0 observe MO:D1-09 B4+R3 c1=1 c2=0") in words; the text itself
    when it does not parse."""
    try:
        data = command_to_dict(parse_command(text))
    except ValueError:
        return text
    return describe_command(data, context)

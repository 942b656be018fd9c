"""Commands and events in words, for people: the web pages, `galileo log` and `galileo explain`.

The describer reads the public JSON forms only: an event as `event_to_dict` / `redact_event` give it
(so a viewer's text never says more than the viewer may see), a command as `command_to_dict` gives it,
and, for commands, the position as `public_state` gives it (docs/state.md). Component names and values
come from the catalog (docs/catalog.md); the words follow the rules digest.

Every event class in `domain.EVENT_TYPES` and every command class in `domain.commands.COMMAND_TYPES` has
an entry in `EVENT_TEXT` / `COMMAND_TEXT` (tests/projections/test_describe.py checks it), so a new one
cannot be added without its words. A describer never fails on a well-formed item: a value it cannot
resolve (an unknown card id, a missing field of a redacted event) is shown as it is.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from domain import command_to_dict, parse_command
from domain.abilities.newton import multiplier
from domain.catalog import load_catalog
from domain.catalog.model import Catalog
from domain.characters.copernicus import covering
from domain.effects import reward_tasks

COLOUR_NAMES = {"R": "red", "Y": "yellow", "B": "blue"}
SKY = ("X1", "X2", "S1", "S2", "S3", "S4", "U")
ROWS = ("R1", "R2", "R3", "R4")
CELLAR = ("C1", "C2", "C3", "C4")
MOON_TILES = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX")
FIXED_ACTIONS = {
    "die": "gain a die",
    "lecture": "give a Lecture",
    "spot": "spot a comet",
    "upgrade": "upgrade an Action tile",
    "observe": "observe",
}
FREE_ACTIONS = {
    "recolour": "recolour a die",
    "raise": "raise a die by 1",
    "die": "gain a die",
    "write": "write 1",
    "persuade": "persuade an Inquisitor",
    "spot": "spot a comet",
}
SIMPLE_CODES = {
    "Q": "a Quadrant",
    "PER": "persuade",
    "DIE": "a die",
    "LEC": "a Lecture",
    "INQ": "an Inquisitor",
    "FW": "an Inquisitor's Farewell",
    "CARD": "a face-down card",
    "WC": "complete writing",
    "UPG": "upgrade a tile",
    "SPOT": "spot a comet",
    "OBS": "observe",
    "REREAD": "regain a library row's rewards",
    "ANYTILE": "the moving action of any Action tile",
    "SWAP": "swap two Action tiles",
    "RELOCATE": "move the telescope to any space",
    "ADVANCE": "advance an Inquisitor",
    "PER2D": "persuade two different Inquisitors up to 2 spaces each",
    "KSWAP:board": "swap two tiles of the player board",
    "KSWAP:aside": "swap the character-board tile with a player-board tile",
    "BOOKVP": "VP for the Book tokens",
    "SCALEREWARDS": "collect Scale rewards",
    "NSHIFT": "move a special tile up to 2 positions forward",
    "NVP": "2 VP times the higher special tile's multiplier",
    "FOCUS": "Focus (the round token onto the increase's colour)",
    "FOCUSANY": "Focus (the round token onto any colour)",
    "MOVE1": "the square token 1 space on",
    "MOVE2": "the square token 2 spaces on",
    "MOVE3": "the square token 3 spaces on",
}
# Agenda task kinds (docs/state.md, "Agenda") that are not reward codes: named in EffectLost / BonusDeclined.
TASK_NAMES = {
    "VP": "victory points",
    "INC": "raising dice of a colour",
    "REFILL": "refilling the display",
    "COMPLETE": "complete writing",
    "RAISE": "raising a die",
    "RECOLOUR": "recolouring a die",
    "WRITE": "writing",
    "OBSERVE": "another observation",
    "BOOK": "a Book of Comets page",
    "SCORING": "a Scoring tile",
    "GRAND": "a Grand Inquisitor",
    "BONUS": "a Bonus Board reward",
    "ROTATE": "rotating the Action tiles",
    "DEPART": "a Grand Inquisitor's departure",
    "FREEOBS": "a free observation",
    "FIXEDAT": "the fixed action of the new space",
    "OPTINQ": "an Inquisitor",
    "MOONOBJ": "the Moon objective",
    "CELLAR": "the reward of a cellar space",
    "KSWAP": "Kepler's tile swap",
    "PER2D": "persuading two different Inquisitors",
    "CUNPAGE": "choosing the next part of a personal page",
}
_CODE = re.compile(
    r"^(?:(?P<vp>\d+)VP|(?P<q>\d+)Q|PERx(?P<per>\d+)|(?P<inc>INC2?):(?P<colour>[RYB])|1D\+(?P<raise>\d)"
    r"|W(?P<write>\d+)|DIE@(?P<at>\d)|FREEOBS:(?P<free>\d+))$"
)


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


def colour_name(code: str) -> str:
    return COLOUR_NAMES.get(code, code)


def die_text(die: Sequence[Any]) -> str:
    """`["R", 5]` as "red 5"."""
    return f"{colour_name(str(die[0]))} {die[1]}" if len(die) == 2 else str(die)


def dice_text(dice: Sequence[Sequence[Any]]) -> str:
    return " + ".join(die_text(d) for d in dice) if dice else "no dice"


def code_text(code: str) -> str:
    """One reward code (docs/catalog.md, "Reward codes") in words."""
    if code in SIMPLE_CODES:
        return SIMPLE_CODES[code]
    if code in TASK_NAMES:
        return TASK_NAMES[code]
    m = _CODE.match(code)
    if m is None:
        return code
    if m["vp"]:
        return f"{m['vp']} VP"
    if m["q"]:
        return f"{m['q']} Quadrants"
    if m["per"]:
        return f"persuade {m['per']} times"
    if m["inc"]:
        return f"all {colour_name(m['colour'])} dice +{2 if m['inc'] == 'INC2' else 1}"
    if m["raise"]:
        return f"one die +{m['raise']}"
    if m["write"]:
        return f"write {m['write']}"
    if m["at"]:
        return f"a die at {m['at']}"
    return f"observe a constellation of cost {m['free']} or less for free"


def reward_text(reward: Sequence[str]) -> str:
    """A reward (a list of codes) in words; an empty one is "nothing"."""
    words = [code_text(c) for c in reward]
    if not words:
        return "nothing"
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


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

    def seat_name(self, seat: Any) -> str:
        i = int(seat) if isinstance(seat, int) else -1
        if 0 <= i < len(self.names):
            return self.names[i]
        p = self.player(i) if self.state is not None else None
        return str(p.get("name")) if p is not None and p.get("name") else f"seat {seat}"

    # -- lookups that never fail --------------------------------------------------------------------

    def card_name(self, card_id: Any) -> str:
        card_id = str(card_id)
        if card_id.startswith("hidden:"):
            return f"a face-down tier {card_id[7:]} card"
        card = self.catalog.cards.get(card_id)
        if card is None:
            return str(card_id)
        major = card.major
        return f"{major.name} ({major.mix} {major.cost})"

    def major_reward(self, card_id: str) -> str:
        card = self.catalog.cards.get(card_id)
        if card is None:
            return ""
        return f"{card.major.vp} VP" + (" and an Inquisitor" if card.major.inquisitor else "")

    def constellation(self, card_id: str, index: int) -> str:
        card = self.catalog.cards.get(card_id)
        if card is None or not 0 <= index < len(card.constellations):
            return f"constellation {index + 1} of {card_id}"
        c = card.constellations[index]
        return f"{c.name} ({colour_name(c.colour)} {c.cost})"

    def constellation_reward(self, card_id: str, index: int) -> str:
        card = self.catalog.cards.get(card_id)
        if card is None or not 0 <= index < len(card.constellations):
            return ""
        return reward_text(card.constellations[index].reward)

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
        each = len(reward_tasks(face[0], "action-tile")) or 1
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
        return f"the {t.name} tile" if t is not None else f"tile {tile_id}"

    def tile_option(self, tile_id: Any, option: int, upgraded: bool) -> str:
        t = self.tile(tile_id)
        if t is None or option not in (1, 2):
            return ""
        face = t.upgraded if upgraded else t.basic
        return reward_text(face[min(option, len(face)) - 1])  # a mirror's one option is both (DATA-15)

    def objective(self, objective_id: Any) -> str:
        if objective_id == "MOON":
            return "the Moon objective"
        o = self.catalog.objectives.get(str(objective_id))
        return f"{objective_id} ({without_rule_ids(o.text)})" if o is not None else str(objective_id)

    def page(self, page_id: Any) -> str:
        if page_id == "appendix":
            return f"the Appendix ({self.catalog.appendix_vp} VP)"
        page = next((p for p in self.catalog.book_pages if p.id == page_id), None)
        if page is None:  # a personal page (CHAR-3)
            abilities = (b.ability for b in self.catalog.characters if b.ability is not None)
            page = next((p for a in abilities for p in a.pages if p.id == page_id), None)
            if page is not None:
                return f"personal page {page_id} ({reward_text(page.reward)})"
        return f"page {page_id} ({reward_text(page.reward)})" if page is not None else f"page {page_id}"

    def scale(self, slot: int) -> str:
        """A Scale slot (0..3) named by its subject when the position is known."""
        if self.state is not None:
            subjects = self.state.get("subjects") or []
            scale = self.state.get("scale") or []
            if 0 <= slot < len(scale):
                subject = subjects[slot] if slot < len(subjects) else ""
                theme = next((t.theme for t in self.catalog.subject_tiles if t.arch == subject), subject)
                return f"Scale tile {slot + 1} ({theme + ', ' if theme else ''}{scale[slot]})"
        return f"Scale tile {slot + 1}"

    def player(self, seat: int) -> Mapping[str, Any] | None:
        if self.state is None:
            return None
        players = self.state.get("players") or []
        return players[seat] if 0 <= seat < len(players) else None


def default_context(state: Mapping[str, Any] | None = None) -> Context:
    """A context with the catalog a state names (the default edition without one)."""
    edition = "base"
    if state is not None:
        edition = str((state.get("catalog") or {}).get("edition") or "base")
    return Context(_catalog(edition), state)


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


def _comets(e: Mapping[str, Any]) -> str:
    comets = e.get("comets") or []
    return f" and {plural(len(comets), 'comet')}" if comets else ""


def _observed(e: Mapping[str, Any], c: Context) -> str:
    card = str(e.get("card", ""))
    return (
        f"Observed {c.card_name(card)} paying {dice_text(e.get('dice') or [])}{_comets(e)} "
        f"(cost {e.get('cost')}): {c.major_reward(card)}"
    )


def _constellation(e: Mapping[str, Any], c: Context) -> str:
    card, index = str(e.get("card", "")), int(e.get("index", 0))
    slot = int(e.get("slot", 0))
    slot_reward = (
        c.catalog.constellation_slots[slot] if 0 <= slot < len(c.catalog.constellation_slots) else ()
    )
    return (
        f"Observed {c.constellation(card, index)} on {c.card_name(card)} paying "
        f"{dice_text(e.get('dice') or [])}{_comets(e)}: {c.constellation_reward(card, index)}; "
        f"Constellation token {slot + 1} off the board gives {reward_text(slot_reward)}"
    )


def _face_down(e: Mapping[str, Any], c: Context) -> str:
    source = "the reserve" if e.get("from_reserve") else "the deck"
    if "card" in e:
        return f"Took {c.card_name(e['card'])} face down from {source} into the library"
    return f"Took a face-down tier {e.get('tier')} card from {source} into the library"


def _points(e: Mapping[str, Any], c: Context) -> str:
    n = int(e.get("points", 0))
    verb = "Scored" if n >= 0 else "Lost"
    return f"{verb} {abs(n)} VP ({e.get('source')})"


def _game_started(e: Mapping[str, Any], c: Context) -> str:
    seats = e.get("seats") or []
    names = ", ".join(f"{name} ({character})" for name, character in seats)
    luna = " with Luna" if (e.get("options") or {}).get("luna") else ""
    return f"The game began{luna}: {names}; seat {e.get('first_seat')} starts"


def _game_ended(e: Mapping[str, Any], c: Context) -> str:
    scores = ", ".join(f"{c.seat_name(i)} {s}" for i, s in enumerate(e.get("scores") or []))
    winners = " and ".join(c.seat_name(w) for w in e.get("winners") or [])
    return f"The game ended ({scores}); won by {winners}; the deal is revealed"


def _moving(e: Mapping[str, Any], c: Context) -> str:
    if not e.get("tile"):
        return "Took a Quadrant at U instead of a moving action"
    option = int(e.get("option", 0))
    face = "upgraded" if e.get("upgraded") else "basic"
    reward = c.tile_option(e["tile"], option, bool(e.get("upgraded")))
    return f"Used {c.tile_name(e['tile'])} ({face}), option {option}: {reward}{_times(e, c)}"


def _times(e: Mapping[str, Any], c: Context) -> str:
    """A special tile's bonus: as many times as the event granted it (CHAR-NEW-2)."""
    times = c.mirror_times(e)
    return "" if times is None else f", {plural(times, 'time')}"


def _bonus_action(e: Mapping[str, Any], c: Context) -> str:
    option = int(e.get("option", 0))
    reward = c.tile_option(e.get("tile"), option, bool(e.get("upgraded")))
    return f"Used {c.tile_name(e.get('tile'))} as a bonus, option {option}: {reward}{_times(e, c)}"


def _persuaded(e: Mapping[str, Any], c: Context) -> str:
    what = "a Grand Inquisitor" if e.get("grand") else "an Inquisitor"
    start, end = int(e.get("start", 0)), int(e.get("end", 0))
    where = CELLAR[end] if 0 <= end < 4 else "out of the cellar"
    src = CELLAR[start] if 0 <= start < 4 else str(start)
    return f"Persuaded {what} from {src} to {where}"


def _interrogation(e: Mapping[str, Any], c: Context) -> str:
    text = (
        f"Interrogated with {plural(int(e.get('total', 0)), 'Inquisitor')}: reputation "
        f"{e.get('start')} → {e.get('end')}"
    )
    overflow = int(e.get("overflow", 0))
    if overflow:
        text += f" ({overflow:+d} VP at the end of the track)"
    return text


def _book_token(e: Mapping[str, Any], c: Context) -> str:
    row = int(e.get("row", 0))
    name = ROWS[row] if 0 <= row < 4 else row
    return f"Moved the {name} Book token from space {e.get('start')} to {e.get('end')}"


def _scoring_tile(e: Mapping[str, Any], c: Context) -> str:
    tile = next((t for t in c.catalog.luna.scoring_tiles if t.id == e.get("tile")), None)
    name = tile.name if tile is not None else str(e.get("tile"))
    points = ", ".join(f"{c.seat_name(i)}: {p}" for i, p in enumerate(e.get("points") or []))
    return f"Scoring tile {name} scored ({points})"


def _moon(e: Mapping[str, Any], c: Context) -> str:
    tile = next((t for t in c.catalog.luna.moon_tiles if t.id == e.get("tile")), None)
    reward = f": {reward_text(tile.reward)}" if tile is not None else ""
    return (
        f"Observed the Moon on tile {e.get('tile')} paying {dice_text(e.get('dice') or [])}{_comets(e)} "
        f"(cost {e.get('cost')}){reward}"
    )


def _bonus_reward(e: Mapping[str, Any], c: Context) -> str:
    space = int(e.get("space", 0))
    spaces = c.catalog.luna.bonus_boards.get(str(e.get("side")), ())
    reward = reward_text(spaces[space - 1].reward) if 1 <= space <= len(spaces) else f"space {space}"
    lost = " (lost: it cannot be used)" if e.get("lost") else ""
    return f"Took the Bonus Board reward of space {space}: {reward}{lost}"


def _sky(index: Any) -> str:
    i = int(index) if isinstance(index, int) else -1
    return SKY[i] if 0 <= i < len(SKY) else str(index)


def _policy(e: Mapping[str, Any]) -> str:
    return "a bot takes the seat over" if e.get("policy") == "bot" else "the seat forfeits"


def _handed(e: Mapping[str, Any], c: Context) -> str:
    to = f"a {e.get('bot') or 'bot'} bot" if e.get("to") == "bot" else str(e.get("to") or "someone")
    if e.get("to") == "person":
        to = "a new person"
    why = {"time": " (time ran out)", "resigned": " (resigned)", "host": " by the host"}.get(
        str(e.get("reason") or ""), ""
    )
    return f"The seat was handed to {to}{why}"


def _takeback_closed(e: Mapping[str, Any], c: Context) -> str:
    why = {"resigned": "resigned", "time": "ran out of time", "host": "was handed over by the host"}.get(
        str(e.get("reason") or ""), "was handed over"
    )
    return f"The take-back request was closed: seat {e.get('by_seat')} {why}"


def _takeback_answered(e: Mapping[str, Any], c: Context) -> str:
    return "Accepted the take-back" if e.get("accepted") else "Declined the take-back"


# The table's events (docs/async.md): service rules ASYNC-n, not moves of the game.
TABLE_TEXT: Mapping[str, EventText] = {
    "TimeExpired": lambda e, c: f"Ran out of time at {e.get('deadline')}: {_policy(e)}",
    "SeatResigned": lambda e, c: f"Resigned: {_policy(e)}",
    "SeatHandedOver": _handed,
    "SeatFrozen": lambda e, c: "The seat's score is frozen and its turns are skipped from now on",
    "ClockPauseRequested": lambda e, c: "Asked to pause the clocks",
    "ClockPaused": lambda e, c: "Every person agreed: the clocks are paused",
    "ClockResumed": lambda e, c: (
        "The host restarted the clocks"
        if e.get("by") == "host"
        else f"Seat {e.get('by')} restarted the clocks"
    ),
    "ClockExtended": lambda e, c: f"The host gave the seat {plural(int(e.get('seconds', 0)), 'second')} more",
    "TakeBackRequested": lambda e, c: (
        f"Asked to take back to version {e.get('to_version')} (open until {e.get('expires_at')})"
    ),
    "TakeBackAnswered": _takeback_answered,
    "TakenBack": lambda e, c: f"Took back the game to version {e.get('to_version')}",
    "TakeBackClosed": _takeback_closed,
    "SeatLinkReissued": lambda e, c: "The host re-issued the seat's link: its old link no longer opens it",
    "GameCancelled": lambda e, c: "The host cancelled the game",
    # People (docs/accounts.md): service rules ACCT-n.
    "SeatClaimed": lambda e, c: "The seat was attached to its player's account",
    "SeatInvited": lambda e, c: "The host invited an account to the seat",
    "SeatRecovered": lambda e, c: "The seat was opened on another device: its old link stopped working",
}


EVENT_TEXT: Mapping[str, EventText] = {
    "GameStarted": _game_started,
    "GameForked": lambda e, c: (
        f"Forked from game {str(e.get('source_game', ''))[:8]} at version {e.get('source_version')}; "
        "the unseen cards were dealt again"
    ),
    "EndOfGameTriggered": lambda e, c: (
        f"Triggered the end of the game: the last turn is turn {int(e.get('last_turn', 0)) + 1}"
    ),
    "TurnEnded": lambda e, c: f"Ended turn {int(e.get('turn', 0)) + 1}",
    "GameEnded": _game_ended,
    "TelescopeMoved": lambda e, c: (
        f"Moved the telescope {plural(int(e.get('steps', 0)), 'step')} from {_sky(e.get('start'))} to "
        f"{_sky(e.get('end'))}" + (" (round past U)" if e.get("wrapped") else "")
    ),
    "FixedActionTaken": lambda e, c: (
        f"Took the fixed action of {e.get('space')}: "
        f"{FIXED_ACTIONS.get(str(e.get('action')), e.get('action'))}"
    ),
    "MovingActionTaken": _moving,
    "FreeActionBought": lambda e, c: (
        f"Paid {plural(int(e.get('cost', 0)), 'Quadrant')} to "
        f"{FREE_ACTIONS.get(str(e.get('action')), e.get('action'))}"
    ),
    "ActionPhaseEnded": lambda e, c: "Ended the action phase",
    "FreeActionsClosed": lambda e, c: "Closed the free-action window",
    "MajorObjectObserved": _observed,
    "ConstellationObserved": _constellation,
    "ObservationEnded": lambda e, c: "Stopped observing",
    "CardDealt": lambda e, c: (
        f"{c.card_name(e.get('card'))} was dealt to Discovery space {int(e.get('space', 0)) + 1}"
        + (" from the reserve" if e.get("from_reserve") else "")
    ),
    "CardDrawnFaceDown": _face_down,
    "VictoryPointsScored": _points,
    "QuadrantsGained": lambda e, c: f"Gained {plural(int(e.get('amount', 0)), 'Quadrant')}",
    "DieGained": lambda e, c: (
        f"Gained a {die_text([e.get('colour'), e.get('value')])} die"
        + (f", returning {die_text(e['returned'])}" if e.get("returned") else "")
    ),
    "DieGainDeclined": lambda e, c: "Declined the die",
    "DiceRaised": lambda e, c: f"Raised all {colour_name(str(e.get('colour')))} dice by {e.get('amount')}",
    "DieRaised": lambda e, c: f"Raised the {die_text(e.get('die') or [])} die by {e.get('amount')}",
    "DieRecoloured": lambda e, c: (
        f"Turned the {die_text(e.get('die') or [])} die {colour_name(str(e.get('colour')))}"
    ),
    "InquisitorGained": lambda e, c: "Gained an Inquisitor (into C1)",
    "InquisitorPersuaded": _persuaded,
    "FarewellTaken": lambda e, c: "Took an Inquisitor's Farewell",
    "FarewellDeclined": lambda e, c: "Declined the Farewell",
    "LectureGiven": lambda e, c: (
        f"Lectured at {c.scale(int(e.get('tile', 0)))}: University token to row {e.get('height')}"
    ),
    "CometSpotted": lambda e, c: f"Spotted comet {int(e.get('comet', 0)) + 1}",
    "TileUpgraded": lambda e, c: f"Upgraded {c.tile_name(e.get('tile'))}",
    "BookTokenMoved": _book_token,
    "CompleteWritingStarted": lambda e, c: (
        f"Began complete writing on {ROWS[int(e.get('row', 0))]} up to space {e.get('target')}"
    ),
    "WritingStopped": lambda e, c: f"Stopped writing ({plural(int(e.get('unused', 0)), 'step')} unused)",
    "EffectLost": lambda e, c: f"Lost {code_text(str(e.get('effect')))}: {e.get('reason')}",
    "ActionTilesRotated": lambda e, c: (
        f"Rotated the Action tiles: {c.tile_name(e.get('tile'))} to the start of the queue"
    ),
    "CometPlacedInBook": lambda e, c: (
        f"Placed comet {int(e.get('comet', 0)) + 1} in the Book of Comets on {c.page(e.get('page'))}"
    ),
    "InterrogationHeld": _interrogation,
    "ObjectivesChecked": lambda e, c: (
        "Met " + (", ".join(str(o) for o in e.get("met") or []) or "no objective")
    ),
    "ObjectiveAchieved": lambda e, c: (
        f"Claimed {c.objective(e.get('objective'))}"
        + (
            f" first: {c.catalog.objective_first_vp} VP"
            if e.get("first")
            else f": {c.catalog.objective_later_vp} VP"
        )
    ),
    "MoonObserved": _moon,
    "MoonPhaseAdvanced": lambda e, c: (
        f"The Moon reached phase {e.get('phase')}: Scoring tiles "
        f"{', '.join(e.get('revealed') or []) or 'none'} turned up"
    ),
    "ScoringTileScored": _scoring_tile,
    "GrandInquisitorGained": lambda e, c: f"Gained a Grand Inquisitor (Moon tile {e.get('tile')})",
    "GrandInquisitorDeparted": lambda e, c: f"A Grand Inquisitor left for Bonus Board space {e.get('space')}",
    "BonusBoardRewardTaken": _bonus_reward,
    "MoonObjectiveAchieved": lambda e, c: (
        "Claimed the Moon objective: "
        + (
            f"{c.catalog.luna.objective_vp} VP"
            if e.get("choice") == "vp"
            else f"{c.catalog.luna.objective_quadrants} Quadrants"
        )
    ),
    "TelescopeRelocated": lambda e, c: (
        f"Relocated the telescope from {_sky(e.get('start'))} to {_sky(e.get('end'))}"
    ),
    "ActionTilesSwapped": lambda e, c: (
        f"Swapped {c.tile_name(e.get('first'))} and {c.tile_name(e.get('second'))}"
    ),
    "LibraryRewardsRegained": lambda e, c: (
        f"Regained the rewards of {ROWS[int(e.get('row', 0))]} up to space {e.get('position')}"
    ),
    "BonusActionTaken": _bonus_action,
    "ScaleRewardCollected": lambda e, c: (
        f"Collected the row {e.get('height')} reward of {c.scale(int(e.get('tile', 0)))}"
    ),
    "BonusDeclined": lambda e, c: f"Declined {code_text(str(e.get('effect')))}",
    # the characters' abilities (digest §17, domain/characters/)
    "CellarRewardGained": lambda e, c: (
        f"An Inquisitor reached cellar space C{int(e.get('space', 0)) + 1}: "
        f"{reward_text(e.get('reward') or [])} (Bruno's cellar tile)"
    ),
    "LibraryTilePlaced": lambda e, c: (
        f"Placed library tile {e.get('tile')} face {e.get('face')} on library column {e.get('column')}, "
        f"{ROWS[int(e.get('row', 0))]}"
        + (f"-{ROWS[int(e.get('row', 0)) + int(e.get('rows', 1)) - 1]}" if int(e.get("rows", 1)) > 1 else "")
    ),
    "KeplerTilesSwapped": lambda e, c: (
        f"Swapped {c.tile_name(e.get('first'))} and {c.tile_name(e.get('second'))}"
        + (f"; {c.tile_name(e.get('aside'))} is on his character board" if e.get("aside") else "")
    ),
    "AbilityDeclined": lambda e, c: f"Did not use {code_text(str(e.get('effect')))}",
    # the solo opponent Tycho Brahe (rules-addendum "The solo game", SOLO-*; domain/expansions/solo/)
    "OpponentDealt": lambda e, c: (
        "Tycho Brahe takes his seat"
        + (f" ({e.get('difficulty')})" if e.get("difficulty") else "")
        + ": his Movement tiles are shuffled face down"
    ),
    "MovementTileRevealed": lambda e, c: (
        f"Tycho turned over Movement tile {e.get('tile')} ({plural(int(e.get('left', 0)), 'tile')} left)"
    ),
    "TychoMoved": lambda e, c: (
        f"Tycho's marker moved {plural(int(e.get('steps', 0)), 'step')} along his Action tiles"
        + (" and stopped early" if e.get("stopped") else "")
    ),
    "TychoTileUpgraded": lambda e, c: f"Tycho upgraded his Action tile {e.get('tile')}",
    "TychoRowChosen": lambda e, c: (
        f"Tycho played row {int(e.get('row', 0)) + 1} of his {'upgraded ' if e.get('upgraded') else ''}"
        f"tile {e.get('tile')}" + (f" ({e.get('condition')})" if e.get("condition") else "")
    ),
    "TychoDicePaid": lambda e, c: f"Tycho paid {plural(len(e.get('dice') or []), 'die', 'dice')}",
    "TychoCometPlaced": lambda e, c: "Tycho placed a comet on his board",
    "TychoCometMoved": lambda e, c: (
        "Tycho's comet moved into the Book of Comets" + (f" ({e.get('page')})" if e.get("page") else "")
        if e.get("end") == "book"
        else "Tycho's comet moved down"
    ),
    "TychoDieGained": lambda e, c: f"Tycho gained a {colour_name(str(e.get('colour', '')))} die",
    "TychoBookMoved": lambda e, c: "Tycho moved his Book marker",
    "TychoLectured": lambda e, c: f"Tycho gave a Lecture on Scale tile {int(e.get('tile', 0)) + 1}",
    "TychoInquisitorRemoved": lambda e, c: "Tycho removed an Inquisitor",
    "TychoConstellationObserved": lambda e, c: (
        f"Tycho observed a constellation of {c.card_name(e.get('card'))} ({int(e.get('vp', 0))} VP)"
    ),
    "TychoMajorObjectTaken": lambda e, c: (
        f"Tycho took the Major Object of {c.card_name(e.get('card'))} ({int(e.get('vp', 0))} VP)"
    ),
    "TychoMoonObserved": lambda e, c: f"Tycho observed Moon tile {e.get('tile')}",
    "MovementStackRevealed": lambda e, c: (
        f"Tycho's Movement stack is revealed: {', '.join(str(t) for t in e.get('stack') or [])}"
    ),
    # the Luna characters' abilities (digest §17.5-17.8)
    "VenusMoved": lambda e, c: f"Venus moved to position {int(e.get('position', 0)) + 1} over the Sun",
    "SunRewardsGained": lambda e, c: (
        "Gained the Sun's visible rewards (spaces "
        + ", ".join(str(int(i) + 1) for i in e.get("spaces") or [])
        + ")"
    ),
    "MirrorShifted": lambda e, c: (
        f"Moved {c.tile_name(e.get('tile'))} {plural(int(e.get('steps', 0)), 'position')} forward"
        if e.get("steps")
        else "Left the special tiles where they were"
    ),
    "RoundTokenMoved": lambda e, c: (
        f"Focus: the round token onto {colour_name(str(e.get('space')))}"
        if e.get("space") != "-"
        else "Left the round token where it was"
    ),
    "SquareTokenMoved": lambda e, c: (
        f"Moved the square token from space {e.get('start')} to space {e.get('end')}"
        + (
            f" (Note {e.get('note')}: " + ("the colours match" if e.get("matched") else "no match") + ")"
            if e.get("note")
            else ""
        )
    ),
    "FocusDeferred": lambda e, c: (
        f"Moves the square token {plural(int(e.get('steps', 0)), 'space')} first, then Focuses"
    ),
    "PagePartChosen": lambda e, c: f"Resolves {reward_text([str(e.get('part'))])} of the page next",
    "NoteRevealed": lambda e, c: f"Note space {int(e.get('index', 0)) + 1} turned up: Note {e.get('note')}",
    "ConstellationTileClaimed": lambda e, c: (
        f"Claimed Constellation tile {e.get('tile')} "
        + ("starting a new constellation" if not e.get("target") else f"for constellation {e.get('target')}")
        + (f"; completed it with {e.get('stars')} stars" if e.get("completed") else "")
    ),
    "OfferTilesDiscarded": lambda e, c: f"Discarded Constellation tiles {', '.join(e.get('tiles') or [])}",
    "ConstellationDeckReshuffled": lambda e, c: (
        f"Shuffled the discard pile into a new Constellation deck ({plural(int(e.get('size', 0)), 'tile')})"
    ),
    "OfferRefilled": lambda e, c: (
        "Refilled the Constellation offer with "
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
    paying = f"paying {dice_text(m.get('dice') or [])}"
    comets = int(m.get("comets1", 0)) + 2 * int(m.get("comets2", 0))
    n = int(m.get("comets1", 0)) + int(m.get("comets2", 0))
    if n:
        paying += f" and {plural(n, 'comet')} (+{comets})"
    if target.startswith("MO:"):
        card = target[3:]
        return f"Observe {c.card_name(card)} {paying}: {c.major_reward(card)}"
    if target.startswith("C:"):
        parts = target.split(":")
        card, index = parts[1], int(parts[2]) if len(parts) > 2 and parts[2].isdigit() else 0
        reward = c.constellation_reward(card, index)  # the token's slot reward: the event tells it
        return f"Observe {c.constellation(card, index)} on {c.card_name(card)} {paying}: {reward}"
    if target.startswith("MOON:"):
        tile = next((t for t in c.catalog.luna.moon_tiles if t.id == target[5:]), None)
        reward = f": {reward_text(tile.reward)}" if tile is not None else ""
        return f"Observe the Moon on tile {target[5:]} {paying}{reward}"
    return f"Observe {target} {paying}"


def _move(m: Mapping[str, Any], c: Context) -> str:
    steps = int(m.get("steps", 0))
    text = f"Move the telescope {plural(steps, 'step')}"
    return text  # where it lands is told by the engine's event (projections/preview.py)


def _use_tile(m: Mapping[str, Any], c: Context) -> str:
    option = int(m.get("option", 0))
    if option == 0:
        return "Take a Quadrant instead of a moving action (at U)"
    p = c.player(int(m.get("seat", 0)))
    if p is None or c.state is None:
        return f"Use option {option} of the tile under the telescope"
    space = int((c.state.get("turn") or {}).get("space") or p.get("telescope", 0))
    queue = p.get("queue") or []
    tile = queue[space] if 0 <= space < len(queue) else None
    upgraded = tile in (p.get("upgraded") or [])
    if getattr(c.tile(tile), "mirror", False):  # Newton's special tile: its bonus, as often as granted
        used = c.told_event("MovingActionTaken")
        times = c.mirror_times(used) if used is not None else None
        text = f"Use {c.tile_name(tile)}: {c.tile_option(tile, 1, upgraded)}"
        return text + ("" if times is None else f", {plural(times, 'time')}")
    return f"Use {c.tile_name(tile)} option {option}: {c.tile_option(tile, option, upgraded)}"


def _lecture(m: Mapping[str, Any], c: Context) -> str:
    return f"Lecture at {c.scale(int(m.get('tile', 0)))}"  # the row reached: the event tells it (LEC-1)


def _write(m: Mapping[str, Any], c: Context, complete: bool) -> str:
    row = int(m.get("row", 0))
    name = ROWS[row] if 0 <= row < 4 else str(row)
    return f"{'Complete writing' if complete else 'Write 1'} on library row {name}"


def _persuade(m: Mapping[str, Any], c: Context) -> str:
    space = int(m.get("space", 0))
    what = "a Grand Inquisitor" if m.get("grand") else "an Inquisitor"
    size = c.cellar_size(int(m.get("seat", 0)))  # Bruno's cellar tile has 5 spaces (CHAR-BRU-2)
    src = f"C{space + 1}" if 0 <= space < size else str(space)
    moved = c.told_event("InquisitorPersuaded")  # where it goes is the engine's event (INQ-10)
    if moved is None:
        return f"Persuade {what} from {src}"
    end = int(moved.get("end", 0))
    return f"Persuade {what} from {src} to {f'C{end + 1}' if 0 <= end < size else 'out of the cellar'}"


def _gain_die(m: Mapping[str, Any], c: Context) -> str:
    text = f"Gain a {colour_name(str(m.get('colour')))} die"
    if m.get("returned"):
        text += f", returning your {die_text(m['returned'])}"
    return text


def _bonus_space(m: Mapping[str, Any], c: Context) -> str:
    space = int(m.get("space", 0))
    side = str((c.state or {}).get("luna", {}).get("side", "")) if c.state and c.state.get("luna") else ""
    spaces = c.catalog.luna.bonus_boards.get(side, ())
    reward = f": {reward_text(spaces[space - 1].reward)}" if 1 <= space <= len(spaces) else ""
    return f"Send the Grand Inquisitor to Bonus Board space {space}{reward}"


def _anytile(m: Mapping[str, Any], c: Context) -> str:
    p = c.player(int(m.get("seat", 0)))
    upgraded = p is not None and m.get("tile") in (p.get("upgraded") or [])
    option = int(m.get("option", 0))
    return (
        f"Use {c.tile_name(m.get('tile'))} option {option}: {c.tile_option(m.get('tile'), option, upgraded)}"
    )


def _sky_of(c: Context, seat: int, tile: Any) -> str:
    p = c.player(seat)
    queue = (p.get("queue") or []) if p is not None else []
    return f" on {_sky(queue.index(tile))}" if tile in queue else ""


DECLINED = {
    "KSWAP": "Swap no tiles (Kepler's special tile)",
    "PER2D": "Stop persuading this Inquisitor (Copernicus' page)",
}


def _decline_ability(m: Mapping[str, Any], c: Context) -> str:
    """What is declined: the pending ability effect (the top of the agenda)."""
    agenda = (c.state or {}).get("agenda") or []
    kind = str(agenda[-1][0]) if agenda else ""
    return DECLINED.get(kind, "Do not use the ability")


def _kepler_swap(m: Mapping[str, Any], c: Context) -> str:
    """CHAR-KEP-2: two tiles of the sky, or the set-aside tile with one of the sky."""
    seat = int(m.get("seat", 0))
    first, second = m.get("first"), m.get("second")
    p = c.player(seat)
    aside = ((p.get("ability") or {}).get("aside") if p is not None else None) or None
    if first == aside:
        return (
            f"Swap the set-aside {c.tile_name(first)} (character board) with {c.tile_name(second)}"
            f"{_sky_of(c, seat, second)}"
        )
    one = f"{c.tile_name(first)}{_sky_of(c, seat, first)}"
    return f"Swap {one} and {c.tile_name(second)}{_sky_of(c, seat, second)}"


def _library_tile(m: Mapping[str, Any], c: Context) -> str:
    """CHAR-COP-2..4: where the tile goes and what the covered spaces give from then on."""
    column = int(m.get("column", 1))
    row = int(m.get("row", 0))
    where = "the printed column" if column == 1 else f"the column of library card {column - 1}"
    text = f"Place library tile {m.get('tile')} face {m.get('face')} up on {where}"
    tile = c.library_tile(m.get("tile"))
    face = str(m.get("face"))
    rows = covering(tile, face, row) if tile is not None and face in tile.faces else ()
    covered = [f"{ROWS[at]} gives {reward_text(r)}" for at, r in rows if 0 <= at < len(ROWS)]
    return f"{text}: {', '.join(covered)}" if covered else f"{text}, {ROWS[row] if 0 <= row < 4 else row}"


def _shift_mirror(m: Mapping[str, Any], c: Context) -> str:
    """CHAR-NEW-4: a special tile forward (each skipped tile back one), or not."""
    steps = int(m.get("steps", 0))
    if not steps:
        return "Leave the special tiles where they are"
    seat = int(m.get("seat", 0))
    tile = m.get("tile")
    p = c.player(seat)
    queue = (p.get("queue") or []) if p is not None else []
    text = f"Move {c.tile_name(tile)} {plural(steps, 'position')} forward"
    luna = c.catalog.luna_characters
    shifted = c.told_event("MirrorShifted")  # the queue it makes is the engine's event (CHAR-NEW-4)
    after = list(shifted.get("queue") or []) if shifted is not None else []
    at, to = (queue.index(tile), after.index(tile)) if tile in queue and tile in after else (-1, -1)
    if luna is not None and 0 <= at < len(luna.multipliers) and 0 <= to < len(luna.multipliers):
        before, then = multiplier(luna.multipliers, at), multiplier(luna.multipliers, to)
        text += f" (from {_sky(at)}, multiplier {before}, to {_sky(to)}, multiplier {then})"
    return text


def _claim_tile(m: Mapping[str, Any], c: Context) -> str:
    """CHAR-HEV-2/5: the offer tile and where it goes."""
    tile_id = str(m.get("tile"))
    target = int(m.get("target", 0))
    luna = c.catalog.luna_characters
    what = f"Constellation tile {tile_id}"
    if luna is not None:
        tile = next((t for t in luna.hevelius_tiles if t.id == tile_id), None)
        if tile is not None:
            what += f" ({plural(tile.stars, 'star')}, {plural(tile.connections, 'connection')})"
    where = " to start a new constellation" if not target else f" to extend constellation {target}"
    return f"Claim {what}{where}"


COMMAND_TEXT: Mapping[str, CommandText] = {
    "Move": _move,
    "Observe": _observe,
    "StopObserving": lambda m, c: "Stop observing",
    "TakeFixed": lambda m, c: f"Fixed action: {FIXED_ACTIONS.get(str(m.get('action')), m.get('action'))}",
    "UseTile": _use_tile,
    "BuyFree": lambda m, c: f"Free action: {FREE_ACTIONS.get(str(m.get('action')), m.get('action'))}",
    "EndActions": lambda m, c: "End the action phase",
    "EndFreeActions": lambda m, c: "No more free actions now",
    "Persuade": _persuade,
    "GainDie": _gain_die,
    "DeclineDie": lambda m, c: "Take no die",
    "Lecture": _lecture,
    "RaiseDie": lambda m, c: f"Raise the {die_text(m.get('die') or [])} die",
    "Recolour": lambda m, c: (
        f"Turn the {die_text(m.get('die') or [])} die {colour_name(str(m.get('colour')))}"
    ),
    "Farewell": lambda m, c: "Take the Inquisitor's Farewell" if m.get("accept") else "Decline the Farewell",
    "WriteStep": lambda m, c: _write(m, c, complete=False),
    "StopWriting": lambda m, c: "Stop writing",
    "WriteComplete": lambda m, c: _write(m, c, complete=True),
    "Upgrade": lambda m, c: f"Upgrade {c.tile_name(m.get('tile'))}",
    "PlaceComet": lambda m, c: f"Place the comet on {c.page(m.get('page'))}",
    "BonusSpace": _bonus_space,
    "Relocate": lambda m, c: f"Relocate the telescope to {_sky(m.get('space'))}",
    "SwapTiles": lambda m, c: f"Swap {c.tile_name(m.get('first'))} and {c.tile_name(m.get('second'))}",
    "RegainRow": lambda m, c: f"Regain the rewards of library row {ROWS[int(m.get('row', 0))]}",
    "BonusTile": _anytile,
    "CollectScale": lambda m, c: f"Collect the reward of {c.scale(int(m.get('tile', 0)))}",
    "ShiftMirror": _shift_mirror,
    "ClaimTile": _claim_tile,
    "DiscardOffer": lambda m, c: f"Discard Constellation tiles {', '.join(m.get('tiles') or [])}",
    "PagePart": lambda m, c: f"Resolve {reward_text([str(m.get('part'))])} of the page next",
    "Focus": lambda m, c: (
        "Move the square token first, Focus after it"
        if m.get("space") == "later"
        else f"Focus on {colour_name(str(m.get('space')))}"
        if m.get("space") != "-"
        else "Leave the round token"
    ),
    "MoonReward": lambda m, c: (
        f"Moon objective: {c.catalog.luna.objective_vp} VP"
        if m.get("choice") == "vp"
        else f"Moon objective: {c.catalog.luna.objective_quadrants} Quadrants"
    ),
    "TakeInquisitor": lambda m, c: "Take the Inquisitor" if m.get("accept") else "Decline the Inquisitor",
    "Decline": lambda m, c: "Decline",
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

"""Luna rules that are computations (digest §18): Moon targets, phases, Scoring tiles, Bonus spaces."""

from __future__ import annotations

from domain.catalog.luna import POSITIONS, BonusSpace, ScoringTile
from domain.effects import reward_tasks
from domain.expansions.luna.state import luna, luna_of, seat_of
from domain.scoring import major_objects
from domain.state import GameState, PlayerState, Task


def moon_major_objects(s: GameState, p: PlayerState) -> int:
    """AMB-13: with the option, each Moon observation counts as a Major Object (LIB-5)."""
    return seat_of(p).moon if s.options.get("moon_counts_as_major_object") else 0


def phase_due(s: GameState) -> bool:
    """LUNA-31, AMB-42: a Dividing tile is on top of the deck (the next tier's first card is on top)."""
    part = luna_of(s)
    if part is None or part.phase >= 3 or not s.deck:
        return False
    return s.catalog.cards[s.deck[0]].tier > part.phase


def observable_moon_tiles(s: GameState) -> list[int]:
    """LUNA-21: Moon tiles with a face-up Scoring tile (any revealed phase), while a cost tile remains."""
    part = luna_of(s)
    if part is None or not part.costs:
        return []
    return [i for i in range(len(POSITIONS)) if part.visible(i) and not part.flipped[i] and part.scoring[i]]


def _measure(s: GameState, p: PlayerState, kind: str) -> int:
    if kind == "upgraded":
        return len(p.upgraded)
    if kind == "scale-spaces":
        return sum(p.university)
    if kind == "inquisitors":
        return p.inquisitors
    if kind == "comets-off":
        return p.comets_off
    if kind == "tokens-off":
        return p.tokens_used
    if kind == "major-objects":
        return major_objects(s, p)
    if kind == "min-book":
        return min(p.books)
    if kind == "inquisitor-advancement":  # spaces advanced, removed ones excluded (LUNA-68)
        return sum(i * (n + g) for i, (n, g) in enumerate(zip(p.cellar, seat_of(p).grand, strict=True)))
    if kind == "library-cards":
        return len(p.library)
    raise ValueError(f"unknown measure {kind!r}")  # pragma: no cover - the catalog validates measures


def scoring_tile(s: GameState, tile_id: str) -> ScoringTile:
    """The tile's rule; the ninth tile follows the ninthScoringTile option (DATA-24)."""
    tile = s.catalog.luna.scoring(tile_id)
    if tile_id == "LUNA-69" and s.options.get("ninth_scoring_tile") != "library-cards":
        return s.catalog.luna.scoring(s.options.get("ninth_scoring_tile"))
    return tile


def scoring_points(s: GameState, observer: int, tile_id: str, arriving: int = 1) -> tuple[int, ...]:
    """LUNA-23.3: bonus scoring for the observer, basic for every other player (rounded down); a
    forfeited seat's score is frozen (ASYNC-3): it gets 0. `arriving`: the Grand Inquisitors of this
    observation on their way to the observer's cellar (LUNA-23.4: one; the solo Tycho's none, SOLO-11)."""
    tile = scoring_tile(s, tile_id)
    out = []
    for p in s.players:
        if p.seat in s.frozen:
            out.append(0)
            continue
        count = _measure(s, p, tile.measure)
        if (
            p.seat == observer
            and tile.measure == "inquisitors"
            and s.options.get("moon_inquisitor_tile_counts_new_grand")
        ):
            count += arriving  # LUNA-63: "This includes the Grand Inquisitor gained from observing the Moon"
        per, divisor = tile.bonus if p.seat == observer else tile.basic
        out.append(count * per // divisor)
    return tuple(out)


def bonus_space(s: GameState, space: int) -> BonusSpace:
    return s.catalog.luna.bonus_boards[luna(s).side][space - 1]


def bonus_lost(s: GameState, p: PlayerState, space: BonusSpace) -> bool:
    """LUNA-BA-2 / LUNA-BA-8: a reward that needs a token the player no longer has is lost."""
    if space.requires == "comet":
        return "slot" not in p.comets
    if space.requires == "constellation-token":
        return p.tokens_used >= len(p.comets)
    return False


def bonus_tasks(s: GameState, space: BonusSpace) -> list[Task]:
    tasks = reward_tasks(space.reward, "bonus-board", s.rules.reward_codes)
    part = luna_of(s)
    if part is not None and part.side == "B" and space.space == 8:  # AMB-20: bonusB8WriteSize
        size = s.options.get("bonus_b8_write_size")
        tasks = [Task(t.kind, size, t.arg, t.source) if t.kind == "WRITE" else t for t in tasks]
    return tasks


def moon_objective_due(s: GameState, p: PlayerState) -> bool:
    """LUNA-80/81: after a player's second Moon observation, once per player."""
    part = luna_of(s)
    return (
        part is not None
        and seat_of(p).moon >= s.catalog.luna.objective_observations
        and p.seat not in part.achievers
    )

"""The Luna characters' own components (digest §17.5-17.8, DATA-15/19/20/22): Newton's Action tiles and
multipliers, Hevelius' 16 Constellation tiles and completion bands, Cunitz' Urania Propitia track, Note
tiles, Action tiles and personal pages, Sophia's Sun and Venus. Every value carries its provenance; the
values the seeds do not print are PROVISIONAL, so a corrected set is a data change (a new edition)."""

from __future__ import annotations

from dataclasses import dataclass

from domain.catalog.model import COLOURS, CatalogError, Reward
from domain.catalog.reader import Node
from domain.catalog.rewards import is_reward_code

# Ability codes inside the characters' tiles and pages (not rewards of the base vocabulary):
# FOCUS = Cunitz' round token to the colour of the option's single-colour increase (CHAR-CUN-2),
# FOCUSANY = round token to any space (CHAR-CUN-5), MOVEn = square token n spaces (CHAR-CUN-3).
# NSHIFT / NVP = Newton's personal pages 1 and 2 (CHAR-NEW-4/5).
ABILITY_CODES = frozenset({"FOCUS", "FOCUSANY", "MOVE1", "MOVE2", "MOVE3", "NSHIFT", "NVP"})
# Hevelius' condition icons (CHAR-HEV-2/3): an action icon kind, with its colour where it has one; the
# amount never counts (AMB-35).
CONDITIONS = frozenset(
    {"INC:R", "INC:Y", "INC:B", "1D", "Q", "LEC", "PER", "DIE", "WRITE", "SPOT", "UPG", "FW",
     "OBS:constellation", "OBS:major"}
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class CharacterTile:
    """A character's own Action tile. A Newton mirror (`mirror`) has one option, given `m` times
    (m = its position's multiplier, + `upgrade_bonus` once upgraded: DATA-15)."""

    id: str
    name: str
    basic: tuple[Reward, ...]
    upgraded: tuple[Reward, ...]
    mirror: bool
    upgrade_bonus: int
    provenance: str


@dataclass(frozen=True, slots=True)
class ConstellationTile:
    """One of Hevelius' tiles (CHAR-HEV-6): stars, connections, condition icon."""

    id: str
    stars: int
    connections: int
    condition: str
    provenance: str


@dataclass(frozen=True, slots=True)
class Note:
    id: str
    frame: tuple[str, ...]  # the colour(s) the round token must show (CHAR-CUN-4)
    reward: Reward
    provenance: str


@dataclass(frozen=True, slots=True)
class LunaCharacters:
    newton_tiles: tuple[CharacterTile, ...]
    multipliers: tuple[int, ...]  # per queue position q0..q5 (DER-10, AMB-34)
    page2_vp_per_multiplier: int
    page1_steps: int
    hevelius_tiles: tuple[ConstellationTile, ...]
    offer_size: int
    bands: tuple[tuple[int, Reward], ...]  # (least stars, reward), ascending (CHAR-HEV-6)
    cunitz_tiles: tuple[CharacterTile, ...]
    track: tuple[Reward | None, ...]  # per space: its reward, None on a Note space; space 0 = start
    notes: tuple[Note, ...]
    sun: tuple[Reward, ...]
    venus: tuple[tuple[int, ...], ...]  # per Venus position: the Sun spaces it covers
    provenance: dict[str, str]

    def constellation_tile(self, tile_id: str) -> ConstellationTile:
        return next(t for t in self.hevelius_tiles if t.id == tile_id)

    def note(self, note_id: str) -> Note:
        return next(n for n in self.notes if n.id == note_id)

    @property
    def note_spaces(self) -> tuple[int, ...]:
        return tuple(i for i, space in enumerate(self.track) if space is None)


def _codes(node: Node, extra: frozenset[str] = frozenset()) -> Reward:
    codes = []
    for item in node.items():
        code = item.text()
        if not is_reward_code(code) and code not in extra:
            raise item.error(f"unknown or malformed code {code!r}")
        codes.append(code)
    return tuple(codes)


def _tile(node: Node, mirror_ok: bool) -> CharacterTile:
    keys = ("id", "name", "basic", "upgraded", "provenance")
    f = node.fields((*keys, "mirror", "upgrade_bonus") if mirror_ok else keys)
    mirror = f["mirror"].boolean() if mirror_ok else False
    faces = [tuple(_codes(o, ABILITY_CODES) for o in f[face].items(1 if mirror else 2)) for face in
             ("basic", "upgraded")]  # fmt: skip
    return CharacterTile(
        id=f["id"].text(),
        name=f["name"].text(),
        basic=faces[0],
        upgraded=faces[1],
        mirror=mirror,
        upgrade_bonus=f["upgrade_bonus"].integer(0, 4) if mirror_ok else 0,
        provenance=f["provenance"].provenance(),
    )


def parse_luna_characters(root: Node) -> LunaCharacters:
    f = root.fields(("newton", "hevelius", "cunitz", "sophia"))
    provenance: dict[str, str] = {}

    def valued(section: dict[str, Node], name: str, key: str) -> Node:
        v = section[key].fields(("value", "provenance"))
        provenance[f"{name}.{key}"] = v["provenance"].provenance()
        return v["value"]

    new = f["newton"].fields(("tiles", "multipliers", "page2_vp_per_multiplier", "page1_steps"))
    newton_tiles = tuple(_tile(n, True) for n in new["tiles"].items(6, "Newton tiles"))  # CHAR-NEW-1
    if sum(t.mirror for t in newton_tiles) != 2:
        raise new["tiles"].error("Newton has two special (mirror) tiles (CHAR-NEW-1)")
    multipliers = tuple(n.integer(0, 4) for n in valued(new, "newton", "multipliers").items(6, "positions"))

    hev = f["hevelius"].fields(("tiles", "offer", "bands"))
    tiles = []
    for node in hev["tiles"].items(16, "Constellation tiles"):  # CHAR-HEV-1
        t = node.fields(("id", "stars", "connections", "condition", "provenance"))
        tiles.append(
            ConstellationTile(
                t["id"].text(),
                t["stars"].integer(1, 3),  # CHAR-HEV-6
                t["connections"].integer(1, 3),
                t["condition"].choice(sorted(CONDITIONS), "condition icon"),
                t["provenance"].provenance(),
            )
        )
    if len({t.id for t in tiles}) != len(tiles):
        raise hev["tiles"].error("duplicate Constellation tile id")
    bands = []
    for node in valued(hev, "hevelius", "bands").items():
        b = node.fields(("min_stars", "reward"))
        bands.append((b["min_stars"].integer(2), _codes(b["reward"])))
    if [m for m, _ in bands] != sorted({m for m, _ in bands}) or bands[0][0] != 2:
        raise hev["bands"].error("bands ascend from 2 stars (DER-11)")

    cun = f["cunitz"].fields(("tiles", "track", "notes"))
    cunitz_tiles = tuple(_tile(n, False) for n in cun["tiles"].items(6, "Cunitz tiles"))  # CHAR-CUN-1
    track: list[Reward | None] = []
    for i, node in enumerate(valued(cun, "cunitz", "track").items()):
        if node.value == "START":
            if i != 0:
                raise node.error("only the first space is the start")
            track.append(())
        elif node.value == "NOTE":
            track.append(None)
        else:
            track.append(_codes(node))
    notes = []
    for node in cun["notes"].items():
        n = node.fields(("id", "frame", "reward", "provenance"))
        frame = tuple(c.choice(COLOURS, "colour") for c in n["frame"].items())
        notes.append(Note(n["id"].text(), frame, _codes(n["reward"]), n["provenance"].provenance()))
    if len(notes) != track.count(None) or len(notes) != 6:
        raise cun["notes"].error("six Note tiles, one per Note space (CHAR-CUN-1)")

    sop = f["sophia"].fields(("sun", "venus"))
    sun = tuple(_codes(s) for s in valued(sop, "sophia", "sun").items())
    venus = tuple(
        tuple(i.integer(0, len(sun) - 1) for i in p.items()) for p in valued(sop, "sophia", "venus").items()
    )
    if not venus or venus[-1] != (len(sun) - 1,):
        raise CatalogError(f"{sop['venus'].where}: the last Venus position covers only the Sun's last space")
    return LunaCharacters(
        newton_tiles=newton_tiles,
        multipliers=multipliers,
        page2_vp_per_multiplier=valued(new, "newton", "page2_vp_per_multiplier").integer(0),
        page1_steps=valued(new, "newton", "page1_steps").integer(1),
        hevelius_tiles=tuple(tiles),
        offer_size=valued(hev, "hevelius", "offer").integer(1),
        bands=tuple(bands),
        cunitz_tiles=cunitz_tiles,
        track=tuple(track),
        notes=tuple(notes),
        sun=sun,
        venus=venus,
        provenance=dict(sorted(provenance.items())),
    )

"""Rules editions (docs/editions.md): what a game is pinned to when it starts.

A game's rules edition is the engine rules version, the catalog edition with its content hash, and the
rule options, all recorded in its `GameStarted`. The engine keeps every released rules version in
`RULES_VERSIONS` (behaviour that changed is selected by `GameState.engine_version`), and the catalog keeps
every released edition as data (`domain/catalog/editions/`). New games get `ENGINE_VERSION` and the
catalog's `CURRENT_EDITION`.

Bump `ENGINE_VERSION` (and add it to `RULES_VERSIONS`) whenever the rules behaviour changes: the events
a command causes, the legal moves, or how an event is applied.
"""

from __future__ import annotations

from functools import cache

from domain.errors import EditionUnknown

ENGINE_VERSION = "0.4.0"  # the rules version new games are played under
# every released rules version this build still plays and re-adjudicates
RULES_VERSIONS = ("0.1.0", "0.2.0", "0.3.0", "0.4.0")
# 0.3.0: the characters' own hidden orders wholly committed at setup (Hevelius' reshuffles drawn from a
# committed key, forks re-deal them exactly); Hevelius' claims open in Cleanup (CHAR-HEV-4), her discard
# ending her Action phase (AMB-37); the parts of Cunitz' personal pages in any order (CHAR-CUN-5); an
# expansion's fork keeps what it dealt on a revealed space emptied since (docs/editions.md).
RULES_0_3_0 = (0, 3, 0)
# 0.4.0 (issue 27, the rules corrections): Copernicus' library tiles only on his cards' spaces strictly
# right of the Book token (CHAR-COP-3, AMB-29); Hevelius' discard whenever her Action phase ends with no
# condition met (CHAR-HEV-8, AMB-37); every part of Cunitz' personal pages in any order (CHAR-CUN-5);
# the solo Tycho's "Inquisitors in your cellar" tile counts his own figures only (SOLO-11) and his
# Book marker runs on his library board's own track (AMB-56); the solo person on the ability side (SOLO-26).
RULES_0_4_0 = (0, 4, 0)


def check_rules_version(version: str) -> str:
    """`version` if this build keeps it; EditionUnknown naming it otherwise."""
    if version not in RULES_VERSIONS:
        raise EditionUnknown(
            "rules version",
            version,
            RULES_VERSIONS,
            f"A game recorded under it needs a release of galileo-service whose engine keeps rules {version}",
        )
    return version


@cache
def at_least(version: str, since: tuple[int, ...]) -> bool:
    """Whether rules `version` includes the behaviour introduced by rules `since` (docs/editions.md)."""
    return tuple(int(part) for part in version.split(".")) >= since

"""The Luna expansion (digest §18), a plug-in on the base engine's seams (docs/engine.md).

- `state`: its part of the game state (`LunaState`, the dumped state's `"luna"` member);
- `deal`: its part of the setup deal and of a fork's re-deal;
- `rules`: its computations (Moon targets and phases, Scoring tiles, Bonus Board spaces);
- `plugin`: its setup and fork steps, events, commands, grants, interrupts and legal-move seams;
- `domain/concepts/luna.py`: its effect kinds (the Bonus Board rewards, the Grand Inquisitors, the Moon
  objective).

Importing this package registers all of them.
"""

from domain.concepts import luna as kinds
from domain.expansions.luna import deal, plugin, rules, state

__all__ = ["deal", "kinds", "plugin", "rules", "state"]

"""The Luna expansion (digest §18), a plug-in on the base engine's seams (docs/engine.md).

- `options`: its rule options (`luna`, `bonusBoardSide`, ...);
- `state`: its part of the game state (`LunaState`, the dumped state's `"luna"` member);
- `deal`: its part of the setup deal and of a fork's re-deal;
- `rules`: its computations (Moon targets and phases, Scoring tiles, Bonus Board spaces);
- `plugin`: its setup and fork steps, events, commands, grants, interrupts and legal-move seams;
- `effects`: its effect kinds (the Bonus Board rewards, the Grand Inquisitors, the Moon objective);
- `events`, `commands`: its event and command types.

Its rules are the plug-in `plugin.Luna`; its event, command, option, state-part and deal types are
declared by their modules and composed in `domain/vocabulary.py` (the wire vocabulary, read before a
game's rules are known).
"""

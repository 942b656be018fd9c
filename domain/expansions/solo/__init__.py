"""The solo game against Tycho Brahe (rules addendum "The solo game", CN p.16-18; digest §19) as a
plug-in: a non-player opponent (domain/opponents.py) with his setup, hidden Movement stack, turn, effects
and events. The person plays seat 0, Tycho seat 1.

- `data`: the provisional solo data (DATA-26..28, domain/catalog/solo/);
- `events`, `state`: his events and his seat's part;
- `rules`: his setup, deal and fork re-deal, his turn and effects, and the opponent itself;
- `moon`: Luna's additions (the Moon tile, SOLO-8..12).
"""

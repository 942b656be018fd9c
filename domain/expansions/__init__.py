"""Expansions, each a plug-in registering its rules on the base engine's seams (domain/effect_kinds.py,
domain/evolve.py, domain/resolve.py, domain/grants.py, domain/turnorder.py, domain/opponents.py).
Importing this package registers every expansion; `domain.engine` does so."""

from domain.expansions import luna, solo

__all__ = ["luna", "solo"]

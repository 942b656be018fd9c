"""Expansions, each a plug-in (domain/ruleset.py); `plugins.py` composes a game's rules from them, the base
game and the characters."""

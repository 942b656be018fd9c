"""The rules concepts, one module each, declaring the effect kinds they define in its `RULES` (the base
game's, domain/base.py).
"""

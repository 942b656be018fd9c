"""Pure rules of the Luna characters' abilities (digest §17.5-17.8), over plain values: no game state.

The engine's character seam (`domain/characters`) calls these; tests check them rule by rule.
"""

"""Galileo Galilei rules engine: pure, deterministic, no I/O."""

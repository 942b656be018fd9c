"""Replay, fork, export/import, verification, dispute reports and analysis of games."""

"""Read models built from the game events: board views, lobby, timelines, statistics."""

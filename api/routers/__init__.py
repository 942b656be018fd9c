"""One router per resource: health, games (lobby, creation, board), play, events, replay."""

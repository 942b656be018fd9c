"""Processes starting together (API replicas and the projector) create the store's and the views' tables
at once on PostgreSQL: the creation is serialised by the store's advisory lock, so none fails with
"tuple concurrently updated" and none logs it."""

from __future__ import annotations

import logging
import threading

import pytest

from projections.projector import open_table
from projections.source import open_store

STARTERS = 6


@pytest.mark.postgres
def test_concurrent_start_ups_create_tables_without_catalog_conflicts(
    fresh_schema: str, caplog: pytest.LogCaptureFixture
) -> None:
    from replays.store import open_store as open_game_store

    errors: list[BaseException] = []
    barrier = threading.Barrier(STARTERS)

    def start() -> None:
        try:
            barrier.wait(10)
            open_game_store(fresh_schema).close()
            for name in ("lobby", "stats"):
                open_table(fresh_schema, name).datastore.close()
            open_store(fresh_schema).close()
        except BaseException as error:
            errors.append(error)

    with caplog.at_level(logging.WARNING):
        threads = [threading.Thread(target=start) for _ in range(STARTERS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
    assert errors == []
    assert "concurrently updated" not in caplog.text

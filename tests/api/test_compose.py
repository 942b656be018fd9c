"""compose.yaml runs the scaled-out shape: two API replicas, PostgreSQL and Redis, with healthchecks."""

from __future__ import annotations

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
KEY = "/keys/encryption.key"


def test_compose_has_two_api_replicas_postgres_redis_and_healthchecks() -> None:
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    services = compose["services"]
    apis = [name for name in services if name.startswith("api")]
    assert len(apis) == 2
    for name in apis:
        api = services[name]
        assert set(api["environment"]) == {
            "GALILEO_DATABASE_URL",
            "REDIS_URL",
            "GALILEO_PROJECTIONS",
            "GALILEO_CLOCKS",
            "GALILEO_PUBLIC_URL",
            "GALILEO_ENCRYPTION_KEY_FILE",
        }
        # one key file for every process that reads the webhook secrets (docs/operations.md,
        # "Secrets at rest")
        assert api["volumes"] == ["keys:/keys"] and api["environment"]["GALILEO_ENCRYPTION_KEY_FILE"] == KEY
        assert api["environment"]["GALILEO_PROJECTIONS"] == "off"
        assert api["environment"]["GALILEO_CLOCKS"] == "off"
        assert api["environment"]["GALILEO_DATABASE_URL"].startswith("postgresql://")
        assert api["depends_on"] == {
            "postgres": {"condition": "service_healthy"},
            "redis": {"condition": "service_healthy"},
        }
        assert "/readyz" in " ".join(api["healthcheck"]["test"])
    assert services["projector"]["command"] == ["galileo", "projections", "run"]
    clocks = services["clocks"]  # the one clock scheduler and webhook worker (docs/async.md)
    assert clocks["command"] == ["galileo", "clocks", "run"]
    assert clocks["environment"]["GALILEO_DATABASE_URL"].startswith("postgresql://")
    assert clocks["environment"]["REDIS_URL"].startswith("redis://")
    assert clocks["volumes"] == ["keys:/keys"] and clocks["environment"]["GALILEO_ENCRYPTION_KEY_FILE"] == KEY
    worker = services["worker"]  # analysis jobs from the Redis queue (docs/analysis-api.md)
    assert worker["command"] == ["galileo", "worker"]
    assert worker["environment"]["GALILEO_DATABASE_URL"].startswith("postgresql://")
    assert worker["environment"]["REDIS_URL"].startswith("redis://")
    assert set(worker["depends_on"]) == {"postgres", "redis"}
    for name in ("postgres", "redis"):
        assert services[name]["healthcheck"]["test"]
    assert (ROOT / "Dockerfile").exists()

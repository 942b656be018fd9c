"""The OpenAPI page documents every route, each with its one-line description."""

from __future__ import annotations

from fastapi.testclient import TestClient

ROUTES = {
    ("post", "/games"),
    ("get", "/games"),
    ("get", "/games/{game_id}"),
    ("get", "/games/{game_id}/moves"),
    ("post", "/games/{game_id}/commands"),
    ("get", "/games/{game_id}/events"),
    ("get", "/games/{game_id}/stream"),
    ("get", "/games/{game_id}/at/{version}"),
    ("post", "/games/{game_id}/fork"),
    ("get", "/games/{game_id}/export"),
    ("post", "/games/import"),
    ("get", "/games/{game_id}/verify"),
    ("get", "/games/{game_id}/timeline"),
    ("get", "/stats"),
    ("get", "/healthz"),
    ("get", "/readyz"),
    ("get", "/rules"),
    ("get", "/rules/{rule_id}"),
    # the table (docs/async.md)
    ("get", "/games/{game_id}/table"),
    ("post", "/games/{game_id}/takeback"),
    ("post", "/games/{game_id}/takeback/answer"),
    ("post", "/games/{game_id}/resign"),
    ("post", "/games/{game_id}/clock/pause"),
    ("post", "/games/{game_id}/clock/resume"),
    ("put", "/games/{game_id}/webhook"),
    ("delete", "/games/{game_id}/webhook"),
    ("get", "/games/{game_id}/notifications"),
    ("post", "/games/{game_id}/host/seats/{seat}/link"),
    ("post", "/games/{game_id}/host/seats/{seat}/handover"),
    ("post", "/games/{game_id}/host/clock/extend"),
    ("post", "/games/{game_id}/host/cancel"),
    ("get", "/turns"),
}


def test_every_route_is_documented(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    found = {(method, path) for path, item in spec["paths"].items() for method in item}
    assert found == ROUTES
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            assert operation.get("description"), f"{method.upper()} {path} has no description"
    assert client.get("/docs").status_code == 200

"""The OpenAPI page documents every route, each with its one-line description."""

from __future__ import annotations

import re

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
    ("get", "/catalog/{edition}"),
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


def test_the_documentation_pages_use_only_assets_the_app_serves(client: TestClient) -> None:
    """/docs and /redoc load their scripts and styles from this app, never from a CDN (offline use);
    tests/api/test_browser.py renders them in a browser with every other origin blocked."""
    for page in ("/docs", "/redoc"):
        html = client.get(page).text
        refs = re.findall(r"(?:src|href)=['\"]([^'\"]+)['\"]", html)
        assert refs, page
        for ref in refs:
            assert ref.startswith("/"), f"{page} loads {ref} from another origin"
            assert client.get(ref).status_code == 200, f"{page} loads {ref}, which is not served"
        assert "cdn" not in html.lower() and "fonts.googleapis" not in html
    assert b"cdn.redoc.ly" not in client.get("/docs-assets/redoc.standalone.js").content  # its badge's logo


def test_the_catalog_is_served_with_its_hash_as_etag(client: TestClient) -> None:
    response = client.get("/catalog/base")  # "base": the edition new games get (docs/editions.md)
    assert response.status_code == 200
    data = response.json()
    assert data["edition"] == "base-2" and len(data["cards"]) > 20
    first = client.get("/catalog/base-provisional-1")  # every released edition stays served
    assert first.status_code == 200 and first.json()["edition"] == "base-provisional-1"
    assert first.headers["etag"] != response.headers["etag"]
    assert {"action_tiles", "starry_sky", "scale_tiles", "book_pages", "luna"} <= set(data)
    etag = response.headers["etag"]
    assert etag == f'"{data["content_hash"]}"'
    assert client.get(f"/catalog/{data['edition']}", headers={"If-None-Match": etag}).status_code == 304
    missing = client.get("/catalog/no-such-edition")
    assert missing.status_code == 404 and missing.json()["code"] == "unknown-edition"

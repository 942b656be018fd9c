"""The OpenAPI page documents every route, each with its one-line description."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from api.contract import NO_STORE
from scripts.openapi import TARGET, document

PROBLEM = "application/problem+json"

# Every route and its operationId: stable names for generated clients (docs/api.md, versioning).
ROUTES = {
    ("post", "/games"): "createGame",
    ("get", "/games"): "listGames",
    ("get", "/games/{game_id}"): "getBoard",
    ("get", "/games/{game_id}/moves"): "listMoves",
    ("post", "/games/{game_id}/commands"): "submitCommand",
    ("get", "/games/{game_id}/events"): "listEvents",
    ("get", "/games/{game_id}/stream"): "streamEvents",
    ("get", "/games/{game_id}/at/{version}"): "getBoardAt",
    ("post", "/games/{game_id}/fork"): "forkGame",
    ("get", "/games/{game_id}/export"): "exportGame",
    ("post", "/games/import"): "importGame",
    ("get", "/games/{game_id}/verify"): "verifyGame",
    ("get", "/games/{game_id}/timeline"): "getTimeline",
    ("get", "/stats"): "getStats",
    ("get", "/catalog/{edition}"): "getCatalog",
    ("get", "/healthz"): "getHealth",
    ("get", "/readyz"): "getReadiness",
    ("get", "/rules"): "listRules",
    ("get", "/rules/{rule_id}"): "getRule",
    # the table (docs/async.md)
    ("get", "/games/{game_id}/table"): "getTable",
    ("post", "/games/{game_id}/takeback"): "requestTakeBack",
    ("post", "/games/{game_id}/takeback/answer"): "answerTakeBack",
    ("post", "/games/{game_id}/resign"): "resign",
    ("post", "/games/{game_id}/clock/pause"): "pauseClock",
    ("post", "/games/{game_id}/clock/resume"): "resumeClock",
    ("put", "/games/{game_id}/webhook"): "setWebhook",
    ("delete", "/games/{game_id}/webhook"): "deleteWebhook",
    ("post", "/games/{game_id}/webhook/secret"): "rotateWebhookSecret",
    ("get", "/games/{game_id}/notifications"): "listNotifications",
    ("post", "/games/{game_id}/host/seats/{seat}/link"): "reissueSeatLink",
    ("post", "/games/{game_id}/host/seats/{seat}/handover"): "handOverSeat",
    ("post", "/games/{game_id}/host/clock/extend"): "extendClock",
    ("post", "/games/{game_id}/host/cancel"): "cancelGame",
    ("get", "/turns"): "streamTurns",
    ("post", "/games/{game_id}/analysis"): "requestAnalysis",
    ("get", "/games/{game_id}/analysis"): "getCurrentAnalysis",
    ("get", "/games/{game_id}/analysis/{job_id}"): "getAnalysisJob",
    ("delete", "/games/{game_id}/analysis/{job_id}"): "cancelAnalysis",
    # accounts (docs/accounts.md)
    ("post", "/passkeys/register/options"): "passkeyRegistrationOptions",
    ("post", "/passkeys/register"): "registerPasskey",
    ("post", "/session/options"): "signInOptions",
    ("post", "/session"): "signIn",
    ("delete", "/session"): "signOut",
    ("get", "/session"): "getSession",
    ("get", "/session/oidc/login"): "oidcLogin",
    ("get", "/session/oidc/callback"): "oidcCallback",
    ("delete", "/me"): "deleteAccount",
    ("get", "/me"): "getAccount",
    ("put", "/me/language"): "setAccountLanguage",
    ("get", "/me/games"): "listMyGames",
    ("post", "/games/{game_id}/claim"): "claimSeat",
    ("post", "/games/{game_id}/seats/{seat}/recover"): "recoverSeat",
    # table chat (docs/chat.md)
    ("get", "/games/{game_id}/chat"): "listChat",
    ("post", "/games/{game_id}/chat"): "postChat",
    ("delete", "/games/{game_id}/chat/{message_id}"): "deleteChat",
    ("post", "/games/{game_id}/chat/mutes"): "muteSpectator",
    ("put", "/games/{game_id}/chat/hidden"): "hideChat",
    # ratings and profiles (docs/ratings.md)
    ("get", "/ratings"): "listRatings",
    ("get", "/players/{name}"): "getPlayer",
    ("get", "/players/{name}/ratings/{pool}.svg"): "playerRatingHistory",
    ("put", "/me/profile"): "setProfile",
    ("get", "/me/profile"): "getProfile",
    ("get", "/games/{game_id}/rating"): "getGameRating",
    # tournaments (docs/tournaments.md)
    ("post", "/tournaments"): "createTournament",
    ("get", "/tournaments"): "listTournaments",
    ("get", "/tournaments/{tournament_id}"): "getTournament",
    ("post", "/tournaments/{tournament_id}/entries"): "enterTournament",
    ("post", "/tournaments/{tournament_id}/start"): "startTournament",
    ("post", "/tournaments/{tournament_id}/withdraw"): "withdrawFromTournament",
    ("post", "/games/{game_id}/host/seats/{seat}/invite"): "inviteAccount",
    # turn notifications by mail and Web Push (docs/notifications.md)
    ("get", "/me/notifications"): "getMyNotifications",
    ("put", "/me/email"): "setMyEmail",
    ("delete", "/me/email"): "deleteMyEmail",
    ("put", "/me/push"): "addMyPushDevice",
    ("post", "/me/push/remove"): "removeMyPushDevice",
    ("get", "/me/games/{game_id}/notifications"): "getGameNotifications",
    ("put", "/me/games/{game_id}/notifications"): "setGameNotifications",
    ("get", "/games/{game_id}/reach"): "getSeatNotifications",
    ("put", "/games/{game_id}/email"): "setSeatEmail",
    ("delete", "/games/{game_id}/email"): "deleteSeatEmail",
    ("put", "/games/{game_id}/push"): "addSeatPushDevice",
    ("post", "/games/{game_id}/push/remove"): "removeSeatPushDevice",
    ("get", "/push/key"): "getPushKey",
    ("get", "/mail/confirm"): "confirmEmailPage",
    ("post", "/mail/confirm"): "confirmEmail",
    ("get", "/mail/unsubscribe"): "unsubscribeEmailPage",
    ("post", "/mail/unsubscribe"): "unsubscribeEmail",
}


def test_every_route_is_documented(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    found = {
        (method, path): op["operationId"]
        for path, item in spec["paths"].items()
        for method, op in item.items()
    }
    assert found == ROUTES
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            assert operation.get("description"), f"{method.upper()} {path} has no description"
    assert client.get("/docs").status_code == 200


def test_committed_openapi_document_is_current() -> None:
    """docs/openapi.json is what the app serves: regenerate it with `make openapi`."""
    committed = TARGET.read_text(encoding="utf-8")
    assert committed == document(), "docs/openapi.json is stale: run `make openapi` and commit it"


def test_every_error_status_is_documented_as_problem_json(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    problem_ref = {"schema": {"$ref": "#/components/schemas/Problem"}}
    assert spec["components"]["securitySchemes"]["seatToken"] == {
        "type": "http",
        "scheme": "bearer",
        "description": spec["components"]["securitySchemes"]["seatToken"]["description"],
    }
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            statuses = set(operation["responses"])
            assert {"413", "500"} <= statuses, (method, path)
            if (method, path) not in NO_STORE:
                assert "503" in statuses, (method, path)
            for status, response in operation["responses"].items():
                if int(status) >= 400 and not (path == "/readyz" and status == "503"):
                    assert response["content"] == {PROBLEM: problem_ref}, (method, path, status)
            if path.startswith("/games/{game_id}") and not path.endswith(("/timeline", "/rating")):
                assert {"401", "403", "404"} <= statuses, (method, path)
                token = {"hostToken": []} if "/host/" in path else {"seatToken": []}
                if path.endswith("/claim"):  # the seat's link and the account's session (ACCT-1)
                    token = {"seatToken": [], "sessionCookie": []}
                elif path.endswith("/recover"):  # the account's session only (ACCT-2)
                    token = {"sessionCookie": []}
                assert token in operation["security"], (method, path)
    for method, path in (("post", "/games"), ("post", "/games/import"), ("post", "/games/{game_id}/fork")):
        assert {"403", "429"} <= set(spec["paths"][path][method]["responses"]), (method, path)
    commands = spec["paths"]["/games/{game_id}/commands"]["post"]
    assert {"409", "429"} <= set(commands["responses"]) and commands["security"] == [{"seatToken": []}]
    assert spec["paths"]["/games/{game_id}"]["get"]["security"] == [{}, {"seatToken": []}]
    for path, item in spec["paths"].items():  # the table's writes count against the command rate
        for method, operation in item.items():
            if path.startswith("/games/{game_id}/") and method in ("post", "put", "delete"):
                assert "429" in operation["responses"], (method, path)
    assert spec["components"]["securitySchemes"]["hostToken"]["scheme"] == "bearer"
    assert spec["paths"]["/turns"]["get"]["security"] == [{"seatToken": []}]
    table = spec["paths"]["/games/{game_id}/table"]["get"]
    assert table["security"] == [{}, {"seatToken": []}, {"hostToken": []}]
    assert spec["paths"]["/games/{game_id}/host/cancel"]["post"]["security"] == [{"hostToken": []}]
    seats = spec["components"]["schemas"]["CreateGame"]["properties"]["seats"]
    assert seats["minItems"] == 1  # one seat: the solo game against Tycho Brahe (SOLO-27)


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
    assert data["edition"] == "base-4" and len(data["cards"]) > 20
    first = client.get("/catalog/base-provisional-1")  # every released edition stays served
    assert first.status_code == 200 and first.json()["edition"] == "base-provisional-1"
    assert first.headers["etag"] != response.headers["etag"]
    assert {"action_tiles", "starry_sky", "scale_tiles", "book_pages", "luna"} <= set(data)
    etag = response.headers["etag"]
    assert etag == f'"{data["content_hash"]}.f2"'  # the document's format: a page caching format 1 refetches
    assert client.get(f"/catalog/{data['edition']}", headers={"If-None-Match": etag}).status_code == 304
    missing = client.get("/catalog/no-such-edition")
    assert missing.status_code == 404 and missing.json()["code"] == "unknown-edition"

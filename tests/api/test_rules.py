"""The rules reference over HTTP: GET /rules/{rule_id} as JSON or HTML by Accept, a problem for an unknown
ID, the index with search, and illegal-move problems that link to their rule."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.api.helpers import create

PROBLEM = "application/problem+json"
BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"


def test_MOV_1_answers_as_json(client: TestClient) -> None:
    response = client.get("/rules/MOV-1")
    assert response.status_code == 200 and response.headers["content-type"].startswith("application/json")
    assert response.headers["vary"] == "Accept, Accept-Language, Cookie"
    body = response.json()
    assert body["id"] == "MOV-1" and body["url"] == "/rules/MOV-1" and body["kind"] == "seed"
    assert "one, two or three steps" in body["text"] and "S004" in body["source"]
    assert body["chapter"]["slug"] == "turn" and body["docs"] == "docs/rules/02-turn.md#MOV-1"


def test_MOV_1_answers_as_html_when_accept_prefers_it(client: TestClient) -> None:
    response = client.get("/rules/mov-1", headers={"Accept": BROWSER})
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/html")
    assert "Content-Security-Policy" in response.headers
    assert "<h1" in response.text and "MOV-1" in response.text and "one, two or three steps" in response.text


def test_a_rule_with_edition_values_shows_both(client: TestClient) -> None:
    body = client.get("/rules/DATA-2").json()
    values = {e["edition"]: e["value"] for e in body["editions"]}
    assert "8 / 5 / 4" in values["base-provisional-1"] and "9 / 5 / 4" in values["base-2"]
    html = client.get("/rules/AMB-14", headers={"Accept": "text/html"}).text
    assert "grandInquisitorDoubleAtEnd" in html and '<a href="/rules/OBJ-N3">' in html


def test_an_unknown_rule_is_a_404_problem_with_suggestions(client: TestClient) -> None:
    for accept in ("application/json", BROWSER):
        response = client.get("/rules/MOV-9", headers={"Accept": accept})
        assert response.status_code == 404 and response.headers["content-type"].startswith(PROBLEM)
        body = response.json()
        assert body["code"] == "unknown-rule" and body["status"] == 404
        assert "MOV-9" in body["detail"] and "GET /rules" in body["detail"] and "MOV-5" in body["suggestions"]
    assert client.get("/rules/" + "X" * 41).status_code == 422


def test_the_index_lists_every_rule_and_searches(client: TestClient) -> None:
    index = client.get("/rules").json()
    ids = [r["id"] for c in index["chapters"] for r in c["rules"]]
    assert index["count"] == len(ids) > 500 and "MOV-1" in ids and "SOLO-45" in ids and index["query"] is None
    found = client.get("/rules", params={"q": "grand inquisitor double"}).json()
    assert found["count"] >= 1 and "LUNA-44" in [r["id"] for c in found["chapters"] for r in c["rules"]]
    assert client.get("/rules", params={"q": "zzz-none"}).json() == {
        "count": 0,
        "query": "zzz-none",
        "lang": "en",
        "chapters": [],
    }
    page = client.get("/rules", headers={"Accept": BROWSER})
    assert page.headers["content-type"].startswith("text/html") and 'href="/rules/MOV-1"' in page.text


def test_an_illegal_move_problem_links_to_its_rule(client: TestClient) -> None:
    table = create(client, 2, seed="rule-link")
    seat = client.get(f"/games/{table.game_id}/moves", headers=table.auth(0)).json()["to_act"]
    listing = client.get(f"/games/{table.game_id}/moves", headers=table.auth(seat)).json()
    response = client.post(
        f"/games/{table.game_id}/commands",
        headers=table.auth(seat),
        json={
            "command": {"type": "Move", "seat": seat, "steps": 5},
            "expected_version": listing["version"],
            "command_id": "rule-link-1",
        },
    )
    body = response.json()
    assert response.status_code == 422 and body["rule_id"] == "MOV-1" and body["rule_url"] == "/rules/MOV-1"
    assert client.get(body["rule_url"]).json()["id"] == "MOV-1"


def test_the_rules_routes_are_in_the_openapi(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    operation = paths["/rules/{rule_id}"]["get"]
    assert "text/html" in operation["responses"]["200"]["content"]
    assert PROBLEM in operation["responses"]["404"]["content"]
    assert "/rules" in paths


def test_the_web_pages_link_rule_ids_to_the_reference(client: TestClient) -> None:
    """Problems (rule_id) and event lines (event.rule) on the play and replay pages become /rules links."""
    script = client.get("/static/common.js").text
    assert "export function ruleLink" in script and "`/rules/${encodeURIComponent(ruleId)}`" in script
    assert "ruleLink(p.rule_id)" in script  # problems
    history = client.get("/static/history.js").text  # the event lines of both pages
    assert "ruleLink(rule)" in history and "ruleLink" in history.split("\n", 3)[2]


def test_rules_answer_in_the_language_of_accept_language_or_lang(client: TestClient) -> None:
    english = client.get("/rules/MOV-1").json()
    ja = client.get("/rules/MOV-1", headers={"Accept-Language": "ja-JP,ja;q=0.9,en;q=0.8"})
    assert ja.headers["content-language"] == "ja" and ja.headers["vary"] == "Accept, Accept-Language, Cookie"
    body = ja.json()
    assert body["lang"] == "ja" and body["id"] == "MOV-1" and body["source"] == english["source"]
    assert body["title"] != english["title"] and body["mentions"] == english["mentions"]
    zh = client.get("/rules/MOV-1", params={"lang": "zh-Hans"}, headers={"Accept-Language": "ja"}).json()
    assert zh["lang"] == "zh-Hans" and zh["title"] not in (english["title"], body["title"])
    assert client.get("/rules/MOV-1", headers={"Accept-Language": "zh-CN"}).json()["lang"] == "zh-Hans"
    # English first by q, an unknown language, Traditional Chinese, or a bad q: English
    for header in ("en;q=1, ja;q=0.5", "de-DE", "zh-TW", "ja;q=x, fr"):
        assert client.get("/rules/MOV-1", headers={"Accept-Language": header}).json()["lang"] == "en"
    assert (
        client.get("/rules/MOV-1", params={"lang": "de"}, headers={"Accept-Language": "ja"}).json()["lang"]
        == "ja"
    )
    page = client.get("/rules/MOV-1", params={"lang": "ja"}, headers={"Accept": BROWSER})
    assert '<html lang="ja">' in page.text and body["title"] in page.text
    index = client.get("/rules", params={"lang": "zh-Hans", "q": "MOV-1"}).json()
    assert index["lang"] == "zh-Hans" and index["count"] >= 1
    assert client.get("/rules/MOV-9", params={"lang": "ja"}).json()["code"] == "unknown-rule"
    # the language chosen on a page (cookie) comes after ?lang= and before Accept-Language
    client.cookies.set("galileo_lang", "zh-Hans")
    try:
        assert client.get("/rules/MOV-1", headers={"Accept-Language": "ja"}).json()["lang"] == "zh-Hans"
        assert client.get("/rules/MOV-1", params={"lang": "ja"}).json()["lang"] == "ja"
    finally:
        client.cookies.clear()

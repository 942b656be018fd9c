"""The service in the request's language (docs/i18n.md): problems (their title and detail; type, code,
reason and rule_id never change), the moves and the history, the pages and their catalogs, and the
language kept with an account."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.i18n import COOKIE
from api.settings import Settings
from projections.i18n import text
from tests.api.async_helpers import Clock
from tests.api.authenticator import Authenticator
from tests.api.helpers import Table, create
from tests.api.test_accounts import ORIGIN, register, sign_in

UNCHANGED = ("type", "code", "status", "reason", "rule_id", "rule_url", "instance")


def _illegal(client: TestClient, table: Table, **headers: str) -> dict[str, object]:
    seat = client.get(f"/games/{table.game_id}/moves", headers=table.auth(0)).json()["to_act"]
    version = client.get(f"/games/{table.game_id}").json()["version"]
    response = client.post(
        f"/games/{table.game_id}/commands",
        headers={**table.auth(seat), **headers},
        json={
            "command": {"type": "Move", "seat": seat, "steps": 5},
            "expected_version": version,
            "command_id": "i18n",
        },
    )
    assert response.status_code == 422, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    body: dict[str, object] = response.json()
    assert response.headers["content-language"] == (headers.get("Accept-Language") or "en").split(",")[0]
    assert client.get(f"/games/{table.game_id}").json()["version"] == version  # nothing written
    return body


def test_an_illegal_move_is_refused_in_japanese_and_chinese_with_the_same_rule_id(client: TestClient) -> None:
    """`Accept-Language: ja` on the command of an illegal move: a Japanese detail and title, the same
    code, reason and rule_id as in English (MOV-1: the telescope moves 1 to 3 steps)."""
    table = create(client, 2, seed="i18n-illegal")
    english = _illegal(client, table)
    japanese = _illegal(client, table, **{"Accept-Language": "ja"})
    chinese = _illegal(client, table, **{"Accept-Language": "zh-Hans"})
    assert english["detail"] == "the telescope moves 1, 2 or 3 steps, not 5"
    assert japanese["detail"] == "望遠鏡は1、2、3マス動きます。5ではありません"
    assert chinese["detail"] == "望远镜移动 1、2 或 3 格，而不是 5"  # noqa: RUF001 (Chinese punctuation)
    assert (english["title"], japanese["title"], chinese["title"]) == (
        "Unprocessable content",
        "処理できない内容",
        "无法处理的内容",
    )
    for body in (japanese, chinese):
        assert {k: body.get(k) for k in UNCHANGED} == {k: english.get(k) for k in UNCHANGED}
    assert english["rule_id"] == "MOV-1" and english["reason"] == "bad-steps"


def test_the_cookie_and_the_lang_parameter_choose_before_accept_language(client: TestClient) -> None:
    missing = "/games/00000000-0000-0000-0000-000000000000"
    asked = client.get(missing, headers={"Accept-Language": "ja"}).json()
    assert asked["title"] == "見つかりません" and asked["code"] == "game-not-found"
    assert asked["detail"] == "ゲーム00000000-0000-0000-0000-000000000000はありません"
    client.cookies.set(COOKIE, "zh-Hans")
    assert client.get(missing, headers={"Accept-Language": "ja"}).json()["title"] == "未找到"
    assert client.get(missing + "?lang=en", headers={"Accept-Language": "ja"}).json()["title"] == "Not found"
    client.cookies.set(COOKIE, "xx")  # a language this service does not speak: ignored
    assert client.get(missing, headers={"Accept-Language": "ja"}).json()["title"] == "見つかりません"


def test_api_errors_and_validation_problems_are_translated_with_their_parameters(client: TestClient) -> None:
    table = create(client, 2, seed="i18n-api")
    other = 1 - client.get(f"/games/{table.game_id}/moves", headers=table.auth(0)).json()["to_act"]
    version = client.get(f"/games/{table.game_id}").json()["version"]
    wrong = client.post(
        f"/games/{table.game_id}/commands",
        headers={**table.auth(other), "Accept-Language": "ja"},
        json={
            "command": {"type": "Move", "seat": 1 - other, "steps": 1},
            "expected_version": version,
            "command_id": "w",
        },
    ).json()
    assert wrong["code"] == "wrong-seat"
    assert wrong["detail"] == text(
        "ja", "this token is seat {seat}'s, the command is for seat {seat2}", seat=other, seat2=1 - other
    )
    assert "席" in str(wrong["detail"])
    invalid = client.post("/games", json={"seats": "x"}, headers={"Accept-Language": "zh-CN"}).json()
    assert invalid["code"] == "invalid-request" and invalid["detail"] == "请求与其模式不符"
    assert invalid["errors"]  # the validator's own items stay as they are (field paths and types)


def test_moves_and_history_are_described_in_the_language_asked(client: TestClient) -> None:
    table = create(client, 2, seed="i18n-moves")
    seat = client.get(f"/games/{table.game_id}/moves", headers=table.auth(0)).json()["to_act"]
    english = client.get(f"/games/{table.game_id}/moves", headers=table.auth(seat)).json()
    japanese = client.get(
        f"/games/{table.game_id}/moves", headers={**table.auth(seat), "Accept-Language": "ja"}
    ).json()
    assert japanese["moves"] == english["moves"]  # the commands never change
    assert english["descriptions"][0] == "Move the telescope 1 step"
    assert japanese["descriptions"][0] == "望遠鏡を1マス動かす"
    assert japanese["previews"][0]["lines"][0].startswith("望遠鏡を")
    done = client.post(
        f"/games/{table.game_id}/commands",
        headers={**table.auth(seat), "Accept-Language": "zh-Hans"},
        json={"command": english["moves"][0], "expected_version": english["version"], "command_id": "m"},
    ).json()
    assert done["events"][0]["text"].startswith("将望远镜从")
    log = client.get(f"/games/{table.game_id}/events", headers={"Accept-Language": "ja"}).json()["events"]
    assert log[0]["text"].startswith("ゲーム開始")
    assert [e["event"] for e in log] == [
        e["event"] for e in client.get(f"/games/{table.game_id}/events").json()["events"]
    ]


def test_pages_are_served_in_the_negotiated_language_with_their_catalog(client: TestClient) -> None:
    page = client.get("/", headers={"Accept-Language": "ja,en;q=0.5"})
    assert page.status_code == 200 and '<html lang="ja">' in page.text
    assert "<title>ガリレオ・ガリレイ: ロビー</title>" in page.text
    assert page.headers["content-language"] == "ja" and "Accept-Language" in page.headers["vary"]
    assert '<html lang="en">' in client.get("/").text
    assert '<html lang="zh-Hans">' in client.get("/?lang=zh-Hans").text
    catalog = client.get("/i18n/zh-Hans.json").json()
    assert catalog["locale"] == "zh-Hans" and catalog["intl"] == "zh-Hans"
    assert catalog["messages"]["Confirm"] == "确认"
    assert catalog["messages"]["{n} move"] == {"other": "{n} 个着法"}  # by CLDR category
    assert [lang["locale"] for lang in catalog["languages"]] == ["en", "ja", "zh-Hans"]
    pseudo = client.get("/i18n/en-XA.json").json()["messages"]
    assert pseudo["Confirm"].startswith("Çöñƒîŕɱ")
    assert client.get("/i18n/fr.json").status_code == 404


@pytest.fixture
def account_client(settings: Settings) -> Iterator[TestClient]:
    app = create_app(replace(settings, clocks=False, bots=False, public_url=ORIGIN), clock=Clock())
    with TestClient(app, base_url=ORIGIN) as test_client:
        yield test_client


def test_the_language_chosen_is_kept_with_the_account_and_set_at_sign_in(account_client: TestClient) -> None:
    client = account_client
    assert client.put("/me/language", json={"locale": "ja"}).status_code == 401  # no session
    authn = Authenticator(ORIGIN)
    csrf = register(client, authn).json()["csrf_token"]
    assert client.put("/me/language", json={"locale": "ja"}).status_code == 403  # no CSRF token
    refused = client.put("/me/language", json={"locale": "fr"}, headers={"X-CSRF-Token": csrf})
    assert refused.status_code == 422 and refused.json()["code"] == "unknown-language"
    kept = client.put("/me/language", json={"locale": "ja"}, headers={"X-CSRF-Token": csrf})
    assert kept.status_code == 204 and client.cookies[COOKIE] == "ja"
    client.cookies.clear()  # another device: no cookie at all
    sign_in(client, authn)
    assert client.cookies[COOKIE] == "ja"
    assert '<html lang="ja">' in client.get("/account").text


def test_the_catalog_names_the_components_in_the_language_asked(client: TestClient) -> None:
    english = client.get("/catalog/base")
    japanese = client.get("/catalog/base", headers={"Accept-Language": "ja"})
    chinese = client.get("/catalog/base?lang=zh-Hans")
    assert english.json()["cards"]["D1-01"]["major"]["name"] == "Moon"
    assert japanese.json()["cards"]["D1-01"]["major"]["name"] == "月"
    assert japanese.json()["cards"]["D1-01"]["constellations"][0]["name"] == "こぐま座"
    assert chinese.json()["cards"]["D1-01"]["constellations"][0]["name"] == "小熊座"
    assert {c["id"]: c["name"] for c in japanese.json()["characters"]}["galileo"] == "ガリレオ・ガリレイ"
    assert japanese.json()["names"]["solo_tile"]["TY1"] == "天文台"
    assert japanese.json()["cards"]["D1-01"]["id"] == "D1-01"  # ids never change
    assert len({english.headers["etag"], japanese.headers["etag"], chinese.headers["etag"]}) == 3
    assert japanese.headers["content-language"] == "ja" and "Accept-Language" in japanese.headers["vary"]

"""Must show (issue 15): a 2-person game with `per_move: PT3S` and a webhook to a local listener: the
listener receives a correctly signed call for the first seat, and after the seat idles past its time a
`TimeExpired` event is recorded and a bot plays that seat. Real time, waits on conditions."""

from __future__ import annotations

from dataclasses import replace

import httpx

from api.notify import SIGNATURE_HEADER, verify_signature
from api.settings import Settings
from tests.api.async_helpers import Listener
from tests.api.helpers import wait_until


def test_ASYNC_1_per_move_timeout_with_webhook_end_to_end(settings: Settings, live_server) -> None:  # type: ignore[no-untyped-def]
    fast = replace(
        settings,
        clock_tick_seconds=0.2,
        webhook_poll_seconds=0.1,
        webhook_backoff_seconds=0.2,
        webhook_allow_networks=("127.0.0.1/32",),  # the local listener (api/egress.py)
    )
    listener = Listener().start()
    try:
        with live_server(fast) as server, httpx.Client(base_url=server.url, timeout=10) as client:
            created = client.post(
                "/games",
                json={
                    "seats": [
                        {"name": "Ada", "webhook": listener.url},
                        {"name": "Ben", "webhook": listener.url},
                    ],
                    "first_seat": 0,
                    "clock": {"per_move": "PT3S"},
                },
            )
            assert created.status_code == 201, created.text
            body = created.json()
            game_id, secret = body["game_id"], body["seats"][0]["webhook_secret"]
            assert body["host_token"].startswith("gg_")

            call = wait_until(lambda: listener.calls[:1], 10, "the first seat's notification")[0]
            assert verify_signature(secret, call.body, call.headers[SIGNATURE_HEADER.lower()])
            assert call.json["seat"] == 0 and call.json["event"] == "your-turn"
            assert call.json["page"].endswith(f"/play/{game_id}") and "token" not in call.json["page"]

            def expired_and_played() -> list[dict]:
                events = client.get(f"/games/{game_id}/events").json()["events"]
                types = [e["type"] for e in events]
                if "TimeExpired" not in types:
                    return []
                after = events[types.index("TimeExpired") + 1 :]
                return [e for e in after if e["actor"] == 0 and e["type"] == "TelescopeMoved"]

            moved = wait_until(expired_and_played, 20, "TimeExpired and a bot move for seat 0", 0.2)
            assert moved
            table = client.get(f"/games/{game_id}/table").json()
            assert table["seats"][0]["played_by"] == "bot"
            log = client.get(
                f"/games/{game_id}/notifications", headers={"Authorization": f"Bearer {body['host_token']}"}
            ).json()["deliveries"]
            assert any(
                d["seat"] == 0 and d["kind"] == "your-turn" and d["status"] == "delivered" for d in log
            )
    finally:
        listener.stop()

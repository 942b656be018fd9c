"""The score timeline: one point per turn, the last one the final scores, points by source summing to
the score at every point; and its SVG: well-formed, one series per seat, drawn inside its viewBox."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter
from typing import Any

import pytest

from domain.events import GameEnded, TurnEnded, VictoryPointsScored
from projections.svg import render_timeline
from projections.timeline import timeline
from tests.projections.corpus import Played

SVG = "{http://www.w3.org/2000/svg}"


def test_last_point_is_the_final_score_and_sources_sum_to_scores(small_games: list[Played]) -> None:
    for played in small_games:
        events = played.events
        t = timeline(events)
        points = t["points"]
        assert points[0]["kind"] == "start" and points[0]["scores"] == [0] * played.players
        turns = [e for e in events if isinstance(e, TurnEnded)]
        assert [p["seat"] for p in points if p["kind"] == "turn"] == [e.seat for e in turns]
        assert [p["turn"] for p in points if p["kind"] == "turn"] == list(range(1, len(turns) + 1))
        for p in points:
            assert [sum(s.values()) for s in p["by_source"]] == p["scores"]
        totals: list[Counter[str]] = [Counter() for _ in range(played.players)]
        for e in events:
            if isinstance(e, VictoryPointsScored):
                totals[e.seat][e.source] += e.points
        assert points[-1]["by_source"] == [dict(c) for c in totals]
        assert t["scores"] == points[-1]["scores"]
        if played.finished:
            ended = events[-1]
            assert isinstance(ended, GameEnded)
            assert points[-1]["kind"] == "end" and points[-1]["scores"] == list(ended.scores)
            assert t["finished"] and t["winners"] == list(ended.winners)
        else:
            assert not t["finished"] and points[-1]["kind"] != "end"


def test_a_timeline_needs_the_start_of_the_game(small_games: list[Played]) -> None:
    with pytest.raises(ValueError, match="GameStarted"):
        timeline(small_games[0].events[1:])
    with pytest.raises(ValueError, match="GameStarted"):
        timeline([])


def _view_box(root: ET.Element) -> tuple[float, float, float, float]:
    x, y, w, h = (float(v) for v in root.attrib["viewBox"].split())
    return x, y, x + w, y + h


def _inside(box: tuple[float, float, float, float], x: float, y: float) -> bool:
    return box[0] <= x <= box[2] and box[1] <= y <= box[3]


@pytest.mark.parametrize("index", [0, 1, 2, 3, 12, 14])  # 2, 3, 4 players, Luna, a fork, unfinished
def test_svg_is_well_formed_with_one_series_per_seat_inside_the_view(
    small_games: list[Played], index: int
) -> None:
    played = small_games[index]
    data = timeline(played.events)
    data["seats"][0]["name"] = 'Ann <& "Bo">'  # names are the players' own text
    root = ET.fromstring(render_timeline(data, title="game <1>"))
    assert root.tag == f"{SVG}svg"
    box = _view_box(root)
    series = root.findall(f".//{SVG}polyline[@class='series']")
    assert sorted(int(s.attrib["data-seat"]) for s in series) == list(range(played.players))
    for line in series:
        coords = [tuple(map(float, pair.split(","))) for pair in line.attrib["points"].split()]
        assert len(coords) == len(data["points"])
        assert all(_inside(box, x, y) for x, y in coords)
        xs = [x for x, _ in coords]
        assert xs == sorted(xs)  # time runs left to right
    # Higher scores are drawn higher: the seat with the best final score ends nearest the top.
    ends = {int(s.attrib["data-seat"]): float(s.attrib["points"].split()[-1].split(",")[1]) for s in series}
    best = max(range(played.players), key=lambda i: data["scores"][i])
    assert ends[best] == min(ends.values())
    bars = root.findall(f".//{SVG}rect[@class='source']")
    assert {b.attrib["data-source"] for b in bars} <= set(data["sources"])
    for bar in bars:
        x, y = float(bar.attrib["x"]), float(bar.attrib["y"])
        assert _inside(box, x, y) and _inside(
            box, x + float(bar.attrib["width"]), y + float(bar.attrib["height"])
        )
    texts = [t.text or "" for t in root.iter(f"{SVG}text")]
    assert 'Ann <& "Bo"> (galileo): ' + str(data["scores"][0]) in texts
    assert "game <1>" in texts
    turn_labels = [t.text for t in root.iter(f"{SVG}text") if t.attrib.get("class") == "turn"]
    assert turn_labels[0] == "0" and all(re.fullmatch(r"\d+|end", label or "") for label in turn_labels)
    assert ("end" in turn_labels) is played.finished


def test_svg_of_a_game_without_points_still_renders() -> None:
    data: dict[str, Any] = {
        "seats": [
            {"seat": 0, "name": "A", "character": "galileo"},
            {"seat": 1, "name": "B", "character": "kepler"},
        ],
        "turns": 0,
        "sources": [],
        "scores": [0, 0],
        "by_source": [{}, {}],
        "points": [
            {"kind": "start", "version": 1, "turn": 0, "seat": None, "scores": [0, 0], "by_source": [{}, {}]}
        ],
    }
    root = ET.fromstring(render_timeline(data))
    assert len(root.findall(f".//{SVG}polyline")) == 2

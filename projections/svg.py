"""The score timeline as an SVG picture, in plain Python: one line per seat over the turns (with turn
numbers on the axis), and each seat's points by source as a stacked bar (negative sources to the left
of zero). Input is the dict of `projections.timeline.timeline`.
"""

from __future__ import annotations

import math
from typing import Any
from xml.sax.saxutils import escape, quoteattr

WIDTH, HEIGHT = 900, 640
CHART = (70.0, 50.0, 620.0, 320.0)  # left, top, width, height of the score chart
BARS_TOP = 430.0
BAR_HEIGHT, BAR_GAP = 24.0, 10.0
LEGEND_COLUMNS = 4
SEAT_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")
SOURCE_COLOURS = (
    "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948",
    "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac", "#17becf", "#bcbd22",
)  # fmt: skip
FONT = 'font-family="sans-serif" font-size="12"'


def render_timeline(data: dict[str, Any], title: str = "") -> str:
    """The SVG document (UTF-8 text) of a timeline."""
    rows = math.ceil(len(data["sources"]) / LEGEND_COLUMNS)
    height = BARS_TOP + len(data["seats"]) * (BAR_HEIGHT + BAR_GAP) + 24 + 18 * rows
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height:g}" '
        f'width="{WIDTH}" height="{height:g}" {FONT}>',
        f'<rect x="0" y="0" width="{WIDTH}" height="{height:g}" fill="white"/>',
    ]
    if title:
        parts.append(
            f'<text x="{CHART[0]:g}" y="28" font-size="16" font-weight="bold">{escape(title)}</text>'
        )
    parts += _score_chart(data)
    parts += _source_bars(data)
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _line(x1: float, y1: float, x2: float, y2: float, stroke: str = "#333", width: float = 1) -> str:
    ends = f'x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}"'
    return f'<line {ends} stroke="{stroke}" stroke-width="{width:g}"/>'


def _text(x: float, y: float, text: str, extra: str = "") -> str:
    return f'<text x="{x:.1f}" y="{y:.1f}"{" " + extra if extra else ""}>{escape(text)}</text>'


def _score_chart(data: dict[str, Any]) -> list[str]:
    left, top, width, height = CHART
    bottom = top + height
    points = data["points"]
    values = [v for p in points for v in p["scores"]]
    low, high, step = _axis(min([0, *values]), max([1, *values]))
    span = max(len(points) - 1, 1)

    def x(i: int) -> float:
        return left + width * i / span

    def y(v: float) -> float:
        return top + height * (high - v) / (high - low)

    out = ['<g class="score-chart">']
    for v in _ticks(low, high, step):
        out.append(_line(left, y(v), left + width, y(v), "#ddd"))
        out.append(_text(left - 6, y(v) + 4, f"{v:g}", 'text-anchor="end"'))
    out.append(_line(left, bottom, left + width, bottom))
    every = _nice(max(data["turns"], 1) / 10)
    for i, p in enumerate(points):
        label = _tick_label(p, every, last=i == len(points) - 1)
        if label is not None:
            out.append(_line(x(i), bottom, x(i), bottom + 4))
            out.append(_text(x(i), bottom + 17, label, 'class="turn" text-anchor="middle"'))
    out.append(_text(left + width / 2, bottom + 36, "turns played", 'text-anchor="middle"'))
    middle = top + height / 2
    out.append(_text(18, middle, "score", f'transform="rotate(-90 18 {middle:.1f})" text-anchor="middle"'))
    for seat in data["seats"]:
        i = seat["seat"]
        colour = SEAT_COLOURS[i % len(SEAT_COLOURS)]
        coords = " ".join(f"{x(k):.1f},{y(p['scores'][i]):.1f}" for k, p in enumerate(points))
        out.append(
            f'<polyline class="series" data-seat="{i}" fill="none" stroke="{colour}" stroke-width="2" '
            f'points="{coords}"><title>{escape(_seat_label(seat))}</title></polyline>'
        )
        lx, ly = left + width + 12, top + 14 + 20 * i
        out.append(_line(lx, ly - 4, lx + 18, ly - 4, colour, 3))
        out.append(_text(lx + 24, ly, f"{_seat_label(seat)}: {points[-1]['scores'][i]}", 'class="legend"'))
    out.append("</g>")
    return out


def _source_bars(data: dict[str, Any]) -> list[str]:
    left, _, width, _ = CHART
    sources = data["sources"]
    colours = {s: SOURCE_COLOURS[k % len(SOURCE_COLOURS)] for k, s in enumerate(sources)}
    gains = [sum(v for v in b.values() if v > 0) for b in data["by_source"]]
    losses = [-sum(v for v in b.values() if v < 0) for b in data["by_source"]]
    total = max(max(gains, default=0) + max(losses, default=0), 1)
    zero = left + width * max(losses, default=0) / total
    scale = width / total
    out = ['<g class="source-bars">', _text(left, BARS_TOP - 12, "points by source", 'font-weight="bold"')]
    for seat in data["seats"]:
        i = seat["seat"]
        top = BARS_TOP + i * (BAR_HEIGHT + BAR_GAP)
        out.append(_text(left - 6, top + BAR_HEIGHT / 2 + 4, seat["name"], 'text-anchor="end"'))
        ahead, behind = zero, zero
        for source in sources:
            value = data["by_source"][i].get(source, 0)
            if value == 0:
                continue
            w = abs(value) * scale
            if value > 0:
                bx, ahead = ahead, ahead + w
            else:
                behind -= w
                bx = behind
            out.append(
                f'<rect class="source" data-seat="{i}" data-source={quoteattr(source)} x="{bx:.1f}" '
                f'y="{top:g}" width="{w:.1f}" height="{BAR_HEIGHT:g}" fill="{colours[source]}">'
                f"<title>{escape(f'{source}: {value}')}</title></rect>"
            )
    bottom = BARS_TOP + len(data["seats"]) * (BAR_HEIGHT + BAR_GAP)
    out.append(_line(zero, BARS_TOP - 4, zero, bottom - BAR_GAP + 4))
    for k, source in enumerate(sources):
        lx, ly = (
            left + (k % LEGEND_COLUMNS) * (width / LEGEND_COLUMNS),
            bottom + 12 + (k // LEGEND_COLUMNS) * 18,
        )
        out.append(f'<rect x="{lx:.1f}" y="{ly - 10:.1f}" width="12" height="12" fill="{colours[source]}"/>')
        out.append(_text(lx + 16, ly, source))
    out.append("</g>")
    return out


def _seat_label(seat: dict[str, Any]) -> str:
    return f"{seat['name']} ({seat['character']})"


def _tick_label(point: dict[str, Any], every: float, last: bool) -> str | None:
    if point["kind"] == "end":
        return "end"
    if point["kind"] == "start":
        return "0"
    turn = point["turn"]
    return str(turn) if turn % every == 0 or (last and turn % every > every / 2) else None


def _nice(raw: float) -> float:
    """The nearest 1, 2 or 5 times a power of ten at or above `raw`."""
    if raw <= 0:
        return 1.0
    power = 10.0 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if raw <= factor * power:
            return float(factor * power)
    return 10.0 * power


def _axis(low: float, high: float) -> tuple[float, float, float]:
    step = _nice((high - low) / 6)
    return math.floor(low / step) * step, math.ceil(high / step) * step, step


def _ticks(low: float, high: float, step: float) -> list[float]:
    count = round((high - low) / step)
    return [low + k * step for k in range(count + 1)]

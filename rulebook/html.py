"""The HTML form of the reference, served at /rules and /rules/{rule_id}: static markup, values escaped."""

from __future__ import annotations

from collections.abc import Iterable
from html import escape

from rulebook.model import KINDS, RULE_ID, Reference, Rule

STYLESHEET = "/static/style.css"


def _links(text: str, ref: Reference) -> str:
    """Escaped `text` with every known rule ID a link to its page."""
    out, last = [], 0
    for match in RULE_ID.finditer(text):
        out.append(escape(text[last : match.start()]))
        rule_id = match.group(0)
        out.append(f'<a href="/rules/{rule_id}">{rule_id}</a>' if rule_id in ref else escape(rule_id))
        last = match.end()
    out.append(escape(text[last:]))
    return "".join(out)


def _page(title: str, body: Iterable[str]) -> str:
    return "\n".join(
        [
            "<!doctype html>",
            '<html lang="en">',
            "<head>",
            '<meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{escape(title)} · Galileo Galilei rules reference</title>",
            f'<link rel="stylesheet" href="{STYLESHEET}">',
            "</head>",
            "<body>",
            '<header><a href="/">Galileo Galilei</a> · <a href="/rules">Rules reference</a></header>',
            '<main class="rules">',
            *body,
            "</main>",
            "</body>",
            "</html>",
        ]
    )


def rule_page(rule: Rule, ref: Reference) -> str:
    chapter = ref.chapter_of(rule)
    body = [
        f'<p class="muted"><a href="/rules#chapter-{chapter.number}">'
        f"{chapter.number}. {escape(chapter.title)}</a></p>",
        f'<h1 id="{rule.id}">{rule.id} — {escape(rule.title)}</h1>',
        f"<p>{_links(rule.text, ref)}</p>",
        "<dl>",
        f"<dt>Source</dt><dd>{_links(rule.source, ref)}</dd>",
        f"<dt>Kind</dt><dd>{escape(rule.kind)}: {escape(KINDS[rule.kind])}</dd>",
    ]
    if rule.addendum:
        body.append(f"<dt>Publisher's rulebook</dt><dd>{_links(rule.addendum, ref)}</dd>")
    if rule.project:
        body.append(f"<dt>In this project</dt><dd>{_links(rule.project, ref)}</dd>")
    if rule.editions:
        items = "".join(
            f"<li><em>{escape(e.edition)}</em>: {_links(e.value, ref)}</li>" for e in rule.editions
        )
        body.append(f"<dt>By edition</dt><dd><ul>{items}</ul></dd>")
    if rule.options:
        items = "".join(
            f"<li><code>{escape(o.name)}</code>: default {escape(o.default)}; "
            f"alternative {escape(o.alternative)}</li>"
            for o in rule.options
        )
        body.append(f"<dt>Rule options</dt><dd><ul>{items}</ul></dd>")
    body.append("</dl>")
    body.append(
        f'<p class="muted">JSON: <code>GET /rules/{rule.id}</code> '
        "with <code>Accept: application/json</code>.</p>"
    )
    return _page(f"{rule.id} {rule.title}", body)


def index_page(ref: Reference, rules: list[Rule] | None = None, query: str | None = None) -> str:
    """Every chapter with its rules; with `rules` (a search result) only those."""
    chosen = None if rules is None else {r.id for r in rules}
    body = ["<h1>Rules reference</h1>"]
    body.append(
        '<form method="get" action="/rules"><label>Search <input name="q" type="search" value="'
        + escape(query or "")
        + '"></label> <button type="submit">Search</button></form>'
    )
    if chosen is not None:
        body.append(f"<p>{len(chosen)} rule(s) match {escape(repr(query or ''))}.</p>")
    for chapter in ref.chapters:
        listed = [r for r in chapter.rules if chosen is None or r.id in chosen]
        if not listed:
            continue
        body.append(f'<h2 id="chapter-{chapter.number}">{chapter.number}. {escape(chapter.title)}</h2>')
        if chapter.notes and chosen is None:
            body.append(f'<p class="muted">{_links(chapter.notes, ref)}</p>')
        body.append("<ul>")
        body += [f'<li><a href="/rules/{r.id}">{r.id}</a> — {escape(r.title)}</li>' for r in listed]
        body.append("</ul>")
    return _page("Index", body)

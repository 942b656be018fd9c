"""The HTML form of the reference, served at /rules and /rules/{rule_id}: static markup, values escaped."""

from __future__ import annotations

from collections.abc import Iterable
from html import escape

from rulebook.labels import HTML_LANG, NATIVE_NAMES, kind_meaning, label
from rulebook.model import LOCALES, RULE_ID, Reference, Rule

STYLESHEET = "/static/style.css"


def _query(ref: Reference) -> str:
    """The `?lang=` that keeps a link in the page's language (none for English)."""
    return "" if ref.locale == "en" else f"?lang={ref.locale}"


def _links(text: str, ref: Reference) -> str:
    """Escaped `text` with every known rule ID a link to its page."""
    out, last = [], 0
    for match in RULE_ID.finditer(text):
        out.append(escape(text[last : match.start()]))
        rule_id = match.group(0)
        known = rule_id in ref
        out.append(f'<a href="/rules/{rule_id}{_query(ref)}">{rule_id}</a>' if known else escape(rule_id))
        last = match.end()
    out.append(escape(text[last:]))
    return "".join(out)


def _languages(ref: Reference, path: str) -> str:
    """Links to this page in the other languages of the reference."""
    links = " · ".join(
        f'<a href="{path}?lang={tag}" hreflang="{HTML_LANG[tag]}" lang="{HTML_LANG[tag]}">'
        f"{NATIVE_NAMES[tag]}</a>"
        for tag in LOCALES
        if tag != ref.locale
    )
    name = escape(label(ref.locale, "languages"))
    return f'<nav class="muted" aria-label="{name}">{links}</nav>'


def _page(title: str, body: Iterable[str], ref: Reference, path: str) -> str:
    loc = ref.locale
    return "\n".join(
        [
            "<!doctype html>",
            f'<html lang="{HTML_LANG[loc]}">',
            "<head>",
            '<meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{escape(title)} · {escape(label(loc, 'site'))}</title>",
            f'<link rel="stylesheet" href="{STYLESHEET}">',
            "</head>",
            "<body>",
            f'<header><a href="/">Galileo Galilei</a> · <a href="/rules{_query(ref)}">'
            f"{escape(label(loc, 'reference'))}</a> {_languages(ref, path)}</header>",
            '<main class="rules">',
            *body,
            "</main>",
            "</body>",
            "</html>",
        ]
    )


def rule_page(rule: Rule, ref: Reference) -> str:
    chapter = ref.chapter_of(rule)
    loc = ref.locale

    def term(key: str) -> str:
        return escape(label(loc, key))

    # the source cites documents by their own section titles (English and Japanese): kept as cited
    cited = "" if loc == "en" else ' class="citation" translate="no"'

    body = [
        f'<p class="muted"><a href="/rules{_query(ref)}#chapter-{chapter.number}">'
        f"{chapter.number}. {escape(chapter.title)}</a></p>",
        f'<h1 id="{rule.id}">{rule.id} — {escape(rule.title)}</h1>',
        f"<p>{_links(rule.text, ref)}</p>",
        "<dl>",
        f"<dt>{term('source')}</dt><dd{cited}>{_links(rule.source, ref)}</dd>",
        f"<dt>{term('kind')}</dt><dd><code>{escape(rule.kind)}</code>: "
        f"{escape(kind_meaning(loc, rule.kind))}</dd>",
    ]
    if rule.addendum:
        body.append(f"<dt>{term('addendum')}</dt><dd>{_links(rule.addendum, ref)}</dd>")
    if rule.project:
        body.append(f"<dt>{term('project')}</dt><dd>{_links(rule.project, ref)}</dd>")
    if rule.editions:
        items = "".join(
            f"<li><em>{escape(e.edition)}</em>: {_links(e.value, ref)}</li>" for e in rule.editions
        )
        body.append(f"<dt>{term('editions')}</dt><dd><ul>{items}</ul></dd>")
    if rule.options:
        items = "".join(
            f"<li><code>{escape(o.name)}</code>: {term('default')} {escape(o.default)}; "
            f"{term('alternative')} {escape(o.alternative)}</li>"
            for o in rule.options
        )
        body.append(f"<dt>{term('options')}</dt><dd><ul>{items}</ul></dd>")
    body.append("</dl>")
    request = f"<code>GET /rules/{rule.id}</code>"
    accept = "<code>Accept: application/json</code>"
    body.append(f'<p class="muted">{label(loc, "json", request=request, accept=accept)}</p>')
    return _page(f"{rule.id} {rule.title}", body, ref, rule.url)


def index_page(ref: Reference, rules: list[Rule] | None = None, query: str | None = None) -> str:
    """Every chapter with its rules; with `rules` (a search result) only those."""
    chosen = None if rules is None else {r.id for r in rules}
    loc = ref.locale
    search = escape(label(loc, "search"))
    keep = "" if loc == "en" else f'<input type="hidden" name="lang" value="{loc}">'
    body = [f"<h1>{escape(label(loc, 'reference'))}</h1>"]
    body.append(
        f'<form method="get" action="/rules">{keep}<label>{search} <input name="q" type="search" value="'
        + escape(query or "")
        + f'"></label> <button type="submit">{search}</button></form>'
    )
    if chosen is not None:
        body.append(f"<p>{escape(label(loc, 'matches', count=len(chosen), query=repr(query or '')))}</p>")
    for chapter in ref.chapters:
        listed = [r for r in chapter.rules if chosen is None or r.id in chosen]
        if not listed:
            continue
        body.append(f'<h2 id="chapter-{chapter.number}">{chapter.number}. {escape(chapter.title)}</h2>')
        if chapter.notes and chosen is None:
            body.append(f'<p class="muted">{_links(chapter.notes, ref)}</p>')
        body.append("<ul>")
        body += [
            f'<li><a href="/rules/{r.id}{_query(ref)}">{r.id}</a> — {escape(r.title)}</li>' for r in listed
        ]
        body.append("</ul>")
    return _page(label(loc, "index"), body, ref, "/rules")

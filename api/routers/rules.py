"""The rules reference (docs/rules/): every rule ID that errors, events and dispute reports cite, as JSON
or as an HTML page by content negotiation."""

from __future__ import annotations

from typing import Annotated

import orjson
from fastapi import APIRouter, Cookie, Header, Path, Query, Response
from pydantic import BaseModel

from api.negotiation import prefers
from api.problems import MEDIA_TYPE as PROBLEM
from api.problems import ApiError
from api.routers.pages import HEADERS as PAGE_HEADERS
from rulebook import UnknownRule, locale_of, reference
from rulebook.html import index_page, rule_page

router = APIRouter(prefix="/rules", tags=["rules"])

JSON = "application/json"
HTML = "text/html"


class EditionValueOut(BaseModel):
    edition: str
    value: str


class RuleOptionOut(BaseModel):
    name: str
    default: str
    alternative: str


class ChapterRef(BaseModel):
    number: int
    slug: str
    title: str


class RuleOut(BaseModel):
    """One rule: its text in the project's words, where it comes from, and what differs by edition."""

    id: str
    title: str
    text: str
    kind: str
    kind_meaning: str
    source: str
    addendum: str | None
    project: str | None
    editions: list[EditionValueOut]
    options: list[RuleOptionOut]
    mentions: list[str]
    chapter: ChapterRef
    url: str
    docs: str
    lang: str


class RuleSummary(BaseModel):
    id: str
    title: str
    url: str


class ChapterOut(BaseModel):
    number: int
    slug: str
    title: str
    rules: list[RuleSummary]


class RuleIndex(BaseModel):
    """Every chapter with its rules (only the matches when searching)."""

    count: int
    query: str | None
    lang: str
    chapters: list[ChapterOut]


def _html(accept: str | None) -> bool:
    return prefers(accept, HTML, JSON)


def rules_locale(lang: str | None, accept_language: str | None, cookie: str | None = None) -> str:
    """The language of the rules reference for a request: `?lang=` if it names one the reference has, else
    the `galileo_lang` cookie (the choice made on a page), else the first language of `Accept-Language` (by
    q, then order) that it has, else English.

    (The one place the rules routes choose a language; the service-wide negotiation replaces it.)"""
    for named in (lang, cookie):
        if named and (named.strip().lower().startswith("en") or locale_of(named) != "en"):
            return locale_of(named)
    ranked: list[tuple[float, int, str]] = []
    for position, item in enumerate((accept_language or "").split(",")):
        tag, _, params = item.strip().partition(";")
        quality = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if tag.strip() and quality > 0:
            ranked.append((-quality, position, tag.strip()))
    for _, _, tag in sorted(ranked):
        if tag == "*" or tag.lower().startswith("en"):
            return "en"
        if locale_of(tag) != "en":
            return locale_of(tag)
    return "en"


LANG = Query(
    max_length=35,
    description="The language of titles and texts: `en`, `ja` or `zh-Hans` (overrides Accept-Language).",
)
LANG_COOKIE = Cookie(
    alias="galileo_lang", description="The language chosen on a page (used when there is no `lang`)."
)


HTML_RESPONSE = {"content": {HTML: {"schema": {"type": "string"}}}}


@router.get(
    "",
    operation_id="listRules",
    response_model=RuleIndex,
    responses={200: {**HTML_RESPONSE, "description": "JSON, or an HTML page if Accept prefers text/html."}},
)
async def rules_index(
    q: Annotated[
        str | None,
        Query(max_length=200, description="Only rules whose ID, title, text or source has every word."),
    ] = None,
    lang: Annotated[str | None, LANG] = None,
    accept: Annotated[str | None, Header()] = None,
    accept_language: Annotated[str | None, Header()] = None,
    galileo_lang: Annotated[str | None, LANG_COOKIE] = None,
) -> Response:
    """The rules reference: every rule ID by chapter, or those matching `q`; JSON or HTML (Accept), in
    English, Japanese or Simplified Chinese (`lang`, else Accept-Language)."""
    ref = reference(rules_locale(lang, accept_language, galileo_lang))
    found = ref.search(q) if q else None
    headers = {
        "Vary": "Accept, Accept-Language, Cookie",
        "Cache-Control": "public, max-age=3600",
        "Content-Language": ref.locale,
    }
    if _html(accept):
        return Response(index_page(ref, found, q), media_type=HTML, headers={**PAGE_HEADERS, **headers})
    chosen = None if found is None else {r.id for r in found}
    chapters = []
    for chapter in ref.chapters:
        listed = [
            {"id": r.id, "title": r.title, "url": r.url}
            for r in chapter.rules
            if chosen is None or r.id in chosen
        ]
        if listed:
            chapters.append(
                {"number": chapter.number, "slug": chapter.slug, "title": chapter.title, "rules": listed}
            )
    body = {
        "count": len(ref) if chosen is None else len(chosen),
        "query": q,
        "lang": ref.locale,
        "chapters": chapters,
    }
    return Response(orjson.dumps(body), media_type=JSON, headers=headers)


@router.get(
    "/{rule_id}",
    operation_id="getRule",
    response_model=RuleOut,
    responses={
        200: {**HTML_RESPONSE, "description": "JSON, or an HTML page if Accept prefers text/html."},
        404: {
            "content": {PROBLEM: {"schema": {"type": "object"}}},
            "description": "No such rule ID (problem code `unknown-rule`, with `suggestions`).",
        },
    },
)
async def rule(
    rule_id: Annotated[
        str, Path(max_length=40, description="A rule ID such as MOV-1 or CHAR-GAL-2 (any case).")
    ],
    lang: Annotated[str | None, LANG] = None,
    accept: Annotated[str | None, Header()] = None,
    accept_language: Annotated[str | None, Header()] = None,
    galileo_lang: Annotated[str | None, LANG_COOKIE] = None,
) -> Response:
    """One rule by ID (MOV-1, INQ-20, AMB-8…): text, source, kind, edition values; JSON or HTML (Accept),
    in English, Japanese or Simplified Chinese (`lang`, else Accept-Language)."""
    ref = reference(rules_locale(lang, accept_language, galileo_lang))
    try:
        found = ref.get(rule_id)
    except UnknownRule as error:
        raise ApiError(404, "unknown-rule", str(error), suggestions=list(error.suggestions)) from None
    headers = {
        "Vary": "Accept, Accept-Language, Cookie",
        "Cache-Control": "public, max-age=3600",
        "Content-Language": ref.locale,
    }
    if _html(accept):
        return Response(rule_page(found, ref), media_type=HTML, headers={**PAGE_HEADERS, **headers})
    return Response(orjson.dumps(ref.to_json(found)), media_type=JSON, headers=headers)

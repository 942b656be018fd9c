"""The rules reference: every rule ID the project cites, with its text, source and edition notes.

The source of truth is the TOML files in `rulebook/data/`, one per chapter, shipped as package data. The
Markdown in `docs/rules/` is generated from them (`python -m rulebook docs/rules`), the HTTP routes
`/rules` and `/rules/{rule_id}` and the `galileo rules` command read them, and a test checks that the
Markdown and the data agree.

    from rulebook import reference
    rule = reference().get("mov-1")       # case and "_" for "-" do not matter
    rule.title, rule.text, rule.source    # ('Move the telescope 1 to 3 steps', ...)
    reference().search("comet")           # every rule whose ID, title, text or source has all the words
    reference("ja").get("MOV-1").title    # the same rule in Japanese ("en", "ja", "zh-Hans"; others: "en")
"""

from __future__ import annotations

from rulebook.model import (
    EDITIONS,
    KINDS,
    LOCALES,
    PREFIXES,
    RULE_ID,
    TEST_NAME_RULE_ID,
    Chapter,
    EditionValue,
    Reference,
    Rule,
    RuleOption,
    UnknownRule,
    canonical_id,
    locale_of,
    reference,
    rule_url,
)

__all__ = [
    "EDITIONS",
    "KINDS",
    "LOCALES",
    "PREFIXES",
    "RULE_ID",
    "TEST_NAME_RULE_ID",
    "Chapter",
    "EditionValue",
    "Reference",
    "Rule",
    "RuleOption",
    "UnknownRule",
    "canonical_id",
    "locale_of",
    "reference",
    "rule_url",
]

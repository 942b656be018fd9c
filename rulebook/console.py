"""The reference in a terminal (`galileo rules`): one rule as a panel, many as a table (rich)."""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from rulebook.labels import kind_meaning, label
from rulebook.model import Reference, Rule


def rule_panel(rule: Rule, ref: Reference) -> Panel:
    chapter = ref.chapter_of(rule)
    loc = ref.locale
    parts: list[Text | Table] = [Text(rule.text), Text("")]
    facts = Table.grid(padding=(0, 1))
    facts.add_column(style="bold", no_wrap=True)
    facts.add_column()
    facts.add_row(label(loc, "source"), rule.source)
    facts.add_row(label(loc, "kind"), f"{rule.kind}: {kind_meaning(loc, rule.kind)}")
    docs = f"docs/rules/{'' if loc == 'en' else loc + '/'}{chapter.filename}"
    facts.add_row(label(loc, "chapter"), f"{chapter.number}. {chapter.title} ({docs})")
    if rule.addendum:
        facts.add_row(label(loc, "addendum"), rule.addendum)
    if rule.project:
        facts.add_row(label(loc, "project"), rule.project)
    for edition in rule.editions:
        facts.add_row(label(loc, "edition"), f"{edition.edition}: {edition.value}")
    for option in rule.options:
        default, alternative = label(loc, "default"), label(loc, "alternative")
        facts.add_row(
            label(loc, "option"),
            f"{option.name}: {default} {option.default}; {alternative} {option.alternative}",
        )
    if rule.mentions():
        facts.add_row(label(loc, "see_also"), ", ".join(rule.mentions()))
    facts.add_row(label(loc, "online"), rule.url + ("" if loc == "en" else f"?lang={loc}"))
    parts.append(facts)
    return Panel(Group(*parts), title=f"[bold]{rule.id}[/] {rule.title}", title_align="left", expand=False)


def rules_table(rules: Iterable[Rule], ref: Reference, title: str) -> Table:
    loc = ref.locale
    table = Table(title=title, title_justify="left")
    table.add_column(label(loc, "rule"), no_wrap=True, style="bold")
    table.add_column(label(loc, "title"))
    table.add_column(label(loc, "kind"), no_wrap=True)
    table.add_column(label(loc, "chapter"))
    for rule in rules:
        chapter = ref.chapter_of(rule)
        table.add_row(rule.id, rule.title, rule.kind, f"{chapter.number}. {chapter.title}")
    return table

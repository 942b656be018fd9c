"""The reference in a terminal (`galileo rules`): one rule as a panel, many as a table (rich)."""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from rulebook.model import KINDS, Reference, Rule


def rule_panel(rule: Rule, ref: Reference) -> Panel:
    chapter = ref.chapter_of(rule)
    parts: list[Text | Table] = [Text(rule.text), Text("")]
    facts = Table.grid(padding=(0, 1))
    facts.add_column(style="bold", no_wrap=True)
    facts.add_column()
    facts.add_row("Source", rule.source)
    facts.add_row("Kind", f"{rule.kind}: {KINDS[rule.kind]}")
    facts.add_row("Chapter", f"{chapter.number}. {chapter.title} (docs/rules/{chapter.filename})")
    if rule.addendum:
        facts.add_row("Publisher", rule.addendum)
    if rule.project:
        facts.add_row("Project", rule.project)
    for edition in rule.editions:
        facts.add_row("Edition", f"{edition.edition}: {edition.value}")
    for option in rule.options:
        facts.add_row("Option", f"{option.name}: default {option.default}; alternative {option.alternative}")
    if rule.mentions():
        facts.add_row("See also", ", ".join(rule.mentions()))
    facts.add_row("Online", rule.url)
    parts.append(facts)
    return Panel(Group(*parts), title=f"[bold]{rule.id}[/] {rule.title}", title_align="left", expand=False)


def rules_table(rules: Iterable[Rule], ref: Reference, title: str) -> Table:
    table = Table(title=title, title_justify="left")
    table.add_column("Rule", no_wrap=True, style="bold")
    table.add_column("Title")
    table.add_column("Kind", no_wrap=True)
    table.add_column("Chapter")
    for rule in rules:
        chapter = ref.chapter_of(rule)
        table.add_row(rule.id, rule.title, rule.kind, f"{chapter.number}. {chapter.title}")
    return table

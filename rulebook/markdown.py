"""The Markdown form of the reference (docs/rules/): an index and one file per chapter.

Generated, never edited by hand: `python -m rulebook docs/rules` rewrites the folder, and
tests/rulebook/test_reference.py fails when the files and the data disagree.
"""

from __future__ import annotations

from pathlib import Path

from rulebook.model import EDITIONS, KINDS, RULE_ID, Chapter, Reference, Rule

GENERATED = "<!-- Generated from rulebook/data/*.toml by `python -m rulebook docs/rules`; do not edit. -->"
INDEX = "README.md"


def _links(text: str, ref: Reference, here: Chapter) -> str:
    """`text` with every known rule ID made a link to its entry."""

    def link(match: object) -> str:
        rule_id = match.group(0)  # type: ignore[attr-defined]
        if rule_id not in ref:
            return str(rule_id)
        target = ref.chapter_of(ref.get(rule_id))
        page = "" if target is here else target.filename
        return f"[{rule_id}]({page}#{rule_id})"

    return RULE_ID.sub(link, text)


def _rule(rule: Rule, ref: Reference, chapter: Chapter) -> list[str]:
    out = [
        f'<a id="{rule.id}"></a>',
        f"### {rule.id} — {rule.title}",
        "",
        _links(rule.text, ref, chapter),
        "",
    ]
    out.append(f"- **Source:** {_links(rule.source, ref, chapter)}")
    out.append(f"- **Kind:** {rule.kind} ({KINDS[rule.kind]})")
    if rule.addendum:
        out.append(f"- **Publisher's rulebook:** {_links(rule.addendum, ref, chapter)}")
    if rule.project:
        out.append(f"- **In this project:** {_links(rule.project, ref, chapter)}")
    if rule.editions:
        out.append("- **By edition:**")
        out += [f"  - *{e.edition}*: {_links(e.value, ref, chapter)}" for e in rule.editions]
    if rule.options:
        out.append("- **Rule options:**")
        out += [f"  - `{o.name}`: default {o.default}; alternative {o.alternative}" for o in rule.options]
    out.append("")
    return out


def chapter_markdown(chapter: Chapter, ref: Reference) -> str:
    out = [GENERATED, "", f"# {chapter.number}. {chapter.title}", ""]
    out.append(
        f"[Rules reference](README.md) · {len(chapter.rules)} rules: "
        + ", ".join(f"[{r.id}](#{r.id})" for r in chapter.rules)
    )
    out.append("")
    if chapter.notes:
        out += [_links(chapter.notes, ref, chapter), ""]
    for rule in chapter.rules:
        out += _rule(rule, ref, chapter)
    return "\n".join(out).rstrip() + "\n"


def index_markdown(ref: Reference) -> str:
    out = [
        GENERATED,
        "",
        "# Rules reference",
        "",
        "Every rule ID that the engine's errors and events, `galileo explain` and the web pages cite,",
        "in the project's own words: its text, its source (a section of a rule document, or a page of the",
        "publisher's rulebook) and, where an edition of the catalog changed a value, both values. The same",
        "entries are served at `GET /rules/{rule_id}` (JSON or HTML) and printed by `galileo rules RULE_ID`.",
        "",
        "Sources: S000 (Luna rulebook), S001 (gameplay and player board), S003 (library, comets,",
        "university), S004 (Japanese base rules summary), and CN p.N, the publisher's Chinese rulebook as",
        "summarised in the rules addendum. Where the rule documents overrule the digest's reading, the entry",
        "says so under *In this project* ([seed-differences.md](../seed-differences.md)).",
        "",
        "## Chapters",
        "",
        "| Chapter | Rules | IDs |",
        "|---|---|---|",
    ]
    for chapter in ref.chapters:
        prefixes = list(dict.fromkeys(r.prefix for r in chapter.rules))
        out.append(
            f"| [{chapter.number}. {chapter.title}]({chapter.filename}) | {len(chapter.rules)} | "
            + ", ".join(f"{p}-*" for p in prefixes)
            + " |"
        )
    out += ["", "## Rules per prefix", "", "| Prefix | Rules |", "|---|---|"]
    out += [f"| {prefix} | {count} |" for prefix, count in ref.counts_by_prefix().items() if count]
    out += [f"| **all** | **{len(ref)}** |", "", "## Kinds", ""]
    out += [f"- **{kind}**: {meaning}" for kind, meaning in KINDS.items()]
    out += ["", "## Editions", ""]
    out += [f"- *{name}*: {meaning}" for name, meaning in EDITIONS.items()]
    return "\n".join(out).rstrip() + "\n"


def render(ref: Reference) -> dict[str, str]:
    """Every file of docs/rules/ by name."""
    files = {INDEX: index_markdown(ref)}
    files.update({c.filename: chapter_markdown(c, ref) for c in ref.chapters})
    return files


def write(ref: Reference, folder: Path) -> list[Path]:
    """Rewrite `folder` with the rendered files; remove generated files that no longer belong."""
    folder.mkdir(parents=True, exist_ok=True)
    files = render(ref)
    for stale in folder.glob("*.md"):
        if stale.name not in files and stale.read_text(encoding="utf-8").startswith(GENERATED):
            stale.unlink()
    written = []
    for name, text in files.items():
        path = folder / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written

"""The Markdown form of the reference (docs/rules/): an index and one file per chapter.

Generated, never edited by hand: `python -m rulebook docs/rules` rewrites the folder (and its translations
in docs/rules/ja/ and docs/rules/zh-Hans/), and tests/rulebook/test_reference.py and
tests/rulebook/test_translations.py fail when the files and the data disagree.
"""

from __future__ import annotations

from pathlib import Path

from rulebook.labels import edition_meaning, kind_meaning, label
from rulebook.model import EDITIONS, KINDS, LOCALES, RULE_ID, Chapter, Reference, Rule

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
    loc = ref.locale
    out.append(f"- **{label(loc, 'source')}:** {_links(rule.source, ref, chapter)}")
    out.append(f"- **{label(loc, 'kind')}:** {rule.kind} ({kind_meaning(loc, rule.kind)})")
    if rule.addendum:
        out.append(f"- **{label(loc, 'addendum')}:** {_links(rule.addendum, ref, chapter)}")
    if rule.project:
        out.append(f"- **{label(loc, 'project')}:** {_links(rule.project, ref, chapter)}")
    if rule.editions:
        out.append(f"- **{label(loc, 'editions')}:**")
        out += [f"  - *{e.edition}*: {_links(e.value, ref, chapter)}" for e in rule.editions]
    if rule.options:
        default, alternative = label(loc, "default"), label(loc, "alternative")
        out.append(f"- **{label(loc, 'options')}:**")
        out += [f"  - `{o.name}`: {default} {o.default}; {alternative} {o.alternative}" for o in rule.options]
    out.append("")
    return out


def chapter_markdown(chapter: Chapter, ref: Reference) -> str:
    out = [GENERATED, "", f"# {chapter.number}. {chapter.title}", ""]
    out.append(
        f"[{label(ref.locale, 'reference')}](README.md) · "
        + label(ref.locale, "md_chapter_rules", count=len(chapter.rules))
        + ", ".join(f"[{r.id}](#{r.id})" for r in chapter.rules)
    )
    out.append("")
    if chapter.notes:
        out += [_links(chapter.notes, ref, chapter), ""]
    for rule in chapter.rules:
        out += _rule(rule, ref, chapter)
    return "\n".join(out).rstrip() + "\n"


def index_markdown(ref: Reference) -> str:
    loc = ref.locale
    up = "../" if loc == "en" else "../../"
    out = [GENERATED, "", f"# {label(loc, 'reference')}", ""]
    out += [*label(loc, "md_intro").split("\n"), ""]
    out += [*label(loc, "md_sources", up=up).split("\n"), ""]
    out += [_languages(loc), ""]
    out += [
        f"## {label(loc, 'md_chapters')}",
        "",
        f"| {label(loc, 'chapter')} | {label(loc, 'md_rules')} | {label(loc, 'md_ids')} |",
        "|---|---|---|",
    ]
    for chapter in ref.chapters:
        prefixes = list(dict.fromkeys(r.prefix for r in chapter.rules))
        out.append(
            f"| [{chapter.number}. {chapter.title}]({chapter.filename}) | {len(chapter.rules)} | "
            + ", ".join(f"{p}-*" for p in prefixes)
            + " |"
        )
    out += ["", f"## {label(loc, 'md_per_prefix')}", ""]
    out += [f"| {label(loc, 'md_prefix')} | {label(loc, 'md_rules')} |", "|---|---|"]
    out += [f"| {prefix} | {count} |" for prefix, count in ref.counts_by_prefix().items() if count]
    out += [f"| **{label(loc, 'md_all')}** | **{len(ref)}** |", "", f"## {label(loc, 'md_kinds')}", ""]
    out += [f"- **{kind}**: {kind_meaning(loc, kind)}" for kind in KINDS]
    out += ["", f"## {label(loc, 'md_editions')}", ""]
    out += [f"- *{name}*: {edition_meaning(loc, name)}" for name in EDITIONS]
    return "\n".join(out).rstrip() + "\n"


def _index_path(here: str, there: str) -> str:
    """The relative path from the index of language `here` to the index of language `there`."""
    if here == "en":
        return f"{there}/README.md"
    return "../README.md" if there == "en" else f"../{there}/README.md"


def _languages(locale: str) -> str:
    """Links from an index to the index of every other language (translations in docs/rules/<tag>/)."""
    from rulebook.labels import NATIVE_NAMES

    links = [f"[{NATIVE_NAMES[tag]}]({_index_path(locale, tag)})" for tag in LOCALES if tag != locale]
    return f"{label(locale, 'languages')}: " + " · ".join(links)


def render(ref: Reference) -> dict[str, str]:
    """Every file of docs/rules/ by name."""
    files = {INDEX: index_markdown(ref)}
    files.update({c.filename: chapter_markdown(c, ref) for c in ref.chapters})
    return files


def write_all(folder: Path) -> list[Path]:
    """docs/rules/ in every language: English in `folder`, each translation in `folder/<locale>/`."""
    from rulebook.model import reference

    written = write(reference("en"), folder)
    for locale in LOCALES:
        if locale != "en":
            written += write(reference(locale), folder / locale)
    return written


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

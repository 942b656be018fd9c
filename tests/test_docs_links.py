"""Every relative link of the Markdown documentation (README.md, bench/README.md, docs/**/*.md) names a file
or folder that exists: a page moved or renamed cannot leave a dead link behind."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# [text](target) and ![alt](target), with an optional "title"; the text may hold one level of brackets.
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1", re.DOTALL)
EXTERNAL = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)  # http:, https:, mailto:…


def markdown_files() -> list[Path]:
    return [ROOT / "README.md", ROOT / "bench" / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def relative_links(text: str) -> list[str]:
    text = CODE_SPAN.sub("", FENCE.sub("", text))
    targets = [match.group(1) for match in LINK.finditer(text)]
    return [target for target in targets if not EXTERNAL.match(target) and not target.startswith("#")]


def test_the_link_pattern_finds_relative_links_and_skips_code_and_external_ones() -> None:
    text = (
        "See [the guide](docs/http.md#limits), ![a board](images/a.png \"title\") and [x](https://e.org).\n"
        "`[not](a-link.md)` and [an anchor](#here).\n```\n[inside](code.md)\n```\n"
    )
    assert relative_links(text) == ["docs/http.md#limits", "images/a.png"]


def test_every_relative_markdown_link_resolves() -> None:
    dead = []
    for path in markdown_files():
        for target in relative_links(path.read_text(encoding="utf-8")):
            where = target.split("#", 1)[0].split("?", 1)[0]
            if not (path.parent / where).exists():
                dead.append(f"{path.relative_to(ROOT)}: {target}")
    assert not dead, "dead relative links:\n" + "\n".join(dead)

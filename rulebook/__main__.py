"""`python -m rulebook [FOLDER]`: regenerate the Markdown rules reference (default docs/rules;
translations in its ja/ and zh-Hans/ folders)."""

from __future__ import annotations

import sys
from pathlib import Path

from rulebook.markdown import write_all
from rulebook.model import reference


def main(argv: list[str]) -> int:
    folder = Path(argv[0]) if argv else Path("docs/rules")
    written = write_all(folder)
    print(f"wrote {len(written)} files ({len(reference())} rules; en, ja, zh-Hans) to {folder}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

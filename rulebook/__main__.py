"""`python -m rulebook [FOLDER]`: regenerate the Markdown rules reference (default docs/rules)."""

from __future__ import annotations

import sys
from pathlib import Path

from rulebook.markdown import write
from rulebook.model import reference


def main(argv: list[str]) -> int:
    folder = Path(argv[0]) if argv else Path("docs/rules")
    written = write(reference(), folder)
    print(f"wrote {len(written)} files ({len(reference())} rules) to {folder}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

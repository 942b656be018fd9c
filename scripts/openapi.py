"""Write the API's OpenAPI document to docs/openapi.json: `python scripts/openapi.py` (or `make openapi`).

tests/api/test_openapi.py fails while the committed file differs from what the app serves."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from api.app import create_app
from api.settings import Settings

TARGET = Path(__file__).resolve().parents[1] / "docs" / "openapi.json"


def document() -> str:
    """The OpenAPI document as committed: sorted keys, two-space indent, a final newline."""
    spec = create_app(Settings()).openapi()  # building the document opens no store
    return json.dumps(spec, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    TARGET.write_text(document(), encoding="utf-8")
    print(f"wrote {TARGET}")

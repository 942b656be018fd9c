"""A Babel extraction method for the pages' scripts (api/static/*.js): every `t("…")` and
`tn("…", "…", n)` call, nested ones included (Babel's own JavaScript extractor skips a call inside
another call's arguments, which the pages use for parts of a sentence). Message ids are written as
double-quoted literals, as api/static/i18n.js documents."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import IO, Any

_STRING = r'"((?:[^"\\\n]|\\.)*)"'
_CALL = re.compile(r"(?<![\w.$])(tn?)\(\s*" + _STRING + r"(?:\s*,\s*" + _STRING + r")?")


def messages(source: str) -> Iterator[tuple[int, str | tuple[str, str]]]:
    for m in _CALL.finditer(source):
        line = source.count("\n", 0, m.start()) + 1
        one = json.loads(f'"{m[2]}"')
        if m[1] == "tn" and m[3] is not None:
            yield line, (one, json.loads(f'"{m[3]}"'))
        elif m[1] == "t":
            yield line, one


def extract(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, str | None, str | tuple[str, str], list[str]]]:
    for line, message in messages(fileobj.read().decode("utf-8")):
        yield line, "tn" if isinstance(message, tuple) else "t", message, []

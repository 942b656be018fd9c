"""Content negotiation on `Accept` (RFC 9110 §12.5.1), for the routes that have more than one form."""

from __future__ import annotations

SVG = "image/svg+xml"


def quality(accept: str, media: str) -> float:
    """The q an Accept header gives `media`: that of its most specific matching range (0 if none)."""
    kind = media.split("/", 1)[0]
    best, best_q = -1, 0.0
    for part in accept.split(","):
        media_range, *params = (p.strip() for p in part.split(";"))
        media_range = media_range.lower()
        rank = {media: 2, f"{kind}/*": 1, "*/*": 0}.get(media_range, -1)
        if rank <= best:
            continue
        q = 1.0
        for param in params:
            name, _, value = param.partition("=")
            if name.strip().lower() == "q":
                try:
                    q = min(max(float(value), 0.0), 1.0)
                except ValueError:
                    q = 0.0
        best, best_q = rank, q
    return best_q


def prefers(accept: str | None, media: str, default: str) -> bool:
    """Whether `accept` prefers `media` to `default` (a tie, or no header, goes to the default)."""
    return bool(accept) and quality(accept or "", media) > quality(accept or "", default)

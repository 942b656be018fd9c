"""schemathesis hooks of this service (schemathesis.toml): an export file (`application/x-ndjson`, JSON
Lines) is sent as the bytes it is."""

from __future__ import annotations

import schemathesis

schemathesis.serializer.alias("application/x-ndjson", "application/octet-stream")

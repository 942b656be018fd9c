"""The FastAPI application: composes the routers."""

from __future__ import annotations

from fastapi import FastAPI

app = FastAPI(title="Galileo Galilei game service", version="0.1.0")


@app.get("/healthz", tags=["health"])
def healthz() -> dict[str, str]:
    """Liveness probe: the process is up and serving."""
    return {"status": "ok"}

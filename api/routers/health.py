"""Liveness and readiness probes."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from api.runtime import Runtime
from api.schemas import Health

router = APIRouter(tags=["health"])


@router.get("/healthz", operation_id="getHealth", response_model=Health)
async def healthz() -> Health:
    """Liveness: the process is up and serving."""
    return Health(status="ok")


@router.get("/readyz", operation_id="getReadiness", response_model=Health, responses={503: {"model": Health}})
async def readyz(request: Request) -> JSONResponse:
    """Readiness: the store (and Redis, when configured) can be reached; 503 names what cannot. Answers
    within 2 s: a store already known to be down is not pinged again (its probe runs in the background),
    and a ping is cut off after 1.5 s."""
    runtime: Runtime = request.app.state.runtime
    checks: dict[str, str] = {}
    if runtime.health.down:
        checks["store"] = f"unreachable: {runtime.health.reason}"
    else:
        try:
            await runtime.health.check()
            checks["store"] = "ok"
        except Exception as error:
            checks["store"] = f"unreachable: {type(error).__name__}"
    if runtime.settings.redis_url:
        problem = await runtime.fanout.ping()
        checks["redis"] = "ok" if problem is None else f"unreachable: {problem}"
    ok = all(v == "ok" for v in checks.values())
    body = Health(status="ok" if ok else "degraded", checks=checks)
    return JSONResponse(body.model_dump(), status_code=200 if ok else 503)

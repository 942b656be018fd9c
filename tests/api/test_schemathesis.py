"""schemathesis against the app in-process (ASGI) with every check: each documented operation answers only
documented statuses, content types, headers and bodies; schema-valid requests are not refused for their
shape, invalid ones are; no 5xx. The default suite runs a bounded number of cases; `make soak` runs more."""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.python import asgi

from api.app import create_app
from api.settings import NO_RATES, Settings
from tests.api.servers import ServeProcess

ROOT = Path(__file__).resolve().parents[2]

STORE = Path(tempfile.mkdtemp(prefix="galileo-schemathesis-"))
APP = create_app(
    Settings(database_url=f"sqlite:///{STORE}/games.db", bots=False, projections=False, rates=dict(NO_RATES))
)
# Schema-valid is not always acceptable: a command may be illegal by the rules, an import file forged, a
# creation's options or tile orders unknown to the rules, a fork point past the head. Those operations may
# refuse schema-valid data with 422 (a problem naming the rule or the line); every other check is as is.
RULES_DECIDE = ("/games", "/games/import", "/games/{game_id}/commands", "/games/{game_id}/fork")
CONFIG = schemathesis.Config.from_dict(
    {
        "operations": [
            {
                "include-path": path,
                "include-method": "POST",
                "checks": {
                    "positive_data_acceptance": {
                        "expected-statuses": ["2xx", "3xx", "401", "403", "404", "409", "422", "429"]
                    }
                },
            }
            for path in RULES_DECIDE
        ]
    }
)
schemathesis.serializer.alias("application/x-ndjson", "text/plain")  # export files are text lines
schema = schemathesis.openapi.from_asgi("/openapi.json", APP, config=CONFIG)
CASES: dict[str, int] = {}
DEFAULT_EXAMPLES = 12  # per operation in the default suite; the soak run takes 200
COMMON = {
    "deadline": None,
    "derandomize": True,  # the same cases every run: a failure is reproducible
    "database": None,
    "suppress_health_check": list(HealthCheck),
}


@pytest.fixture(scope="module", autouse=True)
def _lifespan(request: pytest.FixtureRequest) -> Iterator[None]:
    yield
    asgi.shutdown_lifespans()  # stop the app's runtime (the first case started it)
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    if reporter is not None and capture is not None and CASES:
        with capture.global_and_fixture_disabled():
            reporter.write_line(f"schemathesis: {sum(CASES.values())} cases over {len(CASES)} operations")


def _run(case: schemathesis.Case) -> None:
    key = case.operation.label
    CASES[key] = CASES.get(key, 0) + 1
    case.call_and_validate()


@schema.parametrize()
@settings(max_examples=DEFAULT_EXAMPLES, **COMMON)
def test_api_contract(case: schemathesis.Case) -> None:
    _run(case)


@pytest.mark.soak
@schema.parametrize()
@settings(max_examples=200, **COMMON)
def test_api_contract_soak(case: schemathesis.Case) -> None:
    _run(case)


StatefulBase = schema.as_state_machine()


class StatefulRun(StatefulBase):  # type: ignore[misc,valid-type]
    """Sequences following the OpenAPI links: create, import or fork a game, then read, replay, export,
    verify and fork it (a bounded number of steps)."""

    def validate_response(self, response: Any, case: schemathesis.Case, **kwargs: Any) -> None:
        key = f"stateful {case.operation.label}"
        CASES[key] = CASES.get(key, 0) + 1
        super().validate_response(response, case, **kwargs)


TestStatefulContract = StatefulRun.TestCase
TestStatefulContract.settings = settings(
    max_examples=5,
    stateful_step_count=5,
    **COMMON,  # type: ignore[arg-type]
)


@pytest.mark.slow
def test_api_contract_against_a_live_server(tmp_path: Path) -> None:
    """schemathesis' own command line, `--checks all` in every phase (examples, coverage, fuzzing, and the
    stateful runs that follow the OpenAPI links), against a real `galileo serve` on loopback: what the
    in-process run cannot see (uvicorn, real sockets and streams, the order of authentication and rate
    limits) must hold too. The repository's schemathesis.toml applies (run from its folder). Bots are
    off (a fuzzed game with a search bot would spend the run's time thinking) and so are the rates (so
    the writes' logic is reached; tests/api/test_limits.py has the 401-before-429 order)."""
    env = {
        "GALILEO_DATABASE_URL": f"sqlite:///{tmp_path}/games.db",
        "GALILEO_PROJECTIONS": "off",
        "GALILEO_BOTS": "0",
        **{
            f"GALILEO_RATE_{kind}": "off"
            for kind in ("CREATE", "FORK", "IMPORT", "COMMAND", "ANALYSIS", "READ")
        },
    }
    st = Path(sys.executable).parent / "schemathesis"
    with ServeProcess(tmp_path, env, "schemathesis") as server:
        run = subprocess.run(
            [str(st), "run", f"{server.url}/openapi.json", "--checks", "all", "--max-examples", "3"]
            + ["--seed", "32", "--no-color"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
    summary = run.stdout[-3000:] + run.stderr[-2000:]
    assert run.returncode == 0, summary
    assert re.search(r"\d+ generated, \d+ passed", run.stdout), summary
    # Three examples an operation in the fuzzing phase (the coverage phase adds its own): every operation
    # is still tested, in every phase.
    counted = re.search(r"Selected: (\d+)/(\d+)\s+Tested: (\d+)", run.stdout)
    assert counted and counted[1] == counted[2] == counted[3], summary
    for phase in ("Examples", "Coverage", "Fuzzing", "Stateful"):
        assert f"✅ {phase}" in run.stdout, summary

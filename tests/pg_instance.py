"""A PostgreSQL server of a test's own: initdb in a temporary folder, a free port, started and stopped
by the test (outage and restart tests; the machine's server is never touched).

The binaries are found under /usr/lib/postgresql/*/bin (or on PATH). PostgreSQL refuses to run as root,
so as root the server runs as the `postgres` user (`runuser`)."""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from tests.conftest import SERVICE_SKIP_PREFIX


def _bin_dir() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return None if initdb is None else Path(initdb).parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PostgresInstance:
    """`start()`, `stop()` (fast shutdown: sessions are cut), `url`; `close()` stops and removes it."""

    def __init__(self) -> None:
        binaries = _bin_dir()
        if binaries is None:
            message = "PostgreSQL binaries (initdb, pg_ctl) not found under /usr/lib/postgresql/*/bin"
            if os.environ.get("GALILEO_REQUIRE_SERVICES") == "1":
                pytest.fail(f"GALILEO_REQUIRE_SERVICES=1 but {message}", pytrace=False)
            pytest.skip(SERVICE_SKIP_PREFIX + message)
        self.bin = binaries
        self.root = Path(tempfile.mkdtemp(prefix="galileo-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"
        self._as_user: list[str] = []
        if os.geteuid() == 0:
            shutil.chown(self.root, user="postgres")
            self._as_user = ["runuser", "-u", "postgres", "--"]
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-N", "-E", "UTF8")

    def _run(self, tool: str, *args: str) -> None:
        command = [*self._as_user, str(self.bin / tool), *args]
        result = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
        if result.returncode != 0:
            raise RuntimeError(f"{tool} failed ({result.returncode}): {result.stdout}\n{result.stderr}")

    def start(self) -> float:
        """Start the server and wait until it accepts connections; returns the time.monotonic() then."""
        options = (
            f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c synchronous_commit=off -c full_page_writes=off"
        )
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.root / "log"), "-w", "start")
        return time.monotonic()

    def stop(self) -> None:
        """Stop the server at once (fast shutdown: open sessions are terminated), waiting until it is down."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def running(self) -> bool:
        return (self.data / "postmaster.pid").exists()

    def close(self) -> None:
        if self.running():
            self.stop()
        shutil.rmtree(self.root, ignore_errors=True)

"""Real processes for the scale tests: `galileo serve` on a free port, a private redis-server."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import httpx
import pytest

from tests.api.helpers import free_port
from tests.conftest import TEST_ENCRYPTION_KEY

SHUTDOWN_GRACE_SECONDS = 1  # GALILEO_SHUTDOWN_GRACE_SECONDS of the servers the tests start (default 5)


def _galileo() -> str:
    beside = Path(sys.executable).parent / "galileo"
    found = str(beside) if beside.exists() else shutil.which("galileo")
    if not found:
        pytest.fail("the galileo console script is not installed (pip install -e .)")
    return found


def wait_ready(process: subprocess.Popen[bytes], url: str, log: Path, what: str, seconds: float = 30) -> None:
    """Wait until the server at `url` answers /readyz with 200; RuntimeError (with the end of its log)
    if it exits first or is not ready within `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{what} exited: {log.read_text()[-2000:]}")
        try:
            if httpx.get(url + "/readyz", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"{what} did not become ready in {seconds:.0f} s: {log.read_text()[-2000:]}")


class ServeProcess:
    """`galileo serve --port N` with the given environment; always terminated on exit."""

    def __init__(self, cwd: Path, env: dict[str, str], name: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = cwd / f"{name}.log"
        self._cwd = cwd
        # Rate buckets of this server's own in a shared Redis (other runs of the tests use it too).
        # A short shutdown grace: a server stopped with streams open waits it out (tests/api/test_clients.py
        # checks the default's behaviour with this value).
        self._env = {
            "GALILEO_ENCRYPTION_KEYS": TEST_ENCRYPTION_KEY,  # also when started by bench/ (no conftest)
            **os.environ,
            "GALILEO_RATE_KEY_PREFIX": f"test:rate:{uuid.uuid4().hex}",
            "GALILEO_SHUTDOWN_GRACE_SECONDS": str(SHUTDOWN_GRACE_SECONDS),
            **env,
        }
        self.process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> ServeProcess:
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(
                [_galileo(), "serve", "--port", str(self.port)],
                cwd=self._cwd,
                env=self._env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        try:
            wait_ready(self.process, self.url, self.log, "galileo serve")
        except RuntimeError:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)


class PrivateRedis:
    """A redis-server of our own on a free port, to stop and start (never the shared one on 6379)."""

    def __init__(self, workdir: Path) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self._workdir = workdir
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.fail("redis-server is not installed")
        self.process = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            cwd=self._workdir,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        import redis

        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                redis.Redis(port=self.port, socket_connect_timeout=0.5).ping()
                return
            except redis.RedisError:
                time.sleep(0.05)
        raise AssertionError("the private redis-server did not start")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
        self.process = None

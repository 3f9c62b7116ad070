"""A real, throw-away ``redis-server`` on a free loopback port (Debian's package).

Usage::

    with RedisServer(tmp_path) as server:       # skips the test when there is no binary
        settings = replace(Settings(), cache_path=server.url)

Persistence is off (no RDB snapshots, no append-only file), the working folder
is the test's tmp folder, and :meth:`RedisServer.stop` terminates the process
(also when the test failed: use it as a context manager or in a fixture's
``finally``). ``redis_server`` is the pytest fixture.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

BINARY = shutil.which("redis-server") or "/usr/bin/redis-server"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class RedisServer:
    """``redis-server`` on 127.0.0.1, optionally with a password."""

    def __init__(self, folder: Path, *, password: str = "") -> None:
        self.folder = folder
        self.password = password
        self.port = 0
        self._proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """``redis://[:password@]127.0.0.1:PORT/0``."""
        auth = f":{self.password}@" if self.password else ""
        return f"redis://{auth}127.0.0.1:{self.port}/0"

    def start(self) -> RedisServer:
        """Start the server and wait until it answers; skip the test without the binary."""
        if not Path(BINARY).exists():
            pytest.skip("redis-server is not installed (Debian package redis-server; "
                        ".ci/run installs it)")
        pytest.importorskip("redis", reason="redis-py is not installed (the batch extra)")
        import redis

        self.folder.mkdir(parents=True, exist_ok=True)
        self.port = _free_port()
        args = [BINARY, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                "--appendonly", "no", "--dir", str(self.folder), "--daemonize", "no",
                "--logfile", str(self.folder / "redis.log")]
        if self.password:
            args += ["--requirepass", self.password]
        self._proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 15
        while True:
            try:
                client = redis.Redis.from_url(self.url, socket_timeout=1)
                client.ping()
                client.close()
                return self
            except redis.RedisError:
                if self._proc.poll() is not None or time.monotonic() > deadline:
                    log = (self.folder / "redis.log")
                    self.stop()
                    raise RuntimeError("redis-server did not start: "
                                       + (log.read_text()[-2000:] if log.exists() else "")
                                       ) from None
                time.sleep(0.05)

    def stop(self) -> None:
        """Terminate the server (kill it if it does not stop within 10 s)."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)

    def __enter__(self) -> RedisServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    """A running redis-server for one test, stopped afterwards."""
    with RedisServer(tmp_path / "redis") as server:
        yield server

"""A loopback HTTP server that replays recorded API exchanges.

Usage::

    with ReplayServer() as server:
        server.add_file(FIXTURES / "crossref.jsonl")           # recorded exchanges
        server.add("GET", "/works?query.bibliographic=x", body={"message": {...}})
        settings = replace(Settings(), base_urls=server.base_urls())

Requests are matched by method + path + query string (parameter order does
not matter, the host is ignored, the path is compared percent-decoded and
without a trailing slash). Several exchanges under one key are served in
turn, the last one repeating (so "429, then 200" is two ``add`` calls).
Handlers (``add_handler``) see every request first and may return a
:class:`Reply`, :data:`DROP` (close the connection without answering) or None
(fall through to the recorded exchanges). Unknown requests get 404.

Faulty servers (tests/sources/test_network_faults.py, bench/bench_faults.py):
a :class:`Reply` may drip its body one byte every ``drip_s`` seconds, or produce
it in chunks (``stream``, sent without Content-Length unless ``declared_length``
is given, then the connection is closed); ``sent`` counts the body bytes the
server managed to write.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

#: Path prefix of every API below the server root, as in the real base URLs.
API_PREFIXES: Mapping[str, str] = {
    "arxiv": "/api",
    "crossref": "",
    "datacite": "",
    "inspire": "/api",
    "semanticscholar": "/graph/v1",
    "openalex": "",
    "dblp": "",
    "ads": "/v1",
}


@dataclass(frozen=True, slots=True)
class Reply:
    """A response to send."""

    status: int = 200
    body: bytes = b""
    headers: Mapping[str, str] = field(default_factory=dict)
    drip_s: float = 0.0  # seconds between the body's bytes (a server that drips)
    stream: Callable[[], Iterator[bytes]] | None = None  # a body made in chunks (large)
    declared_length: int | None = None  # Content-Length announced for a streamed body

    @classmethod
    def make(cls, status: int = 200, body: Any = b"", *, content_type: str | None = None,
             headers: Mapping[str, str] | None = None) -> Reply:
        """Build a reply from bytes, text or a JSON-able object."""
        hdrs = dict(headers or {})
        if isinstance(body, bytes):
            data = body
        elif isinstance(body, str):
            data = body.encode("utf-8")
            hdrs.setdefault("Content-Type", content_type or "text/plain; charset=utf-8")
        else:
            data = json.dumps(body).encode("utf-8")
            hdrs.setdefault("Content-Type", content_type or "application/json")
        if content_type:
            hdrs["Content-Type"] = content_type
        return cls(status, data, hdrs)


class _Drop:
    """Marker: close the connection without a response."""


DROP = _Drop()

#: Three references the recorded arXiv answers in tests/fixtures/api/arxiv.jsonl settle:
#: a real paper (1605.08386), the same with a wrong year, and a fabricated one whose
#: arXiv id (1602.87451) the recorded answer says does not exist.
ARXIV_BIB = r"""
@article{real, author = {Stanley, Caprice and Windisch, Tobias},
  title = {Heat-bath random walks with {Markov} bases}, year = {2016}, eprint = {1605.08386}}
@article{wrongyear, author = {Stanley, C. and Windisch, T.},
  title = {Heat-bath random walks with Markov bases}, year = {2013}, eprint = {1605.08386}}
@article{fake, author = {Farnsworth, Q. and Qanzar, L.},
  title = {Temporal Dynamics of Quantum Gravitational Waves Using the HelioTrace Method},
  year = {2016}, eprint = {1602.87451}}
"""


@dataclass(frozen=True, slots=True)
class Request:
    """A request the server received."""

    method: str
    path: str
    query: tuple[tuple[str, str], ...]
    headers: Mapping[str, str]
    body: bytes

    def param(self, name: str) -> str:
        """The first value of query parameter ``name`` ("" when absent)."""
        return next((v for k, v in self.query if k == name), "")

    def json(self) -> Any:
        """The body parsed as JSON."""
        return json.loads(self.body.decode("utf-8"))


Handler = Callable[[Request], "Reply | _Drop | None"]
_Key = tuple[str, str, tuple[tuple[str, str], ...]]


def _norm_path(path: str) -> str:
    path = unquote(path)
    return path.rstrip("/") or "/"


def request_key(method: str, url: str) -> _Key:
    """The matching key of a request: method, decoded path, sorted query pairs."""
    parts = urlsplit(url)
    query = tuple(sorted(parse_qsl(parts.query, keep_blank_values=True)))
    return method.upper(), _norm_path(parts.path), query


class ReplayServer:
    """Serve recorded exchanges on 127.0.0.1 at an ephemeral port.

    ``latency`` (seconds) delays every answer (benchmarks).
    """

    def __init__(self, *, latency: float = 0.0) -> None:
        self.latency = latency
        self._routes: dict[_Key, list[Reply]] = {}
        self._served: dict[_Key, int] = {}
        self._handlers: list[Handler] = []
        self._lock = threading.Lock()
        self.requests: list[Request] = []
        self.sent = 0  # body bytes written to clients
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- content -------------------------------------------------------------

    def add(self, method: str, url: str, *, status: int = 200, body: Any = b"",
            content_type: str | None = None, headers: Mapping[str, str] | None = None) -> None:
        """Serve ``body`` for ``method url`` (absolute URL or path with query)."""
        reply = Reply.make(status, body, content_type=content_type, headers=headers)
        self._routes.setdefault(request_key(method, url), []).append(reply)

    def add_recorded(self, record: Mapping[str, Any], *, url: str | None = None,
                     status: int | None = None) -> None:
        """Serve one recorded exchange (a line of ``tests/fixtures/api/*.jsonl``).

        ``url`` overrides the recorded request URL (payload-only records have
        none: serve them at the URL the adapter requests).
        """
        if record.get("body_json") is not None:
            body: Any = record["body_json"]
        else:
            body = record.get("body_text") or ""
        ctype = record.get("content_type") or None
        self.add(str(record.get("method") or "GET"), url or str(record["request_url"]),
                 status=status or int(record.get("status") or 200), body=body,
                 content_type=ctype)

    def add_file(self, path: Path, *, lines: Iterable[int] | None = None) -> None:
        """Serve every exchange (or the given 1-based ``lines``) of a JSONL file."""
        wanted = set(lines) if lines is not None else None
        with path.open(encoding="utf-8") as fh:
            for n, line in enumerate(fh, 1):
                if wanted is not None and n not in wanted:
                    continue
                rec = json.loads(line)
                if rec.get("request_url"):
                    self.add_recorded(rec)

    def add_handler(self, handler: Handler) -> None:
        """Consult ``handler`` before the recorded exchanges."""
        self._handlers.append(handler)

    # -- serving -------------------------------------------------------------

    def respond(self, req: Request) -> Reply | _Drop:
        """Pick the reply for ``req``."""
        for handler in self._handlers:
            out = handler(req)
            if out is not None:
                return out
        key = (req.method, req.path, tuple(sorted(req.query)))
        with self._lock:
            replies = self._routes.get(key)
            if not replies:
                return Reply.make(404, {"error": "no recorded exchange",
                                        "method": req.method, "path": req.path,
                                        "query": list(req.query)})
            n = self._served.get(key, 0)
            self._served[key] = n + 1
        return replies[min(n, len(replies) - 1)]

    @property
    def url(self) -> str:
        """``http://127.0.0.1:PORT``."""
        if self._server is None:
            raise RuntimeError("server not started")
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def base_urls(self) -> dict[str, str]:
        """Base URLs of every source, pointing here (for ``Settings.base_urls``)."""
        return {name: self.url + prefix for name, prefix in API_PREFIXES.items()}

    def start(self) -> ReplayServer:
        """Start serving in a daemon thread."""
        outer = self

        class _H(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True  # headers and body are two writes: no 40 ms stalls

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
                return

            def _handle(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                parts = urlsplit(self.path)
                req = Request(
                    self.command, _norm_path(parts.path),
                    tuple(parse_qsl(parts.query, keep_blank_values=True)),
                    {k.lower(): v for k, v in self.headers.items()}, body,
                )
                with outer._lock:
                    outer.requests.append(req)
                if outer.latency:
                    time.sleep(outer.latency)
                reply = outer.respond(req)
                if isinstance(reply, _Drop):
                    self.close_connection = True
                    try:
                        self.connection.shutdown(2)
                    except OSError:
                        pass
                    return
                try:
                    self.send_response(reply.status)
                    for k, v in reply.headers.items():
                        self.send_header(k, v)
                    if reply.stream is not None:
                        if reply.declared_length is not None:
                            self.send_header("Content-Length", str(reply.declared_length))
                        self.send_header("Connection", "close")
                        self.end_headers()
                        self.close_connection = True
                        for chunk in reply.stream():
                            self.wfile.write(chunk)
                            self._count(len(chunk))
                        return
                    self.send_header("Content-Length", str(len(reply.body)))
                    self.end_headers()
                    if reply.drip_s:
                        for i in range(len(reply.body)):
                            self.wfile.write(reply.body[i:i + 1])
                            self.wfile.flush()
                            self._count(1)
                            time.sleep(reply.drip_s)
                        return
                    self.wfile.write(reply.body)
                    self._count(len(reply.body))
                except (BrokenPipeError, ConnectionResetError):
                    self.close_connection = True  # the client gave up (time-out test)

            def _count(self, n: int) -> None:
                with outer._lock:
                    outer.sent += n

            do_GET = do_POST = do_PUT = do_HEAD = _handle  # noqa: N815

        class _Server(ThreadingHTTPServer):
            request_queue_size = 256  # many concurrent clients in fault and bench runs

        server = _Server(("127.0.0.1", 0), _H)
        server.daemon_threads = True
        self._server = server
        self._thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05},
                                        daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving."""
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> ReplayServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def count(self, method: str | None = None, path: str | None = None) -> int:
        """How many requests arrived (optionally only for a method and path)."""
        with self._lock:
            return sum(1 for r in self.requests
                       if (method is None or r.method == method)
                       and (path is None or r.path == _norm_path(path)))

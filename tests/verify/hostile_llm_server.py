"""A loopback "OpenAI-compatible" server that answers badly on purpose, for the LLM
bounds tests: ``flood`` sends a 30 MB chat completion (chunked, no Content-Length),
``drip`` sends the headers and then one byte every 0.1 s until the client hangs up,
``hold`` receives the request and answers nothing until the server stops.

``received`` is set once a chat request has been read (the tests wait on it);
``requests`` counts them.
"""

from __future__ import annotations

import threading
import time
from http.server import BaseHTTPRequestHandler
from typing import Any

from tests.verify.llm_server import ChatServerBase

#: The body size ``flood`` sends: above the product's 20 MB cap.
FLOOD_BYTES = 30_000_000


class HostileChatServer(ChatServerBase):
    """A threaded HTTP server on 127.0.0.1 with an ephemeral port; ``mode`` as above."""

    def __init__(self, mode: str) -> None:
        self.mode = mode
        self.received = threading.Event()
        self.requests = 0
        self.stopping = threading.Event()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
                return

            def _chunk(self, data: bytes) -> None:
                self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")

            def do_POST(self) -> None:  # noqa: N802 - http.server API
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                outer.requests += 1
                outer.received.set()
                try:
                    if outer.mode == "hold":
                        outer.stopping.wait(120)
                        return
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Transfer-Encoding", "chunked")
                    self.end_headers()
                    self._chunk(b'{"id": "x", "object": "chat.completion", "choices": '
                                b'[{"index": 0, "message": {"role": "assistant", "content": "')
                    if outer.mode == "flood":
                        block = b"a" * 1_000_000
                        for _ in range(FLOOD_BYTES // len(block)):
                            self._chunk(block)
                    else:  # drip
                        while not outer.stopping.is_set():
                            self._chunk(b"a")
                            self.wfile.flush()
                            time.sleep(0.1)
                    self._chunk(b'"}}]}')
                    self.wfile.write(b"0\r\n\r\n")
                except OSError:  # the client hung up: what the cap and the budget do
                    return

        self._serve(Handler)

    def __enter__(self) -> HostileChatServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopping.set()
        self.stop()

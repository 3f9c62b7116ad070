"""A loopback server speaking the OpenAI chat-completions protocol, for the LLM tests.

Usage::

    def answer(body: dict) -> ChatReply:          # body: the request JSON
        return ChatReply(content='{"label": "EXACT", ...}')

    with FakeChatServer(answer) as server:
        settings = replace(Settings(), llm_base_url=server.base_url, llm_model="fake")
        ...
        server.requests                            # every request body received

Only ``POST /v1/chat/completions`` exists; anything else gets 404. A reply with
``status != 200`` is sent as an OpenAI-style error object.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True, slots=True)
class ChatReply:
    """What the fake model answers: message text, token counts, or an HTTP error."""

    content: str = ""
    status: int = 200
    prompt_tokens: int = 0
    completion_tokens: int = 0
    error: str = ""


Answerer = Callable[[dict[str, Any]], ChatReply]


def user_text(body: dict[str, Any]) -> str:
    """The text of the last user message of a request."""
    for msg in reversed(body.get("messages", [])):
        if msg.get("role") == "user":
            return str(msg.get("content", ""))
    return ""


class ChatServerBase:
    """A loopback OpenAI-compatible server run on a thread: subclasses build the handler."""

    def _serve(self, handler: type[BaseHTTPRequestHandler]) -> None:
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.05,),
                                        daemon=True)

    @property
    def base_url(self) -> str:
        """The OpenAI-style base URL (ends in /v1)."""
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)


class FakeChatServer(ChatServerBase):
    """A threaded HTTP server on 127.0.0.1 with an ephemeral port."""

    def __init__(self, answer: Answerer) -> None:
        self.answer = answer
        self.requests: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
                return

            def _send(self, status: int, payload: dict[str, Any]) -> None:
                data = json.dumps(payload).encode("utf-8")
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_POST(self) -> None:  # noqa: N802 - http.server API
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                if self.path.rstrip("/") != "/v1/chat/completions":
                    self._send(404, {"error": {"message": "not found", "type": "invalid_request"}})
                    return
                body = json.loads(raw or b"{}")
                with outer._lock:
                    outer.requests.append(body)
                reply = outer.answer(body)
                if reply.status != 200:
                    self._send(reply.status, {"error": {
                        "message": reply.error or "bad request", "type": "invalid_request_error",
                        "param": None, "code": None}})
                    return
                self._send(200, {
                    "id": f"chatcmpl-{len(outer.requests)}",
                    "object": "chat.completion",
                    "created": 1_700_000_000,
                    "model": body.get("model", ""),
                    "choices": [{"index": 0, "finish_reason": "stop", "logprobs": None,
                                 "message": {"role": "assistant", "content": reply.content}}],
                    "usage": {"prompt_tokens": reply.prompt_tokens,
                              "completion_tokens": reply.completion_tokens,
                              "total_tokens": reply.prompt_tokens + reply.completion_tokens},
                })

        self._serve(Handler)

    def __enter__(self) -> FakeChatServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

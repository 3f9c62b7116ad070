"""The LLM client's HTTP transport: the same bounds as every other answer of a run.

The openai SDK reads a whole response body into memory and its timeouts are per
read, so a broken or hostile OpenAI-compatible server (any ``llm_base_url``) could
send an endless body or drip bytes for ever. :class:`CappedTransport` sits under the
SDK's httpx client: one attempt (connect, headers and body) has a total time budget,
and the body is read with :func:`citecheck_tex.bounded.read_capped` (refused past
``max_response_bytes``, decoded). A refusal is raised as :class:`AnswerRefused`;
the SDK turns it into ``APIConnectionError`` (its cause kept), which
:meth:`LlmSession.ask <citecheck_tex.llm.session.LlmSession.ask>` reports as an LLM
failure: the deterministic verdict stays.

A server whose answer was over the cap is not asked again by the same transport (one
per session): the SDK retries a connection error ``max_retries`` times, and each retry
would read another 20 MB of the same flood. Its later requests are refused at once.
A slow answer (the time budget) is retried as any timeout is.
"""

from __future__ import annotations

import asyncio

import httpx

from citecheck_tex.bounded import TooLarge, read_capped


class AnswerRefused(Exception):  # noqa: N818 - the message says what was refused
    """An LLM server's answer over the size cap or past the time budget of one attempt."""


class CappedTransport(httpx.AsyncBaseTransport):
    """Wraps ``inner`` (default: a new ``httpx.AsyncHTTPTransport``): each request has
    ``budget_s`` seconds in total and a body of at most ``max_bytes`` (decoded)."""

    def __init__(self, max_bytes: int, budget_s: float,
                 inner: httpx.AsyncBaseTransport | None = None) -> None:
        self.max_bytes = max_bytes
        self.budget_s = budget_s
        self.inner = inner if inner is not None else httpx.AsyncHTTPTransport()
        #: hosts (scheme, host, port) whose answer was over the cap: not asked again
        self.flooded: set[tuple[str, str, int | None]] = set()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        """The whole answer of ``request``, read within the budget and the cap."""
        host = (request.url.scheme, request.url.host, request.url.port)
        if host in self.flooded:
            raise AnswerRefused("LLM server: an earlier answer was over the size cap; "
                                "not asked again in this run")
        try:
            async with asyncio.timeout(self.budget_s):
                raw = await self.inner.handle_async_request(request)
                resp = httpx.Response(raw.status_code, headers=raw.headers, stream=raw.stream,
                                      request=request, extensions=raw.extensions)
                try:
                    return await read_capped(resp, self.max_bytes)
                finally:
                    await resp.aclose()
        except TooLarge as exc:
            self.flooded.add(host)
            raise AnswerRefused(f"LLM server: {exc}") from exc
        except TimeoutError as exc:
            raise AnswerRefused(f"LLM server: no complete answer within {self.budget_s:g} s "
                                "(time budget of one request)") from exc

    async def aclose(self) -> None:
        """Close the wrapped transport."""
        await self.inner.aclose()

"""Bounded HTTP answers: the body size cap every HTTP client of a run applies (issue 12).

Below every stage: the sources' :class:`~citecheck_tex.sources.http.Http` stack and
the LLM session's transport (:mod:`citecheck_tex.llm.transport`) read bodies with
:func:`read_capped`, so one ``max_response_bytes`` bounds every answer the product
receives, decoded, without holding more than the cap in memory.
"""

from __future__ import annotations

import httpx

#: Headers that describe a body's transfer form; dropped once the body is decoded.
TRANSFER_HEADERS = ("content-encoding", "content-length", "transfer-encoding")


def size_text(n: int) -> str:
    """A byte count for messages: "20 MB", "1,234 bytes"."""
    return f"{n / 1_000_000:.3g} MB" if n >= 1_000_000 else f"{n:,} bytes"


class TooLarge(Exception):  # noqa: N818 - a refusal, raised before the body is held
    """A body over the size cap (declared by ``Content-Length`` or counted while
    streaming), refused without being read to its end."""

    def __init__(self, size: int, cap: int) -> None:
        super().__init__(f"an answer of more than {size_text(cap)} ({size_text(size)} seen), "
                         "refused")
        self.size = size
        self.cap = cap


async def read_capped(resp: httpx.Response, cap: int) -> httpx.Response:
    """The streamed ``resp`` read (and decoded) to its end as a new response holding the
    body; raises :class:`TooLarge` as soon as the body passes ``cap`` bytes."""
    declared = resp.headers.get("Content-Length", "")
    if declared.isdigit() and int(declared) > cap:
        raise TooLarge(int(declared), cap)
    chunks: list[bytes] = []
    size = 0
    async for chunk in resp.aiter_bytes():
        size += len(chunk)
        if size > cap:
            raise TooLarge(size, cap)
        chunks.append(chunk)
    kept = [(k, v) for k, v in resp.headers.multi_items() if k.lower() not in TRANSFER_HEADERS]
    return httpx.Response(resp.status_code, headers=kept, content=b"".join(chunks),
                          request=resp.request, extensions=resp.extensions)

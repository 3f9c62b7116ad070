"""The LLM client session every LLM-backed feature shares (optional: ``[llm]`` extra).

:class:`LlmSession` holds one OpenAI-compatible client, the response cache and the
usage totals; callers pass their own prompts to :meth:`LlmSession.ask` (the judge in
:mod:`citecheck_tex.verify.llm`, the reference parser in :mod:`citecheck_tex.tex.llm_parse`,
the web-search source). A check opens one session for all of them
(:class:`LlmSessions`). Importing this package never imports ``openai``.
"""

from __future__ import annotations

from citecheck_tex.llm.cache import LlmCache, ResponseStore
from citecheck_tex.llm.session import (
    INSTALL_HINT,
    MIN_TIMEOUT_S,
    NOT_JSON,
    LlmSession,
    LlmSessions,
    LlmTally,
    PostFunction,
    extract_json,
    input_hash,
    is_loopback,
    make_client,
    open_session,
)
from citecheck_tex.llm.usage import LlmUsage

__all__ = [
    "INSTALL_HINT",
    "MIN_TIMEOUT_S",
    "NOT_JSON",
    "LlmCache",
    "LlmSession",
    "LlmSessions",
    "LlmTally",
    "LlmUsage",
    "PostFunction",
    "ResponseStore",
    "extract_json",
    "input_hash",
    "is_loopback",
    "make_client",
    "open_session",
]

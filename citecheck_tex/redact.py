"""Keep secrets out of logs and messages: API keys in URLs and headers are masked.

Keys travel in URLs' user information (a Redis cache ``redis://:pw@host``), in query strings (OpenAlex ``api_key=``) and headers (Semantic
Scholar ``x-api-key``, NASA ADS ``Authorization: Bearer``). Every text that
may hold a URL or a header and leaves the process (log records, error
messages, report texts) passes through :func:`redact`. A contact address
(``mailto=``) is not a secret and is left alone.

:class:`RedactFilter` applies :func:`redact` to log records; the HTTP stack
installs it on the ``httpx`` logger (which logs every request URL at INFO) and
the CLI on its log handlers, so ``--verbose`` never prints a key.
"""

from __future__ import annotations

import logging
import re

MASK = "***"

# api_key=..., apikey=..., access_token=..., token=..., key=... in a query string
_QUERY = re.compile(
    r"(?i)(\b(?:api[_-]?key|apikey|access[_-]?token|token|key|secret|password)=)([^&\s\"'<>#]+)")
# x-api-key: ... / 'x-api-key': '...' / Authorization: Bearer ... in header dumps
_HEADER = re.compile(
    r"(?i)(\b(?:x-api-key|api-key|authorization)[\"']?\s*[:=]\s*[\"']?(?:bearer\s+|token\s+)?)"
    r"([^\s\"',}]+)")
# the password of a URL's user information: redis://:secret@host, https://user:secret@host
_USERINFO = re.compile(r"(?i)(\b[a-z][a-z0-9+.-]*://[^\s:/@]*:)([^\s/@]+)(@)")
# a bare "Bearer <token>"
_BEARER = re.compile(r"(?i)(\bbearer\s+)([A-Za-z0-9._~+/=-]{8,})")


def redact(text: str) -> str:
    """``text`` with every API key, token or bearer credential replaced by ``***``."""
    if not text:
        return text
    out = _QUERY.sub(lambda m: m.group(1) + MASK, text)
    out = _HEADER.sub(lambda m: m.group(1) + MASK, out)
    out = _USERINFO.sub(lambda m: m.group(1) + MASK + m.group(3), out)
    return _BEARER.sub(lambda m: m.group(1) + MASK, out)


class RedactFilter(logging.Filter):
    """A logging filter that masks secrets in the formatted message of every record."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite the record's message when it holds a secret; never drops a record."""
        try:
            message = record.getMessage()
        except (TypeError, ValueError):  # a malformed record: leave it to logging
            return True
        clean = redact(message)
        if clean != message:
            record.msg, record.args = clean, None
        return True


def install_filter(target: logging.Logger | logging.Handler) -> None:
    """Add a :class:`RedactFilter` to a logger or handler unless it already has one."""
    if not any(isinstance(f, RedactFilter) for f in target.filters):
        target.addFilter(RedactFilter())

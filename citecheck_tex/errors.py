"""Exception hierarchy of citecheck-tex.

::

    CitecheckError            every error the CLI turns into a one-line message (exit 2)
     +-- UsageError           bad command line or configuration (unknown key, bad value)
     +-- InputError           an input file is missing, unreadable or unusable
     |    +-- ParseError      a file could not be parsed at all (carries file and line)
     +-- OutputError          a report file or folder cannot be written
     +-- LocalIndexError      the local index is unusable (wrong schema, corrupt)
     +-- SourceError          a source failed (carries source and URL); the pipeline
          +-- RateLimited     turns these into UNVERIFIED, never into MAJOR

Each error carries the context needed for a message that says what to do next.
"""

from __future__ import annotations


class CitecheckError(Exception):
    """Root of all citecheck-tex errors."""

    def __init__(self, message: str, *, file: str = "", line: int = 0, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.hint = hint

    def __str__(self) -> str:
        where = ""
        if self.file:
            where = f"{self.file}:{self.line}: " if self.line else f"{self.file}: "
        text = f"{where}{self.message}"
        if self.hint:
            text += f" ({self.hint})"
        return text


class UsageError(CitecheckError):
    """Bad command line or configuration."""


class InputError(CitecheckError):
    """An input file is missing, unreadable or unusable."""


class ParseError(InputError):
    """A file could not be parsed."""


class OutputError(CitecheckError):
    """A report file or the report folder cannot be written."""


class LocalIndexError(CitecheckError):
    """The local index is unusable."""


class SourceError(CitecheckError):
    """A source failed to answer. The message and URL never hold an API key (masked)."""

    def __init__(self, message: str, *, source: str = "", url: str = "", status: int = 0) -> None:
        from citecheck_tex.redact import redact

        super().__init__(redact(message))
        self.source = source
        self.url = redact(url)
        self.status = status


class RateLimited(SourceError):  # noqa: N818 - reads better at raise sites
    """A source throttled us (HTTP 429, arXiv "Rate exceeded.")."""

    def __init__(self, message: str, *, source: str = "", url: str = "", retry_after: float = 0.0) -> None:
        super().__init__(message, source=source, url=url, status=429)
        self.retry_after = retry_after

"""The source protocol and its registry.

A source answers :class:`~citecheck_tex.model.Query` objects of the kinds it
declares. Built-in sources register themselves exactly as a third-party one
would, through :func:`register`. Caching, rate limiting and retry wrap a
source and expose the same protocol.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Protocol, Sequence, runtime_checkable

from citecheck_tex.errors import UsageError
from citecheck_tex.model import Answer, Query, QueryKind

if TYPE_CHECKING:
    import httpx

    from citecheck_tex.config import Settings


@runtime_checkable
class Source(Protocol):
    """A scholarly source.

    ``name`` is the registry name; ``kinds`` the query kinds it can answer;
    ``version`` the adapter version (part of cache keys: bump it when the
    parsing of responses changes).
    """

    name: str
    kinds: frozenset[QueryKind]
    version: str

    async def fetch(self, query: Query) -> Answer:
        """Answer one query. Never raises for network faults: returns an
        Answer with status ERROR or RATE_LIMITED instead."""
        ...

    async def fetch_batch(self, queries: Sequence[Query]) -> list[Answer]:
        """Answer several queries of one kind, in order, batching requests
        where the API allows it."""
        ...


#: A factory builds a source from the shared client and the settings.
SourceFactory = Callable[["httpx.AsyncClient", "Settings"], Source]

_REGISTRY: dict[str, SourceFactory] = {}


def register(name: str) -> Callable[[SourceFactory], SourceFactory]:
    """Register a source factory under ``name``."""

    def deco(factory: SourceFactory) -> SourceFactory:
        _REGISTRY[name] = factory
        return factory

    return deco


def source_names() -> tuple[str, ...]:
    """Names of all registered sources."""
    _load_builtins()
    return tuple(sorted(_REGISTRY))


def make_source(name: str, client: httpx.AsyncClient, settings: Settings) -> Source:
    """Build a registered source, or fail with the list of valid names."""
    _load_builtins()
    try:
        factory = _REGISTRY[name]
    except KeyError:
        raise UsageError(
            f"unknown source {name!r}", hint="valid sources: " + ", ".join(sorted(_REGISTRY))
        ) from None
    return factory(client, settings)


def _load_builtins() -> None:
    # Importing the modules runs their @register decorators.
    import importlib

    for mod in ("local_index", "arxiv", "crossref", "datacite", "inspire",
                "semanticscholar", "openalex", "dblp", "ads"):
        try:
            importlib.import_module(f"citecheck_tex.sources.{mod}")
        except ModuleNotFoundError as exc:  # a source not written yet
            if exc.name != f"citecheck_tex.sources.{mod}":
                raise


async def fetch_each(source: Source, queries: Sequence[Query]) -> list[Answer]:
    """Default ``fetch_batch``: one ``fetch`` per query, in order."""
    return [await source.fetch(q) for q in queries]

"""The source protocol and its registry.

A source answers :class:`~citecheck_tex.model.Query` objects of the kinds it
declares. Built-in sources register themselves exactly as a third-party one
would, through :func:`register`. Caching, rate limiting and retry wrap a
source and expose the same protocol.
"""

from __future__ import annotations

import logging
import re
import time
import unicodedata
import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, cast, runtime_checkable

from citecheck_tex.errors import RateLimited, SourceError, UsageError
from citecheck_tex.model import Answer, Person, Query, QueryKind, Record, SourceStatus
from citecheck_tex.names import parse_display_name
from citecheck_tex.names import person_from_parts as _person_from_parts
from citecheck_tex.vocab.ids import normalize_arxiv, normalize_doi

if TYPE_CHECKING:
    from citecheck_tex.config import Settings
    from citecheck_tex.sources.http import Expect, Http

logger = logging.getLogger(__name__)


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


#: A factory builds a source from the run's shared :class:`~citecheck_tex.sources.http.Http`
#: stack (client, limits, retry) and the settings.
SourceFactory = Callable[["Http", "Settings"], Source]

_REGISTRY: dict[str, SourceFactory] = {}


def register(name: str) -> Callable[[SourceFactory], SourceFactory]:
    """Register a source factory under ``name``."""

    def deco(factory: SourceFactory) -> SourceFactory:
        _REGISTRY[name] = factory
        return factory

    return deco


def source_names() -> tuple[str, ...]:
    """Names of all registered sources and of the installed plugin sources (entry points
    of group ``citecheck_tex.sources``; listed without importing them)."""
    from citecheck_tex import plugins

    _load_builtins()
    return tuple(sorted({*_REGISTRY, *plugins.names(plugins.SOURCES)}))


def make_source(name: str, http: Http, settings: Settings) -> Source:
    """Build a registered source, or fail with the list of valid names.

    A name that is not registered is looked up among the entry points of group
    ``citecheck_tex.sources`` and its factory loaded (once). A plugin that cannot be
    loaded, or whose factory builds something that is not a :class:`Source`, is a
    :class:`~citecheck_tex.errors.UsageError` naming the plugin (the pipeline reports it
    as problem ``source-unavailable`` and runs without it).
    """
    _load_builtins()
    factory = _REGISTRY.get(name) or _plugin_factory(name)
    if name not in _PLUGINS:
        return factory(http, settings)
    try:
        source = factory(http, settings)
    except Exception as exc:  # third-party code: one message naming the plugin
        raise UsageError(f"plugin source {_PLUGINS[name]} cannot be built: "
                         f"{type(exc).__name__}: {exc}") from exc
    if not isinstance(source, Source):
        raise UsageError(
            f"plugin source {_PLUGINS[name]} built a {type(source).__name__}, which is not "
            "a source", hint="a source has name, kinds, version, async fetch(query) and "
            "async fetch_batch(queries); see docs/api.md")
    return source


#: Sources that came from entry points: name -> how messages name the plugin.
_PLUGINS: dict[str, str] = {}


def _plugin_factory(name: str) -> SourceFactory:
    from citecheck_tex import plugins

    plugin = plugins.plugins(plugins.SOURCES).get(name)
    if plugin is None:
        raise UsageError(f"unknown source {name!r}",
                         hint="valid sources: " + ", ".join(source_names()))
    factory, why = plugins.load(plugin)
    if factory is None:
        raise UsageError(f"plugin source {plugin.describe()} {why}",
                         hint="fix or uninstall the plugin, or leave it out of sources")
    # what the factory builds is checked in make_source
    _PLUGINS[name] = plugin.describe()
    _REGISTRY[name] = cast(SourceFactory, factory)
    return _REGISTRY[name]


def _load_builtins() -> None:
    # Importing the modules runs their @register decorators.
    import importlib

    for mod in ("local_index", "arxiv", "crossref", "datacite", "inspire",
                "semanticscholar", "openalex", "dblp", "ads", "websearch"):
        try:
            importlib.import_module(f"citecheck_tex.sources.{mod}")
        except ModuleNotFoundError as exc:  # a source not written yet
            if exc.name != f"citecheck_tex.sources.{mod}":
                raise


# ---------------------------------------------------------------------------
# Helpers shared by the adapters (pure functions: raw API values -> core types)

def person_from_name(name: str) -> Person:
    """Split a display name ("Peter H. N. de With", "Witten, Edward") into a Person:
    :func:`citecheck_tex.names.parse_display_name`, the project's one splitter."""
    return parse_display_name(name)


def person_from_parts(family: str, given: str = "") -> Person:
    """A Person from separate family/given fields (Crossref, DataCite):
    :func:`citecheck_tex.names.person_from_parts`."""
    return _person_from_parts(family, given)


def clean_doi(value: str) -> str:
    """Normalise a DOI: no resolver prefix, lower-case, trimmed (see :mod:`vocab.ids`)."""
    return normalize_doi(value)


def clean_arxiv(value: str) -> str:
    """Normalise an arXiv id: no ``arXiv:`` prefix, no version, no ``.pdf``."""
    return normalize_arxiv(value)


def clean_text(value: object) -> str:
    """Collapse whitespace (titles with hard line breaks) and NFC-normalise."""
    if not isinstance(value, str):
        return ""
    return unicodedata.normalize("NFC", " ".join(value.split()))


def year_of(value: object) -> str:
    """The four-digit year in a date string or int, or ""."""
    if isinstance(value, int) and 0 < value < 10000:
        return str(value)
    if isinstance(value, str):
        m = re.search(r"\b(1[5-9]\d\d|20\d\d)\b", value)
        if m:
            return m.group(1)
    return ""


def failed_answer(source: str, query: Query, exc: Exception, started: float) -> Answer:
    """Turn a network fault into an ERROR or RATE_LIMITED answer (never raise)."""
    status = SourceStatus.RATE_LIMITED if isinstance(exc, RateLimited) else SourceStatus.ERROR
    message = exc.message if isinstance(exc, SourceError) else f"{type(exc).__name__}: {exc}"
    return Answer(source, query, status, message=message, latency_ms=elapsed_ms(started))


def elapsed_ms(started: float) -> float:
    """Milliseconds since ``started`` (a ``time.perf_counter()`` value)."""
    return (time.perf_counter() - started) * 1000.0


def chunked(items: Sequence[str], size: int) -> list[list[str]]:
    """Split ``items`` into lists of at most ``size``."""
    return [list(items[i : i + size]) for i in range(0, len(items), size)]


def json_body(resp: Any, source: str) -> Any:
    """The parsed JSON body of ``resp``, or SourceError naming the source."""
    try:
        return resp.json()
    except (ValueError, RecursionError) as exc:
        raise SourceError(f"{source}: the answer is not JSON ({type(exc).__name__})", source=source,
                          url=str(getattr(resp, "url", ""))) from exc


def error_detail(resp: Any) -> str:
    """The error text an API put in a JSON error body, or "".

    Reads the shapes the sources use: JSON:API ``errors[].title`` (DataCite),
    ``error`` or ``message`` strings (Semantic Scholar, ADS, API gateways) and
    ``error.msg`` (Solr, behind ADS).
    """
    try:
        body = as_dict(resp.json())
    except (ValueError, RecursionError):
        return ""
    titles = [clean_text(as_dict(e).get("title")) for e in as_list(body.get("errors"))]
    return ("; ".join(t for t in titles if t) or clean_text(body.get("error"))
            or clean_text(body.get("message")) or clean_text(as_dict(body.get("error")).get("msg")))


# ---------------------------------------------------------------------------
# What a real answer looks like. Each adapter declares the shape of its
# endpoints' answers with these helpers; the shared HTTP layer
# (:meth:`~citecheck_tex.sources.http.Http.request`) checks every response
# against it, so an HTTP 200 carrying an error (an HTML gateway page,
# ``{"status": "error"}``, ``<error>maintenance</error>``, "Rate exceeded.") is a
# source failure (UNVERIFIED, never cached), not an empty answer (MAJOR).

_ERROR_STATUSES = frozenset({"error", "failed", "fail", "failure"})
_TITLE = re.compile(rb"<title[^>]*>(.*?)</title>", re.IGNORECASE | re.DOTALL)
ATOM_FEED = "{http://www.w3.org/2005/Atom}feed"


def _head(resp: Any, n: int = 4096) -> bytes:
    return bytes(resp.content[:n])


def _snippet(data: bytes, n: int = 80) -> str:
    text = " ".join(data[:400].decode("utf-8", "replace").split())
    text = "".join(ch if ch.isprintable() else "?" for ch in text)
    return text[:n] + ("..." if len(text) > n else "")


def is_html(resp: Any) -> bool:
    """True when the body is an HTML page (a gateway, proxy or login page)."""
    head = _head(resp, 1024).lstrip().lower()
    ctype = str(resp.headers.get("Content-Type", "")).lower()
    return head.startswith((b"<!doctype html", b"<html")) or (
        "text/html" in ctype and head.startswith(b"<"))


def describe_body(resp: Any) -> str:
    """A short account of a body that is not an answer: empty, an HTML page (its
    title), or its first characters."""
    head = _head(resp)
    if not head.strip():
        return "an empty body"
    if is_html(resp):
        m = _TITLE.search(head)
        title = _snippet(m.group(1)) if m else _snippet(re.sub(rb"<[^>]*>", b" ", head))
        return f"an HTML page ({title})" if title else "an HTML page"
    return f"'{_snippet(head)}'"


def _json_problem(resp: Any, fits: Callable[[Any], bool], what: str) -> str:
    if is_html(resp) or not _head(resp).strip():
        return describe_body(resp)
    try:
        body = resp.json()
    except (ValueError, RecursionError):  # (nested deeper than the parser goes)
        return f"not JSON: {describe_body(resp)}"
    if fits(body):
        return ""
    if isinstance(body, dict):
        status = body.get("status")
        detail = error_detail(resp)
        if (isinstance(status, str) and status.lower() in _ERROR_STATUSES) or detail \
                or "error" in body or "errors" in body:
            return "an error message (" + (detail or f"status {status!r}") + ")"
        keys = ", ".join(sorted(str(k) for k in body)[:6])
        return f"JSON without {what} (keys: {keys or 'none'})"
    return f"JSON without {what} (a {type(body).__name__})"


def expect_json(fits: Callable[[Any], bool], what: str, *,
                not_found: frozenset[int] = frozenset()) -> Expect:
    """The shape of a JSON API's answers: a 200 body must be JSON on which ``fits``
    is true (``what`` names what it holds, for messages); a status of ``not_found``
    that the adapter reads as "not found" must at least not be an HTML page."""
    from citecheck_tex.sources.http import Expect

    def problem(resp: Any) -> str:
        if resp.status_code == 200:
            return _json_problem(resp, fits, what)
        return describe_body(resp) if is_html(resp) else ""

    return Expect(problem, frozenset({200}) | not_found)


def _xml_root(data: bytes) -> str:
    """The tag of the first element of an XML document, "" when it is not XML."""
    parser: Any = ET.XMLPullParser(events=("start",))
    try:
        for i in range(0, min(len(data), 1 << 16), 4096):
            parser.feed(data[i:i + 4096])
            for event in parser.read_events():
                return str(getattr(event[1], "tag", ""))
    except ET.ParseError:
        return ""
    return ""


def expect_atom(*, throttle_text: bytes = b"") -> Expect:
    """The shape of an Atom API's answers (arXiv): the body's root is an Atom
    ``<feed>`` (200, and 400 which arXiv uses for malformed ids); a body that starts
    with ``throttle_text`` is a rate limit sent with HTTP 200."""
    from citecheck_tex.sources.http import Expect

    def problem(resp: Any) -> str:
        head = _head(resp, 1 << 16)
        root = _xml_root(head)
        if root == ATOM_FEED:
            return ""
        if root and not is_html(resp):
            return f"XML <{root.rsplit('}', 1)[-1]}> instead of an Atom feed ({_snippet(head)})"
        return describe_body(resp)

    def throttled(resp: Any) -> bool:
        return bool(throttle_text) and _head(resp, 256).strip().lower().startswith(
            throttle_text.lower())

    return Expect(problem, frozenset({200, 400}), throttled if throttle_text else None)


def has(value: Any, *path: str, kind: type = dict) -> bool:
    """True when ``value[path[0]][path[1]]...`` exists and is a ``kind`` (JSON shapes)."""
    for key in path:
        if not isinstance(value, dict) or key not in value:
            return False
        value = value[key]
    return isinstance(value, kind)


def as_dict(value: Any) -> dict[str, Any]:
    """``value`` when it is a JSON object, else an empty dict (APIs change shape)."""
    return value if isinstance(value, dict) else {}


def as_list(value: Any) -> list[Any]:
    """``value`` when it is a JSON array, else an empty list."""
    return value if isinstance(value, list) else []


def parse_each(parse: Callable[[dict[str, Any]], Record], items: Any, source: str) -> list[Record]:
    """Parse every JSON object of ``items``; an item of an unexpected shape is skipped."""
    out = []
    for item in as_list(items):
        if not isinstance(item, dict):
            continue
        try:
            out.append(parse(item))
        except (ValueError, TypeError, AttributeError, KeyError) as exc:
            logger.debug("%s: skipped an item of unexpected shape (%s)", source, exc)
    return out

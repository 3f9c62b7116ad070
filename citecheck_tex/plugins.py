"""Third-party sources and reporters, found through entry points (``docs/api.md``).

A distribution adds a source under the group ``citecheck_tex.sources`` and a report
format under ``citecheck_tex.reporters``; the entry point's name is the registry name
(what ``sources = [...]`` or ``--format`` says), its object the factory::

    [project.entry-points."citecheck_tex.sources"]
    groupdb = "groupdb.source:GroupSource"        # GroupSource(http, settings) -> Source
    [project.entry-points."citecheck_tex.reporters"]
    csv = "groupdb.report:CsvReporter"             # CsvReporter() -> Reporter

Listing the names imports nothing (:func:`names`); a plugin's code is imported only
when the run uses it (:func:`load`), so an installed but unused plugin costs nothing
and a broken one troubles only the runs that ask for it. A built-in name always wins
over a plugin of the same name. This module sits below every stage (it imports only
the standard library): the configuration validates names with it, the two registries
(:mod:`citecheck_tex.sources.base`, :mod:`citecheck_tex.report.base`) load through it.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Entry-point group of third-party sources: ``name = "module:factory"``, the factory
#: called as ``factory(http, settings)`` and returning a
#: :class:`~citecheck_tex.sources.base.Source`.
SOURCES = "citecheck_tex.sources"
#: Entry-point group of third-party report formats: ``name = "module:factory"``, the
#: factory called without arguments and returning a
#: :class:`~citecheck_tex.report.base.Reporter`.
REPORTERS = "citecheck_tex.reporters"


@dataclass(frozen=True, slots=True)
class Plugin:
    """One entry point: its ``name`` in the group, ``value`` (``module:attr``) and the
    distribution that declares it (``name version``)."""

    group: str
    name: str
    value: str
    dist: str

    def describe(self) -> str:
        """How messages name the plugin: ``'groupdb' (groupdb.source:GroupSource from
        groupdb-tools 1.0)``."""
        origin = f" from {self.dist}" if self.dist else ""
        return f"{self.name!r} ({self.value}{origin})"


def plugins(group: str) -> dict[str, Plugin]:
    """The entry points of ``group`` by name (the first of a name wins); nothing is imported."""
    from importlib import metadata  # only when a name is not built in: it costs ~20 ms

    found: dict[str, Plugin] = {}
    for ep in metadata.entry_points(group=group):
        if ep.name in found:
            continue
        dist = ep.dist
        label = f"{dist.metadata['Name']} {dist.version}" if dist is not None else ""
        found[ep.name] = Plugin(group, ep.name, ep.value, label)
    return found


def names(group: str) -> tuple[str, ...]:
    """The plugin names of ``group``, sorted (nothing is imported)."""
    return tuple(sorted(plugins(group)))


def load(plugin: Plugin) -> tuple[object | None, str]:
    """Import a plugin's factory: ``(factory, "")``, or ``(None, why)`` when its code cannot
    be imported or what it names is not callable. Never raises for the plugin's faults."""
    from importlib import metadata

    for ep in metadata.entry_points(group=plugin.group, name=plugin.name):
        if ep.value != plugin.value:
            continue
        try:
            obj = ep.load()
        except Exception as exc:  # any fault of third-party code: a message, no traceback
            return None, f"cannot be loaded: {type(exc).__name__}: {exc}"
        if not callable(obj):
            return None, (f"is not callable ({type(obj).__name__} {obj!r:.40}): it must name a "
                          "factory, a class or function that builds the plugin")
        return obj, ""
    return None, "is no longer installed"

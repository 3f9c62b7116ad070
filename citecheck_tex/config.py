"""Settings: defaults < pyproject/citecheck.toml < CITECHECK_* environment < command line.

One frozen :class:`Settings` is built by :func:`load_settings` and passed down.
Unknown keys are errors that name the closest valid key.
"""

from __future__ import annotations

import difflib
import math
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from citecheck_tex import plugins
from citecheck_tex.errors import UsageError

DEFAULT_BASE_URLS: Mapping[str, str] = {
    "arxiv": "https://export.arxiv.org/api",
    "crossref": "https://api.crossref.org",
    "datacite": "https://api.datacite.org",
    "inspire": "https://inspirehep.net/api",
    "semanticscholar": "https://api.semanticscholar.org/graph/v1",
    "openalex": "https://api.openalex.org",
    "dblp": "https://dblp.org",
    "ads": "https://api.adsabs.harvard.edu/v1",
}

#: Sources used when online, in no particular order (the order of asking is
#: data in :mod:`citecheck_tex.sources.plan`).
DEFAULT_SOURCES: tuple[str, ...] = (
    "local",
    "arxiv",
    "crossref",
    "datacite",
    "inspire",
    "semanticscholar",
    "openalex",
    "dblp",
)

#: ``--fail-on`` levels, from the most lenient to the strictest: ``never``; ``error``
#: (broken input only: undefined keys, unreadable, empty or missing .bib); ``major``
#: (the default: errors and MAJOR); ``minor``; ``unverified``; ``warning`` (also every
#: warning-level problem: unused entries, missing fields, ...). Broken input fails at
#: every level but ``never``: a ``?`` in the PDF is worse than any wrong reference.
#: Every built-in source: the default ones, NASA ADS (needs a token) and the LLM web
#: search (needs a model). Installed plugin sources (entry points of group
#: ``citecheck_tex.sources``, :mod:`citecheck_tex.plugins`) are valid names too; they are
#: used only when ``sources`` names them.
BUILTIN_SOURCES: tuple[str, ...] = (*DEFAULT_SOURCES, "ads", "websearch")

FAIL_ON_CHOICES = ("never", "error", "major", "minor", "unverified", "warning")
FORMAT_CHOICES = ("terminal", "json", "html", "bib", "sarif", "github")


def calibrated_thresholds() -> tuple[float, float]:
    """(tau_minor, tau_exact) from ``citecheck_tex/data/thresholds.json``, as calibrated on
    the development split (``bench/accuracy``): the defaults of :class:`Settings`, the one
    place they are read."""
    import importlib.resources
    import json

    try:
        text = importlib.resources.files("citecheck_tex.data").joinpath("thresholds.json").read_text(
            encoding="utf-8"
        )
        data = json.loads(text)
        return float(data["tau_minor"]), float(data["tau_exact"])
    except (OSError, ValueError, KeyError, TypeError):  # pragma: no cover - shipped with the package
        return 6.1, 9.0


TAU_MINOR, TAU_EXACT = calibrated_thresholds()


def _default_data_dir() -> Path:
    try:
        import platformdirs

        return Path(platformdirs.user_data_dir("citecheck-tex", appauthor=False))
    except ImportError:  # pragma: no cover - platformdirs is a dependency
        return Path.home() / ".local" / "share" / "citecheck-tex"


def _default_cache_dir() -> Path:
    try:
        import platformdirs

        return Path(platformdirs.user_cache_dir("citecheck-tex", appauthor=False))
    except ImportError:  # pragma: no cover
        return Path.home() / ".cache" / "citecheck-tex"


@dataclass(frozen=True, slots=True)
class Settings:
    """Every knob of a run. Built once, never mutated."""

    offline: bool = False
    index_path: str = ""  # empty: user data dir / index.sqlite
    # True: the local index holds every work the paper may cite, so "not in the index"
    # is evidence of fabrication (MAJOR); False: with only the index consulted it is
    # UNVERIFIED (the work may simply be missing from the index).
    index_complete: bool = False
    # empty: user cache dir / cache.sqlite; "none" disables; a path: that SQLite file;
    # redis://[[user]:password@]host:port/db: a Redis server shared by many processes
    cache_path: str = ""
    out_dir: str = ""  # empty: citecheck-report/ beside the input
    # the folder the paper's files may come from; empty: the main file's folder. A file
    # read from outside it is reported (outside-project) and its entries are not checked
    project_root: str = ""
    formats: tuple[str, ...] = ("terminal", "json", "html", "bib")
    fail_on: str = "major"
    mailto: str = ""
    sources: tuple[str, ...] = DEFAULT_SOURCES
    base_urls: Mapping[str, str] = field(default_factory=lambda: dict(DEFAULT_BASE_URLS))
    # requests per second per source, overriding the published defaults
    # (citecheck_tex.sources.http.DEFAULT_LIMITS; docs/sources.md): an API key or a
    # private mirror may allow more. Empty: the published limits.
    rate_limits: Mapping[str, float] = field(default_factory=dict)
    semanticscholar_api_key_env: str = "S2_API_KEY"
    openalex_api_key_env: str = "OPENALEX_API_KEY"
    ads_token_env: str = "ADS_API_TOKEN"
    tau_minor: float = TAU_MINOR  # score >= tau_minor: the work exists (MINOR or EXACT)
    tau_exact: float = TAU_EXACT  # score >= tau_exact: EXACT
    ignore: tuple[str, ...] = ()
    # apply the input's own .citecheck-ignore (batch: off unless --honour-paper-ignores,
    # a submitter's ignore file must not hide references from a journal's check)
    ignore_file: bool = True
    refresh: bool = False
    # Network limits (docs/sources.md "Faults and time limits"). timeout_s bounds one
    # HTTP attempt in total (connect + headers + body), so a server that drips its
    # answer cannot hold a request.
    timeout_s: float = 20.0
    max_retries: int = 3
    # The whole run's retrieval must end within deadline_s + deadline_per_reference_s
    # per reference checked (120 + 3 x 40 = 240 s for 40 references); what is unsettled
    # then is UNVERIFIED and a partial report is written. 0 disables the deadline.
    deadline_s: float = 120.0
    deadline_per_reference_s: float = 3.0
    # A Retry-After up to this is waited for; a longer one gives the source up for the run.
    max_retry_after_s: float = 60.0
    # A source whose last N attempts all failed or were throttled is not asked again
    # in this run (0: never give up).
    give_up_after: int = 6
    # Answers larger than this are refused without being held in memory.
    max_response_bytes: int = 20_000_000
    quiet: bool = False
    verbose: bool = False
    emit_fixed: bool = False
    # SARIF and GitHub annotation paths are relative to this folder; empty: found
    # ($GITHUB_WORKSPACE, else the git repository root, else the paper's folder)
    path_root: str = ""
    # optional LLM (openai SDK, any OpenAI-compatible server)
    llm_base_url: str = ""
    llm_model: str = ""
    llm_api_key_env: str = "OPENAI_API_KEY"
    llm_mode: str = "off"  # off | judge | fallback | review
    # optional LLM web-search fallback source (docs/llm.md); adds "websearch" to sources
    web_search: bool = False
    web_search_tool: str = "none"  # none (model knowledge) | chat (web_search_options) | responses

    def resolved_project_root(self) -> Path | None:
        """The project folder set by ``project_root`` (None: the main file's folder)."""
        return Path(self.project_root).expanduser() if self.project_root else None

    def resolved_index_path(self) -> Path:
        """Where the local index lives."""
        if self.index_path:
            return Path(self.index_path).expanduser()
        return _default_data_dir() / "index.sqlite"

    def resolved_cache_path(self) -> Path | None:
        """The file of the answer cache; None when disabled or on a Redis server (``redis://``,
        see :func:`citecheck_tex.cache.open_cache`)."""
        if self.cache_path.lower() == "none" or self.cache_path.strip().lower().startswith(
                ("redis://", "rediss://")):
            return None
        if self.cache_path:
            return Path(self.cache_path).expanduser()
        return _default_cache_dir() / "cache.sqlite"

    def run_deadline(self, references: int) -> float | None:
        """Seconds the retrieval of ``references`` references may take; None: no deadline."""
        if self.deadline_s <= 0:
            return None
        return self.deadline_s + max(0.0, self.deadline_per_reference_s) * max(0, references)

    def base_url(self, source: str) -> str:
        """The base URL of ``source`` without a trailing slash."""
        return self.base_urls.get(source, DEFAULT_BASE_URLS.get(source, "")).rstrip("/")

    def api_key(self, env_name: str) -> str:
        """Read an API key from the environment variable named in settings."""
        return os.environ.get(env_name, "") if env_name else ""

    def user_agent(self) -> str:
        """Polite User-Agent with the mailto when configured."""
        from citecheck_tex.version import __version__

        contact = f"; mailto:{self.mailto}" if self.mailto else ""
        return f"citecheck-tex/{__version__} (https://pypi.org/project/citecheck-tex{contact})"


def _field_names() -> list[str]:
    return [f.name for f in fields(Settings)]


def _coerce(name: str, value: Any) -> Any:
    """Turn a TOML/env/CLI value into the field's type, or raise UsageError."""
    default = getattr(Settings(), name)
    try:
        if isinstance(default, bool):
            if isinstance(value, bool):
                return value
            text = str(value).strip().lower()
            if text in ("1", "true", "yes", "on"):
                return True
            if text in ("0", "false", "no", "off", ""):
                return False
            raise ValueError(value)
        if isinstance(default, float):
            number = float(value)
            if not math.isfinite(number):  # nan and inf: no time limit or size means that
                raise ValueError(value)
            return number
        if isinstance(default, int):
            if isinstance(value, float) and not value.is_integer():
                raise ValueError(value)  # 1.5 retries is not 1
            return int(value)
        if isinstance(default, tuple):
            if isinstance(value, str):
                return tuple(v.strip() for v in value.split(",") if v.strip())
            if isinstance(value, Mapping) or not isinstance(value, (list, tuple)):
                raise TypeError(value)
            return tuple(str(v) for v in value)
        if name == "rate_limits":
            return _rate_limits(value)
        if name == "base_urls":
            if not isinstance(value, Mapping):
                raise ValueError(value)
            merged = dict(DEFAULT_BASE_URLS)
            for k, v in value.items():
                if k not in DEFAULT_BASE_URLS and k not in plugins.names(plugins.SOURCES):
                    raise UsageError(
                        f"unknown source {k!r} in base_urls",
                        hint="valid sources: " + ", ".join(
                            (*DEFAULT_BASE_URLS, *plugins.names(plugins.SOURCES))),
                    )
                merged[k] = str(v)
            return merged
        if isinstance(value, (list, tuple, Mapping)):  # mailto = ["a", "b"]
            raise TypeError(value)
        return str(value)
    except (TypeError, ValueError, OverflowError) as exc:
        raise UsageError(f"setting {name!r} has an invalid value {value!r}") from exc


def _rate_limits(value: Any) -> dict[str, float]:
    """``{source: requests per second}`` from a TOML table or ``"s2=10,dblp=2"``."""
    if isinstance(value, str):
        pairs = [p.partition("=") for p in value.split(",") if p.strip()]
        if any(not sep for _, sep, _ in pairs):
            raise ValueError(value)
        value = {k.strip(): v.strip() for k, _, v in pairs}
    if not isinstance(value, Mapping):
        raise ValueError(value)
    out: dict[str, float] = {}
    for k, v in value.items():
        if k not in DEFAULT_BASE_URLS:
            raise UsageError(f"unknown source {k!r} in rate_limits",
                             hint="valid sources: " + ", ".join(DEFAULT_BASE_URLS))
        rate = float(v)
        if not rate > 0:
            raise UsageError(f"rate_limits.{k} must be a positive number of requests per "
                             f"second, not {v!r}")
        out[str(k)] = rate
    return out


#: Short names accepted in the environment and config files.
_ALIASES = {"index": "index_path", "cache": "cache_path", "out": "out_dir"}


def setting_keys() -> list[str]:
    """Every configuration key, sorted: the :class:`Settings` fields and the short names
    ``index``, ``cache`` and ``out``."""
    return sorted({*_field_names(), *_ALIASES})


def _check_key(name: str, origin: str) -> str:
    key = name.replace("-", "_").lower()
    key = _ALIASES.get(key, key)
    valid = _field_names()
    if key not in valid:
        close = difflib.get_close_matches(key, valid, n=1)
        hint = f"did you mean {close[0]!r}?" if close else "valid keys: " + ", ".join(valid)
        raise UsageError(f"unknown setting {name!r} in {origin}", hint=hint)
    return key


def _validate(s: Settings) -> Settings:
    if s.fail_on not in FAIL_ON_CHOICES:
        raise UsageError(f"--fail-on must be one of {', '.join(FAIL_ON_CHOICES)}, not {s.fail_on!r}")
    if not s.formats:
        raise UsageError("--format names no format",
                         hint="valid formats: " + ", ".join(FORMAT_CHOICES))
    bad = [f for f in s.formats if f not in FORMAT_CHOICES]
    if bad and set(bad) - set(plugins.names(plugins.REPORTERS)):
        valid = (*FORMAT_CHOICES, *plugins.names(plugins.REPORTERS))
        raise UsageError(
            f"unknown format {next(f for f in bad if f not in valid)!r}",
            hint="valid formats: " + ", ".join(valid),
        )
    unknown = [src for src in s.sources if src not in BUILTIN_SOURCES]
    if unknown and set(unknown) - set(plugins.names(plugins.SOURCES)):
        valid = (*BUILTIN_SOURCES, *plugins.names(plugins.SOURCES))
        raise UsageError(
            f"unknown source {next(u for u in unknown if u not in valid)!r}",
            hint="valid sources: " + ", ".join(valid),
        )
    if s.web_search and "websearch" not in s.sources:
        s = replace(s, sources=(*s.sources, "websearch"))
    if "websearch" in s.sources:
        check_web_search(s)
    if not 0 <= s.tau_minor <= s.tau_exact <= 10:
        raise UsageError("thresholds must satisfy 0 <= tau_minor <= tau_exact <= 10")
    if s.timeout_s <= 0 or s.max_retries < 0 or s.max_retry_after_s < 0 \
            or s.max_response_bytes <= 0 or s.give_up_after < 0 or s.deadline_per_reference_s < 0:
        raise UsageError("network limits must be positive: timeout_s > 0, max_retries >= 0, "
                         "max_retry_after_s >= 0, max_response_bytes > 0, give_up_after >= 0, "
                         "deadline_per_reference_s >= 0")
    if s.llm_mode not in ("off", "judge", "fallback", "review"):
        raise UsageError("llm_mode must be one of off, judge, fallback, review")
    return s


WEB_SEARCH_TOOLS = ("none", "chat", "responses")


def check_web_search(s: Settings) -> None:
    """Fail with a message naming the missing setting when the websearch source cannot run.

    It needs ``llm_model`` and a server: ``llm_base_url``, or an OpenAI key in
    the environment variable named by ``llm_api_key_env`` (api.openai.com).
    """
    if s.web_search_tool not in WEB_SEARCH_TOOLS:
        raise UsageError(f"web_search_tool must be one of {', '.join(WEB_SEARCH_TOOLS)}, "
                         f"not {s.web_search_tool!r}")
    import importlib.util

    if importlib.util.find_spec("openai") is None:
        raise UsageError("the websearch source needs the openai package",
                         hint="pip install 'citecheck-tex[llm]'")
    if not s.llm_model:
        raise UsageError("the websearch source needs llm_model",
                         hint="pass --llm-model NAME or set CITECHECK_LLM_MODEL")
    if not s.llm_base_url and not s.api_key(s.llm_api_key_env):
        raise UsageError(
            "the websearch source needs llm_base_url (an OpenAI-compatible server) or an "
            f"OpenAI key in ${s.llm_api_key_env or 'OPENAI_API_KEY'}",
            hint="pass --llm-base-url http://localhost:11434/v1 or set "
            f"{s.llm_api_key_env or 'llm_api_key_env'}")


def read_config_file(start: Path) -> tuple[dict[str, Any], str]:
    """Find ``citecheck.toml`` or ``pyproject.toml [tool.citecheck-tex]`` at or above ``start``."""
    folder = start if start.is_dir() else start.parent
    for d in (folder.resolve(), *folder.resolve().parents):
        cfg = d / "citecheck.toml"
        if cfg.is_file():
            return _load_toml(cfg), str(cfg)
        pyproject = d / "pyproject.toml"
        if pyproject.is_file():
            data = _load_toml(pyproject)
            section = data.get("tool", {}).get("citecheck-tex")
            if isinstance(section, dict):
                return section, f"{pyproject} [tool.citecheck-tex]"
    return {}, ""


def _load_toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise UsageError(f"cannot read configuration: {exc}", file=str(path)) from exc


#: Settings that name a file or folder: relative in a configuration file, they are
#: relative to that file's folder (a run from another folder, a CI job at the
#: repository root, reads the same files).
_PATH_KEYS = frozenset({"index_path", "cache_path", "out_dir", "project_root", "path_root"})


def config_file(origin: str) -> Path:
    """The file of a configuration origin as :func:`read_config_file` names it
    ("…/citecheck.toml" or "…/pyproject.toml [tool.citecheck-tex]")."""
    return Path(origin.split(" [tool.", 1)[0])


def _from_config_folder(value: Any, origin: str) -> Any:
    """``value`` of a path setting read from the configuration file ``origin``."""
    if not isinstance(value, str) or not value or value == "none" or "://" in value:
        return value
    path = Path(value).expanduser()
    if path.is_absolute():
        return value
    return str(config_file(origin).parent / path)


def load_settings(
    start: Path | None = None,
    overrides: Mapping[str, Any] | None = None,
    environ: Mapping[str, str] | None = None,
) -> Settings:
    """Build the run's settings from every layer, validating each key."""
    values: dict[str, Any] = {}
    if start is not None:
        data, origin = read_config_file(start)
        for k, v in data.items():
            key = _check_key(k, origin)
            values[key] = _coerce(key, v)
            if key in _PATH_KEYS and origin:
                values[key] = _from_config_folder(values[key], origin)
    env = os.environ if environ is None else environ
    for k, v in env.items():
        if not k.startswith("CITECHECK_"):
            continue
        key = _check_key(k[len("CITECHECK_"):], f"environment variable {k}")
        values[key] = _coerce(key, v)
    for k, v in (overrides or {}).items():
        if v is None:
            continue
        key = _check_key(k, "command line")
        values[key] = _coerce(key, v)
    return _validate(replace(Settings(), **values))

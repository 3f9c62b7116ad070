"""Settings layering and validation."""

from __future__ import annotations

from pathlib import Path

import pytest

from citecheck_tex.config import Settings, calibrated_thresholds, load_settings
from citecheck_tex.errors import UsageError


def test_defaults_without_any_file(tmp_path: Path) -> None:
    s = load_settings(tmp_path, environ={})
    assert s == Settings()
    assert s.fail_on == "major"


def test_layers_override_in_order(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.citecheck-tex]\nmailto = "a@b.org"\nfail-on = "minor"\ntau_exact = 9.0\n'
    )
    s = load_settings(tmp_path, environ={"CITECHECK_FAIL_ON": "unverified"})
    assert s.mailto == "a@b.org"  # from pyproject
    assert s.fail_on == "unverified"  # env beats file
    assert s.tau_exact == 9.0
    s2 = load_settings(tmp_path, {"fail_on": "never"}, environ={"CITECHECK_FAIL_ON": "unverified"})
    assert s2.fail_on == "never"  # command line beats env


def test_citecheck_toml_beats_pyproject_in_same_folder(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.citecheck-tex]\nmailto = "p@x.org"\n')
    (tmp_path / "citecheck.toml").write_text('mailto = "c@x.org"\nsources = ["local", "arxiv"]\n')
    s = load_settings(tmp_path / "paper.tex", environ={})
    assert s.mailto == "c@x.org"
    assert s.sources == ("local", "arxiv")


def test_unknown_key_suggests_closest(tmp_path: Path) -> None:
    (tmp_path / "citecheck.toml").write_text('mailtoo = "x@y.org"\n')
    with pytest.raises(UsageError) as exc:
        load_settings(tmp_path, environ={})
    assert "mailto" in str(exc.value)
    assert "citecheck.toml" in str(exc.value)


def test_env_index_alias_and_bool(tmp_path: Path) -> None:
    s = load_settings(tmp_path, environ={"CITECHECK_INDEX": "/x/i.sqlite", "CITECHECK_OFFLINE": "yes"})
    assert s.resolved_index_path() == Path("/x/i.sqlite")
    assert s.offline is True


@pytest.mark.parametrize(
    ("overrides", "needle"),
    [
        ({"fail_on": "sometimes"}, "--fail-on"),
        ({"formats": "json,pdf"}, "pdf"),
        ({"sources": "local,google"}, "google"),
        ({"tau_minor": 9.9, "tau_exact": 5.0}, "tau_minor"),
        ({"timeout_s": "soon"}, "timeout_s"),
        ({"formats": ""}, "--format names no format"),  # had run silently, exit 1
        # values that slipped through (2026-12-02): nan made every reference UNVERIFIED,
        # inf an internal OverflowError, a list a string "['a', 'b']", 1.5 retries 1
        ({"deadline_s": float("nan")}, "deadline_s"),
        ({"give_up_after": float("inf")}, "give_up_after"),
        ({"give_up_after": "1e400"}, "give_up_after"),
        ({"mailto": ["a@b.org", "c@d.org"]}, "mailto"),
        ({"max_retries": 1.5}, "max_retries"),
        ({"sources": {"local": 1}}, "sources"),
        ({"formats": ","}, "--format names no format"),
    ],
)
def test_invalid_values_are_usage_errors(tmp_path: Path, overrides: dict[str, object], needle: str) -> None:
    with pytest.raises(UsageError) as exc:
        load_settings(tmp_path, overrides, environ={})
    assert needle in str(exc.value)


def test_unknown_base_url_source(tmp_path: Path) -> None:
    (tmp_path / "citecheck.toml").write_text('[base_urls]\ncrosref = "http://127.0.0.1:1"\n')
    with pytest.raises(UsageError) as exc:
        load_settings(tmp_path, environ={})
    assert "crossref" in str(exc.value)


def test_user_agent_carries_mailto() -> None:
    s = Settings(mailto="me@lab.org")
    assert "mailto:me@lab.org" in s.user_agent()
    assert s.base_url("arxiv").startswith("https://export.arxiv.org")


def test_default_thresholds_are_the_calibrated_ones() -> None:
    import json

    path = Path(__file__).resolve().parent.parent / "citecheck_tex" / "data" / "thresholds.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    s = Settings()
    assert (s.tau_minor, s.tau_exact) == (data["tau_minor"], data["tau_exact"])
    assert calibrated_thresholds() == (data["tau_minor"], data["tau_exact"])  # the one loader
    assert data["split"] == "dev"


def test_relative_paths_in_a_config_file_are_relative_to_its_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a CI job run from the repository root read `index = "idx.sqlite"` of the paper's
    # citecheck.toml from its own folder (an empty index: every reference UNVERIFIED)
    paper = tmp_path / "paper"
    paper.mkdir()
    (paper / "citecheck.toml").write_text(
        'index = "idx.sqlite"\nout = "reports"\nproject_root = ".."\ncache = "none"\n'
        'path_root = "~/x"\n')
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    s = load_settings(paper / "paper.tex", {"out_dir": "cli-out"}, environ={})
    assert s.resolved_index_path() == paper / "idx.sqlite"
    assert s.resolved_project_root() == paper / ".."
    assert s.cache_path == "none" and s.path_root == "~/x"  # words and home stay
    assert s.out_dir == "cli-out"  # the command line's own paths: from where it runs
    s = load_settings(paper / "paper.tex", environ={"CITECHECK_INDEX": "env.sqlite"})
    assert s.index_path == "env.sqlite" and Path(s.out_dir) == paper / "reports"

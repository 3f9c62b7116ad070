"""The reporter registry: built-ins register like third parties, unknown names list the valid ones."""

from __future__ import annotations

import pytest

from citecheck_tex.config import FORMAT_CHOICES, Settings
from citecheck_tex.errors import UsageError
from citecheck_tex.report.base import (
    Reporter,
    make_reporter,
    register_reporter,
    reporter_names,
)
from tests.report.factories import run_result


def test_every_cli_format_has_a_reporter() -> None:
    assert set(FORMAT_CHOICES) <= set(reporter_names())


def test_unknown_name_lists_the_valid_names() -> None:
    with pytest.raises(UsageError) as info:
        make_reporter("pdf")
    text = str(info.value)
    assert "'pdf'" in text
    for name in ("html", "json", "sarif", "github", "terminal", "bib"):
        assert name in text


@pytest.mark.parametrize("name", ["terminal", "json", "html", "sarif", "github"])
def test_builtin_reporters_render_text(name: str) -> None:
    reporter = make_reporter(name)
    assert isinstance(reporter, Reporter)
    assert reporter.name == name
    out = reporter.render(run_result(), Settings())
    assert isinstance(out, str) and "Smith:2021qgj" in out


def test_third_party_reporter_registers_the_same_way() -> None:
    @register_reporter("count-test")
    class CountReporter:
        name = "count-test"

        def render(self, result, settings):  # type: ignore[no-untyped-def]
            return str(len(result.verdicts))

    assert "count-test" in reporter_names()
    assert make_reporter("count-test").render(run_result(), Settings()) == "6"

"""Shell completion and the man page, generated from the parsers (issue 14, item 9)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from citecheck_tex.cli import main
from citecheck_tex.commands.manual import render_completion, render_manpage

ROOT = Path(__file__).resolve().parent.parent


def _complete(words: list[str], tmp_path: Path) -> list[str]:
    """What bash offers for the last word of ``citecheck-tex WORDS``."""
    if shutil.which("bash") is None:
        pytest.skip("bash is not installed")
    script = tmp_path / "complete.bash"
    script.write_text(render_completion("bash"), encoding="utf-8")
    line = " ".join(f"'{w}'" for w in ["citecheck-tex", *words])
    proc = subprocess.run(
        ["bash", "-c", f"source {script}; COMP_WORDS=({line}); COMP_CWORD={len(words)}; "
                       "_citecheck_tex; printf '%s\\n' \"${COMPREPLY[@]}\""],
        capture_output=True, text=True, check=True, cwd=tmp_path)
    return [w for w in proc.stdout.splitlines() if w]


def test_bash_completion_offers_subcommands_options_and_choices(tmp_path: Path) -> None:
    (tmp_path / "paper.tex").write_text("x", encoding="utf-8")
    first = _complete([""], tmp_path)
    assert {"index", "watch", "gate", "latexmk-rc", "ignore", "completion", "man",
            "paper.tex"} <= set(first)
    assert _complete(["--fail-on", "w"], tmp_path) == ["warning"]
    assert "--path-root" in _complete(["paper.tex", "--pa"], tmp_path)
    assert _complete(["index", ""], tmp_path) == ["add", "stats"]
    assert "--debounce" in _complete(["watch", "--deb"], tmp_path)
    assert _complete(["--index", "pap"], tmp_path) == ["paper.tex"]
    assert _complete(["completion", ""], tmp_path) == ["bash", "zsh"]


def test_zsh_script_loads_bashcompinit(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["completion", "zsh"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("autoload -U +X bashcompinit && bashcompinit")
    assert "complete -o filenames -F _citecheck_tex citecheck-tex" in out
    assert main(["completion", "fish"]) == 2


def test_man_page_is_generated_from_the_parsers_and_shipped_fresh() -> None:
    page = render_manpage()
    for option in ("\\-\\-fail\\-on", "\\-\\-path\\-root", "\\-\\-debounce", "\\-\\-no\\-verify",
                   "\\-\\-reason", "\\-\\-command"):
        assert option in page, option
    shipped = (ROOT / "docs" / "citecheck-tex.1").read_text(encoding="utf-8")
    assert shipped == page, "regenerate: citecheck-tex man > docs/citecheck-tex.1"


@pytest.mark.skipif(shutil.which("groff") is None, reason="groff is not installed")
def test_man_page_renders_without_warnings() -> None:
    proc = subprocess.run(["groff", "-man", "-Tutf8", "-ww", "-z"], input=render_manpage(),
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    text = subprocess.run(["groff", "-man", "-Tascii", "-P-cbou"], input=render_manpage(),
                          capture_output=True, text=True, check=True).stdout
    text = " ".join(text.split())
    assert "EXIT STATUS" in text and "citecheck-tex - check the references" in text


def test_man_refuses_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    from citecheck_tex.cli import main

    assert main(["man", "--bogus"]) == 2  # it printed the page and exited 0
    assert "man takes no arguments" in capsys.readouterr().err

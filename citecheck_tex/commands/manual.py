"""Shell completion and the man page, both generated from the argument parsers.

``citecheck-tex completion bash|zsh`` prints a completion script and ``citecheck-tex
man`` prints ``citecheck-tex(1)`` in roff: nothing is written by hand, so neither can
drift from the options the program accepts (a test compares ``docs/citecheck-tex.1``
with :func:`render_manpage`).
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Sequence

from citecheck_tex.errors import UsageError
from citecheck_tex.version import __version__

#: Value metavars that name files or folders (completed as paths).
_PATHS = {"PATH", "DIR", "FILE", "INPUT", "ADDR_FILE"}
SHELLS = ("bash", "zsh")


def parsers() -> list[tuple[str, argparse.ArgumentParser]]:
    """(subcommand, parser) for every command; '' is the check itself."""
    from citecheck_tex.commands import batch, check, gate, ignore, index, latexmk, watch

    return [("", check.parser()), ("index", index.parser()),
            ("watch", watch.parser()), ("gate", gate.parser()),
            ("latexmk-rc", latexmk.parser()), ("ignore", ignore.parser()),
            ("batch", batch.parser())]


def _options(p: argparse.ArgumentParser) -> list[argparse.Action]:
    return [a for a in p._actions if a.option_strings]  # noqa: SLF001 - argparse has no API


def _subparsers(p: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for a in p._actions:  # noqa: SLF001
        if isinstance(a, argparse._SubParsersAction):  # noqa: SLF001
            return dict(a.choices)
    return {}


# --------------------------------------------------------------------------- completion


def _words(values: Sequence[str]) -> str:
    return " ".join(sorted(dict.fromkeys(values)))


def render_completion(shell: str) -> str:
    """A completion script for ``shell`` (bash, or zsh through bashcompinit)."""
    if shell not in SHELLS:
        raise UsageError(f"no completion for {shell!r}", hint="choose one of " + ", ".join(SHELLS))
    commands = [name for name, _ in parsers() if name] + ["completion", "man"]
    cases: list[str] = []
    value_cases: dict[str, str] = {}
    for name, p in parsers():  # the check's own options ("*") come last in the case
        opts: list[str] = []
        for sub in [p, *_subparsers(p).values()]:
            for a in _options(sub):
                opts.extend(a.option_strings)
                if a.nargs == 0:
                    continue
                for flag in a.option_strings:
                    if a.choices:
                        value_cases[flag] = f'COMPREPLY=($(compgen -W "{_words(list(map(str, a.choices)))}" -- "$cur"))'
                    elif (a.metavar or "") in _PATHS or a.dest.endswith(("path", "dir", "index")):
                        value_cases[flag] = 'COMPREPLY=($(compgen -f -- "$cur"))'
                    else:
                        value_cases.setdefault(flag, "COMPREPLY=()")
        subs = _words(list(_subparsers(p)))
        cases.append(f'    {name or "*"}) opts="{_words(opts)}"; subs="{subs}" ;;')
    values = "\n".join(f"    {flag}) {cmd}; return ;;" for flag, cmd in sorted(value_cases.items()))
    script = f"""# citecheck-tex {__version__} {shell} completion (generated: citecheck-tex completion {shell})
_citecheck_tex() {{
  local cur prev opts sub subs
  cur="${{COMP_WORDS[COMP_CWORD]}}"
  prev="${{COMP_WORDS[COMP_CWORD-1]}}"
  sub="${{COMP_WORDS[1]}}"
  case "$sub" in
    completion) COMPREPLY=($(compgen -W "{_words(SHELLS)}" -- "$cur")); return ;;
    man) COMPREPLY=(); return ;;
  esac
  case "$prev" in
{values}
  esac
  case "$sub" in
{chr(10).join(cases[1:] + cases[:1])}
  esac
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
  elif [[ $COMP_CWORD -eq 2 && -n "$subs" ]]; then
    COMPREPLY=($(compgen -W "$subs" -- "$cur"))
  elif [[ $COMP_CWORD -eq 1 ]]; then
    COMPREPLY=($(compgen -W "{_words(commands)}" -- "$cur") $(compgen -f -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}}
complete -o filenames -F _citecheck_tex citecheck-tex
"""
    if shell == "zsh":
        script = "autoload -U +X bashcompinit && bashcompinit\n" + script
    return script


# --------------------------------------------------------------------------- man page


def _roff(text: str) -> str:
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return "\n".join(("\\&" + ln) if ln.startswith((".", "'")) else ln
                     for ln in text.split("\n"))


def _usage(p: argparse.ArgumentParser) -> str:
    usage = p.format_usage().removeprefix("usage: ").strip()
    return " ".join(usage.split())


def _option_items(p: argparse.ArgumentParser) -> list[str]:
    out: list[str] = []
    for a in p._actions:  # noqa: SLF001
        if isinstance(a, argparse._SubParsersAction):  # noqa: SLF001
            for name, sub in a.choices.items():
                out += [".TP", f"\\fB{_roff(name)}\\fR", _roff(sub.description or "")]
                out += _option_items(sub)
            continue
        if a.help == argparse.SUPPRESS or "-h" in a.option_strings:
            continue
        if a.option_strings:
            value = "" if a.nargs == 0 else " \\fI" + _roff(
                a.metavar if isinstance(a.metavar, str) else
                ("{" + ",".join(map(str, a.choices)) + "}" if a.choices else a.dest.upper())
            ) + "\\fR"
            head = ", ".join(f"\\fB{_roff(o)}\\fR" for o in a.option_strings) + value
        else:
            head = f"\\fI{_roff(a.metavar if isinstance(a.metavar, str) else a.dest)}\\fR"
        out += [".TP", head, _roff(a.help or "")]
    return out


def render_manpage() -> str:
    """``citecheck-tex(1)`` in roff (man macros), from the parsers."""
    from citecheck_tex.config import FAIL_ON_CHOICES

    all_parsers = parsers()
    check = all_parsers[0][1]
    lines = [
        f'.TH CITECHECK\\-TEX 1 "" "citecheck\\-tex {__version__}" "User Commands"',
        ".SH NAME",
        "citecheck\\-tex \\- check the references of a LaTeX paper against real scholarly records",
        ".SH SYNOPSIS",
    ]
    for _, p in all_parsers:
        lines += [".PP", _roff(_usage(p))]
    lines += [".PP", "citecheck\\-tex completion {bash,zsh}", ".PP", "citecheck\\-tex man"]
    lines += [".SH DESCRIPTION", _roff(check.description or ""), ".PP", _roff(
        "INPUT is a .tex file (includes are followed), a folder (its main file is found), a "
        "project .zip, a .bib, a .bbl, or a .txt/.md list of references. Reports go to "
        "citecheck-report/ beside INPUT. The user's files are never modified."),
        ".SH OPTIONS"]
    lines += _option_items(check)
    lines.append(".SH COMMANDS")
    for name, p in all_parsers[1:]:
        lines += [".SS " + _roff(name), _roff(p.description or "")]
        lines += _option_items(p)
    lines += [".SS completion", _roff("Print a completion script: "
                                       "source <(citecheck-tex completion bash)."),
              ".SS man", _roff("Print this manual page: citecheck-tex man | man -l -.")]
    lines += [".SH EXIT STATUS", ".TP", "0", _roff("nothing at or above --fail-on was found"),
              ".TP", "1", _roff("something was (levels, lenient to strict: "
                                 + ", ".join(FAIL_ON_CHOICES) + "; broken input is an error "
                                 "at every level but never)"),
              ".TP", "2", _roff("usage or input error (one-line message)"),
              ".SH ENVIRONMENT", _roff(
                  "CITECHECK_* variables set any setting (CITECHECK_INDEX, CITECHECK_OFFLINE, "
                  "CITECHECK_FAIL_ON, ...); NO_COLOR turns colour off; OPENAI_API_KEY for the "
                  "optional LLM; GITHUB_WORKSPACE is the root of SARIF and annotation paths."),
              ".SH FILES", _roff(
                  "citecheck.toml or [tool.citecheck-tex] in pyproject.toml beside the paper; "
                  ".citecheck-ignore; the local index and the answer cache in the user data "
                  "and cache folders."),
              ".SH SEE ALSO", "latexmk(1), bibtex(1), biber(1)"]
    text = "\n".join(lines) + "\n"
    return re.sub(r"\n{2,}", "\n", text)

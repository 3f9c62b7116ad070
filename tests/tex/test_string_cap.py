"""Issue 12 row 5: nested ``@string`` macros must not expand without bound.

Ten macros, each concatenating the previous one ten times, describe 10**10
characters in about 700 bytes; before the cap this took 16 GB and a MemoryError.
An entry over the cap is a ``parse-error`` with file and line; the other entries
are still returned.
"""

from __future__ import annotations

import resource
import subprocess
import sys
import textwrap

import pytest

from citecheck_tex.tex.bib import MAX_EXPANDED_CHARS, parse_bib_text


def _bomb(levels: int, *, brace: str = "{}") -> str:
    o, c = brace
    lines = [f'@string{o}a0 = "xxxxxxxxxx"{c}']
    for i in range(1, levels):
        lines.append(f"@string{o}a{i} = " + " # ".join([f"a{i - 1}"] * 10) + c)
    lines.append(f"@article{{bomb, author = {{A. Author}}, title = a{levels - 1} # {{!}}, "
                 "year = 2020}")
    lines.append("@article{fine, author = {B. Author}, title = {Fine} # a2, year = 2021}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("brace", ["{}", "()"])  # our fast splitter, bibtexparser's path
def test_entry_over_cap_is_parse_error_and_rest_is_checked(brace: str) -> None:
    # 10**6 .. 10**7 characters: small enough to expand quickly without the cap
    text = _bomb(7, brace=brace)
    entries, problems = parse_bib_text(text, "bomb.bib")
    assert [e.key for e in entries] == ["fine"]
    assert entries[0].title.startswith("Fine") and len(entries[0].title) == 4 + 1000
    bomb_line = text.splitlines().index(next(ln for ln in text.splitlines()
                                             if ln.startswith("@article{bomb"))) + 1
    errors = [p for p in problems if p.code == "parse-error"]
    assert any(p.key == "bomb" and p.line == bomb_line and p.file == "bomb.bib"
               and "bomb.bib:" in p.message for p in errors)
    macro = next(p for p in errors if "'a6'" in p.message)  # 10**7 > cap
    assert macro.line == 7


def test_large_literal_entry_is_parse_error() -> None:
    big = "y" * (MAX_EXPANDED_CHARS + 1)
    text = f"@article{{huge, title = {{{big}}}}}\n@article{{ok, title = {{Ok}}}}\n"
    entries, problems = parse_bib_text(text, "big.bib")
    assert [e.key for e in entries] == ["ok"]
    assert [(p.code, p.key, p.line) for p in problems if p.code == "parse-error"] == \
        [("parse-error", "huge", 1)]


def test_many_macros_under_the_cap_stay_bounded() -> None:
    # each macro just under the cap: the file-wide budget stops them
    text = '@string{m0 = "' + "z" * 900 + '"}\n@string{m1 = ' + " # ".join(["m0"] * 1000) + "}\n"
    text += "@article{first, title = m1}\n"
    text += "".join(f"@string{{c{i} = m1 # {{{i}}}}}\n" for i in range(40))
    text += "@article{last, title = c39}\n"
    entries, problems = parse_bib_text(text, "many.bib")
    assert "first" in [e.key for e in entries]
    assert "last" not in [e.key for e in entries]
    assert any(p.code == "parse-error" and p.key == "last" for p in problems)


def test_the_attack_file_stays_under_one_gigabyte() -> None:
    """The 10-level attack itself, in a child limited to 1 GB of address space."""
    code = textwrap.dedent(f"""
        import resource
        resource.setrlimit(resource.RLIMIT_AS, ({2**30}, {2**30}))
        from citecheck_tex.tex.bib import parse_bib_text
        entries, problems = parse_bib_text({_bomb(10)!r}, "bomb.bib")
        print(sorted(e.key for e in entries),
              sorted({{p.key for p in problems if p.code == "parse-error" and p.key}}))
    """)
    assert len(_bomb(10).encode()) < 800
    if resource.getrlimit(resource.RLIMIT_AS)[0] not in (resource.RLIM_INFINITY,) and \
            resource.getrlimit(resource.RLIMIT_AS)[0] < 2**30:
        pytest.skip("address-space limit already below 1 GB")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr[-500:]
    assert done.stdout.strip() == "['fine'] ['bomb']"

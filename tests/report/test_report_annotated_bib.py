"""Annotated and fixed .bib: the user's bytes are kept outside the added blocks."""

from __future__ import annotations

from dataclasses import replace

import bibtexparser
from hypothesis import given, settings
from hypothesis import strategies as st

from citecheck_tex.config import Settings
from citecheck_tex.model import Discrepancy, Entry, Label, Record, Verdict, VerdictCode
from citecheck_tex.report.annotated_bib import (
    PREFIX,
    AnnotatedBibReporter,
    render_annotated,
    render_fixed,
    suggested_bibtex,
)
from tests.report.factories import BIB, bib_text, line_of, run_result, verdicts


def strip_added(text: str) -> str:
    """Remove every line the annotator added."""
    lines = text.split("\n")
    bom = text.startswith("\ufeff")
    if bom:
        lines[0] = lines[0][1:]
    kept = [ln for ln in lines if not ln.startswith(PREFIX)]
    out = "\n".join(kept)
    return ("\ufeff" + out) if bom else out


def parse(text: str) -> dict[str, dict[str, str]]:
    """Entries of ``text`` as key -> {field: value} (bibtexparser 2)."""
    lib = bibtexparser.parse_string(text)
    return {e.key: {f.key.lower(): str(f.value) for f in e.fields} for e in lib.entries}


def _rekeyed(vs: tuple[Verdict, ...], text: str) -> tuple[Verdict, ...]:
    return tuple(replace(v, entry=replace(v.entry, line=line_of(text, v.entry.key)))
                 for v in vs if v.entry.line)


def test_round_trip_of_the_sample_file() -> None:
    text = bib_text()
    out = render_annotated(text, verdicts())
    assert out != text
    assert strip_added(out) == text


def test_blocks_sit_right_above_their_entries() -> None:
    out = render_annotated(bib_text(), verdicts()).split("\n")
    for key in ("deOliveira:2015xxd", "Carrazza:2019efs", "Smith:2021qgj", "Kasieczka:2019dbj",
                "Larkoski:2017jix"):
        n = next(i for i, ln in enumerate(out) if ln.startswith("@") and "{" + key + "," in ln)
        assert out[n - 1].startswith(PREFIX), key
        first = n - 1
        while out[first - 1].startswith(PREFIX):
            first -= 1
        label = {"deOliveira:2015xxd": "MINOR", "Carrazza:2019efs": "MINOR",
                 "Smith:2021qgj": "MAJOR", "Kasieczka:2019dbj": "UNVERIFIED",
                 "Larkoski:2017jix": "EXACT"}[key]
        assert out[first].startswith(f"{PREFIX} {label} score"), key


def test_block_content_for_minor() -> None:
    out = render_annotated(bib_text(), verdicts())
    assert f'{PREFIX} wrong year: cited "2015", found "2016" (2015 is the arXiv year)' in out
    assert f"{PREFIX} found in crossref 10.1007/jhep07(2016)069 https://doi.org/" in out
    added = [ln for ln in out.split("\n") if ln.startswith(PREFIX)]
    assert not any("@" in ln for ln in added)  # BibTeX would read an @ as an entry


def test_commented_copy_uncomments_to_the_corrected_entry() -> None:
    out = render_annotated(bib_text(), verdicts()).split("\n")
    start = next(i for i, ln in enumerate(out) if ln == f"{PREFIX} (at)article{{deOliveira:2015xxd,")
    copy: list[str] = []
    for ln in out[start:]:
        copy.append(ln[len(PREFIX) + 1:].replace("(at)", "@", 1) if copy == [] else
                    ln[len(PREFIX) + 1:])
        if ln == f"{PREFIX} }}":
            break
    fields = parse("\n".join(copy))["deOliveira:2015xxd"]
    assert fields["year"] == "2016" and fields["pages"] == "069"
    assert fields["doi"] == "10.1007/JHEP07(2016)069"
    assert fields["journal"] == "JHEP"  # untouched fields kept


def test_fixed_file_parses_with_the_corrections() -> None:
    text = bib_text()
    fixed = render_fixed(text, verdicts())
    before, after = parse(text), parse(fixed)
    assert set(before) == set(after)
    assert after["deOliveira:2015xxd"]["year"] == "2016"
    assert after["deOliveira:2015xxd"]["pages"] == "069"
    assert after["deOliveira:2015xxd"]["doi"] == "10.1007/JHEP07(2016)069"
    assert after["Carrazza:2019efs"]["year"] == "2019"
    for key in ("Larkoski:2017jix", "Smith:2021qgj", "Kasieczka:2019dbj"):
        assert after[key] == before[key]  # only MINOR entries change
    assert after["deOliveira:2015xxd"]["title"] == before["deOliveira:2015xxd"]["title"]


def test_fixed_file_keeps_everything_outside_changed_values() -> None:
    text = bib_text()
    fixed = render_fixed(text, verdicts())
    # the only differences are the replaced values and the added doi line
    assert fixed.replace(' year           = "2016"', ' year           = "2015"') \
        .replace('"069"', '"69"', 1) \
        .replace(' primaryClass   = "hep-ph",\n doi            = "10.1007/JHEP07(2016)069",\n',
                 ' primaryClass   = "hep-ph",\n') \
        .replace('year = "2019"', 'year = "2018"', 1) == text


def test_crlf_and_missing_final_newline() -> None:
    text = bib_text().replace("\n", "\r\n").rstrip("\r\n")
    vs = _rekeyed(verdicts(), text)
    out = render_annotated(text, vs)
    assert "\n" not in out.replace("\r\n", "")  # no bare LF added
    assert strip_added(out.replace("\r\n", "\n")) == text.replace("\r\n", "\n")
    assert not out.endswith("\n")
    fixed = render_fixed(text, vs)
    assert "\n" not in fixed.replace("\r\n", "")
    assert not fixed.endswith("\n")
    assert parse(fixed)["deOliveira:2015xxd"]["doi"] == "10.1007/JHEP07(2016)069"


def test_entry_on_the_first_line_and_bom() -> None:
    body = '@article{first,\n  title = {Ab{\\"o}ut caf\u00e9},\n  year = {1999}\n}\n'
    v = Verdict(entry=Entry(key="first", entry_type="article", file=BIB, line=1),
                label=Label.MINOR, score=8.0, confidence=0.9, code=VerdictCode.FIELD_MISMATCH,
                discrepancies=(Discrepancy("year", "1999", "2000"),), suggested={"year": "2000"})
    for text in (body, "\ufeff" + body):
        out = render_annotated(text, [v])
        assert out.startswith(text[:1] if text.startswith("\ufeff") else PREFIX)
        assert strip_added(out) == text
        assert "year = {2000}" in render_fixed(text, [v])


def test_duplicate_keys_are_told_apart_by_line() -> None:
    text = ("@article{dup,\n  year = {2001},\n}\n\n"
            "@article{dup,\n  year = {2002},\n}\n")
    first = Verdict(entry=Entry(key="dup", entry_type="article", file=BIB, line=1),
                    label=Label.EXACT, score=10, confidence=1, code=VerdictCode.EXACT,
                    match=Record("local", "first copy"))
    second = Verdict(entry=Entry(key="dup", entry_type="article", file=BIB, line=5),
                     label=Label.MINOR, score=8, confidence=1, code=VerdictCode.FIELD_MISMATCH,
                     match=Record("local", "second copy"), suggested={"year": "2003"})
    out = render_annotated(text, [first, second]).split("\n")
    assert out[0].startswith(f"{PREFIX} EXACT") and "first copy" in out[0]
    second_at = [i for i, ln in enumerate(out) if ln == "@article{dup,"][1]
    block = [ln for ln in out[:second_at] if "second copy" in ln]
    assert block and out.index(block[0]) > 3
    fixed = render_fixed(text, [first, second])
    assert fixed == text.replace("{2002}", "{2003}")


def test_key_prefix_and_missing_entries_do_not_confuse() -> None:
    text = "@misc{ab,\n  title = {B}\n}\n@misc{a,\n  title = {A}\n}\n"
    va = Verdict(entry=Entry(key="a", entry_type="misc", file=BIB, line=99),  # wrong line
                 label=Label.MAJOR, score=1, confidence=1, code=VerdictCode.NO_RECORD)
    gone = Verdict(entry=Entry(key="zz", entry_type="misc", file=BIB, line=1),
                   label=Label.MAJOR, score=1, confidence=1, code=VerdictCode.NO_RECORD)
    out = render_annotated(text, [va, gone])
    lines = out.split("\n")
    assert lines[3].startswith(f"{PREFIX} MAJOR") and lines[4] == "@misc{a,"
    assert "not in file" not in out
    assert strip_added(out) == text


def test_braces_quotes_and_new_fields_follow_the_entry_style() -> None:
    text = ('@inproceedings{k,\n'
            '  title     = {{Deep Sets}},\n'
            '  booktitle = "NeurIPS",\n'
            '  year      = 2016\n'
            '}\n')
    v = Verdict(entry=Entry(key="k", entry_type="inproceedings", file=BIB, line=1),
                label=Label.MINOR, score=8, confidence=1, code=VerdictCode.FIELD_MISMATCH,
                suggested={"title": "Deep Sets & more", "venue": "Advances in NeurIPS 30",
                           "year": "2017", "arxiv": "1703.06114"})
    fixed = render_fixed(text, [v])
    assert "  title     = {{Deep Sets \\& more}},\n" in fixed
    assert '  booktitle = "Advances in NeurIPS 30",\n' in fixed
    assert "  year      = 2017,\n" in fixed
    # new fields: the entry's most common delimiter (braces here), identifiers never double-braced
    assert "  eprint    = {1703.06114},\n  archivePrefix = {arXiv}\n}" in fixed
    got = parse(fixed)["k"]
    assert got["eprint"] == "1703.06114" and got["year"] == "2017"


def test_skipped_and_non_bib_entries_get_no_block() -> None:
    text = bib_text()
    vs = [replace(v, label=Label.SKIPPED, code=VerdictCode.NOT_SCHOLARLY) for v in verdicts()]
    assert render_annotated(text, vs) == text
    assert render_fixed(text, vs) == text


def test_suggested_bibtex_keeps_field_order_and_delimiters() -> None:
    v = verdicts()[0]
    assert v.suggested is not None
    bib = suggested_bibtex(v.entry, v.suggested)
    names = [ln.split("=")[0].strip() for ln in bib.splitlines()[1:-1] if "=" in ln]
    assert names[:3] == ["author", "title", "journal"] and names[-1] == "doi"
    assert 'year          = "2016"' in bib
    assert parse(bib)["deOliveira:2015xxd"]["pages"] == "069"


def test_reporter_reads_through_the_injected_reader() -> None:
    files = {BIB: bib_text()}
    reporter = AnnotatedBibReporter(reader=files.__getitem__)
    out = reporter.render(run_result(), Settings())
    assert list(out) == ["paper/refs.annotated.bib"]  # BIB's path, relative to the project
    assert strip_added(out["paper/refs.annotated.bib"]) == files[BIB]
    both = reporter.render(run_result(), Settings(emit_fixed=True))
    assert set(both) == {"paper/refs.annotated.bib", "paper/refs.fixed.bib"}


def test_reporter_skips_unreadable_files() -> None:
    def reader(path: str) -> str:
        raise FileNotFoundError(path)

    assert AnnotatedBibReporter(reader=reader).render(run_result(), Settings()) == {}


_chunk = st.sampled_from([
    "% a comment line\n", "\n", "\r\n", "@string{jhep = {JHEP}}\n", "Some free text \u00e9\n",
    "   \n", "@comment{not an entry}\n",
])


@settings(max_examples=60, deadline=None)
@given(st.lists(_chunk, max_size=6), st.sampled_from(["\n", "\r\n"]), st.booleans(),
       st.text(alphabet="abcxyz\u00e9\u4e2d", min_size=1, max_size=12))
def test_round_trip_property(noise: list[str], nl: str, final: bool, title: str) -> None:
    head = "".join(noise)
    entry = f"@article{{k1,{nl}  title = {{{title}}},{nl}  year = {{2001}}{nl}}}"
    text = head + entry + (nl if final else "") + "".join(reversed(noise))
    line = head.count("\n") + 1
    v = Verdict(entry=Entry(key="k1", entry_type="article", file=BIB, line=line),
                label=Label.MINOR, score=8, confidence=1, code=VerdictCode.FIELD_MISMATCH,
                suggested={"year": "2002", "doi": "10.1/x"})
    out = render_annotated(text, [v])
    assert strip_added(out) == text
    assert out.count(PREFIX) >= 3
    fixed = render_fixed(text, [v])
    assert fixed.startswith(head) and fixed.endswith((nl if final else "") +
                                                     "".join(reversed(noise)))
    assert parse(fixed)["k1"]["year"] == "2002"


@settings(max_examples=80, deadline=None)
@given(st.text(alphabet='@{}(),="#% \n\r\\ak1=x\u00e9', max_size=80), st.integers(0, 6))
def test_garbage_never_raises_and_round_trips(text: str, line: int) -> None:
    v = Verdict(entry=Entry(key="k1", entry_type="article", file=BIB, line=line),
                label=Label.MINOR, score=8, confidence=1, code=VerdictCode.FIELD_MISMATCH,
                suggested={"year": "2002", "title": "T"})
    out = render_annotated(text, [v])
    assert strip_added(out) == text
    fixed = render_fixed(text, [v])
    assert isinstance(fixed, str)

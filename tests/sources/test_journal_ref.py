"""``parse_journal_ref`` on real free-text journal references.

Every input below is a ``journal-ref`` value copied from
``/work/shared/corpus/dumps/arxiv_metadata_snapshot.jsonl`` (real arXiv
metadata, see ``tests/index/data/PROVENANCE.md``), except the last block,
which are pubnote shapes INSPIRE stores (``Nucl.Phys.,B106,475`` style, from
``inspire_hep_reference_strings.jsonl``) written out by hand. The expected
(journal, volume, first page, year) was read off each string by a person.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citecheck_tex.sources.importers import parse_journal_ref

CASES = [
    ("Physica B 403, 1440 (2008)", ("Physica B", "403", "1440", "2008")),
    ("Astrophys.J. 395 (1992) L83-L86", ("Astrophys.J.", "395", "L83", "1992")),
    ("Phys. Rev. Lett. 99, 096803 (2007)", ("Phys. Rev. Lett.", "99", "096803", "2007")),
    ("AIP Conf.Proc.921:510-511,2007", ("AIP Conf.Proc.", "921", "510", "2007")),
    ("Int. J. Math. 22 (2011), no. 8, pp. 1139-1161", ("Int. J. Math.", "22", "1139", "2011")),
    ("J. Nonlinear Math. Phys 14 (4) (2007) 440-461",
     ("J. Nonlinear Math. Phys", "14", "440", "2007")),
    ("Physica C, V. 467, Issues 1-2, (2007), P. 80-84", ("Physica C", "467", "80", "2007")),
    ("JHEP 0712:013,2007", ("JHEP", "0712", "013", "2007")),
    ("JHEP0707:038,2007", ("JHEP", "0707", "038", "2007")),
    ("Phys.Rev.D76:104014,2007", ("Phys.Rev.", "D76", "104014", "2007")),
    ("Phys.Lett.B651:139-146,2007", ("Phys.Lett.", "B651", "139", "2007")),
    ("Class.Quant.Grav.24:2743-2754,2007", ("Class.Quant.Grav.", "24", "2743", "2007")),
    ("Mon.Not.Roy.Astron.Soc.378:701-708,2007", ("Mon.Not.Roy.Astron.Soc.", "378", "701", "2007")),
    ("Math. Res. Lett. 15 (2008), no. 5, 1027--1037", ("Math. Res. Lett.", "15", "1027", "2008")),
    ("Nuovo Cimento B 113 (April 1998) 549-552", ("Nuovo Cimento B", "113", "549", "1998")),
    ("J. Phys.: Condens. Matter 19 (2007) 176210",
     ("J. Phys.: Condens. Matter", "19", "176210", "2007")),
    ("J. Math. Phys. 48(2007), 092102.", ("J. Math. Phys.", "48", "092102", "2007")),
    ("RIMS Kokyuroku, No.1551, pp.57-62 (2007)", ("RIMS Kokyuroku", "1551", "57", "2007")),
    ("Annals of Applied Probability 2007, Vol. 17, No. 2, 676-687",
     ("Annals of Applied Probability", "17", "676", "2007")),
    ("Optics Express, Vol. 15, Issue 11, pp. 7000-7005 (2007)",
     ("Optics Express", "15", "7000", "2007")),
    ("Phys. Rev. B vol. 73, 060503(R) (2006)", ("Phys. Rev. B", "73", "060503", "2006")),
    ("Applicable Analysis, Volume 86, Issue 9, 2007, pp. 1117-1126.",
     ("Applicable Analysis", "86", "1117", "2007")),
    ("MNRAS (May 21, 2016) 458 (3): 3060-3074", ("MNRAS", "458", "3060", "2016")),
    ("Eur. Phys. J. Plus (2015) 130:27", ("Eur. Phys. J. Plus", "130", "27", "2015")),
    ("Gen.Rel.Grav.39:1545-1550,2007; Int.J.Mod.Phys.D17:685-690,2008",
     ("Gen.Rel.Grav.", "39", "1545", "2007")),
    ("2009 Chinese Phys. B 18 506-515", ("Chinese Phys. B", "18", "506", "2009")),
    ("Soft Materials, 8(2):102-113, (2010)", ("Soft Materials", "8", "102", "2010")),
    ("J. Low. Temp. Phys. Vol. 140 pp77-89 (2005)", ("J. Low. Temp. Phys.", "140", "77", "2005")),
    # pubnote shapes
    ("Phys.Rev. D66 (2002) 010001", ("Phys.Rev.", "D66", "010001", "2002")),
    ("Nucl. Phys. B 106 (1976) 475", ("Nucl. Phys. B", "106", "475", "1976")),
    ("Phys. Lett. 123B (1983) 45", ("Phys. Lett.", "123B", "45", "1983")),
]


@pytest.mark.parametrize(("text", "expected"), CASES, ids=[c[0][:40] for c in CASES])
def test_real_journal_refs(text: str, expected: tuple[str, str, str, str]) -> None:
    assert parse_journal_ref(text) == expected


@pytest.mark.parametrize("text", ["", "to appear in Phys. Rev. D", "submitted", "(2007)"])
def test_no_volume_no_page(text: str) -> None:
    _, volume, page, _ = parse_journal_ref(text)
    assert (volume, page) == ("", "")


def test_a_trailing_bare_year_is_not_a_page() -> None:
    assert parse_journal_ref("AIP Conf.Proc.921,2007")[1:] == ("921", "", "2007")


def test_a_page_equal_to_a_year_is_kept_when_the_year_is_elsewhere() -> None:
    assert parse_journal_ref("Nature 404 (2000) 2007") == ("Nature", "404", "2007", "2000")


LOCAL = Path(__file__).parents[1] / "index" / "data" / "arxiv_metadata_snapshot.jsonl"


def test_never_raises_on_every_real_journal_ref_bundled() -> None:
    """Every journal-ref of the bundled arXiv snapshot excerpt parses without error,
    and most of them completely (journal, volume and page)."""
    refs = [json.loads(line).get("journal-ref") for line in LOCAL.read_text().splitlines()]
    refs = [r for r in refs if r]
    assert refs
    parsed = [parse_journal_ref(r) for r in refs]
    complete = sum(1 for j, v, p, _ in parsed if j and v and p)
    assert complete >= 0.8 * len(refs)

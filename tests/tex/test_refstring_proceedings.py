"""Proceedings whose event's name ends with a journal's name.

"Proceedings of the 32nd International Conference on Machine Learning" ends with the
name of a real journal ("Machine Learning"): the free-text reader took that tail for the
journal, and the reference, a faithful citation of HEPML.bib's ``pmlr-v37-rezende15``
(``/work/shared/corpus/bib/HEPML.bib``, copied below unchanged), was a false journal
MINOR. The IEEE form (", in Proceedings of ..., vol. 37, pp. 1530-1538, 2015.") and mnras's
form of the same .bib entry (``bibtex`` with mnras.bst: "Rezende D., Mohamed S., 2015,
Proceedings of the 32nd International Conference on Machine Learning, 37, 1530").
"""

from __future__ import annotations

from pathlib import Path

import pytest

from citecheck_tex.tex.refstring import parse_reference

from .conftest import checked

REZENDE_BIB = """@article{pmlr-v37-rezende15,
  title = 	 {Variational Inference with Normalizing Flows},
  author = 	 {Danilo Rezende and Shakir Mohamed},
  journal = 	 {Proceedings of the 32nd International Conference on Machine Learning},
  pages = 	 {1530--1538},
  year = 	 {2015},
  editor = 	 {Francis Bach and David Blei},
  volume = 	 {37},
  month = 	 {07--09 Jul},
  pdf = 	 {http://proceedings.mlr.press/v37/rezende15.pdf},
  url = 	 {http://proceedings.mlr.press/v37/rezende15.html},
}
"""

IEEE = ("D. Rezende and S. Mohamed, Variational inference with normalizing flows, in "
        "Proceedings of the 32nd International Conference on Machine Learning, vol. 37, "
        "pp. 1530-1538, 2015.")
MNRAS = ("Rezende D., Mohamed S., 2015, Proceedings of the 32nd International Conference on "
         "Machine Learning, 37, 1530")


def test_the_ieee_proceedings_venue() -> None:
    got = parse_reference(IEEE)
    assert got["title"] == "Variational inference with normalizing flows"
    assert (got["booktitle"], got["volume"], got["pages"], got["year"]) == (
        "Proceedings of the 32nd International Conference on Machine Learning", "37",
        "1530-1538", "2015")
    assert "journal" not in got


@pytest.mark.parametrize("text", [
    "K. He, X. Zhang, S. Ren, and J. Sun, Deep residual learning for image recognition, in "
    "Proc. IEEE Conf. Comput. Vis. Pattern Recognit., pp. 770-778, 2016.",
    "A. Vaswani et al., Attention is all you need, in Advances in Neural Information "
    "Processing Systems, vol. 30, 2017.",
])
def test_other_proceedings_in_the_ieee_form(text: str) -> None:
    got = parse_reference(text)
    assert got["booktitle"].startswith(("Proc. IEEE", "Advances in"))
    assert not got["title"].endswith(("Proc", "Advances"))
    assert "in Proc" not in got["title"] and "in Advances" not in got["title"]


def test_a_journal_name_that_ends_an_event_name_is_no_journal() -> None:
    got = parse_reference(MNRAS)
    assert (got["journal"], got["volume"], got["pages"], got["year"]) == (
        "Proceedings of the 32nd International Conference on Machine Learning", "37", "1530",
        "2015")
    assert "title" not in got  # (mnras prints no article title)
    # a journal of that name stays one
    got = parse_reference("P. Langley, Machine learning as an experimental science, "
                          "Machine Learning 3, 5 (1988).")
    assert (got["journal"], got["volume"], got["pages"]) == ("Machine Learning", "3", "5")


def test_the_ieee_citation_of_the_real_entry_is_exact(tmp_path: Path) -> None:
    from citecheck_tex.sources.local_index import import_files

    bib = tmp_path / "refs.bib"
    bib.write_text(REZENDE_BIB, encoding="utf-8")
    index = tmp_path / "index.sqlite"
    import_files(index, [bib])
    (entry,) = checked(tmp_path / "check", index, "refs.txt", IEEE + "\n", "--index-complete")
    assert entry["label"] == "EXACT", entry["discrepancies"]

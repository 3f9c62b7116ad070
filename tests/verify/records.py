"""Real records and entry builders for the verification tests (see PROVENANCE.md)."""

from __future__ import annotations

from typing import Any

from citecheck_tex.model import Entry, Person, Record

MONOPOLES = Record(
    source="local", id="inspire:100761",
    title="Magnetic Monopoles in SU(3) Gauge Theories",
    authors=(Person("Corrigan", "Edward"), Person("Olive", "David I."),
             Person("Fairlie", "D.B."), Person("Nuyts", "J.")),
    year="1976", other_years=("1975",), venue="Nucl.Phys.B", volume="106", pages="475",
    doi="10.1016/0550-3213(76)90173-5", texkeys=("Corrigan:1975hd",),
)

STARS = Record(
    source="local", id="inspire:723496",
    title="Star formation triggered by SN explosions: An application to the stellar "
          "association of beta Pictoris",
    authors=(Person("Melioli", "Claudio"), Person("de Gouveia Dal Pino", "E.M."),
             Person("de la Reza", "R."), Person("Raga", "A.")),
    year="2006", venue="Mon.Not.Roy.Astron.Soc.", volume="373", pages="811-818",
    doi="10.1111/j.1365-2966.2006.11076.x", arxiv="astro-ph/0608207",
)


def entry(**kw: Any) -> Entry:
    """An Entry of the monopole paper, written as an INSPIRE BibTeX user would."""
    base: dict[str, Any] = dict(
        key="Corrigan:1975hd", entry_type="article", file="refs.bib", line=1,
        title="Magnetic monopoles in {SU}(3) gauge theories",
        authors=(Person("Corrigan", "E."), Person("Olive", "D. I."), Person("Fairlie", "D. B."),
                 Person("Nuyts", "J.")),
        year="1976", venue="Nucl. Phys. B", volume="106", pages="475",
    )
    base.update(kw)
    return Entry(**base)



"""The ground-level vocabulary every stage shares (below ``tex``, ``sources``, ``verify``, ``report``).

- :mod:`~citecheck_tex.vocab.ids`: identifier syntax and normalisation (DOI, arXiv,
  report numbers, INSPIRE texkeys);
- :mod:`~citecheck_tex.vocab.journals`: journal names, abbreviations and series letters;
- :mod:`~citecheck_tex.vocab.latex_text`: the project's one TeX decoder (TeX -> Unicode),
  through which text from citations and text from records pass alike.

Nothing here imports a stage: a stage that needs one of these imports it from here,
never from another stage (``tests/test_imports.py`` holds the rule).
"""

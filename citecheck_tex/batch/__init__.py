"""Checking many papers at once on Dask distributed (``citecheck-tex batch``, issue 15).

Modules: :mod:`.inputs` (what a batch input is: folders, arXiv tarballs, .zip, reference
lists, manifests), :mod:`.task` (one paper's check, run on a worker), :mod:`.table` (the
corpus table), :mod:`.runner` (the Dask client, submission, progress, resumption, the
summary file), :mod:`.summary` (what the terminal shows) and :mod:`.limiter` (the global
per-source rate limiter every worker sees).
"""

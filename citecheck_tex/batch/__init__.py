"""Checking many papers at once on Dask distributed (``citecheck-tex batch``).

Modules: :mod:`.inputs` (what a batch input is: folders, arXiv tarballs, .zip, reference
lists, manifests), :mod:`.task` (one paper's check, run on a worker), :mod:`.table` (the
corpus table and the summary), :mod:`.runner` (the Dask client, submission, progress,
resumption) and :mod:`.limiter` (the global per-host rate limiter every worker sees).
"""

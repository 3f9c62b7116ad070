"""Checking many papers at once on Dask (``citecheck-tex batch``, issue 15)."""

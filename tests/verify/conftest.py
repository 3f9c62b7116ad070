"""Fixtures of the verification tests (see PROVENANCE.md)."""

from __future__ import annotations

import pytest

from citecheck_tex.model import Record
from tests.verify.records import MONOPOLES


@pytest.fixture
def monopoles() -> Record:
    """The INSPIRE record of Corrigan et al. 1976."""
    return MONOPOLES

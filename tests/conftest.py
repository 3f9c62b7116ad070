"""Hermetic tests: no CITECHECK_* settings, no proxies, no user folders leak in."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _hermetic(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    import os

    for name in list(os.environ):
        if name.startswith("CITECHECK_") or name.lower() in (
            "http_proxy", "https_proxy", "all_proxy", "no_proxy"
        ):
            monkeypatch.delenv(name, raising=False)
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / "cache"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))


def pytest_configure(config: pytest.Config) -> None:
    """Ctrl-C reaches the commands the tests start, however the suite was launched.

    A shell starts a background job (``make test &`` in a script) with SIGINT ignored,
    every child inherits that, and Python installs no KeyboardInterrupt handler in a
    process that starts with SIGINT ignored: the tests that press Ctrl-C on a run
    (``test_run_faults``, ``test_llm_interrupt``) then saw it run to its end. A handler
    set here is reset to the default in the children they start.
    """
    import signal

    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--run-network", action="store_true", default=False,
                     help="run tests marked network (they touch the internet)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--run-network"):
        return
    skip = pytest.mark.skip(reason="touches the network; run with --run-network")
    for item in items:
        if "network" in item.keywords:
            item.add_marker(skip)


ROOT = Path(__file__).resolve().parent.parent

"""The HTML report in real headless Chromium: it renders, filters, sorts and expands.

Needs the Debian packages ``chromium`` and ``chromium-driver`` and the PyPI
package ``selenium``; skipped with the reason when any is missing.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from citecheck_tex.report.html import render_html
from tests.report.factories import run_result

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM),
                       reason=f"{CHROMIUM} missing (apt-get install chromium chromium-driver)"),
    pytest.mark.skipif(not os.path.exists(CHROMEDRIVER),
                       reason="chromedriver missing (apt-get install chromium-driver)"),
]

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--window-size=1360,1400")


@pytest.fixture(scope="module")
def driver(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    webdriver = pytest.importorskip("selenium.webdriver", reason="pip install selenium")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    drv = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    try:
        yield drv
    finally:
        drv.quit()


@pytest.fixture()
def page(driver: Any, tmp_path: Path) -> Any:
    path = tmp_path / "report.html"
    path.write_text(render_html(run_result()), encoding="utf-8")
    driver.get(path.as_uri())
    return driver


def _visible_keys(drv: Any) -> list[str]:
    from selenium.webdriver.common.by import By

    return [row.find_element(By.CSS_SELECTOR, "td.key").text
            for row in drv.find_elements(By.CSS_SELECTOR, "tr.ref") if row.is_displayed()]


def test_renders_without_script_errors(page: Any) -> None:
    assert page.title.startswith("citecheck-tex report")
    assert len(_visible_keys(page)) == 6
    errors = [e for e in page.get_log("browser") if e.get("level") == "SEVERE"]
    assert errors == []


def test_text_filter_and_label_filter(page: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    box = page.find_element(By.ID, "filter-text")
    box.send_keys("jet")
    keys = _visible_keys(page)
    assert sorted(keys) == ["Carrazza:2019efs", "Larkoski:2017jix", "Smith:2021qgj",
                            "deOliveira:2015xxd"]
    assert page.find_element(By.ID, "shown").text == "4 of 6 shown"
    page.find_element(By.CSS_SELECTOR, '.chip[data-label="MINOR"]').click()
    assert sorted(_visible_keys(page)) == ["Larkoski:2017jix", "Smith:2021qgj"]
    assert page.find_element(By.CSS_SELECTOR, '.chip[data-label="MINOR"]') \
        .get_attribute("aria-pressed") == "false"
    box.clear()
    box.send_keys("zzz-nothing")
    assert _visible_keys(page) == []
    assert page.find_element(By.ID, "no-match").is_displayed()
    shot = tmp_path / "filtered.png"
    assert page.save_screenshot(str(shot))
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_details_toggle_with_keyboard(page: Any) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    detail = page.find_element(By.ID, "ref-2-detail")
    assert not detail.is_displayed()
    toggle = page.find_element(By.CSS_SELECTOR, "#ref-2 .toggle")
    toggle.send_keys(Keys.ENTER)
    assert detail.is_displayed()
    assert toggle.get_attribute("aria-expanded") == "true"
    assert "Suggested BibTeX" in detail.text and "doi" in detail.text
    toggle.send_keys(Keys.SPACE)
    assert not detail.is_displayed()


def test_sort_by_score(page: Any) -> None:
    from selenium.webdriver.common.by import By

    header = page.find_element(By.CSS_SELECTOR, 'th[data-col="score"] .sort')
    header.click()
    keys = _visible_keys(page)
    assert keys[-1] == "Larkoski:2017jix"  # score 10, ascending
    header.click()
    assert _visible_keys(page)[0] == "Larkoski:2017jix"
    th = page.find_element(By.CSS_SELECTOR, 'th[data-col="score"]')
    assert th.get_attribute("aria-sort") == "descending"
    # each detail row still follows its reference row
    rows = page.find_elements(By.CSS_SELECTOR, "#refs tbody tr")
    ids = [r.get_attribute("id") for r in rows]
    for i, rid in enumerate(ids[:-1]):
        if rid and not rid.endswith("-detail") and rid != "no-match":
            assert ids[i + 1] == f"{rid}-detail"

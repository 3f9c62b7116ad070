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


# ------------------------------------------------------------------ issue 14: show the fix
# A real run: the demo paper (sample_papers/dark_matter_axions, planted errors documented
# in its PLANTED.md) checked offline against the real records shipped beside it.

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "sample_papers" / "dark_matter_axions"
DESKTOP, PHONE = (1360, 1000), (390, 844)


@pytest.fixture(scope="module")
def demo_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from citecheck_tex.cli import main

    tmp = tmp_path_factory.mktemp("demo")
    index = tmp / "index.sqlite"
    assert main(["index", "add", *map(str, sorted(ROOT.glob("sample_papers/*/index_records*"))),
                 "--index", str(index)]) == 0
    main([str(DEMO / "paper.tex"), "--offline", "--index", str(index), "--cache", "none",
          "--out", str(tmp / "out"), "--format", "html", "--fail-on", "never"])
    return tmp / "out" / "report.html"


def _open(drv: Any, path: Path, size: tuple[int, int]) -> Any:
    drv.set_window_size(*size)
    drv.get(path.as_uri())
    return drv


def _shot(drv: Any, tmp_path: Path, name: str) -> None:
    """A PNG of the page; also kept in $REPORT_SCREENSHOTS (docs/ for the README)."""
    shot = tmp_path / name
    assert drv.save_screenshot(str(shot))
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    keep = os.environ.get("REPORT_SCREENSHOTS")
    if keep:
        shutil.copy(shot, Path(keep) / name)


def _row(drv: Any, key: str) -> Any:
    from selenium.webdriver.common.by import By

    return next(r for r in drv.find_elements(By.CSS_SELECTOR, "tr.ref")
                if r.find_element(By.CSS_SELECTOR, "td.key").text == key)


def test_minor_row_shows_the_fix_with_a_copy_button(driver: Any, demo_report: Path) -> None:
    from selenium.webdriver.common.by import By

    page = _open(driver, demo_report, DESKTOP)
    row = _row(page, "Day2016")  # planted: year 2017, the record says 2016
    fix = row.find_element(By.CSS_SELECTOR, '.fixline[data-fix="year"]')
    assert fix.is_displayed() and fix.text.startswith("year 2017 → 2016")
    page.execute_cdp_cmd("Browser.grantPermissions", {
        "origin": "file://", "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})
    button = fix.find_element(By.CSS_SELECTOR, "button.copy-val")
    assert button.get_attribute("data-value") == "2016"
    button.click()
    # the label changes when the asynchronous clipboard write settles: wait for it
    from selenium.webdriver.support.ui import WebDriverWait
    WebDriverWait(page, 10).until(lambda _: button.text in ("Copied", "Select and copy"))
    assert button.text in ("Copied", "Select and copy")
    copied = page.execute_async_script(
        "var done = arguments[0];"
        "navigator.clipboard.readText().then(done, function (e) { done('ERR ' + e); });")
    if not str(copied).startswith("ERR"):
        assert copied == "2016"


def test_problems_come_first_undefined_keys_first(driver: Any, demo_report: Path) -> None:
    from selenium.webdriver.common.by import By

    page = _open(driver, demo_report, DESKTOP)
    problems = page.find_element(By.ID, "problems")
    table = page.find_element(By.ID, "refs")
    assert problems.location["y"] < table.location["y"]
    codes = [r.get_attribute("data-code")
             for r in problems.find_elements(By.CSS_SELECTOR, "tbody tr")]
    assert codes[0] == "undefined-key" and "unused-entry" in codes
    assert "1 error" in problems.find_element(By.ID, "h-problems").text.lower()


def test_a_major_is_never_drawn_like_a_correction(driver: Any, demo_report: Path,
                                                  tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    page = _open(driver, demo_report, DESKTOP)
    row = _row(page, "Marsh2011relic")  # planted MAJOR: the closest record is another paper
    assert "closest record, not a match" in row.text
    assert not row.find_elements(By.CSS_SELECTOR, "ins, del, .arrow, .copy-val")
    row.find_element(By.CSS_SELECTOR, ".toggle").click()
    card = page.find_element(By.ID, row.get_attribute("id") + "-detail")
    assert "Closest record, not a match" in card.text
    assert "BOOK" not in card.text  # INSPIRE's placeholder for a book is no venue
    assert "Suggested BibTeX" not in card.text and "add" not in [
        c.text for c in card.find_elements(By.CSS_SELECTOR, "td.st")]
    green = "rgba(5, 96, 58, 1)"
    for cell in card.find_elements(By.CSS_SELECTOR, "table.cmp td.found"):
        assert cell.value_of_css_property("color") != green
    page.execute_script("arguments[0].scrollIntoView()", row)
    _shot(page, tmp_path, "report-major.png")


def test_record_links_name_their_origin_and_skipped_sources_take_no_space(
        driver: Any, demo_report: Path) -> None:
    from selenium.webdriver.common.by import By

    page = _open(driver, demo_report, DESKTOP)
    row = _row(page, "Semertzidis:2014pha")
    row.find_element(By.CSS_SELECTOR, ".toggle").click()
    card = page.find_element(By.ID, row.get_attribute("id") + "-detail")
    links = [a.text for a in card.find_elements(By.CSS_SELECTOR, ".links a")]
    assert "INSPIRE record" in links and not any(t == "local" for t in links)
    assert "Found (INSPIRE)" in card.text
    sources = [r.text for r in card.find_elements(By.CSS_SELECTOR, "table.src tr")]
    assert sources and all(s.startswith("local") for s in sources)  # offline: the rest skipped


def test_desktop_and_phone_layouts(driver: Any, demo_report: Path, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    page = _open(driver, demo_report, DESKTOP)
    first = page.find_element(By.CSS_SELECTOR, "tr.ref")
    assert first.value_of_css_property("display") == "table-row"
    _shot(page, tmp_path, "report-desktop.png")

    page = _open(driver, demo_report, PHONE)
    assert page.execute_script("return document.documentElement.scrollWidth") <= \
        page.execute_script("return window.innerWidth")
    row = _row(page, "Day2016")
    assert row.value_of_css_property("display") == "grid"
    assert not page.find_element(By.CSS_SELECTOR, "#refs thead").is_displayed()
    fix = row.find_element(By.CSS_SELECTOR, '.fixline[data-fix="year"]')
    assert fix.is_displayed()
    assert row.size["width"] <= PHONE[0]
    # the cards stack: each reference below the previous one
    ys = [r.location["y"] for r in page.find_elements(By.CSS_SELECTOR, "tr.ref")[:4]]
    assert ys == sorted(ys) and len(set(ys)) == 4
    page.execute_script("arguments[0].scrollIntoView()", _row(page, "Tanaka2016"))
    _shot(page, tmp_path, "report-phone.png")


def test_codes_are_shown_beside_the_prose_and_filter_the_table(driver: Any,
                                                                demo_report: Path) -> None:
    """Day2016 (planted: year 2017 for a 2016 paper) shows its verdict's code and its
    discrepancy's code, each with the code's meaning as tooltip; typing a code in the
    filter shows the references that carry it."""
    from selenium.webdriver.common.by import By

    from citecheck_tex.model import DiscrepancyCode, VerdictCode

    page = _open(driver, demo_report, DESKTOP)
    row = _row(page, "Day2016")
    row.find_element(By.CSS_SELECTOR, ".toggle").click()
    card = page.find_element(By.ID, row.get_attribute("id") + "-detail")
    why = card.find_element(By.CSS_SELECTOR, "p.why code.code")
    assert why.is_displayed() and why.text == "field-mismatch"
    assert why.get_attribute("title") == VerdictCode.FIELD_MISMATCH.meaning
    year = card.find_element(By.CSS_SELECTOR, '.dlist li[data-field="year"]')
    (label,) = year.find_elements(By.CSS_SELECTOR, "code.code")
    assert label.is_displayed() and label.text.startswith("year-")
    assert label.get_attribute("title") == DiscrepancyCode(label.text).meaning
    box = page.find_element(By.ID, "filter-text")
    box.send_keys(label.text)
    shown = _visible_keys(page)
    assert "Day2016" in shown and "Marsh2011relic" not in shown

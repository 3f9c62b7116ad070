"""Render the sample HTML report and save a screenshot taken by headless Chromium.

Usage: .venv/bin/python bench/screenshot_report.py [report.html] [out.png]

Without arguments it renders the report of the reporter tests' sample run
(tests/report/factories.py), opens it in /usr/bin/chromium through Selenium and
chromedriver, expands the MINOR references and writes docs/report-screenshot.png.
Needs the Debian packages chromium and chromium-driver and the PyPI package
selenium. Prints a small table of what it did.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"

CHROMIUM_FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-dev-shm-usage", "--window-size=1360,1900", "--hide-scrollbars",
)


def make_driver(profile_dir: str):  # type: ignore[no-untyped-def]
    """A headless Chromium driven by Selenium, with a throw-away profile."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile_dir}")
    return webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)


def sample_html() -> str:
    """The HTML report of the tests' sample run."""
    sys.path.insert(0, str(ROOT))
    from citecheck_tex.report.html import render_html
    from tests.report.factories import run_result

    return render_html(run_result())


def main(argv: list[str]) -> int:
    """Take the screenshot; print a table of the steps."""
    from selenium.webdriver.common.by import By

    out = Path(argv[1]) if len(argv) > 1 else ROOT / "docs" / "report-screenshot.png"
    with tempfile.TemporaryDirectory() as tmp:
        if argv:
            page = Path(argv[0]).resolve()
        else:
            page = Path(tmp) / "report.html"
            page.write_text(sample_html(), encoding="utf-8")
        profile = Path(tmp) / "profile"
        t0 = time.perf_counter()
        driver = make_driver(str(profile))
        try:
            t1 = time.perf_counter()
            driver.get(page.as_uri())
            rows = driver.find_elements(By.CSS_SELECTOR, "tr.ref")
            for row in rows:
                if row.get_attribute("data-label") == "MINOR":
                    row.find_element(By.CSS_SELECTOR, ".toggle").click()
                    break
            t2 = time.perf_counter()
            height = driver.execute_script("return document.documentElement.scrollHeight")
            driver.set_window_size(1360, min(max(int(height) + 40, 900), 4000))
            out.parent.mkdir(parents=True, exist_ok=True)
            driver.save_screenshot(str(out))
            t3 = time.perf_counter()
        finally:
            driver.quit()
    print(f"{'step':<16}{'seconds':>10}")
    print(f"{'start chromium':<16}{t1 - t0:>10.2f}")
    print(f"{'load + expand':<16}{t2 - t1:>10.2f}")
    print(f"{'screenshot':<16}{t3 - t2:>10.2f}")
    print(f"rows: {len(rows)}  page height: {height}px  written: {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

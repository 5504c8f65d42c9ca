"""detailed_results.html in a real browser (skipped, saying why, where
chromium, chromedriver or selenium are missing): nothing leaves the page, the
per-claim table builds when opened, and the .debug text is shown as text."""
from __future__ import annotations

import os
import shutil
import zipfile

import pytest

from scorer.competition.__main__ import main

import browser
from places import ROOT

# A browser: seconds each, so pytest -m "not slow" leaves them out.
pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(bool(browser.missing()), reason=f"browser tests: {browser.missing()}")]

FEVER = os.path.join(ROOT, "fixtures", "fever", "blind")


def test_detailed_results_page(tmp_path):
    bundle = tmp_path / "b.zip"
    assert main(["-bundle", str(bundle), "-start", "2026-12-01", "-policy",
                 os.path.join(ROOT, "configs", "fever.yaml"),
                 os.path.join(FEVER, "actual.jsonl")]) == 0
    with zipfile.ZipFile(bundle) as z:
        z.extractall(tmp_path / "b")
    shutil.copytree(tmp_path / "b" / "reference_data", tmp_path / "input" / "ref")
    (tmp_path / "input" / "res").mkdir()
    # A participant's file name is data, never HTML.
    hostile = "<img src=x onerror=window.pwned=1>.jsonl"
    with open(os.path.join(FEVER, "predictions.jsonl"), encoding="utf-8") as f:
        (tmp_path / "input" / "res" / hostile).write_text(f.read())
    assert main([str(tmp_path / "input"), str(tmp_path / "output")]) == 0
    page = (tmp_path / "output" / "detailed_results.html").as_uri()
    with browser.chromium() as driver:
        browser.requested_urls(driver)
        driver.get(page)
        driver.execute_script("document.querySelector('details.lazy').open=true;"
                              "document.querySelector('#why details').open=true;")
        rows = driver.execute_script(
            "return Array.prototype.map.call(document.querySelectorAll('#counted tbody tr'),"
            " function(r){return r.cells[0].textContent;})")
        assert rows == ["11", "12", "13"]
        assert driver.execute_script("return window.pwned") is None
        assert hostile in driver.title
        shown = driver.execute_script("return document.querySelector('#why pre').textContent")
        assert shown == (tmp_path / "output" / "submission.debug").read_text()
        assert browser.leaving_requests(browser.requested_urls(driver), page) == []

"""Debian's Chromium, headless, driven by Selenium through Debian's
chromedriver: for the page tests and the page benchmark.  Nothing is
downloaded (Selenium's own driver manager is bypassed by naming the driver)."""
from __future__ import annotations

import contextlib
import json
import os
import shutil
import tempfile

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
#: Schemes of requests that stay inside the page (inline data) or the browser
#: (its own pages, such as the new-tab page it opens at start-up).
INSIDE_SCHEMES = ("data:", "about:", "blob:", "chrome:", "chrome-untrusted:", "devtools:")


def missing() -> str:
    """Why the browser cannot run here ("" when it can)."""
    for path in (CHROMIUM, CHROMEDRIVER):
        if not os.access(path, os.X_OK):
            return f"{path} is not installed (apt-get install chromium chromium-driver)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "the selenium package is not installed (pip install -e '.[test]')"
    return ""


@contextlib.contextmanager
def chromium(width: int = 1280, height: int = 1000):
    """A headless Chromium with a fresh profile that logs every network request."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="scorer-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                     "--no-first-run", "--disable-background-networking",
                     "--disable-component-update", "--disable-sync",
                     "--disable-dev-shm-usage", f"--window-size={width},{height}",
                     f"--user-data-dir={profile}"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def requested_urls(driver) -> list:
    """Every URL requested since the last call (from the performance log)."""
    urls = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.requestWillBeSent":
            urls.append(message["params"]["request"]["url"])
    return urls


def leaving_requests(urls, page_url: str) -> list:
    """The requests that leave the page: to the network, or to any file but
    the page itself."""
    return [url for url in urls if url != page_url and not url.startswith(INSIDE_SCHEMES)]

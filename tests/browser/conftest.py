"""Fixtures for the browser tests: Debian's Chromium driven by Playwright, and a live table server.

Skipped, with the reason shown, when no Chromium is installed (`apt-get install chromium`; .ci/run installs it).
Screenshots go to NINJATABLE_SCREENSHOTS if set (docs/screenshots refreshes the README's pictures), else to a
temporary folder.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "server"))

from live import LiveServer
from pages import CHROMIUM_FLAGS, chromium_path


@pytest.fixture(scope="session")
def browser():
    executable = chromium_path()
    if executable is None:
        pytest.skip("the browser tests need Debian's Chromium: apt-get install chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("the browser tests need Playwright for Python: pip install playwright")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_FLAGS)
        yield chromium
        chromium.close()


@pytest.fixture
def live(tmp_path):
    server = LiveServer(f"sqlite:///{tmp_path / 'tables.db'}").start()
    yield server
    server.stop()


@pytest.fixture
def screenshots(tmp_path) -> Path:
    folder = Path(os.environ.get("NINJATABLE_SCREENSHOTS") or tmp_path / "screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def person(browser):
    """New pages, each in its own browser context (its own storage: one person each), closed after the test."""
    contexts = []

    def open_page(width: int = 1200, height: int = 900):
        context = browser.new_context(viewport={"width": width, "height": height})
        contexts.append(context)
        page = context.new_page()
        page.errors = []
        page.on("pageerror", lambda error: page.errors.append(str(error)))
        return page

    yield open_page
    for context in contexts:
        context.close()

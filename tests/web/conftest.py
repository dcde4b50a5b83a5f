"""Fixtures for the browser tests: a real `teocalli serve` on a free port and a temporary SQLite
file, and Debian's headless Chromium driven by Playwright."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=5) as response:
        return json.loads(response.read())


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a real server process, stopped at the end of the session."""
    database = tmp_path_factory.mktemp("web") / "tables.db"
    port = _free_port()
    command = [sys.executable, "-m", "teocalli.cli", "serve", "--port", str(port)]
    command += ["--database", f"sqlite:///{database}"]
    command += ["--rate-limit", "create=1000/0.01", "--rate-limit", "connect=1000/0.01"]
    log = tmp_path_factory.mktemp("web-log") / "serve.log"
    with log.open("w") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    try:
        while True:  # poll until the server answers (an event, not a fixed sleep)
            try:
                _get_json(f"{base}/api/games")
                break
            except (urllib.error.URLError, ConnectionError, OSError):
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(
                        f"teocalli serve did not start:\n{log.read_text()}"
                    ) from None
                time.sleep(0.1)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One headless Chromium for the session (Debian's build: Playwright cannot download one)."""
    from playwright.sync_api import sync_playwright

    if shutil.which(CHROMIUM) is None and not Path(CHROMIUM).exists():
        raise RuntimeError("Debian's chromium is missing: apt-get install -y chromium")
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh page whose JavaScript errors fail the test."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on(
        "console",
        lambda msg: errors.append(msg.text) if msg.type == "error" else None,
    )
    page.set_default_timeout(60000)  # generous: CI runs the browser beside two busy test workers
    yield page
    context.close()
    assert not errors, f"errors in the browser: {errors}"

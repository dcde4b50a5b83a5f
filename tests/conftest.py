"""Settings every test shares."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest
from hypothesis import settings

# No verdict may depend on timing: numpy work and a busy machine (pytest -n) make hypothesis's
# per-example deadline fail good code at random. Tests' own @settings inherit this profile.
settings.register_profile("teocalli", deadline=None)
settings.load_profile("teocalli")


class _Errors(logging.Handler):
    """Collects ERROR records from teocalli's loggers during one test."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture(autouse=True)
def no_errors_logged(request: pytest.FixtureRequest) -> Iterator[None]:
    """Fail any test during which the server or a bot logged an ERROR (a crashing bot included),
    unless the test expects it (`@pytest.mark.logs_errors`, which then checks them itself)."""
    handler = _Errors()
    logger = logging.getLogger("teocalli")
    logger.addHandler(handler)
    try:
        yield
    finally:
        logger.removeHandler(handler)
    if handler.records and request.node.get_closest_marker("logs_errors") is None:
        lines = [f"{r.name}: {r.getMessage()}" for r in handler.records]
        pytest.fail("ERROR logged during the test:\n" + "\n".join(lines), pytrace=False)

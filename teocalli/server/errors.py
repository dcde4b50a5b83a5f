"""The one error every layer of the server raises to refuse a request."""

from __future__ import annotations


class Refused(Exception):
    """A request the table refuses; nothing changed. `code` is for programs, text for people."""

    def __init__(self, message: str, code: str, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.status = status

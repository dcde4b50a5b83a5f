"""Untrusted input, read with limits: request bodies, JSON, names, ids and option values.

Everything a client sends is refused here with a message that says what is wrong, before it can
reach a table or the database: bodies past their limit are refused before they are read in full,
JSON may not carry NaN or infinities (they poison every later response) nor nest deeply, and no
error message echoes more than a short excerpt of what was sent.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from starlette.requests import Request

from .errors import Refused

MAX_BODY_BYTES = 16_384
"""A create-table body is a few hundred bytes; 16 KiB leaves room for every option."""
MAX_DEPTH = 8
"""The deepest JSON any request needs is 3 (body, seats, seat); nothing deeper is read."""
MAX_NAME_CHARS = 40
MAX_OPTION_TEXT = 100
MAX_JSON_INT = 2**53
"""The largest integer every JSON reader (a browser's included) carries exactly."""
ECHO_CHARS = 60
TABLE_ID = re.compile(r"[A-Za-z0-9]{1,32}")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def clip(text: str, limit: int = 300) -> str:
    """`text` cut to `limit` characters: an error message never echoes a huge input in full."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def excerpt(value: Any) -> str:
    """`repr(value)` cut to a few dozen characters, to name a bad value in an error."""
    return clip(repr(value), ECHO_CHARS)


def _no_constant(name: str) -> Any:
    raise Refused(f"{name} is not a number JSON can carry: use a finite number", "bad_json", 400)


def loads(text: str | bytes) -> Any:
    """Parse JSON strictly: no NaN or infinities, at most MAX_DEPTH levels of nesting."""
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise Refused("that JSON is nested far too deeply", "too_deep") from None
    except (ValueError, UnicodeDecodeError):
        raise Refused("that is not valid JSON", "bad_json") from None
    if _depth(data) > MAX_DEPTH:
        raise Refused(f"that JSON is nested too deeply (at most {MAX_DEPTH} levels)", "too_deep")
    return data


def _depth(value: Any, level: int = 1) -> int:
    if level > MAX_DEPTH:
        return level
    if isinstance(value, dict):
        return max((_depth(v, level + 1) for v in value.values()), default=level)
    if isinstance(value, list):
        return max((_depth(v, level + 1) for v in value), default=level)
    return level


async def read_json(request: Request, limit: int = MAX_BODY_BYTES) -> Any:
    """The request's JSON body; refused past `limit` bytes before the rest is read."""
    declared = request.headers.get("content-length")
    if declared is not None:
        if not declared.isdigit():
            raise Refused("the Content-Length header is not a number", "bad_request")
        if int(declared) > limit:
            raise Refused(
                f"the request body is too long ({declared} bytes; at most {limit})",
                "too_large",
                413,
            )
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise Refused(f"the request body is too long (at most {limit} bytes)", "too_large", 413)
    if not body:
        return {}
    return loads(bytes(body))


def check_table_id(text: str) -> str:
    """A table id as the server makes them (letters and digits, at most 32); else not found."""
    if not TABLE_ID.fullmatch(text):
        raise Refused(f"there is no table {excerpt(text)}", "unknown_table", 404)
    return text


def check_name(name: str | None) -> str | None:
    """A player's display name: printable text of at most MAX_NAME_CHARS characters."""
    if name is None or name == "":
        return None
    if _CONTROL.search(name):
        raise Refused("a name may not contain control characters (such as NUL)", "bad_name")
    if len(name) > MAX_NAME_CHARS:
        raise Refused(f"a name has at most {MAX_NAME_CHARS} characters", "bad_name")
    return name


def check_option_value(name: str, value: Any) -> Any:
    """A game option's value as JSON can carry it: true/false, a finite number, or short text."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        if abs(value) > MAX_JSON_INT:
            raise Refused(f"option {name!r} is too large a number", "bad_options")
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise Refused(f"option {name!r} must be a finite number", "bad_options")
        return value
    if isinstance(value, str):
        if len(value) > MAX_OPTION_TEXT or _CONTROL.search(value):
            raise Refused(f"option {name!r} must be short printable text", "bad_options")
        return value
    raise Refused(
        f"option {name!r} must be a number, true/false or text, not {excerpt(value)}",
        "bad_options",
    )

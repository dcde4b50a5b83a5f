"""Seat tokens: unguessable secrets in share links, stored only as hashes.

A token carries 192 random bits, so a fast hash (SHA-256) is enough: there is nothing to brute
force, and a leaked database does not give anyone a seat.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets


def new_token() -> str:
    """A fresh seat token for a share link."""
    return secrets.token_urlsafe(24)


def new_table_id() -> str:
    """A short table id for URLs; guessing one only lets you watch, never play."""
    return secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")


def hash_token(token: str) -> str:
    """The stored form of a token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def check_token(token: str | None, stored: str | None) -> bool:
    """Whether `token` is the one whose hash is `stored` (constant time)."""
    if not token or not stored:
        return False
    return hmac.compare_digest(hash_token(token), stored)

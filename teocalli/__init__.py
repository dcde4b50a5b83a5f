"""teocalli: rule engines, bots, an arena and a web table for five stone-stacking games."""

import importlib

# Register the built-in games first: importing the subpackage `teocalli.games` binds that name
# on this package, so the registry's `games()` function is bound after it, on purpose
# (docs/architecture.md names both `teocalli.games()` and the `teocalli/games/` package).
importlib.import_module("teocalli.games")

from .core import games, load  # noqa: E402

__version__ = "0.1.0"
__all__ = ["__version__", "games", "load"]

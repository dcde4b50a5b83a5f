"""teocalli: rule engines, bots, an arena and a web table for five stone-stacking games."""

from .core import games, load

__version__ = "0.1.0"
__all__ = ["__version__", "games", "load"]

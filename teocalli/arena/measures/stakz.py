"""Stakz: how often a fifth colour splits a stack (each split opens a new stack to play on)."""

KEY_MEASURES: tuple[str, ...] = ("splits",)

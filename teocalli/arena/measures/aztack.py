"""Aztack: how often a placement matches both colour and glyph on both halves (a bonus discard)."""

KEY_MEASURES: tuple[str, ...] = ("bonus_rate",)

"""Shifting Stones: points per turn, each player's scoring pace (solo games too)."""

KEY_MEASURES: tuple[str, ...] = ("points_per_turn",)

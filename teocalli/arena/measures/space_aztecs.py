"""Space Aztecs: points by set, each colour's share of a city's score."""

KEY_MEASURES: tuple[str, ...] = ("points_pink", "points_yellow", "points_blue", "points_green")

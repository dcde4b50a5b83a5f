"""Stack Back: the highest level a stick reached, how tall play builds before it stops."""

KEY_MEASURES: tuple[str, ...] = ("highest_level",)

"""Per-game heuristics behind the `greedy` bot: one module per game, named like its package."""

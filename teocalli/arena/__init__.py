"""The arena: simulations now; tournaments, ratings and reports build on it."""

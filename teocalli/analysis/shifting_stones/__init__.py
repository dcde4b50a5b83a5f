"""Shifting Stones analysis: the clairvoyant solo search (`solo_search`) and the solo bound
built on it and on the greedy planner (`solo_bound`)."""

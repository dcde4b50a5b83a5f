"""Analysis tools that are neither rules nor bots: exact and clairvoyant searches used by
simulations, benchmarks and tests.

A module here may import `core`, the game it studies and that game's heuristics in `agents`, never
arena, server or interop; no module of core, games or agents imports it (tests/core/test_layers.py
checks both).
"""

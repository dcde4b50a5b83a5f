"""Each game's key measures for its balance report: one module per game, named like its package.

A module `teocalli.arena.measures.<package>` defines `KEY_MEASURES`, the statistics its engine
reports (`State._stats`) that characterise the game; the report draws them first, in that order,
then every other statistic. `tests/test_parts.py` checks each is one the engine reports.
"""

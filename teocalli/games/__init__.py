"""The games: one package each, registered here under their shared names."""

from teocalli.core.registry import register

register("aztack", "teocalli.games.aztack.game:Aztack")
register("stakz", "teocalli.games.stakz.game:Stakz")
register("shifting-stones", "teocalli.games.shifting_stones.game:ShiftingStones")
register("space-aztecs", "teocalli.games.space_aztecs.game:SpaceAztecs")
register("stack-back", "teocalli.games.stack_back.game:StackBack")

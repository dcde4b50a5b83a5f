"""Adapters to PettingZoo, Gymnasium and OpenSpiel, so researchers can use the tools they know.

Import the adapter you need (`teocalli.interop.pettingzoo`, `.gymnasium`, `.openspiel`): each
imports its library on first use only, so `teocalli` itself never needs them. Observations for all
three come from `teocalli.interop.observation` (built from `State.view`, so nothing hidden leaks).
"""

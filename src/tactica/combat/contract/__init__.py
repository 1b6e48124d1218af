"""The calculator's contract: the scenario and sequence documents a caller writes and the
result documents the engines return (``shared/spec/scenario.md``, ``docs/sequence.md``).

Owns: ``scenario`` (one attack: attacker lines, target groups, context, effects),
``sequence`` (a turn's steps), ``result`` (distributions, notes, ``not_calculated``).
May import: ``tactica.dice``, ``tactica.model``, ``tactica.errors`` and ``tactica.names``;
never an engine (``exact``, ``sampled``, ``turn``), so every engine and every door reads
one contract.
"""

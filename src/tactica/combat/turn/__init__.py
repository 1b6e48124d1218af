"""A turn: a sequence of attacks on one target with the survivors carried from step to
step, charges (``charge``) and fights, exact (``exact.calculate_sequence``) and sampled
(``sampled.simulate_sequence``); which models carry which weapons (``survivors``), Deadly
Demise unit by unit and a charge's expected Command Re-roll (``side``).

May import: ``combat.contract``, ``combat.exact``, ``combat.sampled``, ``tactica.rules``,
``tactica.effects``, ``tactica.dice``; nothing imports it but ``tactica.combat`` and the
doors above it.
"""

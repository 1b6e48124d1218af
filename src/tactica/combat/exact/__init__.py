"""The exact engine: one scenario in, exact distributions out (probability, not sampling).

Start at ``engine.calculate_exact``. The attack sequence of the rules, one module a stage:
``stages/`` turns one attack die into its outcomes (attacks 05.01, hit 05.02, wound 05.03,
save 05.04, damage 05.05), ``profile``/``attack_lines`` resolve a weapon line against the
target, ``dice_stages``/``totals`` add up many dice, and the target's chain
(``allocation``, ``chain``, ``one_group``, ``reach``, ``transitions``, ``deferred``) applies
the packets model by model (05.04 allocation, Feel No Pain, mortal wounds after normal
damage). ``size`` refuses what would not finish within the bound before the work is done;
``readout`` writes the result document; ``unit_rules`` adds a unit's side outcomes
(Deadly Demise) and lists what is not calculated.

May import: ``combat.contract``, ``tactica.rules``, ``tactica.effects`` (named effects as
engine modifiers), ``tactica.dice``, ``tactica.model``, ``tactica.cache_registry`` (the
caches that outlive a run); never ``sampled`` or ``turn``.
"""

"""The sampled twin: the same scenario rolled die by die (Monte Carlo), to cross-check the
exact engine and to reach what exact math cannot. Start at ``engine.simulate``.

May import: ``combat.contract``, ``combat.exact`` (the resolved weapon lines and target
profile it shares with the exact engine), ``tactica.rules``, ``tactica.dice``; never
``turn``.
"""

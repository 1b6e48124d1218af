"""An independent brute-force witness for the exact combat engine.

``bruteforce.brute_force`` rolls every die of a (small) scenario explicitly and returns
exact ``Fraction`` distributions; ``strategies`` generates small scenarios for
hypothesis. Neither reads the engine's code: both follow the rules decisions in
``shared/spec/reference_facts.md`` §3–§5 directly.
"""

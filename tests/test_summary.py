"""A result's headline (``tactica.summary``): its quantiles by their definition, checked
against numpy on random distributions, and its figures read off the result unchanged."""

from __future__ import annotations

from math import comb

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

import tactica
from tactica.combat import Distribution
from tactica.summary import headline, quantile
from volume import sampled


@given(st.lists(st.integers(0, 50), min_size=1, max_size=30).filter(any),
       st.sampled_from([0.1, 0.25, 0.5, 0.75, 0.9, 1.0]))
def test_quantile_is_the_smallest_value_whose_cdf_reaches_q(weights: list[int],
                                                             q: float) -> None:
    pmf = np.array(weights, dtype=float) / sum(weights)
    dist = Distribution(mean=float(np.dot(np.arange(len(pmf)), pmf)), pmf=tuple(pmf))
    v = quantile(dist, q)
    cdf = np.cumsum(pmf)
    assert cdf[v] >= q - 1e-12  # reaches q ...
    assert v == 0 or cdf[v - 1] < q - 1e-12  # ... and no smaller value does


def test_the_band_of_a_binomial_by_hand() -> None:
    """Ten Torrent attacks at S12 against T1 with no save: each wounds on 2+, so damage
    is Binomial(10, 5/6). By hand: P(<=6) = 0.0697, P(<=7) = 0.2248, P(<=8) = 0.5155,
    P(<=9) = 0.8385, so p10 = 7, the median 8 and p90 = 10."""
    r = tactica.calculate({
        "attacker": {"weapons": [{"name": "Sure", "count": 10, "A": "1", "skill": 2, "S": 12,
                                  "AP": -6, "D": "1", "abilities": ["Torrent"]}]},
        "target": {"models": [{"count": 20, "T": 1, "Sv": 7, "W": 1}]}})
    binomial = [comb(10, k) * (5 / 6) ** k * (1 / 6) ** (10 - k) for k in range(11)]
    assert max(abs(a - b) for a, b in zip(r.damage.pmf, binomial, strict=True)) < 1e-12
    h = headline(r)
    assert (h.damage.p10, h.damage.median, h.damage.p90) == (7, 8, 10)
    assert h.expected_damage == r.damage.mean and h.p_unit_destroyed == r.p_unit_destroyed
    assert h.weapons_used == ("Sure",) and h.target_models is None


# --- the default run's samples (tests/volume.py): each property below runs a few
# dozen examples by default and its full count as its ``_at_volume`` twin (slow) ---
(test_quantile_is_the_smallest_value_whose_cdf_reaches_q,
 test_quantile_is_the_smallest_value_whose_cdf_reaches_q_at_volume) = sampled(
    test_quantile_is_the_smallest_value_whose_cdf_reaches_q, 30)

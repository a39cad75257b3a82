"""Exact probabilities at scale (sweeplab.probabilities through enumerate's combination of blocks)."""

from __future__ import annotations

import numpy as np

import sweeplab
from sweeplab import COVERED, NOCLUE, Observation, probabilities
from sweeplab.errors import ComponentTooLargeError


def test_thousands_of_blocks_and_a_large_interior_give_exact_probabilities_or_a_refusal():
    """An independent review: 2,000 pockets (three cells, two clues "1") beside a 40x200 interior gave
    P = 5e-324 for cells 8% likely to be mines (float products underflowed where the total's weight lies).
    Exact values from integer binomials; a refusal is allowed, a wrong number is not."""
    from fractions import Fraction
    from math import comb

    m, per_row = 2000, 40
    g = np.full((3 * (m // per_row) + 40, 5 * per_row), NOCLUE, np.int8)
    for k in range(m):
        r, c = 3 * (k // per_row), 5 * (k % per_row)
        g[r, c + 1:c + 4] = COVERED
        g[r + 1, c + 1] = g[r + 1, c + 3] = 1
    g[3 * (m // per_row):, :] = COVERED
    interior, total = 40 * 5 * per_row, 2800
    obs = Observation(g, mines=total)
    fits = range(max(0, total - m - interior), min(m, total - m) + 1)  # j pockets hold two mines
    weight = sum(comb(m, j) * comb(interior, total - m - j) for j in fits)
    middle = sum(comb(m - 1, j) * comb(interior, total - m - j) for j in fits if j < m)
    try:
        p = probabilities(obs)
    except ComponentTooLargeError:
        pass
    else:
        assert abs(p[0, 2] - float(Fraction(middle, weight))) < 1e-9
    assert not sweeplab.deduce(obs, "enumerate").cells  # forced cells: none, and exact either way

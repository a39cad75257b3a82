"""Exact probabilities at scale (sweeplab.probabilities through enumerate's combination of blocks)."""

from __future__ import annotations

import math
from fractions import Fraction
from math import comb

import numpy as np
import pytest

import sweeplab
from sweeplab import COVERED, NOCLUE, Observation, probabilities
from sweeplab.clue_system import clue_system
from sweeplab.methods import enumerate as en
from sweeplab.methods._common import Budget

PER_ROW = 40


def pockets(n_three: int, n_five: int, interior_rows: int, total: int) -> Observation:
    """``n_three`` pockets of three covered cells under two clues "1" (the middle cell alone, or the
    two outer ones: one or two mines, one layout each), ``n_five`` of five cells under two "1"s
    sharing the middle cell (the middle alone, or one of each outer pair: one mine once, two mines
    four ways), and ``interior_rows`` rows of covered cells next to no clue, 40 pockets a row."""
    kinds = [3] * n_three + [5] * n_five
    rows = -(-len(kinds) // PER_ROW)
    g = np.full((3 * rows + interior_rows, 7 * PER_ROW), NOCLUE, np.int8)
    for k, width in enumerate(kinds):
        r, c = 3 * (k // PER_ROW), 7 * (k % PER_ROW)
        g[r, c + 1:c + 1 + width] = COVERED
        for clue in ((c + 1, c + 3) if width == 3 else (c + 2, c + 4)):
            g[r + 1, clue] = 1
    g[3 * rows:, :] = COVERED
    return Observation(g, mines=total)


def exact(n_three: int, n_five: int, interior: int, total: int):
    """Integer references of :func:`pockets`: P(middle of a three-cell pocket is a mine), P(middle of
    a five-cell pocket), P(an interior cell) and the log of the number of layouts."""
    def spread(a, b):  # layouts by the number of pockets holding two mines
        threes = [comb(a, i) for i in range(a + 1)]
        fives = [comb(b, i) * 4 ** i for i in range(b + 1)]
        out = [0] * (a + b + 1)
        for i, x in enumerate(threes):
            for j, y in enumerate(fives):
                out[i + j] += x * y
        return out

    def weigh(poly, base):
        return sum(v * comb(interior, total - base - j) for j, v in enumerate(poly)
                   if 0 <= total - base - j <= interior)

    base = n_three + n_five
    all_ = weigh(spread(n_three, n_five), base)
    mid3 = weigh(spread(n_three - 1, n_five), base) if n_three else 0
    mid5 = weigh(spread(n_three, n_five - 1), base) if n_five else 0
    inner = sum(v * comb(interior - 1, total - base - j - 1)
                for j, v in enumerate(spread(n_three, n_five)) if 1 <= total - base - j <= interior)
    return (float(Fraction(mid3, all_)), float(Fraction(mid5, all_)),
            float(Fraction(inner, all_)) if interior else math.nan, math.log(all_))


@pytest.mark.parametrize("n_three, n_five, interior_rows, extra", [
    (2000, 0, 40, 800),   # an independent review: P = 5e-324 for cells 8% likely (then a refusal)
    (2000, 0, 40, 2000),
    (2000, 0, 0, 10),     # no interior: the total fixes the count where the product is 1e-590 of its peak
    (2000, 0, 0, 1990),
    (2000, 0, 1, 10),
    (1960, 40, 40, 100),  # two kinds of pocket, the middle cell's odds differ
    (1960, 40, 0, 1500),
    (400, 0, 40, 100),    # small enough for the plain combination
    (4000, 0, 40, 1000),  # past the chains' budget (10^10 steps): the tree of products
    (3960, 40, 0, 3000),
])
def test_thousands_of_blocks_give_exact_probabilities_and_counts(n_three, n_five, interior_rows, extra):
    """The float products of thousands of blocks underflow (< 1e-308) at the totals the interior's
    weight favours; the combination is then tilted towards them (exact) rather than refused."""
    total = n_three + n_five + extra
    obs = pockets(n_three, n_five, interior_rows, total)
    mid3, mid5, inner, log_count = exact(n_three, n_five, interior_rows * 7 * PER_ROW, total)
    p = probabilities(obs)
    cells = {3: [], 5: []}
    for k in range(n_three + n_five):
        r, c = 3 * (k // PER_ROW), 7 * (k % PER_ROW)
        cells[3 if k < n_three else 5].append(p[r, c + 2] if k < n_three else p[r, c + 3])
    assert np.allclose(cells[3], mid3, rtol=1e-9, atol=0)
    if n_five:
        assert np.allclose(cells[5], mid5, rtol=1e-9, atol=0)
    if interior_rows:
        assert p[-1, -1] == pytest.approx(inner, rel=1e-9)
    assert np.nansum(p) == pytest.approx(total, rel=1e-9)
    counted = en.analyse(obs, probabilities=False, count=True, time_limit=None).log_layouts
    assert counted == pytest.approx(log_count, rel=1e-9)
    assert not sweeplab.deduce(obs, "enumerate").cells  # forced cells: none (exact Boolean sets)


def _blocks(obs: Observation):
    p = clue_system(obs, use_total=True).grouped()
    comp, counts, coff, gmines, cansafe, goff = en._block_counts(p, en.MAX_NODES, Budget("enumerate"))
    kmin, klen = en._mine_count_spans(counts, coff)
    return p, (comp, counts, coff, gmines, cansafe, goff, p.group_size, p.remaining, int(p.interior.size)), \
        kmin, klen


def test_the_cases_above_reach_the_tilt_and_the_tree():
    """At theta = 0 the combination reports the underflow (status 5), and the chains of products
    would take more than their budget of steps on 4,000 blocks, the tree far fewer."""
    obs = pockets(2000, 0, 40, 2800)
    p, args, kmin, klen = _blocks(obs)
    shape = (int(kmin.sum()), int(1 + (klen - 1).sum()), int(np.diff(args[2]).max()))
    assert en._combine_with_total(0.0, *args, True, kmin, klen, *shape, False)[0] == 5
    theta = en._saddle_tilt(args[1], args[2], kmin, klen, args[7] - shape[0], args[8], shape[1])
    assert en._combine_with_total(theta, *args, True, kmin, klen, *shape, False)[0] == 0
    _, (_, counts, coff, *_), kmin, klen = _blocks(pockets(4000, 0, 40, 5000))  # and the tree
    assert en._combine_steps(counts, coff) > en.MAX_COMBINE_STEPS > en._tree_work(klen, 4000)[1]


@pytest.mark.parametrize("theta, tree", [(0.0, True), (-3.0, False), (-0.7, True), (0.4, False), (2.5, True)])
def test_any_tilt_and_the_tree_give_the_same_probabilities(theta, tree):
    """Tilting every block by exp(theta k) and the interior's weights by exp(-theta S) leaves every
    product unchanged, and the tree of products gives each block the same context as the chains:
    on ordinary random positions (several blocks, fixed and varying) the probabilities and forced
    cells agree with the chains' untilted ones."""
    from sweeplab.testing import random_positions

    compared = 0
    for obs in random_positions(300, seed=48, noise=False):
        if obs.mines is None:
            continue
        try:
            p, args, kmin, klen = _blocks(obs)
        except (sweeplab.MethodRefused, sweeplab.InconsistentPositionError):
            continue
        if any(args[1][args[2][c]:args[2][c + 1]].max() <= 0 for c in range(args[2].size - 1)):
            continue  # a block without a layout: status 1 before any tilt
        shape = (int(kmin.sum()), int(1 + (klen - 1).sum()), max(1, int(np.diff(args[2]).max(initial=1))))
        plain = en._combine_with_total(0.0, *args, True, kmin, klen, *shape, False)
        tilted = en._combine_with_total(theta, *args, True, kmin, klen, *shape, tree)
        assert plain[0] == tilted[0], obs.to_text()
        if plain[0]:
            continue
        assert np.array_equal(plain[1], tilted[1]) and np.array_equal(plain[2], tilted[2])
        assert np.allclose(plain[3], tilted[3], rtol=1e-9, atol=1e-12), obs.to_text()
        assert plain[4:6] == tilted[4:6] and tilted[6] == pytest.approx(plain[6], rel=1e-9, abs=1e-12)
        compared += 1
    assert compared > 100


def test_the_default_budget_survives_pickling_and_copying():
    """A review: the sentinel of the enumeration's default lost its identity in a copy, so
    probabilities(obs, max_bytes=copy) was refused (a worker gets copies)."""
    import copy
    import pickle

    from sweeplab.probability import _DEFAULT

    obs = sweeplab.Observation.from_text("?1?\n2?1\n???", mines=3)
    for twin in (pickle.loads(pickle.dumps(_DEFAULT)), copy.deepcopy(_DEFAULT), copy.copy(_DEFAULT)):
        assert twin is _DEFAULT
        np.testing.assert_array_equal(sweeplab.probabilities(obs, max_bytes=twin, time_limit=twin),
                                      sweeplab.probabilities(obs))


def test_a_block_with_more_layouts_than_a_float_holds_is_refused_not_answered_with_nan():
    """A review (rev51a): one block of 2**1100 layouts (a 3-row strip, one mine per column) overflowed its
    counts: probabilities came back nan, log10_layouts inf, and sample_layouts drew biased layouts."""
    from sweeplab.errors import ComponentTooLargeError
    from sweeplab.geometry import log10_layouts
    from sweeplab.rollouts import sample_layouts

    def strip(width):
        text = "\n".join(["?" * width, "2" + "3" * (width - 2) + "2", "?" * width])
        return sweeplab.Observation.from_text(text, mines=width)

    fits = strip(900)  # 2**900 layouts: still exact
    assert np.array_equal(sweeplab.probabilities(fits)[[0, 2]], np.full((2, 900), 0.5))
    assert log10_layouts(fits) == pytest.approx(900 * np.log10(2))
    over = strip(1100)
    for attempt in (lambda: sweeplab.probabilities(over), lambda: log10_layouts(over),
                    lambda: sweeplab.probabilities(over, use_total=False),
                    lambda: sample_layouts(over, count=4, seed=0)):
        with pytest.raises(ComponentTooLargeError, match="more layouts than double precision holds"):
            attempt()
    assert not sweeplab.deduce(over, "enumerate").cells  # none forced: each cell is a mine half the time

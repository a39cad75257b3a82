"""Exact methods (enumerate, brute, milp), the LP relaxation and the probabilities on hand-made positions."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import numpy as np
import oracle
import pytest

import sweeplab
from sweeplab import COVERED, METHODS, InconsistentPositionError, Observation
from sweeplab.clue_system import clue_system
from sweeplab.examples import EXAMPLES
from sweeplab.methods import brute, lp, milp
from sweeplab.methods import enumerate as en
from sweeplab.positions import neighbour_counts

EXACT = ("enumerate", "brute", "milp")


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_examples_exact_methods_and_oracle(name):
    ex = EXAMPLES[name]
    want = (set(ex.safe), set(ex.mines))
    assert oracle.forced(ex.observation) == want
    for method in EXACT:
        if method == "brute" and clue_system(ex.observation).cell_bounds().cells.size > brute.MAX_VARIABLES:
            with pytest.raises(ValueError, match="max_variables"):
                brute.forced_cells(ex.observation)
            continue
        assert METHODS[method].function(ex.observation) == want, method
    safe, mines = lp.forced_cells(ex.observation)
    assert safe <= want[0] and mines <= want[1]


def test_lp_misses_a_deduction_that_needs_integrality():
    obs = EXAMPLES["lp-needs-integrality"].observation
    assert lp.forced_cells(obs) == (set(), set())
    assert en.forced_cells(obs) == ({(0, 2)}, set())
    assert milp.forced_cells(obs) == ({(0, 2)}, set())
    # The relaxation's optimum of b is 1/2 (a = b = e = 1/2, d = 1): HiGHS confirms it.
    from scipy.optimize import linprog

    s = clue_system(obs).cell_bounds()
    j = int(np.flatnonzero(s.cells == 2)[0])
    c = np.zeros(s.cells.size)
    c[j] = -1
    res = linprog(c, A_eq=s.A, b_eq=s.lo, bounds=[(0, 1)] * s.cells.size, method="highs")
    assert res.status == 0 and -res.fun == pytest.approx(0.5)


def test_interior_forced_by_the_total():
    obs = Observation.from_text("1??\n???", mines=1)
    for name in EXACT + ("lp",):
        safe, mines = METHODS[name].function(obs)
        assert {(0, 2), (1, 2)} <= safe, name
    assert en.forced_cells(obs, use_total=False) == (set(), set())
    full = Observation.from_text("1??\n???", mines=5)  # four of the five around... impossible
    with pytest.raises(InconsistentPositionError):
        en.forced_cells(full)
    all_mines = Observation.from_text("1??\n???", mines=3)  # frontier 1 + both interior cells
    for name in EXACT:
        assert METHODS[name].function(all_mines)[1] == {(0, 2), (1, 2)}, name


def test_probabilities_fifty_fifty_and_report_004_border():
    p = sweeplab.probabilities(EXAMPLES["fifty-fifty"].observation)
    assert p[0, 0] == p[0, 1] == 0.5
    # Report 004's first border: a 1 in a corner, three covered neighbours, one mine among them.
    p = sweeplab.probabilities(Observation.from_text("1?\n??"), use_total=False)
    np.testing.assert_allclose(p[[0, 1, 1], [1, 0, 1]], 1 / 3, rtol=0, atol=1e-15)


def test_probabilities_many_solutions_board_against_closed_form():
    """Report 000's >10,000-solution board: three isolated clues, 40 mines on 16x16."""
    obs = EXAMPLES["000-many-solutions"].observation
    p = sweeplab.probabilities(obs)
    interior = 256 - 3 - 24
    # the clues fix each block's count (3 + 2 + 1 = 6 mines), so every frontier layout has the same
    # interior weight C(interior, 34): a neighbour of the 3 is a mine in 3/8 of its block's layouts
    assert p[0, 0] == pytest.approx(3 / 8, abs=1e-12)
    assert p[3, 5] == pytest.approx(2 / 8, abs=1e-12)
    assert p[6, 1] == pytest.approx(1 / 8, abs=1e-12)
    assert p[15, 15] == pytest.approx(float(Fraction(34, interior)), abs=1e-12)


@pytest.mark.parametrize("mines", [2, 3, 4, 7])
def test_probabilities_weigh_frontier_layouts_by_their_interior_completions(mines):
    """Two 1s sharing (0,1): the frontier holds {(0,1)} or {(0,0), (0,2)}, 1 or 2 mines, so the 12
    interior cells hold the rest: weights C(12, m - 1) and C(12, m - 2) (lost clues "-" say nothing)."""
    obs = Observation.from_text("???-????\n1-1-????\n...-????", mines=mines, noise="lost")
    one, two = comb(12, mines - 1), comb(12, mines - 2)
    p = sweeplab.probabilities(obs)
    assert p[0, 1] == pytest.approx(one / (one + two), abs=1e-12)
    assert p[0, 0] == p[0, 2] == pytest.approx(two / (one + two), abs=1e-12)
    interior = (one * (mines - 1) + two * (mines - 2)) / 12 / (one + two)
    assert p[1:, 4:] == pytest.approx(np.full((2, 4), interior), abs=1e-12)


def test_probabilities_are_0_or_1_only_on_forced_cells_even_when_they_round_there():
    """An adversarial review: on a 1000x1000 board the centre of this patch is a mine with
    probability 1 - 6e-18 (either it alone or all four corners), which a float rounds to 1."""
    patch = Observation.from_text("?---?\n-1-1-\n--?--\n-1-1-\n?---?").grid
    grid = np.full((1000, 1000), COVERED, np.int8)
    grid[:5, :5] = patch
    obs = Observation(grid, mines=4)
    p = sweeplab.probabilities(obs)
    assert not sweeplab.deduce(obs, "enumerate").mines
    assert 1 - 1e-15 < p[2, 2] < 1.0 and 0.0 < p[0, 0] < 1e-15
    forced = Observation.from_text("???\n121", mines=2)
    assert sweeplab.probabilities(forced)[0].tolist() == [1.0, 0.0, 1.0]


def test_probabilities_sum_to_the_remaining_mines():
    """The expected number of mines is the total: a check that needs no oracle, on expert positions."""
    for obs in oracle.play_positions("expert", seed=3, n=20):
        p = sweeplab.probabilities(obs)
        covered = obs.grid == sweeplab.COVERED
        assert np.nansum(p[covered]) == pytest.approx(obs.mines - obs.known_mines, rel=1e-9)
        assert np.isnan(p[obs.grid >= 0]).all()
        assert (p[(obs.grid == sweeplab.FLAG) | (obs.grid == sweeplab.MINE)] == 1).all()


def test_million_cell_board_does_not_overflow():
    h = w = 1000
    grid = np.full((h, w), sweeplab.COVERED, dtype=np.int8)
    grid[500:503, 500:503] = [[1, 1, 1], [1, 0, 1], [1, 1, 1]]  # a small opening
    obs = Observation(grid, mines=150_000)
    p = sweeplab.probabilities(obs)
    covered = grid == sweeplab.COVERED
    assert np.isfinite(p[covered]).all()
    assert p[covered].sum() == pytest.approx(150_000, rel=1e-9)
    # Huge binomials, exact answers: 4 mines is the fewest the eight 1s allow, so with a total
    # of 4 every mine is next to the opening and the rest of the million cells are safe.
    ring = sweeplab.probabilities(Observation(grid, mines=4))
    rows, cols = np.nonzero(covered & (ring > 0))
    assert rows.min() >= 499 and rows.max() <= 503 and cols.min() >= 499 and cols.max() <= 503
    assert ring[covered].sum() == pytest.approx(4)
    with pytest.raises(InconsistentPositionError):
        sweeplab.probabilities(Observation(grid, mines=3))


def test_noise_bounds_report_004():
    """Report 004 §4: an underestimated 1 with three covered neighbours allows 7 layouts."""
    obs = Observation.from_text("1?\n??", noise="under")
    p = sweeplab.probabilities(obs, use_total=False)
    assert p[0, 1] == pytest.approx(4 / 7)
    over = Observation.from_text("1?\n??", noise="over")
    p = sweeplab.probabilities(over, use_total=False)
    assert p[0, 1] == pytest.approx(1 / 4)  # 0 or 1 mine: 4 layouts, one mine on each cell once
    zero = Observation.from_text("0?\n??", noise="over")
    for name in EXACT + ("lp",):
        assert METHODS[name].function(zero, use_total=False) == ({(0, 1), (1, 0), (1, 1)}, set()), name
    assert en.forced_cells(Observation.from_text("0?\n??", noise="under"), use_total=False) == (set(), set())


def test_no_total_convention_interior_is_one_half():
    obs = Observation.from_text("1??\n???", mines=None)
    p = sweeplab.probabilities(obs)
    assert p[0, 2] == p[1, 2] == 0.5
    assert p[0, 1] == pytest.approx(1 / 3)
    q = sweeplab.probabilities(obs.with_mines(2), use_total=False)
    np.testing.assert_array_equal(p, q)


def test_dynamic_programme_takes_over_from_backtracking():
    # A lattice of 1s over 120 covered cells: one block with very many layouts.
    obs = Observation.from_text("\n".join(("?1" * 15) if r % 2 == 0 else "?" * 30 for r in range(4)))
    a = en.analyse(obs, max_nodes=1000)  # the dynamic programme
    b = en.analyse(obs, max_nodes=10**9)  # plain enumeration
    assert (a.safe, a.mines) == (b.safe, b.mines)
    np.testing.assert_allclose(a.probabilities, b.probabilities, rtol=0, atol=1e-12)


@pytest.mark.parametrize("level", ["beginner", "intermediate", "expert"])
def test_dynamic_programme_equals_enumeration_and_oracle(level):
    for obs in oracle.play_positions(level, seed=11, n=15, flag_rate=0.5):
        for use_total in (True, False):
            a = en.analyse(obs, use_total=use_total, max_nodes=0)
            b = en.analyse(obs, use_total=use_total)
            assert (set(a.safe), set(a.mines)) == oracle.forced(obs, use_total=use_total)
            assert (a.safe, a.mines) == (b.safe, b.mines)
            np.testing.assert_allclose(a.probabilities, b.probabilities, rtol=0, atol=1e-12)


def test_component_too_large_is_a_clear_error(monkeypatch):
    monkeypatch.setattr(en, "MAX_STATES", 1)
    rng = np.random.default_rng(5)
    lay = rng.random((9, 12)) < 0.25
    grid = np.where(lay, sweeplab.COVERED, neighbour_counts(lay)).astype(int)
    grid[rng.random(grid.shape) < 0.55] = sweeplab.COVERED
    obs = Observation(grid, mines=int(lay.sum()))
    with pytest.raises(en.ComponentTooLargeError, match="max_nodes"):
        en.analyse(obs, max_nodes=20)
    with pytest.raises(ValueError, match="max_nodes"):
        sweeplab.probabilities(obs, max_nodes=20)
    for use_total in (True, False):
        want = oracle.forced(obs, use_total=use_total)
        with pytest.raises(en.ComponentTooLargeError):
            en.forced_cells(obs, use_total=use_total, max_nodes=20, fallback=None)
        assert en.forced_cells(obs, use_total=use_total, max_nodes=20) == want  # milp takes over
        assert en.forced_cells(obs, use_total=use_total) == want
    with pytest.raises(ValueError, match="fallback"):
        en.forced_cells(obs, fallback="sat")


def test_brute_refuses_large_frontiers():
    obs = Observation.from_text("?" * 12 + "\n" + "1" * 12 + "\n" + "?" * 12)
    with pytest.raises(ValueError, match="max_variables"):
        brute.forced_cells(obs, max_variables=20)
    small = Observation.from_text("????\n1221")
    assert brute.forced_cells(small, max_variables=4) == en.forced_cells(small)


def test_groups_and_components():
    # Two blocks, one with a group of two exchangeable cells.
    # Two blocks of three exchangeable cells each: two groups.
    obs = Observation.from_text("??-??\n?1-2?\n-----")
    p = clue_system(obs).grouped()
    assert sorted(p.group_size.tolist()) == [3, 3]
    assert en.analyse(obs).safe == frozenset()
    q = sweeplab.probabilities(obs, use_total=False)
    np.testing.assert_allclose(q[[0, 0, 1], [0, 1, 0]], 1 / 3, rtol=0, atol=1e-15)
    np.testing.assert_allclose(q[[0, 0, 1], [3, 4, 4]], 2 / 3, rtol=0, atol=1e-15)


def test_lp_never_claims_on_an_inconsistent_position():
    # a + b = 1, a + c = 1, b + c = 1: x = 1/2 fits the relaxation, no 0/1 layout fits.
    obs = Observation.from_text("?1?\n1-1\n-?-")
    s = clue_system(obs).cell_bounds()
    assert s.A.shape == (3, 3) and (s.A.sum(axis=1) == 2).all()
    from scipy.optimize import linprog

    assert linprog(np.zeros(3), A_eq=s.A, b_eq=s.lo, bounds=[(0, 1)] * 3, method="highs").status == 0
    with pytest.raises(InconsistentPositionError):
        lp.forced_cells(obs)


@pytest.mark.parametrize("name", EXACT + ("lp",))
def test_deduce_registry_entries(name):
    info = METHODS[name]
    assert info.sound and info.builtin
    assert info.complete == (name != "lp")
    d = sweeplab.deduce("???\n121", method=name)
    assert d.safe == {(0, 1)} and d.mines == {(0, 0), (0, 2)}


def test_enumeration_in_small_chunks_gives_the_same_answers(monkeypatch):
    """Backtracking resumed chunk after chunk (the search looks at the clock between chunks) counts
    exactly what one chunk does: same forced cells, probabilities and errors."""
    from sweeplab.testing import half_revealed, random_positions

    positions = [*random_positions(150, seed=3), half_revealed(14, seed=2), half_revealed(20, seed=5)]

    def answers():
        out = []
        for obs in positions:
            for use_total in (True, False):
                try:
                    safe, mines, probs = en.forced_cells(obs, use_total=use_total, probabilities=True)
                    out.append((safe, mines, np.nan_to_num(probs, nan=-1).round(12).tolist()))
                except (InconsistentPositionError, sweeplab.MethodRefused) as exc:
                    out.append(type(exc).__name__)
        return out

    whole = answers()
    monkeypatch.setattr(en, "_CHUNK_NODES", 3)
    assert answers() == whole


def test_layout_counts_match_a_plain_count():
    """``count=True``: the log of the number of layouts, with and without the total, against a loop
    over every layout of the covered cells (the two-step value of ``best`` divides these counts)."""
    from sweeplab.methods.enumerate import analyse
    from sweeplab.testing import random_positions

    compared = impossible = 0
    for obs in random_positions(600, seed=21, noise=False):
        if np.count_nonzero(obs.grid == COVERED) > 14:
            continue
        for total in (True, False):
            if total and obs.mines is None:
                continue
            truth = oracle.brute_count(obs, use_total=total)
            try:
                got = analyse(obs, use_total=total, probabilities=False, count=True,
                              time_limit=None).log_layouts
            except InconsistentPositionError:
                assert truth == 0, obs.to_text()
                impossible += 1
                continue
            assert truth > 0 and np.exp(got) == pytest.approx(truth, rel=1e-9), (obs.to_text(), total)
            compared += 1
    assert compared > 300 and impossible > 10


def test_a_fresh_process_checks_consistency_before_numba_has_compiled(tmp_path):
    # numba compiles the enumeration on its first call in a process (seconds, with an empty cache); that
    # time once counted against deduce's 1 s consistency check, which then gave up and returned gf2's
    # claims on a position no layout fits
    import os
    import subprocess
    import sys

    code = ("import sweeplab\n"
            "for method in ('gf2', 'lp'):\n"
            "    try:\n"
            "        d = sweeplab.deduce(sweeplab.Observation.from_text('??0', mines=2), method=method)\n"
            "    except sweeplab.InconsistentPositionError:\n"
            "        print(method, 'raised')\n"
            "    else:\n"
            "        print(method, 'claimed', sorted(d.safe), sorted(d.mines), d.consistent)\n")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}  # an empty cache: everything compiles
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split("\n")[:2] == ["gf2 raised", "lp raised"], out.stdout + out.stderr


def test_lp_claims_on_boards_with_a_large_interior(monkeypatch):
    """Past 1,000 interior cells the interior's share keeps a weight of 1e-3 in the batched LPs (not
    ``1 / I``, below HiGHS's tolerances): its claims still match enumeration, the interior's included."""
    from sweeplab.methods import _relaxation

    weights = []
    solve = _relaxation.Relaxation.solve

    def spy(self, rows, cols, c, total):
        if total and self.s.interior.size:
            weights.append(abs(c[-1]))
        return solve(self, rows, cols, c, total)

    monkeypatch.setattr(_relaxation.Relaxation, "solve", spy)
    rng = np.random.default_rng(37)
    side, interior_claims = 40, 0
    for _ in range(40):
        layout = np.zeros((side, side), dtype=bool)
        layout[:6, :6] = rng.random((6, 6)) < rng.uniform(0.15, 0.4)
        open_ = np.zeros((side, side), dtype=bool)
        open_[:4, :4] = ~layout[:4, :4] & (rng.random((4, 4)) < 0.7)
        layout &= neighbour_counts(open_) > 0  # every mine on the frontier
        grid = np.where(open_, neighbour_counts(layout), COVERED)
        # as many mines as the frontier holds, or one or two more: the interior is safe or undecided
        obs = Observation(grid, mines=int(layout.sum()) + int(rng.integers(0, 3)))
        want = en.forced_cells(obs)
        safe, mines = lp.forced_cells(obs)
        assert safe <= want[0] and mines <= want[1]
        interior_claims += (side - 1, side - 1) in safe
    assert interior_claims > 0 and max(weights) == pytest.approx(1e-3)

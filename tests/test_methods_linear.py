"""The grid-rule and linear-algebra methods: trivial, subset, rref, bounded, lstsq,
lstsq-certified, gf2, gfp.

Known answers on the hand-made positions of :mod:`sweeplab.examples`, the
counterexamples, soundness against the independent oracle (``tests/oracle.py``)
on random small positions, the readable references (sympy for the exact RREF,
galois for GF(p), scipy's null space for the determined cells), noise and
inconsistent boards.
"""

from __future__ import annotations

import functools
import math
from pathlib import Path

import numpy as np
import pytest
import scipy.linalg
import sympy
from oracle import forced

import sweeplab
from sweeplab import Game, InconsistentPositionError, Observation, deduce
from sweeplab.clue_system import clue_system
from sweeplab.corpus import load_corpus
from sweeplab.examples import EXAMPLES
from sweeplab.methods import lstsq
from sweeplab.methods._algebra import exact_rref, rref_mod_p, rref_rows
from sweeplab.testing import random_positions as adversarial_positions

SOUND = ["trivial", "subset", "rref", "bounded", "lstsq-certified", "gf2", "gfp"]
MINE = ["trivial", "subset", "rref", "bounded", "lstsq", "lstsq-certified", "gf2", "gfp"]


@functools.cache
def truth_or_none(obs, use_total=True):
    """The oracle's forced cells, or ``None`` for an inconsistent position (cached)."""
    try:
        return forced(obs, use_total=use_total)
    except InconsistentPositionError:
        return None


def claims(obs, method, **options):
    d = deduce(obs, method, **options)
    return set(d.safe), set(d.mines)


def cells(*rc):
    return set(rc)


# --- the catalogue -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_example_answers_are_the_oracles(name):
    ex = EXAMPLES[name]
    assert forced(ex.observation) == (set(ex.safe), set(ex.mines))


@pytest.mark.parametrize("name", sorted(EXAMPLES))
@pytest.mark.parametrize("method", SOUND)
def test_sound_methods_stay_inside_the_example_answers(name, method):
    ex = EXAMPLES[name]
    safe, mines = claims(ex.observation, method)
    assert safe <= ex.safe and mines <= ex.mines


EXPECTED = {
    # (example, method, options): (safe, mines)
    ("002-one-two", "rref", ()): (cells((0, 2), (0, 6), (0, 7), (1, 7)), cells((0, 1), (0, 4))),
    ("002-one-two", "rref", (("iterate", True),)): "all",
    ("002-one-two", "bounded", ()): "all",
    ("002-one-two", "subset", ()): "all",
    ("002-one-one-two-two", "rref", ()): "all",
    ("002-one-one-two-two", "gfp", ()): "all",
    ("002-one-one-two-two", "trivial", ()): "none",
    ("000-a-g", "trivial", ()): "none",
    ("000-a-g", "subset", ()): "all",
    ("000-a-g", "rref", ()): "all",
    ("000-a-g", "bounded", ()): "all",
    ("000-a-g", "lstsq-certified", ()): (cells((2, 2)), set()),
    ("001-abc", "trivial", ()): "none",
    ("001-abc", "subset", ()): "all",
    ("001-abc", "rref", ()): "all",
    ("001-abc", "lstsq-certified", ()): "none",
    ("001-abc", "gf2", ()): "none",
    ("001-abc-mine", "trivial", ()): "all",
    ("one-two-one", "trivial", ()): "none",
    ("one-two-one", "subset", ()): "all",
    ("one-two-one", "rref", ()): "all",
    ("one-two-two-one", "subset", ()): "all",
    ("one-two-two-one", "bounded", ()): "all",
    ("subset-beats-rref", "subset", ()): "all",
    ("subset-beats-rref", "rref", ()): "none",
    ("subset-beats-rref", "rref", (("iterate", True),)): "none",
    ("subset-beats-rref", "bounded", ()): "none",
    ("rref-beats-subset", "rref", ()): "all",
    ("rref-beats-subset", "subset", ()): "none",
    ("gfp-beats-rref", "gfp", ()): (cells((0, 2), (2, 0), (2, 1), (3, 2)), cells((3, 1))),
    ("gfp-beats-rref", "rref", ()): "none",
    ("gfp-beats-rref", "bounded", ()): "all",
    ("rref-beats-gfp", "rref", ()): "all",
    ("rref-beats-gfp", "gfp", ()): "none",
    ("rref-beats-gfp", "gf2", ()): "none",
    ("gf2-beats-certified", "gf2", ()): (set(), cells((0, 0))),
    ("gf2-beats-certified", "lstsq-certified", ()): "none",
    ("rref-one-pass-misses", "rref", ()): "none",
    ("rref-one-pass-misses", "rref", (("iterate", True),)): "none",
    ("rref-one-pass-misses", "trivial", ()): "all",
    ("rref-one-pass-misses", "bounded", ()): "all",
}


@pytest.mark.parametrize("key", sorted(EXPECTED, key=str))
def test_known_answers(key):
    name, method, options = key
    ex = EXAMPLES[name]
    want = EXPECTED[key]
    if want == "all":
        want = (set(ex.safe), set(ex.mines))
    elif want == "none":
        want = (set(), set())
    assert claims(ex.observation, method, **dict(options)) == want


def test_rref_counterexample_with_the_total_is_found():
    # x0+x1+x2 = 0, x1+x2+x3+x4 = 1 and the total x0+..+x4 = 1: total - second row gives x0 = 0
    obs = EXAMPLES["rref-one-pass-misses"].observation.with_mines(2)
    assert claims(obs, "rref") == ({(0, 0), (0, 1), (0, 2)}, set())
    assert claims(obs, "rref", use_total=False) == (set(), set())


def test_rref_counterexample_reduced_rows():
    system = clue_system(EXAMPLES["rref-one-pass-misses"].observation, use_total=True).merged()
    R, rhs = rref_rows(system)
    assert (np.column_stack([R, rhs])).tolist() == [[1, 0, 0, -1, -1, -1], [0, 1, 1, 1, 1, 1]]


def test_report_003_zero_rule_read_literally_is_wrong_on_report_002s_board():
    # Algorithm B: "if the last entry is zero, every variable that doesn't have a zero in the
    # row must be zero".  Report 002's row v3 - v6 - v8 = 0 would then make three cells safe
    # that are not forced; the signed row bound rule (rref) does not claim them.
    ex = EXAMPLES["002-one-one-two-two"]
    system = clue_system(ex.observation, use_total=True).merged()
    R, rhs = rref_rows(system)
    literal = set()
    for row, r in zip(R, rhs, strict=True):
        if r == 0:
            literal |= system.cells(np.flatnonzero(row))
    assert literal == {(0, 2), (0, 5), (1, 5)}
    assert not literal <= ex.safe
    assert claims(ex.observation, "rref")[0] <= ex.safe


def test_lstsq_makes_a_wrong_claim_and_certified_does_not():
    ex = EXAMPLES["lstsq-wrong-claim"]
    safe, mines = claims(ex.observation, "lstsq")
    assert safe == {(0, 0), (1, 0)} and not safe <= ex.safe
    assert claims(ex.observation, "lstsq-certified") == (set(), set())
    x, cells_ = lstsq.min_norm_solution(ex.observation)
    value = dict(zip(cells_, x, strict=True))
    assert abs(value[(0, 0)]) < 1e-12 and abs(value[(0, 2)] - 0.5) < 1e-12


def test_many_solutions_board_forces_nothing():
    obs = EXAMPLES["000-many-solutions"].observation
    for method in MINE:
        assert claims(obs, method) == (set(), set())


# --- totals, trivial boards, inconsistency, noise -----------------------------------------------


@pytest.mark.parametrize("method", ["trivial", "subset", "rref", "bounded", "gfp"])
def test_total_alone_decides_a_board_without_clues(method):
    full = Observation.from_text("???\n???", mines=6)
    empty = Observation.from_text("???\n???", mines=0)
    every = {(r, c) for r in range(2) for c in range(3)}
    assert claims(full, method) == (set(), every)
    assert claims(empty, method) == (every, set())
    assert claims(full, method, use_total=False) == (set(), set())


@pytest.mark.parametrize("method", MINE)
def test_nothing_covered_and_no_clues(method):
    assert claims(Observation.from_text("111\n1F1\n111", mines=1), method) == (set(), set())
    assert claims(Observation.from_text("??\n??", mines=2), method) == (set(), set())
    assert claims(Observation.from_text("??\n??"), method) == (set(), set())


@pytest.mark.parametrize("method", MINE)
@pytest.mark.parametrize(
    "text, mines",
    [
        ("?4\n??", None),  # more mines than covered neighbours
        ("121\n1F1\n111", None),  # a clue with no covered neighbour and the wrong count
        ("??\n11\n..", 3),  # the total exceeds the covered cells
    ],
)
def test_grid_level_contradictions_raise(method, text, mines):
    with pytest.raises(InconsistentPositionError):
        deduce(Observation.from_text(text, mines=mines), method)


@pytest.mark.parametrize("method", ["trivial", "subset", "rref", "bounded", "lstsq-certified", "gfp"])
def test_contradicting_clues_raise(method):
    # x0 + x1 = 1 and x0 + x1 + x2 = 3
    with pytest.raises(InconsistentPositionError):
        deduce(Observation.from_text("???\n131"), method)


def test_lstsq_raises_when_no_real_solution():
    # x0 + x1 = 1 twice from two clues, then x0 + x1 = 2: no real solution
    with pytest.raises(InconsistentPositionError):
        deduce(Observation.from_text("??\n12\n.."), "lstsq")


@pytest.mark.parametrize("method", ["subset", "rref", "bounded", "lstsq", "lstsq-certified", "gf2", "gfp"])
@pytest.mark.parametrize("noise", ["under", "over"])
def test_equality_methods_refuse_bound_noise(method, noise):
    obs = Observation.from_text("?1\n11", noise=noise)
    with pytest.raises(ValueError, match=noise):
        deduce(obs, method)


@pytest.mark.parametrize("method", MINE)
def test_lost_noise_is_read_as_missing_equations(method):
    obs = Observation.from_text("?1\n-1", noise="lost")
    assert claims(obs, method) == (set(), {(0, 0)})


def test_trivial_reads_noisy_clues_as_bounds():
    # under: shown <= truth, so a 1 with one covered neighbour is still a mine, and a 0 says nothing
    assert claims(Observation.from_text("?1\n11", noise="under"), "trivial") == (set(), {(0, 0)})
    assert claims(Observation.from_text("??\n0?", noise="under"), "trivial") == (set(), set())
    # over: shown >= truth, so a 0 (after known mines) proves safety and a full count proves nothing
    every = {(0, 0), (0, 1), (1, 1)}
    assert claims(Observation.from_text("??\n0?", noise="over"), "trivial") == (every, set())
    assert claims(Observation.from_text("?1\n11", noise="over"), "trivial") == (set(), set())
    with pytest.raises(InconsistentPositionError):
        deduce(Observation.from_text("F1F\n???", noise="over"), "trivial")


def test_methods_use_the_total():
    obs = Observation.from_text("??\n??", mines=4)
    for name in ("trivial", "subset", "rref", "bounded", "gfp"):
        assert claims(obs, name) == (set(), {(0, 0), (0, 1), (1, 0), (1, 1)}), name
        assert claims(obs, name, use_total=False) == (set(), set()), name
    # the total minus the second clue row determines x0 = 0 (over Q and over GF(2))
    obs = EXAMPLES["rref-one-pass-misses"].observation.with_mines(2)
    for name in ("lstsq-certified", "gf2"):
        assert claims(obs, name) == ({(0, 0)}, set()), name
        assert claims(obs, name, use_total=False) == (set(), set()), name


def test_options_are_checked():
    obs = Observation.from_text("?1\n11")
    with pytest.raises(ValueError, match="prime"):
        deduce(obs, "gfp", p=8)
    with pytest.raises(ValueError, match="engine"):
        deduce(obs, "gfp", engine="numpy")
    for tol in (0.7, None, "0.1", True):  # not a TypeError from the comparison
        with pytest.raises(ValueError, match=r"option tol of method 'lstsq' must be a number in \[0, 0.5\)"):
            deduce(obs, "lstsq", tol=tol)
    with pytest.raises(ValueError, match="method 'trivial' has no option 'iterate'; its options: none"):
        deduce(obs, "trivial", iterate=True)


# --- soundness against the oracle on random small positions -------------------------------------


def random_positions(seed: int, count: int):
    """Positions from real play on small boards (random safe reveals and flags), some
    with a corrupted clue (often inconsistent) and some noisy."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        h, w = int(rng.integers(2, 6)), int(rng.integers(2, 7))
        layout = rng.random((h, w)) < rng.uniform(0.1, 0.45)
        noise = [None, None, None, ("lost", 0.3), ("under", 0.3), ("over", 0.3)][int(rng.integers(6))]
        game = Game.from_layout(layout, noise=noise, seed=int(rng.integers(2**31)))
        for _ in range(int(rng.integers(1, h * w + 1))):
            r, c = int(rng.integers(h)), int(rng.integers(w))
            if game.status != "playing":
                break
            if not layout[r, c]:
                game.reveal(r, c)
            elif rng.random() < 0.5:
                game.flag(r, c)
        obs = game.observation
        grid = obs.grid.copy()
        if rng.random() < 0.15:
            clue = np.argwhere(grid >= 0)
            if len(clue):
                r, c = clue[rng.integers(len(clue))]
                grid[r, c] = rng.integers(0, 9)
        mines = obs.mines if rng.random() < 0.7 else None
        out.append(Observation(grid, mines=mines, noise=obs.noise))
    return out


POSITIONS = random_positions(2026, 400)


@pytest.mark.parametrize("chunk", range(5))
def test_sound_methods_never_claim_a_wrong_cell(chunk):
    checked = 0
    for obs in POSITIONS[chunk::5]:
        for use_total in (True, False):
            truth = truth_or_none(obs, use_total)
            for method in SOUND:
                if obs.noise in ("under", "over") and method != "trivial":
                    continue
                try:
                    safe, mines = claims(obs, method, use_total=use_total)
                except InconsistentPositionError:
                    assert truth is None, (method, use_total, obs)
                    continue
                if truth is not None:
                    assert safe <= truth[0] and mines <= truth[1], (method, use_total, obs)
                    checked += 1
    assert checked > 300


@pytest.mark.parametrize("p", [3, 5, 11])
def test_gfp_is_sound_for_other_primes(p):
    for obs in POSITIONS[:150]:
        if obs.noise in ("under", "over"):
            continue
        truth = truth_or_none(obs)
        try:
            safe, mines = claims(obs, "gfp", p=p)
        except InconsistentPositionError:
            assert truth is None, obs
            continue
        if truth is not None:
            assert safe <= truth[0] and mines <= truth[1], obs


def test_method_strength_orders_on_random_positions():
    for obs in POSITIONS[:200]:
        if obs.noise in ("under", "over"):
            continue
        truth = truth_or_none(obs)
        if truth is None:
            continue
        got = {m: claims(obs, m) for m in ("trivial", "subset", "bounded", "rref", "lstsq-certified")}
        got["rref-iterate"] = claims(obs, "rref", iterate=True)
        for weak, strong in [("trivial", "subset"), ("trivial", "bounded"), ("lstsq-certified", "rref"),
                             ("rref", "rref-iterate")]:
            assert got[weak][0] <= got[strong][0] and got[weak][1] <= got[strong][1], (weak, strong, obs)
        assert got["bounded"][0] <= truth[0]


# --- references: sympy for the exact RREF, galois for GF(p), scipy for determined cells -----------


@pytest.mark.parametrize("scale", [1, 2**12, 2**40], ids=["0/1 rows", "large entries", "past int64"])
def test_exact_rref_equals_sympy_on_random_systems(scale):
    """Both paths of exact_rref (compiled int64, python-flint when products could overflow) give the
    rational RREF rows, each scaled to coprime integers with a positive pivot."""
    rng = np.random.default_rng(7)
    for _ in range(60):
        m, n = int(rng.integers(1, 9)), int(rng.integers(1, 11))
        M = (rng.random((m, n)) < 0.4).astype(np.int64)
        M[:, -1] = rng.integers(0, 4, m)
        M = M.astype(object) * scale if scale > 2**31 else M * scale - (rng.random((m, n)) < 0.2)
        R = exact_rref(M)
        ref, _ = sympy.Matrix(M.tolist()).rref()
        ref_rows = [list(ref.row(i)) for i in range(ref.rows) if any(ref.row(i))]
        ours = []
        for row in R.tolist():
            pivot = next(v for v in row if v)
            assert pivot > 0 and math.gcd(*map(int, row)) == 1, row
            ours.append([sympy.Rational(int(v), int(pivot)) for v in row])
        assert ours == ref_rows


def _row_set(R, rhs, p=None):
    """Rows normalised to pivot 1 (exact rationals, or residues mod p), as a sorted list."""
    out = []
    for row in np.column_stack([R, rhs]).tolist():
        lead = next(int(v) for v in row if v)
        if p is None:
            out.append(tuple(sympy.Rational(int(v), lead) for v in row))
        else:
            inv = pow(lead, -1, p)
            out.append(tuple(int(v) * inv % p for v in row))
    return sorted(out)


@pytest.mark.parametrize("use_total", [False, True])
@pytest.mark.parametrize("p", [None, 2, 7])
def test_block_rref_equals_whole_rref(use_total, p):
    # rref_rows reduces the blocks separately and brings in the total row last:
    # its rows must be those of the RREF of the whole system (sympy / galois as references)
    import galois

    seen = compared = 0
    for obs in POSITIONS[:80]:
        if obs.noise in ("under", "over"):
            continue
        try:
            system = clue_system(obs, use_total=use_total).merged()
        except InconsistentPositionError:
            continue
        if system.A.shape[0] == 0:
            continue
        seen += system.has_total
        compared += 1
        R, rhs = rref_rows(system, p=p)
        M = np.column_stack([system.A, system.b])
        if p is None:
            ref = sympy.Matrix(M.tolist()).rref()[0]
            whole = [[ref[i, j] for j in range(ref.cols)] for i in range(ref.rows) if any(ref.row(i))]
            assert _row_set(R, rhs) == sorted(tuple(row) for row in whole), obs
        else:
            ref = np.asarray(galois.GF(p)(M % p).row_reduce(), dtype=np.int64)
            ref = ref[ref.any(axis=1)]
            assert _row_set(R, rhs, p) == _row_set(ref[:, :-1], ref[:, -1], p), obs
    assert seen > 20 or not use_total
    assert compared > 40


@pytest.mark.parametrize("p", [2, 7])
def test_flint_mod_p_rref_equals_galois(p):
    rng = np.random.default_rng(p)
    for _ in range(25):
        m, n = int(rng.integers(1, 8)), int(rng.integers(2, 10))
        M = rng.integers(0, p, (m, n))
        assert np.array_equal(rref_mod_p(M, p, engine="flint"), rref_mod_p(M, p, engine="galois"))


@pytest.mark.parametrize("p", [2, 3, 65521, 2097169, 2**31 - 1])
def test_compiled_mod_p_rref_equals_python_flint(p):
    """The compiled GF(p) elimination behind engine="flint" (p below 2**31) gives python-flint's rows."""
    import flint

    from sweeplab.methods._algebra import _flint_matrix

    rng = np.random.default_rng(p % 1000)
    for k in range(80):
        m, n = int(rng.integers(1, 10)), int(rng.integers(1, 12))
        M = rng.integers(0, p, (m, n)) * (rng.random((m, n)) < (0.3 if k % 2 else 0.8))
        R, rank = _flint_matrix(M, lambda a, b: flint.nmod_mat(a, b, p)).rref()
        want = [int(x) for x in R.entries()[: rank * n]]
        got = rref_mod_p(M, p)
        assert got.shape == (rank, n) and [int(x) for x in got.ravel()] == want


@pytest.mark.parametrize("method, options", [("gf2", {}), ("gfp", {"p": 7})])
def test_gf_engines_agree_on_positions(method, options):
    for obs in POSITIONS[:60]:
        if obs.noise in ("under", "over"):
            continue
        results = []
        for engine in ("flint", "galois"):
            try:
                results.append(claims(obs, method, engine=engine, **options))
            except InconsistentPositionError:
                results.append("inconsistent")
        assert results[0] == results[1], obs


def test_certified_cells_are_those_scipy_finds_determined():
    for obs in POSITIONS[:150]:
        if obs.noise in ("under", "over"):
            continue
        try:
            safe, mines = claims(obs, "lstsq-certified")
            x, cell_list = lstsq.min_norm_solution(obs)
        except InconsistentPositionError:
            continue
        if not cell_list:
            continue
        system = sweeplab.clue_system(obs)
        null = scipy.linalg.null_space(system.A.astype(float))
        determined = np.all(np.abs(null) < 1e-9, axis=1) if null.size else np.ones(len(cell_list), bool)
        float_claims = {cell_list[j] for j in np.flatnonzero(determined) if abs(x[j] - round(x[j])) < 1e-6}
        assert safe | mines == float_claims, obs
        for cell in safe:
            assert abs(x[cell_list.index(cell)]) < 1e-6
        for cell in mines:
            assert abs(x[cell_list.index(cell)] - 1) < 1e-6



def test_lstsq_on_the_merged_system_equals_the_plain_minimum_norm_solution():
    # the interior's identical columns are merged (scaled by sqrt(weight)); the solution must be
    # numpy.linalg.lstsq's on the plain clue system, cell by cell
    compared = 0
    for obs in POSITIONS[:200]:
        if obs.noise in ("under", "over"):
            continue
        try:
            x, cell_list = lstsq.min_norm_solution(obs)
        except InconsistentPositionError:
            continue
        system = sweeplab.clue_system(obs)
        if system.n_variables == 0:
            continue
        plain = np.linalg.lstsq(system.A.astype(float), system.b.astype(float), rcond=None)[0]
        assert cell_list == system.cells
        assert np.allclose(x, plain, atol=1e-9), obs
        compared += system.n_variables > system.n_frontier
    assert compared > 20


@pytest.mark.parametrize("p", [2, 3, 7, 2**31 - 1])
def test_rank_mod_p_matches_a_plain_elimination(p):
    """``gfp.rank_mod_p`` (notebook 4) against sympy's rank of the matrix reduced mod p over GF(p)."""
    from sweeplab.methods.gfp import rank_mod_p

    rng = np.random.default_rng(p % 1000)
    for _ in range(20):
        M = rng.integers(-3, 4, size=tuple(rng.integers(1, 7, 2)))
        over_gf_p = sympy.polys.matrices.DomainMatrix.from_Matrix(sympy.Matrix(M.tolist())).convert_to(
            sympy.GF(p))
        assert rank_mod_p(M, p=p) == over_gf_p.rank()
    with pytest.raises(ValueError, match="p must be a prime"):
        rank_mod_p([[1]], p=4)
    for bad in ([[0.5]], [["a"]], [[1, float("nan")]]):  # 0.5 was truncated to 0 (rank 0)
        with pytest.raises(ValueError, match="M must be a matrix of integers"):
            rank_mod_p(bad, p=2)
    assert rank_mod_p([[2.0, 1.0]], p=3) == 1 and rank_mod_p(np.array([[1, 3]], dtype=object), p=3) == 1
    # values past int64 are reduced exactly, not wrapped around
    assert rank_mod_p(np.array([[7 * 2**61]], dtype=np.uint64), p=7) == 0
    assert rank_mod_p(np.array([[7 * 2**70, 1]], dtype=object), p=7) == 1
    for big in (1.4e19, 2.0**53):  # whole floats, but not exact past 2**53: the message says so
        with pytest.raises(ValueError, match="past 2\\*\\*53 where floats stop being exact"):
            rank_mod_p([[1.0, big]], p=7)
    assert rank_mod_p([[2.0**53 - 1]], p=7) == 1


def test_bounded_propagates_the_original_rows_again_after_the_rref_rows():
    """Here one RREF pass proves three cells; propagating the original rows on what is left (then the RREF
    rows again, to a fixpoint) proves every forced cell, as the SAT oracle lists them."""
    obs = Observation.from_text("?11\n2??\n??1\n23?\n???", mines=4)
    safe, mines = forced(obs, use_total=True)
    d = deduce(obs, "bounded")
    assert (d.safe, d.mines) == (safe, mines)
    assert len(deduce(obs, "rref").cells) < len(safe | mines)


def test_the_total_never_costs_bounded_a_cell():
    """The total row changes the reduced basis; ``bounded`` reads the RREF rows with and without it, so
    on the committed corpus (it lost cells on 14 positions when it read only the rows with the total) and
    on random positions, it proves with the total every cell it proves from the clues alone."""
    corpus = load_corpus(Path(__file__).resolve().parent.parent / "data/corpus/corpus-small.jsonl.gz")
    positions = [(p.obs, True) for p in corpus]  # cut from real games: consistent
    positions += [(o, False) for o in adversarial_positions(1000, seed=36101, max_side=8, noise=False)]
    checked = 0
    for obs, consistent in positions:
        if obs.mines is None or obs.noise not in (None, "lost") or not (consistent or truth_or_none(obs)):
            continue
        alone, total = deduce(obs, "bounded", use_total=False), deduce(obs, "bounded")
        assert alone.safe <= total.safe and alone.mines <= total.mines, obs
        checked += 1
    assert checked > 800


@pytest.mark.parametrize("text", [
    "1?.",             # the 1 says x = 1, the 0 says x = 0: 0 = 1
    "?2?.",            # the 0 clears (0, 2), so the 2 says (0, 0) = 2
    "?3?\n3?1\n3?2\n??.",  # a unit row with the value 3/2
    "?2?\n3F3\nF?F",  # x + y = x + u = y + u = 1: the unit rows 2x = 1 (the pivot read as 1 claimed mines)
])
def test_lstsq_certified_refuses_a_system_with_no_0_1_value(text):
    obs = Observation.from_text(text)
    with pytest.raises(InconsistentPositionError):
        forced(obs, use_total=False)  # the oracle: no layout fits
    with pytest.raises(InconsistentPositionError):
        deduce(obs, "lstsq-certified", use_total=False, check_consistency=False)

"""The clue system A x = b (SPEC §2): the reports' examples and random positions."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sp
import sympy
from hypothesis import given
from hypothesis import strategies as st

from sweeplab import COVERED, FLAG, MINE, Game, Observation, clue_system, load_position

EXAMPLES = Path(__file__).resolve().parents[1] / "data" / "examples"


def solutions(system):
    """Every 0/1 solution of ``A x = b`` by brute force (small systems only)."""
    A, b = system.A, system.b
    return [x for x in itertools.product((0, 1), repeat=system.n_variables) if np.array_equal(A @ x, b)]


def forced(system):
    """(safe, mines) cells fixed in every 0/1 solution."""
    sols = np.array(solutions(system))
    cells = system.cells
    return ({cells[j] for j in np.flatnonzero((sols == 0).all(axis=0))},
            {cells[j] for j in np.flatnonzero((sols == 1).all(axis=0))})


def rref(system):
    return sympy.Matrix(system.A.tolist()).row_join(sympy.Matrix(system.b.tolist())).rref()[0].tolist()


# --- report 000 §2.4.1: the CSP example, constraints C1..C5 over a..g -------------------------

REPORT_000 = "\n".join(["...1" + "?" * 12, "1111" + "?" * 12] + ["?" * 16] * 14)
a, b, c, d, e, f, g = (0, 4), (1, 4), (2, 4), (2, 3), (2, 2), (2, 1), (2, 0)


def test_report_000_csp_example():
    obs = Observation.from_text(REPORT_000, mines=40)
    assert obs == load_position(EXAMPLES / "report000_csp.json")
    s = clue_system(obs, use_total=False)
    # the report's seven fringe variables x15, x25, x31..x35, row-major
    assert s.cells == (a, b, g, f, e, d, c)
    assert s.n_frontier == 7 and not s.has_total
    assert s.clues == ((0, 3), (1, 0), (1, 1), (1, 2), (1, 3))
    equations = {s.clues[i]: {s.cells[j] for j in np.flatnonzero(s.A[i])} for i in range(s.n_equations)}
    assert equations == {
        (0, 3): {a, b},  # C1: a+b = 1
        (1, 3): {e, d, a, b, c},  # C2: e+d+a+b+c = 1
        (1, 2): {f, e, d},  # C3: f+e+d = 1
        (1, 1): {g, f, e},  # C4: g+f+e = 1
        (1, 0): {g, f},  # C5: g+f = 1
    }
    assert s.b.tolist() == [1] * 5
    assert s.A.tolist() == [
        [1, 1, 0, 0, 0, 0, 0],
        [0, 0, 1, 1, 0, 0, 0],
        [0, 0, 1, 1, 1, 0, 0],
        [0, 0, 0, 1, 1, 1, 0],
        [1, 1, 0, 0, 1, 1, 1],
    ]
    # "g=0, f=1, e=0, d=0, c=0 and still left with a+b=1, which yields 2 solutions"
    sols = {tuple(x) for x in solutions(s)}
    assert sols == {(0, 1, 0, 1, 0, 0, 0), (1, 0, 0, 1, 0, 0, 0)}
    assert [comp.cells for comp in s.components()] == [s.cells]

    t = clue_system(obs)
    assert t.has_total and t.n_frontier == 7 and t.n_variables == 256 - 8
    assert t.A[-1].tolist() == [1] * 248 and t.b[-1] == 40
    assert t.A[:-1, :7].tolist() == s.A.tolist() and not t.A[:-1, 7:].any()
    assert t.cells[:7] == s.cells and list(t.cells[7:]) == sorted(t.cells[7:])
    assert t.clues[-1] is None
    assert [comp.cells for comp in t.components()] == [s.cells]


# --- report 001: A+B+C = 2 / 1 and A+B+C = 1, A+C+D = 2 -----------------------------------------


def test_report_001_knowledge_base_examples():
    # "A+B+C = 2; if we add A=0 (A is safe), then B and C are mines": A revealed without a number
    s = clue_system(Observation.from_text("?-?\n-2-"))
    assert s.cells == ((0, 0), (0, 2)) and s.A.tolist() == [[1, 1]] and s.b.tolist() == [2]
    assert forced(s) == (set(), {(0, 0), (0, 2)})
    # "A+B+C = 1; if we add A=1 (A is a mine), then B and C are safe": a flag or a revealed mine
    for mid in "F*":
        s = clue_system(Observation.from_text(f"?{mid}?\n-1-"))
        assert s.A.tolist() == [[1, 1]] and s.b.tolist() == [0]
        assert forced(s) == ({(0, 0), (0, 2)}, set())
    # "A+B+C = 1 and A+C+D = 2 ... D-B = 1 and therefore D = 1 and B = 0"; cells B A C D in a row
    s = clue_system(Observation.from_text("????\n-12-\n----"), use_total=False)
    B, A, C, D = (0, 0), (0, 1), (0, 2), (0, 3)
    assert s.cells == (B, A, C, D)
    assert s.A.tolist() == [[1, 1, 1, 0], [0, 1, 1, 1]] and s.b.tolist() == [1, 2]
    assert (s.A[1] - s.A[0]).tolist() == [-1, 0, 0, 1] and s.b[1] - s.b[0] == 1
    assert forced(s) == ({B}, {D})
    t = clue_system(Observation.from_text("????\n-12-\n----", mines=2))
    assert t.A.tolist() == [[1, 1, 1, 0], [0, 1, 1, 1], [1, 1, 1, 1]] and t.b.tolist() == [1, 2, 2]


# --- report 002: the two boards of Algorithm 1, with the report's RREF ----------------------------


def test_report_002_first_board():
    obs = load_position(EXAMPLES / "report002_board1.json")
    assert obs.to_text() == "????????\n?211221?"
    s = clue_system(obs, use_total=False)
    # v1..v10 "naming from left to right, top to bottom"
    assert s.cells == tuple((0, j) for j in range(8)) + ((1, 0), (1, 7))
    assert np.column_stack([s.A, s.b]).tolist() == [
        [1, 1, 1, 0, 0, 0, 0, 0, 1, 0, 2],
        [0, 1, 1, 1, 0, 0, 0, 0, 0, 0, 1],
        [0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 1],
        [0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 2],
        [0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 2],
        [0, 0, 0, 0, 0, 1, 1, 1, 0, 1, 1],
    ]
    assert rref(s) == [
        [1, 0, 0, 0, 0, 0, -1, 0, 1, 0, 1],
        [0, 1, 0, 0, 0, 0, 0, -1, 0, -1, 1],
        [0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 0],
        [0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 0],
        [0, 0, 0, 0, 1, 0, 0, -1, 0, -1, 1],
        [0, 0, 0, 0, 0, 1, 1, 1, 0, 1, 1],
    ]
    # v = (0,1,0,0,1,1,0,0,1,0) + t (1,0,0,0,0,0,0,0,-1,0), t in {0, 1}
    assert {tuple(x) for x in solutions(s)} == {
        (0, 1, 0, 0, 1, 1, 0, 0, 1, 0), (1, 1, 0, 0, 1, 1, 0, 0, 0, 0)}
    expected = load_position_expected("report002_board1.json")
    assert forced(s) == expected
    t = clue_system(obs)  # mines=4: every variable is on the frontier, the total row sums them all
    assert t.n_variables == 10 and t.A[-1].tolist() == [1] * 10 and t.b[-1] == 4
    assert forced(t) == expected


def test_report_002_second_board():
    obs = load_position(EXAMPLES / "report002_board2.json")
    s = clue_system(obs, use_total=False)
    assert s.cells == tuple((0, j) for j in range(6)) + ((1, 0), (1, 5))
    assert np.column_stack([s.A, s.b]).tolist() == [
        [1, 1, 1, 0, 0, 0, 1, 0, 1],
        [0, 1, 1, 1, 0, 0, 0, 0, 1],
        [0, 0, 1, 1, 1, 0, 0, 0, 2],
        [0, 0, 0, 1, 1, 1, 0, 1, 2],
    ]
    assert rref(s) == [
        [1, 0, 0, 0, 1, 1, 1, 1, 2],
        [0, 1, 0, 0, -1, 0, 0, 0, -1],
        [0, 0, 1, 0, 0, -1, 0, -1, 0],
        [0, 0, 0, 1, 1, 1, 0, 1, 2],
    ]
    # "v2 = 0, v5 = 1 as predicted, and this is basically all we know"
    assert forced(s) == load_position_expected("report002_board2.json") == ({(0, 1)}, {(0, 4)})
    t = clue_system(obs.with_mines(3))
    assert t.n_variables == 8 and t.b.tolist() == [1, 1, 2, 2, 3]


def load_position_expected(name):
    data = json.loads((EXAMPLES / name).read_text())["expected"]
    assert data["use_total"] is False
    return {tuple(x) for x in data["safe"]}, {tuple(x) for x in data["mines"]}


# --- small cases -------------------------------------------------------------------------------


def test_known_mines_lower_the_right_side():
    obs = Observation.from_text("F?*\n?3?\n???", mines=4)
    s = clue_system(obs, use_total=False)
    assert s.b.tolist() == [1]  # 3 minus the flag and the revealed mine
    assert s.n_variables == 6
    t = clue_system(obs)
    assert t.b.tolist() == [1, 2]  # total 4 minus the 2 known mines


def test_noclue_gives_no_equation_and_no_variable():
    s = clue_system(Observation.from_text("??\n-?\n1?"), use_total=False)
    assert s.clues == ((2, 0),) and s.cells == ((1, 1), (2, 1))


def test_degenerate_positions():
    s = clue_system(Observation.from_text("??\n??", mines=1))
    assert s.n_frontier == 0 and s.n_variables == 4 and s.A.tolist() == [[1, 1, 1, 1]] and s.b.tolist() == [1]
    assert s.components() == []
    s = clue_system(Observation.from_text("??\n??"))
    assert s.n_variables == 0 and s.n_equations == 0 and s.A.shape == (0, 0)
    s = clue_system(Observation.from_text("11\n11", mines=0))
    assert s.n_variables == 0 and s.n_equations == 0 and not s.has_total
    s = clue_system(Observation.from_text("1?1", mines=1), use_total=False)
    assert s.n_equations == 2 and s.components()[0].n_equations == 2


def test_variable_lookup():
    s = clue_system(Observation.from_text("?1.1?"))
    assert s.variable(0, 4) == 1 and s.variable(0, 0) == 0
    with pytest.raises(KeyError, match="not a variable"):
        s.variable(0, 2)
    with pytest.raises(KeyError, match="outside"):
        s.variable(3, 0)
    comp = s.components()[1]
    assert comp.cells == ((0, 4),) and comp.variable(0, 4) == 0
    with pytest.raises(KeyError):
        comp.variable(0, 0)
    assert "2 variables" in repr(s)


# --- random positions from real games -------------------------------------------------------


def random_position(seed):
    """A position met in play: random layout, random reveals, some correct flags, maybe mines hit."""
    rng = np.random.default_rng(seed)
    h, w = (int(x) for x in rng.integers(2, 11, size=2))
    layout = rng.random((h, w)) < rng.uniform(0.05, 0.35)
    game = Game.from_layout(layout, mode="score")
    for _ in range(int(rng.integers(1, 8))):
        if game.status != "playing":
            break
        r, c = (int(x) for x in rng.integers(0, (h, w)))
        cell = game.observation.grid[r, c]
        if cell == COVERED and layout[r, c] and rng.random() < 0.5:
            game.flag(r, c)
        elif cell == COVERED:
            game.reveal(r, c)
    return game.observation, layout


@given(st.integers(0, 2**32 - 1), st.booleans())
def test_rows_are_the_clues_and_the_layout_solves_them(seed, use_total):
    obs, layout = random_position(seed)
    s = clue_system(obs, use_total=use_total)
    grid = obs.grid
    h, w = grid.shape

    def nbrs(r, c):
        return [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                if (dr or dc) and 0 <= r + dr < h and 0 <= c + dc < w]

    expected_clues = [(r, c) for r in range(h) for c in range(w)
                      if grid[r, c] >= 0 and any(grid[n] == COVERED for n in nbrs(r, c))]
    frontier = sorted({n for rc in expected_clues for n in nbrs(*rc) if grid[n] == COVERED})
    assert s.cells[: s.n_frontier] == tuple(frontier)
    assert [cl for cl in s.clues if cl is not None] == expected_clues
    for i, (r, cl) in enumerate(zip(s.A, s.clues, strict=True)):
        if cl is None:
            covered = {tuple(map(int, x)) for x in np.argwhere(grid == COVERED)}
            assert {s.cells[j] for j in np.flatnonzero(r)} == covered
            assert s.b[i] == obs.mines - int(np.count_nonzero((grid == FLAG) | (grid == MINE)))
            continue
        assert {s.cells[j] for j in np.flatnonzero(r)} == {n for n in nbrs(*cl) if grid[n] == COVERED}
        assert s.b[i] == grid[cl] - sum(grid[n] in (FLAG, MINE) for n in nbrs(*cl))
    assert s.has_total == (use_total and bool((grid == COVERED).any()))
    if s.has_total:
        assert s.n_variables == int((grid == COVERED).sum()) and set(s.cells) == set(
            map(tuple, np.argwhere(grid == COVERED).tolist()))
    else:
        assert s.n_variables == s.n_frontier
    # the true layout satisfies every equation
    x = np.array([layout[cell] for cell in s.cells], dtype=np.int64)
    assert np.array_equal(s.A @ x, s.b)
    assert isinstance(s.A_sparse, sp.csr_array | sp.csr_matrix)
    assert np.array_equal(s.A_sparse.toarray(), s.A) and s.A.dtype == np.int64 and s.b.dtype == np.int64
    for j, cell in enumerate(s.cells):
        assert s.variable(*cell) == j


@given(st.integers(0, 2**32 - 1))
def test_components_partition_the_frontier(seed):
    obs, _ = random_position(seed)
    s = clue_system(obs)
    comps = s.components()
    cells = [cell for comp in comps for cell in comp.cells]
    assert sorted(cells) == sorted(s.cells[: s.n_frontier]) and len(cells) == len(set(cells))
    rows = [cl for comp in comps for cl in comp.clues]
    assert sorted(rows) == sorted(cl for cl in s.clues if cl is not None)
    owner = {cell: k for k, comp in enumerate(comps) for cell in comp.cells}
    for comp in comps:
        assert not comp.has_total and comp.n_frontier == comp.n_variables
        assert comp.A_sparse.has_canonical_format and comp.A_sparse.dtype == np.int64
        assert list(comp.cells) == sorted(comp.cells)
        for i, cl in enumerate(comp.clues):
            k = s.clues.index(cl)
            cols = [s.variable(*cell) for cell in comp.cells]
            assert s.A[k, cols].tolist() == comp.A[i].tolist() and comp.b[i] == s.b[k]
            assert s.A[k, : s.n_frontier].sum() == comp.A[i].sum()  # no variable outside the block
        # connected: the variables of one block are linked through its equations
        if comp.n_variables > 1:
            link = (comp.A.T @ comp.A) > 0
            seen, todo = {0}, [0]
            while todo:
                for j in np.flatnonzero(link[todo.pop()]):
                    if int(j) not in seen:
                        seen.add(int(j))
                        todo.append(int(j))
            assert len(seen) == comp.n_variables
    assert len(set(owner.values())) == len(comps)


@given(st.integers(0, 2**32 - 1), st.sampled_from([None, "lost", "under", "over"]), st.booleans())
def test_bounds_hold_the_truth_and_are_the_clues_as_spec_2_reads_them(seed, noise, use_total):
    """SPEC §2: under noise "under" a clue is a lower bound (``lo = b``, ``hi`` = its covered cells),
    under "over" an upper bound (``lo = 0``, ``hi = b``); exact rows and the total have ``lo = hi = b``."""
    obs, layout = random_position(seed)
    rng = np.random.default_rng(seed)
    grid = obs.grid.copy()
    clues = grid >= 0
    if noise == "under":  # shown <= truth
        grid[clues] -= rng.integers(0, 2, size=int(clues.sum())) * (grid[clues] > 0)
    elif noise == "over":  # shown >= truth
        grid[clues] += rng.integers(0, 2, size=int(clues.sum())) * (grid[clues] < 8)
    noisy = Observation(grid, mines=obs.mines, noise=noise)
    s = clue_system(noisy, use_total=use_total)
    x = np.array([layout[cell] for cell in s.cells], dtype=np.int64)
    assert ((s.lo <= s.A @ x) & (s.A @ x <= s.hi)).all()  # the true layout fits every bound
    for i, cl in enumerate(s.clues):
        exact = cl is None or noise in (None, "lost")
        assert s.lo[i] == (0 if not exact and noise == "over" else s.b[i])
        assert s.hi[i] == (int(s.A[i].sum()) if not exact and noise == "under" else s.b[i])


def test_check_counts_reads_each_noise_bound_on_its_own_side():
    """A 3 beside one covered cell: under "under" (shown <= truth) no layout reaches it; under "over"
    (shown >= truth) any layout does.  A 0 beside a flag: impossible under "over", possible under "under"."""
    from sweeplab import InconsistentPositionError

    with pytest.raises(InconsistentPositionError):
        clue_system(Observation.from_text("?3", noise="under")).check_counts()
    clue_system(Observation.from_text("?3", noise="over")).check_counts()
    with pytest.raises(InconsistentPositionError):
        clue_system(Observation.from_text("F0?", noise="over")).check_counts()
    clue_system(Observation.from_text("F0?", noise="under")).check_counts()

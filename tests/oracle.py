"""An independent exact oracle for the tests: SAT (python-sat) and plain brute force.

It never uses the code under test: the constraints are built here straight from
the grid (not from :func:`sweeplab.clue_system`), with a cardinality encoding
(``pysat.card``) for every clue and for the total.

* :func:`forced` -- the forced cells by two SAT calls per cell (cell = 0
  unsatisfiable -> mine; cell = 1 unsatisfiable -> safe), pruned by the models
  found on the way.
* :func:`probabilities` -- exact mine probabilities by model counting: SAT
  enumeration of the frontier models (each weighted by the binomial number of
  ways to place the remaining mines in the interior), or a plain brute force
  over every covered cell on tiny boards (:func:`brute_probabilities`).

Conventions (those of SPEC §4 and ``sweeplab.probabilities``):

* flags and revealed mines are known mines; ``NOCLUE`` cells give no equation;
* with ``obs.noise == "under"`` a clue is a lower bound on its mines, with
  ``"over"`` an upper bound;
* with the total, every layout of the covered cells consistent with the clues
  and the total is equally likely; without it (``use_total=False`` or no
  total) every layout of the covered cells consistent with the clues is
  equally likely, so interior cells have probability 1/2;
* an inconsistent position raises :class:`sweeplab.InconsistentPositionError`.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb

import numpy as np
from pysat.card import CardEnc, EncType
from pysat.formula import IDPool
from pysat.solvers import Solver

from sweeplab.positions import COVERED, FLAG, MINE, InconsistentPositionError

__all__ = ["Problem", "problem", "forced", "probabilities", "brute_probabilities", "count_frontier_models"]


class Problem:
    """Constraints of a position over its covered cells (plain Python, no sweeplab code).

    Attributes
    ----------
    cells : list of (int, int)
        Every covered (unflagged) cell, row-major.
    frontier : list of int
        Indices into ``cells`` of the cells next to a clue.
    constraints : list of (list of int, int, int)
        ``(variables, lo, hi)``: ``lo <= sum(x[v]) <= hi``.
    total : int or None
        Mines among ``cells`` when the total is used.
    """

    def __init__(self, obs, use_total: bool):
        grid = np.asarray(obs.grid)
        h, w = grid.shape
        self.shape = (h, w)
        self.cells = [(r, c) for r in range(h) for c in range(w) if grid[r, c] == COVERED]
        index = {cell: i for i, cell in enumerate(self.cells)}
        known = sum(1 for r in range(h) for c in range(w) if grid[r, c] in (FLAG, MINE))
        self.constraints: list[tuple[list[int], int, int]] = []
        self.consistent = True
        frontier = set()
        for r in range(h):
            for c in range(w):
                v = int(grid[r, c])
                if v < 0:
                    continue
                vars_, flags = [], 0
                for dr in (-1, 0, 1):
                    for dc in (-1, 0, 1):
                        rr, cc = r + dr, c + dc
                        if (dr or dc) and 0 <= rr < h and 0 <= cc < w:
                            g = int(grid[rr, cc])
                            if g == COVERED:
                                vars_.append(index[(rr, cc)])
                            elif g in (FLAG, MINE):
                                flags += 1
                need = v - flags
                if obs.noise == "under":
                    lo, hi = need, len(vars_)
                elif obs.noise == "over":
                    lo, hi = 0, need
                else:
                    lo, hi = need, need
                lo, hi = max(lo, 0), min(hi, len(vars_))
                if lo > hi:
                    self.consistent = False
                    continue
                if vars_ and (lo > 0 or hi < len(vars_)):
                    self.constraints.append((vars_, lo, hi))
                frontier.update(vars_)
        self.frontier = sorted(frontier)
        self.total = None
        if use_total and obs.mines is not None:
            self.total = obs.mines - known
            if not 0 <= self.total <= len(self.cells):
                self.consistent = False

    @property
    def interior(self) -> list[int]:
        f = set(self.frontier)
        return [i for i in range(len(self.cells)) if i not in f]

    def satisfied(self, x) -> bool:
        """Whether a 0/1 vector over ``cells`` meets every constraint (and the total)."""
        if not self.consistent:
            return False
        for vars_, lo, hi in self.constraints:
            s = sum(x[v] for v in vars_)
            if not lo <= s <= hi:
                return False
        return self.total is None or sum(x) == self.total


def problem(obs, *, use_total: bool = True) -> Problem:
    return Problem(obs, use_total)


def _solver(p: Problem, variables: list[int]) -> tuple[Solver, IDPool]:
    """A SAT solver over ``variables`` (indices into p.cells); literal of cell i is i + 1."""
    pool = IDPool(start_from=len(p.cells) + 1)
    s = Solver(name="cadical153")
    # Every cell gets a literal (even if unconstrained) so models cover them all.
    for vars_, lo, hi in p.constraints:
        lits = [v + 1 for v in vars_]
        if lo > 0:
            s.append_formula(CardEnc.atleast(lits, bound=lo, vpool=pool, encoding=EncType.seqcounter).clauses)
        if hi < len(lits):
            s.append_formula(CardEnc.atmost(lits, bound=hi, vpool=pool, encoding=EncType.seqcounter).clauses)
    if p.total is not None:
        lits = [v + 1 for v in variables]
        if p.total == 0:
            s.append_formula([[-lit] for lit in lits])
        elif p.total == len(lits):
            s.append_formula([[lit] for lit in lits])
        else:
            enc = CardEnc.equals(lits, bound=p.total, vpool=pool, encoding=EncType.kmtotalizer)
            s.append_formula(enc.clauses)
    return s, pool


def forced(obs, *, use_total: bool = True) -> tuple[set, set]:
    """The cells every consistent layout agrees on: ``(safe, mines)``.

    Without the total, interior cells are never forced (either value fits).

    Raises
    ------
    InconsistentPositionError
        When no layout fits.
    """
    p = problem(obs, use_total=use_total)
    if not p.consistent:
        raise InconsistentPositionError("oracle: a clue or the total is out of range")
    variables = list(range(len(p.cells))) if p.total is not None else p.frontier
    if not variables:
        return set(), set()
    s, _ = _solver(p, list(range(len(p.cells))))
    try:
        if not s.solve():
            raise InconsistentPositionError("oracle: no layout fits the clues")
        model = set(lit for lit in s.get_model() if lit > 0)
        value = {v: int((v + 1) in model) for v in variables}
        undecided = set(variables)
        seen = {v: {value[v]} for v in variables}
        out_safe, out_mines = set(), set()
        for v in variables:
            if v not in undecided:
                continue
            flip = 1 - value[v]
            lit = v + 1 if flip else -(v + 1)
            if s.solve(assumptions=[lit]):
                m = set(x for x in s.get_model() if x > 0)
                for u in list(undecided):
                    seen[u].add(int((u + 1) in m))
                    if len(seen[u]) == 2:
                        undecided.discard(u)
            else:
                undecided.discard(v)
                (out_mines if value[v] else out_safe).add(p.cells[v])
        return out_safe, out_mines
    finally:
        s.delete()


def count_frontier_models(obs, *, use_total: bool = True, limit: int = 20_000):
    """Enumerate the frontier models with SAT (blocking clauses), by number of frontier mines.

    Returns ``(problem, counts, cell_counts)`` with ``counts[k]`` the number of
    frontier models with ``k`` mines and ``cell_counts[i][k]`` those where frontier
    cell ``i`` is a mine; ``None`` when there are more than ``limit`` models.
    The total is applied afterwards (by the caller), not inside the SAT model.
    """
    p = problem(obs, use_total=False)
    if not p.consistent:
        raise InconsistentPositionError("oracle: a clue is out of range")
    nf = len(p.frontier)
    counts = [0] * (nf + 1)
    cell_counts = [[0] * (nf + 1) for _ in range(nf)]
    if nf == 0:
        counts[0] = 1
        return p, counts, cell_counts
    p.total = None
    s, _ = _solver(p, p.frontier)
    n = 0
    try:
        while s.solve():
            m = set(lit for lit in s.get_model() if lit > 0)
            bits = [int((v + 1) in m) for v in p.frontier]
            k = sum(bits)
            counts[k] += 1
            for i, b in enumerate(bits):
                if b:
                    cell_counts[i][k] += 1
            s.add_clause([-(v + 1) if b else (v + 1) for v, b in zip(p.frontier, bits, strict=True)])
            n += 1
            if n > limit:
                return None
    finally:
        s.delete()
    return p, counts, cell_counts


def probabilities(obs, *, use_total: bool = True, limit: int = 20_000):
    """Exact mine probabilities (``Fraction`` arithmetic) as a float array, or ``None`` past ``limit`` models.

    ``nan`` on revealed cells, 1 on flags and revealed mines.

    Raises
    ------
    InconsistentPositionError
        When no layout fits.
    """
    res = count_frontier_models(obs, limit=limit)
    if res is None:
        return None
    p, counts, cell_counts = res
    n_cells = len(p.cells)
    interior = n_cells - len(p.frontier)
    grid = np.asarray(obs.grid)
    known = int(np.count_nonzero((grid == FLAG) | (grid == MINE)))
    total = obs.mines - known if (use_total and obs.mines is not None) else None
    if total is not None:
        weight = [comb(interior, total - k) if 0 <= total - k <= interior else 0 for k in range(len(counts))]
        # Expected interior mines, per interior cell: (total - k) / interior.
        interior_num = sum(
            Fraction(counts[k] * weight[k] * (total - k), interior) for k in range(len(counts))
        ) if interior else Fraction(0)
    else:
        weight = [2**interior] * len(counts)
        interior_num = None
    Z = sum(c * w for c, w in zip(counts, weight, strict=True))
    if Z == 0:
        raise InconsistentPositionError("oracle: no layout fits the clues and the total")
    out = np.full(grid.shape, np.nan)
    out[(grid == FLAG) | (grid == MINE)] = 1.0
    for i, v in enumerate(p.frontier):
        num = sum(cc * w for cc, w in zip(cell_counts[i], weight, strict=True))
        out[p.cells[v]] = float(Fraction(num, Z))
    for v in p.interior:
        out[p.cells[v]] = 0.5 if interior_num is None else float(interior_num / Z)
    return out


def brute_probabilities(obs, *, use_total: bool = True, max_cells: int = 18):
    """Probabilities by a plain loop over every layout of every covered cell (tiny boards only)."""
    p = problem(obs, use_total=use_total)
    n = len(p.cells)
    if n > max_cells:
        raise ValueError(f"{n} covered cells is too many for the brute-force oracle (max {max_cells})")
    grid = np.asarray(obs.grid)
    hits = [0] * n
    Z = 0
    for x in itertools.product((0, 1), repeat=n):
        if p.satisfied(x):
            Z += 1
            for i, b in enumerate(x):
                hits[i] += b
    if Z == 0:
        raise InconsistentPositionError("oracle: no layout fits")
    out = np.full(grid.shape, np.nan)
    out[(grid == FLAG) | (grid == MINE)] = 1.0
    for i, cell in enumerate(p.cells):
        out[cell] = hits[i] / Z
    return out


def brute_forced(obs, *, use_total: bool = True, max_cells: int = 18) -> tuple[set, set]:
    """Forced cells by the same plain loop (tiny boards only)."""
    prob = brute_probabilities(obs, use_total=use_total, max_cells=max_cells)
    p = problem(obs, use_total=use_total)
    safe = {c for c in p.cells if prob[c] == 0.0}
    mines = {c for c in p.cells if prob[c] == 1.0}
    return safe, mines

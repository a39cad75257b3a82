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


def _solver(p: Problem, frontier_range: tuple[int, int] | None = None) -> Solver:
    """A SAT solver for the clues; literal of cell i is i + 1.

    ``frontier_range = (lo, hi)`` adds ``lo <= mines on the frontier <= hi``:
    with the total, the interior holds the rest, so the frontier must hold
    between ``total - interior`` and ``total`` mines.
    """
    pool = IDPool(start_from=len(p.cells) + 1)
    s = Solver(name="cadical153")
    bounds = [(vars_, lo, hi) for vars_, lo, hi in p.constraints]
    if frontier_range is not None:
        bounds.append((p.frontier, *frontier_range))
    for vars_, lo, hi in bounds:
        lits = [v + 1 for v in vars_]
        if lo > len(lits) or hi < 0 or lo > hi:
            s.add_clause([1])
            s.add_clause([-1])  # unsatisfiable
            continue
        if lo > 0:
            s.append_formula(CardEnc.atleast(lits, bound=lo, vpool=pool, encoding=EncType.seqcounter).clauses)
        if hi < len(lits):
            s.append_formula(CardEnc.atmost(lits, bound=hi, vpool=pool, encoding=EncType.seqcounter).clauses)
    return s


def _sat(p: Problem, frontier_range: tuple[int, int]) -> bool:
    s = _solver(p, frontier_range)
    try:
        return bool(s.solve())
    finally:
        s.delete()


def forced(obs, *, use_total: bool = True) -> tuple[set, set]:
    """The cells every consistent layout agrees on: ``(safe, mines)``.

    Without the total, interior cells (next to no informative clue) are never
    forced.  With it, they are exchangeable: they are forced safe when no model
    leaves a mine for them, mined when no model leaves them a free cell.

    Raises
    ------
    InconsistentPositionError
        When no layout fits.
    """
    p = problem(obs, use_total=use_total)
    if not p.consistent:
        raise InconsistentPositionError("oracle: a clue or the total is out of range")
    variables = p.frontier
    n_int = len(p.interior)
    rng = None if p.total is None else (p.total - n_int, p.total)
    s = _solver(p, rng)
    out_safe, out_mines = set(), set()
    try:
        if not s.solve():
            raise InconsistentPositionError("oracle: no layout fits the clues")
        model = set(lit for lit in s.get_model() if lit > 0)
        value = {v: int((v + 1) in model) for v in variables}
        undecided = set(variables)
        seen = {v: {value[v]} for v in variables}
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
    finally:
        s.delete()
    if p.total is not None and n_int:
        interior = {p.cells[v] for v in p.interior}
        if not _sat(p, (p.total - n_int, p.total - 1)):
            out_safe |= interior
        if not _sat(p, (p.total - n_int + 1, p.total)):
            out_mines |= interior
    return out_safe, out_mines


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
    s = _solver(p)
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


def _brute(obs, use_total: bool, max_cells: int):
    """``(problem, Z, hits)``: layouts that fit, and per covered cell those with a mine there, by a
    plain loop over every layout of every covered cell (tiny boards only)."""
    p = problem(obs, use_total=use_total)
    n = len(p.cells)
    if n > max_cells:
        raise ValueError(f"{n} covered cells is too many for the brute-force oracle (max {max_cells})")
    hits = [0] * n
    Z = 0
    for x in itertools.product((0, 1), repeat=n):
        if p.satisfied(x):
            Z += 1
            for i, b in enumerate(x):
                hits[i] += b
    return p, Z, hits


def brute_count(obs, *, use_total: bool = True, max_cells: int = 18) -> int:
    """The number of layouts of the covered cells that fit (with the total, or any number of mines)."""
    return _brute(obs, use_total, max_cells)[1]


def brute_probabilities(obs, *, use_total: bool = True, max_cells: int = 18):
    """Probabilities by a plain loop over every layout of every covered cell (tiny boards only)."""
    p, Z, hits = _brute(obs, use_total, max_cells)
    grid = np.asarray(obs.grid)
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


def play_positions(level=None, *, shape=None, mines=None, seed=0, n=10, mode="classic", noise=None,
                   flag_rate=0.3, wander=0.1):
    """Mid-game positions from seeded play (test scaffolding: it peeks at the layout).

    A game is played by revealing safe cells next to the revealed area (with
    probability ``wander`` a safe cell anywhere; in score mode sometimes a
    mine) and flagging some true mines; a snapshot is taken after a random
    number of moves.  Yields ``n`` observations.
    """
    from sweeplab import new_game
    from sweeplab.game import Game
    from sweeplab.positions import neighbour_counts

    rng = np.random.default_rng(seed)
    made = 0
    while made < n:
        game_seed = int(rng.integers(2**31))
        if level is not None:
            g = new_game(level, seed=game_seed, mode=mode, noise=noise)
        else:
            g = Game(shape, mines, mode=mode, noise=noise, seed=game_seed)
        h, w = g.shape
        g.reveal(int(rng.integers(h)), int(rng.integers(w)))
        stop = int(rng.integers(1, 60))
        for _ in range(stop):
            if g.status != "playing":
                break
            grid = g.observation.grid
            lay = g.layout
            covered = grid == COVERED
            near = neighbour_counts(~covered & (grid != FLAG)) > 0
            if mode == "score" and rng.random() < 0.05:
                pool = np.argwhere(covered & lay)
            elif rng.random() < wander:
                pool = np.argwhere(covered & ~lay)
            else:
                pool = np.argwhere(covered & ~lay & near)
            if len(pool) == 0:
                pool = np.argwhere(covered & ~lay)
            if len(pool) == 0:
                break
            r, c = pool[rng.integers(len(pool))]
            g.reveal(int(r), int(c))
            if g.status == "playing" and rng.random() < flag_rate:
                cand = np.argwhere((g.observation.grid == COVERED) & lay & near)
                if len(cand):
                    r, c = cand[rng.integers(len(cand))]
                    g.flag(int(r), int(c))
        obs = g.observation
        if (obs.grid == COVERED).any():
            made += 1
            yield obs

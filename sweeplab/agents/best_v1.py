"""``best-v1``: the ``best`` agent as before issue 13 (kept to measure gains on the same games).

Frozen: same moves for the same observation and random generator as ``best``
at commit 08c5ce4.  Its description, as then:

The strongest agent here: exact probabilities, progress-aware guesses, endgame search.

- Forced cells: the single-clue rules, then exact enumeration with the total
  (complete: a cell is opened or flagged exactly when every layout agrees).
- Guess: among the covered cells whose exact mine probability (every layout
  consistent with the clues and the total equally likely) is within
  ``tolerance`` of the lowest, prefer a "dead" cell (no covered neighbour: no
  later move can inform it, so an unavoidable guess is taken early), else the
  cell maximising ``P(safe) * (1 + progress_weight * P(progress))``, where
  ``P(progress)`` is the chance that its number settles all its covered
  neighbours (all safe or all mines; neighbours taken as independent).
  The ``lookahead`` best of those are then scored two steps deep:
  ``P(safe) * E[safety of the next move]`` over the numbers they may show,
  each analysed exactly.  Measured on 250 expert games (same seeds): 41.0%
  without lookahead, 45.0% with it.
- Endgame: when few layouts remain (at most ``endgame_layouts`` over at most
  ``endgame_cells`` covered cells), search every sequence of reveals over the
  layouts themselves and open the cell with the highest win probability
  (250 expert games: 44.4% without the search, 46.8% with it).
- First move ``"auto"``: the corner, or (2, 2) when the first click is a zero.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from math import comb
from types import MappingProxyType
from typing import ClassVar

import numpy as np

from ..clue_system import clue_system
from ..errors import InconsistentPositionError, MethodRefused
from ..methods import deduce
from ..methods._common import NO_CAP
from ..positions import COVERED, FLAG, MINE, Observation, neighbour_sum, neighbour_table
from .base import FirstMove, random_covered
from .probability import ProbabilityAgent

__all__ = ["BestV1Agent", "endgame_layouts", "endgame_choice", "frontier_solutions", "MAX_ENDGAME_LAYOUTS"]

#: Most layouts the endgame search may hold (option ``endgame_layouts``): it lists them all, so a limit
#: past the layouts of a position (up to 10^18 over 64 cells) would never finish; the strongest setting
#: tried (issue 13) held 10,000.
MAX_ENDGAME_LAYOUTS = 1_000_000

Cell = tuple[int, int]


def frontier_solutions(system, *, limit: int, max_nodes: int) -> list[list[int]] | None:
    """Every 0/1 solution of the clue equations (depth-first, pruned by each equation's bounds).

    ``None`` beyond ``limit`` solutions or ``max_nodes`` search nodes.
    """
    n = system.n_variables
    A = system.A
    rows_of = [np.flatnonzero(A[:, j]).tolist() for j in range(n)]
    need = system.b.astype(int).tolist()
    free = A.sum(axis=1).astype(int).tolist()
    value = [0] * n
    out: list[list[int]] = []
    nodes = 0

    def place(j: int) -> bool:
        nonlocal nodes
        if j == n:
            out.append(value.copy())
            return len(out) <= limit
        for v in (0, 1):
            nodes += 1
            if nodes > max_nodes:
                return False
            ok = True
            for r in rows_of[j]:
                need[r] -= v
                free[r] -= 1
                if need[r] < 0 or need[r] > free[r]:
                    ok = False
            if ok:
                value[j] = v
                if not place(j + 1):
                    for r in rows_of[j]:
                        need[r] += v
                        free[r] += 1
                    return False
            for r in rows_of[j]:
                need[r] += v
                free[r] += 1
        return True

    return out if place(0) else None


def endgame_layouts(obs: Observation, *, max_cells: int = 48, max_layouts: int = 400):
    """Every mine layout of the covered cells consistent with the clues and total.

    The frontier is solved depth-first; each frontier solution with ``s``
    mines is completed by every placement of the remaining mines among the
    interior cells.  Returns ``(cells, layouts)``: the covered cells
    (row-major) and a boolean array with one row per consistent layout;
    ``None`` when the position is too big (more than ``max_cells`` covered
    cells or more than ``max_layouts`` layouts), the total is unknown, or clues
    are bounds.

    Examples
    --------
    >>> cells, layouts = endgame_layouts(Observation.from_text("1?\\n??", mines=1))
    >>> cells, layouts.astype(int).tolist()
    ([(0, 1), (1, 0), (1, 1)], [[0, 0, 1], [0, 1, 0], [1, 0, 0]])
    """
    split = covered_split(obs, max_cells=max_cells)
    if split is None:
        return None
    cells, k, front, interior, system = split
    n = len(cells)
    solutions = frontier_solutions(system, limit=max_layouts, max_nodes=50 * max_layouts + 2000)
    if solutions is None:
        return None
    sizes = [sum(sol) for sol in solutions]
    counts = completions(sizes, mines_left=k, interior=len(interior))
    if sum(counts) > max_layouts:
        return None
    rows = []
    for sol, m, count in zip(solutions, sizes, counts, strict=True):
        if not count:  # its other mines do not fit among the interior cells
            continue
        for chosen in itertools.combinations(interior, k - m):
            layout = np.zeros(n, dtype=bool)
            layout[[j for j, v in zip(front, sol, strict=True) if v]] = True
            layout[list(chosen)] = True
            rows.append(layout)
    return cells, np.array(rows, dtype=bool).reshape(len(rows), n)


def covered_split(obs: Observation, *, max_cells: int):
    """The covered cells of a position split into frontier and interior, for the endgame searches.

    Returns ``(cells, k, front, interior, system)``: the covered cells
    (row-major), the mines left among them, the indices into ``cells`` of
    the frontier cells in the order of ``system`` (the clue system without
    the total) and of the other covered cells; ``None`` when the total is
    unknown, clues are bounds, no cell or more than ``max_cells`` are
    covered, or no count of mines fits.
    """
    if obs.mines is None or obs.noise in ("under", "over"):
        return None
    grid = obs.grid
    w = grid.shape[1]
    cov = np.flatnonzero(grid.ravel() == COVERED)
    n = cov.size
    k = obs.mines - int(np.count_nonzero((grid == FLAG) | (grid == MINE)))
    if n == 0 or n > max_cells or not 0 <= k <= n:
        return None
    system = clue_system(obs, use_total=False)
    col = {int(i): j for j, i in enumerate(cov)}
    front = [col[r * w + c] for r, c in system.cells]
    on_front = set(front)
    interior = [j for j in range(n) if j not in on_front]
    cells = [(int(i) // w, int(i) % w) for i in cov]
    return cells, k, front, interior, system


def completions(sizes, *, mines_left: int, interior: int) -> list[int]:
    """How many layouts each frontier solution stands for: ``C(interior, mines_left - m)`` for one
    with ``m`` mines (its other mines anywhere among the ``interior`` cells off the frontier), 0
    where they do not fit."""
    return [comb(interior, mines_left - m) if 0 <= mines_left - m <= interior else 0 for m in sizes]


def endgame_choice(obs: Observation, layouts: np.ndarray, cells: list[Cell], *, budget: int = 20_000,
                   prune: bool = False):
    """The covered cell whose reveal maximises the win probability, by exhaustive search.

    Revealing a cell shows its number, which splits the layouts; cells safe in
    every remaining layout are opened for free (their numbers split further).
    Openings of zeros are not simulated (the search then slightly undervalues
    them).  Returns ``(cell, win_probability)`` or ``None`` when the search
    exceeds ``budget`` nodes.

    With ``prune``, reveals are tried safest first and a reveal less safe than
    the best win probability found is not searched (its value is at most its
    safety), and positions are memoised on the layouts left alone (what was
    revealed adds nothing to them): the same choice and value when the search
    completes, in far fewer nodes, and compiled
    (:mod:`sweeplab.agents._endgame_kernels`).  ``best-v1`` searches without
    it, as it did.
    """
    if layouts.shape[0] == 0:
        return None
    shape = obs.shape
    table = neighbour_table(shape)
    grid = obs.grid.ravel()
    known = ((grid == FLAG) | (grid == MINE)).astype(np.int64)
    pos = {r * shape[1] + c: j for j, (r, c) in enumerate(cells)}
    n = len(cells)
    # values[l, j]: the number cell j shows in layout l (if safe).
    nb_cols = np.zeros((n, n), dtype=np.int64)
    base = np.zeros(n, dtype=np.int64)
    for j, (r, c) in enumerate(cells):
        for i in table[r * shape[1] + c]:
            if i < 0:
                continue
            if int(i) in pos:
                nb_cols[j, pos[int(i)]] = 1
            base[j] += known[i]
    values = layouts.astype(np.int64) @ nb_cols.T + base
    if prune:
        return _pruned_choice(layouts, values, cells, budget)
    # Sets of layouts are Python ints used as bitsets (bit l: layout l): a node of the search
    # costs a few integer operations instead of numpy calls on small arrays.
    mines_in = [_bits(layouts[:, j]) for j in range(n)]
    shows = [[_bits(values[:, j] == v) for v in np.unique(values[:, j])] for j in range(n)]
    memo: dict = {}
    nodes = [0]

    def win(S: int, revealed: frozenset, candidates: list[int]) -> float:
        """Win probability from layouts ``S``; ``candidates`` holds every cell that may still
        matter (a cell always a mine in ``S``, or safe and revealed, stays so in every subset)."""
        key = (S, revealed)
        if key in memo:
            return memo[key]
        nodes[0] += 1
        if nodes[0] > budget:
            raise _Budget
        size = S.bit_count()
        undetermined, live, free = [], [], -1
        for j in candidates:
            m = mines_in[j] & S
            if m:
                if m != S:
                    undetermined.append(j)
                    live.append(j)
            elif j not in revealed:
                live.append(j)
                if free < 0:
                    free = j
        if not undetermined:
            memo[key] = 1.0
            return 1.0
        if free >= 0:  # free information: a safe, unrevealed cell whose number may differ
            rev = revealed | {free}
            parts = (S & m for m in shows[free])  # the layouts grouped by the number it shows
            value = sum(P.bit_count() * win(P, rev, live) for P in parts if P) / size
            memo[key] = value
            return value
        best = 0.0
        for j in undetermined:
            rev = revealed | {j}
            safe = S & ~mines_in[j]
            value = sum(P.bit_count() * win(P, rev, live) for P in (safe & m for m in shows[j]) if P) / size
            best = max(best, value)
        memo[key] = best
        return best

    S0 = (1 << layouts.shape[0]) - 1
    everything = list(range(n))
    try:
        scored: list[tuple[float, int]] = []
        for j in range(n):
            if not mines_in[j] or mines_in[j] == S0:
                continue
            parts = ((S0 & ~mines_in[j]) & m for m in shows[j])
            value = sum(P.bit_count() * win(P, frozenset({j}), everything) for P in parts if P)
            scored.append((value / layouts.shape[0], -j))
    except _Budget:
        return None
    if not scored:
        return None
    value, j = max(scored)
    return cells[-j], value


def _pruned_choice(layouts: np.ndarray, values: np.ndarray, cells: list[Cell], budget: int):
    """:func:`endgame_choice` with ``prune``: the compiled search on bitsets of 64-bit words."""
    from ._endgame_kernels import pruned_search  # numba: imported on first use

    n_layouts, n = layouts.shape
    if n == 0:
        return None
    n_words = -(-n_layouts // 64)

    def words(masks: np.ndarray) -> np.ndarray:
        """Boolean ``(n_layouts, k)`` columns as ``(k, n_words)`` bitsets (bit ``l``: row ``l``)."""
        packed = np.zeros((8 * n_words, masks.shape[1]), dtype=np.uint8)
        packed[: -(-n_layouts // 8)] = np.packbits(masks, axis=0, bitorder="little")
        return np.ascontiguousarray(packed.T).view("<u8")

    mines = words(layouts)
    numbers = [np.unique(values[:, j]) for j in range(n)]
    n_parts = np.array([v.size for v in numbers], dtype=np.int64)
    shows = np.zeros((n, int(n_parts.max()), n_words), dtype=np.uint64)
    for j, v in enumerate(numbers):
        shows[j, : v.size] = words(values[:, [j]] == v[None, :])
    # a budget past int64 is no budget (NO_CAP nodes are never searched)
    moves, scores, complete = pruned_search(mines, shows, n_parts, n_layouts, int(min(budget, NO_CAP)))
    if not complete or moves.size == 0:
        return None
    top = float(scores.max())
    # ties (to rounding: sums taken in another order) go to the first cell
    first = int(moves[scores >= top - 1e-12].min())
    return cells[first], top


def _bits(mask: np.ndarray) -> int:
    """A boolean vector as an int with bit ``l`` set where ``mask[l]``."""
    return int.from_bytes(np.packbits(mask, bitorder="little").tobytes(), "little")


class _Budget(Exception):
    pass


@dataclass(frozen=True)
class BestV1Agent(ProbabilityAgent):
    """``best`` before issue 13: exact probabilities, progress-aware guessing and an exhaustive endgame.

    Its options ``use_total``, ``methods``, ``max_nodes`` and ``noise_aware`` are
    :class:`~sweeplab.agents.probability.ProbabilityAgent`'s and
    :class:`~sweeplab.agents.base.Agent`'s; ``sweeplab agents best-v1`` lists every option.

    Parameters
    ----------
    first_move : default "auto"
        The corner (where published rates start), or (2, 2) under the "zero"
        first-click rule (see :meth:`Agent.for_rules`).
    tolerance : float, default 0.03
        Cells whose mine probability is within this of the lowest compete on progress.
    progress_weight : float, default 0.5
        Weight of the chance that a guess settles its neighbours.
    endgame_cells : int, default 32
        The most covered cells (flags not counted) of a position whose
        endgame is searched exhaustively (0: never).
    endgame_layouts : int, default 400
        The most layouts of a position whose endgame is searched
        exhaustively (at most :data:`MAX_ENDGAME_LAYOUTS`).
    lookahead : int, default 5
        How many of the best-scored candidates get the two-step value
        (0 or 1: none).
    endgame_budget : int, default 20_000
        Search nodes of the endgame search before it gives up (the guess rules then decide).
    """

    first_move: FirstMove = "auto"
    tolerance: float = 0.03
    progress_weight: float = 0.5
    endgame_cells: int = 32
    endgame_layouts: int = 400
    lookahead: int = 5
    endgame_budget: int = 20_000
    name = "best-v1"
    option_limits = MappingProxyType({
        **ProbabilityAgent.option_limits, "tolerance": (0, None), "progress_weight": (None, None),
        "endgame_cells": (0, None), "endgame_layouts": (0, MAX_ENDGAME_LAYOUTS), "lookahead": (0, None),
        "endgame_budget": (0, None)})
    # What ``best`` changed (issue 13): the endgame search pruned (same choices when it completes,
    # and it completes more often), and no longer "a safest cell with no covered neighbour at once".
    prune_endgame: ClassVar[bool] = False
    isolated_first: ClassVar[bool] = True

    def guess(self, obs: Observation, rng: np.random.Generator, p: np.ndarray | None = None):
        grid = obs.grid
        covered = grid == COVERED
        if self.endgame_layouts > 0 and self.use_total:
            listed = endgame_layouts(obs, max_cells=self.endgame_cells, max_layouts=self.endgame_layouts)
            if listed is not None and 0 < listed[1].shape[0] <= self.endgame_layouts:
                choice = endgame_choice(obs, listed[1], listed[0], budget=self.endgame_budget,
                                        prune=self.prune_endgame)
                if choice is not None:
                    return choice[0]
        if p is None or not np.isfinite(p[covered]).all():  # no exact probabilities: report 004's rule
            return super().guess(obs, rng, p)
        low = p[covered].min()
        cand = covered & (p <= low + self.tolerance)
        n_cov = neighbour_sum(covered.astype(np.float64))
        if self.isolated_first:
            dead = cand & (n_cov == 0) & (p == low)
            if dead.any():
                return random_covered(grid, rng, mask=dead)
        q = np.where(covered, p, 0.0)
        logsafe = np.log(np.clip(1.0 - q, 1e-300, 1.0))
        logmine = np.where(covered, np.log(np.clip(q, 1e-300, 1.0)), 0.0)
        all_safe = np.exp(neighbour_sum(logsafe))
        all_mine = np.where(n_cov > 0, np.exp(neighbour_sum(logmine)), 0.0)
        progress = np.clip(all_safe + all_mine, 0.0, 1.0)
        score = np.where(cand, (1.0 - p) * (1.0 + self.progress_weight * progress), -np.inf)
        if self.lookahead > 1 and obs.noise is None:
            score = self._two_step(obs, p, score)
        top = score.max()
        # the two-step value may add cells outside ``cand`` (``best``'s wider candidates); v1's never does
        return random_covered(grid, rng, mask=(cand | np.isfinite(score)) & (score >= top - 1e-12))

    def _two_step(self, obs: Observation, p: np.ndarray, score: np.ndarray) -> np.ndarray:
        """Two-step value of the best-scored candidates: P(safe) x E[safety of the next move].

        The number a candidate would show is drawn from its neighbours' mine
        probabilities (taken as independent); each number is analysed exactly:
        a next move is certain if a cell becomes safe, else as safe as the
        safest covered cell.
        """
        if np.count_nonzero(np.isfinite(score)) <= 1:
            return score
        grid = obs.grid
        h, w = grid.shape
        table = neighbour_table(obs.shape)
        flat = grid.ravel()
        known = (flat == FLAG) | (flat == MINE)
        order = np.argsort(-score.ravel(), kind="stable")[: self.lookahead]
        out = np.full(score.shape, -np.inf)
        for i in order:
            if not np.isfinite(score.flat[i]):
                break
            nb = table[i][table[i] >= 0]
            unknown = nb[flat[nb] == COVERED]
            pmf = np.ones(1)
            for q in p.ravel()[unknown]:
                pmf = np.convolve(pmf, [1.0 - q, q])
            base = int(known[nb].sum())
            value = norm = 0.0
            for k, pk in enumerate(pmf):
                if pk < 1e-3:
                    continue
                g = grid.copy()
                g.flat[i] = base + k  # a valid code: base + k <= 8
                g.setflags(write=False)
                try:
                    e = deduce(Observation._trusted(g, obs.mines), "enumerate", use_total=self.use_total,
                               max_nodes=self.max_nodes, probabilities=True, time_limit=None)
                except (InconsistentPositionError, MethodRefused):
                    continue
                if e.safe:
                    nxt = 1.0
                else:
                    cov = g == COVERED
                    assert e.probabilities is not None  # asked for
                    nxt = 1.0 - float(np.min(e.probabilities[cov])) if np.count_nonzero(cov) else 1.0
                value += pk * nxt
                norm += pk
            if norm > 0:
                out.flat[i] = (1.0 - p.flat[i]) * value / norm
        return out

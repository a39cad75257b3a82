"""LP relaxation (report 000 §2.4's CSP with ``0 <= x <= 1`` instead of ``x in {0, 1}``).

The clue bounds ``lo <= A x <= hi`` (equalities for exact clues, one-sided
under clue noise), ``0 <= x <= 1``, and with the total one more variable ``y``
in ``[0, I]`` for the ``I`` interior cells (they are exchangeable, so one
aggregate is exact for the relaxation too) with ``sum x + y = R``.

A cell is claimed safe when its largest relaxed value is 0 and a mine when its
smallest is 1.  The LPs are batched (HiGHS via ``scipy.optimize.linprog``):
maximise the sum of the undecided candidates; a zero optimum certifies them all
at once, otherwise the cells the optimum puts above zero are dropped (their
maximum is positive) and the rest solved again.  Mines likewise with
``1 - x``.  A handful of LPs per position instead of two per cell.

Soundness: a claim needs the reported optimum to be at most ``1e-6``.  Any
integer layout with the cell at 1 would be feasible for the relaxation with
value at least 1, so the claim is wrong only if HiGHS misses the optimum by
almost 1 -- far beyond its ``1e-7`` tolerances.

Inconsistent positions raise :class:`InconsistentPositionError`: an infeasible
relaxation proves it, and since a relaxation can be feasible when no integer
layout is, the position is first checked by exact enumeration
(:mod:`sweeplab.methods.enumerate`, well under a millisecond on expert
positions; skipped for blocks beyond its node cap), so the method never
returns claims for a position with no layout.
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import linprog

from ..clue_system import clue_system
from ..errors import ComponentTooLargeError, InconsistentPositionError
from ..positions import Observation
from .enumerate import analyse

__all__ = ["forced_cells"]

Cell = tuple[int, int]

_CLAIM = 1e-6


def forced_cells(obs: Observation, *, use_total: bool = True) -> tuple[set[Cell], set[Cell]]:
    """Cells the LP relaxation fixes (sound, not complete).

    Examples
    --------
    >>> safe, mines = forced_cells(Observation.from_text("???\\n121"))
    >>> sorted(safe), sorted(mines)
    ([(0, 1)], [(0, 0), (0, 2)])
    """
    s = clue_system(obs, use_total=use_total).cell_bounds()
    try:
        analyse(obs, use_total=use_total, probabilities=False, max_nodes=100_000)
    except ComponentTooLargeError:
        pass
    n = s.cells.size
    I = s.interior.size
    with_y = s.remaining is not None and I > 0
    nv = n + int(with_y)
    if nv == 0:
        if s.remaining not in (None, 0):
            raise InconsistentPositionError(f"{s.remaining} mines left but no covered cell")
        return set(), set()
    A = s.A.astype(float)
    if with_y:
        A = np.hstack([A, np.zeros((A.shape[0], 1))])
    eq = s.lo == s.hi
    A_eq, b_eq = [A[eq]], [s.lo[eq].astype(float)]
    ub = ~eq
    A_ub = np.vstack([A[ub], -A[ub]])
    b_ub = np.concatenate([s.hi[ub], -s.lo[ub]]).astype(float)
    if s.remaining is not None:
        A_eq.append(np.ones((1, nv)))
        b_eq.append(np.array([float(s.remaining)]))
    A_eq_m, b_eq_v = np.vstack(A_eq), np.concatenate(b_eq)
    bounds = [(0.0, 1.0)] * n + ([(0.0, float(I))] * int(with_y))
    scale = np.ones(nv)
    if with_y:
        scale[-1] = 1.0 / I  # the interior variable counts as one cell's share

    def solve(c: np.ndarray) -> np.ndarray:
        res = linprog(
            c,
            A_ub=A_ub if A_ub.size else None,
            b_ub=b_ub if A_ub.size else None,
            A_eq=A_eq_m if A_eq_m.size else None,
            b_eq=b_eq_v if A_eq_m.size else None,
            bounds=bounds,
            method="highs",
        )
        if res.status == 2:
            raise InconsistentPositionError("the LP relaxation of the clues is infeasible")
        if res.status != 0:
            raise RuntimeError(f"HiGHS failed on the LP relaxation: {res.message}")
        return res.x

    decided: dict[int, int] = {}
    for value in (0, 1):
        undecided = np.arange(nv)
        while undecided.size:
            c = np.zeros(nv)
            # value 0: maximise sum x_j (minimise -x_j); value 1: maximise sum (1 - x_j)
            c[undecided] = (-1.0 if value == 0 else 1.0) * scale[undecided]
            x = solve(c) * scale
            dist = x[undecided] if value == 0 else 1.0 - x[undecided]
            opt = float(dist.sum())
            if opt <= _CLAIM:
                decided.update((int(j), value) for j in undecided)
                break
            undecided = undecided[dist <= opt / (2 * undecided.size)]
    safe = {s.cell(j) for j, v in decided.items() if v == 0 and j < n}
    mines = {s.cell(j) for j, v in decided.items() if v == 1 and j < n}
    if with_y and n in decided:
        w = s.shape[1]
        (safe if decided[n] == 0 else mines).update((int(i) // w, int(i) % w) for i in s.interior)
    return safe, mines

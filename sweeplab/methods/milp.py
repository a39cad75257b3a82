"""Proof by contradiction with integer programs (report 000 §2.4 CSP; report 001's reductio agent).

Report 000 hands the clue constraints (all "m of n") and the total to a CSP
solver (OR-tools); report 001's reductio agent assumes a cell's value and looks
for a contradiction.  Here each test is an integer program solved by HiGHS
(``scipy.optimize.milp``): binary ``x`` for the frontier cells, the clue
bounds ``lo <= A x <= hi`` (equalities unless the clues are noisy), and with the
total an integer ``y`` in ``[0, I]`` for the ``I`` exchangeable interior cells
with ``sum x + y = R``.

1. Find one feasible layout (none: :class:`InconsistentPositionError`).
2. For every cell not yet seen with both values, ask for a layout with the
   cell flipped.  Infeasible: the cell is forced to its value in step 1.
   Feasible: every cell the new layout flips is undecidable too, so it is
   never tested.  The objective of each program rewards the values not yet
   seen on the other cells, so one answer settles many of them.

Sound and complete (up to HiGHS's exactness on these small 0/1 programs; every
feasible answer is checked in integer arithmetic before it is trusted).
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, milp

from ..clue_system import clue_system
from ..errors import InconsistentPositionError
from ..positions import Observation

__all__ = ["forced_cells"]

Cell = tuple[int, int]


def forced_cells(obs: Observation, *, use_total: bool = True) -> tuple[set[Cell], set[Cell]]:
    """Forced cells, one integer program per undecided cell (sound and complete).

    Examples
    --------
    >>> safe, mines = forced_cells(Observation.from_text("???\\n121"))
    >>> sorted(safe), sorted(mines)
    ([(0, 1)], [(0, 0), (0, 2)])
    """
    s = clue_system(obs, use_total=use_total).cell_bounds()
    n = s.cells.size
    I = s.interior.size
    R = s.remaining
    with_y = R is not None and I > 0
    nv = n + int(with_y)
    if nv == 0:
        if R not in (None, 0):
            raise InconsistentPositionError(f"{R} mines left but no covered cell")
        return set(), set()
    A = np.hstack([s.A, np.zeros((s.A.shape[0], int(with_y)), dtype=np.int64)])
    lo, hi = s.lo, s.hi
    if R is not None:
        A = np.vstack([A, np.ones((1, nv), dtype=np.int64)])
        lo, hi = np.append(lo, R), np.append(hi, R)
    upper = np.ones(nv)
    if with_y:
        upper[-1] = I
    constraints = [LinearConstraint(A, lo, hi)] if A.shape[0] else []

    def feasible(lb: np.ndarray, ub: np.ndarray, c: np.ndarray | None = None) -> np.ndarray | None:
        c = np.zeros(nv) if c is None else c
        res = milp(c, integrality=np.ones(nv), bounds=Bounds(lb, ub), constraints=constraints)
        if res.status == 2:
            return None
        if res.status != 0:
            raise RuntimeError(f"HiGHS failed on an integer program: {res.message}")
        x = np.rint(res.x).astype(np.int64)
        if A.shape[0]:
            ax = A @ x
            if not ((ax >= lo) & (ax <= hi)).all() or (x < lb).any() or (x > ub).any():
                raise RuntimeError("HiGHS returned a layout that does not fit the clues")
        return x

    base_lb, base_ub = np.zeros(nv), upper
    x0 = feasible(base_lb, base_ub)
    if x0 is None:
        raise InconsistentPositionError("no layout fits the clues (and the total)")
    # Per cell: seen as mine / seen as safe (the interior aggregate: some / not all interior mines).
    seen_mine = x0 > 0
    seen_safe = x0 < upper
    forced_safe, forced_mine = [], []
    for j in range(nv):
        for want_mine in (True, False):
            if (seen_mine if want_mine else seen_safe)[j]:
                continue
            lb, ub = base_lb.copy(), base_ub.copy()
            if want_mine:
                lb[j] = 1
            else:
                ub[j] = upper[j] - 1
            # Ask for the unseen value of every other undecided cell too, so that one
            # feasible answer rules out many candidates at once.
            x = feasible(lb, ub, seen_mine.astype(float) - seen_safe.astype(float))
            if x is None:
                (forced_safe if want_mine else forced_mine).append(j)
            else:
                seen_mine |= x > 0
                seen_safe |= x < upper
    safe = {s.cell(j) for j in forced_safe if j < n}
    mines = {s.cell(j) for j in forced_mine if j < n}
    w = s.shape[1]
    interior = {(int(i) // w, int(i) % w) for i in s.interior}
    if with_y and n in forced_safe:
        safe |= interior
    if with_y and n in forced_mine:
        mines |= interior
    return safe, mines

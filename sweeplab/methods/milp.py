"""Proof by contradiction with integer programs (report 000 §2.4 CSP; report 001's reductio agent).

Report 000 hands the clue constraints (all "m of n") and the total to a CSP
solver (OR-tools); report 001's reductio agent assumes a cell's value and looks
for a contradiction.  Here each test is an integer program solved by HiGHS
(through ``highspy``, sparse matrices): binary ``x`` for the frontier
cells, the clue bounds ``lo <= A x <= hi`` (equalities unless the clues are
noisy), and with the total an integer ``y`` in ``[0, I]`` for the ``I``
exchangeable interior cells with ``sum x + y = R``.

1. Find one feasible layout (none: :class:`InconsistentPositionError`).
2. For every cell not yet seen with both values, ask for a layout with the
   cell flipped.  Infeasible: the cell is forced to its value in step 1.
   Feasible: every cell the new layout flips is undecidable too, so it is
   never tested.  The objective of each program rewards the values not yet
   seen on the other cells, so one answer settles many of them.

First the LP relaxation (:class:`~sweeplab.methods._relaxation.Relaxation`, as the
``lp`` method runs it) settles the cells it proves in a few batched LPs: a cell
whose relaxed maximum is 0 has no layout with a mine, so no integer program is
needed for it.  The programs then only test the cells the relaxation leaves.

Independent blocks: the programs are solved block by block (a few cells each),
not over the whole board.  Without the total this is exact.  With it, the
blocks are linked only through ``sum x + y = R``: when the first layout leaves
room (``y0 = R - sum x0`` with ``1 <= y0 <= I - 1`` and, for every block ``b``
of ``n_b`` cells holding ``s_b`` mines, ``y0 + s_b - n_b >= 0`` and ``y0 + s_b
<= I``), any layout of one block is completed by the others' first layouts and
the interior, so the per-block answers are exact and the interior is free.
Otherwise the programs run over the whole board, total row included.

Sound and complete (up to HiGHS's exactness on these small 0/1 programs; every
feasible answer is checked in integer arithmetic before it is trusted).

Budget: ``time_limit`` seconds (default :data:`~sweeplab.methods._common.TIME_LIMIT`),
passed to HiGHS and checked between programs; past it, :class:`~sweeplab.MethodRefused`.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from .._highs import solve as solve_program
from ..clue_system import CellBounds, clue_system
from ..errors import InconsistentPositionError, mines_text
from ..positions import Observation
from ._common import TIME_LIMIT, Budget
from ._relaxation import Relaxation

__all__ = ["forced_cells"]

Cell = tuple[int, int]


def forced_cells(
    obs: Observation, *, use_total: bool = True, time_limit: float | None = TIME_LIMIT
) -> tuple[set[Cell], set[Cell]]:
    """Forced cells, one integer program per undecided cell (sound and complete).

    Parameters
    ----------
    obs : Observation
    use_total : bool, default True
    time_limit : float or None, default 20
        Seconds (``None``: no limit).

    Raises
    ------
    InconsistentPositionError
        When no layout fits.
    MethodRefused
        Past ``time_limit``.

    Examples
    --------
    >>> safe, mines = forced_cells(Observation.from_text("???\\n121"))
    >>> sorted(safe), sorted(mines)
    ([(0, 1)], [(0, 0), (0, 2)])
    """
    budget = Budget("milp", time_limit=time_limit)
    s = clue_system(obs, use_total=use_total).cell_bounds()
    n, I, R = s.cells.size, s.interior.size, s.remaining
    if n == 0 and not (R is not None and I > 0):
        if R not in (None, 0):
            raise InconsistentPositionError(f"{mines_text(R)} left but no covered cell")
        return set(), set()
    programs = _Programs(s, budget, Relaxation(s, budget).decided())
    forced = programs.by_block()
    if forced is None:
        forced = programs.whole()
    return s.claims(forced)


class _Programs:
    """The integer programs of a clue system's cell bounds, block by block or over the whole board.

    ``proved`` holds the variables already proved forced (``{column: value}``, the interior as
    column ``n``): they are never tested.
    """

    def __init__(self, s: CellBounds, budget: Budget, proved: dict[int, int]) -> None:
        self.s, self.budget, self.proved = s, budget, proved

    def feasible(self, A: sp.csr_array, lo: np.ndarray, hi: np.ndarray, lb: np.ndarray, ub: np.ndarray,
                 c: np.ndarray | None = None) -> np.ndarray | None:
        """A layout in ``lb <= x <= ub`` with ``lo <= A x <= hi`` (minimising ``c . x``), or ``None``."""
        nv = lb.size
        self.budget.check("solving integer programs")
        res = solve_program(np.zeros(nv) if c is None else c, A, lo, hi, lb, ub, integer=True,
                            time_limit=self.budget.solver_seconds())
        if res.status == "infeasible":
            return None
        if res.status == "time limit":
            raise self.budget.out_of_time(f"solving an integer program over {nv} variables")
        if res.x is None:
            raise RuntimeError(f"HiGHS failed on an integer program: {res.message}")
        x = np.rint(res.x).astype(np.int64)
        if A.shape[0]:
            ax = A @ x
            if not ((ax >= lo) & (ax <= hi)).all() or (x < lb).any() or (x > ub).any():
                raise RuntimeError("HiGHS returned a layout that does not fit the clues")
        return x

    def forced(self, A: sp.csr_array, lo: np.ndarray, hi: np.ndarray, upper: np.ndarray,
               x0: np.ndarray, variables: np.ndarray) -> dict[int, int]:
        """Variables forced to their value in the layout ``x0``, one program per undecided variable
        (``variables``: the columns of ``self.proved`` they are)."""
        nv = upper.size
        base_lb = np.zeros(nv)
        # Per variable: seen as mine / seen as safe (the interior aggregate: some / not all interior mines).
        seen_mine = x0 > 0
        seen_safe = x0 < upper
        forced = {j: self.proved[v] for j, v in enumerate(variables.tolist()) if v in self.proved}
        seen_mine[list(forced)] = seen_safe[list(forced)] = True
        for j in range(nv):
            for want_mine in (True, False):
                if (seen_mine if want_mine else seen_safe)[j]:
                    continue
                lb, ub = base_lb.copy(), upper.astype(float)
                if want_mine:
                    lb[j] = 1
                else:
                    ub[j] = upper[j] - 1
                # Ask for the unseen value of every other undecided cell too, so that one
                # feasible answer rules out many candidates at once.
                x = self.feasible(A, lo, hi, lb, ub, seen_mine.astype(float) - seen_safe.astype(float))
                if x is None:
                    forced[j] = 0 if want_mine else 1
                else:
                    seen_mine |= x > 0
                    seen_safe |= x < upper
        return forced

    def by_block(self) -> dict[int, int] | None:
        """Forced cells from programs over single blocks; ``None`` when the total row may cut them."""
        s = self.s
        n, I, R = s.cells.size, s.interior.size, s.remaining
        if R is not None and (n == 0 or I == 0):
            return None
        blocks = s.blocks()
        base = []
        for rows, cols in blocks:
            A = s.block(rows, cols)
            x0 = self.feasible(A, s.lo[rows], s.hi[rows], np.zeros(cols.size), np.ones(cols.size))
            if x0 is None:
                raise InconsistentPositionError("no layout fits the clues of a block")
            base.append((A, x0))
        if R is not None:
            sums = np.array([int(x0.sum()) for _, x0 in base])
            sizes = np.array([cols.size for _, cols in blocks])
            y0 = R - int(sums.sum())
            if not (1 <= y0 <= I - 1 and np.all(y0 + sums - sizes >= 0) and np.all(y0 + sums <= I)):
                return None
        forced: dict[int, int] = {}
        for (rows, cols), (A, x0) in zip(blocks, base, strict=True):
            found = self.forced(A, s.lo[rows], s.hi[rows], np.ones(cols.size, dtype=np.int64), x0, cols)
            forced.update((int(cols[j]), v) for j, v in found.items())
        return forced

    def whole(self) -> dict[int, int]:
        """Forced variables (``n``: the interior) from programs over the whole board, total row included."""
        s = self.s
        n, I, R = s.cells.size, s.interior.size, s.remaining
        with_y = R is not None and I > 0
        nv = n + int(with_y)
        A = sp.hstack([s.A_sparse, sp.csr_array((s.A_sparse.shape[0], int(with_y)), dtype=np.int64)]).tocsr()
        lo, hi = s.lo, s.hi
        if R is not None:
            A = sp.vstack([A, sp.csr_array(np.ones((1, nv), dtype=np.int64))]).tocsr()
            lo, hi = np.append(lo, R), np.append(hi, R)
        upper = np.ones(nv, dtype=np.int64)
        if with_y:
            upper[-1] = I
        x0 = self.feasible(A, lo, hi, np.zeros(nv), upper.astype(float))
        if x0 is None:
            raise InconsistentPositionError("no layout fits the clues (and the total)")
        return self.forced(A, lo, hi, upper, x0, np.arange(nv))

"""The LP relaxation of a clue system's cell bounds, block by block (``lp``, and ``milp``'s first pass)."""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp

from .._highs import solve as solve_program
from ..clue_system import CellBounds
from ..errors import InconsistentPositionError
from ._common import Budget

#: Largest relaxed optimum read as 0 (a claim).
_CLAIM = 1e-6
#: Least weight of the interior's share ``y`` in a batched objective (else ``1 / I``, one cell's
#: share): HiGHS may leave a smaller cost unmaximised within its 1e-7 tolerances, and a claim reads
#: the optimum.  Binds only past 1,000 interior cells, where it changes the batching, not the claims.
_LEAST_WEIGHT = 1e-3


class Relaxation:
    """The LP relaxation of a clue system's cell bounds (``lp``, and ``milp``'s first pass).

    :meth:`by_block` and :meth:`whole` return the cells whose relaxed maximum
    is 0 (safe) or minimum 1 (mines) -- proved for every 0/1 layout, since a
    layout is a point of the relaxation -- as ``{column: value}``, the interior
    as column ``n``; see :mod:`sweeplab.methods.lp` for the batching and for
    when the blocks may be solved apart.
    """

    def __init__(self, s: CellBounds, budget: Budget) -> None:
        self.s, self.budget = s, budget
        self.n = s.cells.size
        self.blocks = s.blocks()
        self.col_block = np.zeros(self.n, dtype=np.int64)
        for k, (_, cols) in enumerate(self.blocks):
            self.col_block[cols] = k
        self._matrix: tuple[tuple[bytes, bytes], Any] | None = None  # (rows, cols) -> their matrix

    def solve(self, rows: np.ndarray, cols: np.ndarray, c: np.ndarray, total: bool) -> np.ndarray:
        """The optimum of ``c . x`` over the rows ``rows`` and cells ``cols`` (and ``y`` with ``total``)."""
        s = self.s
        key = (rows.tobytes(), cols.tobytes())
        if self._matrix is None or self._matrix[0] != key:  # the iterations of a loop share the matrix
            self._matrix = key, s.block(rows, cols) if self.blocks else sp.csr_array((0, cols.size))
        A: Any = self._matrix[1]
        lo, hi = s.lo[rows], s.hi[rows]
        ub = np.ones(cols.size)
        if total:
            assert s.remaining is not None  # callers pass total only with the total row
            if s.interior.size:  # the interior's share y
                A = sp.hstack([A, sp.csr_array((A.shape[0], 1))])
                ub = np.append(ub, float(s.interior.size))
            A = sp.vstack([A, sp.csr_array(np.ones((1, ub.size)))])
            lo, hi = np.append(lo, s.remaining), np.append(hi, s.remaining)
        self.budget.check("solving LP relaxations")
        res = solve_program(c, A, lo, hi, np.zeros(ub.size), ub, time_limit=self.budget.solver_seconds())
        if res.status == "infeasible":
            raise InconsistentPositionError("the LP relaxation of the clues is infeasible")
        if res.status == "time limit":
            raise self.budget.out_of_time(f"solving an LP relaxation over {ub.size} variables")
        if res.x is None:
            raise RuntimeError(f"HiGHS failed on the LP relaxation: {res.message}")
        return res.x

    def check_feasible(self) -> None:
        """Raise :class:`~sweeplab.InconsistentPositionError` when the relaxation, total row included,
        has no point: then no 0/1 layout fits either (every layout is a point of it)."""
        s = self.s
        total = s.remaining is not None
        variables = self.n + int(total and s.interior.size > 0)  # the interior's share y
        self.solve(np.arange(s.lo.size), np.arange(self.n), np.zeros(variables), total=total)

    def decided(self) -> dict[int, int]:
        """Decided cells: block by block when the total cannot cut the blocks, else over the whole board."""
        found = self.by_block()
        return self.whole() if found is None else found

    def by_block(self) -> dict[int, int] | None:
        """Decided cells from separable LPs over the blocks; ``None`` when the total row may cut them."""
        s, n = self.s, self.n
        if s.remaining is not None and (n == 0 or s.interior.size == 0):
            return None
        decided: dict[int, int] = {}
        sizes = np.bincount(self.col_block, minlength=len(self.blocks))
        for value in (0, 1):
            undecided = np.ones(n, dtype=bool)
            while undecided.any():
                active = np.unique(self.col_block[undecided])
                rows = np.sort(np.concatenate([self.blocks[k][0] for k in active]))
                cols = np.sort(np.concatenate([self.blocks[k][1] for k in active]))
                und = undecided[cols]
                c = np.where(und, -1.0 if value == 0 else 1.0, 0.0)
                x = self.solve(rows, cols, c, total=False)
                if s.remaining is not None and value == 0 and active.size == len(self.blocks):
                    y0 = s.remaining - x.sum()
                    sums = np.bincount(self.col_block, weights=x, minlength=len(self.blocks))
                    if not (np.all(y0 + sums - sizes >= 1) and np.all(y0 + sums <= s.interior.size - 1)):
                        return None
                dist = (x if value == 0 else 1.0 - x)[und]
                owner = self.col_block[cols[und]]
                opt = np.bincount(owner, weights=dist, minlength=len(self.blocks))
                count = np.bincount(owner, minlength=len(self.blocks))
                done = opt[owner] <= _CLAIM
                decided.update((int(j), value) for j in cols[und][done])
                keep = ~done & (dist <= opt[owner] / (2 * count[owner]))
                undecided[cols[und]] = keep
        return decided

    def whole(self) -> dict[int, int]:
        """Decided cells (``n``: the interior) from LPs over the whole board, total row included."""
        s, n = self.s, self.n
        total = s.remaining is not None
        with_y = total and s.interior.size > 0
        nv = n + int(with_y)
        rows, cols = np.arange(s.lo.size), np.arange(n)
        scale = np.ones(nv)
        if with_y:
            scale[-1] = max(1.0 / s.interior.size, _LEAST_WEIGHT)  # the interior counts as one cell's share
        top = np.ones(nv)
        if with_y:
            top[-1] = s.interior.size
        decided: dict[int, int] = {}
        for value in (0, 1):
            undecided = np.arange(nv)
            while undecided.size:
                c = np.zeros(nv)
                # value 0: maximise sum x_j (minimise -x_j); value 1: maximise sum (1 - x_j)
                c[undecided] = (-1.0 if value == 0 else 1.0) * scale[undecided]
                x = self.solve(rows, cols, c, total=total)
                # distance to the claimed value, in cells (the interior: mines above 0, or below I)
                dist = x[undecided] if value == 0 else top[undecided] - x[undecided]
                opt = float(dist.sum())
                if opt <= _CLAIM:
                    decided.update((int(j), value) for j in undecided)
                    break
                undecided = undecided[dist * scale[undecided] <= (dist * scale[undecided]).sum()
                                      / (2 * undecided.size)]
        return decided

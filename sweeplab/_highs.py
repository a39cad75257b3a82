"""Linear and integer programs handed straight to HiGHS (``highspy``), for ``lp``, ``milp`` and the prover.

``scipy.optimize.linprog``/``milp`` run the same solver but spend ~2 ms per
call checking options and converting matrices, several times what HiGHS needs
on the small programs of a Minesweeper position (``benchmarks/methods_speed.py``).
:func:`solve` passes the matrix rows as they are, with ranges ``lo <= A x <= hi``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import highspy
import numpy as np
import scipy.sparse as sp

# The bare solver class: the public ``highspy.Highs`` adds Python callbacks (2.6x the construction
# time of these ~0.5 ms solves) and prints HiGHS's banner once per process before output can be
# switched off.  It is private to highspy: should a release move it, the public class (a subclass,
# same calls) keeps every answer, slower.
try:
    from highspy._core import _Highs as _Solver
except ImportError:  # pragma: no cover - depends on the installed highspy
    _Solver = highspy.Highs  # type: ignore[misc]

__all__ = ["Solution", "solve"]

_STATUS = highspy.HighsModelStatus
_FEASIBLE = int(highspy.SolutionStatus.kSolutionStatusFeasible)


@dataclass(frozen=True)
class Solution:
    """What HiGHS returned: ``status`` and, when ``"optimal"``, the point ``x`` (at a ``"node limit"``,
    the best feasible point found, if any)."""

    status: Literal["optimal", "infeasible", "time limit", "node limit", "failed"]
    x: np.ndarray | None
    message: str


def solve(c: np.ndarray, A: Any, lo: np.ndarray, hi: np.ndarray, lb: np.ndarray, ub: np.ndarray, *,
          integer: bool = False, time_limit: float | None = None, max_nodes: int | None = None) -> Solution:
    """Minimise ``c . x`` subject to ``lo <= A x <= hi``, ``lb <= x <= ub`` (``x`` integral with ``integer``).

    ``A`` is a dense array or a scipy sparse matrix with ``c.size`` columns;
    infinite bounds are allowed (a program HiGHS finds unbounded or infeasible
    is ``"infeasible"`` when every ``x`` is bounded, else ``"failed"``).  Each
    call gets a fresh solver, so calls are independent (HiGHS's time limit
    counts over the life of a solver object).  ``max_nodes`` caps the
    branch-and-bound nodes of an integer program: a limit that, unlike
    ``time_limit``, ends the same way on every machine (``"node limit"``).

    Examples
    --------
    >>> s = solve(np.array([-1.0, -1.0]), np.array([[1.0, 2.0]]), np.array([-np.inf]), np.array([2.0]),
    ...           np.zeros(2), np.ones(2), integer=True)
    >>> s.status, list(s.x) == [1.0, 0.0]
    ('optimal', True)
    """
    n = c.size
    if n == 0:  # HiGHS calls a program without variables empty; its rows hold when 0 is in their range
        feasible = bool(np.all((np.asarray(lo) <= 0) & (np.asarray(hi) >= 0)))
        return Solution("optimal", np.zeros(0), "") if feasible else Solution("infeasible", None, "")
    rows = sp.csr_array(A, dtype=float) if A.shape[0] else sp.csr_array((0, n))
    h = _Solver()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("threads", 1)  # HiGHS's thread pool deadlocks in workers forked after it started
    if time_limit is not None:
        h.setOptionValue("time_limit", float(time_limit))
    if max_nodes is not None:  # a limit on work, the same on every machine (branch-and-bound nodes)
        h.setOptionValue("mip_max_nodes", int(max_nodes))
    kind = np.full(n, int(highspy.HighsVarType.kInteger) if integer else 0, dtype=np.int32)
    c, lb, ub, lo, hi = (np.asarray(v, dtype=float) for v in (c, lb, ub, lo, hi))
    h.passModel(n, rows.shape[0], rows.nnz, int(highspy.MatrixFormat.kRowwise),
                int(highspy.ObjSense.kMinimize), 0.0, c, lb, ub, lo, hi,
                rows.indptr[:-1].astype(np.int32), rows.indices.astype(np.int32), rows.data, kind)
    h.run()
    status = h.getModelStatus()
    message = h.modelStatusToString(status)
    if status == _STATUS.kOptimal:
        return Solution("optimal", np.array(h.getSolution().col_value), message)
    bounded = bool(np.isfinite(lb).all() and np.isfinite(ub).all())
    if status == _STATUS.kInfeasible or (status == _STATUS.kUnboundedOrInfeasible and bounded):
        return Solution("infeasible", None, message)
    if status == _STATUS.kTimeLimit:
        return Solution("time limit", None, message)
    if status == _STATUS.kSolutionLimit:  # HiGHS's status for mip_max_nodes; keep a feasible point found
        found = h.getInfo().primal_solution_status == _FEASIBLE
        return Solution("node limit", np.array(h.getSolution().col_value) if found else None, message)
    return Solution("failed", None, message)

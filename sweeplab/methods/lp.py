"""LP relaxation (report 000 §2.4's CSP with ``0 <= x <= 1`` instead of ``x in {0, 1}``).

The clue bounds ``lo <= A x <= hi`` (equalities for exact clues, one-sided
under clue noise), ``0 <= x <= 1``, and with the total one more variable ``y``
in ``[0, I]`` for the ``I`` interior cells (they are exchangeable, so one
aggregate is exact for the relaxation too) with ``sum x + y = R``.

A cell is claimed safe when its largest relaxed value is 0 and a mine when its
smallest is 1.  The LPs are batched (HiGHS through ``highspy``, on
sparse matrices): maximise the sum of the undecided candidates; a zero optimum
certifies them all at once, otherwise the cells the optimum puts above zero are
dropped (their maximum is positive) and the rest solved again.  Mines likewise
with ``1 - x``.  A handful of LPs per position instead of two per cell.

Independent blocks: without the total row the relaxation is separable, so one
LP solves every block at once and each block is decided on its own share of the
optimum (only blocks with undecided cells stay in the next LP).  With the total
row the blocks are linked, but only through ``sum x + y = R``: when the first
solution ``x0`` leaves room (``1 <= y0 + s_b - n_b`` and ``y0 + s_b <= I - 1``
for every block ``b`` with ``n_b`` cells summing to ``s_b``, ``y0 = R - sum
x0``), any value of one block's sum can be completed by the others at ``x0``
and ``y``, so the total row cuts nothing and the per-block answer is exact.
Otherwise one LP over the whole board, total row included, is solved as before.

Soundness: a claim needs the reported optimum to be at most ``1e-6``.  Any
integer layout with the cell at 1 would be feasible for the relaxation with
value at least 1, so the claim is wrong only if HiGHS misses the optimum by
almost 1 -- far beyond its ``1e-7`` tolerances.  The interior claim reads ``y``
itself (no layout has an interior mine when ``y <= 1e-6``); in a batched
objective ``y`` weighs ``1 / I``, but never less than ``1e-3``, so that no
cost falls within those tolerances on large boards.

Inconsistent positions raise :class:`InconsistentPositionError`: an infeasible
relaxation proves it, and since a relaxation can be feasible when no integer
layout is, the position is first checked by exact enumeration
(:mod:`sweeplab.methods.enumerate`, well under a millisecond on expert
positions; skipped past its node cap, 64 MiB, or a tenth of the time),
so the method never returns claims for a position with no layout.

Budget: ``time_limit`` seconds (default :data:`~sweeplab.methods._common.TIME_LIMIT`),
passed to HiGHS and checked between LPs; past it, :class:`~sweeplab.MethodRefused`.
"""

from __future__ import annotations

from ..clue_system import clue_system
from ..errors import InconsistentPositionError, MethodRefused, mines_text
from ..positions import Observation
from ._common import TIME_LIMIT, Budget
from ._relaxation import Relaxation
from .enumerate import MAX_BYTES, analyse

__all__ = ["forced_cells"]

Cell = tuple[int, int]


def forced_cells(
    obs: Observation, *, use_total: bool = True, time_limit: float | None = TIME_LIMIT
) -> tuple[set[Cell], set[Cell]]:
    """Cells the LP relaxation fixes (sound, not complete).

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
    budget = Budget("lp", time_limit=time_limit)
    s = clue_system(obs, use_total=use_total).cell_bounds()
    try:  # a tenth of the time and of enumeration's memory
        analyse(obs, use_total=use_total, probabilities=False, max_nodes=100_000, max_bytes=MAX_BYTES // 8,
                time_limit=None if budget.time_limit is None else max(budget.time_limit / 10, 1e-9))
    except MethodRefused:  # too large to check quickly
        pass
    n, I, R = s.cells.size, s.interior.size, s.remaining
    if n == 0 and I == 0:
        if R not in (None, 0):
            raise InconsistentPositionError(f"{mines_text(R)} left but no covered cell")
        return set(), set()
    return s.claims(Relaxation(s, budget).decided())

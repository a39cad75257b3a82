"""Least squares with a proof: claim only the cells the system determines (report 000 §3.1, repaired).

Report 000 §3.1 wants "the constant part of solutions".  Over the reals a cell
``j`` is constant across all solutions of ``A x = b`` exactly when it is
*determined*: its unit vector ``e_j`` lies in the row space of ``A`` (every
null-space vector has a zero in position ``j``).  Then every solution, the
minimum-norm one included, has the same value there, and a 0/1 layout can
only have that value.  This method claims exactly those cells, with the test
done in exact arithmetic: ``e_j`` is in the row space of ``A`` if and only if
the exact RREF of ``A`` has the row ``e_j`` (python-flint, as in
:mod:`~sweeplab.methods.rref`), and the value is that row's right side, read
exactly (a floating-point null space would need a tolerance, and a wrong
tolerance would break the proof; the tests check that
``scipy.linalg.null_space`` and ``numpy.linalg.lstsq`` agree with it).

A determined value other than 0 or 1, or a reduced row ``0 = c`` with ``c != 0``,
means no mine layout fits: :class:`~sweeplab.InconsistentPositionError`.

Sound, not complete.  Needs exact clues.  Budget as :mod:`~sweeplab.methods.rref`
(``time_limit`` checked between blocks, ``max_bytes`` for the largest dense block).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from ..positions import InconsistentPositionError, Observation
from ._algebra import reduce_blocks
from ._common import MAX_BLOCK_BYTES, TIME_LIMIT, Budget, CellSets, exact_system, merge_claims

__all__ = ["forced_cells"]


def forced_cells(
    obs: Observation,
    *,
    use_total: bool = True,
    time_limit: float | None = TIME_LIMIT,
    max_bytes: int | None = MAX_BLOCK_BYTES,
) -> CellSets:
    """Cells determined by the clue system (unit rows of its exact RREF), with value 0 or 1.

    Parameters
    ----------
    obs : Observation
    use_total : bool, default True
        Add the total-mines row when the total is known.
    time_limit : float or None, default 20
        Seconds (``None``: no limit).
    max_bytes : int or None, default 32 MiB
        Largest dense block (``[A | b]`` of one independent block as ``int64``).

    Returns
    -------
    (set, set)
        Safe cells and mines.

    Raises
    ------
    InconsistentPositionError
        When the system has no real solution or determines a value other than 0 or 1.
    MethodRefused
        Under ``"under"``/``"over"`` clue noise, or past the budget.

    Examples
    --------
    In report 001's ``A+B+C = 1, A+C+D = 2`` nothing is determined over the
    reals (``D - B = 1`` has a line of real solutions), although ``subset`` and
    ``rref`` prove ``B = 0, D = 1`` from 0/1-ness:

    >>> from sweeplab import Observation
    >>> forced_cells(Observation.from_text("????\\n-12-"))
    (set(), set())
    >>> safe, mines = forced_cells(Observation.from_text("?1\\n11"))
    >>> sorted(safe), sorted(mines)
    ([], [(0, 0)])
    """
    budget = Budget("lstsq-certified", time_limit=time_limit, max_bytes=max_bytes)
    system = exact_system(obs, "lstsq-certified", use_total=use_total).merged()
    safe: set = set()
    mines: set = set()
    for g in reduce_blocks(system, budget=budget):
        nonzero = g.R != 0
        count = nonzero.sum(axis=1)
        if np.any((count == 0) & (g.rhs != 0)):
            raise InconsistentPositionError("the clue system reduces to 0 = 1: it has no real solution")
        for i in np.flatnonzero(count == 1):
            j = int(g.cols[np.flatnonzero(nonzero[i])[0]])
            if system.weights[j] != 1:  # one coefficient on several identical cells: only their sum is fixed
                continue
            value = Fraction(int(g.rhs[i]), int(g.R[i][nonzero[i]][0]))
            if value == 0:
                safe |= system.cells([j])
            elif value == 1:
                mines |= system.cells([j])
            else:
                cell = system.columns[j][0]
                raise InconsistentPositionError(f"the clues determine cell {cell} to be {value}, not 0 or 1")
    return merge_claims(safe, mines)

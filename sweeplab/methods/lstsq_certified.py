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

Sound, not complete.  Needs exact clues.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from ..positions import InconsistentPositionError, Observation
from ._common import CellSets, exact_system, merge_claims, rref_rows

__all__ = ["forced_cells"]


def forced_cells(obs: Observation, *, use_total: bool = True) -> CellSets:
    """Cells determined by the clue system (unit rows of its exact RREF), with value 0 or 1.

    Parameters
    ----------
    obs : Observation
    use_total : bool, default True
        Add the total-mines row when the total is known.

    Returns
    -------
    (set, set)
        Safe cells and mines.

    Raises
    ------
    InconsistentPositionError
        When the system has no real solution or determines a value other than 0 or 1.
    ValueError
        Under ``"under"``/``"over"`` clue noise.

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
    system = exact_system(obs, "lstsq-certified", use_total=use_total).merged()
    R, rhs = rref_rows(system)
    safe: set = set()
    mines: set = set()
    if R.shape[0] == 0:
        return safe, mines
    nonzero = R != 0
    count = nonzero.sum(axis=1)
    if np.any((count == 0) & (rhs != 0)):
        raise InconsistentPositionError("the clue system reduces to 0 = 1: it has no real solution")
    for i in np.flatnonzero(count == 1):
        j = int(np.flatnonzero(nonzero[i])[0])
        if system.weights[j] != 1:  # one coefficient on several identical cells: only their sum is fixed
            continue
        value = Fraction(int(rhs[i]), int(R[i, j]))
        if value == 0:
            safe |= system.cells([j])
        elif value == 1:
            mines |= system.cells([j])
        else:
            cell = system.columns[j][0]
            raise InconsistentPositionError(f"the clues determine cell {cell} to be {value}, not 0 or 1")
    return merge_claims(safe, mines)

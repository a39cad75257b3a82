"""The textbook baseline: every 0/1 assignment of the whole frontier (report 000 §2.4).

Report 000's CSP "examine[s] all possible assignments of values to the fringe
variables to find all the ones that satisfy the constraints"; squares that are
mines (free) in every solution are flagged (uncovered).  This module does
exactly that, with no splitting into independent blocks (compare
``enumerate``, report 004's split borders), vectorised over chunks of
assignments.  With the total, an assignment with ``S`` frontier mines is kept
when the ``I`` interior cells can hold the rest (``0 <= R - S <= I``); interior
cells are forced when every kept assignment leaves them no mine, or all mines.

It costs ``2^n`` for ``n`` frontier cells, so it refuses (:class:`~sweeplab.MethodRefused`) above
``max_variables`` (default :data:`MAX_VARIABLES` = 20, about a million
assignments and half a second), and ``time_limit`` is checked between chunks of
assignments.  Clue noise: numbers are bounds as in :mod:`sweeplab.methods.enumerate`.
"""

from __future__ import annotations

import numpy as np

from ..clue_system import clue_system
from ..errors import InconsistentPositionError, MethodRefused
from ..positions import Observation
from ._common import TIME_LIMIT, Budget, count_option

__all__ = ["MAX_VARIABLES", "forced_cells"]

Cell = tuple[int, int]

#: Largest frontier brute force accepts by default.
MAX_VARIABLES = 20

_CHUNK_BITS = 16
#: Assignments are 64-bit codes: no frontier beyond this, whatever ``max_variables`` says.
_MAX_BITS = 63


def forced_cells(
    obs: Observation,
    *,
    use_total: bool = True,
    max_variables: int = MAX_VARIABLES,
    time_limit: float | None = TIME_LIMIT,
) -> tuple[set[Cell], set[Cell]]:
    """Forced cells by trying every assignment of the frontier (sound and complete).

    Parameters
    ----------
    obs : Observation
    use_total : bool, default True
    max_variables : int, default 20
        Largest frontier tried.
    time_limit : float or None, default 20
        Seconds (``None``: no limit).

    Raises
    ------
    MethodRefused
        When the frontier has more than ``max_variables`` cells, or past ``time_limit``.
    InconsistentPositionError
        When no assignment fits.

    Examples
    --------
    >>> safe, mines = forced_cells(Observation.from_text("???\\n121"))
    >>> sorted(safe), sorted(mines)
    ([(0, 1)], [(0, 0), (0, 2)])
    """
    max_variables = count_option("brute", "max_variables", max_variables)
    budget = Budget("brute", time_limit=time_limit)
    s = clue_system(obs, use_total=use_total).cell_bounds()
    n = s.cells.size
    if n > min(max_variables, _MAX_BITS):
        raise MethodRefused(
            f"brute force over {n} frontier cells needs 2^{n} assignments; "
            f"the limit is max_variables={min(max_variables, _MAX_BITS)} (use 'enumerate')"
        )
    R, I = s.remaining, s.interior.size
    can_mine = np.zeros(n, dtype=bool)
    can_safe = np.zeros(n, dtype=bool)
    sums_seen = np.zeros(n + 1, dtype=bool)
    shifts = np.arange(n, dtype=np.uint64)
    A_t = s.A.T.astype(np.int16)  # at most max_variables columns
    chunk = 1 << min(n, _CHUNK_BITS)
    for start in range(0, 1 << n, chunk):
        budget.check(f"trying the 2^{n} assignments")
        codes = np.arange(start, start + chunk, dtype=np.uint64)
        X = ((codes[:, None] >> shifts[None, :]) & np.uint64(1)).astype(np.int16)
        ok: np.ndarray = np.ones(chunk, dtype=bool)
        if s.lo.size:
            sums = X @ A_t
            ok = np.asarray(((sums >= s.lo) & (sums <= s.hi)).all(axis=1))
        S = X.sum(axis=1)
        if R is not None:
            ok &= (S >= R - I) & (S <= R)
        if not ok.any():
            continue
        Xk = X[ok].astype(bool)
        can_mine |= Xk.any(axis=0)
        can_safe |= (~Xk).any(axis=0)
        sums_seen[np.unique(S[ok])] = True
    if not sums_seen.any():
        raise InconsistentPositionError("no assignment of the frontier fits the clues (and the total)")
    safe = {s.cell(int(j)) for j in np.flatnonzero(~can_mine)}
    mines = {s.cell(int(j)) for j in np.flatnonzero(~can_safe)}
    if R is not None and I:
        S = np.flatnonzero(sums_seen)
        w = s.shape[1]
        interior = {(int(i) // w, int(i) % w) for i in s.interior}
        if (S == R).all():
            safe |= interior
        if (S == R - I).all():
            mines |= interior
    return safe, mines

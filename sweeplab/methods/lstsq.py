"""Minimum-norm least squares, exactly as report 000 §3.1 proposes.  NOT sound.

Report 000 §3.1 relaxes the cells to real numbers and takes the solution of
``A x = b`` of smallest L2 norm (``numpy.linalg.lstsq``); "the idea is that in
order to get the constant part of solutions, which we also know will be either
0 or 1, we get the least square solution, take the parts that are 0 or 1 from
it and consider them constants".  Cells within ``tol`` of 0 are claimed safe,
within ``tol`` of 1 mines.

Why it is unsound (the report itself: "we haven't had a solid proof for it yet"): an entry of the
minimum-norm solution can be exactly 0 or 1 without the cell being fixed;
it is only the component of the solution orthogonal to the null space, so a
free cell lands on 0 or 1 whenever the geometry of ``A`` happens to put it
there (``sweeplab.examples`` keeps such a position, where ``lstsq`` claims a
wrong cell).  It is kept so, on purpose, and its wrong claims are measured;
:mod:`~sweeplab.methods.lstsq_certified` is the sound version.

A residual ``A x - b`` that is not 0 means the clues have no real solution,
hence no mine layout: :class:`~sweeplab.InconsistentPositionError`.  Needs exact
clues.  Budget as :mod:`~sweeplab.methods.rref` (``time_limit`` checked between
blocks, ``max_bytes`` for the largest dense block).
"""

from __future__ import annotations

import numpy as np

from ..clue_system import MergedSystem
from ..positions import InconsistentPositionError, Observation
from ._common import MAX_BLOCK_BYTES, TIME_LIMIT, Budget, CellSets, exact_system

__all__ = ["forced_cells", "min_norm_solution"]

#: Default tolerance around 0 and 1, and the relative residual above which the
#: system is declared to have no real solution.
TOL = 1e-6


def min_norm_solution(
    obs: Observation, *, use_total: bool = True, budget: Budget | None = None
) -> tuple[np.ndarray, tuple]:
    """The minimum-norm least-squares solution of the clue system, one value per cell.

    The interior cells (covered, touching no clue) only appear in the total
    row, with identical columns: the minimum-norm solution gives them one
    common value ``u`` (averaging them keeps ``A x`` and lowers the norm), and
    minimising ``|x_frontier|^2 + w u^2`` is the plain minimum-norm problem
    with one merged column scaled by ``sqrt(w)``.  So the solve runs on the
    merged system, which stays small on big boards.

    Returns ``(x, cells)``.  Raises :class:`~sweeplab.InconsistentPositionError`
    when the system has no exact real solution (relative residual above ``TOL``),
    :class:`~sweeplab.MethodRefused` past ``budget``.

    Examples
    --------
    >>> from sweeplab import Observation
    >>> x, cells = min_norm_solution(Observation.from_text("??\\n1-"))
    >>> cells, x.round(6).tolist()
    (((0, 0), (0, 1)), [0.5, 0.5])
    """
    budget = budget or Budget("lstsq", time_limit=None)
    system = exact_system(obs, "lstsq", use_total=use_total).merged()
    if system.n_columns == 0:
        return np.zeros(0), ()
    scale = np.sqrt(system.weights.astype(float))
    b = system.b.astype(float)
    y = _min_norm(system, scale, b, budget)
    residual = np.linalg.norm(system.A_sparse @ (scale * y) - b)
    if residual > TOL * max(1.0, float(np.linalg.norm(b))):
        raise InconsistentPositionError(f"the clue system has no real solution (residual {residual:.3g})")
    x = np.repeat(y / scale, system.weights)
    return x, tuple(cell for column in system.columns for cell in column)


def _min_norm(system: MergedSystem, scale: np.ndarray, b: np.ndarray, budget: Budget) -> np.ndarray:
    """``numpy.linalg.lstsq``'s minimum-norm solution of ``A y = b``, block by block (``A``: the
    system's matrix with columns multiplied by ``scale``).

    The clue rows split into independent blocks, whose minimum-norm solutions
    ``x0`` together form that of all clue rows.  The total row ``t . x = T``
    then moves ``x0`` along the part ``N t`` of ``t`` in the clue rows' null
    space, by the least that meets it: ``x = x0 + (T - t . x0) / |N t|^2 N t``
    (the other solutions differ by null-space vectors orthogonal to ``N t``,
    which only add norm).  When ``N t = 0`` the total row is implied or
    contradicted, and the caller's residual test tells which.
    """
    blocks = system.blocks()
    if blocks:
        rows, cols = max(blocks, key=lambda rc: rc[0].size * (rc[1].size + 1))
        budget.dense(rows.size, cols.size + 1, "a block of clue rows")
    x = np.zeros(system.n_columns)
    total = system.dense_row(system.n_rows - 1) * scale if system.has_total else None
    t = None if total is None else total.copy()
    for rows, cols in blocks:
        budget.check(f"solving {len(blocks)} independent blocks")
        B = system.dense_block(rows, cols) * scale[cols]
        x[cols] = np.linalg.lstsq(B, b[rows], rcond=None)[0]
        if t is not None:
            t[cols] -= np.linalg.lstsq(B, B @ t[cols], rcond=None)[0]
    if t is not None and total is not None and t @ t > 1e-12:
        x += (b[-1] - total @ x) / (t @ t) * t
    return x


def forced_cells(
    obs: Observation,
    *,
    use_total: bool = True,
    tol: float = TOL,
    time_limit: float | None = TIME_LIMIT,
    max_bytes: int | None = MAX_BLOCK_BYTES,
) -> CellSets:
    """Cells whose minimum-norm least-squares value is within ``tol`` of 0 or 1 (unsound).

    Parameters
    ----------
    obs : Observation
    use_total : bool, default True
        Add the total-mines row (report 000 §3.1 leaves it out: ``use_total=False``
        reproduces the report).
    tol : float, default 1e-6
        Distance to 0 or 1 within which a value is taken as that constant.
    time_limit : float or None, default 20
        Seconds (``None``: no limit).
    max_bytes : int or None, default 32 MiB
        Largest dense block (``[A | b]`` of one independent block, 8 bytes an entry).

    Returns
    -------
    (set, set)
        Cells claimed safe and claimed mines (claims, not proofs).

    Raises
    ------
    InconsistentPositionError
        When the least-squares residual is not 0, or a clue cannot be met.
    ValueError
        For ``tol`` outside [0, 0.5) or a bad budget.
    MethodRefused
        Under ``"under"``/``"over"`` clue noise, or past the budget.

    Examples
    --------
    Report 002's second board: the minimum-norm solution puts no cell at 0 or
    1 (``rref`` proves two of them):

    >>> from sweeplab import Observation

    >>> forced_cells(Observation.from_text("??????\\n?1122?"))
    (set(), set())
    >>> forced_cells(Observation.from_text("?1\\n11"))
    (set(), {(0, 0)})
    """
    if (isinstance(tol, (bool, np.bool_)) or not isinstance(tol, (int, float, np.integer, np.floating))
            or not 0 <= tol < 0.5):
        raise ValueError(f"option tol of method 'lstsq' must be a number in [0, 0.5), got {tol!r}")
    budget = Budget("lstsq", time_limit=time_limit, max_bytes=max_bytes)
    x, cells = min_norm_solution(obs, use_total=use_total, budget=budget)
    safe = {cells[j] for j in np.flatnonzero(np.abs(x) <= tol)}
    mines = {cells[j] for j in np.flatnonzero(np.abs(x - 1) <= tol)}
    return safe, mines

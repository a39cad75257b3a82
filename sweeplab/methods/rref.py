"""Exact rational RREF and the row bound rule (report 002 Algorithm 1; report 003 Algorithm B).

The clue system ``[A | b]`` (SPEC §2) is brought to reduced row echelon form
exactly: each row is kept as the rational RREF row scaled to coprime integers,
by Gauss-Jordan elimination in compiled ``int64`` arithmetic while no product
can overflow, else with python-flint's fraction-free integer RREF
(``fmpz_mat.rref``); sympy's ``Matrix.rref`` is the readable reference in the
tests.  Independent blocks of clue rows are reduced
separately, which gives the same RREF; the total row, which links every
block, joins afterwards through one more elimination step, and the interior
cells (which only the total row touches) share one weighted column.

Each reduced row is then read with the row bound rule, as report 002 reads
``v3 + v7 + v8 + v10 = 0`` and ``v2 - v5 = -1``: a row whose right side equals
the sum of its positive coefficients fixes those cells to 1 and the negative
ones to 0; equal to the sum of its negative coefficients, the other way round.
Report 003's Algorithm B reads a row with right side 0 as "every variable in
it is 0", which is only true when no coefficient is negative (``x0 - x3 = 0``
allows ``x0 = x3 = 1``); the signed rule here is the sound form of it.

The columns are in the clue system's order (frontier row-major, then the
interior); another order gives another RREF, and report 002 notes that this
changes what one pass finds.

One pass, as the reports describe, by default; ``iterate=True`` substitutes the
cells found and reduces again until nothing changes.

Budget: each independent block is made dense on its own, and a block over
``max_bytes`` (default :data:`~sweeplab.methods._common.MAX_BLOCK_BYTES`, about
2,000 x 2,000 cells) is refused before anything dense is built; ``time_limit``
(default :data:`~sweeplab.methods._common.TIME_LIMIT` seconds) is checked
between blocks.  Past either: :class:`~sweeplab.MethodRefused`.  Sound, not complete:
``x0 + x1 + x2 = 0, x1 + x2 + x3 + x4 = 1`` reduces to rows where no bound is
reached, although the first equation alone shows three safe cells (see
``sweeplab.examples``).  Needs exact clues.
"""

from __future__ import annotations

from ..errors import check_flag
from ..positions import Observation
from ._algebra import read_rows, reduce_blocks, row_bound_rule
from ._common import MAX_BLOCK_BYTES, TIME_LIMIT, Budget, CellSets, exact_system, merge_claims

__all__ = ["forced_cells"]


def forced_cells(
    obs: Observation,
    *,
    use_total: bool = True,
    iterate: bool = False,
    time_limit: float | None = TIME_LIMIT,
    max_bytes: int | None = MAX_BLOCK_BYTES,
) -> CellSets:
    """Cells that the row bound rule fixes in the exact RREF of the clue system.

    Parameters
    ----------
    obs : Observation
    use_total : bool, default True
        Add the total-mines row when the total is known.
    iterate : bool, default False
        Substitute the cells found and reduce again, to a fixpoint.
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
        When a reduced row cannot be met (``0 = 1``, or a right side outside the
        row's range).
    MethodRefused
        Under ``"under"``/``"over"`` clue noise, or past the budget.

    Examples
    --------
    Report 002's second board: row 2 of the RREF, ``v2 - v5 = -1``, gives
    ``v2 = 0`` and ``v5 = 1``, "and this is basically all we know":

    >>> from sweeplab import Observation
    >>> safe, mines = forced_cells(Observation.from_text("??????\\n?1122?"))
    >>> sorted(safe), sorted(mines)
    ([(0, 1)], [(0, 4)])
    """
    iterate = check_flag("option iterate of method 'rref'", iterate)
    budget = Budget("rref", time_limit=time_limit, max_bytes=max_bytes)
    system = exact_system(obs, "rref", use_total=use_total).merged()
    safe: set = set()
    mines: set = set()
    while system.n_columns:
        ones, zeros = read_rows(reduce_blocks(system, budget=budget), system.weights, row_bound_rule)
        if not (ones or zeros):
            break
        mines |= system.cells(ones)
        safe |= system.cells(zeros)
        if not iterate:
            break
        system = system.substitute(ones, zeros)
    return merge_claims(safe, mines)

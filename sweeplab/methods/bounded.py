"""Bounded integer deduction: bounds propagation over the original and the RREF rows.

Report 002 Algorithm 1 and report 003 Algorithm B read each reduced row once
with the bound rule.  This method goes as far as that idea goes while staying
with rows of ``[A | b]``: every cell is 0 or 1, so for each row and each of its
cells, the rest of the row has a known range, and a cell whose value 1 (or 0)
would push the rest out of range is fixed (bounds propagation; it contains
the row bound rule, and on the original 0/1 rows it is report 000 §2.2's
single-clue rule).  The rule runs first on the original rows (with the
total-mines row), then on the exact RREF rows (as in
:mod:`~sweeplab.methods.rref`), those of the system both with and without the
total row; every cell found is substituted and the whole repeated until
nothing changes.  (The total row changes the reduced basis: read alone, the
rows with it lost cells that the clues alone prove, on 14 of the 323
positions of ``data/corpus/corpus-small.jsonl.gz`` with a known total and
exact clues.  Read together, none; the rows it changes are a few of one
block, so this costs next to nothing.)

Sound, not complete: it never combines more than one row at a time beyond
what the RREF exposes (an LP or an integer program can go further).  Needs
exact clues.  Budget as :mod:`~sweeplab.methods.rref` (``time_limit`` checked
between blocks and passes, ``max_bytes`` for the largest dense block).
"""

from __future__ import annotations

from ..positions import Observation
from ._algebra import bound_fixpoint, bound_propagation, read_rows, reduce_blocks
from ._common import MAX_BLOCK_BYTES, TIME_LIMIT, Budget, CellSets, exact_system, merge_claims

__all__ = ["forced_cells"]


def forced_cells(
    obs: Observation,
    *,
    use_total: bool = True,
    time_limit: float | None = TIME_LIMIT,
    max_bytes: int | None = MAX_BLOCK_BYTES,
) -> CellSets:
    """Cells fixed by bounds propagation on original and RREF rows, to a fixpoint.

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
        When a row cannot be met by 0/1 cells or a cell is forced both ways.
    MethodRefused
        Under ``"under"``/``"over"`` clue noise, or past the budget.

    Examples
    --------
    ``x0 + x1 + x2 = 0, x1 + x2 + x3 + x4 = 1``: one RREF pass sees nothing,
    the original first row fixes three safe cells.

    >>> from sweeplab import Observation
    >>> safe, mines = forced_cells(Observation.from_text("????\\nF11?"))
    >>> sorted(safe), sorted(mines)
    ([(0, 0), (0, 1), (0, 2)], [])
    """
    budget = Budget("bounded", time_limit=time_limit, max_bytes=max_bytes)
    system = exact_system(obs, "bounded", use_total=use_total).merged()
    safe: set = set()
    mines: set = set()
    stalled = False  # whether propagation on the original rows has nothing more to find
    while system.n_columns:
        budget.check("propagating bounds")
        if stalled:  # the RREF rows, read once on the system propagation left
            rows = reduce_blocks(system, budget=budget, keep_replaced=True)  # with and without the total
            ones, zeros = read_rows(rows, system.weights, bound_propagation)
            if not (ones or zeros):
                break
        else:  # the original rows, to their fixpoint
            ones, zeros = bound_fixpoint(system.A_sparse, system.b, system.weights)
        stalled = not stalled
        if ones or zeros:
            mines |= system.cells(ones)
            safe |= system.cells(zeros)
            system = system.substitute(ones, zeros)
    return merge_claims(safe, mines)

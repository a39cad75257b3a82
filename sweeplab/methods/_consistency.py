"""Whether some layout fits a position: the consistency check of ``deduce`` and ``prove``.

Incomplete methods cannot see every contradiction (``"??0"`` with 2 mines
looks fine to ``gf2``), and from contradictory clues every claim follows, so
:func:`sweeplab.deduce` and :func:`sweeplab.prover.prove` ask exact
enumeration, within a small budget, before they answer.
"""

from __future__ import annotations

from ..errors import InconsistentPositionError, MethodRefused
from ..positions import Observation

__all__ = ["has_layout", "CONSISTENCY_NODES", "CONSISTENCY_BYTES", "CONSISTENCY_SECONDS"]

#: Node budget of the check (well under a millisecond on expert positions; past it the position is
#: reported unchecked rather than waited for).
CONSISTENCY_NODES = 20_000
#: Memory and time budgets of that check: past either, the position is reported unchecked.
CONSISTENCY_BYTES = 64 << 20
CONSISTENCY_SECONDS = 1.0


def has_layout(obs: Observation, *, use_total: bool,
               time_limit: float | None = CONSISTENCY_SECONDS) -> bool | None:
    """``True`` when exact enumeration finds a layout, ``None`` past its budget; raises when none fits.

    Past the budget, the blocks of the frontier are still searched one by one
    within the node budget alone (:func:`~sweeplab.methods.enumerate.block_contradiction`):
    a block no layout fits (a local contradiction), or a total that no sum of
    the blocks' mine counts reaches, is found whatever the size of the rest
    and the machine; when every block is searched to its end and neither is
    found, a layout fits (``True``).  Otherwise the LP relaxation of the whole
    position, total row included, is solved (HiGHS, within ``time_limit``): when it has no point no layout
    fits, which finds a total no layout can hold (on 100,000 covered cells
    0.4 s to refuse, 1.7 s to pass).  Only a position past both, or with a
    fractional point and no layout, is left unchecked (``None``).

    ``time_limit=None`` keeps only the node and memory budgets, so the answer
    does not depend on the machine (the first call in a process also compiles
    the enumeration, which a time limit would count).

    Raises
    ------
    InconsistentPositionError
        When no layout fits.

    Examples
    --------
    >>> has_layout(Observation.from_text("??1", mines=1), use_total=True)
    True
    >>> has_layout(Observation.from_text("??0", mines=2), use_total=True)
    Traceback (most recent call last):
    ...
    sweeplab.errors.InconsistentPositionError: ...
    """
    from .enumerate import analyse, block_check  # numba: imported on first use

    try:
        analyse(obs, use_total=use_total, probabilities=False, max_nodes=CONSISTENCY_NODES,
                max_bytes=CONSISTENCY_BYTES, time_limit=time_limit)
    except MethodRefused:
        try:
            reason, complete = block_check(obs, use_total=use_total, max_nodes=CONSISTENCY_NODES,
                                           max_bytes=CONSISTENCY_BYTES)
        except MethodRefused:  # count arrays over the memory budget: the LP may still tell
            reason, complete = None, False
        if reason is not None:
            raise InconsistentPositionError(reason) from None
        if complete:  # every block searched, the total met: a layout fits
            return True
        _check_relaxation(obs, use_total=use_total, time_limit=time_limit)
        return None
    return True


def _check_relaxation(obs: Observation, *, use_total: bool, time_limit: float | None) -> None:
    """Raise when the LP relaxation of the position has no point; return when it has one or passes
    ``time_limit``."""
    from ..clue_system import clue_system
    from ._common import Budget
    from ._relaxation import Relaxation

    budget = Budget("the consistency check", time_limit=time_limit)
    try:
        Relaxation(clue_system(obs, use_total=use_total).cell_bounds(), budget).check_feasible()
    except MethodRefused:
        pass

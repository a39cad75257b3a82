"""The single-clue rule, applied as a player would (report 000 §2.2; report 003 Algorithm A).

Each clue is read alone: when its number equals its known mines, every other
covered neighbour is safe (``value == knownViruses``); when it equals its known
mines plus its covered neighbours, they are all mines (``value ==
unrevealed``).  What is found is applied and the rule re-run until nothing
changes.  With ``use_total`` the total-mines count is one more such clue over
every covered cell (report 001, "Global Information").

Clue noise (report 004) is read soundly: under ``"under"`` a shown number is a
lower bound on the truth, so only the all-mines rule applies; under ``"over"``
it is an upper bound, so only the all-safe rule applies.  The total stays exact.

Sound, not complete.  Works on the padded grid, no matrices: a compiled worklist
(:meth:`~sweeplab.methods._grid_rules.Board.single_clue_rule`) re-checks only the clues
around each cell it decides.  Its budget is that bound: each clue is re-checked
at most once per neighbour decided, so the work is linear in the board (a
fraction of a second at 1000 x 1000), and it takes no ``time_limit``.
"""

from __future__ import annotations

from ..clue_system import clue_system
from ..positions import Observation
from ._common import CellSets
from ._grid_rules import Board

__all__ = ["forced_cells"]


def forced_cells(obs: Observation, *, use_total: bool = True) -> CellSets:
    """Cells the single-clue rule proves safe or mined, to a fixpoint.

    Parameters
    ----------
    obs : Observation
    use_total : bool, default True
        Also use the board's total as a clue over every covered cell.

    Returns
    -------
    (set, set)
        Safe cells and mines, as ``(row, col)``.

    Raises
    ------
    InconsistentPositionError
        When a clue needs more mines than it has covered neighbours, fewer
        than it already has, or a cell is forced both ways.

    Examples
    --------
    Report 001: ``A + B + C = 1`` with ``A`` flagged leaves ``B`` and ``C`` safe.

    >>> from sweeplab import Observation
    >>> safe, mines = forced_cells(Observation.from_text("?F?\\n-1-"))
    >>> sorted(safe), sorted(mines)
    ([(0, 0), (0, 2)], [])
    """
    board = Board(clue_system(obs, use_total=use_total))
    board.single_clue_rule(obs.noise)
    return board.claims()

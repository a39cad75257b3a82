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

Sound, not complete.  Works on the padded grid with numpy, no matrices.
"""

from __future__ import annotations

import numpy as np

from ..positions import InconsistentPositionError, Observation
from ._common import Board, CellSets

__all__ = ["forced_cells", "propagate"]


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
    board = Board(obs, use_total=use_total)
    propagate(board, noise=obs.noise)
    return board.claims()


def propagate(board: Board, *, noise: str | None = None) -> bool:
    """Apply the single-clue rule and the total rule to ``board`` until nothing changes.

    Returns whether anything was found.
    """
    found = False
    while True:
        clues = board.watch
        nb = board.neighbours(clues)
        unknown = board.unknown[nb]
        unk = unknown.sum(axis=1)
        need = board.clue[clues] - board.mine[nb].sum(axis=1)
        if noise == "under":  # shown <= truth: the covered neighbours hold at least `need`
            bad = need > unk
            to_safe, to_mine = np.zeros(unk.shape, dtype=bool), need == unk
        elif noise == "over":  # shown >= truth: the covered neighbours hold at most `need`
            bad = need < 0
            to_safe, to_mine = need == 0, np.zeros(unk.shape, dtype=bool)
        else:
            bad = (need < 0) | (need > unk)
            to_safe, to_mine = need == 0, need == unk
        if bad.any():
            k = int(np.flatnonzero(bad)[0])
            raise InconsistentPositionError(
                f"clue at {board.cell(int(clues[k]))} needs {int(need[k])} more mines "
                f"among {int(unk[k])} covered cells"
            )
        live = unk > 0  # a clue with no undecided neighbour left never changes again
        board.watch = clues[live]
        nb, unknown = nb[live], unknown[live]
        to_safe, to_mine = to_safe[live], to_mine[live]
        changed = board.apply(nb[to_safe][unknown[to_safe]], nb[to_mine][unknown[to_mine]])
        changed = board.total_rule() or changed
        if not changed:
            return found
        found = True
